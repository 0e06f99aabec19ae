"""Sum up a suite run's CPU per file and per test, from the lines ``tests/cpu_use.py`` wrote.

    KGDIFF_TEST_CPU=/tmp/cpu.tsv make test
    .venv/bin/python scripts/suite_cpu.py /tmp/cpu.tsv [--top 30] [--costs tests/file_costs.tsv]

CPU is the suite's budget on a two-core machine: the run cannot take less than its CPU seconds
over two, however the tests are spread over the pytest processes. "Children" are every process
below a pytest process: the commands it waited for and those it left running (servers,
browsers, Spark's JVMs, the query processes of a server), read from /proc (tests/cpu_use.py).
"""

from __future__ import annotations

import argparse
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path


@dataclass
class Spent:
    """Wall and CPU seconds (the pytest process's own, its children's: every process below it)."""

    wall: float = 0.0
    own: float = 0.0
    children: float = 0.0
    tests: int = 0

    @property
    def cpu(self) -> float:
        return self.own + self.children

    def add(self, wall: float, own: float, children: float) -> None:
        self.wall, self.own, self.children = (
            self.wall + wall,
            self.own + own,
            self.children + children,
        )
        self.tests += 1


def read(path: Path) -> dict[str, Spent]:
    """Each test's seconds, by test id (a line that is not five fields is skipped)."""
    tests: dict[str, Spent] = defaultdict(Spent)
    for line in path.read_text(encoding="utf-8").splitlines():
        fields = line.split("\t")
        if len(fields) == 5:
            tests[fields[0]].add(*(float(field) for field in fields[2:]))
    return tests


def by_file(tests: dict[str, Spent]) -> dict[str, Spent]:
    """The tests' seconds summed per test file."""
    files: dict[str, Spent] = defaultdict(Spent)
    for test, spent in tests.items():
        total = files[test.split("::")[0]]
        total.add(spent.wall, spent.own, spent.children)
    return files


def table(title: str, rows: dict[str, Spent], top: int) -> str:
    """The ``top`` rows of most CPU, as aligned text."""
    lines = [f"{title}: CPU s (own + children), wall s, tests", ""]
    ranked = sorted(rows.items(), key=lambda item: -item[1].cpu)[:top]
    for name, spent in ranked:
        lines.append(
            f"{spent.cpu:8.1f} {spent.own:8.1f} {spent.children:8.1f} {spent.wall:8.1f}"
            f" {spent.tests:5d}  {name}"
        )
    return "\n".join(lines)


def write_costs(files: dict[str, Spent], target: Path) -> None:
    """Each file's wall seconds, longest first: the order tests/conftest.py hands the files to
    the pytest processes in (the longest first, so that none is left running alone at the end)."""
    ranked = sorted(files.items(), key=lambda item: (-item[1].wall, item[0]))
    lines = [f"{spent.wall:.1f}\t{name}" for name, spent in ranked]
    header = "# wall seconds of each test file in a run of the suite (scripts/suite_cpu.py --costs)"
    target.write_text("\n".join([header, *lines]) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("lines", type=Path, help="the file KGDIFF_TEST_CPU named")
    parser.add_argument("--top", type=int, default=30, help="rows of each table")
    parser.add_argument("--costs", type=Path, help="write each file's wall seconds here")
    args = parser.parse_args()
    tests = read(args.lines)
    if args.costs:
        write_costs(by_file(tests), args.costs)
    total = Spent()
    for spent in tests.values():
        total.add(spent.wall, spent.own, spent.children)
    print(
        f"{total.tests} tests: {total.cpu:.0f} CPU s ({total.own:.0f} in pytest's processes,"
        f" {total.children:.0f} in their children), {total.wall:.0f} s of wall time summed"
    )
    print()
    print(table("files", by_file(tests), args.top))
    print()
    print(table("tests", tests, args.top))


if __name__ == "__main__":
    main()
