"""kgdiff export benchmark, config pools, --pools-static on the real samples (2010–2014, valid
time): by default the static split keeps as many static groups as there are dynamic groups
(ChroKnowBench's balance), `all` keeps every one, N at most N; the groups kept are the first in
the seed's order, their records those of the export of every group; bad values are refused."""

from __future__ import annotations

import json
from collections import Counter
from datetime import date
from pathlib import Path
from typing import Any

import pytest

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.export import benchmark
from kgdiff.export.benchmark import BenchmarkExport, resolve_dates
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.core.seeded import seeded_rank
from kgdiff.export.inputs.groups import classified_groups
from kgdiff.export.pools import ranges
from kgdiff.export.pools.asked import changing_years
from kgdiff.export.pools.groups import asked_years, pool_years, read_pool_years
from kgdiff.export.pools.sample import NOT_SAMPLED, pools_static_policy
from kgdiff.export.relations.catalogue import load_catalogue
from kgdiff.export.rules.entity_ends import EntityEnds
from kgdiff.export.rules.salience import Salience, subject_facts, with_subject_reason
from kgdiff.export.words.names import Names
from tests.benchmark_exports import CUTOFF, export, file_bytes, records
from tests.paths import run_kgdiff
from tests.shared_exports import SAMPLES_POOLS_ALL, shared_export

WINDOW: dict[str, Any] = {"configs": ("pools",), "mode": "valid", "init": date(2010, 1, 1)}
Record = dict[str, Any]


