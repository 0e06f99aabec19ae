"""The limits a user's SQL query runs within, and what they mean for its process."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from kgdiff.errors import UsageError

SIZE = re.compile(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?i?B)\s*", re.IGNORECASE)
UNITS = {"b": 1, "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12}
UNITS |= {"kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}

# The child's address space beyond DuckDB's memory_limit. Measured on DuckDB 2.0.1
# (2026-12-01): the query's process maps ~0.4 GB once it has opened the catalog (DuckDB's
# own I/O threads, 0.6 GB more, are off: kgdiff/query/sql_session.py); queries stopped by
# their 1 GB memory limit (a sort, list(), array_agg()) peaked at 1.84 GB. Some
# allocations escape memory_limit (list_resize([0], 1e8, 0) took 11.7 GB with no cap), and
# this cap is what stops those: DuckDB then fails them with a clean out-of-memory error.
BASE_ADDRESS_SPACE = 1 << 30
THREAD_ADDRESS_SPACE = 256 << 20


def parse_size(text: str) -> int:
    """Bytes in a size as DuckDB writes one (``1GB`` = 10^9, ``1GiB`` = 2^30, ``512MB``)."""
    match = SIZE.fullmatch(text)
    if not match:
        raise UsageError(f"memory limit {text!r} is not a size such as 1GB, 512MB or 2GiB")
    return int(float(match.group(1)) * UNITS[match.group(2).lower()])


@dataclass(frozen=True)
class SqlLimits:
    """What one query may use. ``memory_limit`` is DuckDB's (sorts, hash tables, strings
    it tracks); the query's process is also capped at that plus a fixed headroom, which
    catches what DuckDB does not track. ``max_result_bytes`` bounds the answer as JSON."""

    timeout_seconds: float = 10.0
    max_rows: int = 10_000
    memory_limit: str = "1GB"
    threads: int = 1
    max_result_bytes: int = 64 << 20

    def __post_init__(self) -> None:
        if not (math.isfinite(self.timeout_seconds) and self.timeout_seconds > 0):
            raise UsageError(f"timeout_seconds must be positive, not {self.timeout_seconds}")
        if self.max_rows < 0 or self.threads < 1 or self.max_result_bytes < 1:
            raise UsageError(
                f"max_rows must be >= 0, threads and max_result_bytes >= 1 (got {self.max_rows},"
                f" {self.threads}, {self.max_result_bytes})"
            )
        if parse_size(self.memory_limit) < 1 << 20:
            raise UsageError(f"memory limit {self.memory_limit!r} is below 1 MiB")

    @property
    def memory_bytes(self) -> int:
        """DuckDB's memory limit in bytes."""
        return parse_size(self.memory_limit)

    @property
    def address_space_bytes(self) -> int:
        """The cap on the query process's address space (``RLIMIT_AS``)."""
        return self.memory_bytes + BASE_ADDRESS_SPACE + THREAD_ADDRESS_SPACE * self.threads

    @property
    def timeout_ms(self) -> int:
        """The time limit in whole milliseconds, as DuckDB's ``max_execution_time`` takes it."""
        return max(1, math.ceil(self.timeout_seconds * 1000))
