"""Many ids are named range by range (kgdiff/export/words/name_stream.py): the names of every
range put together are those one query over all the ids reads, and whether a label names
another item first is what the store's labels and sitelinks say."""

from __future__ import annotations

from pathlib import Path

import duckdb
import pyarrow as pa
import pytest
from hypothesis import given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.words import name_stream
from kgdiff.export.words.name_ids import NAME_IDS
from kgdiff.export.words.name_stream import named_chunks
from kgdiff.export.words.names import Name, Names
from kgdiff.export.words.names_cache import fill_namesakes
from kgdiff.sqlfiles import render

SNAPSHOT = "wd-2014-10"

# every entity with a label in English in some snapshot, and its sitelinks where it has some
_LABELLED = "SELECT DISTINCT qid FROM labels WHERE lang = 'en' AND kind = 'label' ORDER BY qid"
# the namesakes as kgdiff read them before its ranges: every other item of the label's
# snapshot with the same label, and the most sitelinks one of them has
_OUTRANKED = """
SELECT n.qid
FROM (SELECT * FROM (VALUES {rows}) AS v(qid, label, snapshot, sitelinks)) AS n
JOIN labels AS l
  ON l.snapshot = n.snapshot AND l.lang = 'en' AND l.kind = 'label' AND l.value = n.label
 AND l.qid <> n.qid AND l.qid LIKE 'Q%'
LEFT JOIN entities AS e ON e.qid = l.qid AND e.snapshot = l.snapshot
GROUP BY n.qid, n.sitelinks
HAVING max(coalesce(e.n_sitelinks, 0)) >= n.sitelinks
"""


def _label_snapshots(connection: object, ids: list[str]) -> dict[str, str]:
    """Each id's label's snapshot: SNAPSHOT, else the latest earlier one, else the earliest
    later one labelling it."""
    rows = connection.execute(  # type: ignore[attr-defined]
        "SELECT l.qid, l.snapshot, s.date, (SELECT date FROM snapshots WHERE name = ?)"
        " FROM labels AS l JOIN snapshots AS s ON s.name = l.snapshot"
        " WHERE l.lang = 'en' AND l.kind = 'label'",
        [SNAPSHOT],
    ).fetchall()
    wanted = set(ids)
    best: dict[str, tuple[tuple[int, int], str]] = {}
    for qid, snapshot, date, anchor in rows:
        rank = (0 if date <= anchor else 1, abs((date - anchor).days))
        if qid in wanted and (qid not in best or rank < best[qid][0]):
            best[qid] = (rank, str(snapshot))
    return {qid: snapshot for qid, (_, snapshot) in best.items()}


@pytest.fixture(scope="module")
def whole(export_demo_store: Path) -> tuple[list[str], dict[str, Name]]:
    """Every labelled id of the demo store and its names read by one query."""
    with kgdiff.open(export_demo_store).connection() as connection:
        ids = [str(qid) for (qid,) in connection.execute(_LABELLED).fetchall()]
        names = Names.read(connection, ids, SNAPSHOT, "en")
    return ids, {qid: names._names[qid] for qid in names.ids()}


