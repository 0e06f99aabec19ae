"""Popularity of pages from the stored page views (docs/questions.md, EvoWiki).

Per (wiki, title): the views of each calendar month (summed over every source, access
method and hourly/daily/monthly row; spiders and automated agents left out), their
median over the months that have views, and ``popularity = ln(median + 1)``. The SQL is
``sql/pageviews/popularity.sql``.
"""

from __future__ import annotations

from collections.abc import Sequence

import pyarrow as pa

from kgdiff.errors import StoreError
from kgdiff.pageviews.store import pageviews_root, table_files
from kgdiff.sqlfiles import render
from kgdiff.store.layout import StoreLayout
from kgdiff.store.optimizers import connect


def popularity_of_files(
    files: str | list[str], wiki: str | None = None, titles: Sequence[str] | None = None
) -> pa.Table:
    """Run the popularity SQL over Parquet ``files`` (a glob or a list) of the store schema.

    Columns: wiki, title, monthly_views (list of {month, views}), median_monthly_views,
    popularity, months; most popular first."""
    sql = render("pageviews/popularity", files=files)
    params = {"wiki": wiki, "titles": list(titles) if titles else None}
    with connect({"threads": 2}) as connection:
        return connection.sql(sql, params=params).to_arrow_table()


def popularity(
    layout: StoreLayout, wiki: str | None = None, titles: Sequence[str] | None = None
) -> pa.Table:
    """Popularity per (wiki, title) over every page view source of the store ``layout``,
    for one ``wiki`` (database name, e.g. ``enwiki``) or all, some ``titles`` or all."""
    files = table_files(layout)
    if not files:
        raise StoreError(
            f"no page views in {pageviews_root(layout)}; run 'kgdiff ingest pageviews FILE' "
            "or 'kgdiff pageviews fetch TITLE' first"
        )
    return popularity_of_files(files, wiki, titles)
