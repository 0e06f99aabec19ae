"""Finding entities by id or by the start of a label or alias, in the real snapshots."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.query.graph import KnowledgeGraph


@pytest.fixture(scope="module")
def kg(sample_store: Path) -> KnowledgeGraph:
    return kgdiff.open(sample_store)


def found(
    kg: KnowledgeGraph, text: str, lang: str = "en", limit: int = 10
) -> list[tuple[str, str]]:
    return kg.search(text, lang, limit).select("qid", "match").rows()


def test_an_id_comes_first_with_its_latest_label(kg: KnowledgeGraph) -> None:
    frame = kg.search("q42")
    assert frame.row(0, named=True) == {
        "qid": "Q42",
        "match": "id",
        "label": "Douglas Adams",
        "description": "English writer and humorist",
    }


def test_label_prefixes_in_any_case_and_aliases(kg: KnowledgeGraph) -> None:
    assert found(kg, "DOUGLAS ad") == [("Q42", "label")]
    assert found(kg, "dna") == [("Q42", "alias")]
    assert ("Q183", "label") in found(kg, "deutschl", lang="de")
    assert found(kg, "deutschl") == []  # not an English label


def test_an_exact_label_comes_before_longer_ones(kg: KnowledgeGraph) -> None:
    hits = found(kg, "berlin", limit=50)
    assert hits[0] == ("Q64", "label")
    frame = kg.search("ber", limit=50)
    labels = frame.filter(frame["match"] == "label")["label"].to_list()
    assert labels == sorted(labels, key=len)


def test_unknown_text_is_empty_with_a_note(kg: KnowledgeGraph) -> None:
    answer = kg.answers.search("zzqx")
    assert answer.frame.is_empty()
    assert answer.notes == ["no entity's id is 'zzqx' and no label or alias in en starts with it"]


@pytest.mark.parametrize(
    ("text", "limit", "message"),
    [(" ", 10, "search text is empty"), ("a" * 201, 10, "at most 200"), ("a", 0, "between 1")],
)
def test_bad_searches_are_usage_errors(
    kg: KnowledgeGraph, text: str, limit: int, message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        kg.search(text, limit=limit)


@settings(max_examples=40)
@given(st.text(alphabet="abdegilnorstuBDAQ%_'\\ 1", min_size=1, max_size=6))
def test_every_hit_starts_with_the_text(kg: KnowledgeGraph, text: str) -> None:
    """Whatever is typed (LIKE wildcards and quotes included), each entity found has the
    text as the start of a label or alias, or as its id, and the labels table agrees that
    no other entity's label starts with it."""
    if not text.strip():
        return
    hits = kg.search(text, limit=100)
    typed = text.strip().lower()
    with duckdb.connect(str(kg.layout.catalog), read_only=True) as connection:
        expected = {
            row[0]
            for row in connection.execute(
                "SELECT qid FROM labels WHERE lang = 'en' AND kind IN ('label', 'alias')"
                " AND starts_with(lower(value), ?)",
                [typed],
            ).fetchall()
        }
    if len(expected) < 100:
        ids = set(hits["qid"].to_list())
        assert expected <= ids
        assert ids - expected <= {text.strip().upper()}
