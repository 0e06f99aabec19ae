"""What a process of the REST service's heavy work may take (:mod:`kgdiff.query.work_processes`
starts them, :mod:`kgdiff.query.work_child` runs in them; the service's settings fill it in)."""

from __future__ import annotations

from dataclasses import dataclass

DEFAULT_NICE = 10
"""How much lower than the service's the CPU priority of the heavy work is (``nice``)."""
MEMORY_ENV = "KGDIFF_API_HEAVY_MEMORY"
"""The variable of the service's environment that sets :attr:`WorkLimits.memory_limit`."""
DEFAULT_MEMORY = "2GB"
"""DuckDB's memory limit in a work process (spilling past it where DuckDB can)."""


@dataclass(frozen=True)
class WorkLimits:
    """What a work process may take: DuckDB's ``memory_limit`` and ``threads`` (0: one per
    core), and the ``nice`` added to its CPU priority."""

    memory_limit: str = DEFAULT_MEMORY
    threads: int = 0
    nice: int = DEFAULT_NICE

    def duckdb_settings(self) -> dict[str, str]:
        """The DuckDB settings of the process's graph."""
        settings = {"memory_limit": self.memory_limit}
        if self.threads > 0:
            settings["threads"] = str(self.threads)
        return settings
