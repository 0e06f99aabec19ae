"""The groups an export is built from, on disk: the classification's groups of the catalogue's
relations (its rules applied: :func:`substantive_only`), the columns the configs read, sorted
in the records' id order into one Parquet file of small row groups.

Held as one frame, the groups were the largest thing an export kept from start to end (2.3 GB
of RSS as read at 3 × 100 M statements, 6.4 M groups, growing with the store). On disk, a
config reads the groups of a range of subjects from the row groups that hold them
(:meth:`GroupFile.between`) or streams a few columns of all (:meth:`GroupFile.rows`).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import polars as pl
import pyarrow.parquet as pq

from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.query.graph import KnowledgeGraph
from kgdiff.sqlfiles import render

GROUP_COLUMNS = (
    "subject",
    "pid",
    "level",
    "change_kind",
    "change_nature",
    "latest",
    "outdated",
    "all_answers",
    "init_snapshot",
    "cutoff_snapshot",
    "current_snapshot",
)
"""The columns of a classification build the configs read."""
SNAPSHOT_COLUMNS = ("init_snapshot", "cutoff_snapshot", "current_snapshot")
"""The snapshots each group was read from: the same few names on every row, read as
categoricals (at 3 × 25 M statements, 14.5 M groups, as strings they were a third of the frame)."""
_TEXTS = pl.List(pl.String())
GROUP_SCHEMA = pl.Schema(
    {name: _TEXTS if name in ("latest", "outdated", "all_answers") else pl.String()
     for name in GROUP_COLUMNS}
)  # fmt: skip
"""The groups' columns as the file holds them."""
NOT_SUBSTANTIVE = ("reformatted", "refined")
"""The change natures that change nothing a model knew: such a group is exported stable."""


def substantive_only(groups: pl.LazyFrame) -> pl.LazyFrame:
    """The groups with each evolved one whose change is not substantive (reformatted or
    refined) made stable: no change kind or outdated values, its ``change_nature`` kept
    (docs/classification.md#substantive-changes-only)."""
    moved = (pl.col("level") == "evolved") & pl.col("change_nature").is_in(NOT_SUBSTANTIVE)
    return groups.with_columns(
        pl.when(moved).then(pl.lit("stable")).otherwise(pl.col("level")).alias("level"),
        pl.when(moved).then(None).otherwise(pl.col("change_kind")).alias("change_kind"),
        pl.when(moved).then(pl.lit([], pl.List(pl.String()))).otherwise(pl.col("outdated"))
        .alias("outdated"),
    )  # fmt: skip


def _sorted_copy(
    kg: KnowledgeGraph, scan: pl.LazyFrame, catalogue: RelationCatalogue, folder: Path
) -> Path:
    """The catalogued groups of ``scan`` written into ``folder`` as read, then sorted into
    ``groups.parquet`` (the copy as read removed)."""
    as_read = folder / "groups-as-read.parquet"
    catalogued = scan.filter(pl.col("pid").is_in(catalogue.pids))
    substantive_only(catalogued).select(GROUP_COLUMNS).cast(GROUP_SCHEMA).sink_parquet(as_read)
    path = folder / "groups.parquet"
    with kg.connection() as connection:
        connection.execute(render("export/groups_sorted", source=str(as_read), out=str(path)))
    as_read.unlink()
    return path


class GroupFile:
    """The export's groups in a Parquet file sorted by subject (then "/", then relation: the
    records' id order) in a spill folder of ``parent``; ``path`` is None when there is none.
    The folder is removed by :meth:`close` (or when collected)."""

    def __init__(self, path: Path | None, folder: SpillFolder | None, size: int) -> None:
        self.path, self._folder, self.size = path, folder, size

    @classmethod
    def written(
        cls,
        kg: KnowledgeGraph,
        scan: pl.LazyFrame,
        catalogue: RelationCatalogue,
        parent: Path | None = None,
    ) -> GroupFile:
        """The groups of ``scan`` (a classification's files) whose relation is catalogued,
        streamed by polars into a file as they are read, then sorted by DuckDB into the
        export's copy (within its memory limit: ``sql/export/groups_sorted.sql``)."""
        folder = SpillFolder(parent)
        try:
            path = _sorted_copy(kg, scan, catalogue, folder.path)
        except BaseException:
            folder.close()  # nothing half-written is left beside the output
            raise
        size = pl.scan_parquet(path).select(pl.len()).collect().item()
        return cls(path, folder, size)

    def rows(self) -> pl.LazyFrame:
        """Every group, in id order (the snapshots' columns as categoricals), read as it is
        collected: select the columns wanted."""
        if self.path is None:
            scan = pl.LazyFrame(schema=GROUP_SCHEMA)
        else:
            scan = pl.scan_parquet(self.path, schema=GROUP_SCHEMA)
        return scan.with_columns(pl.col(name).cast(pl.Categorical()) for name in SNAPSHOT_COLUMNS)

    def between(self, first: str, last: str) -> pl.LazyFrame:
        """The groups of the subjects from ``first`` to ``last`` (only the row groups that
        may hold them are read)."""
        return self.rows().filter(pl.col("subject").is_between(pl.lit(first), pl.lit(last)))

    def ranges(
        self, size: int, columns: tuple[str, ...] = ("subject", "pid")
    ) -> Iterator[pl.DataFrame]:
        """The ``columns`` of every group in id order, in ranges of whole subjects of about
        ``size`` groups each (more by less than the groups of the subject a range ends with;
        one empty range without groups), read a batch at a time: never every group at once."""
        if self.path is None or self.size == 0:
            yield self.rows().select(columns).collect()
            return
        carry = pl.DataFrame(schema=self.rows().select(columns).collect_schema())
        reader = pq.ParquetFile(self.path)
        for batch in reader.iter_batches(batch_size=max(size, 1), columns=list(columns)):
            pending = pl.concat([carry, pl.DataFrame(batch)])
            cut = _last_subject_start(pending)
            if cut:
                yield pending.head(cut)
            carry = pending.slice(cut)
        yield carry  # the last subject's groups

    def first(self) -> dict[str, str | None]:
        """The snapshots the groups were read from (``init``, ``cutoff``, ``current``), as the
        first group gives them (every group has the same): None each without groups."""
        head = self.rows().select(SNAPSHOT_COLUMNS).head(1).collect()
        names = [name.removesuffix("_snapshot") for name in SNAPSHOT_COLUMNS]
        if not head.height:
            return dict.fromkeys(names)
        return {name: head.get_column(f"{name}_snapshot")[0] for name in names}

    def close(self) -> None:
        """Remove the file (no group is read after)."""
        if self._folder is not None:
            self._folder.close()
            self._folder, self.path = None, None


def _last_subject_start(frame: pl.DataFrame) -> int:
    """The index of the first row of the last subject of ``frame`` (in subject order): the
    rows before it are of subjects no later batch holds."""
    subjects = frame.get_column("subject")
    if subjects.is_empty():
        return 0
    return int(frame.height - (subjects == subjects[-1]).sum())
