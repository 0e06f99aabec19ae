"""The English of the export (docs/relations.md#english): the definite article, a name at the
start of a sentence, dates as a person says them, and a relation's templates rendered one
record at a time and a frame at a time alike; and the kind keys of values
(docs/benchmark-export.md#option-kind-agreement)."""

from __future__ import annotations

import math
import re
from decimal import Decimal

import polars as pl
from hypothesis import example, given, settings
from hypothesis import strategies as st

from kgdiff.export.relations.catalogue import ObjectType, shipped_catalogue
from kgdiff.export.relations.columns import date_phrases, possessives, rendered
from kgdiff.export.relations.phrasing import (
    HUMAN,
    date_phrase,
    lead_use,
    possessive,
    sentence_start,
    takes_article,
    with_article,
)
from kgdiff.export.words.option_kinds import quantity_parts, time_kind, value_kinds, wanted_kinds
from kgdiff.valuetext import time_texts

SETTINGS = settings(max_examples=150)
WORD = st.from_regex(r"[A-Z][a-z]{1,9}", fullmatch=True)
NAME = st.lists(WORD, min_size=1, max_size=4).map(" ".join)
PRECISIONS = st.integers(0, 14)


@st.composite
def time_keys(draw: st.DrawFn) -> str:
    """A time value key as Wikidata writes one: any precision, either era, either calendar,
    with a month and a day or zeros where the precision has none."""
    precision = draw(PRECISIONS)
    year = draw(st.integers(1, 9999) | st.integers(10_000, 13_798_000_000))
    sign = draw(st.sampled_from("+-"))
    month = draw(st.integers(1, 12)) if precision >= 10 else draw(st.sampled_from([0, 1]))
    day = draw(st.integers(1, 28)) if precision >= 11 else draw(st.sampled_from([0, 1]))
    calendar = draw(st.sampled_from(["Q1985727", "Q1985786"]))
    return f"{sign}{year:04d}-{month:02d}-{day:02d}T00:00:00Z|{precision}|{calendar}"


@SETTINGS
@given(time_keys())
def test_a_date_reads_as_when_something_happened(key: str) -> None:
    text = time_texts(key)[0]
    phrase = date_phrase(text)
    kind = time_kind(key)
    assert kind is not None and kind.startswith("time ")
    if kind.startswith("time day"):
        assert phrase == f"on {text}"
    elif kind.split()[1] in ("month", "year"):
        assert phrase == f"in {text}"
    elif kind.split()[1] in ("decade", "century", "millennium"):
        assert phrase == f"in the {text}"
    else:
        assert phrase.endswith(" ago") or phrase == f"in {text}"
    assert text in phrase or phrase == f"{text.removesuffix(' BCE')} ago"


@SETTINGS
@given(st.lists(time_keys(), min_size=1, max_size=20))
def test_dates_phrased_a_column_at_a_time_read_as_one_at_a_time(keys: list[str]) -> None:
    texts = [time_texts(key)[0] for key in keys]
    frame = pl.DataFrame({"text": texts})
    column = frame.select(date_phrases(pl.col("text"))).to_series().to_list()
    assert column == [date_phrase(text) for text in texts]


@SETTINGS
@given(time_keys(), time_keys())
def test_dates_of_one_kind_are_written_the_same_way(first: str, second: str) -> None:
    """Two dates of the same kind key read with the same words around the numbers."""

    def shape(text: str) -> str:
        return re.sub(r"[\d.,]+", "9", text)

    if time_kind(first) == time_kind(second):
        a, b = time_texts(first)[0], time_texts(second)[0]
        assert shape(date_phrase(a)).split()[0] == shape(date_phrase(b)).split()[0]
        assert a.endswith("BCE") == b.endswith("BCE")
        assert a.endswith("(Julian)") == b.endswith("(Julian)")


@SETTINGS
@given(st.lists(st.tuples(NAME, st.booleans()), min_size=1, max_size=20))
def test_possessives_a_column_at_a_time_read_as_one_at_a_time(
    names: list[tuple[str, bool]],
) -> None:
    phrases = [with_article(label, definite) for label, definite in names]
    column = pl.DataFrame({"p": phrases}).select(possessives(pl.col("p"))).to_series().to_list()
    assert column == [possessive(phrase) for phrase in phrases]
    for phrase, found in zip(phrases, column, strict=True):
        assert found in (f"{phrase}'s", f"{phrase}'")
        assert found == f"{phrase}'s" or (phrase.startswith("the ") and phrase.endswith("s"))
    assert possessive("the Netherlands") == "the Netherlands'"
    assert possessive("Los Angeles") == "Los Angeles's" and possessive("Germany") == "Germany's"


@SETTINGS
@given(NAME, st.booleans())
def test_a_name_at_the_start_of_a_sentence_is_capitalised_only_where_an_article_was_added(
    label: str, definite: bool
) -> None:
    phrase = with_article(label, definite)
    opened = sentence_start(phrase)
    assert opened == (f"The {label}" if definite else label)
    assert sentence_start(opened) == opened
    assert sentence_start("de Gaulle") == "de Gaulle" and sentence_start("iPhone") == "iPhone"


@SETTINGS
@given(NAME, st.lists(st.from_regex(r"Q[1-9][0-9]{0,6}", fullmatch=True), max_size=4))
def test_the_lead_of_the_entitys_article_decides_the_article(
    label: str, classes: list[str]
) -> None:
    if HUMAN in classes or label.split()[0] in ("A", "An", "The"):
        return  # a person, or a name that has its article already ("The Hague", "An Post")
    assert takes_article(label, classes, f"The {label} is a place. The {label} is old.")
    assert not takes_article(label, classes, f"{label} is a place; {label} is old.")
    assert lead_use(label, "Nothing here names it.") is None


