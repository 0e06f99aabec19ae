"""Arrow schemas of the rows the parse workers produce (the *part* files), and of the
published tables (docs/data-model.md): the same rows sorted by the finalize step, which also
adds the P31 types to the entities (see :mod:`kgdiff.store.bucket_sort`).
"""

from __future__ import annotations

import pyarrow as pa

INTERVAL_FIELDS = [
    (f"{name}_{part}", pa.date32() if part != "snaktype" else pa.string())
    for name in ("start", "end", "point")
    for part in ("lo", "hi", "snaktype")
]

VALUE_FIELDS = [
    ("snaktype", pa.string()),
    ("datatype", pa.string()),
    ("value_type", pa.string()),
    ("value", pa.string()),
    ("object_qid", pa.string()),
    ("time_precision", pa.int8()),
    ("time_calendar", pa.string()),
    ("time_lo", pa.date32()),
    ("time_hi", pa.date32()),
]
"""The columns of a snak's value, shared by statements (main snak) and qualifiers."""

ENTITY_ROWS = pa.schema(
    [
        ("qid", pa.string()),
        ("type", pa.string()),
        ("datatype", pa.string()),
        ("redirect_to", pa.string()),
        ("lastrevid", pa.int64()),
        ("modified", pa.string()),
        ("label_en", pa.string()),
        ("description_en", pa.string()),
        ("aliases_en", pa.list_(pa.string())),
        ("n_labels", pa.int32()),
        ("n_sitelinks", pa.int32()),
        ("n_statements", pa.int32()),
        ("source_line", pa.int64()),
    ]
)
"""The entity columns both row builders make (the native one in this order)."""

ENTITY_PARTS = ENTITY_ROWS.append(pa.field("label_rows", pa.int32()))
"""The entities part: the builders' columns, and how many rows of the labels part each
entity has (counted from the labels' entity index: :func:`kgdiff.rows.terms.label_rows`).
With ``n_sitelinks``, ``n_statements`` and the statements' ``n_qualifiers`` it tells where
an entity's rows lie in its batch, for leaving out a duplicate's (kgdiff.store.duplicates);
it is not published."""

STATEMENT_PARTS = pa.schema(
    [
        ("statement_id", pa.string()),
        ("subject", pa.string()),
        ("pid", pa.string()),
        ("ordinal", pa.int32()),
        ("rank", pa.string()),
        *VALUE_FIELDS,
        *INTERVAL_FIELDS,
        ("n_qualifiers", pa.int32()),
        ("n_references", pa.int32()),
    ]
)

QUALIFIER_PARTS = pa.schema(
    [
        ("statement_id", pa.string()),
        ("subject", pa.string()),
        ("pid", pa.string()),
        ("qualifier_pid", pa.string()),
        ("ordinal", pa.int32()),
        *VALUE_FIELDS,
    ]
)

LABEL_PARTS = pa.schema(
    [
        ("qid", pa.string()),
        ("kind", pa.string()),
        ("lang", pa.string()),
        ("value", pa.string()),
        ("ordinal", pa.int32()),
    ]
)

SITELINK_PARTS = pa.schema(
    [
        ("qid", pa.string()),
        ("site", pa.string()),
        ("title", pa.string()),
        ("badges", pa.list_(pa.string())),
    ]
)

PART_SCHEMAS: dict[str, pa.Schema] = {
    "entities": ENTITY_PARTS,
    "labels": LABEL_PARTS,
    "sitelinks": SITELINK_PARTS,
    "statements": STATEMENT_PARTS,
    "qualifiers": QUALIFIER_PARTS,
}


def _published_entities() -> pa.Schema:
    """The published entities: the part columns reordered, with the P31 types, and
    ``modified`` as a timestamp (UTC)."""
    names = [
        "qid", "type", "datatype", "label_en", "description_en", "aliases_en", "p31",
        "n_labels", "n_sitelinks", "n_statements", "lastrevid", "modified", "redirect_to",
        "source_line",
    ]  # fmt: skip
    extra = {"p31": pa.list_(pa.string()), "modified": pa.timestamp("us")}
    return pa.schema([(n, extra.get(n) or ENTITY_PARTS.field(n).type) for n in names])


REQUIRED_COLUMNS: dict[str, frozenset[str]] = {
    "entities": frozenset(
        {"qid", "aliases_en", "p31", "n_labels", "n_sitelinks", "n_statements", "source_line"}
    ),
    "labels": frozenset({"qid", "kind", "lang", "value", "ordinal"}),
    "sitelinks": frozenset({"qid", "site", "title", "badges"}),
    "statements": frozenset(
        {"subject", "pid", "ordinal", "rank", "snaktype", "n_qualifiers", "n_references"}
    ),
    "qualifiers": frozenset({"subject", "pid", "qualifier_pid", "ordinal", "snaktype"}),
}
"""Published columns that are never null: both row builders fill them for every row (an
entity whose value there is missing or not a string is a reject), and finalize turns
missing lists into empty ones. They are written as Parquet ``REQUIRED`` columns, which
carry no definition levels: ~7 % less time writing the tables."""


def _published(table: str, schema: pa.Schema) -> pa.Schema:
    required = REQUIRED_COLUMNS[table]
    return pa.schema([field.with_nullable(field.name not in required) for field in schema])


PUBLISHED_SCHEMAS: dict[str, pa.Schema] = {
    table: _published(table, schema)
    for table, schema in {**PART_SCHEMAS, "entities": _published_entities()}.items()
}
"""Arrow schemas of the published snapshot tables (what finalize writes)."""
