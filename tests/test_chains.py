"""Multi-hop chains: on the real snapshots, on exact synthetic graphs, and by property."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import closing
from datetime import date
from itertools import pairwise
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import UsageError
from kgdiff.query.window_answers import SHOWN_CHAINS, chains_of, write_chains_of
from kgdiff.temporal.chains import ChainQuery, chains, load_relations, stage_chains, staged_rows
from kgdiff.temporal.dates import GapPolicy
from kgdiff.temporal.parts import PAST_EVERY_SUBJECT
from kgdiff.timetext import bound_text
from tests.chain_graphs import (
    SYNTHETIC_GAP,
    T,
    best_values,
    edges,
    found,
    graph,
    paths,
    stmt,
    two_hops,
    validity,
)
from tests.paths import run_kgdiff
from tests.reused_chain_graph import GraphOnce

STRICT, ALLOWED = GapPolicy(), GapPolicy(allow=True)


@pytest.fixture(scope="module")
def real(sample_store: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as con:
        yield con


def test_real_three_hop_chain_and_its_answer(real: Any) -> None:
    """England's capital London is in the UK, whose head of government is David Cameron."""
    relations = {"P36": ["P17", "P6"], "P17": ["P36", "P6"], "P6": ["P69"]}
    rows = found(real, date(2014, 11, 1), relations=relations, subjects=["Q21"], gap=STRICT)
    assert paths(rows) == [
        ("Q21", "P17:Q145", "P36:Q84"),
        ("Q21", "P17:Q145", "P6:Q192"),
        ("Q21", "P36:Q84", "P17:Q145"),
        ("Q21", "P36:Q84", "P6:Q180589"),  # Boris Johnson (Ken Livingstone's term ended 2008)
        ("Q21", "P17:Q145", "P36:Q84", "P6:Q180589"),
        ("Q21", "P17:Q145", "P6:Q192", "P69:Q192088"),
        ("Q21", "P36:Q84", "P17:Q145", "P6:Q192"),
    ]
    last = rows[-1]
    assert (last["snapshot"], last["answer_label"]) == ("wd-2014-10", "David Cameron")
    assert (last["n_hops"], last["answer_aliases"]) == (3, ["David William Donald Cameron"])
    # Cameron's two schools (both normal, no start): the smallest value key is the answer
    assert (rows[5]["answer"], rows[5]["answers"]) == ("Q192088", ["Q192088", "Q899030"])


def test_real_choice_preferred_then_latest_start(real: Any) -> None:
    """Berlin's mayor: in 2013-12 two normal statements (latest start wins), then preferred."""
    query = {"relations": {"P36": ["P6"]}, "subjects": ["Q183"]}
    (old,) = found(real, date(2014, 1, 1), gap=STRICT, **query)
    (new,) = found(real, date(2014, 11, 1), gap=STRICT, **query)
    assert paths([old]) == paths([new]) == [("Q183", "P36:Q64", "P6:Q8863")]
    assert (old["answers"], old["hops"][1]["rank"]) == (["Q2514", "Q8863"], "normal")
    assert old["hops"][1]["start"] == ["+2001-06-16T00:00:00Z|11|Q1985727"]
    assert (
        old["hops"][1]["start_lo"] == date(2001, 6, 16).toordinal() - date(1970, 1, 1).toordinal()
    )
    assert (new["answers"], new["hops"][1]["rank"]) == (["Q8863"], "preferred")


def test_real_hops_are_valid_and_runs_repeat(real: Any) -> None:
    """Ended statements (Bonn as capital, London's mayor until 2008) never make a hop. A date
    before the first snapshot (2013-12-21) has no snapshot to read in record time: it used to
    give no chain silently, a confident empty answer; it is refused now, and gives no chain
    only when the gap is allowed."""
    day = date(2014, 11, 1)
    rows = found(real, day, relations=load_relations(), gap=STRICT)
    assert len(rows) > 500 and rows == found(real, day, relations=load_relations(), gap=STRICT)
    hops = {(h["subject"], h["pid"], h["object"]) for r in rows for h in r["hops"]}
    assert ("Q84", "P6", "Q180589") in hops
    assert not hops & {("Q183", "P36", "Q586"), ("Q84", "P6", "Q220723")}
    ids = [h["statement_id"] for r in rows for h in r["hops"]]
    checked = real.execute(
        "SELECT count(DISTINCT statement_id) FILTER (rank <> 'deprecated' AND "
        "coalesce(start_hi <= $d, true) AND coalesce(end_lo > $d, true)) FROM statements "
        "WHERE snapshot = 'wd-2014-10' AND list_contains($ids, statement_id)",
        {"d": day, "ids": ids},
    ).fetchone()
    assert checked == (len(set(ids)),)
    with pytest.raises(UsageError, match="before the first snapshot, wd-2013-12"):
        found(real, date(2013, 1, 1), relations=load_relations(), gap=STRICT)
    assert found(real, date(2013, 1, 1), relations=load_relations(), gap=ALLOWED) == []


