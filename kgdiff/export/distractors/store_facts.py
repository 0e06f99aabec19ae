"""What the store says of the subjects and the people an export's distractors are drawn
for, read once per export (:meth:`StoreFacts.read`): what each subject holds (no distractor
may be: on disk, :class:`~kgdiff.export.distractors.subject_truths.SubjectTruths`), the roles
and sex of the people, and the roles typical of each relation's people (aggregated by DuckDB:
``sql/export/typical_roles.sql``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import duckdb
import polars as pl

from kgdiff.export.distractors.human_roles import TYPICAL_FLOOR, TYPICAL_SCHEMA, write_role_keys
from kgdiff.export.distractors.subject_truths import SubjectTruths, kin_groups
from kgdiff.export.relations.model import RelationCatalogue
from kgdiff.sqlfiles import load_sql


def read_typical_roles(connection: duckdb.DuckDBPyConnection, pids: list[str]) -> pl.DataFrame:
    """The roles typical of the people each relation of ``pids`` names (:data:`TYPICAL_SCHEMA`:
    held by at least half of its objects that hold one, when at least
    :data:`~kgdiff.export.distractors.human_roles.TYPICAL_FLOOR` of them do)."""
    params = {"pids": pids, "floor": TYPICAL_FLOOR}
    table = connection.execute(load_sql("export/typical_roles"), params).to_arrow_table()
    found = pl.from_arrow(table)
    assert isinstance(found, pl.DataFrame)
    return found.cast(TYPICAL_SCHEMA)


@dataclass(frozen=True)
class StoreFacts:
    """The subjects' truths, each person's role keys (in a file:
    :func:`~kgdiff.export.distractors.human_roles.write_role_keys`) and each relation's typical
    roles."""

    truths: SubjectTruths
    role_keys: pl.LazyFrame
    typical: pl.DataFrame

    @classmethod
    def read(
        cls, connection: duckdb.DuckDBPyConnection, catalogue: RelationCatalogue, folder: Path
    ) -> StoreFacts:
        """The facts of the store under the ``catalogue``'s item relations, in any snapshot
        (the truths and the role keys written into ``folder``)."""
        typical = read_typical_roles(connection, kin_groups(catalogue).get_column("pid").to_list())
        truths = SubjectTruths.written(connection, catalogue, folder)
        return cls(truths, write_role_keys(connection, folder), typical)
