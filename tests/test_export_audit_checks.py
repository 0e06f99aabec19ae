"""Each check of kgdiff export audit on small hand-made record sets: what it catches and what it
lets pass; Hypothesis for the normal forms and the symbol-only test."""

from __future__ import annotations

import unicodedata
from pathlib import Path
from typing import Any

import orjson
import polars as pl
from hypothesis import assume, given
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.audit.coverage import labelled, supported, with_context
from kgdiff.export.audit.dropped import Dropped, dropped
from kgdiff.export.audit.hygiene import (
    duplicate_options,
    unsayable_answers,
    unsayable_options,
    unsayable_outdated,
)
from kgdiff.export.audit.nature import non_substantive
from kgdiff.export.audit.option_kinds import distractor_rows, option_kind_finding, tally
from kgdiff.export.audit.run import audit_export
from kgdiff.export.audit.spelled import spelled_subjects
from kgdiff.export.audit.tautology import tautologies
from kgdiff.export.audit.texts import is_symbol_only, option_form, word_form
from kgdiff.export.audit.value_twins import change_nature, refined, reformatted

TEXTS = pl.List(pl.String)
SCHEMA: dict[str, pl.DataType] = {
    "id": pl.String(),
    "subject": pl.String(),
    "subject_label": pl.String(),
    "pid": pl.String(),
    "kind": pl.String(),
    "change_nature": pl.String(),
    "question": pl.String(),
    "cloze": pl.String(),
    "tf_statement": pl.String(),
    "tf_label": pl.Boolean(),
    "answers": TEXTS,
    "answer_labels": TEXTS,
    "latest": TEXTS,
    "outdated": TEXTS,
    "objects": TEXTS,
    "earlier_objects": TEXTS,
    "later_objects": TEXTS,
    "outdated_answers": TEXTS,
    "options": TEXTS,
    "choice_types": TEXTS,
    "gold": pl.String(),
    "date_precision": pl.String(),
    "duration_unit": pl.String(),
    "context": pl.String(),
    "hop_contexts": TEXTS,
    "supported": pl.Boolean(),
}
CHOICES = ["correct", "noise", "unknown", "noise"]


def qa(**fields: Any) -> dict[str, Any]:
    """A plain qa record about Q1 (Ruritania) whose answer is Q2 (Syldavia), and ``fields``."""
    record: dict[str, Any] = {
        "id": "qa/Q1/P17",
        "subject": "Q1",
        "subject_label": "Ruritania",
        "pid": "P17",
        "question": "Which country is Ruritania in?",
        "cloze": "Ruritania lies in the country of",
        "tf_statement": "Ruritania is in Syldavia.",
        "tf_label": True,
        "answers": ["Syldavia"],
        "answer_labels": ["Syldavia"],
        "latest": ["Q2"],
        "outdated": [],
        "outdated_answers": [],
        "options": ["Syldavia", "Borduria", "I don't know", "Carpania"],
        "choice_types": CHOICES,
        "gold": "A",
    }
    return {**record, **fields}


def frame(*records: dict[str, Any]) -> pl.DataFrame:
    """The records as a split's frame, with the export's column types."""
    names = [name for name in SCHEMA if any(name in record for record in records)]
    rows = [{name: record.get(name) for name in names} for record in records]
    return pl.DataFrame(rows, schema={name: SCHEMA[name] for name in names})


# --- tautologies -----------------------------------------------------------------------


def test_an_answer_in_the_question_is_caught_whatever_its_case() -> None:
    found = tautologies(
        frame(
            qa(question="Which country is Brazil in?", answers=["Brazil"]),
            qa(id="qa/Q3/P17", question="Which country is BRAZIL in?", answers=["brazil"]),
            qa(id="qa/Q4/P17", cloze="The Kingdom of Syldavia lies in", answers=["X", "Syldavia"]),
        )
    )
    assert found is not None and found.count == 3 and found.checked == 3
    assert found.examples[0] == "qa/Q1/P17: Which country is Brazil in? → Brazil"


def test_an_answer_inside_a_longer_word_or_another_case_of_a_short_one_is_not() -> None:
    found = tautologies(
        frame(
            qa(
                question="Which country is the Brazilian Football Confederation in?",
                answers=["Brazil"],
            ),
            qa(id="qa/Q5/P175", question="Who sang Take Us Home?", answers=["US"]),
            qa(id="qa/Q6/P50", question="Who wrote A Modest Proposal?", answers=["A"]),
        )
    )
    assert found is not None and found.count == 0 and found.checked == 3
    caught = tautologies(frame(qa(question="Which country is the US Open in?", answers=["US"])))
    assert caught is not None and caught.count == 1


