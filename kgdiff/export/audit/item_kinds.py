"""Item distractors judged with the store: a distractor is of the gold's kind when some item
of the store labelled with its words shares a class (P31 or P279) with a gold item. When the
store holds no other item of the gold items' classes (a gold the store does not hold, as a
subset of a dump often does not; a gold alone of its class, Greenland the only "constituent
country" of a sample), it is also of the gold's kind as the object of the record's property
somewhere in the store, or as an instance of the class the relation catalogue expects of the
property's objects (its ``object_class``: a human for a spouse, a country for "Which country
is Nuuk in?"): as the export draws it. A distractor whose words label no item of the store is
not of the gold's kind.

The store is read once for every split (three set-based queries, ``sql/export/audit_*.sql``);
the judging is joins over the distractors of every split at once.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import duckdb
import polars as pl
import pyarrow as pa

from kgdiff.export.core.file_frames import query_file
from kgdiff.export.core.leftovers import SpillFolder
from kgdiff.sqlfiles import load_sql

PAIR_SCHEMA = {"pair": pl.UInt32, "agree": pl.Boolean}
JUDGED_SLICE = 500_000
"""Item distractors given their verdicts at a time."""
EXPECTED_SCHEMA = {"pid": pl.String, "expected": pl.Int64}
"""Per property, the class the relation catalogue expects of its objects (as a number)."""
ROLE_SCHEMA = pl.Schema({"item": pl.String, "pid": pl.String, "role": pl.String})
PEOPLE_SCHEMA = pl.Schema({"pid": pl.String, "person": pl.String, "role": pl.String})
HELD_SCHEMA = pl.Schema({"subject": pl.String, "pid": pl.String, "item": pl.String})


def expected_classes(object_classes: dict[str, str]) -> pl.DataFrame:
    """``pid``, ``expected``: the catalogue's ``object_class`` of each property that has one
    (``{"P26": "Q5"}``)."""
    return pl.DataFrame(
        {"pid": list(object_classes), "item": list(object_classes.values())},
        schema={"pid": pl.String, "item": pl.String},
    ).select("pid", _number(pl.col("item")).alias("expected"))


@dataclass(frozen=True)
class StoreItems:
    """What the store says of the items the audit looks at."""

    labelled: pl.DataFrame
    """``text``, ``item``: the items each distractor's words label."""
    classes: pl.DataFrame
    """``item``, ``class``: their classes and the gold items'."""
    properties: pl.DataFrame
    """``item``, ``pid``: the properties they are an object of."""
    class_sizes: pl.DataFrame
    """``class``, ``members``: how many labelled items the gold items' classes have."""
    roles: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=ROLE_SCHEMA))
    """``item``, ``pid``, ``role``: their sex (P21), occupations (P106) and positions (P39)."""
    people: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=PEOPLE_SCHEMA))
    """``pid``, ``person``, ``role``: the roles of the objects of the records' properties."""
    held: pl.DataFrame = field(default_factory=lambda: pl.DataFrame(schema=HELD_SCHEMA))
    """``subject``, ``pid``, ``item``: the labelled items the records' subjects hold."""


def read_store_items(
    connection: duckdb.DuckDBPyConnection,
    lang: str,
    texts: pl.Series,
    gold: pl.Series,
    subjects: pl.Series | None = None,
    pids: pl.Series | None = None,
) -> StoreItems:
    """The labels, classes, roles and properties of the items named by ``texts`` (in
    ``lang``) and of the ``gold`` items; the roles of the people the properties ``pids``
    name; the labelled items the ``subjects`` hold."""
    connection.register("audit_texts", pl.DataFrame({"text": texts.unique()}).to_arrow())
    try:
        labelled = connection.execute(load_sql("export/audit_option_items"), {"lang": lang})
        found = pl.from_arrow(labelled.to_arrow_table())
    finally:
        connection.unregister("audit_texts")
    assert isinstance(found, pl.DataFrame)
    items = pl.concat([found.get_column("item"), gold]).unique()
    classes, owned, roles, held = _item_statements(connection, items, subjects)
    people = _registered(connection, "audit_pids", "pid", pids, PEOPLE_SCHEMA)
    sizes = _class_sizes(connection, lang, classes, gold)
    return StoreItems(found, classes, owned, sizes, roles, people, held)


