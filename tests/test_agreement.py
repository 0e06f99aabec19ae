"""Verb agreement with a plural subject (docs/relations.md#english): which subjects take a
plural verb ("the Pennine Alps are", "the Netherlands is"), the plural form of every template
of the shipped catalogue, and the two ways of rendering (one record, a frame) agreeing."""

from __future__ import annotations

import re

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.multi_hop.records import composed
from kgdiff.export.relations.agreement import base_form, plural_subject, plural_template
from kgdiff.export.relations.catalogue import shipped_catalogue
from kgdiff.export.relations.columns import rendered
from kgdiff.export.relations.templates import ALL_FIELDS
from kgdiff.export.temporal.wording import interval_texts

MOUNTAIN_RANGE, WORLD_HERITAGE = "Q46831", "Q9259"
STATE, SOVEREIGN_STATE, COUNTRY, CAPITAL = "Q7275", "Q3624078", "Q6256", "Q5119"
SINGULAR_VERB = re.compile(
    r"(?<!\bof )(?<!\bas )(?<!\bat )(?<!\bin )(?<!\bby )"
    r"\{subject\} (is|was|has|does|lies|[a-z]{2,}[^su\W]s)\b"
)
"""A verb in the singular right after ``{subject}``, where ``{subject}`` is no preposition's
object ("The head of government of {subject} is": the head is the verb's subject)."""
SINGULAR_AUXILIARY = re.compile(r"\b(is|was|has|does) \{subject\}")


@pytest.mark.parametrize(
    ("phrase", "classes"),
    [
        ("the Pennine Alps", [MOUNTAIN_RANGE]),  # the demo's (Q1270)
        ("the Dolomites", ["Q1061151", WORLD_HERITAGE, MOUNTAIN_RANGE]),  # Q1283
        ("the Falkland Islands", ["Q46395"]),  # British Overseas Territory
        ("the Turks and Caicos Islands", []),
        ("The Beatles", ["Q215380"]),  # a musical group, its label's own article
    ],
)
def test_a_plural_name_said_with_the_takes_a_plural_verb(phrase: str, classes: list[str]) -> None:
    assert plural_subject(phrase, classes)


@pytest.mark.parametrize(
    ("phrase", "classes"),
    [
        ("the Netherlands", ["Q15304003", "Q1763527", STATE]),  # the demo's (Q55)
        ("the Maldives", [SOVEREIGN_STATE, "Q112099", COUNTRY]),  # Q826
        ("the Solomon Islands", ["Q202686", STATE, "Q112099"]),  # Q685
        ("the United Arab Emirates", [SOVEREIGN_STATE]),  # Q878
        ("the United States of America", [SOVEREIGN_STATE, COUNTRY]),
        ("the Philippines", [SOVEREIGN_STATE]),
        ("the City of Brussels", [CAPITAL, "Q493522", "Q15273785", "Q1549591"]),  # Q239
        ("the Ganges", ["Q4022"]),  # a river
        ("the Tigris", []),
        ("the Higgs boson", []),
        ("the London School of Economics", []),
        ("The Sunday Times", ["Q11032"]),  # a newspaper
        ("Athens", []),  # no "the": a plural-looking name is one place
        ("Los Angeles", []),
        ("Wales", []),
        (None, []),
    ],
)
def test_a_country_a_city_or_a_name_without_the_takes_a_singular_verb(
    phrase: str | None, classes: list[str]
) -> None:
    assert not plural_subject(phrase, classes)


def test_verbs_take_their_base_form() -> None:
    pairs = {"is": "are", "was": "were", "has": "have", "does": "do", "lies": "lie",
             "plays": "play", "coaches": "coach", "belongs": "belong", "competes": "compete",
             "carries": "carry", "as": "as", "among": "among", "administratively":
             "administratively", "affiliated": "affiliated"}  # fmt: skip
    assert {verb: base_form(verb) for verb in pairs} == pairs


def _templates() -> list[tuple[str, str, str]]:
    catalogue = shipped_catalogue()
    return [
        (relation.pid, kind, template)
        for relation in catalogue
        for kind in ALL_FIELDS
        if (template := getattr(relation.templates, kind)) is not None
    ]


def test_every_templates_plural_form_agrees_with_its_subject() -> None:
    left = [
        (pid, kind, plural_template(template))
        for pid, kind, template in _templates()
        if SINGULAR_VERB.search(plural_template(template))
        or SINGULAR_AUXILIARY.search(plural_template(template))
    ]
    assert left == []
    changed = sum(plural_template(t) != t for _pid, _kind, t in _templates())
    assert changed > 150  # most templates name their subject as the sentence's subject