def test_a_statement_naming_its_subject_as_its_object_is_caught() -> None:
    neutral = {"question": "Which country is the island in?", "cloze": "The island lies in"}
    true = qa(
        **neutral,
        tf_statement="Malta is in Malta.",
        answers=["Malta"],
        options=["Malta", "Italy", "I don't know", "Tunisia"],
    )
    false = qa(
        **neutral,
        id="qa/Q7/P17",
        tf_statement="Malta is in Italy.",
        tf_label=False,
        answers=["Malta"],
        options=["Malta", "Italy", "I don't know", "Tunisia"],
    )
    fine = qa(
        **neutral,
        id="qa/Q8/P17",
        tf_statement="Boston is in United States of America.",
        answers=["United States of America", "America"],
        options=["United States of America", "Russia", "I don't know", "France"],
    )
    found = tautologies(frame(true, false, fine))
    assert found is not None and found.count == 2
    assert [e.split(":")[0] for e in found.examples] == ["qa/Q1/P17", "qa/Q7/P17"]


def test_the_subject_among_its_own_answers_is_caught() -> None:
    found = tautologies(frame(qa(question="Which country is it?", latest=["Q1"])))
    assert found is not None and found.count == 1


def test_an_abstention_item_is_not_looked_at() -> None:
    record = qa(
        question="In 1900, who led the Unknown Party?",
        answers=["Unknown"],
        options=["Borduria", "I don't know", "Syldavia", "Carpania"],
        choice_types=["noise", "unknown", "outdated", "noise"],
        gold="B",
    )
    found = tautologies(frame(record))
    assert found is not None and found.count == 0 and found.checked == 0


def test_a_gold_that_spells_its_subject_is_caught_case_and_accents_aside() -> None:
    website = {"pid": "P856", "question": "At which address is the official website of …?"}
    found = spelled_subjects(
        frame(
            qa(**website, subject_label="Poznań", answer_labels=["http://www.poznan.pl/"]),
            qa(**website, id="qa/Q2/P856", subject_label="Barack Obama",
               answer_labels=["http://www.BarackObama.com/"]),
            qa(**website, id="qa/Q3/P856", subject_label="Cologne",
               answer_labels=["http://www.koeln.de/"]),
            qa(**website, id="qa/Q4/P856", subject_label="U2", answer_labels=["http://u2.com"]),
            qa(id="qa/Q5/P36", subject_label="Mexico", answer_labels=["Mexico City"]),
        )
    )  # fmt: skip
    assert found is not None and found.count == 3 and found.checked == 5
    assert found.examples == [
        "qa/Q1/P17: Poznań → http://www.poznan.pl/",
        "qa/Q2/P856: Barack Obama → http://www.BarackObama.com/",
        "qa/Q5/P36: Mexico → Mexico City",
    ]


def test_a_chain_is_read_for_its_last_hops_subject() -> None:
    chain = {
        "id": "multi_hop/Q1/P36/P131", "subject_label": "Belgium", "question": "…",
        "answer_labels": ["Brussels-Capital Region"],
    }  # fmt: skip
    rows = frame(chain).with_columns(
        pl.Series("hop_subject_labels", [["Belgium", "City of Brussels"]], dtype=TEXTS)
    )
    found = spelled_subjects(rows)
    assert found is not None and found.examples == [
        "multi_hop/Q1/P36/P131: City of Brussels → Brussels-Capital Region"
    ]
    abstention = qa(
        subject_label="Unknown Pleasures", answer_labels=["Unknown"],
        options=["Borduria", "I don't know", "Syldavia", "Carpania"],
        choice_types=["noise", "unknown", "outdated", "noise"], gold="B",
    )  # fmt: skip
    none = spelled_subjects(frame(abstention))
    assert none is not None and none.count == 0 and none.checked == 0


# --- answers and options ---------------------------------------------------------------


def test_symbol_only_and_placeholder_texts_are_caught() -> None:
    records = frame(
        qa(answers=["🇧🇪", "Belgium"]),
        qa(id="qa/Q3/P6", outdated=["<novalue>"]),
        qa(id="qa/Q4/P6", outdated_answers=["…"]),
        qa(id="qa/Q5/P6", options=["Syldavia", "<somevalue>", "I don't know", "—"]),
        qa(id="qa/Q6/P6", answers=["Pāṇini", "C++", "1830", "Ελλάδα", "東京"]),
    )
    assert unsayable_answers(records).examples == ["qa/Q1/P17: 🇧🇪"]  # type: ignore[union-attr]
    outdated = unsayable_outdated(records)
    assert outdated is not None
    assert outdated.examples == ["qa/Q3/P6: <novalue>", "qa/Q4/P6: …"]
    assert unsayable_options(records).examples == ["qa/Q5/P6: <somevalue>"]  # type: ignore[union-attr]