@SETTINGS
@given(NAME, st.lists(st.from_regex(r"Q[1-9][0-9]{0,6}", fullmatch=True), max_size=4))
def test_some_names_never_take_an_article(label: str, classes: list[str]) -> None:
    lead = f"The {label} is here."
    assert not takes_article(f"The {label}", classes, lead)
    assert not takes_article(label.lower(), [c for c in classes if c != "Q8142"], lead)
    assert not takes_article(label, [*classes, HUMAN], lead)
    assert not takes_article("4", classes, "The 4 is a number.")


def test_names_take_the_article_by_class_and_shape() -> None:
    takes = ["Black Sea", "United States of America", "People's Republic of China",
             "Netherlands", "Czech Republic", "Wikimedia Foundation", "Nobel Prize in Physics",
             "University of Cambridge", "Isle of Man", "Brussels-Capital Region",
             # labels of the demo's samples (Q271, Musée Saint-Raymond) a blind read asked
             # "the" of, and their kin
             "Prytanée National Militaire", "Musée Saint-Raymond", "Palazzo Vecchio",
             "École Polytechnique", "Teatro alla Scala", "Estadio Azteca"]  # fmt: skip
    plain = ["Boston", "Harvard University", "Bank of America", "Republic Records",
             "United Airlines", "Barbados", "Catherine of Aragon", "Yellowstone National Park",
             "Lake Geneva", "Mexico City", "Muséum", "Palaiseau", "Stade de Reims"]  # fmt: skip
    assert [name for name in takes if not takes_article(name)] == []
    assert [name for name in plain if takes_article(name)] == []
    assert takes_article("Nile", ["Q4022"]) and takes_article("euro", ["Q8142"])


# Leads of the demo's Wikipedia articles (tests/data, enwiki 2016-05)
ATLANTIC = "The Atlantic Ocean is the second largest of the world's oceans."
ANDORRA = "Andorra , officially the Principality of Andorra , also called the Principality"


def test_real_leads_decide_the_article() -> None:
    assert lead_use("Atlantic Ocean", ATLANTIC) is True
    assert lead_use("Andorra", ANDORRA) is False
    assert not takes_article("Atlantic Ocean", (), "Atlantic Ocean is the second largest.")


PHRASES = st.one_of(NAME, NAME.map(lambda name: f"the {name}"))


@SETTINGS
@given(st.data())
def test_templates_render_alike_one_record_or_a_frame_at_a_time(data: st.DataObject) -> None:
    catalogue = shipped_catalogue()
    relations = data.draw(st.lists(st.sampled_from(list(catalogue)), min_size=1, max_size=6))
    rows: list[tuple[str, str, str, bool]] = []
    for relation in relations:
        date = relation.object_type is ObjectType.TIME
        value = time_texts(data.draw(time_keys()))[0] if date else data.draw(PHRASES)
        rows.append((relation.pid, data.draw(PHRASES), value, data.draw(st.booleans())))
    frame = pl.DataFrame(rows, schema=["pid", "subject", "object", "past"], orient="row")
    subject, obj, past = pl.col("subject"), pl.col("object"), pl.col("past")
    columns = frame.select(
        question=rendered(frame, catalogue, "question", past, subject=subject),
        cloze=rendered(frame, catalogue, "cloze", past, subject=subject),
        statement=rendered(frame, catalogue, "statement", past, subject=subject, object=obj),
    ).to_dicts()
    for (pid, name, value, was), found in zip(rows, columns, strict=True):
        relation = catalogue[pid]
        assert found["question"] == relation.question(name, was)
        assert found["cloze"] == relation.cloze(name, was)
        assert found["statement"] == relation.statement(name, value, was)
        assert not found["statement"].startswith("the ")
        assert " the the " not in found["statement"] and "on the date" not in found["statement"]


@SETTINGS
@given(
    st.decimals(allow_nan=False, allow_infinity=False, min_value=-(10**12), max_value=10**12),
    st.sampled_from(["1", "Q11573", "Q4917"]),
)
@example(Decimal("999999999999.99811558"), "1")  # a float's log10 rounds it up to 12
def test_a_quantity_kind_is_its_unit_sign_and_order_of_magnitude(
    amount: Decimal, unit: str
) -> None:
    key = f"{'+' if amount >= 0 else ''}{amount}|{unit}"
    parts = quantity_parts(key)
    assert parts is not None and parts[0] == unit
    if amount:
        magnitude = parts[2]
        assert 10**magnitude <= abs(amount) < 10 ** (magnitude + 1) or math.isclose(
            float(abs(amount)), 10.0 ** (magnitude + 1)
        )
        kinds = value_kinds(key)
        assert wanted_kinds(key, kinds)[0] == kinds[0] and len(wanted_kinds(key, kinds)) == 3


def test_other_values_kinds() -> None:
    assert value_kinds("ru:Санкт-Петербург") == ("text ru",)
    assert value_kinds("http://www.belgium.be") == () and value_kinds("Q30") == ()
    assert value_kinds("+1630-00-00T00:00:00Z|9|Q1985727") == ("time year",)
    assert value_kinds("+1830-10-04T00:00:00Z|11|Q1985727") == ("time day",)
    assert value_kinds("-0044-03-15T00:00:00Z|11|Q1985786") == ("time day BCE (Julian)",)