@pytest.fixture(scope="module")
def every(pristine_samples: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The export of every static group (made once per run: the same export of the same
    store as tests/test_benchmark_pools.py's ``exported``)."""
    fields = {"pools_static": "all", **WINDOW}
    assert fields == SAMPLES_POOLS_ALL
    return shared_export(tmp_path_factory, pristine_samples, **fields)


@pytest.fixture(scope="module")
def balanced(
    export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> BenchmarkExport:
    return export(export_sample_store, tmp_path_factory.mktemp("pools-bal") / "bench", **WINDOW)


@pytest.fixture(scope="module")
def by_state(export_sample_store: Path) -> dict[str, list[str]]:
    """The ids of the dynamic and of the static groups that have a year asked of a relation
    that changes and of a subject that still was (:mod:`kgdiff.export.pools.asked`), whose
    subjects are asked about (a label, a sitelink, not a country asked its country), read as
    the export reads them."""
    kg = kgdiff.open(export_sample_store)
    request = BenchmarkRequest(cutoff=CUTOFF, **WINDOW)
    dates = resolve_dates(kg, request)
    catalogue = load_catalogue(None)
    with classified_groups(kg, request, dates, catalogue) as classified:
        groups = classified.rows().collect()
    span = pool_years(dates, kg.answers.span()[1])
    asked = asked_years(read_pool_years(kg, groups, span, request))
    ends = EntityEnds(kg)
    asked = changing_years(asked, ends.gone_years(asked), catalogue, Counter())
    ends.close()
    asked = asked.unique("group_id")
    subjects = asked.get_column("subject").unique().to_list()
    with kg.connection() as connection:
        snapshot = groups.get_column("current_snapshot")[0]
        facts = subject_facts(Names.read(connection, subjects, snapshot, "en"), subjects, {})
    asked = with_subject_reason(asked, facts, Salience(), catalogue)
    asked = asked.filter(asked["_subject_reason"].is_null())
    return {
        state: sorted(asked.filter(asked["state"] == state).get_column("group_id"))
        for state in ("dynamic", "static")
    }


def first(ids: list[str], seed: int, count: int) -> set[str]:
    """The first ``count`` of ``ids`` in the seed's order."""
    return set(sorted(ids, key=lambda i: (seeded_rank(seed, i), i))[:count])


def group_of(record: Record) -> str:
    return str(record["id"]).rsplit("/", 1)[0]


def build_file(out: Path) -> dict[str, Any]:
    return dict(json.loads((out / "kgdiff_build.json").read_text())["configs"]["pools"])


def without_tf(record: Record) -> Record:
    """A record less its true/false statement (a split may swap one to have both labels)."""
    return {k: v for k, v in record.items() if k not in ("tf_statement", "tf_label")}


def assert_sample_of(sampled: list[Record], full: list[Record], kept: set[str]) -> None:
    """``sampled`` is the records of ``full`` whose groups are ``kept``, as they are there."""
    wanted = [record for record in full if group_of(record) in kept]
    assert [r["id"] for r in sampled] == [r["id"] for r in wanted]
    assert [without_tf(r) for r in sampled] == [without_tf(r) for r in wanted]


def assert_accounted(out: Path, exported: BenchmarkExport) -> None:
    """Every asked or left-out year of a pooled group is a record or counted."""
    build = build_file(out)
    written = sum(exported.configs["pools"].values())
    assert written + sum(build["left_out"].values()) == build["group_years"]


def test_by_default_the_static_split_keeps_as_many_groups_as_there_are_dynamic_ones(
    balanced: BenchmarkExport, every: BenchmarkExport, by_state: dict[str, list[str]]
) -> None:
    dynamic, static = len(by_state["dynamic"]), len(by_state["static"])
    assert 5 < dynamic < static
    build = build_file(balanced.out)
    assert build["groups_by_state"] == {"dynamic": dynamic, "static": static}
    assert build["static_groups"] == {"policy": "balanced", "kept": dynamic, "of": static}
    kept = first(by_state["static"], 0, dynamic)
    sampled = records(balanced.out, "static", "pools")
    assert_sample_of(sampled, records(every.out, "static", "pools"), kept)
    assert 0 < len({group_of(r) for r in sampled}) <= dynamic
    assert records(balanced.out, "dynamic", "pools") == records(every.out, "dynamic", "pools")
    left_out = build["left_out"]
    assert left_out[NOT_SAMPLED] > 0 and NOT_SAMPLED not in build_file(every.out)["left_out"]
    assert_accounted(balanced.out, balanced)
    parameters = json.loads((balanced.out / "kgdiff_build.json").read_text())["parameters"]
    assert parameters["pools_static"] == "balanced"
    card = (balanced.out / "README.md").read_text(encoding="utf-8")
    assert "The `static` split is a sample: as many static groups as dynamic ones" in card
    assert f"({dynamic:,} of {static:,})" in card and "`--pools-static all`" in card
    assert balanced.notes and "--pools-static all keeps every one" in balanced.notes[0]


def test_all_keeps_every_static_group(
    every: BenchmarkExport, by_state: dict[str, list[str]]
) -> None:
    static = len(by_state["static"])
    build = build_file(every.out)
    assert build["static_groups"] == {"policy": "all", "kept": static, "of": static}
    assert every.notes == ()
    assert f"holds every static group ({static:,})" in (every.out / "README.md").read_text()
    assert_accounted(every.out, every)
    written = {group_of(r) for r in records(every.out, "static", "pools")}
    assert written <= set(by_state["static"]) and len(written) > 100


@pytest.mark.parametrize("count", [1, 9, 10**6])
def test_a_number_keeps_at_most_that_many_static_groups(
    export_sample_store: Path,
    every: BenchmarkExport,
    by_state: dict[str, list[str]],
    tmp_path: Path,
    count: int,
) -> None:
    static = len(by_state["static"])
    done = export(export_sample_store, tmp_path / "n", pools_static=count, **WINDOW)
    kept = min(count, static)
    assert build_file(done.out)["static_groups"] == {"policy": count, "kept": kept, "of": static}
    sampled = records(done.out, "static", "pools")
    assert_sample_of(
        sampled, records(every.out, "static", "pools"), first(by_state["static"], 0, kept)
    )
    assert (NOT_SAMPLED in build_file(done.out)["left_out"]) == (count < static)
    assert_accounted(done.out, done)


def test_the_seed_chooses_the_static_groups(
    export_sample_store: Path,
    balanced: BenchmarkExport,
    by_state: dict[str, list[str]],
    tmp_path: Path,
) -> None:
    again = export(export_sample_store, tmp_path / "again", **WINDOW)
    assert file_bytes(again.out) == file_bytes(balanced.out)
    dynamic = len(by_state["dynamic"])
    other = export(export_sample_store, tmp_path / "other", seed=7, **WINDOW)
    chosen = {group_of(r) for r in records(other.out, "static", "pools")}
    kept = first(by_state["static"], 7, dynamic)
    assert chosen and chosen <= kept and kept != first(by_state["static"], 0, dynamic)
    assert chosen != {group_of(r) for r in records(balanced.out, "static", "pools")}


def test_limit_takes_whole_groups_of_the_sample(
    export_sample_store: Path, by_state: dict[str, list[str]], tmp_path: Path
) -> None:
    small = export(export_sample_store, tmp_path / "small", limit=5, **WINDOW)
    kept = first(by_state["static"], 0, len(by_state["dynamic"]))
    static = records(small.out, "static", "pools")
    assert 0 < len(static) <= 5 and {group_of(r) for r in static} <= kept
    assert build_file(small.out)["static_groups"]["kept"] == len(by_state["dynamic"])


@pytest.mark.parametrize(
    ("given", "read"), [("balanced", "balanced"), (" all ", "all"), ("12", 12), (3, 3)]
)
def test_the_policy_is_a_name_or_a_positive_number(given: str | int, read: str | int) -> None:
    assert pools_static_policy(given) == read


@pytest.mark.parametrize("given", [0, -2, "0", "banana", "", "1.5", True])
def test_a_bad_policy_is_refused_before_anything_is_written(
    export_sample_store: Path, tmp_path: Path, given: str | int
) -> None:
    with pytest.raises(UsageError, match=r"^--pools-static .*: give balanced .* all .* N"):
        export(export_sample_store, tmp_path / "x", pools_static=given, **WINDOW)
    assert not (tmp_path / "x").exists()


@pytest.mark.parametrize("given", ["0", "banana"])
def test_the_command_refuses_a_bad_policy_in_one_line(
    export_sample_store: Path, tmp_path: Path, given: str
) -> None:
    done = run_kgdiff(
        "export", "benchmark", "--cutoff", "2014-10-11", "--configs", "pools",
        "--out", str(tmp_path / "x"), "--store", str(export_sample_store),
        "--pools-static", given,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"--pools-static {given}: give balanced" in done.stderr
    assert "all (every static group)" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1, done.stderr
    assert not (tmp_path / "x").exists()


def test_the_command_says_the_static_split_is_a_sample(
    export_sample_store: Path, by_state: dict[str, list[str]], tmp_path: Path
) -> None:
    common = ["export", "benchmark", "--cutoff", "2014-10-11", "--configs", "pools", "--mode",
              "valid", "--init", "2010-01-01", "--store", str(export_sample_store)]  # fmt: skip
    done = run_kgdiff(*common, "--out", str(tmp_path / "b"))
    assert done.returncode == 0, done.stderr
    dynamic, static = len(by_state["dynamic"]), len(by_state["static"])
    assert f"static split is a sample of {dynamic:,} of {static:,} static groups" in done.stdout
    assert "--pools-static all keeps every one" in done.stdout
    done = run_kgdiff(*common, "--out", str(tmp_path / "a"), "--pools-static", "all")
    assert done.returncode == 0, done.stderr
    assert "sample" not in done.stdout
    assert build_file(tmp_path / "a")["static_groups"]["kept"] == static


def test_pools_read_a_range_of_subjects_at_a_time_are_the_pools_read_at_once(
    export_sample_store: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    balanced: BenchmarkExport,
) -> None:
    """A store too large for one range (kgdiff.export.pools.ranges) reads its groups' years
    range by range, samples on the groups' keys and reads the chosen groups again: the same
    records, counts and card as every group read at once (and read ahead). The default policy
    only: it samples, so the second pass reads some groups again and not others."""
    at_once = balanced
    # ~1,250 groups: 5 ranges of 250 (31 of 40 read the same code path six times as long)
    monkeypatch.setattr(ranges, "RANGE_GROUPS", 250)
    monkeypatch.setattr(benchmark, "READ_AHEAD_MAX_STATEMENTS", 0)
    said: list[str] = []
    fields: dict[str, Any] = {"cutoff": CUTOFF, **WINDOW}
    out = tmp_path / "bench"
    ranged = benchmark.export_benchmark(
        kgdiff.open(export_sample_store), BenchmarkRequest(**fields), out, on_step=said.append
    )
    steps = [line for line in said if line.startswith("pools: the groups of subjects")]
    assert len(steps) > 3 and steps[-1].endswith(f"({len(steps)} of {len(steps)})")
    data = {name: body for name, body in file_bytes(out).items() if name.startswith("data/")}
    assert data and data == {
        name: body for name, body in file_bytes(at_once.out).items() if name.startswith("data/")
    }
    assert build_file(out) == build_file(at_once.out)
    assert ranged.configs == at_once.configs and ranged.notes == at_once.notes
    assert (out / "README.md").read_bytes() == (at_once.out / "README.md").read_bytes()