def test_options_of_the_same_text_are_caught() -> None:
    records = frame(
        qa(options=["Paris", "paris ", "I don't know", "Lyon"]),
        qa(id="qa/Q3/P36", options=["Ｐａｒｉｓ", "Paris", "I don't know", "Lyon"]),
        qa(id="qa/Q4/P36", options=["Paris", "Parish", "I don't know", "Pari s"]),
    )
    found = duplicate_options(records)
    assert found is not None and found.count == 2
    assert found.examples == ["qa/Q1/P17: paris twice", "qa/Q3/P36: paris twice"]


# --- distractors of the gold's kind ----------------------------------------------------


def kinds(*records: dict[str, Any]) -> list[bool | None]:
    rows = distractor_rows(frame(*records))
    assert rows is not None
    return rows.get_column("agree").to_list()


YEAR = "+1830-00-00T00:00:00Z|9|Q1985727"
DAY = "+1830-10-04T00:00:00Z|11|Q1985727"
TYPES = ["correct", "noise", "noise", "outdated"]


def test_dates_are_judged_at_the_golds_precision() -> None:
    year = qa(latest=[YEAR], options=["1830", "1835", "October 1830", "1830s"], choice_types=TYPES)
    day = qa(
        latest=[DAY],
        options=["4 October 1830", "5 October 1830", "1830", "1830-10-09"],
        choice_types=TYPES,
    )
    assert kinds(year) == [True, False, False]
    assert kinds(day) == [True, False, True]


def test_numbers_are_judged_by_their_unit() -> None:
    plain = qa(
        latest=["+623966|1"], options=["623966", "837442", "837,442", "837 km"], choice_types=TYPES
    )
    metres = qa(
        latest=["+5|Q11573"], options=["5 metre", "7 metre", "7 kilogram", "7"], choice_types=TYPES
    )
    assert kinds(plain) == [True, True, False]
    assert kinds(metres) == [True, False, False]


def test_the_temporal_configs_dates_and_durations() -> None:
    interval = {"kind": "interval", "duration_unit": "years", "objects": ["Q64"]}
    timestamp = {"kind": "timestamp", "date_precision": "day", "objects": ["Q64"]}
    years = qa(
        **interval, options=["40 years", "38 years", "38 months", "1 year"], choice_types=TYPES
    )
    day = qa(
        **timestamp,
        options=["3 October 1990", "3 October 1995", "1995", "October 1995"],
        choice_types=TYPES,
    )
    assert kinds(years) == [True, False, True]
    assert kinds(day) == [True, False, False]


def test_urls_and_identifiers_by_their_shape() -> None:
    url = qa(
        latest=["https://a.org"],
        options=["https://a.org", "https://b.org", "b.org", "x"],
        choice_types=TYPES,
    )
    isni = qa(
        latest=["0000 0001 2138 0055"],
        options=["0000 0001 2138 0055", "0000 0001 2144 1970", "tt0068646", "0000000121"],
        choice_types=TYPES,
    )
    assert kinds(url) == [True, False, False]
    assert kinds(isni) == [True, False, False]


def test_without_the_store_an_items_words_judge_numbers_only() -> None:
    ordinal = qa(latest=["Q201"], options=["3", "October", "2", "Wednesday"], choice_types=TYPES)
    city = qa(latest=["Q64"], options=["Berlin", "Paris", "October", "3"], choice_types=TYPES)
    assert kinds(ordinal) == [False, True, False]
    assert kinds(city) == [None, None, None]
    found = option_kind_finding(tally(distractor_rows(frame(ordinal, city))))
    assert found is not None and (found.count, found.checked, found.unchecked) == (1, 3, 3)
    assert found.examples[0] == "qa/Q1/P17: gold 3 (item), distractor October"


def write_split(folder: Path, records: list[dict[str, Any]]) -> Path:
    path = folder / "data" / "qa" / "stable.parquet"
    path.parent.mkdir(parents=True)
    frame(*records).write_parquet(path)
    return folder


