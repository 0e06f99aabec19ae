"""The distractor tiers' bound (kgdiff/export/distractors/tier_caps.py,
docs/benchmark-export.md#option-kind-agreement): with the cap forced low on the demo's store
(``KGDIFF_EXPORT_TIER_CAP``), every tier holds at most the cap, a larger tier keeps the
candidates of the smallest digests (not its first ones) whatever order the rows come in, and
the records still get distractors of their gold's kind; at the default cap the demo's tiers
are whole."""

from __future__ import annotations

import subprocess
import sys
from datetime import date
from pathlib import Path

import polars as pl
import pytest

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.export.benchmark import BenchmarkExport, resolve_dates
from kgdiff.export.core.benchmark_model import BenchmarkRequest
from kgdiff.export.core.seeded import digest
from kgdiff.export.distractors import tier_build
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.distractors.store_facts import StoreFacts
from kgdiff.export.distractors.tier_caps import TIER_CAP, TIER_CAP_ENV, tier_cap
from kgdiff.export.inputs.groups import Groups, classified_groups
from kgdiff.export.relations.catalogue import shipped_catalogue
from tests.benchmark_exports import export, file_bytes

CAP = 3
CONFIGS = ("qa", "temporal")


def _groups(store: Path) -> Groups:
    """The demo window's classified groups (the export's own reading of them)."""
    kg = kgdiff.open(store)
    request = BenchmarkRequest(cutoff=date(2014, 10, 11))
    return classified_groups(kg, request, resolve_dates(kg, request), shipped_catalogue())


def _snapshot(groups: Groups) -> str:
    return str(groups.snapshots["current"])


def _tiers(store: Path) -> NoiseTiers:
    with _groups(store) as groups:
        return groups.naming.tiers(_snapshot(groups))


