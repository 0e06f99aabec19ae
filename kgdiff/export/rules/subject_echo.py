"""Gold answers that spell their subject's name (docs/benchmark-export.md#what-is-left-out):
"At which address is the official website of Wikipedia?" → ``https://www.wikipedia.org/``,
the only option that names Wikipedia, is answered by matching strings, not by knowing
anything. A record is left out (:data:`ANSWER_NAMES_SUBJECT`) when one of its gold labels
holds, once case and accents are set aside:

- a word of its subject's label of at least :data:`MIN_WORD` letters or digits, or the label
  or one of its aliases run together (spaces and punctuation removed: ``Genève`` for
  Geneva), inside a longer word too, as a web address runs words together
  (``barackobama.com``, ``clubjenna.com``, ``wikimediafoundation.org``); a German umlaut
  also as its two letters (``stadt-zuerich.ch`` for Zürich);
- a code of the label, a word of two or three characters without a lower-case letter
  (``U2``, ``PHP``, ``D.C.`` without its dots), as a whole word (``dc.gov``, ``u2.com``).

An alias's words alone do not count: aliases that say where a place lies ("Paris, France",
"San Francisco, California") would take "Which country is Paris in?" → France for a
giveaway, though the question shows only the label.

:func:`names_subject` decides for one record, :func:`naming_subject` for a frame of records
at once, by the same rule (tested against each other).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Sequence

import polars as pl

ANSWER_NAMES_SUBJECT = "answer_names_subject"
"""The reason a record whose gold label spells its subject's name is left out."""
MIN_WORD = 4
"""A subject's word shorter than this many letters and digits is too common to be looked for
inside other words ("of", "the", "usa" would be found in many answers)."""
CODE_SIZES = (2, 3)
"""The lengths of a code looked for as a whole word."""
_RUNS = re.compile(r"[^\W_]+")
"""A run of letters and digits (what ``str.isalnum`` accepts)."""
UMLAUT_PAIRS = (("ä", "ae"), ("ö", "oe"), ("ü", "ue"), ("Ä", "Ae"), ("Ö", "Oe"), ("Ü", "Ue"))
"""German umlauts and how they are written without them (Zürich, Zuerich)."""
UMLAUTS = str.maketrans(dict(UMLAUT_PAIRS))


def fold(text: str) -> str:
    """``text`` in lower case without accents (compatibility-decomposed, combining marks
    dropped): ``Zürich`` → ``zurich``."""
    if text.isascii():  # most labels: nothing to decompose
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(char for char in decomposed if not unicodedata.category(char).startswith("M"))
    return bare.lower()


def words_of(text: str) -> list[str]:
    """The runs of letters and digits of ``text``."""
    return _RUNS.findall(text)


def spaced(text: str) -> str:
    """A gold label as it is searched: :func:`fold`, its runs of letters and digits one space
    apart, with a space before and after."""
    return f" {' '.join(words_of(fold(text)))} "


def spaced_texts(texts: pl.Expr) -> pl.Expr:
    """:func:`spaced` of each text of a column."""
    bare = texts.str.normalize("NFKD").str.replace_all(r"\p{M}", "").str.to_lowercase()
    runs = bare.str.replace_all(r"[^\p{L}\p{N}]+", " ").str.strip_chars(" ")
    return pl.concat_str(pl.lit(" "), runs, pl.lit(" "))


def _codes(label: str) -> list[str]:
    """The label's codes as searched: `` dc `` for ``Washington, D.C.``."""
    found = []
    for token in label.split():
        code = "".join(words_of(token))
        if len(code) in CODE_SIZES and code == code.upper() and not code.isdigit():
            found.append(f" {fold(code)} ")
    return found


def subject_needles(texts: Sequence[str]) -> list[str]:
    """What gold labels are searched for (:func:`spaced`), each once: each word of at least
    :data:`MIN_WORD` letters or digits of the subject's label (the first of its ``texts``),
    each of its ``texts`` (the label, then its aliases) run together, with umlauts as they
    are and as two letters; and the label's codes, between spaces."""
    found: dict[str, None] = {}
    for index, text in enumerate(texts):
        spellings = (text,) if text.isascii() else dict.fromkeys((text, text.translate(UMLAUTS)))
        for spelling in spellings:
            words = words_of(fold(spelling))
            for needle in (*(words if index == 0 else ()), "".join(words)):
                if len(needle) >= MIN_WORD:
                    found.setdefault(needle)
    for code in _codes(texts[0]) if texts else ():
        found.setdefault(code)
    return list(found)


def names_subject(golds: Sequence[str], needles: Sequence[str]) -> bool:
    """Whether one of the gold labels ``golds`` holds one of the subject's ``needles``."""
    haystacks = [spaced(gold) for gold in golds]
    return any(needle in haystack for haystack in haystacks for needle in needles)


def naming_subject(records: pl.DataFrame, golds: str, needles: str) -> pl.Series:
    """The ``_id`` of each record of ``records`` (with the lists ``golds``, its gold labels,
    and ``needles``, its subject's :func:`subject_needles`) whose gold names its subject
    (:func:`names_subject`)."""
    labels = records.select("_id", pl.col(golds).alias("_gold")).explode("_gold")
    labels = labels.drop_nulls("_gold").unique(maintain_order=True)
    labels = labels.with_columns(spaced_texts(pl.col("_gold")).alias("_gold"))
    words = records.select("_id", pl.col(needles).alias("_needle")).explode("_needle")
    pairs = labels.join(words.drop_nulls("_needle"), on="_id", maintain_order="left")
    found = pairs.filter(pl.col("_gold").str.contains(pl.col("_needle"), literal=True))
    return found.get_column("_id").unique(maintain_order=True)


def without_naming(records: pl.DataFrame, golds: str, needles: str) -> tuple[pl.DataFrame, int]:
    """``records`` without those whose gold names their subject, and how many those were
    (``records`` as they are when they have no column ``needles``)."""
    if needles not in records.columns or not records.height:
        return records, 0
    named = naming_subject(records, golds, needles)
    if not named.len():
        return records, 0
    return records.filter(~pl.col("_id").is_in(named.implode())), named.len()
