"""Scoring predictions: normalisation, each match, multiple choice and true/false, the
predictions reader, the per-level and per-relation report, and ChroKnowBench's pool
categories (kgdiff.export; docs/scoring.md)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.errors import InputError, UsageError
from kgdiff.export.scoring.choices import chosen_letter, chosen_option, truth_value
from kgdiff.export.scoring.chrono import classify_group, temporal_pattern, year_category
from kgdiff.export.scoring.pools import score_pools
from kgdiff.export.scoring.predictions import read_predictions
from kgdiff.export.scoring.report import generation_score, mc_score, score_predictions, tf_score
from kgdiff.export.scoring.text_match import (
    fuzzy_match,
    fuzzy_score,
    is_unknown,
    matches_any,
    normalise,
    token_f1,
)

MERKEL: dict[str, Any] = {
    "id": "Q183-P6",
    "level": "evolved",
    "relation": "head of government",
    "answer_labels": ["Olaf Scholz"],
    "answers": ["Olaf Scholz", "Scholz"],
    "outdated_answers": ["Angela Merkel", "Merkel", "Gerhard Schröder"],
    "options": ["Angela Merkel", "Unknown", "Olaf Scholz", "Emmanuel Macron"],
    "choice_types": ["outdated", "unknown", "correct", "noise"],
    "gold": "C",
    "tf_label": True,
}
PARIS: dict[str, Any] = {
    "id": "Q142-P36",
    "level": "stable",
    "relation": "capital",
    "answer_labels": ["Paris"],
    "answers": ["Paris", "City of Light"],
    "outdated_answers": [],
    "options": ["Lyon", "Paris", "Unknown", "Marseille"],
    "gold": "B",
    "tf_label": False,
}
TOKYO: dict[str, Any] = {
    "id": "Q17-P36",
    "level": "evolved",
    "relation": "capital",
    "answer_labels": ["Tokyo"],
    "answers": ["Tokyo", "Tōkyō", "Edo"],
    "outdated_answers": ["Kyoto"],
}
RECORDS = [MERKEL, PARIS, TOKYO]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("The Hague.", "hague"),
        ("  Gerhard   Schröder ", "gerhard schroder"),
        ("O’Brien", "obrien"),
        ("Jean-Paul Sartre", "jean paul sartre"),
        ("ﬁnal STRASSE", "final strasse"),
        ("Straße", "strasse"),
        ("Tōkyō", "tokyo"),
        ("हिन्दी", "हिन्दी"),  # the vowel signs of Devanagari are kept
        ("A Tale of Two Cities", "tale of two cities"),
        ("C++", "c++"),
    ],
)
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


def test_predictions_equal_to_the_gold_score_one() -> None:
    predictions = {r["id"]: r["answer_labels"][0] for r in RECORDS}
    report = score_predictions(RECORDS, predictions)
    assert report["overall"] == {
        "n": 3,
        "em": 1.0,
        "f1": 1.0,
        "alias_em": 1.0,
        "fuzzy": 1.0,
        "outdated_rate": 0.0,
        "unknown_rate": 0.0,
    }
    assert report["by_level"]["evolved"]["n"] == 2 and report["by_relation"]["capital"]["n"] == 2
    assert json.loads(json.dumps(report)) == report


def test_outdated_answers_on_evolved_records_give_an_outdated_rate_of_one() -> None:
    evolved = [r for r in RECORDS if r["level"] == "evolved"]
    report = score_predictions(evolved, {r["id"]: r["outdated_answers"][0] for r in evolved})
    overall = report["overall"]
    assert overall["outdated_rate"] == 1.0
    assert overall["em"] == overall["alias_em"] == overall["fuzzy"] == 0.0
    assert report["by_level"] == {"evolved": overall}


def test_an_alias_counts_for_alias_em_not_em() -> None:
    for alias in ("Scholz", "scholz."):
        score = generation_score(alias, MERKEL)
        assert (score["em"], score["alias_em"], score["outdated_rate"]) == (0.0, 1.0, 0.0)
    without_labels = {k: v for k, v in MERKEL.items() if k != "answer_labels"}
    assert generation_score("Scholz", without_labels)["em"] == 1.0  # em falls back to answers


def test_a_latest_name_that_is_also_an_outdated_name_is_not_outdated() -> None:
    record = {**PARIS, "outdated_answers": ["Paris", "Versailles"]}
    score = generation_score("paris", record)
    assert score["alias_em"] == 1.0 and score["outdated_rate"] == 0.0


def test_fuzzy_matching_is_token_set_ratio_of_seventy() -> None:
    assert fuzzy_score("abcdefghij", ["abcdefgxyz"]) == pytest.approx(70.0)
    assert fuzzy_match("abcdefghij", ["abcdefgxyz"])
    assert fuzzy_score("abcdefghijk", ["abcdefghxyzw"]) == pytest.approx(69.565, abs=1e-3)
    assert not fuzzy_match("abcdefghijk", ["abcdefghxyzw"])
    assert fuzzy_match("Scholz, Olaf", ["Olaf Scholz"])  # word order and punctuation
    assert fuzzy_match("the chancellor is Olaf Scholz", ["Olaf Scholz"])  # a subset scores 100
    assert not fuzzy_match("", ["Olaf Scholz"]) and not fuzzy_match("Scholz", ["The"])


def test_fuzzy_does_not_count_an_outdated_answer_as_correct() -> None:
    record = {**MERKEL, "answers": ["Manchester United F.C."], "answer_labels": []}
    record["outdated_answers"] = ["Manchester City F.C."]
    assert fuzzy_match("Manchester City F.C.", record["answers"])  # the words overlap
    score = generation_score("Manchester City F.C.", record)
    assert score["fuzzy"] == 0.0 and score["outdated_rate"] == 1.0


@pytest.mark.parametrize(
    "said",
    ["unknown", "Unknown.", "I don't know", "I DO NOT KNOW!", "I’m not sure", "", " ", "No answer"],
)
def test_abstentions_are_unknown(said: str) -> None:
    assert is_unknown(said)
    assert generation_score(said, PARIS)["unknown_rate"] == 1.0


@pytest.mark.parametrize("said", ["Unknown Soldier", "None", "Paris", "I know"])
def test_answers_are_not_unknown(said: str) -> None:
    assert not is_unknown(said)


@pytest.mark.parametrize(
    ("said", "expected"),
    [
        ("B", "B"),
        ("b", "B"),
        ("(B)", "B"),
        ("(b)", "B"),
        ("B.", "B"),
        ("B)", "B"),
        ("B:", "B"),
        (" B. Paris", "B"),
        ("(B) Paris", "B"),
        ("B) Paris", "B"),
        ("a house", None),
        ("A.Smith", None),
        ("Paris", None),
        ("BB", None),
    ],
)
def test_option_letters(said: str, expected: str | None) -> None:
    assert chosen_letter(said) == expected


def test_options_chosen_by_letter_or_text() -> None:
    options = PARIS["options"]
    assert chosen_option("paris.", options) == 1 and chosen_option("B", options) == 1
    assert chosen_option("E", options) is None  # past the four options
    assert chosen_option("Bordeaux", options) is None
    assert chosen_option("x", ["X.", "x"]) is None  # two options read the same


def test_multiple_choice_scores() -> None:
    assert mc_score("(C)", MERKEL)["mc_accuracy"] == 1.0
    assert mc_score("Olaf Scholz", MERKEL)["mc_accuracy"] == 1.0
    outdated = mc_score("A", MERKEL)
    assert (outdated["mc_accuracy"], outdated["outdated_rate"]) == (0.0, 1.0)
    assert mc_score("B", MERKEL)["unknown_rate"] == 1.0
    assert mc_score("banana", MERKEL)["invalid_rate"] == 1.0
    untyped = {k: v for k, v in MERKEL.items() if k != "choice_types"}
    assert mc_score("A", untyped)["outdated_rate"] == 1.0  # told by the outdated answers
    assert mc_score("B", untyped)["unknown_rate"] == 1.0
    report = score_predictions([MERKEL, PARIS], {"Q183-P6": "C", "Q142-P36": "A"}, task="mc")
    assert report["overall"]["mc_accuracy"] == 0.5


@pytest.mark.parametrize(
    ("said", "value"),
    [
        ("True", True),
        ("yes", True),
        ("Yes, it is.", True),
        ("FALSE.", False),
        ("No", False),
        ("no idea", None),
        ("nope", None),
        ("maybe", None),
    ],
)
def test_true_false(said: str, value: bool | None) -> None:
    assert truth_value(said) is value


def test_true_false_scores() -> None:
    assert tf_score("yes", MERKEL)["tf_accuracy"] == 1.0
    assert tf_score("Yes", PARIS)["tf_accuracy"] == 0.0
    assert tf_score("I don't know", PARIS)["unknown_rate"] == 1.0
    assert tf_score("perhaps", PARIS)["invalid_rate"] == 1.0
    with pytest.raises(InputError, match="tf_label"):
        tf_score("yes", TOKYO)


def test_missing_and_unmatched_predictions_are_counted() -> None:
    report = score_predictions(RECORDS, {"Q142-P36": "Paris", "Q999-P1": "x"})
    assert report["overall"]["n"] == 1 and report["records"] == 3
    assert report["missing"] == 2 and report["missing_ids"] == ["Q17-P36", "Q183-P6"]
    assert report["unmatched"] == 1 and report["unmatched_ids"] == ["Q999-P1"]
    empty = score_predictions(RECORDS, {})
    assert empty["overall"] == {"n": 0} and empty["by_level"] == {}


def test_wrong_uses_are_refused() -> None:
    with pytest.raises(UsageError, match="unknown task"):
        score_predictions(RECORDS, {}, task="essay")  # type: ignore[arg-type]
    with pytest.raises(UsageError, match="is a list"):
        score_predictions(RECORDS, {"Q142-P36": ["Paris", "Lyon"]})
    with pytest.raises(InputError, match="twice"):
        score_predictions([PARIS, PARIS], {})
    with pytest.raises(InputError, match="'answers' must be a list of strings"):
        score_predictions([{**PARIS, "answers": "Paris"}], {"Q142-P36": "Paris"})


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "predictions.jsonl"
    path.write_text(text, encoding="utf-8")
    return path


def test_the_predictions_reader(tmp_path: Path) -> None:
    text = '{"id": "a", "prediction": "Paris", "model": "m"}\n\n'
    text += '{"id": "b", "prediction": ["x", "y"]}\n'
    assert read_predictions(write(tmp_path, text)) == {"a": "Paris", "b": ["x", "y"]}


@pytest.mark.parametrize(
    ("third", "says"),
    [
        ('{"id": "c", "prediction": "x"', "not JSON"),
        ('{"id": 3, "prediction": "x"}', "Expected `str`"),
        ('{"id": "c"}', "prediction"),
        ('["c", "x"]', "Expected `object`"),
        ('{"id": "a", "prediction": "y"}', "already predicted on line 1"),
    ],
)
def test_a_malformed_line_is_named(tmp_path: Path, third: str, says: str) -> None:
    path = write(
        tmp_path, f'{{"id": "a", "prediction": "x"}}\n{{"id": "b", "prediction": ""}}\n{third}\n'
    )
    with pytest.raises(InputError) as caught:
        read_predictions(path)
    message = str(caught.value)
    assert message.startswith(f"{path}:3: ") and says in message and "\n" not in message


def test_a_missing_predictions_file_is_named(tmp_path: Path) -> None:
    with pytest.raises(InputError, match=r"nothing\.jsonl: cannot read"):
        read_predictions(tmp_path / "nothing.jsonl")


WORDS = [
    "Paris",
    "the",
    "Berlin",
    "Schröder",
    "Schroder",
    "Jean-Paul",
    "O'Brien",
    "A",
    ".",
    "é",
    "x",
]
ANSWER = st.lists(st.sampled_from(WORDS), max_size=4).map(" ".join)


@settings(max_examples=400)
@given(st.one_of(st.text(), ANSWER))
def test_normalise_is_idempotent(text: str) -> None:
    assert normalise(normalise(text)) == normalise(text)


@settings(max_examples=300)
@given(st.lists(ANSWER, min_size=1, max_size=3), st.lists(ANSWER, max_size=3), st.data())
def test_scores_agree_with_each_other(
    answers: list[str], outdated: list[str], data: st.DataObject
) -> None:
    prediction = data.draw(st.one_of(st.sampled_from(answers + outdated), ANSWER, st.text()))
    record: dict[str, Any] = {"answers": answers, "outdated_answers": outdated}
    score = generation_score(prediction, record)
    assert 0.0 <= score["f1"] <= 1.0
    if score["em"] or score["alias_em"]:
        assert score["f1"] == 1.0
    correct = score["em"] or score["alias_em"] or score["fuzzy"]
    assert not (correct and score["outdated_rate"])
    assert token_f1(prediction, answers) == score["f1"]
    assert bool(score["alias_em"]) == matches_any(prediction, answers)


POOLS = {"2010": ["FC Utrecht"], "2011": ["FC Utrecht"], "2012": ["FC Groningen", "Groningen"]}


def test_year_categories() -> None:
    assert year_category(["FC Utrecht", "Utrecht FC"], POOLS["2010"]) == "correct"
    assert year_category(["FC Utrecht", "Ajax"], POOLS["2010"]) == "partial_correct"
    assert year_category(["Ajax"], POOLS["2010"]) == "incorrect"


@pytest.mark.parametrize(
    ("categories", "pattern"),
    [
        ("CCC", "known"),
        ("III", "unknown"),
        ("CCI", "cut_off"),
        ("IIC", "cut_off"),
        ("CPP", "cut_off"),
        ("CIC", "partial_known"),
        ("ICI", "partial_known"),
        ("PII", "partial_known"),
        ("P", "partial_known"),
        ("C", "known"),
    ],
)
def test_temporal_patterns(categories: str, pattern: str) -> None:
    names = {"C": "correct", "P": "partial_correct", "I": "incorrect"}
    assert temporal_pattern([names[c] for c in categories]) == pattern  # type: ignore[misc]


def test_a_group_that_keeps_an_earlier_object_is_cut_off() -> None:
    answers = {"2010": ["FC Utrecht"], "2011": ["Utrecht"], "2012": ["FC Utrecht"]}
    result = classify_group(POOLS, answers)
    assert result.pattern == "cut_off"
    last = result.years[-1]
    assert (last.category, last.matched, last.earlier, last.later) == ("incorrect", 0, 1, 0)
    with pytest.raises(InputError, match="no answer for 2011"):
        classify_group(POOLS, {"2010": ["FC Utrecht"]})


def pool_records(subject: str, state: str) -> list[dict[str, Any]]:
    return [
        {"id": f"{subject}-{year}", "subject": subject, "relation": "P54", "year": int(year),
         "answers": pool, "state": state}
        for year, pool in POOLS.items()
    ]  # fmt: skip


def test_score_pools_counts_groups_years_and_missing_items() -> None:
    records = (
        pool_records("Q1", "dynamic") + pool_records("Q2", "dynamic") + pool_records("Q3", "static")
    )
    predictions: dict[str, str | list[str]] = {
        "Q1-2010": "FC Utrecht", "Q1-2011": ["FC Utrecht", "Utrecht"], "Q1-2012": "Groningen",
        "Q2-2010": "Ajax", "Q2-2011": "FC Utrecht", "Q2-2012": ["FC Utrecht", "FC Groningen"],
        "Q3-2010": "FC Utrecht", "elsewhere": "x",
    }  # fmt: skip
    report = score_pools(records, predictions)
    assert report["groups"] == 2 and report["incomplete"] == 1
    assert report["patterns"]["known"] == 1 and report["patterns"]["partial_known"] == 1
    assert report["patterns"]["rates"]["known"] == 0.5
    assert list(report["by_state"]) == ["dynamic"]
    assert report["years"]["2012"] == {
        "correct": 1, "partial_correct": 1, "incorrect": 0, "earlier": 1, "later": 0,
    }  # fmt: skip
    assert report["missing_ids"] == ["Q3-2011", "Q3-2012"] and report["unmatched_ids"] == [
        "elsewhere"
    ]
    assert json.loads(json.dumps(report)) == report


def test_two_properties_sharing_a_relation_label_are_two_groups() -> None:
    records = [
        {**record, "id": f"{pid}-{record['id']}", "pid": pid, "relation": "member of"}
        for pid in ("P54", "P463")
        for record in pool_records("Q1", "dynamic")
    ]
    predictions = {record["id"]: record["answers"][0] for record in records}
    report = score_pools(records, predictions)
    assert report["groups"] == report["patterns"]["known"] == 2


BONN_END = {
    "id": "temporal/timestamp/Q183/P36/q183$dca01d99-4ddf-3773-f17e-1e150e2cedf0/end",
    "kind": "timestamp", "bound": "end", "relation": "capital", "date": "1990-10-02",
    "date_precision": "day", "answers": ["2 October 1990", "1990-10-02"],
    "answer_labels": ["2 October 1990"], "outdated_answers": [],
}  # fmt: skip
"""A record of the export of the real samples: "On which date did Germany's capital stop being
Bonn?" (Wikidata's end is the last day Bonn was the capital)."""


def test_the_end_of_a_fact_is_also_the_day_after_its_last_day() -> None:
    for said in ("2 October 1990", "3 October 1990", "On October 3, 1990."):
        assert generation_score(said, BONN_END)["date_match"] == 1.0, said
    for said in ("4 October 1990", "1 October 1990", "October 1990"):
        assert generation_score(said, BONN_END)["date_match"] == 0.0, said
    start = {**BONN_END, "bound": "start", "date": "1949-11-29"}
    assert generation_score("30 November 1949", start)["date_match"] == 0.0
