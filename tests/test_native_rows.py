"""The native row builder (kgdiff._native) gives exactly the rows and rejects of the Python path.

The Python path (msgspec structs → kgdiff.rows) is the reference: every table the
extension builds must hold the same rows, whatever the input: real dumps and
entities, and generated entities with every odd shape the Python path accepts or
refuses (those the extension defers). CI installs simdjson, so there a missing
extension is a failure, not a skip.
"""

from __future__ import annotations

import bz2
import itertools
import json
import os
from collections import Counter
from typing import Any

import pyarrow as pa
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.ingest.parse import ChunkResult, EntityTexts, parse_entity_texts, parse_json_chunk
from kgdiff.readers.json_dump import Chunk, LineLayout, iter_entity_spans
from kgdiff.readers.wikidata_xml import decode_entity_text, iter_entity_pages
from kgdiff.rows.native import native_enabled, native_rows
from kgdiff.store.buckets import KEY_COLUMNS
from kgdiff.store.subject_runs import RUN_ORDERED_TABLES
from tests.paths import DATA, SAMPLES

if not native_enabled():
    if os.environ.get("CI") == "true":
        pytest.fail("kgdiff._native is not built: CI must install g++ and libsimdjson-dev")
    pytest.skip("kgdiff._native is not built (no simdjson)", allow_module_level=True)


def _chunk(lines: list[bytes]) -> Chunk:
    body = b"[\n" + b",\n".join(lines) + b"\n]\n"
    return Chunk(0, 0, 0, body)


def _plain(table: pa.Table) -> pa.Table:
    """Day numbers as int32: far dates are beyond Python's ``datetime.date``."""
    schema = pa.schema(
        [pa.field(f.name, pa.int32()) if pa.types.is_date32(f.type) else f for f in table.schema]
    )
    return table.cast(schema)


def _rows(result: ChunkResult) -> dict[str, list[str]]:
    return {
        name: sorted(repr(row) for row in _plain(table).to_pylist())
        for name, table in result.tables.items()
    }


ENTITY_ORDER = {
    "labels": ("kind", "lang", "ordinal"),
    "sitelinks": ("site",),
    "statements": ("pid", "ordinal"),
}
"""What orders an entity's rows in the run-ordered tables (kgdiff.store.subject_runs)."""


def assert_entity_rows_in_published_order(result: ChunkResult) -> None:
    """The rows of each entity are together and in the published order, so finalize may
    move them as one run (an entity twice in a chunk is checked by the finalize tests)."""
    assert set(ENTITY_ORDER) == RUN_ORDERED_TABLES
    counts = Counter(result.tables["entities"].column("qid").to_pylist())
    for name, columns in ENTITY_ORDER.items():
        key = KEY_COLUMNS[name]
        rows = result.tables[name].select([key, *columns]).to_pylist()
        runs = [
            (subject, [tuple(row[column] for column in columns) for row in run])
            for subject, run in itertools.groupby(rows, key=lambda row: row[key])
        ]
        once = [(subject, keys) for subject, keys in runs if counts[subject] == 1]
        assert len({subject for subject, _ in once}) == len(once), f"{name}: an entity split"
        for subject, keys in once:
            assert keys == sorted(keys), (name, subject)


def assert_same(chunk: Chunk) -> ChunkResult:
    """Parse ``chunk`` both ways; everything but the row order must agree."""
    native = parse_json_chunk(chunk, native=True)
    python = parse_json_chunk(chunk, native=False)
    assert_entity_rows_in_published_order(native)
    assert_entity_rows_in_published_order(python)
    assert (native.entities, native.statements) == (python.entities, python.statements)
    assert native.rejects == python.rejects
    assert native.layout == python.layout
    assert _rows(native) == _rows(python)
    for name, table in native.tables.items():
        assert table.schema == python.tables[name].schema, name
    return native


def _entity_docs(path: str) -> list[dict[str, Any]]:
    doc = json.loads((DATA / path).read_bytes())
    return list(doc["entities"].values()) if "entities" in doc else [doc]


