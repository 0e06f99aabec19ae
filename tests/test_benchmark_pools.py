"""kgdiff export benchmark, config pools, on the real samples (2010–2014, valid time): every
record is a year of its group's pools as `kgdiff pools` gives them, the export is reproducible,
the options follow the rules, the folder loads with the datasets library, and `kgdiff score
--config pools` reads the records as they are; lm-eval runs its task files."""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Callable
from datetime import date, timedelta
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest
from polars.testing import assert_frame_equal

import kgdiff
from kgdiff.export.benchmark import BenchmarkExport, resolve_dates
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.dataset.schema import POOLS_SCHEMA
from kgdiff.export.inputs.groups import classified_groups
from kgdiff.export.pools.groups import YEAR_SCHEMA, pool_years, read_pool_years
from kgdiff.export.relations.catalogue import load_catalogue
from kgdiff.export.scoring.pools import score_pools
from kgdiff.export.scoring.text_match import normalise
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.valuetext import is_entity, value_texts
from tests.benchmark_exports import CUTOFF, export, file_bytes, records
from tests.shared_exports import SAMPLES_POOLS_ALL, shared_export
from tests.task_tools import read_yaml, run_lm_eval

SPLITS = ("dynamic", "static")
WINDOW: dict[str, Any] = {"configs": ("pools",), "mode": "valid", "init": date(2010, 1, 1)}
ALL = {**WINDOW, "pools_static": "all"}
"""Every static group: the tests of the records themselves see them all."""
YEARS = range(2010, 2015)
Record = dict[str, Any]


