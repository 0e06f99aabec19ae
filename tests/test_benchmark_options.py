"""The rule that picks a record's options, by property: distractors never read as an answer,
the outdated and unknown options are there when they can be; and the true/false balance of a
split built one by one. (The order of the options and the gold letter's uniformity are tested
where they are made, column by column: tests/test_frame_records.py, test_column_draws.py.)"""

from __future__ import annotations

from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.core.seeded import fixed_rng
from kgdiff.export.dataset.splits import balance_truth
from kgdiff.export.records.items import QaItem
from kgdiff.export.records.options import UNKNOWN_OPTION, OptionInputs, chosen_options
from kgdiff.export.scoring.text_match import normalise
from kgdiff.valuetext import time_texts, value_texts

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


@settings(max_examples=400)
@given(option_inputs(), st.integers(2, 6))
def test_no_distractor_reads_as_a_latest_or_outdated_answer(
    inputs: OptionInputs, size: int
) -> None:
    others = chosen_options(inputs, size)
    if others is None:
        return
    answers = {normalise(text) for text in [*inputs.latest, *inputs.outdated]}
    assert len(others) == size - 1
    shown = [inputs.correct, *(text for text, _ in others)]
    assert len({normalise(option) for option in shown}) == size
    for option, kind in others:
        assert kind != "noise" or normalise(option) not in answers


@settings(max_examples=300)
@given(option_inputs())
def test_the_outdated_and_unknown_options_are_there_when_they_can_be(
    inputs: OptionInputs,
) -> None:
    others = chosen_options(inputs, 4)
    latest = {normalise(text) for text in [*inputs.latest, UNKNOWN_OPTION]}
    usable = [t for t in inputs.outdated_labels if normalise(t) not in latest]
    if others is None:
        return
    kinds = [kind for _, kind in others]
    assert ("outdated" in kinds) == bool(usable)
    assert kinds.count("unknown") == 1


def test_too_few_distinct_options_give_none() -> None:
    inputs = OptionInputs("Paris", ["Paris", "City of Light"], [], [], ["paris", "PARIS!"])
    assert chosen_options(inputs, 4) is None
    assert chosen_options(inputs, 2) == [(UNKNOWN_OPTION, "unknown")]


def test_seeded_generators_do_not_depend_on_the_order_they_are_asked_in() -> None:
    ahead = [fixed_rng(key, "documents").random() for key in ("a", "b", "c")]
    behind = [fixed_rng(key, "documents").random() for key in ("c", "b", "a")]
    assert ahead == behind[::-1]


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
    # Jesus's date of death in the demo's samples: "30" alone read as a number
    assert time_texts("+0030-00-00T00:00:00Z|9|Q1985727") == ["30 CE", "30", "AD 30"]
    assert time_texts("+0476-09-04T00:00:00Z|11|Q1985727") == [
        "4 September 476 CE", "4 September 476", "0476-09-04"
    ]  # fmt: skip
    units = {"Q11573": "metre"}.get
    assert value_texts("+132608|1", units) == ["132,608", "132608"]
    assert value_texts("+5.5|Q11573", units) == ["5.5 metre"]
    assert value_texts("zh-hans:中华人民共和国", units) == ["中华人民共和国"]
    assert value_texts("http://www.belgium.be", units) == ["http://www.belgium.be"]
    assert value_texts("42.357777777778,-71.061666666667,Q2", units) == ["42.3578, -71.0617"]
    assert value_texts("<novalue>", units) == [] and value_texts("Q404", units) == []