def test_real_2014_dump_agrees() -> None:
    data = bz2.decompress((SAMPLES / "testDump_json_2014-12.json.bz2").read_bytes())
    result = assert_same(Chunk(0, 0, 0, data))
    assert result.entities > 100 and result.statements > 1000


def test_wdtk_mock_dump_agrees() -> None:
    result = assert_same(
        Chunk(0, 0, 0, (DATA / "native/mock-dump-for-long-testing.json").read_bytes())
    )
    assert result.entities == 101


@pytest.mark.parametrize("dump", ["testDump_xml_2013-12.xml.bz2", "testDump_xml_2014-10.xml.bz2"])
def test_the_texts_of_xml_dumps_give_the_python_paths_rows(dump: str) -> None:
    """XML texts in today's serialisation go to the extension, the legacy ones to Python."""
    with bz2.open(SAMPLES / dump, "rb") as stream:
        texts = [page.text for page in iter_entity_pages(stream)]
    batch = EntityTexts(0, 0, [(record, 0, text) for record, text in enumerate(texts, 1)])
    python = parse_entity_texts(batch, decode_entity_text, native=False)
    native = parse_entity_texts(batch, decode_entity_text, native=True)
    assert _rows(native) == _rows(python)
    assert (native.entities, native.statements, native.input_bytes) == (
        python.entities,
        python.statements,
        python.input_bytes,
    )
    assert not native.rejects and native.entities == len(texts)


@pytest.mark.parametrize(
    "path",
    [
        "native/items_Q183.json",
        "native/wd_P279.json",
        "native/wd_L3354.json",
        "wd_Q42.json",
        "wdtk_item.json",
        "wdtk_lexeme.json",
        "wdtk_mediainfo.json",
        "wdtk_property.json",
    ],
)
def test_real_entities_agree_and_are_not_deferred(path: str) -> None:
    lines = [json.dumps(doc).encode() for doc in _entity_docs(path)]
    chunk = _chunk(lines)
    assert_same(chunk)
    spans = [(line, start, end) for line, _, start, end in iter_entity_spans(chunk)]
    assert native_rows(chunk.data, spans).deferred == []


def claim(statement: bytes) -> bytes:
    """An entity line whose only statement is ``statement``."""
    return b'{"id": "Q1", "claims": {"P1": [' + statement + b"]}}"