def test_catalog_macro_matches_the_library(real: Any) -> None:
    macro = (
        "SELECT start_subject, n_hops, answer FROM chains(DATE '2014-11-01', subjects := ['Q21'])"
    )
    expected = found(
        real, date(2014, 11, 1), relations=load_relations(), subjects=["Q21"], gap=STRICT
    )
    rows = real.execute(macro).fetchall()
    assert rows == [(r["start_subject"], r["n_hops"], r["answer"]) for r in expected]


def test_only_hops_valid_at_the_date() -> None:
    year_2014 = (date(2014, 1, 1), date(2014, 12, 31))
    rows = edges("Q2 P2 Q9, Q3 P2 Q8, Q5 P2 Q6")
    rows.append(stmt("Q1", "P1", "Q2", end=date(2014, 3, 1)))
    rows.append(stmt("Q1", "P1", "Q3", start=date(2014, 3, 1)))
    rows.append(stmt("Q3", "P2", "Q7", end=year_2014))
    rows.append(stmt("Q4", "P1", "Q5", start=date(2014, 7, 1)))
    con = graph(rows)
    # Q3's P2 group has an end of unknown side at T (within 2014): it takes no part
    assert paths(found(con)) == []
    later = found(con, date(2015, 6, 1))
    assert paths(later) == [("Q1", "P1:Q3", "P2:Q8"), ("Q4", "P1:Q5", "P2:Q6")]


def test_middle_hops_are_single_valued() -> None:
    rows = edges("Q1 P1 Q2, Q2 P2 Q3, Q2 P2 Q4, Q3 P3 Q5, Q6 P1 Q2, Q6 P1 Q7")
    rows.append(stmt("Q2", "P2", "Q9", rank="deprecated"))
    found_rows = found(graph(rows), subjects=["Q1", "Q6"])
    assert paths(found_rows) == [("Q1", "P1:Q2", "P2:Q3")]  # not on via Q3: Q2 has two P2
    assert found_rows[0]["answers"] == ["Q3", "Q4"]


def test_preferred_rank_and_latest_start_decide() -> None:
    rows = edges("Q1 P1 Q2, Q2 P2 Q3, Q4 P3 Q7")
    rows.append(stmt("Q2", "P2", "Q4", rank="preferred"))
    rows.append(stmt("Q4", "P3", "Q5", start=date(2001, 1, 1)))
    rows.append(stmt("Q4", "P3", "Q6", start=date(2010, 1, 1)))
    con = graph(rows, labels=[("s1", "Q6", "Six", ["6"])])
    found_rows = found(con, subjects=["Q1"])
    assert paths(found_rows) == [("Q1", "P1:Q2", "P2:Q4"), ("Q1", "P1:Q2", "P2:Q4", "P3:Q6")]
    assert (found_rows[1]["answer_label"], found_rows[1]["answer_aliases"]) == ("Six", ["6"])
    assert found_rows[1]["answers"] == ["Q5", "Q6", "Q7"]
    assert found_rows == found(con, subjects=["Q1"])


def test_no_repeated_entity_and_items_only() -> None:
    """A cycle Q1 → Q2 → Q1, a self-loop and an unknown value never make a chain."""
    rows = edges("Q1 P1 Q2, Q2 P2 Q1, Q3 P1 Q3, Q4 P1 Q5, Q6 P1 Q7, Q7 P2 Q1, Q1 P3 Q7, Q1 P3 Q6")
    rows.append(stmt("Q5", "P2", "<somevalue>"))
    two = [("s0", date(2013, 1, 1)), ("s1", date(2014, 1, 1))]
    found_rows = found(graph(rows, snapshots=two, labels=[("s0", "Q1", "One", [])]))
    assert paths(found_rows) == [
        ("Q2", "P2:Q1", "P3:Q6"),
        ("Q6", "P1:Q7", "P2:Q1"),  # not on to Q6 again
        ("Q7", "P2:Q1", "P3:Q6"),
    ]
    assert found_rows[1]["answer_label"] == "One"  # from the nearest snapshot that has it


