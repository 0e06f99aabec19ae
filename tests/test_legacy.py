"""Legacy Wikibase internal serialisation → canonical JSON, on real revisions."""

from __future__ import annotations

import bz2
import json
import xml.etree.ElementTree as ET
from collections import Counter
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.readers.legacy import LegacyFormatError, is_legacy, to_canonical
from tests.paths import DATA, SAMPLES

LEGACY_FILES = sorted((DATA / "legacy").glob("*_legacy_*.json"))
RANK_NAMES = {0: "deprecated", 1: "normal", 2: "preferred"}


def load(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((DATA / "legacy" / name).read_text(encoding="utf-8"))
    return doc


@cache
def legacy_docs_from_dumps() -> tuple[dict[str, Any], ...]:
    """Every legacy entity text in the two wikibrain XML dumps (plain stdlib parse)."""
    docs = []
    for name in ("testDump_xml_2013-12.xml.bz2", "testDump_xml_2014-10.xml.bz2"):
        with bz2.open(SAMPLES / name) as stream:
            for _, elem in ET.iterparse(stream):
                if elem.tag.rpartition("}")[2] == "text" and elem.text:
                    doc = json.loads(elem.text)
                    if "entity" in doc:
                        docs.append(doc)
                elem.clear()
    return tuple(docs)


def statements(doc: dict[str, Any]) -> list[dict[str, Any]]:
    return [s for group in doc["claims"].values() for s in group]


def snak_count(grouped: dict[str, list[Any]]) -> int:
    return sum(len(snaks) for snaks in grouped.values())


def test_all_legacy_samples_are_found() -> None:
    assert len(LEGACY_FILES) == 14


@pytest.mark.parametrize("path", LEGACY_FILES, ids=lambda p: p.name)
def test_every_legacy_sample_maps_to_canonical(path: Path) -> None:
    raw = json.loads(path.read_text(encoding="utf-8"))
    assert is_legacy(raw)
    doc = to_canonical(raw)
    expected_id = path.stem.split("_")[-1].split("-")[0]
    assert doc["id"] == expected_id
    assert doc["type"] == ("property" if expected_id.startswith("P") else "item")
    label = raw["label"] or {}
    assert doc["labels"] == {k: {"language": k, "value": v} for k, v in label.items()}
    assert len(doc["descriptions"]) == len(raw["description"])
    alias_total = sum(len(texts) for texts in (raw["aliases"] or {}).values())
    assert sum(len(group) for group in doc["aliases"].values()) == alias_total
    if doc["type"] == "property":
        assert doc["datatype"] == raw["datatype"]
        assert "sitelinks" not in doc
    else:
        assert len(doc["sitelinks"]) == len(raw["links"])
        assert all(link["site"] == site for site, link in doc["sitelinks"].items())
    assert len(statements(doc)) == len(raw.get("claims", []))
    assert not is_legacy(doc)
    assert to_canonical(doc) is doc


def test_old_string_sitelinks_and_empty_maps() -> None:
    doc = to_canonical(load("items_legacy_old_Q1-103.json"))
    assert doc["descriptions"] == {} and doc["aliases"] == {} and doc["claims"] == {}
    assert doc["sitelinks"] == {"enwiki": {"site": "enwiki", "title": "Universe", "badges": []}}


def strip_computed(value: Any) -> Any:
    """Drop what only the current format carries (hashes) or what we add (entity ids)."""
    if isinstance(value, dict):
        return {
            k: strip_computed(v)
            for k, v in value.items()
            if k not in ("hash", "snaks-order", "qualifiers-order")
            and not (k == "id" and "numeric-id" in value)
        }
    if isinstance(value, list):
        return [strip_computed(v) for v in value]
    return value


def test_legacy_recent_q1_matches_current_q1() -> None:
    legacy = to_canonical(load("items_legacy_recent_Q1.json"))
    current = load("items_current_Q1.json")
    # Same revision: identical terms, sitelinks and statement guids, in the same order.
    for key in ("labels", "descriptions", "aliases", "sitelinks"):
        assert legacy[key] == current[key], key
    assert list(legacy["claims"]) == list(current["claims"])
    assert [s["id"] for s in statements(legacy)] == [s["id"] for s in statements(current)]
    for ours, theirs in zip(statements(legacy), statements(current), strict=True):
        assert ours["rank"] == theirs["rank"]
        assert strip_computed(ours["mainsnak"]) == strip_computed(theirs["mainsnak"])
        assert ours.get("qualifiers-order", []) == list(theirs.get("qualifiers", {}))
        assert len(ours.get("references", [])) == len(theirs.get("references", []))
    assert strip_computed(legacy["claims"]) == strip_computed(current["claims"])


def test_ranks_qualifier_order_and_entity_ids() -> None:
    doc = to_canonical(load("items_legacy_recent_Q1.json"))
    (deprecated,) = [s for s in statements(doc) if s["rank"] == "deprecated"]
    assert deprecated["id"] == "q1$21f31f42-4f4d-79b0-0380-92039776e884"
    (big_bang,) = doc["claims"]["P580"]
    assert big_bang["qualifiers-order"] == ["P459", "P805"]
    assert [q["datavalue"]["value"]["id"] for q in big_bang["qualifiers"]["P459"]] == [
        "Q15605",
        "Q76250",
    ]
    ref = big_bang["references"][0]
    assert ref["snaks-order"] == ["P248"]
    assert ref["snaks"]["P248"][0]["datavalue"]["value"]["numeric-id"] == 15217920


def test_dump_legacy_docs_keep_ranks_snaktypes_and_value_types() -> None:
    docs = legacy_docs_from_dumps()
    assert len(docs) == 1236 + 302
    raw_ranks: Counter[str] = Counter()
    raw_snaks: Counter[tuple[str, str]] = Counter()
    ours_ranks: Counter[str] = Counter()
    ours_snaks: Counter[tuple[str, str]] = Counter()
    for raw in docs:
        doc = to_canonical(raw)
        for claim in raw["claims"]:
            raw_ranks[RANK_NAMES[claim["rank"]]] += 1
            for snak in [claim["m"], *claim["q"], *(s for ref in claim["refs"] for s in ref)]:
                raw_snaks[(snak[0], snak[2] if snak[0] == "value" else "")] += 1
        for stmt in statements(doc):
            ours_ranks[stmt["rank"]] += 1
            groups = [{"m": [stmt["mainsnak"]]}, stmt.get("qualifiers", {})]
            groups += [ref["snaks"] for ref in stmt.get("references", [])]
            for snak in (s for group in groups for snaks in group.values() for s in snaks):
                ours_snaks[(snak["snaktype"], snak.get("datavalue", {}).get("type", ""))] += 1
    assert ours_ranks == raw_ranks and set(ours_ranks) == set(RANK_NAMES.values())
    assert ours_snaks == raw_snaks
    assert {kind for kind, _ in raw_snaks} == {"value", "somevalue", "novalue"}
    value_types = {vt for _, vt in raw_snaks} - {""}
    assert value_types == {"wikibase-entityid", "string", "time", "globecoordinate", "quantity"}


def test_value_payloads_are_kept() -> None:
    by_type: dict[str, tuple[Any, Any]] = {}
    for raw in legacy_docs_from_dumps():
        doc = to_canonical(raw)
        for claim, stmt in zip(raw["claims"], statements_in_raw_order(doc, raw), strict=True):
            if claim["m"][0] == "value":
                by_type.setdefault(claim["m"][2], (claim["m"][3], stmt["mainsnak"]))
            elif claim["m"][0] in ("somevalue", "novalue"):
                assert stmt["mainsnak"] == {
                    "snaktype": claim["m"][0],
                    "property": f"P{claim['m'][1]}",
                }
    for value_type, (raw_value, snak) in by_type.items():
        assert snak["datavalue"]["type"] == value_type
        if value_type == "wikibase-entityid":
            number = raw_value["numeric-id"]
            assert snak["datavalue"]["value"] == raw_value | {"id": f"Q{number}"}
        else:
            assert snak["datavalue"]["value"] == raw_value


def statements_in_raw_order(doc: dict[str, Any], raw: dict[str, Any]) -> list[dict[str, Any]]:
    """Canonical statements regrouped by property; put them back in the legacy list order."""
    remaining = {pid: list(group) for pid, group in doc["claims"].items()}
    return [remaining[f"P{claim['m'][1]}"].pop(0) for claim in raw["claims"]]


def test_gappy_and_empty_alias_lists() -> None:
    kinds: Counter[str] = Counter()
    for raw in legacy_docs_from_dumps():
        if not raw["aliases"]:
            continue
        doc = to_canonical(raw)
        for lang, texts in raw["aliases"].items():
            gappy = isinstance(texts, dict)
            kinds["gappy" if gappy else "empty" if not texts else "list"] += 1
            values = [texts[k] for k in sorted(texts, key=int)] if gappy else texts
            assert [a["value"] for a in doc["aliases"].get(lang, [])] == values
            # Empty alias lists are dropped, as Wikibase does.
            assert values or lang not in doc["aliases"]
    assert kinds["gappy"] > 0 and kinds["empty"] == 14


def test_redirect_and_lowercase_ids() -> None:
    # No redirect occurs in the samples; this is the shape Wikibase stores for one.
    doc = to_canonical({"entity": "q1", "redirect": "q2"})
    assert doc == {"type": "item", "id": "Q1", "redirect": "Q2"}
    assert to_canonical({"entity": ["property", 6], "redirect": "P7"})["id"] == "P6"


def test_canonical_empty_lists_become_maps() -> None:
    current = load("items_current_Q1.json")
    fixed = to_canonical(current | {"claims": [], "descriptions": []})
    assert fixed["claims"] == {} and fixed["descriptions"] == {}
    assert fixed["labels"] is current["labels"]


@pytest.mark.parametrize(
    ("doc", "field"),
    [
        ({"foo": 1}, "'entity'"),
        ({"type": "item", "labels": {}}, "'id'"),
        ({"entity": "x17", "label": {}}, "'entity'"),
        ({"entity": "q1", "claims": [{"m": 5}]}, "claims[0].m"),
        ({"entity": "q1", "claims": [{"m": ["novalue", 1], "rank": 7}]}, "claims[0].rank"),
        ({"entity": "q1", "label": {"en": 3}}, "label.en"),
        ({"entity": "q1", "links": "enwiki"}, "'links'"),
    ],
)
def test_errors_name_the_field(doc: dict[str, Any], field: str) -> None:
    with pytest.raises(LegacyFormatError, match=field.replace("[", r"\[").replace("]", r"\]")):
        to_canonical(doc)


# Property tests: random legacy-shaped documents.
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
    ),
    max_leaves=6,
)
LANGS = st.sampled_from(["en", "de", "fr", "la", "zh-hant", "be-tarask"])
PIDS = st.integers(1, 5000)
VALUES = st.one_of(
    st.tuples(
        st.just("wikibase-entityid"),
        st.fixed_dictionaries(
            {
                "entity-type": st.sampled_from(["item", "property", "odd"]),
                "numeric-id": st.integers(1),
            }
        ),
    ),
    st.tuples(st.just("string"), st.text(max_size=10)),
    st.tuples(
        st.sampled_from(["time", "quantity", "globecoordinate", "monolingualtext", "bad", "x-new"]),
        JSON_VALUES,
    ),
)
SNAKS = st.one_of(
    st.builds(lambda pid, tv: ["value", pid, tv[0], tv[1]], PIDS, VALUES),
    st.builds(lambda kind, pid: [kind, pid], st.sampled_from(["somevalue", "novalue"]), PIDS),
)
CLAIMS = st.fixed_dictionaries(
    {
        "m": SNAKS,
        "q": st.lists(SNAKS, max_size=4),
        "rank": st.sampled_from([0, 1, 2]),
        "refs": st.lists(st.lists(SNAKS, max_size=3), max_size=3),
    },
    optional={"g": st.text(min_size=1, max_size=30)},
)
ENTITIES = st.one_of(
    st.builds(lambda n: f"q{n}", st.integers(1)),
    st.builds(lambda kind, n: [kind, n], st.sampled_from(["item", "property"]), st.integers(1)),
)
TERMS: st.SearchStrategy[Any] = st.just([]) | st.dictionaries(
    LANGS, st.text(max_size=10), max_size=3
)
LEGACY_DOCS = st.fixed_dictionaries(
    {
        "entity": ENTITIES,
        "label": TERMS,
        "description": TERMS,
        "aliases": st.just([]) | st.dictionaries(LANGS, st.lists(st.text(max_size=6), max_size=3)),
        "links": st.just([])
        | st.dictionaries(
            st.sampled_from(["enwiki", "dewiki", "frwikivoyage"]),
            st.text(min_size=1, max_size=8)
            | st.fixed_dictionaries(
                {"name": st.text(max_size=8), "badges": st.lists(st.just("Q17437796"))}
            ),
        ),
        "claims": st.lists(CLAIMS, max_size=6),
    }
)