def _item_statements(
    connection: duckdb.DuckDBPyConnection, items: pl.Series, subjects: pl.Series | None
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The classes, properties and roles of ``items`` and what the ``subjects`` hold of
    them, read in one scan (``sql/export/audit_item_statements.sql``) into a file that each
    of the four is scanned from: at 3 × 100 M statements, the scan's rows held whole and cut
    four ways were the audit's peak (4.7 GB)."""
    wanted = (
        subjects.drop_nulls().unique() if subjects is not None else pl.Series([], dtype=pl.String)
    )
    connection.register("audit_items", pl.DataFrame({"item": items}).to_arrow())
    connection.register("audit_subjects", pl.DataFrame({"subject": wanted}).to_arrow())
    spill = SpillFolder()
    try:
        query = load_sql("export/audit_item_statements")
        with query_file(connection, query, {}, spill.path) as path:
            return _cut_four_ways(pl.scan_parquet(path), wanted)
    finally:
        spill.close()
        connection.unregister("audit_items")
        connection.unregister("audit_subjects")


def _cut_four_ways(
    read: pl.LazyFrame, wanted: pl.Series
) -> tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame, pl.DataFrame]:
    """The classes, properties, roles and held items of the rows of the one scan."""
    classes = read.filter("class_of").select(item="subject", **{"class": "object_qid"})
    roles = read.filter("role_of").select(item="subject", pid="pid", role="object_qid")
    to_item = read.filter("to_item")
    owned = to_item.select(item="object_qid", pid="pid")
    held = to_item.filter(pl.col("subject").is_in(wanted.implode()))
    held = held.select("subject", "pid", item="object_qid")
    return (
        _collected(classes.unique().sort("item", "class")),
        _collected(owned.unique().sort("item", "pid")),
        _collected(roles.unique().sort("item", "pid", "role")).cast(ROLE_SCHEMA),
        _collected(held.unique().sort("subject", "pid", "item")).cast(HELD_SCHEMA),
    )


def _collected(frame: pl.LazyFrame) -> pl.DataFrame:
    return frame.collect(engine="streaming")


_READS = {"audit_pids": "export/audit_relation_people"}


def _registered(
    connection: duckdb.DuckDBPyConnection,
    table: str,
    column: str,
    values: pl.Series | None,
    schema: pl.Schema,
) -> pl.DataFrame:
    """The rows the statement reading the registered ``table`` of ``values`` gives (empty
    without values)."""
    if values is None or not values.len():
        return pl.DataFrame(schema=schema)
    wanted = pl.DataFrame({column: values.drop_nulls().unique()}, schema={column: pl.String})
    connection.register(table, wanted.to_arrow())
    try:
        return _read(connection, _READS[table], schema)
    finally:
        connection.unregister(table)


def _read(
    connection: duckdb.DuckDBPyConnection,
    name: str,
    schema: pl.Schema,
) -> pl.DataFrame:
    return _frame(connection.execute(load_sql(name)).to_arrow_table()).cast(schema)


def _class_sizes(
    connection: duckdb.DuckDBPyConnection, lang: str, classes: pl.DataFrame, gold: pl.Series
) -> pl.DataFrame:
    """``class``, ``members``: the labelled items of each class of a ``gold`` item."""
    wanted = classes.filter(pl.col("item").is_in(gold.implode())).select("class").unique()
    connection.register("audit_classes", wanted.to_arrow())
    try:
        sizes = connection.execute(load_sql("export/audit_class_sizes"), {"lang": lang})
        return _frame(sizes.to_arrow_table())
    finally:
        connection.unregister("audit_classes")


def _frame(table: pa.Table) -> pl.DataFrame:
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    return frame


