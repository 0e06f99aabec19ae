"""bench.refresh_fit: the exponents and the projections of the refresh benchmark's sizes."""

from __future__ import annotations

from typing import Any

import pytest

from bench.refresh_fit import by_churn, byte_ceilings, growth, line_fit


def _row(statements: int, ingest: float, refresh: float, churn: float = 0.03) -> dict[str, Any]:
    return {
        "statements": statements,
        "churn": churn,
        "ingest_cpu": ingest,
        "refresh_cpu": refresh,
        "speedup_cpu": ingest / refresh,
        "delta_bytes": statements * 2.0,
        "base_cpu": statements / 1e7,
    }


def test_a_straight_line_is_found_and_carried() -> None:
    assert line_fit([1.0, 2.0, 3.0], [5.0, 7.0, 9.0]) == pytest.approx((3.0, 2.0))
    assert line_fit([2.0, 2.0], [1.0, 3.0]) is None


def test_a_fixed_cost_shows_in_the_line_and_lowers_the_power() -> None:
    # refresh = 3 s + 1 s per million statements; ingest = 10 s per million.
    rows = [_row(n, 10 * n / 1e6, 3 + n / 1e6) for n in (2_000_000, 10_000_000, 25_000_000)]
    found = growth(rows, 100_000_000)
    assert found["ingest_cpu_exp"] == pytest.approx(1.0)
    assert found["delta_bytes_exp"] == pytest.approx(1.0)
    assert found["refresh_cpu_exp"] < 0.95
    assert found["refresh_fixed_cpu"] == pytest.approx(3.0)
    assert found["refresh_cpu_per_million"] == pytest.approx(1.0)
    assert found["speedup_cpu_at_target_line"] == pytest.approx(1000 / 103, rel=1e-3)


def test_reports_are_grouped_by_churn_to_the_percent() -> None:
    rows = [_row(2_000_000, 20, 5, 0.031), _row(10_000_000, 100, 9, 0.029), _row(2, 1, 1, 0.24)]
    assert {k: len(v) for k, v in by_churn(rows).items()} == {3: 2, 24: 1}


def test_the_byte_ceilings_are_the_full_dump_over_the_changes() -> None:
    files = {
        "target.json": 1000,
        "changes.json": 40,
        "wikidatawiki-20220701-pages-meta-hist-incr.xml": 80,
        "deleted.txt": 3,
    }
    assert byte_ceilings(files) == {"bytes_ceiling_json": 25.0, "bytes_ceiling_xml": 12.5}
    assert byte_ceilings({"target.json": 1000}) == {
        "bytes_ceiling_json": None,
        "bytes_ceiling_xml": None,
    }