ODD_LINES = [
    b'{"id": "Q1", "labels": {"en": {"value": "a"}, "en": {"value": "b"}}}',
    b'{"id": "Q1", "id": "Q2"}',
    b'{"id": "Q1", "labels": {"en": {"language": "en", "value": "a", "value": "b"}}}',
    b'{"id": "Q1", "labels": "x"}',
    b'{"id": "Q1", "labels": []}',
    b'{"id": "Q1", "lastrevid": "5"}',
    b'{"id": "Q1", "lastrevid": 1.5}',
    b'{"id": "Q1", "lastrevid": 123456789012345678901234}',
    b'{"id": "Q1", "lastrevid": null, "modified": null, "redirect": null}',
    b'{"id": "", "type": "item"}',
    b'{"type": "item"}',
    b'{"id": null}',
    claim(b'{"rank": "normal"}'),
    claim(b'{"mainsnak": {"snaktype": "value"}}'),
    claim(b'{"mainsnak": {"snaktype": "somevalue"}, "references": null}'),
    claim(b'{"mainsnak": {"snaktype": "novalue"}, "rank": null}'),
    claim(b'{"mainsnak": {"snaktype": "other"}, "references": [1, {}]}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "string", "value": 5}}}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "x", "value": [1]}}}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "x", "value": null}}}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "x"}}}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "x", "value": {}}}}'),
    claim(b'{"mainsnak": {"datavalue": {"type": "x", "value": true}}}'),
    b'{"id": "Q1", "claims": {"P1": [], "P2": "x"}}',
    b'{"id": "Q1", "claims": {"P1": [{"mainsnak": {"snaktype": "novalue"}}]}, '
    b'"statements": {"P2": [{"mainsnak": {"snaktype": "novalue"}}]}}',
    b'{"id": "M1", "claims": [], "statements": {"P2": [{"mainsnak": {"snaktype": "novalue"}}]}}',
    b'{"id": "Q1", "redirects": {"from": "Q1", "to": "Q2"}}',
    b'{"id": "Q1", "redirects": {"to": 5}}',
    b'{"id": "Q1", "redirect": "", "redirects": {"to": ""}}',
    b'{"id": "Q1", "sitelinks": {"enwiki": {"title": "A", "badges": null}}}',
    b'{"id": "Q1", "sitelinks": {"enwiki": {"title": "A", "badges": ["Q17437796", 5]}}}',
    b'{"id": "Q1", "aliases": {"en": [{"value": "a"}, "b"]}}',
    b'{"id": "Q1", "aliases": {"en": []}, "labels": {"en": {"value": ""}}, '
    b'"lemmas": {"en": {"value": "lemma"}}}',
    b'{"id": "Q1", "labels": {"en": {"value": ""}}}',
    b'{"id": "Q1", "unknown": {"deep": [1, 2, {"x": null}]}, "labels": {"de": {}}}',
    b'{"id": "Q1", "labels": {"en": {"value": "\\ud800"}}}',
    b'{"id": "Q1", "labels": {"en": {"value": "a\\u00e9\\ud83d\\ude00"}}}',
    b'{"id": "Q1",',
    b'{"id": "Q1"} trailing',
    b"[1, 2]",
    b'"text"',
    b'{"id": "Q1", "labels": {"en": {"value": "\xff"}}}',
]


@pytest.mark.parametrize("line", ODD_LINES, ids=range(len(ODD_LINES)))
def test_odd_entities_agree(line: bytes) -> None:
    assert_same(_chunk([b'{"id": "Q9", "labels": {"en": {"value": "x"}}}', line]))


def test_rows_of_a_deferred_entity_are_dropped() -> None:
    bad = b'{"id": "Q2", "labels": {"en": {"value": "a"}}, "claims": {"P1": [{"rank": "x"}]}}'
    chunk = _chunk([b'{"id": "Q1", "labels": {"de": {"value": "b"}}}', bad])
    spans = [(line, start, end) for line, _, start, end in iter_entity_spans(chunk)]
    rows = native_rows(chunk.data, spans)
    assert rows.deferred == [1]
    assert rows.tables["labels"].column("qid").to_pylist() == ["Q1"]
    assert rows.tables["entities"].column("qid").to_pylist() == ["Q1"]


# Generated entities: every field drawn from values of the right and of the wrong shape.

TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=6)
OPT_TEXT = st.one_of(st.none(), TEXT, st.sampled_from(["", "en", "Q5", "item"]))


