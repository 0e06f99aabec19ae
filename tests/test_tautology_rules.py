"""The rules behind a record a benchmark author keeps, as properties: the tautology matcher
(whole words, case aside, codes in their own case; one record or a frame of them alike), a
gold that spells its subject (one record or a frame alike; a name run together in an address),
and the words a model could say (symbol-only texts are none)."""

from __future__ import annotations

import polars as pl
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kgdiff.export.rules.subject_echo import (
    MIN_WORD,
    names_subject,
    naming_subject,
    spaced,
    spaced_texts,
    subject_needles,
)
from kgdiff.export.rules.tautology import code_form, is_code, judge, judge_frame
from kgdiff.export.words.answer_hygiene import has_words, placeholder_reason, placeholder_reason_of

SETTINGS = settings(max_examples=200)
WORD = st.text(st.sampled_from("abcdefghijklmnopqrstuvwxyzéöç"), min_size=3, max_size=9)
"""A lower-case word (never an article: three letters or more, and not 'the')."""
WORDS = st.lists(WORD.filter(lambda w: w not in {"the"}), min_size=1, max_size=3)
CODE = st.text(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"), min_size=1, max_size=4)
SEPARATORS = st.sampled_from([" ", ", ", " (", "-", ": ", "/"])
SYMBOLS = st.text(
    st.characters(categories=["So", "Sm", "Sc", "Sk", "Pd", "Po", "Ps", "Pe", "Zs"]), max_size=8
)
"""Symbols, punctuation and spaces: no letter, no digit (flags are two So characters)."""
TEXTS = st.text(st.sampled_from("aAbBcCéÉ 12-.,'’()ÇçİıßØ🇷🇺★"), max_size=20)
"""Texts over letters in both cases, accents, digits, punctuation, a flag and a star."""


@SETTINGS
@given(WORDS, WORDS, WORDS, SEPARATORS)
def test_a_gold_inserted_as_whole_words_is_found_whatever_its_case(
    gold: list[str], before: list[str], after: list[str], separator: str
) -> None:
    text = " ".join(gold).title()
    question = f"{' '.join(before)}{separator}{text}{separator}{' '.join(after)}?"
    label = " ".join(gold)
    assert judge([label], [label], [question], []).tautology
    assert judge([label], [label], [], [question.upper()]).tautology


@SETTINGS
@given(WORDS, WORD)
def test_a_gold_inside_a_longer_word_is_not_found(gold: list[str], suffix: str) -> None:
    label = " ".join(gold)
    slot = label + suffix  # "Chile" and "Chilean"
    assert not judge([label], [label], [slot], [f"Which country is {slot} in?"]).tautology


@SETTINGS
@given(CODE, WORDS)
def test_a_code_is_found_in_its_own_case_only(code: str, words: list[str]) -> None:
    assert is_code(code)
    text = " ".join(words)
    assert judge([code], [], [f"{text} {code}"], []).tautology
    lowered = code.lower()
    if lowered != code:  # "IN" is not the "in" of a question
        assert not judge([code], [], [f"{text} {lowered}"], []).tautology


@SETTINGS
@given(WORDS, WORDS)
def test_an_alias_the_template_spells_out_restates_and_a_label_gives_away(
    alias: list[str], subject: list[str]
) -> None:
    question = f"Which place is the {' '.join(alias)} of {' '.join(subject)}?"
    label = "Zzzz"
    spelled = f"{' '.join(alias)} of {' '.join(subject)}"
    found = judge([label, spelled], [label], [" ".join(subject)], [question])
    if not judge([label, spelled], [label], [" ".join(subject)], []).tautology:
        assert not found.tautology and found.restating == (spelled,)
    assert judge([spelled], [spelled], [" ".join(subject)], [question]).tautology


@SETTINGS
@given(st.lists(TEXTS, min_size=1, max_size=4), TEXTS, TEXTS, st.booleans())
def test_a_frame_is_judged_as_its_records_are(
    golds: list[str], slot: str, question: str, own: bool
) -> None:
    subject = "Q1"
    values = ["Q1" if own else "Q2"]
    labels = golds[:1]
    expected = judge(golds, labels, [slot], [question], subject, values)
    frame = pl.DataFrame(
        {
            "_id": ["r"], "subject": [subject], "answers": [golds], "answer_labels": [labels],
            "latest": [values], "slot": [slot], "question": [question],
        }
    )  # fmt: skip
    given_away, restating = judge_frame(
        frame, "answers", "answer_labels", ["slot"], ["question"], "latest"
    )
    assert (given_away.to_list() == ["r"]) == expected.tautology
    assert set(restating.get_column("gold")) == set(expected.restating)


@SETTINGS
@given(TEXTS)
def test_a_code_form_keeps_case_and_words(text: str) -> None:
    form = code_form(text)
    assert form == " ".join(form.split())
    assert bool(form) == has_words(text)
    assert all(word.isalnum() for word in form.split())
    assert code_form(form) == form


@SETTINGS
@given(SYMBOLS)
def test_symbols_alone_are_no_answer(text: str) -> None:
    assert not has_words(text)
    assert not has_words("🇧🇪") and not has_words("🇷🇺")


@SETTINGS
@given(SYMBOLS, st.sampled_from(["a", "Z", "é", "Я", "中", "7", "٣", "Ⅷ"]), SYMBOLS)
def test_one_letter_or_digit_among_symbols_is_words(before: str, char: str, after: str) -> None:
    assert has_words(before + char + after)


@SETTINGS
@given(st.lists(st.sampled_from(["<novalue>", "<somevalue>", "Q1", "Q2"]), max_size=4))
def test_a_group_of_placeholders_alone_has_nothing_to_ask(values: list[str]) -> None:
    reason = placeholder_reason_of(values)
    frame = pl.DataFrame({"v": [values]}, schema={"v": pl.List(pl.String())})
    assert frame.select(placeholder_reason(pl.col("v"))).item() == reason
    if not values or {"Q1", "Q2"} & set(values):
        assert reason is None
    elif set(values) == {"<somevalue>"}:
        assert reason == "unknown_value"
    else:
        assert reason == "no_value"


@SETTINGS
@given(st.lists(TEXTS, max_size=3), st.lists(TEXTS, min_size=1, max_size=3))
def test_a_frame_spells_its_subject_as_its_records_do(golds: list[str], subject: list[str]) -> None:
    needles = subject_needles(subject)
    frame = pl.DataFrame(
        {"_id": ["r"], "answer_labels": [golds], "subject_needles": [needles]},
        schema={"_id": pl.String(), "answer_labels": pl.List(pl.String()),
                "subject_needles": pl.List(pl.String())},
    )  # fmt: skip
    found = naming_subject(frame, "answer_labels", "subject_needles").to_list()
    assert (found == ["r"]) == names_subject(golds, needles)
    assert frame.select(spaced_texts(pl.col("answer_labels").explode())).to_series().to_list() == [
        spaced(gold) for gold in golds
    ]


@SETTINGS
@given(WORDS, SEPARATORS, st.sampled_from(["http://www.", "https://", ""]))
def test_a_subject_run_together_in_an_address_is_found(
    words: list[str], separator: str, scheme: str
) -> None:
    assume(len("".join(words)) >= MIN_WORD)  # shorter names are too common to look for
    label = separator.join(word.title() for word in words)
    address = f"{scheme}{''.join(words)}.org/"
    assert names_subject([address], subject_needles([label]))
    # an alias counts run together only: "Paris, France" does not make France a giveaway
    assert not names_subject(["Zzzz"], subject_needles(["Qqqq", f"{label}, Zzzz"]))
    # a code as a whole word: Washington, D.C.'s dc.gov, not "dc" inside another word
    assert names_subject(["http://www.dc.gov/"], subject_needles([f"{label}, D.C."]))
    assert not names_subject(["http://www.adc.gov/"], subject_needles(["Qqqq, D.C."]))