def test_with_the_store_an_item_is_judged_by_its_classes(
    export_sample_store: Path, tmp_path: Path
) -> None:
    # Q30 (United States of America) and Q64 (Berlin), with the classes the samples give them
    country = qa(
        latest=["Q30"],
        options=["United States of America", "Russia", "Boston", "France"],
        choice_types=TYPES,
    )
    city = qa(
        id="qa/Q183/P36",
        pid="P36",
        latest=["Q64"],
        options=["Berlin", "Paris", "France", "Boston"],
        choice_types=TYPES,
    )
    unknown = qa(
        id="qa/Q9/P36",
        pid="P36",
        latest=["Q999999999"],
        options=["Nowhere", "Paris", "No Such Place Here", "Boston"],
        choice_types=TYPES,
    )
    folder = write_split(tmp_path / "bench", [country, city, unknown])
    report = audit_export(folder, kgdiff.open(export_sample_store))
    found = report.splits[0].findings["option_kind"]
    wrong = [example.split("distractor ")[1] for example in found.examples]
    # Boston is a city, not a country; France a country, not a city; a gold the store does
    # not know is judged by its property: Paris and Boston are capitals (P36) somewhere, the
    # other words name no item of the store
    assert wrong == ["Boston", "France", "No Such Place Here"]
    assert (found.count, found.checked, found.unchecked) == (6, 9, 0)
    assert any("not the one the export was made from" in note for note in report.notes) is False
    assert report.store["export_fingerprint"] is None  # the folder has no kgdiff_build.json


def test_a_gold_the_store_does_not_hold_takes_its_relations_object_class(
    export_sample_store: Path, tmp_path: Path
) -> None:
    """A real temporal record of the demo: Bill Clinton's spouse, Q6294, is no item of the
    samples, so no class of hers is known: the catalogue expects a spouse (P26) to be a person
    (Q5), and a person's distractors are people of the gold's role and, for a spouse, sex
    (kgdiff.export.audit.person_kinds), which the samples do not give: no distractor is of
    her kind, neither the city nor the singer nor the founder of Wikipedia. Belgium's head of
    government of 1827, Q950958, is no item of the samples either: a politician (most heads of
    government are) is of his kind, a journalist or a city is not."""
    premier = qa(
        id="qa/Q31/P6",
        subject="Q31",
        pid="P6",
        latest=["Q950958"],
        options=["Q950958", "François Hollande", "Boston", "Julian Assange"],
        choice_types=TYPES,
    )
    spouse = qa(
        id="qa/Q1124/P26",
        subject="Q1124",
        pid="P26",
        latest=["Q6294"],
        options=["Hillary Rodham Clinton", "Bob Dylan", "Boston", "Jimmy Wales"],
        choice_types=TYPES,
    )
    store = kgdiff.open(export_sample_store)
    shipped = write_split(tmp_path / "shipped", [spouse, premier])
    found = audit_export(shipped, store).splits[0].findings["option_kind"]
    wrong = [example.split("distractor ")[1] for example in found.examples]
    assert wrong == ["Bob Dylan", "Boston", "Jimmy Wales", "Boston", "Julian Assange"]
    # an export made with a catalogue of its own, which the audit does not have
    custom = write_split(tmp_path / "custom", [spouse])
    build = {"parameters": {"relations": "mine.toml"}, "configs": {}}
    (custom / "kgdiff_build.json").write_text(orjson.dumps(build).decode(), encoding="utf-8")
    report = audit_export(custom, store)
    found = report.splits[0].findings["option_kind"]
    assert (found.count, found.checked) == (0, 3)
    assert any("mine.toml" in note for note in report.notes)


# --- reformatted and refined -----------------------------------------------------------


def test_the_audits_own_reading_of_a_change() -> None:
    assert change_nature(["https://wikiquote.org"], ["http://www.wikiquote.org/"]) == "reformatted"
    assert change_nature(["0000 0001 2138 0055"], ["0000000121380055"]) == "reformatted"
    assert change_nature(["en:Liberty"], ["en:liberty "]) == "reformatted"
    assert change_nature(["+10|Q11573"], ["+10.0|Q11573"]) == "reformatted"
    assert change_nature([YEAR], [DAY]) == "refined"
    assert (
        change_nature(["+1960-00-00T00:00:00Z|8|Q1985727"], [YEAR.replace("1830", "1965")])
        == "refined"
    )
    assert change_nature(["48.1,11.5,Q2"], ["48.137,11.523,Q2"]) == "refined"
    # substantive: another item, another year, a coarser date, a point moved, one of two kept
    assert change_nature(["Q1"], ["Q2"]) == "substantive"
    assert change_nature([YEAR], ["+1831-10-04T00:00:00Z|11|Q1985727"]) == "substantive"
    assert change_nature([DAY], [YEAR]) == "substantive"
    assert change_nature(["48.1,11.5,Q2"], ["48.2,11.575,Q2"]) == "substantive"
    assert change_nature(["https://a.org", "Q5"], ["http://a.org/"]) == "substantive"