def test_every_tier_holds_at_most_the_cap(
    export_demo_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    whole = _tiers(export_demo_store)
    largest = whole.sizes.get_column("n").max()
    assert isinstance(largest, int)
    # the demo's tiers are whole at the default cap (its export is the unbounded one) ...
    assert CAP < largest < TIER_CAP
    monkeypatch.setenv(TIER_CAP_ENV, str(CAP))
    capped = _tiers(export_demo_store)
    # ... and each is cut to the cap when it is forced low
    assert capped.sizes.get_column("n").max() == CAP
    assert capped.sizes.get_column("key").to_list() == whole.sizes.get_column("key").to_list()
    counted = capped.members.group_by("tier").agg(pl.len().alias("n"), pl.col("index").max())
    assert counted.filter((pl.col("n") > CAP) | (pl.col("index") >= pl.col("n"))).is_empty()
    # only the candidates of some tier are kept
    assert set(capped.candidates.get_column("cand")) == set(capped.members.get_column("cand"))


def _answers(store: Path) -> tuple[pl.DataFrame, pl.DataFrame, StoreFacts]:
    """The demo window's answer pairs, their words and what the subjects hold."""
    with _groups(store) as groups:
        snapshot = _snapshot(groups)
        pairs = groups.naming.pairs()
        words = groups.naming.words_for(pairs.get_column("value"), snapshot)
        return pairs, words, groups.naming.facts()


def _kept(tiers: NoiseTiers) -> dict[str, list[str]]:
    """Each tier's candidates (by value), by the tier's key."""
    named = tiers.members.join(tiers.candidates, on="cand").join(
        tiers.sizes.select(pl.col("tier"), pl.col("key")), on="tier"
    )
    grouped = named.sort("key", "value").group_by("key", maintain_order=True).agg("value")
    keys, values = grouped.get_column("key").to_list(), grouped.get_column("value").to_list()
    return dict(zip(keys, values, strict=True))


def test_a_cut_tier_is_the_same_whatever_the_row_order_and_not_its_first_rows(
    export_demo_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tier_build, "DIGEST_SLICE", 2)  # the digests worked out 2 at a time
    pairs, words, facts = _answers(export_demo_store)
    shipped = shipped_catalogue()

    def tiers(pairs: pl.DataFrame, words: pl.DataFrame, cap: int | None) -> NoiseTiers:
        return NoiseTiers.of(pairs, words, shipped, [], facts.truths, facts.typical, cap)

    kept = _kept(tiers(pairs, words, CAP))
    shuffled = tiers(pairs.sample(fraction=1.0, shuffle=True, seed=7), words.reverse(), CAP)
    assert _kept(shuffled) == kept
    whole = _kept(tiers(pairs, words, None))
    cut = {key: values for key, values in whole.items() if len(values) > CAP}
    assert cut
    assert all(
        set(kept[key]) < set(values) and len(kept[key]) == CAP for key, values in cut.items()
    )
    # the values of least digest (blake2b of the value id, "fixed", purpose "pool")
    for key, values in cut.items():
        least = sorted(values, key=lambda value: digest("fixed", value, "pool"))[:CAP]
        assert sorted(kept[key]) == sorted(least), key
    # a sample of each tier, not its first candidates in any fixed order
    assert any(kept[key] != values[:CAP] for key, values in cut.items())
    assert any(kept[key] != sorted(values)[-CAP:] for key, values in cut.items())


def _frames(tiers: NoiseTiers) -> list[pl.DataFrame]:
    return [tiers.candidates, tiers.aliases, tiers.members, tiers.sizes, tiers.people]


@pytest.mark.parametrize("cap", [CAP, None])
def test_tiers_built_a_few_values_at_a_time_are_the_tiers_built_at_once(
    export_demo_store: Path, monkeypatch: pytest.MonkeyPatch, cap: int | None
) -> None:
    pairs, words, facts = _answers(export_demo_store)
    shipped, extra = shipped_catalogue(), ["Q5", "Q6256"]
    at_once = NoiseTiers.of(pairs, words, shipped, extra, facts.truths, facts.typical, cap)
    # batches of 7 values in a shuffled order, the gathered rows cut every few dozen, the
    # values' digests worked out 3 at a time
    monkeypatch.setattr(tier_build, "PRUNE_ROWS", 40)
    monkeypatch.setattr(tier_build, "DIGEST_SLICE", 3)
    named = words.drop_nulls("main").sample(fraction=1.0, shuffle=True, seed=3)
    batches = [
        named.slice(start, 7).select("value", "classes") for start in range(0, named.height, 7)
    ]

    def words_of(values: pl.Series) -> pl.DataFrame:
        return words.join(values.to_frame("value"), on="value", how="semi")

    batched = NoiseTiers.built(
        pairs, batches, words_of, shipped, extra, facts.truths, facts.typical, cap
    )
    assert len(batches) > 10
    for found, expected in zip(_frames(batched), _frames(at_once), strict=True):
        assert found.equals(expected)


@pytest.fixture(scope="module")
def capped(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The demo's ``qa`` and ``temporal`` export with every tier cut to :data:`CAP`."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(TIER_CAP_ENV, str(CAP))
        return export(export_demo_store, tmp_path_factory.mktemp("capped") / "out", configs=CONFIGS)


def _noise(folder: Path) -> int:
    found = 0
    for path in (folder / "data").rglob("*.parquet"):
        types = pl.read_parquet(path, columns=["choice_types"]).get_column("choice_types")
        found += int(types.explode().eq("noise").sum() or 0)
    return found


def test_a_capped_export_still_offers_distractors_of_the_golds_kind(
    capped: BenchmarkExport, export_demo_store: Path, tmp_path: Path
) -> None:
    assert capped.audit is not None
    agreement = next(t for t in capped.audit.targets if t.key == "option_kind")
    assert agreement.met, agreement.figure
    assert _noise(capped.out) > 100
    whole = export(export_demo_store, tmp_path / "whole", configs=CONFIGS)
    # the cap changed which distractors are offered: it was applied
    assert file_bytes(capped.out / "data") != file_bytes(whole.out / "data")


def test_a_capped_export_is_the_same_again(
    capped: BenchmarkExport,
    export_demo_store: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv(TIER_CAP_ENV, str(CAP))
    again = export(export_demo_store, tmp_path / "again", configs=CONFIGS)
    assert file_bytes(again.out / "data") == file_bytes(capped.out / "data")


@pytest.mark.parametrize("given", ["0", "-4", "many", "2.5"])
def test_a_cap_that_is_no_whole_number_is_refused_in_one_line(
    given: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv(TIER_CAP_ENV, given)
    with pytest.raises(UsageError, match=rf"^{TIER_CAP_ENV}='{given}': give the most"):
        tier_cap()


def test_the_cli_refuses_a_bad_cap_before_any_work(sample_store: Path, tmp_path: Path) -> None:
    command = [sys.executable, "-m", "kgdiff", "export", "benchmark", "--cutoff", "2014-10-11"]
    command += ["--store", str(sample_store), "--out", str(tmp_path / "out")]
    env = {"PATH": "/usr/bin:/bin", TIER_CAP_ENV: "lots"}
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    assert done.returncode == 2, done.stderr
    lines = [line for line in done.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and TIER_CAP_ENV in lines[0], done.stderr
    assert not (tmp_path / "out").exists()
