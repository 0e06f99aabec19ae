"""How a query's common table expressions become stage views (kgdiff/spark/stages.py): which
are read more than once, and what each stage reads. What the staged classification computes
is tested against DuckDB in tests/test_spark_classify.py."""

from __future__ import annotations

from datetime import date

import pytest

pytest.importorskip("sqlglot")

import sqlglot
from sqlglot import exp

from kgdiff.spark.classify import classification_tree
from kgdiff.spark.stages import STAGE_PREFIX, _reads, _renamed, _top_level_ctes

QUERY = """
WITH a AS (SELECT 1 AS x), b AS (SELECT x FROM a), c AS (SELECT * FROM a, b AS bb)
SELECT * FROM c JOIN a ON c.x = a.x JOIN (WITH d AS (SELECT 2 AS x) SELECT * FROM d) ON true
"""


def parsed(sql: str) -> exp.Expression:
    tree = sqlglot.parse_one(sql, read="spark")
    assert isinstance(tree, exp.Expression)
    return tree


def test_reads_count_every_reference_of_the_query_s_own_expressions() -> None:
    tree = parsed(QUERY)
    names = {cte.alias_or_name for cte in _top_level_ctes(tree)}
    assert names == {"a", "b", "c"}  # d is its subquery's
    assert _reads(tree, names) == {"a": 3, "b": 1, "c": 1}


def test_a_renamed_stage_reads_the_views_and_keeps_its_aliases() -> None:
    tree = parsed(QUERY)
    stage_c = _top_level_ctes(tree)[2].this
    text = _renamed(stage_c, {"a", "b", "c"}).sql(dialect="spark")
    assert text == f"SELECT * FROM {STAGE_PREFIX}a AS a CROSS JOIN {STAGE_PREFIX}b AS bb"


def test_a_subquery_s_expression_may_not_shadow_the_query_s() -> None:
    tree = parsed("WITH a AS (SELECT 1) SELECT * FROM (WITH a AS (SELECT 2) SELECT * FROM a)")
    with pytest.raises(ValueError, match=r"shadows the query's: \['a'\]"):
        _top_level_ctes(tree)


def test_the_classification_reads_some_of_its_steps_more_than_once() -> None:
    """What the stages are for: Spark would plan (and run) these steps once per read."""
    tree = classification_tree(date(2014, 1, 1), date(2014, 6, 1), date(2015, 1, 1), "both")
    names = {cte.alias_or_name.lower() for cte in _top_level_ctes(tree)}
    read_twice = {name for name, count in _reads(tree, names).items() if count > 1}
    assert {"resolved", "per_view"} <= read_twice
    assert set(_reads(tree, names)) == names  # every step is read (none is dead)
