"""``kgdiff classify``: builds keyed by their parameters, exports, catalog views and macro."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import duckdb
import pytest

from kgdiff import __version__
from kgdiff.store.layout import StoreLayout
from kgdiff.store.snapshots import list_snapshots
from tests.built_once import private_copy
from tests.paths import run_kgdiff

DATES = ["--init", "2013-12-21", "--cutoff", "2014-10-11", "--current", "2014-12-31"]
VIEW = "classified_20131221_20141011_20141231_record"


def test_classify_builds_once_exports_and_shows_in_the_catalog(
    pristine_samples: Path, tmp_path: Path
) -> None:
    # a store of its own: the session's sample store may hold this build already
    sample_store = private_copy(pristine_samples, tmp_path / "store")
    out = tmp_path / "groups.jsonl"
    first = run_kgdiff("classify", *DATES, "--store", str(sample_store), "--out", str(out))
    assert first.returncode == 0, first.stderr
    assert "built" in first.stdout
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert {"subject", "pid", "level", "change_kind", "latest", "outdated", "all_answers"} <= set(
        records[0]
    )
    levels = {r["level"] for r in records}
    assert {"stable", "evolved", "uncharted"} <= levels
    again = run_kgdiff(
        "classify",
        *DATES,
        "--store",
        str(sample_store),
        "--pid",
        "P6",
        "--pid",
        "P35",
        "--out",
        str(tmp_path / "heads.parquet"),
    )
    assert again.returncode == 0 and "reused" in again.stdout
    pids = duckdb.execute(f"SELECT DISTINCT pid FROM '{tmp_path / 'heads.parquet'}'").fetchall()
    assert {p for (p,) in pids} <= {"P6", "P35"} and pids
    with duckdb.connect(str(sample_store / "kg.duckdb"), read_only=True) as catalog:
        count = catalog.execute(f"SELECT count(*) FROM {VIEW}").fetchone()
        macro = catalog.execute(
            "SELECT count(*) FROM classify(DATE '2013-12-21', DATE '2014-10-11', "
            "DATE '2014-12-31', 'record')"
        ).fetchone()
    assert count == macro == (len(records),)


@pytest.mark.parametrize(
    "args",
    [
        ["--init", "2014-10-11", "--cutoff", "2013-12-21", "--current", "2014-12-31"],
        [*DATES, "--mode", "either"],
        ["--init", "21/12/2013", "--cutoff", "2014-10-11", "--current", "2014-12-31"],
    ],
)
def test_bad_classify_arguments_are_usage_errors(sample_store: Path, args: list[str]) -> None:
    result = run_kgdiff("classify", *args, "--store", str(sample_store))
    assert result.returncode == 2
    assert result.stderr.strip().startswith("error:") and len(result.stderr.splitlines()) == 1


def test_a_build_of_an_earlier_layout_is_left_out(sample_store: Path, tmp_path: Path) -> None:
    """A build folder of an earlier kgdiff (one result.parquet, no result/ folder) neither
    breaks the catalog nor stands in for a build: the next classify makes a new one."""
    store = tmp_path / "store"
    shutil.copytree(sample_store, store, ignore=shutil.ignore_patterns("builds"))
    old = store / "builds" / "classify" / "0123456789abcdef"
    old.mkdir(parents=True)
    layout = StoreLayout(store)
    snapshots = [[m.name, m.source.sha256] for m in list_snapshots(layout)]
    params = {"init": "2013-12-21", "cutoff": "2014-10-11", "current": "2014-12-31",
              "mode": "valid", "snapshots": snapshots, "tool_version": __version__}  # fmt: skip
    (old / "params.json").write_text(json.dumps(params))
    (old / "result.parquet").write_bytes(b"PAR1")
    rebuild = run_kgdiff("snapshots", "catalog", "--store", str(store))
    assert rebuild.returncode == 0, rebuild.stderr
    made = run_kgdiff("classify", *DATES, "--mode", "valid", "--store", str(store))
    assert made.returncode == 0 and "built" in made.stdout, made.stderr
    with duckdb.connect(str(store / "kg.duckdb"), read_only=True) as catalog:
        rows = catalog.execute(f"SELECT count(*) FROM {VIEW.replace('record', 'valid')}")
        assert rows.fetchall()[0][0] > 1000
