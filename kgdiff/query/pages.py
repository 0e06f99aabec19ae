"""A classification build read a page at a time, in (subject, pid) order.

A build's Parquet parts are in no order (kgdiff/temporal/parts.py): paging it with
``ORDER BY … LIMIT`` would sort the whole build for every page. So the first time a build
is paged in a language its groups are written once more, sorted and labelled, as small files
(``BUILD/pages-<lang>/part-N.parquet``: four row groups of 2,048 rows, with statistics) with
an index of each file's first key, rows and groups per level (``index.json``); the folder
appears by one rename. A page then reads the file or two that hold it
(:mod:`kgdiff.query.page_reads`), where one big file cost ~60 ms a page in footer reading
alone.
"""

from __future__ import annotations

import bisect
import itertools
import math
import os
import re
import shutil
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import duckdb
import msgspec

from kgdiff.errors import UsageError
from kgdiff.query.classified import GroupChoice, classified_rows
from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.builds import Build
from kgdiff.temporal.parts import PAST_EVERY_SUBJECT

LANG = re.compile(r"[a-z]{2,3}(-[a-z0-9]{1,8})*")
GROUPS_PER_RANGE = 1_000_000
"""Groups the pages are sorted and written from at a time, about (:func:`page_ranges`): one
sort of every group of a build ran out of a work process's memory at 3 x 25 M statements."""
INDEX = "index.json"
Key = tuple[str, str]


class PageFile(msgspec.Struct, frozen=True):
    """One file of a build's pages: its name, first and last key, rows, rows per level."""

    name: str
    first: Key
    last: Key
    rows: int
    levels: dict[str, int]


@dataclass(frozen=True)
class PageChoice:
    """Which groups to page through (empty: all)."""

    levels: Sequence[str] = ()
    pids: Sequence[str] = ()
    subjects: Sequence[str] = ()
    substantive: bool = False
    """Report an evolved group whose change is not substantive as stable."""

    def estimate(self, file: PageFile) -> int:
        """At most how many chosen groups ``file`` holds (exact for a choice of levels, but
        for stable groups when only substantive changes are asked for: some evolved ones
        are stable then)."""
        if self.levels:
            found = sum(file.levels.get(level, 0) for level in self.levels)
            if self.substantive and "stable" in self.levels:
                found += file.levels.get("evolved", 0)
            return found
        return file.rows


@dataclass(frozen=True)
class PagedBuild:
    """A build's pages: the folder and its files in key order."""

    folder: Path
    files: list[PageFile]
    firsts: list[Key] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "firsts", [file.first for file in self.files])

    def candidates(self, choice: PageChoice, after: Key | None) -> list[PageFile]:
        """The files that may hold chosen groups after ``after``, in key order."""
        start = max(0, bisect.bisect_right(self.firsts, after) - 1) if after else 0
        files = [f for f in self.files[start:] if choice.estimate(f) > 0]
        if choice.subjects:
            files = [f for f in files if any(f.first[0] <= s <= f.last[0] for s in choice.subjects)]
        return files

    def paths(self, files: Sequence[PageFile]) -> list[str]:
        """The files' paths."""
        return [str(self.folder / file.name) for file in files]


def check_lang(lang: str) -> str:
    """``lang`` as a label language code (``en``, ``de``, ``zh-hant``); a usage error else."""
    if not LANG.fullmatch(lang):
        raise UsageError(f"lang {lang!r} is not a language code such as en, de or pt-br")
    return lang


def pages_dir(build_folder: Path, lang: str) -> Path:
    """Where the pages in ``lang`` of the build in ``build_folder`` are (or will be)."""
    return build_folder / f"pages-{check_lang(lang)}"


def has_pages(build_folder: Path, lang: str) -> bool:
    """Whether the build in ``build_folder`` was paged in ``lang`` already."""
    return (pages_dir(build_folder, lang) / INDEX).is_file()


_writing = threading.Lock()


def paged_build(layout: StoreLayout, build: Build, lang: str) -> PagedBuild:
    """The pages of ``build`` in ``lang``, written first if they are not there yet."""
    folder = pages_dir(build.path.parent.parent, lang)
    with _writing:  # one writer per process; another process's copy loses the rename
        if not (folder / INDEX).is_file():
            write_pages(layout, build, lang, folder)
    return load_pages(folder)


def load_pages(folder: Path) -> PagedBuild:
    """The pages written in ``folder``."""
    files = msgspec.json.decode((folder / INDEX).read_bytes(), type=list[PageFile])
    return PagedBuild(folder, files)


def write_pages(layout: StoreLayout, build: Build, lang: str, folder: Path) -> None:
    """Write the pages of ``build`` in ``lang`` and their index into ``folder``, which appears
    by one rename (a subject range at a time: :func:`page_ranges`)."""
    tmp = folder.with_name(f".tmp-{folder.name}-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        with classified_rows(layout, build, GroupChoice(), lang) as (connection, rows):
            connection.register("kgdiff_page_rows", rows)
            tmp.mkdir(parents=True)
            for number, (lo, hi) in enumerate(page_ranges(connection)):
                _write_range(connection, tmp, number, lo, hi)
            index = _index(connection, sorted(tmp.glob("part-*.parquet")))
        (tmp / INDEX).write_bytes(msgspec.json.encode(index))
        tmp.rename(folder)
    except OSError:
        if not (folder / INDEX).is_file():  # else another process published them first
            raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def page_ranges(connection: duckdb.DuckDBPyConnection) -> list[tuple[str, str]]:
    """Subject ranges [lo, hi) that together hold every group of the build the connection's
    ``export_source`` reads, each about :data:`GROUPS_PER_RANGE` groups."""
    found = connection.execute(load_sql("pages/build_groups")).fetchone()
    ranges = max(1, math.ceil((int(found[0]) if found else 0) / GROUPS_PER_RANGE))
    cuts: list[str] = []
    if ranges > 1:
        shares = [index / ranges for index in range(1, ranges)]
        row = connection.execute(load_sql("pages/page_cuts"), {"shares": shares}).fetchone()
        cuts = list(row[0]) if row and row[0] else []
    return list(itertools.pairwise(["", *cuts, PAST_EVERY_SUBJECT]))


def _write_range(
    connection: duckdb.DuckDBPyConnection, tmp: Path, number: int, lo: str, hi: str
) -> None:
    """Write the pages of the groups of subjects [lo, hi) into ``tmp``, their files named
    ``part-<number>-<i>`` (the index orders the files by their keys, not their names)."""
    written = tmp / f"range-{number:05d}"
    connection.execute(render("pages/write_pages", out=str(written), lo=lo, hi=hi))
    for file in written.glob("part-*.parquet"):
        file.rename(tmp / f"part-{number:05d}-{file.name.removeprefix('part-')}")
    shutil.rmtree(written)


def _index(connection: duckdb.DuckDBPyConnection, files: list[Path]) -> list[PageFile]:
    """Each page file's keys, rows and rows per level, in key order (none for no file)."""
    if not files:
        return []
    found = connection.execute(load_sql("pages/page_index"), {"files": [str(f) for f in files]})
    return [
        PageFile(
            name, (first[0], first[1]), (last[0], last[1]), rows, dict(zip(lv, n, strict=True))
        )
        for name, rows, first, last, lv, n in found.fetchall()
    ]