def test_max_hops_and_record_time() -> None:
    rows = edges("Q1 P1 Q2, Q2 P2 Q3, Q3 P3 Q4, Q4 P4 Q5") + edges("Q5 P4 Q9", snap="s2")
    con = graph(rows, snapshots=[("s1", date(2014, 1, 1)), ("s2", date(2015, 1, 1))])
    assert [r["n_hops"] for r in found(con, subjects=["Q1"], max_hops=2)] == [2]
    assert [r["n_hops"] for r in found(con, subjects=["Q1"])] == [2, 3]
    assert [r["n_hops"] for r in found(con, subjects=["Q1"], max_hops=4)] == [2, 3, 4]
    # record time: in 2015 the later snapshot is read, and it holds a single hop
    assert found(con, date(2015, 6, 1), max_hops=4) == []
    with pytest.raises(UsageError, match="at least 2 hops"):
        ChainQuery(T, max_hops=1)


def test_relations_file_override(tmp_path: Path) -> None:
    con = graph(edges("Q1 P1 Q2, Q2 P2 Q3, Q2 P7 Q4"))
    override = tmp_path / "rel.json"
    override.write_text(json.dumps({"P1": ["P7"]}))
    assert paths(found(con, relations=load_relations(override))) == [("Q1", "P1:Q2", "P7:Q4")]
    assert "P69" in load_relations()["P6"]
    override.write_text(json.dumps({"P1": ["capital"]}))
    with pytest.raises(UsageError, match="not a property id"):
        load_relations(override)
    with pytest.raises(UsageError, match="no next hop"):
        ChainQuery(T, relations={"P1": ["P2"]}, pids=["P2"])


DAYS = [date(2013, 1, 1), date(2014, 1, 1), (date(2014, 1, 1), date(2014, 12, 31)), "somevalue"]
QIDS = st.sampled_from([f"Q{i}" for i in range(1, 6)])
RANKS = st.sampled_from(["normal", "normal", "normal", "preferred", "deprecated"])
QUALIFIER = st.sampled_from([*[None] * 10, *DAYS])
DRAWN = st.tuples(QIDS, st.sampled_from(["P1", "P2", "P3"]), QIDS, RANKS, QUALIFIER, QUALIFIER)


@pytest.fixture(scope="module")
def graphs() -> Iterator[GraphOnce]:
    """One connection for every example's graph (its tables made anew for each)."""
    with closing(GraphOnce()) as made:
        yield made


@settings(max_examples=80)
@given(st.lists(DRAWN, min_size=4, max_size=18), st.integers(2, 4))
def test_property_chains_are_sound(graphs: GraphOnce, drawn: list[Any], max_hops: int) -> None:
    """Random small graphs: every chain is sound, and every 2-hop chain is found."""
    rows = [stmt(*fields) for fields in drawn]
    live = [r for r in rows if r[4] != "deprecated"]
    relations = {"P1": ["P2", "P3"], "P2": ["P1", "P3"], "P3": ["P1", "P2"]}
    by_id = {r[1]: r for r in live}
    connection = graphs.graph(rows)
    result = found(connection, relations=relations, max_hops=max_hops)
    query = ChainQuery(T, max_hops, relations, gap=SYNTHETIC_GAP)
    # the hops found a subject range at a time: the same chains, numbered apart
    assert stage_chains(connection, query, [("", "Q2"), ("Q2", "Q4"), ("Q4", "Q9")]) == len(result)
    assert staged_rows(connection, None) == result
    for chain in result:
        hops = chain["hops"]
        entities = [chain["start_subject"], *(h["object"] for h in hops)]
        assert len(set(entities)) == len(entities) and 2 <= len(hops) <= max_hops
        for i, hop in enumerate(hops):
            row = by_id[hop["statement_id"]]
            assert row[2:7] == tuple(hop[k] for k in ("subject", "pid", "rank", "object", "object"))
            assert validity(row, T) == "valid" and hop["subject"] == entities[i]
            assert i == 0 or hop["pid"] in relations[hops[i - 1]["pid"]]
            best, values = best_values(live, hop["subject"], hop["pid"])
            assert best == hop["rank"] and hop["object"] in values
            assert i == len(hops) - 1 or values == {hop["object"]}
    pairs = [(r["start_subject"], *r["hops"]) for r in result if r["n_hops"] == 2]
    got = {(s, a["pid"], a["object"], b["pid"], b["object"]) for s, a, b in pairs}
    assert got == two_hops(live, relations)


