"""The relation catalogue: the shipped file covers the seeds' relations and renders, a user's
file adds to it or replaces it, and each malformed file is one error naming its line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import UsageError
from kgdiff.export.relations.catalogue import (
    ContextPage,
    ObjectType,
    Relation,
    RelationCatalogue,
    Templates,
    dump_catalogue,
    load_catalogue,
    parse_catalogue,
    shipped_catalogue,
)
from kgdiff.export.relations.phrasing import sentence_start
from kgdiff.export.relations.templates import ALL_FIELDS, TEMPLATE_FIELDS
from kgdiff.temporal.chains import load_relations
from tests.paths import DATA, ROOT

SEEDS = json.loads((DATA / "seed_pids.json").read_text(encoding="utf-8"))


def relation(pid: str = "P6", drop: tuple[str, ...] = (), **fields: str) -> str:
    """A valid relation table (head of government), with ``fields`` as raw TOML values
    replacing or adding to its own, and the ``drop`` fields left out."""
    values = {
        "label": '"head of government"',
        "object_type": '"item"',
        "object_class": '"Q5"',
        "multi_valued": "false",
        "context": '"object"',
        "question": '"Who leads the government of {subject}?"',
        "cloze": '"The government of {subject} is led by"',
        "statement": '"{object} leads the government of {subject}."',
        "question_at": '"In {year}, who led the government of {subject}?"',
        "cloze_at": '"In {year}, the government of {subject} was led by"',
        "statement_at": '"In {year}, {object} led the government of {subject}."',
        **fields,
    }
    lines = [f"{name} = {value}" for name, value in values.items() if name not in drop]
    return "\n".join([f"[{pid}]", *lines]) + "\n"


def error_of(tmp_path: Path, text: str | bytes) -> str:
    """The message of the usage error a user's file with ``text`` gives (one line)."""
    path = tmp_path / "my relations.toml"
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    with pytest.raises(UsageError) as caught:
        load_catalogue(path)
    message = str(caught.value)
    assert "\n" not in message and str(path) in message
    return message


def test_the_shipped_catalogue_covers_every_seed_and_the_chain_map() -> None:
    catalogue = shipped_catalogue()
    assert len(SEEDS["antileakbench"]) == 39 and len(SEEDS["chroknowbench_general"]) == 8
    for seed, pids in SEEDS.items():
        assert [pid for pid in pids if pid not in catalogue] == [], seed
    chain_map = load_relations()
    assert chain_map == catalogue.hop_map() and "P69" in chain_map["P6"]
    assert all(pid in catalogue for hops in chain_map.values() for pid in hops)
    assert load_catalogue(None) is catalogue


def test_every_shipped_template_renders_with_its_values() -> None:
    for rel in shipped_catalogue():
        rendered = [
            rel.question("Ruritania"),
            rel.cloze("Ruritania"),
            rel.statement("Ruritania", "Rudolf Rassendyll"),
            rel.question_at("Ruritania", 1894),
            rel.cloze_at("Ruritania", 1894),
            rel.statement_at("Ruritania", "Rudolf Rassendyll", 1894),
        ]
        assert all("Ruritania" in text and not re.search(r"[{}]", text) for text in rendered)
        assert "Rudolf Rassendyll" in rendered[2] and "Rudolf Rassendyll" in rendered[5]
        assert all("1894" in text for text in rendered[3:]), rel.pid
        assert rendered[0].endswith("?") and rendered[3].endswith("?"), rel.pid
        assert rel.object_class is None or rel.object_type is ObjectType.ITEM


def test_a_users_file_adds_and_replaces_relations_or_is_the_whole_catalogue(
    tmp_path: Path,
) -> None:
    path = tmp_path / "relations.toml"
    hops = '["P6", "P17"]'
    path.write_text(relation("P6") + "\n" + relation("P90001", next_hops=hops), encoding="utf-8")
    merged = load_catalogue(path)
    shipped = shipped_catalogue()
    assert merged.pids == [*shipped.pids, "P90001"]
    assert merged["P6"].question("Spain") == "Who leads the government of Spain?"
    assert merged["P6"].next_hops == () and merged["P90001"].next_hops == ("P6", "P17")
    assert merged["P36"] == shipped["P36"] and str(path) in merged.source
    path.write_text("replace = true\n" + relation("P6"), encoding="utf-8")
    assert load_catalogue(path).pids == ["P6"]