def test_non_substantive_records_by_their_field_or_their_values() -> None:
    records = frame(
        qa(
            id="qa/Q1/P856",
            outdated=["https://wikiquote.org"],
            latest=["http://www.wikiquote.org/"],
        ),
        qa(id="qa/Q2/P571", outdated=[YEAR], latest=[DAY]),
        qa(id="qa/Q3/P6", outdated=["Q5"], latest=["Q6"], change_nature="refined"),
        qa(id="qa/Q4/P6", outdated=["Q5"], latest=["Q6"], change_nature="substantive"),
    )
    found = non_substantive(records, "qa")
    assert found is not None
    assert found["reformatted"].examples == [
        "qa/Q1/P856: https://wikiquote.org → http://www.wikiquote.org/"
    ]
    assert found["refined"].examples == [f"qa/Q2/P571: {YEAR} → {DAY}", "qa/Q3/P6: change_nature"]
    pools = frame(
        {
            "id": "pools/Q1/P571/2014",
            "objects": [DAY],
            "earlier_objects": [YEAR],
            "later_objects": [],
        }
    )
    assert non_substantive(pools, "pools")["refined"].count == 1  # type: ignore[index]
    assert non_substantive(frame({"id": "x", "objects": ["Q1"]}), "temporal") is None


# --- what was left out, labels, contexts -----------------------------------------------


def test_the_left_out_counts_are_read_from_any_shape() -> None:
    today = {"configs": {"qa": {"left_out": {"no_answer_text": 3, "too_few_options": 1}}}}
    per_split = {"configs": {"temporal": {"left_out": {"implicit": {"no_answer_text": 2}}}}}
    in_splits = {"configs": {"qa": {"splits": {"evolved": {"left_out": {"tautology": 4}}}}}}
    assert dropped(today, "qa", "evolved").total == 4  # type: ignore[union-attr]
    assert dropped(today, "qa", "evolved").scope == "config"  # type: ignore[union-attr]
    assert dropped(per_split, "temporal", "implicit").counts == {"no_answer_text": 2}  # type: ignore[union-attr]
    assert dropped(in_splits, "qa", "evolved").scope == "split"  # type: ignore[union-attr]
    assert dropped(in_splits, "qa", "stable") is None
    assert dropped({}, "qa", "stable") is None
    assert dropped({"configs": {"qa": {"left_out": ["odd"]}}}, "qa", "stable") is None


def test_the_per_split_dropped_counts_come_before_the_configs_left_out() -> None:
    """The shape every config writes since issue 35: ``dropped: {split: {reason: n}}`` beside
    the config's ``left_out`` (and a split with nothing left out counted as such)."""
    build = {
        "configs": {
            "qa": {
                "left_out": {"tautology": 2, "no_answer_text": 5},
                "dropped": {"stable": {"tautology": 2, "no_answer_text": 4}, "evolved": {}},
            },
            "updates": {"left_out": {"refined": 0}, "dropped": {"updates": {}}},
        }
    }
    stable = dropped(build, "qa", "stable")
    assert stable == Dropped({"no_answer_text": 4, "tautology": 2}, "split")
    assert dropped(build, "qa", "evolved") == Dropped({}, "split")
    assert dropped(build, "updates", "updates") == Dropped({}, "split")
    assert dropped(build, "qa", "uncharted") == Dropped(
        {"no_answer_text": 5, "tautology": 2}, "config"
    )


def test_labels_contexts_and_supported() -> None:
    records = frame(
        qa(context="Syldavia is a kingdom.", supported=True),
        qa(id="qa/Q3/P17", subject="Q3", subject_label="Q3", supported=False),
        qa(id="qa/Q4/P17", subject="Q4", answer_labels=["Q77"], context=" "),
    )
    assert labelled(records).examples == ["qa/Q3/P17: Q3", "qa/Q4/P17: Ruritania"]  # type: ignore[union-attr]
    assert with_context(records).count == 1  # type: ignore[union-attr]
    assert supported(records, None).count == 1  # type: ignore[union-attr]
    groups = pl.DataFrame({"subject": ["Q1"], "pid": ["P17"], "supported": [True]})
    bare = records.drop("supported")
    assert supported(bare, groups).count == 1  # type: ignore[union-attr]
    assert supported(bare, None) is None