def test_chains_written_in_batches_are_the_chains_found(sample_store: Path, tmp_path: Path) -> None:
    """``--out`` writes the chains a few at a time (a whole store's need not fit in memory):
    the file holds exactly the chains, hops and start texts the search returns at once."""
    query = ChainQuery(date(2014, 11, 1), 3, load_relations(), [], [], "en", STRICT)
    out = tmp_path / "chains.parquet"
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        whole, _, whole_notes = chains_of(connection, query)
        shown, written, _, notes = write_chains_of(connection, query, out, None, batch=7)
    assert whole.height > 100 and written == whole.height
    assert pl.read_parquet(out).equals(whole)
    assert shown.equals(whole.head(SHOWN_CHAINS)) and notes == whole_notes


def test_every_hops_start_in_words_is_its_own(sample_store: Path) -> None:
    """Each distinct start is put in words once, for every hop that has it: each hop's
    ``start_text`` is its own start's words (none without a start), in its chain's order."""
    query = ChainQuery(date(2014, 11, 1), 3, load_relations(), [], [], "en", STRICT)
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as connection:
        chains, _, _ = chains_of(connection, query)
    hops = [hop for chain in chains.get_column("hops").to_list() for hop in chain]
    assert [hop["start_text"] for hop in hops] == [bound_text(hop["start"]) for hop in hops]
    assert any(hop["start_text"] for hop in hops) and any(not hop["start"] for hop in hops)
    assert chains.get_column("n_hops").to_list() == [len(h) for h in chains["hops"].to_list()]


def test_cli_table_out_files_and_errors(sample_store: Path, tmp_path: Path) -> None:
    common = ("chains", "--date", "2014-11-01", "--subject", "Q21", "--store", str(sample_store))
    shown = run_kgdiff(*common, "--hops", "3")
    assert shown.returncode == 0, shown.stderr
    assert "David Cameron" in shown.stdout and "wd-2014-10" in shown.stdout
    jsonl, parquet = tmp_path / "c.jsonl", tmp_path / "c.parquet"
    assert run_kgdiff(*common, "--out", str(jsonl), "--limit", "4").returncode == 0
    records = [json.loads(line) for line in jsonl.read_text().splitlines()]
    assert len(records) == 4 and records[0]["hops"][0]["subject"] == "Q21"
    relations = tmp_path / "rel.json"
    relations.write_text(json.dumps({"P36": ["P6"]}))
    assert run_kgdiff(*common, "--relations", str(relations), "--out", str(parquet)).returncode == 0
    answers = duckdb.execute("SELECT answer, n_hops FROM read_parquet(?)", [str(parquet)])
    assert answers.fetchall() == [("Q180589", 2)]
    bad = run_kgdiff("chains", "--date", "2014-13-01", "--store", str(sample_store))
    assert bad.returncode == 2 and bad.stderr.strip().startswith("error:")
    assert len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("day", [date(2014, 1, 1), date(2014, 11, 1)])
def test_the_stages_one_at_a_time_find_what_one_query_finds(real: Any, day: date) -> None:
    """``stage_chains`` keeps each stage in a temporary table (each spills within DuckDB's
    limit); the catalog macro and a streamed search run the stages as one query."""
    query = ChainQuery(day, relations=load_relations(), gap=STRICT)
    one_query = chains(real, query)
    names = [column[0] for column in one_query.description or []]
    whole = [dict(zip(names, row, strict=True)) for row in one_query.fetchall()]
    planned = "SELECT current_setting('disabled_optimizers')"
    before = real.execute(planned).fetchall()
    assert stage_chains(real, query) == len(whole) > 100
    assert staged_rows(real, None) == whole
    # the walk's stage plans with build_side_probe_side off, then sets back what was off
    assert real.execute(planned).fetchall() == before
    rows = real.execute("SELECT DISTINCT subject FROM statements ORDER BY 1").fetchall()
    subjects = [str(row[0]) for row in rows]
    cuts = ["", *(subjects[len(subjects) * k // 5] for k in range(1, 5)), PAST_EVERY_SUBJECT]
    assert stage_chains(real, query, list(pairwise(cuts))) == len(whole)
    assert staged_rows(real, None) == whole  # the hops found a subject range at a time
    left = real.execute("SELECT table_name FROM duckdb_tables() WHERE temporary").fetchall()
    assert {name for (name,) in left} == {"chain_results"}  # the stages' tables are gone