ERRORS = [
    # (file text, line the error names, what the message says)
    (relation(qestion='"Who?"'), 13, r"\[P6\] qestion: unknown field; did you mean 'question'\?"),
    (relation("capital"), 1, r"'capital' is not a property id like P36"),
    (relation("P06"), 1, r"'P06' is not a property id"),
    (relation() + relation("Q6"), 13, r"'Q6' is not a property id"),
    (relation(drop=("cloze",)), 1, r"\[P6\] lacks the field 'cloze'"),
    (relation(question='"Who leads it?"'), 7, r"question: the template lacks \{subject\}"),
    (relation(cloze='"{subj} is led by"'), 8, r"cloze: unknown placeholder \{subj\}"),
    (relation(question='"Is {object} the head?"'), 7, r"unknown placeholder \{object\}"),
    (relation(statement='"{subject} is led."'), 9, r"statement: the template lacks \{object\}"),
    (relation(question_at='"Who led {subject}?"'), 10, r"question_at: the template lacks \{year\}"),
    (relation(cloze='"{subject is led by"'), 8, r"cloze: .*literal brace"),
    (relation(cloze='"{subject!r} is led by"'), 8, r"cloze: \{subject\} carries a format"),
    (relation(statement_at='"  "'), 12, r"statement_at: expected a non-empty string"),
    (relation() + "\n" + relation(), 14, r"\[P6\] is declared twice \(first on line 1\); keep one"),
    (relation() + 'label = "again"\n', 13, r"a value is set twice"),
    (relation(label='"unclosed'), 2, r"not valid TOML"),
    (relation(multi_valued='"yes"'), 5, r"multi_valued: expected true or false"),
    (relation(object_type='"person"'), 3, r"object_type: 'person' is not one of 'item', 'time'"),
    (relation(context='"page"'), 6, r"context: 'page' is not one of 'subject', 'object'"),
    (relation(label="3"), 2, r"label: expected a non-empty string"),
    (relation(object_class='"human"'), 4, r"object_class: 'human' is not an item id like Q5"),
    (relation(object_type='"time"'), 6, r"context: only an item object has a page"),
    (relation(object_type='"time"', context='"subject"'), 4, r"object_class: only item objects"),
    (relation(next_hops='["P6", "capital"]'), 13, r"next_hops: 'capital' is not a property id"),
    (relation(next_hops='["P17", "P17"]'), 13, r"next_hops: a property is listed twice"),
    (relation(next_hops='"P17"'), 13, r"next_hops: expected a list"),
    (relation(next_hops='["P98765"]'), 13, r"next_hops: P98765 has no relation in the catalogue"),
    (relation(not_asked_of='["country"]'), 13, r"not_asked_of: 'country' is not an item id"),
    (relation(not_asked_of='"Q6256"'), 13, r"not_asked_of: expected a list"),
    (relation(not_asked_of='["Q5", "Q5"]'), 13, r"not_asked_of: a class is listed twice"),
    (relation(dated_objects='"yes"'), 13, r"dated_objects: expected true or false"),
    (
        relation(
            drop=("object_class",), object_type='"time"', context='"subject"', dated_objects="true"
        ),
        12,
        r"dated_objects: only item objects have an inception",
    ),
    ('replace = "yes"\n' + relation(), 1, r"replace: expected true or false"),
    (relation(replace="true"), 13, r"\[P6\] replace: replace goes at the top of the file"),
    ('P6 = "head of government"\n', 1, r"\[P6\] must be a table"),
    ("# nothing yet\n", 1, r"the file holds no relation"),
]


@pytest.mark.parametrize(("text", "line", "says"), ERRORS)
def test_a_malformed_file_is_one_error_naming_its_line(
    tmp_path: Path, text: str, line: int, says: str
) -> None:
    message = error_of(tmp_path, text)
    assert message.startswith(f"relations file {tmp_path / 'my relations.toml'}, line {line}: ")
    assert re.search(says, message), message


def test_a_file_that_cannot_be_read_says_so(tmp_path: Path) -> None:
    assert re.search(r"cannot read it .*UTF-8", error_of(tmp_path, b"\xff\xfe[P6]"))
    with pytest.raises(UsageError, match=r"relations file .*missing\.toml: cannot read it"):
        load_catalogue(tmp_path / "missing.toml")


