"""The DuckDB prompt's macros take the defaults a user expects (issue 23), in the `duckdb`
shell installed with kgdiff: no mode for classify, one subject or a list for chains, no
years for pools, no current date for updates."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

DUCKDB_CLI = str(Path(sys.executable).parent / "duckdb")


def scalar(store: Path, query: str) -> str:
    """The single value ``query`` answers, through the `duckdb` shell (CSV, no header)."""
    done = subprocess.run(
        [DUCKDB_CLI, "-readonly", "-csv", "-noheader", str(store / "kg.duckdb"), "-c", query],
        capture_output=True, text=True, check=False, timeout=120,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


@pytest.mark.parametrize(
    ("short", "full"),
    [
        (
            "classify('2013-12-21', '2014-10-11', '2014-12-31')",
            "classify(DATE '2013-12-21', DATE '2014-10-11', DATE '2014-12-31', 'record')",
        ),
        ("chains('2014-11-01', 'Q21')", "chains(DATE '2014-11-01', subjects := ['Q21'])"),
        (
            "chains('2014-11-01', ['Q21', 'Q183'])",
            "chains(DATE '2014-11-01', subjects := ['Q21', 'Q183'])",
        ),
        ("pools('Q183', 'P6')", "pools('Q183', 'P6', 2010, 2014)"),
        ("updates('2005-06-01')", "updates(DATE '2005-06-01', DATE '2014-12-31')"),
    ],
)
def test_a_short_call_answers_as_the_full_one(demo_store: Path, short: str, full: str) -> None:
    count = "SELECT count(*), sum(hash(COLUMNS(*))) FROM {}"
    got = scalar(demo_store, count.format(short))
    assert got == scalar(demo_store, count.format(full))
    assert not got.startswith("0,")


def test_chains_accepts_subjects_in_either_form_alike(demo_store: Path) -> None:
    one = scalar(demo_store, "SELECT count(*) FROM chains('2014-11-01', subjects := 'Q21')")
    listed = scalar(demo_store, "SELECT count(*) FROM chains('2014-11-01', subjects := ['Q21'])")
    everyone = scalar(demo_store, "SELECT count(*) FROM chains('2014-11-01')")
    assert one == listed and int(everyone) > int(one) > 0
