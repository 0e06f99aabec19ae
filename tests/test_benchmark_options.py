"""The option builder and the seeded choices of the benchmark export, by property: the gold
letter is uniform over the places, distractors never read as an answer, a seed fixes
everything and another seed only reorders."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.options import UNKNOWN_OPTION, OptionInputs, build_choices
from kgdiff.export.qa_config import balance_truth
from kgdiff.export.qa_records import QaItem
from kgdiff.export.seeded import fixed_rng, record_rng
from kgdiff.export.text_match import normalise
from kgdiff.export.value_text import time_texts, value_texts

WORDS = st.text(alphabet="abcdeéXYZ -'.", min_size=1, max_size=12).filter(
    lambda text: normalise(text) != ""
)


def variants(texts: list[str]) -> st.SearchStrategy[str]:
    """A text of ``texts`` written differently (case, punctuation), or a new one."""
    if not texts:
        return WORDS
    spelled = st.sampled_from(texts).map(lambda t: f" {t.upper()}.")
    return st.one_of(WORDS, spelled, st.sampled_from(texts))


@st.composite
def option_inputs(draw: st.DrawFn) -> OptionInputs:
    latest = draw(st.lists(WORDS, min_size=1, max_size=3))
    outdated = draw(st.lists(WORDS, max_size=3))
    noise = draw(st.lists(variants([*latest, *outdated]), max_size=12))
    return OptionInputs(latest[0], latest, outdated, outdated[:2], noise)


@settings(max_examples=400, deadline=None)
@given(option_inputs(), st.integers(0, 2**32), st.integers(2, 6))
def test_no_distractor_reads_as_a_latest_or_outdated_answer(
    inputs: OptionInputs, seed: int, size: int
) -> None:
    choices = build_choices(inputs, random.Random(seed), size)
    if choices is None:
        return
    answers = {normalise(text) for text in [*inputs.latest, *inputs.outdated]}
    assert len(choices.options) == size
    assert len({normalise(option) for option in choices.options}) == size
    for option, kind in zip(choices.options, choices.choice_types, strict=True):
        if kind == "noise":
            assert normalise(option) not in answers
    gold = ord(choices.gold) - ord("A")
    assert choices.options[gold] == inputs.correct and choices.choice_types[gold] == "correct"


@settings(max_examples=300, deadline=None)
@given(option_inputs(), st.integers(0, 2**32))
def test_the_outdated_and_unknown_options_are_there_when_they_can_be(
    inputs: OptionInputs, seed: int
) -> None:
    choices = build_choices(inputs, random.Random(seed), 4)
    latest = {normalise(text) for text in [*inputs.latest, UNKNOWN_OPTION]}
    usable = [t for t in inputs.outdated_labels if normalise(t) not in latest]
    if choices is None:
        return
    assert ("outdated" in choices.choice_types) == bool(usable)
    assert choices.choice_types.count("unknown") == 1


@settings(max_examples=300, deadline=None)
@given(option_inputs(), st.text(max_size=8), st.integers(0, 2**32), st.integers(0, 2**32))
def test_a_seed_fixes_the_options_and_another_only_reorders_them(
    inputs: OptionInputs, key: str, seed: int, other: int
) -> None:
    listed = OptionInputs(
        inputs.correct,
        inputs.latest,
        inputs.outdated,
        inputs.outdated_labels,
        list(inputs.noise),
    )
    first = build_choices(listed, record_rng(seed, key, "options"))
    again = build_choices(listed, record_rng(seed, key, "options"))
    moved = build_choices(listed, record_rng(other, key, "options"))
    assert first == again
    if first is None or moved is None:
        assert first == moved
        return
    assert Counter(zip(first.options, first.choice_types, strict=True)) == Counter(
        zip(moved.options, moved.choice_types, strict=True)
    )


def test_the_gold_letter_is_uniform_over_the_places() -> None:
    inputs = OptionInputs("Paris", ["Paris"], ["Lyon"], ["Lyon"], ["Nice", "Lille", "Metz"])
    for size in (3, 4, 5):
        counts = Counter(
            build_choices(inputs, record_rng(11, f"qa/Q{n}/P36", "options"), size).gold  # type: ignore[union-attr]
            for n in range(6000)
        )
        expected = 6000 / size
        chi_square = sum((counts[chr(65 + i)] - expected) ** 2 / expected for i in range(size))
        # the 0.999 quantile of chi-square with size - 1 degrees of freedom
        assert chi_square < {3: 13.82, 4: 16.27, 5: 18.47}[size], counts


def test_different_seeds_move_the_gold_letter() -> None:
    inputs = OptionInputs("Paris", ["Paris"], ["Lyon"], ["Lyon"], ["Nice", "Lille"])
    golds = {build_choices(inputs, record_rng(s, "qa/Q90/P36", "options")).gold for s in range(40)}  # type: ignore[union-attr]
    assert golds == {"A", "B", "C", "D"}


def test_seeded_generators_do_not_depend_on_the_order_they_are_asked_in() -> None:
    ahead = [record_rng(5, key, "tf").random() for key in ("a", "b", "c")]
    behind = [record_rng(5, key, "tf").random() for key in ("c", "b", "a")]
    assert ahead == behind[::-1]
    assert fixed_rng("a", "noise").random() == fixed_rng("a", "noise").random()


def test_too_few_distinct_options_give_none() -> None:
    inputs = OptionInputs("Paris", ["Paris", "City of Light"], [], [], ["paris", "PARIS!"])
    assert build_choices(inputs, random.Random(1), 4) is None
    assert build_choices(inputs, random.Random(1), 2) is not None


def item(key: str, label: bool, other: str | None) -> QaItem:
    return QaItem({"id": key, "tf_label": label, "tf_statement": f"{key} {label}"}, other)


def test_a_split_whose_labels_agree_gets_one_swapped() -> None:
    same = [item(f"qa/Q{n}/P1", True, f"false {n}") for n in range(5)]
    swapped = balance_truth(same, seed=3)
    assert Counter(i.record["tf_label"] for i in swapped) == Counter({True: 4, False: 1})
    changed = next(i for i in swapped if not i.record["tf_label"])
    assert changed.record["tf_statement"].startswith("false ")
    assert balance_truth(same[:1], seed=3) == same[:1]
    stuck = [item(f"qa/Q{n}/P1", True, None) for n in range(3)]
    assert balance_truth(stuck, seed=3) == stuck


def test_values_render_in_words() -> None:
    assert time_texts("+1887-07-26T00:00:00Z|11|Q1985727") == ["26 July 1887", "1887-07-26"]
    assert time_texts("+1630-00-00T00:00:00Z|9|Q1985727") == ["1630"]
    assert time_texts("+1880-00-00T00:00:00Z|8|Q1985727") == ["1880s"]
    assert time_texts("+1801-00-00T00:00:00Z|7|Q1985727") == ["19th century"]
    assert time_texts("-0753-00-00T00:00:00Z|9|Q1985727") == ["753 BCE"]
    units = {"Q11573": "metre"}.get
    assert value_texts("+132608|1", units) == ["132608"]
    assert value_texts("+5.5|Q11573", units) == ["5.5 metre"]
    assert value_texts("zh-hans:中华人民共和国", units) == ["中华人民共和国"]
    assert value_texts("http://www.belgium.be", units) == ["http://www.belgium.be"]
    assert value_texts("42.357777777778,-71.061666666667,Q2", units) == ["42.3578, -71.0617"]
    assert value_texts("<novalue>", units) == [] and value_texts("Q404", units) == []