def test_a_shipped_style_file_needs_no_base() -> None:
    text = relation("P6", next_hops='["P17"]') + "\n" + relation("P17")
    catalogue = parse_catalogue(text, "inline")
    assert catalogue.pids == ["P6", "P17"] and catalogue.hop_map() == {"P6": ["P17"]}
    with pytest.raises(UsageError, match=r"inline, line 13: \[P6\] next_hops: P36 has no"):
        parse_catalogue(relation("P6", next_hops='["P36"]'), "inline")


def test_the_docs_examples_hold(tmp_path: Path) -> None:
    """docs/relations.md: its override example loads, and its Python example says true."""
    doc = (ROOT / "docs" / "relations.md").read_text(encoding="utf-8")
    example = re.search(r"## Overriding the catalogue.*?```toml\n(.*?)```", doc, re.S)
    assert example is not None
    path = tmp_path / "my-relations.toml"
    path.write_text(example.group(1), encoding="utf-8")
    catalogue = load_catalogue(path)
    assert catalogue["P286"].question("Arsenal") == "Who is the manager of Arsenal?"
    assert catalogue.pids[-1] == "P1344" and len(catalogue) == len(shipped_catalogue()) + 1
    p6 = shipped_catalogue()["P6"]
    assert f"# '{p6.question('Spain')}'" in doc
    assert f"# '{p6.statement_at('Spain', 'Mariano Rajoy', 2015)}'" in doc
    assert f"# {shipped_catalogue().hop_map()['P6']}" in doc


def test_country_is_not_asked_of_countries() -> None:
    catalogue = shipped_catalogue()
    assert {"Q6256", "Q3624078"} <= set(catalogue["P17"].not_asked_of)
    assert catalogue["P6"].not_asked_of == ()
    text = dump_catalogue(catalogue)
    assert 'not_asked_of = ["Q6256", "Q3624078", "Q3024240", "Q43229"' in text
    assert parse_catalogue(text, "dumped")["P17"] == catalogue["P17"]
    # an organisation has coordinates (its seat) but is no place: "Which sovereign state is
    # Apple Inc. in?" (company) and the Wikimedia Foundation (charitable organization)
    for pid in ("P17", "P131"):
        assert {"Q783794", "Q708676"} <= set(catalogue[pid].not_asked_of)


def test_a_relation_not_asked_keeps_its_wording_and_a_users_file_asks_it_again(
    tmp_path: Path,
) -> None:
    catalogue = shipped_catalogue()
    assert "P856" not in catalogue and catalogue.get("P856") is None
    assert "P856" not in catalogue.pids and "P856" not in [r.pid for r in catalogue]
    website = catalogue.relations["P856"]
    assert not website.asked and website.question("Oslo").startswith("At which address")
    text = dump_catalogue(catalogue)
    assert "asked = false" in text
    assert parse_catalogue(text, "dumped").relations["P856"] == website
    own = tmp_path / "websites.toml"
    block = next(block for block in text.split("\n\n") if block.startswith("[P856]"))
    own.write_text(block.replace("asked = false\n", "") + "\n", encoding="utf-8")
    again = load_catalogue(own)
    assert "P856" in again and again["P856"].asked and len(again) == len(catalogue) + 1


def test_states_and_places_are_dated_objects() -> None:
    catalogue = shipped_catalogue()
    dated = {relation.pid for relation in catalogue if relation.dated_objects}
    assert dated == {"P17", "P27", "P131", "P1532"}
    assert catalogue["P17"].label == "sovereign state"
    assert catalogue["P17"].question("Islay") == "Which sovereign state is Islay in?"
    assert "dated_objects = true" in dump_catalogue(catalogue)
    assert parse_catalogue(dump_catalogue(catalogue), "dumped") == catalogue


def test_every_template_kind_is_a_field_of_every_relation() -> None:
    for rel in shipped_catalogue():
        given = {kind for kind, text in vars(rel.templates).items() if text is not None}
        assert set(TEMPLATE_FIELDS) <= given <= set(ALL_FIELDS)


# --- properties of generated catalogues ---

PLACEHOLDER = re.compile(r"\{\{|\}\}|\{(subject|object|year)\}")
PLAIN = st.text(
    st.characters(codec="utf-8", exclude_characters="{}"),  # the codec leaves out surrogates
    max_size=12,
)
ITEM_CLASSES = st.integers(1, 10**8).map("Q{}".format)
CLASSES = st.none() | ITEM_CLASSES


