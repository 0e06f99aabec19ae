"""A person's role keys (sql/export/role_keys.sql) are those worked out row by row from its
sex, occupations and positions (deprecated statements left out), and are found in the keys
sorted by value, by binary search in memory or by row groups in a file
(kgdiff/export/distractors/human_roles.py): a human's classes and wanted kinds end with its
keys, whatever values a batch holds (people, others, people without roles, repeats)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import polars as pl
from hypothesis import given
from hypothesis import strategies as st

from kgdiff.export.distractors.human_roles import HUMAN, people_keys, with_roles
from tests.role_keys import keys_by_row, role_keys

IDS = st.sampled_from([f"Q{n}" for n in (1, 2, 10, 11, 100, 5, 55, 9)])
ROLES = st.lists(
    st.tuples(
        IDS,
        st.sampled_from(["P21", "P106", "P39"]),
        st.sampled_from(["Q6581072", "Q6581097", "Q82955", "Q30185"]),
        st.sampled_from(["normal", "preferred", "deprecated"]),
    ),
    max_size=12,
)
WORDS = st.lists(st.tuples(IDS, st.booleans()), max_size=10)


def _roles(rows: list[tuple[str, str, str, str]]) -> pl.DataFrame:
    schema = {"value": pl.String(), "pid": pl.String(), "role": pl.String()}
    return pl.DataFrame([row[:3] for row in rows], schema=schema, orient="row")


def _words(rows: list[tuple[str, bool]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "value": [value for value, _ in rows],
            "classes": [[HUMAN] if human else ["Q515"] for _, human in rows],
            "wanted": [["Q5"] if human else [] for _, human in rows],
        },
        schema={
            "value": pl.String(),
            "classes": pl.List(pl.String()),
            "wanted": pl.List(pl.String()),
        },
    )


def _expected(words: pl.DataFrame, keys: pl.DataFrame) -> pl.DataFrame:
    """The words as they should read, worked out row by row: a human's classes and wanted
    kinds end with its keys."""
    held = dict(zip(keys.get_column("value"), keys.get_column("keys").to_list(), strict=True))
    rows = []
    for row in words.iter_rows(named=True):
        extra = held.get(row["value"], []) if HUMAN in row["classes"] else []
        rows.append({**row, "classes": row["classes"] + extra, "wanted": row["wanted"] + extra})
    return pl.DataFrame(rows, schema=words.schema)


@given(ROLES, WORDS)
def test_role_keys_found_by_search_are_those_of_each_row(
    roles: list[tuple[str, str, str, str]], words: list[tuple[str, bool]]
) -> None:
    keys = role_keys(_roles(roles), [rank for *_, rank in roles])
    assert keys.equals(keys_by_row(roles))
    batch = _words(words)
    asked = batch.get_column("value")
    wanted = keys.join(asked.unique().to_frame(), on="value").sort("value")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "keys.parquet"
        keys.write_parquet(path, row_group_size=2, statistics=True)
        for held in (keys.lazy(), pl.scan_parquet(path)):  # in memory, then in a file
            assert with_roles(batch, held).equals(_expected(batch, keys))
            assert people_keys(asked, held).equals(wanted)