@pytest.fixture(scope="module")
def exported(pristine_samples: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The export of the samples' pools, every static group (made once per run: the same
    export of the same store as tests/test_benchmark_pools_static.py's ``every``)."""
    assert ALL == SAMPLES_POOLS_ALL
    return shared_export(tmp_path_factory, pristine_samples, **ALL)


@pytest.fixture(scope="module")
def built(exported: BenchmarkExport) -> list[Record]:
    return [record for split in SPLITS for record in records(exported.out, split, "pools")]


@pytest.fixture(scope="module")
def kg_pools(export_sample_store: Path) -> Callable[[str], pl.DataFrame]:
    """``kg.pools(pid=PID, from_year=2010, to_year=2014)`` of the samples, asked once per
    property for the file (the pools read statements alone, which no test changes; a call
    costs ~0.2 CPU-s whatever the property, and the first test and :func:`pools` ask the
    same ones)."""
    kg = kgdiff.open(export_sample_store)
    asked: dict[str, pl.DataFrame] = {}

    def read(pid: str) -> pl.DataFrame:
        if pid not in asked:
            asked[pid] = kg.pools(pid=pid, from_year=2010, to_year=2014)
        return asked[pid]

    return read


@pytest.fixture(scope="module")
def pools(
    kg_pools: Callable[[str], pl.DataFrame], built: list[Record]
) -> dict[tuple[str, str], Record]:
    """kg.pools of the records' groups over the export's years, by (subject, pid)."""
    found = {}
    for pid in sorted({record["pid"] for record in built}):
        for row in kg_pools(pid).iter_rows(named=True):
            found[(row["subject"], pid)] = row
    return found


def by_group(built: list[Record]) -> dict[tuple[str, str], list[Record]]:
    groups: dict[tuple[str, str], list[Record]] = defaultdict(list)
    for record in built:
        groups[(record["subject"], record["pid"])].append(record)
    return groups


def snapshot_year(period: Record) -> int:
    """The year of the snapshot a period's pools read (its last day less its gap)."""
    return int((period["last_day"] - timedelta(days=period["gap_days"])).year)


def asked(row: Record) -> dict[int, list[str]]:
    """The years of a group's pools the export asks: neither empty nor filled, nor after the
    year of the snapshot its subject is read from."""
    return {
        int(period["period"]): period["objects"]
        for period in row["periods"]
        if period["objects"] and not period["filled"]
        and int(period["period"]) <= snapshot_year(period)
    }  # fmt: skip


def _years_from_kg_pools(
    kg: KnowledgeGraph,
    groups: pl.DataFrame,
    first: int,
    last: int,
    asked: Callable[[str], pl.DataFrame] | None = None,
) -> pl.DataFrame:
    """The years of ``groups`` as ``kg.pools`` gives them, property by property (``asked``:
    what ``kg.pools(pid=PID, from_year=first, to_year=last)`` gave, kept from an earlier
    call)."""
    frames = [pl.DataFrame(schema=YEAR_SCHEMA)]
    for pid in sorted(groups.get_column("pid").unique().to_list()):
        found = asked(pid) if asked else kg.pools(pid=pid, from_year=first, to_year=last)
        found = found.join(groups.filter(pl.col("pid") == pid), on=["subject", "pid"], how="semi")
        rows = found.select("subject", "pid", "snapshot", "periods").explode("periods")
        rows = rows.unnest("periods")
        read = (pl.col("last_day") - pl.duration(days=pl.col("gap_days"))).dt.year()
        frames.append(
            rows.select(
                pl.concat_str(pl.lit("pools/"), "subject", pl.lit("/"), "pid").alias("group_id"),
                "subject",
                "pid",
                "snapshot",
                pl.col("period").cast(pl.Int64()).alias("year"),
                "objects",
                "precision_only",
                pl.when(pl.col("period").cast(pl.Int64()) > read)
                .then(pl.lit("after_the_data"))
                .when(pl.col("filled"))
                .then(pl.lit("filled_year"))
                .when(pl.col("objects").list.len() == 0)
                .then(pl.lit("empty_year"))
                .alias("reason"),
            ).cast(YEAR_SCHEMA)
        )
    return pl.concat(frames).sort("group_id", "year")


def test_the_years_read_are_the_groups_pools_as_kg_pools_gives_them(
    export_sample_store: Path, kg_pools: Callable[[str], pl.DataFrame]
) -> None:
    kg = kgdiff.open(export_sample_store)
    request = BenchmarkRequest(cutoff=CUTOFF, **WINDOW)
    dates = resolve_dates(kg, request)
    with classified_groups(kg, request, dates, load_catalogue(None)) as classified:
        groups = classified.rows().collect()
    span = pool_years(dates, kg.answers.span()[1])
    assert (span.first, span.last) == (2010, 2014)
    read = read_pool_years(kg, groups, span, request)
    wanted = groups.select("subject", "pid").unique()
    from_kg_pools = _years_from_kg_pools(kg, wanted, span.first, span.last, kg_pools)
    assert_frame_equal(read, from_kg_pools)
    assert read.height > 1000 and read.get_column("reason").null_count() < read.height
    # a subset of the groups reads the same rows of those groups
    some = wanted.sort("subject", "pid").gather_every(7)
    subset = read_pool_years(kg, some, span, request)
    assert_frame_equal(subset, read.join(some, on=["subject", "pid"], how="semi"))
    assert read_pool_years(kg, groups.clear(), span, request).is_empty()


def test_records_are_years_of_their_groups_pools(
    exported: BenchmarkExport, built: list[Record], pools: dict[tuple[str, str], Record]
) -> None:
    counts = exported.configs["pools"]
    assert list(counts) == list(SPLITS) and counts["dynamic"] > 5 and counts["static"] > 500
    for record in built:
        row = pools[(record["subject"], record["pid"])]
        (period,) = [p for p in row["periods"] if p["period"] == str(record["year"])]
        assert record["objects"] == period["objects"] and not period["filled"]
        assert record["precision_only"] == period["precision_only"]
        assert record["id"] == f"pools/{record['subject']}/{record['pid']}/{record['year']}"
        assert record["snapshot"] == row["snapshot"]
        assert record["year"] <= snapshot_year(period)  # never after its subject's data
        for text in ("question", "cloze", "mc_question", "tf_statement"):
            assert str(record["year"]) in record[text]  # the time-anchored templates
    # a classification in valid time has the groups of wd-2014-12, which holds their subjects
    # (tests/test_pool_snapshots.py reads subjects the latest snapshot lacks)
    assert {record["snapshot"] for record in built} == {"wd-2014-12"}


def test_a_group_is_dynamic_when_the_pools_of_its_asked_years_differ(
    built: list[Record], pools: dict[tuple[str, str], Record]
) -> None:
    for key, group in by_group(built).items():
        years = asked(pools[key])
        state = "dynamic" if len({tuple(v) for v in years.values()}) > 1 else "static"
        assert {record["state"] for record in group} == {state}, key


def test_earlier_and_later_objects_are_the_other_years_nearest_first(
    built: list[Record], pools: dict[tuple[str, str], Record]
) -> None:
    for record in built:
        years, here = asked(pools[(record["subject"], record["pid"])]), set(record["objects"])
        for side, wanted in (("earlier_objects", range(record["year"] - 1, 2009, -1)),
                             ("later_objects", range(record["year"] + 1, 2015))):  # fmt: skip
            nearest: dict[str, int] = {}
            for year in wanted:
                for value in years.get(year, []):
                    nearest.setdefault(value, year)
            others = [v for v in nearest if v not in here]
            assert sorted(record[side]) == sorted(others), (record["id"], side)
            distance = [abs(nearest[value] - record["year"]) for value in record[side]]
            assert distance == sorted(distance)


def test_options_follow_the_rules(built: list[Record]) -> None:
    group_texts: dict[tuple[str, str], set[str]] = defaultdict(set)
    for record in built:
        group_texts[(record["subject"], record["pid"])] |= set(map(normalise, record["answers"]))
    for record in built:
        options, kinds = record["options"], record["choice_types"]
        assert len(options) == 4 and kinds.count("correct") == kinds.count("unknown") == 1
        gold = ord(record["gold"]) - ord("A")
        assert kinds[gold] == "correct" and options[gold] in record["answer_labels"]
        # the outdated option names an earlier year's object, never a later year's
        assert "outdated" not in kinds or record["earlier_objects"], record["id"]
        assert ("outdated" in kinds) == bool(record["outdated_answers"]), record["id"]
        answers = set(map(normalise, record["answers"]))
        assert not answers & set(map(normalise, record["outdated_answers"]))
        for option, kind in zip(options, kinds, strict=True):
            if kind == "outdated":
                assert option in record["outdated_answers"]
            if kind == "noise":  # no answer of the group in any year, alias or label
                assert normalise(option) not in group_texts[(record["subject"], record["pid"])]


def test_outdated_answers_are_values_of_earlier_years_only(
    export_sample_store: Path, built: list[Record]
) -> None:
    """A later year's population (of Q1083 for 2011) is no outdated answer, nor an option: a
    value that starts after the year asked was not yet the value (issue 35)."""
    texts = {
        (record["subject"], record["pid"], record["year"]): set(map(normalise, record["answers"]))
        for record in built
    }
    later_seen = 0
    for record in built:
        outdated = set(map(normalise, record["outdated_answers"]))
        earlier = set().union(*(
            texts.get((record["subject"], record["pid"], year), set())
            for year in range(2010, record["year"])
        ))  # fmt: skip
        assert outdated <= earlier, (record["id"], outdated - earlier)
        later = set().union(*(
            texts.get((record["subject"], record["pid"], year), set())
            for year in range(record["year"] + 1, 2015)
        )) - earlier - set(map(normalise, record["answers"]))  # fmt: skip
        later_seen += bool(later)
        assert not set(map(normalise, record["options"])) & later, record["id"]
    assert later_seen > 5


def held_texts(store: Path, built: list[Record]) -> dict[tuple[str, str], set[str]]:
    """The texts (normalised) of every value other than an item that each group of the
    records holds in any snapshot and any year, by (subject, pid)."""
    groups = sorted({(record["subject"], record["pid"]) for record in built})
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as connection:
        connection.register("wanted", pl.DataFrame(groups, schema=["s", "p"], orient="row"))
        rows = connection.sql(
            "SELECT DISTINCT subject, pid, value FROM statements JOIN wanted"
            " ON subject = s AND pid = p WHERE rank <> 'deprecated'"
        ).fetchall()
        units = connection.sql(
            "SELECT DISTINCT qid, value FROM labels WHERE kind = 'label' AND lang = 'en'"
        ).fetchall()
    label = dict(units)
    found: dict[tuple[str, str], set[str]] = defaultdict(set)
    for subject, pid, value in rows:
        if not is_entity(value):
            found[(subject, pid)] |= {normalise(t) for t in value_texts(value, label.get)}
    return found


def test_no_distractor_is_a_value_of_the_group_in_any_year(
    export_sample_store: Path, built: list[Record]
) -> None:
    """Zürich's population of 1953 is no wrong answer for 2013, nor Google's employees of
    2012 (a value of the group the pools of the export's years do not hold); items are
    checked by the subject's truths in test_options_follow_the_rules."""
    held = held_texts(export_sample_store, built)
    checked = 0
    for record in built:
        mine = held[(record["subject"], record["pid"])]
        checked += bool(mine)
        for option, kind in zip(record["options"], record["choice_types"], strict=True):
            if kind == "noise":
                assert normalise(option) not in mine, (record["id"], option)
        if not record["tf_label"]:  # the false statement names a distractor or the outdated
            wrong = [o for o, k in zip(record["options"], record["choice_types"], strict=True)
                     if k in ("noise", "outdated")]  # fmt: skip
            assert any(normalise(o) in normalise(record["tf_statement"]) for o in wrong)
    # populations, employees, names: 53 (official websites, no longer asked, made 100 more)
    assert checked > 40


def test_gold_letters_are_uniform_and_true_false_takes_both_labels(
    exported: BenchmarkExport, built: list[Record]
) -> None:
    letters = Counter(record["gold"] for record in built)
    assert set(letters) == set("ABCD")
    assert all(0.2 < count / len(built) < 0.3 for count in letters.values()), letters
    for split in SPLITS:
        assert {r["tf_label"] for r in records(exported.out, split, "pools")} == {True, False}


def test_a_re_export_is_byte_identical_and_another_seed_only_reorders(
    export_sample_store: Path, exported: BenchmarkExport, built: list[Record], tmp_path: Path
) -> None:
    again = export(export_sample_store, tmp_path / "again", **ALL).out
    assert file_bytes(again) == file_bytes(exported.out)
    seeded = export(export_sample_store, tmp_path / "seeded", seed=7, **ALL).out
    other = {r["id"]: r for split in SPLITS for r in records(seeded, split, "pools")}
    assert other.keys() == {record["id"] for record in built}
    drawn = {"options", "choice_types", "gold", "mc_question", "tf_statement", "tf_label"}
    moved = 0
    for record in built:
        twin = other[record["id"]]
        assert {k: v for k, v in record.items() if k not in drawn} == {
            k: v for k, v in twin.items() if k not in drawn
        }
        pairs = sorted(zip(record["options"], record["choice_types"], strict=True))
        assert pairs == sorted(zip(twin["options"], twin["choice_types"], strict=True))
        moved += twin["options"] != record["options"]
    assert moved > len(built) / 2


def test_every_year_of_a_pooled_group_is_a_record_or_counted(exported: BenchmarkExport) -> None:
    build = json.loads((exported.out / "kgdiff_build.json").read_text())["configs"]["pools"]
    assert build["years"] == {"from": 2010, "to": 2014} and build["years_after_the_data"] == []
    pooled = build["groups"] - build["groups_left_out"]["no_pool"]
    assert build["group_years"] == pooled * len(YEARS)
    assert (
        sum(exported.configs["pools"].values()) + sum(build["left_out"].values())
        == (build["group_years"])
    )
    assert build["left_out"]["filled_year"] > 0 and build["left_out"]["empty_year"] > 0


def test_limit_keeps_whole_groups(
    export_sample_store: Path, built: list[Record], tmp_path: Path
) -> None:
    small = export(export_sample_store, tmp_path / "small", limit=5, **ALL).out
    full = by_group(built)
    for split in SPLITS:
        kept = records(small, split, "pools")
        assert 0 < len(kept) <= 5
        assert [r["id"] for r in kept] == sorted(r["id"] for r in kept)
        for key, group in by_group(kept).items():
            assert [r["id"] for r in group] == [r["id"] for r in full[key]]
            assert [r["options"] for r in group] == [r["options"] for r in full[key]]


def test_the_splits_load_offline_with_the_datasets_library(
    exported: BenchmarkExport, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    for split in SPLITS:
        loaded = datasets.load_dataset(
            str(exported.out), "pools", split=split, cache_dir=str(tmp_path)
        )
        assert loaded.column_names == list(POOLS_SCHEMA)
        assert loaded.to_list() == records(exported.out, split, "pools")


def test_scoring_reads_the_records_as_they_are(built: list[Record]) -> None:
    groups = by_group(built)
    right = {record["id"]: record["answers"][0] for record in built}
    report = score_pools(built, right)
    assert report["groups"] == report["patterns"]["known"] == len(groups)
    assert report["incomplete"] == 0 and set(report["by_state"]) == set(SPLITS)
    several = [group for group in groups.values() if len(group) > 1]
    assert len(several) > 5
    for stale in (False, True):  # right only in the first year, or only from the second on
        said = {
            r["id"]: r["answers"][0] if (i == 0) != stale else "qqqq zzzz"
            for group in several
            for i, r in enumerate(group)
        }
        chosen = [record for group in several for record in group]
        assert score_pools(chosen, said)["patterns"]["cut_off"] == len(several)


def test_the_card_and_the_task_files_name_the_splits(
    exported: BenchmarkExport, tmp_path: Path
) -> None:
    card = (exported.out / "README.md").read_text(encoding="utf-8")
    for split in SPLITS:
        assert f"path: data/pools/{split}.parquet" in card
    assert "### `pools`" in card and "ChroKnowBench" in card
    groups = read_yaml(exported.out / "tasks" / "lm_eval" / "kgdiff.yaml")["task"]
    assert groups == ["kgdiff_pools_gen", "kgdiff_pools_mc", "kgdiff_pools_tf"]
    results = run_lm_eval(exported.out, tmp_path, "kgdiff_pools_mc,kgdiff_pools_tf", limit=3)
    for split in SPLITS:
        assert "mc_accuracy,none" in results[f"kgdiff_pools_mc_{split}"]
        assert "tf_accuracy,none" in results[f"kgdiff_pools_tf_{split}"]