def test_a_subject_that_is_no_sentences_subject_leaves_its_verb_alone() -> None:
    p1308 = shipped_catalogue()["P1308"].templates
    assert plural_template(p1308.cloze) == "The person serving as {subject} is"
    # "its" is the organization's, not the subject's, where the subject is no agent
    p463 = shipped_catalogue()["P463"].templates
    assert plural_template(p463.statement) == "{object} counts {subject} among its members."


def test_a_plural_subject_reads_right_in_every_kind() -> None:
    catalogue = shipped_catalogue()
    p17, p115 = catalogue["P17"], catalogue["P115"]
    alps = "the Pennine Alps"
    assert p17.question(alps, plural=True) == "Which sovereign state are the Pennine Alps in?"
    assert p17.cloze(alps, plural=True) == "The Pennine Alps lie in the sovereign state of"
    assert p17.statement(alps, "Italy", plural=True) == (
        "The Pennine Alps are in the sovereign state of Italy."
    )
    assert p17.question(alps, past=True, plural=True) == (
        "Which sovereign state were the Pennine Alps in?"
    )
    assert p17.question_at(alps, 2013, plural=True) == (
        "In 2013, which sovereign state were the Pennine Alps in?"
    )
    assert p17.statement_at(alps, "Italy", 2013, plural=True) == (
        "In 2013, the Pennine Alps were in the sovereign state of Italy."
    )
    assert p115.question("the Blue Jays", plural=True) == (
        "Where do the Blue Jays play their home games?"
    )
    assert p17.question("the Netherlands") == "Which sovereign state is the Netherlands in?"


def test_a_chain_from_a_plural_subject_asks_its_first_hop_in_the_plural() -> None:
    catalogue = shipped_catalogue()
    question, _ = composed([catalogue["P17"], catalogue["P36"]], "the Dolomites", plural=True)
    assert question == (
        'Let X1 be the answer to "Which sovereign state are the Dolomites in?". '
        "Which city is the capital of X1?"
    )
    question, _ = composed([catalogue["P36"], catalogue["P17"]], "the Dolomites", plural=True)
    assert question.endswith("Which sovereign state is X1 in?")


PHRASES = st.sampled_from(
    ["the Pennine Alps", "the Netherlands", "Boston", "the Black Sea", "the Dolomites"]
)


@settings(max_examples=100)
@given(st.data())
def test_plural_templates_render_alike_one_record_or_a_frame_at_a_time(
    data: st.DataObject,
) -> None:
    catalogue = shipped_catalogue()
    relations = data.draw(st.lists(st.sampled_from(list(catalogue)), min_size=1, max_size=6))
    rows = [
        (r.pid, data.draw(PHRASES), "1630", data.draw(st.booleans()), data.draw(st.booleans()))
        for r in relations
    ]
    frame = pl.DataFrame(rows, schema=["pid", "subject", "object", "past", "plural"], orient="row")
    subject, obj, past, plural = (
        pl.col("subject"),
        pl.col("object"),
        pl.col("past"),
        pl.col("plural"),
    )
    said = {"subject": subject}
    dated = {"subject": subject, "year": pl.lit("1999")}
    columns = frame.select(
        question=rendered(frame, catalogue, "question", past, plural, **said),
        cloze=rendered(frame, catalogue, "cloze", past, plural, **said),
        statement=rendered(frame, catalogue, "statement", past, plural, object=obj, **said),
        question_at=rendered(frame, catalogue, "question_at", plural=plural, **dated),
        statement_at=rendered(frame, catalogue, "statement_at", plural=plural, object=obj, **dated),
    ).to_dicts()
    for (pid, name, value, was, many), found in zip(rows, columns, strict=True):
        relation = catalogue[pid]
        assert found["question"] == relation.question(name, was, many)
        assert found["cloze"] == relation.cloze(name, was, many)
        assert found["statement"] == relation.statement(name, value, was, many)
        assert found["question_at"] == relation.question_at(name, "1999", many)
        assert found["statement_at"] == relation.statement_at(name, value, "1999", many)


def test_the_temporal_configs_length_questions_agree_with_a_plural_subject() -> None:
    """No real record has one (synthetic rows): the Dolomites as a member of an organization,
    beside a singular subject and a relation said from its holder."""
    frame = pl.DataFrame(
        {
            "pid": ["P463", "P463", "P36"],
            "subject_phrase": ["the Dolomites", "Italy", "the Dolomites"],
            "subject_plural": [True, False, True],
            "_object": ["UNESCO", "NATO", "Bolzano"],
            "relation": ["member of", "member of", "capital"],
            "duration_unit": ["years", "years", "years"],
        }
    )
    said = frame.select(**interval_texts(pl.lit(False))).to_dicts()
    assert [row["question"] for row in said] == [
        "For how many years were the Dolomites a member of UNESCO?",
        "For how many years was Italy a member of NATO?",
        "For how many years was the Dolomites' capital Bolzano?",
    ]
    assert said[0]["_say"] == "The Dolomites were a member of UNESCO for "
