"""The longest test files first (``tests/file_costs.tsv``), so that no long file starts last.

``make test`` hands whole files to six pytest processes (``--dist loadfile``), each taking
the next file when it is done, in the order collected (``--no-loadscope-reorder``; by default
pytest-xdist orders them by their number of tests, which says little about their length).
A file of a minute handed out last kept one process running alone for that minute while the
others had finished. Handed out longest first, the short files fill the gaps at the end.
The table comes from a run of the suite (``KGDIFF_TEST_CPU=FILE``, then
``scripts/suite_cpu.py FILE --costs tests/file_costs.tsv``); a file it does not list counts
as short. Within a file, the tests keep their order.
"""

from __future__ import annotations

from pathlib import Path

import pytest

COSTS = Path(__file__).with_name("file_costs.tsv")


def file_costs(path: Path = COSTS) -> dict[str, float]:
    """Seconds by test file path (relative to the checkout), from the table."""
    costs: dict[str, float] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        seconds, _, name = line.partition("\t")
        if name and not line.startswith("#"):
            costs[name] = float(seconds)
    return costs


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Order the items by their file's seconds, longest first (stable: a file's tests keep
    their order, files of the same length theirs)."""
    costs = file_costs()
    items.sort(key=lambda item: -costs.get(item.nodeid.partition("::")[0], 0.0))