@st.composite
def templates(draw: st.DrawFn, kind: str) -> str:
    """A valid template of ``kind``: each of its placeholders at least once, among text
    without braces, literal braces and more placeholders, in any order."""
    wanted = [f"{{{name}}}" for name in ALL_FIELDS[kind]]
    extra = draw(st.lists(st.one_of(PLAIN, st.sampled_from(["{{", "}}", *wanted])), max_size=5))
    return "".join(draw(st.permutations([*wanted, *extra])))


@st.composite
def catalogues(draw: st.DrawFn) -> RelationCatalogue:
    """A valid catalogue of up to five relations whose next hops stay inside it."""
    numbers = draw(st.lists(st.integers(1, 10**6), min_size=1, max_size=5, unique=True))
    pids = [f"P{n}" for n in numbers]
    relations = {}
    for pid in pids:
        object_type = draw(st.sampled_from(ObjectType))
        item = object_type is ObjectType.ITEM
        relations[pid] = Relation(
            pid=pid,
            label=draw(PLAIN.filter(str.strip)),
            object_type=object_type,
            multi_valued=draw(st.booleans()),
            context=draw(st.sampled_from(ContextPage)) if item else ContextPage.SUBJECT,
            templates=Templates(
                **{kind: draw(templates(kind)) for kind in TEMPLATE_FIELDS},
                question_past=draw(st.none() | templates("question_past")),
                cloze_past=draw(st.none() | templates("cloze_past")),
                statement_past=draw(st.none() | templates("statement_past")),
            ),
            object_class=draw(CLASSES) if item else None,
            next_hops=tuple(draw(st.lists(st.sampled_from(pids), unique=True))) if item else (),
            not_asked_of=tuple(draw(st.lists(ITEM_CLASSES, unique=True, max_size=3))),
        )
    return RelationCatalogue(relations)


def substituted(template: str, values: dict[str, str]) -> str:
    """The template filled by a reading of its own, token by token (the oracle); a name
    that opens the sentence has its added article capitalised."""
    opening = re.match(r"\{(subject|object)\}", template)
    if opening:
        values = {**values, opening.group(1): sentence_start(values[opening.group(1)])}
    return PLACEHOLDER.sub(lambda m: values[m.group(1)] if m.group(1) else m.group(0)[0], template)


SETTINGS = settings(max_examples=80)


@SETTINGS
@given(catalogues())
def test_a_dumped_catalogue_reads_back_equal(catalogue: RelationCatalogue) -> None:
    text = dump_catalogue(catalogue)
    assert parse_catalogue(text, "generated") == catalogue
    assert parse_catalogue(dump_catalogue(catalogue, replace=True), "g", shipped_catalogue()) == (
        catalogue
    )


@SETTINGS
@given(catalogues(), PLAIN, PLAIN, st.integers(1, 3000))
def test_rendering_fills_every_placeholder_and_nothing_else(
    catalogue: RelationCatalogue, subject: str, obj: str, year: int
) -> None:
    values = {"subject": subject, "object": obj, "year": str(year)}
    for rel in catalogue:
        rendered = {
            "question": rel.question(subject),
            "cloze": rel.cloze(subject),
            "statement": rel.statement(subject, obj),
            "question_at": rel.question_at(subject, year),
            "cloze_at": rel.cloze_at(subject, year),
            "statement_at": rel.statement_at(subject, obj, year),
        }
        for kind, text in rendered.items():
            template = getattr(rel.templates, kind)
            assert text == substituted(template, values)
            if "{{" not in template and "}}" not in template:
                assert "{" not in text and "}" not in text


@SETTINGS
@given(catalogues(), st.data())
def test_an_error_in_a_generated_file_names_its_line(
    catalogue: RelationCatalogue, data: st.DataObject
) -> None:
    lines = dump_catalogue(catalogue).split("\n")
    headers = [n for n, line in enumerate(lines) if line.startswith("[P")]
    at = data.draw(st.sampled_from(headers))
    broken = data.draw(st.sampled_from(["colour = 1", 'question = "no subject"']))
    if broken.startswith("question"):
        at = next(n for n in range(at, len(lines)) if lines[n].startswith("question ="))
        lines[at] = broken
    else:
        lines.insert(at + 1, broken)
        at += 1
    with pytest.raises(UsageError, match=rf"^generated, line {at + 1}: \[P\d+\] (colour|question)"):
        parse_catalogue("\n".join(lines), "generated")