# --- Hypothesis: the normal forms ------------------------------------------------------


def apply(expression: Any, texts: list[str]) -> list[Any]:
    return pl.DataFrame({"t": texts}).select(expression(pl.col("t"))).to_series().to_list()


@given(st.text(max_size=30))
def test_the_option_form_is_idempotent_and_blind_to_case_and_spacing(text: str) -> None:
    once = apply(option_form, [text])[0]
    assert apply(option_form, [once]) == [once]
    assert apply(option_form, [f"  {text.upper()}\t"])[0] == apply(option_form, [text.upper()])[0]


@given(st.text(max_size=20), st.text(alphabet=st.characters(categories=["L", "N"]), min_size=1))
def test_a_text_with_a_letter_or_digit_is_never_symbol_only(around: str, word: str) -> None:
    assert apply(is_symbol_only, [around + word + around]) == [False]


SYMBOLS = st.lists(
    st.sampled_from(["🇧🇪", "🇷🇺", "😀", "👍🏽", "…", "—", "-", "!", "?", "·", "•", " ", "★", "♪"]),
    max_size=6,
)


@given(SYMBOLS, st.text(alphabet=st.characters(categories=["P", "S", "Z"]), max_size=6))
def test_emoji_and_punctuation_alone_are_symbol_only(emoji: list[str], marks: str) -> None:
    text = "".join(emoji) + marks
    assert not any(unicodedata.category(c)[0] in "LN" for c in text)  # the premise
    assert apply(is_symbol_only, [text]) == [True]


@given(st.text(alphabet=st.characters(categories=["Ll", "Lu", "Lo"]), min_size=2, max_size=12))
def test_a_word_is_found_between_separators_not_inside_another(word: str) -> None:
    # letters that stay letters once normalised (NFKC makes some, e.g. Hangul fillers, others)
    assume(unicodedata.normalize("NFKC", word) == word and word.isalpha())
    hay, needle, glued = apply(word_form, [f"Which, {word}? (yes)", word, f"{word}ish"])
    assert needle in hay
    assert needle not in glued


URLS = st.builds(
    lambda scheme, www, host, path, slash: f"{scheme}://{www}{host}{path}{slash}",
    st.sampled_from(["http", "https"]),
    st.sampled_from(["", "www.", "WWW."]),
    st.from_regex(r"[a-z]{1,8}\.(org|com|de)", fullmatch=True),
    st.from_regex(r"(/[A-Za-z0-9]{1,6}){0,2}", fullmatch=True),
    st.sampled_from(["", "/"]),
)


@given(URLS, URLS)
def test_reformatting_is_symmetric(first: str, second: str) -> None:
    assert reformatted(first, second) == reformatted(second, first)
    assert not reformatted(first, first)


@given(URLS)
def test_a_url_respelled_is_reformatted_and_never_refined(url: str) -> None:
    other = (
        url.replace("https://", "http://")
        if url.startswith("https")
        else url.replace("http://", "https://")
    )
    assert reformatted(url, other + "/") or url.endswith("/")
    assert not refined(url, other)


TIMES = st.builds(
    lambda year, month, day, precision: (
        f"+{year}-{month if precision >= 10 else 0:02d}-{day if precision >= 11 else 0:02d}"
        f"T00:00:00Z|{precision}|Q1985727"
    ),
    st.integers(1, 2100),
    st.integers(1, 12),
    st.integers(1, 28),
    st.integers(6, 11),
)


@given(TIMES, TIMES)
def test_refinement_goes_one_way(first: str, second: str) -> None:
    assert not (refined(first, second) and refined(second, first))
    assert not reformatted(first, second)


def test_records_without_options_in_several_chunks() -> None:
    # chains have no options; a frame read from several row groups is several chunks
    chain = {
        "id": "multi_hop/Q1/P17/P36",
        "question": "Which city is the capital of Brazil?",
        "answers": ["Brasília"],
        "latest": ["Q2"],
        "subject": "Q1",
        "subject_label": "Rio",
    }
    chunks = pl.concat([frame(chain), frame({**chain, "answers": ["Brazil"]})], rechunk=False)
    assert chunks.n_chunks() == 2
    found = tautologies(chunks)
    assert found is not None and (found.count, found.checked) == (1, 2)