@settings(max_examples=300)
@given(LEGACY_DOCS)
def test_random_legacy_docs_keep_their_counts(raw: dict[str, Any]) -> None:
    doc = to_canonical(raw)
    found = statements(doc)
    assert len(found) == len(raw["claims"])
    assert sum("id" in s for s in found) == sum("g" in c for c in raw["claims"])
    assert sum(snak_count(s.get("qualifiers", {})) for s in found) == sum(
        len(c["q"]) for c in raw["claims"]
    )
    assert sum(len(s.get("references", [])) for s in found) == sum(
        len(c["refs"]) for c in raw["claims"]
    )
    ref_snaks = sum(snak_count(r["snaks"]) for s in found for r in s.get("references", []))
    assert ref_snaks == sum(len(ref) for c in raw["claims"] for ref in c["refs"])
    assert Counter(s["rank"] for s in found) == Counter(
        RANK_NAMES[c["rank"]] for c in raw["claims"]
    )


def messy(valid: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.one_of(valid, valid, JSON_VALUES)


MESSY_CLAIMS = st.fixed_dictionaries(
    {"m": messy(SNAKS)},
    optional={
        "q": messy(st.lists(messy(SNAKS), max_size=3)),
        "refs": messy(st.lists(messy(st.lists(messy(SNAKS), max_size=2)), max_size=2)),
        "rank": messy(st.sampled_from([0, 1, 2])),
        "g": messy(st.text(max_size=5)),
    },
)
MESSY_DOCS = st.fixed_dictionaries(
    {"entity": ENTITIES},
    optional={
        "label": messy(TERMS),
        "description": messy(TERMS),
        "aliases": messy(st.dictionaries(LANGS, messy(st.lists(messy(st.text()), max_size=2)))),
        "links": messy(st.dictionaries(LANGS, messy(st.text()), max_size=2)),
        "claims": messy(st.lists(messy(MESSY_CLAIMS), max_size=3)),
    },
) | st.dictionaries(st.sampled_from(["entity", "redirect", "claims", "type"]), JSON_VALUES)


@settings(max_examples=500)
@given(MESSY_DOCS)
def test_random_damaged_docs_raise_only_legacy_format_error(raw: dict[str, Any]) -> None:
    try:
        doc = to_canonical(raw)
    except LegacyFormatError:
        return
    assert isinstance(doc, dict) and doc["id"][0] in "QPLM"
