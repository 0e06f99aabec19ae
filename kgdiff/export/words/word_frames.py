"""The words of values as frames, for records built column by column: each value's texts
(:meth:`kgdiff.export.words.names.Names.texts`: an entity's label then its aliases, another value's
renderings), their normalised forms (as scoring compares answers), how its main text reads
in a sentence (``phrase``: "the Black Sea"), its kind keys (``classes``) and the kind keys
a distractor of it may have (``wanted``).

Each distinct value is looked up once in Python; everything after is joins."""

from __future__ import annotations

from collections.abc import Iterable

import polars as pl
import pyarrow as pa

from kgdiff.export.words.forms import normalised
from kgdiff.export.words.names import Names
from kgdiff.export.words.option_kinds import wanted_kinds

TEXTS = pl.List(pl.String())
WORDS_SCHEMA = pl.Schema(
    {
        "value": pl.String(),
        "texts": TEXTS,
        "forms": TEXTS,
        "main": pl.String(),
        "main_form": pl.String(),
        "phrase": pl.String(),
        "classes": TEXTS,
        "wanted": TEXTS,
    }
)
"""A value's texts (main one first) and their forms, in the same order; ``main`` is null when
the value has no words; ``phrase`` is how the main text reads in a sentence; ``classes`` and
``wanted`` its kind keys and those its distractors may have
(:mod:`kgdiff.export.words.option_kinds`)."""


WORDS_BATCH = 50_000
"""Values looked up at a time (their Python lists are short-lived: memory stays flat)."""


def value_words(names: Names, values: Iterable[str]) -> pl.DataFrame:
    """The words of each distinct value among ``values`` (:data:`WORDS_SCHEMA`)."""
    distinct = sorted(set(values))
    parts = [
        _words_batch(names, distinct[start : start + WORDS_BATCH])
        for start in range(0, len(distinct), WORDS_BATCH)
    ]
    return pl.concat([pl.DataFrame(schema=WORDS_SCHEMA), *parts])


def _words_batch(names: Names, values: list[str]) -> pl.DataFrame:
    texts = [names.fresh_texts(value) for value in values]
    classes = [names.classes(value) for value in values]
    wanted = [
        list(wanted_kinds(value, kinds)) for value, kinds in zip(values, classes, strict=True)
    ]
    phrases = [
        names.phrase(value) if found else None for value, found in zip(values, texts, strict=True)
    ]
    # through Arrow: polars would build a Series for every inner list (~20 times slower)
    table = pa.table(
        {
            "value": pa.array(values, pa.string()),
            "texts": pa.array(texts, pa.list_(pa.string())),
            "phrase": pa.array(phrases, pa.string()),
            "classes": pa.array([list(kinds) for kinds in classes], pa.list_(pa.string())),
            "wanted": pa.array(wanted, pa.list_(pa.string())),
        }
    )
    frame = pl.from_arrow(table)
    assert isinstance(frame, pl.DataFrame)
    frame = frame.with_row_index("_row")
    exploded = frame.select("_row", pl.col("texts").alias("text")).explode("text")
    exploded = exploded.with_columns(normalised_texts(exploded.get_column("text")).alias("form"))
    forms = exploded.group_by("_row", maintain_order=True).agg(pl.col("form"))
    frame = frame.join(forms, on="_row", maintain_order="left").drop("_row")
    return frame.select(
        "value",
        "texts",
        pl.col("form").list.drop_nulls().alias("forms"),
        pl.col("texts").list.first().alias("main"),
        pl.col("form").list.first().alias("main_form"),
        "phrase",
        "classes",
        "wanted",
    ).cast(WORDS_SCHEMA)


# ASCII punctuation (Unicode category P), which normalise turns into spaces, and the control
# characters (Cc), which it also spaces; apostrophes are dropped before.
_ASCII_PUNCTUATION = r"[!\"#%&()*,\-./:;?@\[\\\]_{}\x00-\x1f\x7f]"


def normalised_texts(texts: pl.Series) -> pl.Series:
    """:func:`kgdiff.export.scoring.text_match.normalise` of each text: ASCII texts column-wise (the
    same steps: lower case, apostrophes dropped, punctuation spaced, articles dropped), the
    others one by one (Unicode normalisation and categories have no column form)."""
    frame = pl.DataFrame({"text": texts}).with_row_index("_row")
    ascii_only = pl.col("text").str.contains(r"^[\x00-\x7f]*$")
    plain = frame.filter(ascii_only)
    words = (
        pl.col("text").str.to_lowercase().str.replace_all(r"['`]", "")
        .str.replace_all(_ASCII_PUNCTUATION, " ").str.split(" ")
        .list.eval(pl.element().filter(~pl.element().is_in(["", "a", "an", "the"])))
        .list.join(" ")
    )  # fmt: skip
    plain = plain.select("_row", words.alias("form"))
    other = frame.filter(~ascii_only & pl.col("text").is_not_null())
    other_forms = [normalised(text) for text in other.get_column("text")]
    other = other.select("_row", pl.Series("form", other_forms, dtype=pl.String()))
    forms = frame.select("_row").join(pl.concat([plain, other]), on="_row", how="left")
    return forms.sort("_row").get_column("form").alias(texts.name)


def words_of(
    rows: pl.DataFrame, column: str, words: pl.DataFrame, prefix: str = ""
) -> pl.DataFrame:
    """``rows``' ``_id`` and each value of the list ``column`` in order (``_pos``) with its
    words (columns of :data:`WORDS_SCHEMA`, named with ``prefix``); values without words
    keep null words."""
    exploded = rows.select("_id", pl.col(column).cast(TEXTS).alias("value")).explode("value")
    exploded = exploded.drop_nulls("value").with_columns(
        pl.int_range(pl.len()).over("_id").alias("_pos")
    )
    joined = exploded.join(words, on="value", how="left", maintain_order="left")
    if prefix:
        joined = joined.rename({name: f"{prefix}{name}" for name in WORDS_SCHEMA})
    return joined