def _number(item: pl.Expr) -> pl.Expr:
    """An item id as its number (``Q5`` → 5): class sets are compared as lists of integers."""
    return item.str.slice(1).cast(pl.Int64, strict=False)


def _per_text(store: StoreItems) -> pl.DataFrame:
    """Per distractor text, the classes and the properties of the items it labels."""
    classes = store.classes.group_by("item").agg(_number(pl.col("class")).alias("classes"))
    owned = store.properties.group_by("item").agg(pl.col("pid").alias("pids"))
    items = store.labelled.join(classes, on="item", how="left").join(owned, on="item", how="left")
    return items.group_by("text").agg(
        pl.col("classes")
        .list.explode(keep_nulls=False, empty_as_null=False)
        .unique()
        .alias("text_classes"),
        pl.col("pids")
        .list.explode(keep_nulls=False, empty_as_null=False)
        .unique()
        .alias("text_pids"),
    )


def _per_gold(pairs: pl.DataFrame, store: StoreItems) -> pl.DataFrame:
    """Per set of gold items (``gold_key``), their classes together and ``alone``: whether
    the store holds no other labelled item of any of them."""
    golds = pairs.select("gold_key", "gold_items").unique("gold_key").explode("gold_items")
    joined = golds.join(store.classes, left_on="gold_items", right_on="item", how="left")
    per_class = joined.drop_nulls("class").group_by("gold_key", "class").agg(own=pl.len())
    per_class = per_class.join(store.class_sizes, on="class", how="left")
    others = per_class.group_by("gold_key").agg(
        (pl.col("members").fill_null(0) > pl.col("own")).any().alias("_others")
    )
    found = joined.group_by("gold_key").agg(
        _number(pl.col("class")).drop_nulls().unique().alias("gold_classes")
    )
    found = found.join(others, on="gold_key", how="left")
    return found.with_columns(alone=~pl.col("_others").fill_null(False)).drop("_others")


def item_agreement(
    pairs: pl.DataFrame, store: StoreItems, expected: pl.DataFrame | None = None
) -> pl.DataFrame:
    """``pair``, ``agree`` for each item distractor of ``pairs`` (``pair``, ``option``,
    ``gold_items``, ``pid``), judged once per distinct (distractor, gold items, property);
    ``expected`` (:func:`expected_classes`), the catalogue's object classes, for golds the
    store holds no other item of the kind of."""
    if not pairs.height:
        return pl.DataFrame(schema=PAIR_SCHEMA)
    keyed = pairs.with_columns(pl.col("gold_items").list.sort().list.join(",").alias("gold_key"))
    combos = keyed.select("option", "gold_key", "pid").unique()
    combos = combos.join(_per_text(store), left_on="option", right_on="text", how="left")
    combos = combos.join(_per_gold(keyed, store), on="gold_key", how="left")
    combos = combos.join(
        expected if expected is not None else pl.DataFrame(schema=EXPECTED_SCHEMA),
        on="pid",
        how="left",
    )
    shared = pl.col("text_classes").list.set_intersection(pl.col("gold_classes")).list.len() > 0
    alone = pl.col("alone").fill_null(True)
    by_property = pl.col("text_pids").list.contains(pl.col("pid")).fill_null(False)
    by_catalogue = pl.col("text_classes").list.contains(pl.col("expected")).fill_null(False)
    relation = shared.fill_null(False) | by_property | by_catalogue
    agree = pl.when(alone).then(relation).otherwise(shared).fill_null(False)
    judged = combos.select("option", "gold_key", "pid", agree.alias("agree"))
    on = ["option", "gold_key", "pid"]
    # the pairs given their verdicts a slice at a time: joined whole on three texts (2.8 M
    # pairs at 3 x 100 M statements) the join's copies were the audit's peak
    verdicts = [
        part.join(judged, on=on, how="left", nulls_equal=True).select("pair", "agree")
        for part in keyed.iter_slices(JUDGED_SLICE)
    ]
    return pl.concat(verdicts)
