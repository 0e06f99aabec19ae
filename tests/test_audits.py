"""The SQL audits find broken classifications and pass on real ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from kgdiff.temporal.audit import audit_names, run_audits
from tests.paths import ROOT

COLUMNS = [
    "subject",
    "pid",
    "level",
    "change_kind",
    "changed_after_cutoff",
    "latest",
    "outdated",
    "all_answers",
    "ambiguous_reason",
    "not_covered_in",
]
GOOD: tuple[object, ...] = ("Q1", "P1", "stable", None, None, ["Q5"], [], ["Q5"], None, None)


def write_build(path: Path, rows: list[tuple[object, ...]]) -> Path:
    columns = list(zip(*rows, strict=True))
    strings = pa.list_(pa.string())
    types = [pa.string()] * 4 + [pa.bool_()] + [strings] * 3 + [pa.string(), strings]
    table = pa.table(
        {name: pa.array(col, t) for name, col, t in zip(COLUMNS, columns, types, strict=True)}
    )
    pq.write_table(table, path)
    return path


def violations(build: Path) -> dict[str, int]:
    return {r.name: r.violations for r in run_audits(build)}


def test_a_clean_build_passes(tmp_path: Path) -> None:
    build = write_build(tmp_path / "good.parquet", [GOOD])
    assert violations(build) == dict.fromkeys(audit_names(), 0)


def test_each_audit_catches_its_violation(tmp_path: Path) -> None:
    rows: list[tuple[object, ...]] = [
        GOOD,
        ("Q1", "P1", "evolved", "added", True, ["Q5"], ["Q4"], ["Q4", "Q5"], None, None),  # 2x
        ("Q2", "P1", "evolved", "replaced", False, ["Q7"], ["Q7"], ["Q7"], None, None),  # l=o
        ("Q3", "P1", "stable", None, None, ["Q8"], ["Q9"], ["Q8", "Q9"], None, None),  # +outdated
        ("Q4", "P1", "ambiguous", None, None, [], [], ["Q1"], None, None),  # no reason, answers
        ("Q5", "P1", "not_covered", None, None, [], [], [], None, None),  # lacks its snapshots
        ("Q6", "P1", "retracted", None, None, [], [], ["Q1"], None, ["s1"]),  # names snapshots
        ("Q7", "P1", "not_covered", None, None, [], [], [], None, ["s1"]),  # fine
    ]
    found = violations(write_build(tmp_path / "bad.parquet", rows))
    assert found["one_level_per_group"] == 1
    assert found["evolved_latest_not_outdated"] == 1
    assert found["answers_consistent"] == 4


def test_audit_command_on_the_real_samples(sample_store: Path) -> None:
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "kgdiff",
            "audit",
            "--init",
            "2013-12-21",
            "--cutoff",
            "2014-10-11",
            "--current",
            "2014-12-31",
            "--mode",
            "valid",
            "--store",
            str(sample_store),
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count(" ok") == len(audit_names())