def mostly(valid: st.SearchStrategy[Any], odd: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Mostly valid values (odd ones one time in twelve), so most entities stay native."""
    return st.integers(0, 11).flatmap(lambda pick: odd if pick == 5 else valid)


FLOAT = st.one_of(
    st.floats(allow_nan=False, allow_infinity=False),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0.0, -0.0, 1e16, 1e-5, 0.0001, 123456789.125, 5e-324, 1.7976931348623157e308]),
)
NUMBER = mostly(FLOAT, st.integers(-(10**20), 10**20))
TIME_OK = st.builds(
    lambda sign, year, month, day: f"{sign}{year}-{month:02d}-{day:02d}T00:00:00Z",
    st.sampled_from(["+", "-"]),
    st.one_of(st.integers(0, 3000), st.integers(0, 10**15 - 1)).map(lambda y: str(y).rjust(4, "0")),
    st.integers(0, 12),
    st.integers(0, 31),
)
YEAR = st.one_of(
    st.integers(0, 10**4).map(str),
    st.integers(0, 10**20).map(lambda n: str(n).rjust(11, "0")),
    st.sampled_from(["0000", "00000000000", "1", "12", "999999999999999", "1000000000000000"]),
)
TIME_ODD = st.one_of(
    st.builds(
        lambda sign, year, month, day, rest: f"{sign}{year}-{month:02d}-{day:02d}{rest}",
        st.sampled_from(["+", "-", ""]),
        YEAR,
        st.integers(0, 19),
        st.integers(0, 39),
        st.sampled_from(["T00:00:00Z", "", "T12:30:00Z", "TX"]),
    ),
    st.sampled_from(["", "+2014-3-5T00:00:00Z", "+２０１４-03-05T00:00:00Z", "garbage"]),
)
TIME = mostly(TIME_OK, TIME_ODD)
CALENDAR = mostly(
    st.sampled_from(
        [
            None,
            "",
            "Q1985727",
            "http://www.wikidata.org/entity/Q1985786",
            "http://www.wikidata.org/entity/Q1985727",
        ]
    ),
    st.sampled_from(
        ["Q1985786", "http://www.wikidata.org/entity/Q1985727/", "http://x.org/Q12", "Q", "Qx1"]
    ),
)
PRECISION = mostly(
    st.one_of(st.integers(0, 14), st.floats(0, 14.99)),
    st.one_of(st.none(), st.integers(-2, 16), st.floats(-2, 16), st.just("11")),
)


def _value_fields(kind: str) -> st.SearchStrategy[dict[str, Any]]:
    if kind == "time":
        return st.fixed_dictionaries(
            {"time": TIME, "precision": PRECISION, "calendarmodel": CALENDAR},
        )
    if kind == "quantity":
        amount = mostly(
            st.sampled_from(["+12", "12", "-0.5", "", "+0"]), st.one_of(st.none(), FLOAT)
        )
        unit = st.sampled_from([None, "", "1", "http://www.wikidata.org/entity/Q11573", "Q11573"])
        return st.fixed_dictionaries({"amount": amount}, optional={"unit": unit})
    if kind == "globecoordinate":
        globe = st.sampled_from([None, "", "http://www.wikidata.org/entity/Q2", "Q405"])
        return st.fixed_dictionaries(
            {"latitude": NUMBER, "longitude": NUMBER},
            optional={"globe": globe, "precision": PRECISION},
        )
    if kind == "monolingualtext":
        return st.fixed_dictionaries({}, optional={"text": OPT_TEXT, "language": OPT_TEXT})
    valid = st.one_of(
        st.fixed_dictionaries({"id": st.sampled_from(["Q5", "P31", "L1"])}),
        st.fixed_dictionaries(
            {
                "entity-type": st.sampled_from(["item", "property", "lexeme", ""]),
                "numeric-id": st.integers(-5, 10**6),
            }
        ),
    )
    odd = st.fixed_dictionaries(
        {},
        optional={
            "id": OPT_TEXT,
            "entity-type": st.sampled_from([None, "", "item", "form", 5]),
            "numeric-id": st.one_of(st.none(), st.integers(-5, 10**6), st.just(1.0)),
        },
    )
    return mostly(valid, odd)


VALUE_KINDS = ["time", "quantity", "globecoordinate", "monolingualtext", "wikibase-entityid"]
VALUE_FIELDS = {kind: _value_fields(kind) for kind in VALUE_KINDS}
"""Each kind's value strategy, built once: strategies built inside a draw are built and
validated anew for every example (the generation took more time than the parsing)."""
SNAK_TYPE = st.sampled_from(["value", "value", "value", "somevalue", "novalue", ""])
SNAK_KIND = st.sampled_from([*VALUE_KINDS, "string"])


@st.composite
def snaks(draw: st.DrawFn) -> dict[str, Any]:
    snak: dict[str, Any] = {"snaktype": draw(SNAK_TYPE), "property": "P1"}
    if draw(st.booleans()):
        snak["datatype"] = draw(OPT_TEXT)
    kind = draw(SNAK_KIND)
    if kind == "string":
        snak["datavalue"] = {"type": "string", "value": draw(TEXT)}
    elif draw(st.integers(0, 29)) > 0:
        snak["datavalue"] = {"type": kind, "value": draw(VALUE_FIELDS[kind])}
    return snak


SNAK = snaks()
QUALIFIER_SNAKS = st.lists(SNAK, min_size=1, max_size=2)
STATEMENT_ID = st.one_of(st.none(), TEXT)
RANK = st.sampled_from(["normal", "preferred", "deprecated"])
QUALIFIER_PIDS = st.lists(
    st.sampled_from(["P580", "P582", "P585", "P642"]), max_size=4, unique=True
)
ORDER_PICKS = st.lists(st.integers(0, 4), max_size=5)
"""Positions in a statement's qualifier pids and P9 (one strategy for every statement: one
built per statement from its pids took a tenth of the generation)."""


@st.composite
def statements(draw: st.DrawFn) -> dict[str, Any]:
    statement: dict[str, Any] = {"mainsnak": draw(SNAK)}
    if draw(st.booleans()):
        statement["id"] = draw(STATEMENT_ID)
    if draw(st.booleans()):
        statement["rank"] = draw(RANK)
    pids = draw(QUALIFIER_PIDS)
    if pids:
        statement["qualifiers"] = {pid: draw(QUALIFIER_SNAKS) for pid in pids}
        if draw(st.booleans()):
            statement["qualifiers-order"] = pids
        else:  # any list of up to five of the statement's qualifier pids and P9
            named = [*pids, "P9"]
            statement["qualifiers-order"] = [named[i % len(named)] for i in draw(ORDER_PICKS)]
    statement["references"] = [{}] * draw(st.integers(0, 2))
    return statement


TERMS = st.dictionaries(
    st.sampled_from(["en", "de", "fr"]), TEXT.map(lambda v: {"value": v}), max_size=3
)
ENTITY_ID = st.sampled_from(["Q1", "Q42", "P31", "L7", "M9"])
DESCRIPTIONS: st.SearchStrategy[Any] = st.one_of(TERMS, st.just([]))
ALIASES = st.dictionaries(
    st.sampled_from(["en", "de"]),
    st.lists(TEXT.map(lambda v: {"value": v}), max_size=2),
    max_size=2,
)
LINKS = st.fixed_dictionaries({"title": TEXT}, optional={"badges": st.lists(TEXT, max_size=2)})
SITELINKS = st.dictionaries(st.sampled_from(["enwiki", "dewiki"]), LINKS, max_size=2)
GROUPS = st.dictionaries(
    st.sampled_from(["P31", "P580", "P1082", "P625"]),
    st.lists(statements(), max_size=3),
    max_size=3,
)
GROUPS_KEY = st.sampled_from(["claims", "claims", "statements"])
EXTRAS = {
    "lastrevid": mostly(st.integers(0, 10**9), st.one_of(TEXT, st.integers(2**63, 2**64))),
    "modified": mostly(st.just("2024-01-01T00:00:00Z"), st.integers(0, 9)),
    "redirect": mostly(st.sampled_from(["", "Q2"]), st.integers(0, 9)),
    "datatype": mostly(st.one_of(st.none(), TEXT), st.integers(0, 9)),
}


@st.composite
def entities(draw: st.DrawFn) -> dict[str, Any]:
    entity: dict[str, Any] = {"id": draw(ENTITY_ID), "type": "item"}
    entity["labels"] = draw(TERMS)
    entity["descriptions"] = draw(DESCRIPTIONS)
    entity["aliases"] = draw(ALIASES)
    if draw(st.booleans()):
        entity["lemmas"] = draw(TERMS)
    entity["sitelinks"] = draw(SITELINKS)
    entity[draw(GROUPS_KEY)] = draw(GROUPS)
    for key, value in EXTRAS.items():
        if draw(st.booleans()):
            entity[key] = draw(value)
    return entity


@settings(max_examples=300)
@given(st.lists(entities(), min_size=1, max_size=4))
def test_generated_entities_agree(docs: list[dict[str, Any]]) -> None:
    assert_same(_chunk([json.dumps(doc).encode() for doc in docs]))


MAP_KEYS = st.text(alphabet="ab\x00\x7f\u00e9\U0001f600", max_size=12)
"""Keys sharing long prefixes, NUL and bytes above 0x7f: the native walk sorts map keys on
their first eight bytes first, and must still agree with a bytewise order everywhere."""


@settings(max_examples=200)
@given(
    st.dictionaries(MAP_KEYS, TEXT.map(lambda v: {"value": v}), max_size=12),
    st.dictionaries(MAP_KEYS, st.fixed_dictionaries({"title": TEXT}), max_size=12),
)
def test_map_keys_leave_in_bytewise_order(labels: dict[str, Any], links: dict[str, Any]) -> None:
    doc = {"id": "Q1", "type": "item", "labels": labels, "sitelinks": links}
    result = assert_same(_chunk([json.dumps(doc).encode()]))
    assert result.tables["labels"].column("lang").to_pylist() == sorted(labels)
    badges = result.tables["sitelinks"].column("badges")  # none given: empty lists, not null
    assert badges.null_count == 0 and all(b == [] for b in badges.to_pylist())


@settings(max_examples=300)
@given(st.one_of(NUMBER, st.floats(allow_nan=False, allow_infinity=False, width=32)))
def test_coordinate_keys_are_python_float_reprs(number: float) -> None:
    value = {"latitude": number, "longitude": -number, "globe": "http://www.wikidata.org/entity/Q2"}
    snak = {
        "snaktype": "value",
        "property": "P625",
        "datavalue": {"type": "globecoordinate", "value": value},
    }
    doc = {"id": "Q1", "claims": {"P625": [{"mainsnak": snak}]}}
    result = assert_same(_chunk([json.dumps(doc).encode()]))
    if isinstance(number, float) or abs(number) < 2**63:
        expected = f"{float(number)!r},{float(-number)!r},Q2"
        assert result.tables["statements"].column("value").to_pylist() == [expected]


@settings(max_examples=300)
@given(TIME, PRECISION, CALENDAR)
def test_time_values_agree(time: str | None, precision: Any, calendar: str | None) -> None:
    value = {"time": time, "precision": precision, "calendarmodel": calendar}
    snak = {"snaktype": "value", "property": "P580", "datavalue": {"type": "time", "value": value}}
    doc = {
        "id": "Q1",
        "claims": {"P39": [{"mainsnak": snak, "qualifiers": {"P580": [snak], "P582": [snak]}}]},
    }
    assert_same(_chunk([json.dumps(doc).encode()]))


def _reference_lines(chunk: Chunk) -> tuple[list[tuple[int, int, bytes]], LineLayout]:
    """The framing as first written: split on newlines, strip, drop a trailing comma."""
    layout = LineLayout()
    out = []
    line_no, pos = chunk.first_line, chunk.offset
    for line in bytes(chunk.data).split(b"\n"):
        line_no += 1
        start, pos = pos, pos + len(line) + 1
        text = line.strip()
        if text.endswith(b","):
            text = text[:-1].rstrip()
        if not text:
            continue
        if text in (b"[", b"]"):
            layout.brackets.append((start, text.decode()))
            continue
        if layout.first_content is None:
            layout.first_content = start
        layout.last_content = start
        out.append((line_no, start, text))
    return out, layout


@given(
    st.lists(
        st.sampled_from(
            [b"[", b"]", b",", b" ", b"\t", b"\r", b"\n", b"{}", b"x", b"\x0c", b"\xa0"]
        ),
        max_size=40,
    ),
    st.integers(0, 10**6),
)
def test_entity_spans_match_the_line_splitting_reference(parts: list[bytes], offset: int) -> None:
    chunk = Chunk(0, offset, 3, b"".join(parts))
    layout = LineLayout()
    spans = [
        (line, pos, chunk.data[start:end])
        for line, pos, start, end in iter_entity_spans(chunk, layout)
    ]
    assert (spans, layout) == _reference_lines(chunk)
