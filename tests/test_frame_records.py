"""Records built column by column follow the same rules as records built one by one: the
answers' words equal :func:`answer_texts` of each row, and the options are those the option
builder keeps given the distractors drawn (kgdiff.export.records.answer_frames, option_frames,
noise_frames); the gold letter is uniform and a seed only reorders."""

from __future__ import annotations

from collections import Counter

import polars as pl
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.core.column_draws import record_digests
from kgdiff.export.distractors.noise_tiers import NoiseTiers
from kgdiff.export.records.answer_frames import answer_columns
from kgdiff.export.records.items import answer_texts
from kgdiff.export.records.option_frames import choice_columns
from kgdiff.export.records.options import OptionInputs, chosen_options
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.scoring.text_match import normalise
from kgdiff.export.words.names import Name, Names
from kgdiff.export.words.word_frames import normalised_texts, value_words

WORDS = st.text(alphabet="abcXY -'.", min_size=1, max_size=6)
VALUES = [f"Q{number}" for number in range(1, 13)]
PID = "P6"  # head of government: items, in the shipped catalogue


@st.composite
def named(draw: st.DrawFn) -> Names:
    """Names of most of :data:`VALUES` (some none), with aliases that may read alike."""
    book = {}
    for value in VALUES[:-2]:
        label = draw(WORDS)
        aliases = draw(st.lists(st.one_of(WORDS, st.just(label.upper() + ".")), max_size=2))
        book[value] = Name(label, tuple(aliases), ("Q5",) if draw(st.booleans()) else ())
    return Names(book)


ROWS = st.lists(
    st.tuples(
        st.lists(st.sampled_from(VALUES), min_size=1, max_size=3, unique=True),
        st.lists(st.sampled_from(VALUES), max_size=3, unique=True),
    ),
    min_size=1,
    max_size=8,
)


def _rows(rows: list[tuple[list[str], list[str]]]) -> pl.DataFrame:
    return pl.DataFrame(
        {
            "_id": [f"qa/S{index:02}/{PID}" for index in range(len(rows))],
            "subject": [f"S{index:02}" for index in range(len(rows))],
            "pid": [PID] * len(rows),
            "latest": [latest for latest, _ in rows],
            "outdated": [outdated for _, outdated in rows],
            "all_answers": [sorted({*latest, *outdated}) for latest, outdated in rows],
        },
        schema_overrides={name: pl.List(pl.String()) for name in ("latest", "outdated")},
    )


@settings(max_examples=200)
@given(named(), ROWS)
def test_the_answers_words_are_those_of_answer_texts(
    names: Names, rows: list[tuple[list[str], list[str]]]
) -> None:
    words = value_words(names, VALUES)
    built = answer_columns(_rows(rows), words)
    for record, (latest, outdated) in zip(built.iter_rows(named=True), rows, strict=True):
        expected = answer_texts(names, latest, outdated)
        assert record["answers"] == expected.answers
        assert record["answer_labels"] == expected.labels
        assert record["outdated_answers"] == expected.outdated
        assert record["outdated_labels"] == expected.outdated_labels
        correct = expected.correct
        assert record["correct"] == (names.main_text(correct) if correct else None)


def _choices(names: Names, rows: pl.DataFrame, seed: int, size: int) -> pl.DataFrame:
    words = value_words(names, VALUES)
    pairs = pl.DataFrame({"pid": [PID] * len(VALUES), "value": VALUES})
    tiers = NoiseTiers.of(pairs, words, shipped_catalogue())
    frame = answer_columns(rows, words).filter(pl.col("correct").is_not_null())
    ids = frame.get_column("_id")
    frame = frame.with_columns(
        pl.lit("item").alias("object_type"),
        pl.lit([], pl.List(pl.String())).alias("classes"),
        record_digests(None, ids, "noise").alias("noise_digest"),
        record_digests(seed, ids, "options").alias("options_digest"),
    )
    return choice_columns(frame, tiers, size)[0]


@settings(max_examples=150)
@given(named(), ROWS, st.integers(0, 2**32), st.integers(2, 5))
def test_the_options_are_those_the_option_builder_keeps(
    names: Names, rows: list[tuple[list[str], list[str]]], seed: int, size: int
) -> None:
    frame = _rows(rows)
    for record in _choices(names, frame, seed, size).iter_rows(named=True):
        noise = [
            t
            for t, k in zip(record["options"], record["choice_types"], strict=True)
            if k == "noise"
        ]
        inputs = OptionInputs(
            record["correct"], record["answers"], record["outdated_answers"],
            record["outdated_labels"], noise,
        )  # fmt: skip
        expected = chosen_options(inputs, size)
        assert expected is not None
        shown = set(zip(record["options"], record["choice_types"], strict=True))
        assert shown == {*expected, (record["correct"], "correct")}
        gold = ord(record["gold"]) - ord("A")
        assert record["options"][gold] == record["correct"]
        answered = {normalise(t) for value in record["all_answers"] for t in names.texts(value)}
        assert not answered & {normalise(text) for text in noise}


def test_the_gold_letter_is_uniform_and_a_seed_only_reorders() -> None:
    # heads of government are people: a gold of P6 is offered the relation's other people
    names = Names({value: Name(f"label {value}", classes=("Q5",)) for value in VALUES})
    rows = _rows([([VALUES[index % 12]], []) for index in range(3000)])
    first = _choices(names, rows, 1, 4)
    counts = Counter(first.get_column("gold").to_list())
    expected = first.height / 4
    chi_square = sum((counts[letter] - expected) ** 2 / expected for letter in "ABCD")
    assert chi_square < 16.27, counts  # the 0.999 quantile with 3 degrees of freedom
    second = _choices(names, rows, 2, 4)
    assert first.get_column("_id").to_list() == second.get_column("_id").to_list()
    for one, other in zip(first.iter_rows(named=True), second.iter_rows(named=True), strict=True):
        assert sorted(one["options"]) == sorted(other["options"])
    assert first.get_column("options").to_list() != second.get_column("options").to_list()


@settings(max_examples=300)
@given(
    st.lists(st.one_of(st.text(max_size=12), st.text(alphabet=st.characters(max_codepoint=127))))
)
def test_texts_normalised_column_wise_equal_normalise(texts: list[str]) -> None:
    assert normalised_texts(pl.Series(texts, dtype=pl.String())).to_list() == [
        normalise(text) for text in texts
    ]
