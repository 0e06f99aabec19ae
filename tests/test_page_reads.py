"""Pages read from page files (kgdiff/query/page_reads.py): the chosen groups after a key,
as a plain reading of the rows gives them; the cache of decoded files stays in its bound."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from kgdiff.query.page_reads import PAGE_COLUMNS, PageFileCache, read_page, stream_pages
from kgdiff.query.pages import PageChoice, PagedBuild, PageFile

SUBJECTS = ["Q1", "Q10", "Q2", "Q3", "Q30", "Q4"]
PIDS = ["P17", "P31", "P6"]
LEVELS = ["stable", "evolved", "uncharted"]
LIST_COLUMNS = {"latest", "outdated", "all_answers", "not_covered_in"} | {
    "latest_labels", "outdated_labels", "all_answers_labels"
}  # fmt: skip

groups = st.lists(
    st.tuples(st.sampled_from(SUBJECTS), st.sampled_from(PIDS), st.sampled_from(LEVELS)),
    min_size=0,
    max_size=40,
    unique_by=lambda g: (g[0], g[1]),
).map(sorted)
choices = st.builds(
    PageChoice,
    st.lists(st.sampled_from(LEVELS), unique=True, max_size=2),
    st.lists(st.sampled_from(PIDS), unique=True, max_size=2),
    st.lists(st.sampled_from(SUBJECTS), unique=True, max_size=2),
)
keys = st.none() | st.tuples(st.sampled_from([*SUBJECTS, "", "Q99"]), st.sampled_from(["", *PIDS]))


def _table(rows: list[tuple[str, str, str]]) -> pa.Table:
    columns: dict[str, pa.Array] = {}
    for name in PAGE_COLUMNS:
        if name == "subject":
            columns[name] = pa.array([r[0] for r in rows], pa.string())
        elif name == "pid":
            columns[name] = pa.array([r[1] for r in rows], pa.string())
        elif name == "level":
            columns[name] = pa.array([r[2] for r in rows], pa.string())
        elif name in ("changed_after_cutoff", "backfilled"):
            columns[name] = pa.array([False] * len(rows), pa.bool_())
        elif name in LIST_COLUMNS:
            columns[name] = pa.array([[r[0] + r[1]] for r in rows], pa.list_(pa.string()))
        else:
            columns[name] = pa.array([f"{name}-{r[0]}" for r in rows], pa.string())
    return pa.table(columns)


def _written(folder: Path, rows: list[tuple[str, str, str]], per_file: int) -> PagedBuild:
    """The groups written as page files of ``per_file`` rows, with their index."""
    files = []
    for number, start in enumerate(range(0, len(rows), per_file)):
        chunk = rows[start : start + per_file]
        name = f"part-{number}.parquet"
        pq.write_table(_table(chunk), folder / name)
        levels: dict[str, int] = {}
        for _, _, level in chunk:
            levels[level] = levels.get(level, 0) + 1
        files.append(PageFile(name, chunk[0][:2], chunk[-1][:2], len(chunk), levels))
    return PagedBuild(folder, files)


def _expected(rows: list[tuple[str, str, str]], choice: PageChoice, after: tuple[str, str] | None):
    return [
        (s, p)
        for s, p, level in rows
        if (after is None or (s, p) > after)
        and (not choice.levels or level in choice.levels)
        and (not choice.pids or p in choice.pids)
        and (not choice.subjects or s in choice.subjects)
    ]


@settings(
    max_examples=150,
    suppress_health_check=[
        *settings.get_profile("kgdiff").suppress_health_check,
        HealthCheck.function_scoped_fixture,
    ],
)
@given(
    rows=groups, choice=choices, after=keys, limit=st.integers(1, 12), per_file=st.integers(1, 9)
)
def test_a_page_is_the_next_chosen_groups(
    tmp_path_factory, rows, choice: PageChoice, after, limit: int, per_file: int
) -> None:
    folder = tmp_path_factory.mktemp("pages")
    pages = _written(folder, rows, per_file)
    page = read_page(PageFileCache(), pages, choice, after, limit)
    got = list(zip(page.column("subject").to_pylist(), page.column("pid").to_pylist(), strict=True))
    assert got == _expected(rows, choice, after)[: limit + 1]
    assert page.column_names == list(PAGE_COLUMNS)
    streamed = [key for t in stream_pages(pages, choice) for key in zip(
        t.column("subject").to_pylist(), t.column("pid").to_pylist(), strict=True)]  # fmt: skip
    assert streamed == _expected(rows, choice, None)


def test_the_cache_keeps_files_within_its_bound(tmp_path: Path) -> None:
    rows = [(s, p, "stable") for s in SUBJECTS for p in PIDS]
    pages = _written(tmp_path, rows, 3)
    one = pq.read_table(tmp_path / pages.files[0].name).nbytes
    cache = PageFileCache(max_bytes=int(one * 2.5))
    for file in pages.files:
        cache.table(tmp_path / file.name)
    assert len(cache._tables) == 2 and cache._bytes <= cache.max_bytes
    last = tmp_path / pages.files[-1].name
    assert cache.table(last) is cache.table(last)