def test_the_ranges_name_what_one_query_names(
    export_demo_store: Path,
    whole: tuple[list[str], dict[str, Name]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    ids, named = whole
    assert len(named) > 1000
    monkeypatch.setattr(name_stream, "RANGE_IDS", 97)  # ranges that split chunks unevenly
    monkeypatch.setattr(name_stream, "CHUNK", 40)
    graph = kgdiff.open(export_demo_store)
    in_ranges: dict[str, Name] = {}
    chunks = 0
    for chunk in named_chunks(graph, reversed(ids), SNAPSHOT, "en"):
        chunks += 1
        found = {qid: chunk._names[qid] for qid in chunk.ids()}
        assert list(found) == sorted(found) and not found.keys() & in_ranges.keys()
        in_ranges.update(found)
    assert chunks >= len(ids) // 97
    assert in_ranges == named
    assert list(in_ranges) == sorted(named)


def test_a_label_names_another_item_first_as_the_store_says(
    export_demo_store: Path, whole: tuple[list[str], dict[str, Name]]
) -> None:
    ids, named = whole
    with kgdiff.open(export_demo_store).connection() as connection:
        snapshots = _label_snapshots(connection, ids)
        rows = ", ".join(
            "({}, {}, {}, {})".format(
                *(f"'{text.replace(chr(39), chr(39) * 2)}'" for text in (qid, name.label)),
                f"'{snapshots[qid]}'",
                name.sitelinks,
            )
            for qid, name in named.items()
            if qid in snapshots
        )
        expected = {str(q) for (q,) in connection.execute(_OUTRANKED.format(rows=rows)).fetchall()}
    outranked = {qid for qid, name in named.items() if name.outranked}
    assert expected, "the demo store has labels that several items share"
    assert outranked == expected


_TABLES = """
CREATE TABLE snapshots (name VARCHAR, date DATE);
INSERT INTO snapshots VALUES ('s1', DATE '2020-01-01'), ('s2', DATE '2021-01-01');
CREATE TABLE entities (qid VARCHAR, snapshot VARCHAR, n_sitelinks INTEGER, p31 VARCHAR[]);
CREATE TABLE statements (
    subject VARCHAR, snapshot VARCHAR, pid VARCHAR, object_qid VARCHAR, rank VARCHAR,
    snaktype VARCHAR
);
ATTACH ':memory:' AS names;
CREATE TABLE names.in_lang (
    snapshot VARCHAR, qid VARCHAR, kind VARCHAR, value VARCHAR, ordinal INTEGER
);
CREATE TABLE names.other_names (
    snapshot VARCHAR, qid VARCHAR, kind VARCHAR, lang VARCHAR, value VARCHAR
);
"""

# entities: id, its label among a few, its sitelinks (None: no sitelinks recorded)
_carriers = st.lists(
    st.tuples(
        st.sampled_from(["Q1", "Q2", "Q3", "Q4", "Q5", "P6", "P7", "L8"]),
        st.sampled_from(["Alexandria", "Limburg", "Paris"]),
        st.none() | st.integers(0, 3),
    ),
    max_size=8,
    unique_by=lambda carrier: carrier[0],
)


def _outranked_by_definition(carriers: list[tuple[str, str, int | None]]) -> set[str]:
    """Whether another item (an id of Q) with the same label has at least as many sitelinks."""
    return {
        qid
        for qid, label, links in carriers
        if any(
            other != qid and other.startswith("Q") and (theirs or 0) >= (links or 0)
            for other, same, theirs in carriers
            if same == label
        )
    }


@given(carriers=_carriers, split=st.integers(1, 8), part_labels=st.integers(1, 9))
def test_the_namesake_rule_holds_for_any_labels_and_sitelinks(
    carriers: list[tuple[str, str, int | None]], split: int, part_labels: int
) -> None:
    """Whatever the ranges the names are read in and the parts the namesakes are found in."""
    with duckdb.connect() as connection:
        connection.execute(_TABLES)
        for qid, label, links in carriers:
            connection.execute(
                "INSERT INTO names.in_lang VALUES ('s2', ?, 'label', ?, 0)", [qid, label]
            )
            connection.execute("INSERT INTO entities VALUES (?, 's2', ?, [])", [qid, links])
        fill_namesakes(connection, "names", part_labels)
        ids = sorted(qid for qid, _, _ in carriers)
        found: set[str] = set()
        for start in range(0, len(ids), split):  # the rule does not depend on the ranges
            part = ids[start : start + split]
            connection.register(NAME_IDS, pa.table({"qid": part}))
            params = {"snapshot": "s2", "lang": "en", "first": part[0], "last": part[-1]}
            query = render("export/entity_names", names="names")
            rows = connection.execute(query, params).fetchall()
            assert [row[0] for row in rows] == part
            found |= {str(row[0]) for row in rows if row[-1]}
            connection.unregister(NAME_IDS)
    assert found == _outranked_by_definition(carriers)
