"""Name matching for evidence: escaped, case-folded, on word boundaries; weak names flagged.

AntiLeakBench matched aliases with an unescaped, case-sensitive regular expression; the
cases below are the ones that gets wrong."""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from kgdiff.evidence.mentions import Name, NameMatcher, first_mentions, make_name


def matcher(*names: tuple[str, str, str, bool]) -> NameMatcher:
    """A matcher over (entity, text, kind, demonym) names."""
    built = [make_name(*spec) for spec in names]
    return NameMatcher(name for name in built if name is not None)


def found(text: str, *names: tuple[str, str, str, bool]) -> list[str]:
    """The entities whose names occur in ``text``."""
    return [name.entity for name in matcher(*names).names_in(text)]


def test_names_are_literal_text_not_patterns() -> None:
    milan = ("Q1543", "A.C. Milan", "label", False)
    assert found("He joined A.C. Milan in 1995.", milan) == ["Q1543"]
    assert found("He joined AxC. Milan in 1995.", milan) == []  # an unescaped '.' would match
    cpp = ("Q2407", "C++", "label", False)
    assert found("It is written in C++ and Rust.", cpp) == ["Q2407"]
    assert found("It is written in C and Rust.", cpp) == []
    # an unescaped name with a parenthesis is not even a valid pattern
    assert found("Paris (France) is large.", ("Q90", "Paris (France)", "alias", False)) == ["Q90"]


def test_matching_is_case_folded() -> None:
    strasse = ("Q1", "Straße des 17. Juni", "label", False)
    assert found("the STRASSE DES 17. JUNI runs west", strasse) == ["Q1"]
    assert found("born in ulm, germany", ("Q3012", "Ulm", "label", False)) == ["Q3012"]


def test_matching_respects_word_boundaries() -> None:
    iran = ("Q794", "Iran", "label", False)
    assert found("An Iranian poet.", iran) == []
    assert found("A poet from Iran.", iran) == ["Q794"]
    assert found("(Iran)", iran) == ["Q794"]
    assert found("Zürich-based", ("Q72", "Zürich", "label", False)) == ["Q72"]
    assert found("Zürichsee", ("Q72", "Zürich", "label", False)) == []


def test_overlapping_names_of_different_entities_are_all_found() -> None:
    names = (
        ("Q60", "New York City", "label", False),
        ("Q1384", "New York", "label", False),
        ("Q30", "United States", "alias", False),
    )
    assert found("New York City is in New York, United States.", *names) == [
        "Q60",
        "Q1384",
        "Q30",
    ]


def test_short_names_and_demonyms_are_weak() -> None:
    us = make_name("Q30", "US", "alias", demonym=False)
    american = make_name("Q30", "American", "alias", demonym=True)
    usa = make_name("Q30", "United States", "label", demonym=False)
    assert us is not None and us.weak_reason == "short"
    assert american is not None and american.weak_reason == "demonym"
    assert usa is not None and usa.weak_reason is None
    assert make_name("Q30", "  ", "alias", demonym=False) is None


def test_first_mentions_prefer_a_trusted_name_over_an_earlier_weak_one() -> None:
    names = [
        Name("Q30", "American", "alias", "demonym"),
        Name("Q30", "United States", "label"),
        Name("Q145", "UK", "alias", "short"),
    ]
    sentences = [
        "He is an American writer.",
        "He moved to the UK.",
        "He returned to the United States in 1990.",
        "The United States honoured him.",
    ]
    mentions = first_mentions(sentences, NameMatcher(names))
    assert mentions["Q30"].sentence_index == 2 and not mentions["Q30"].weak
    assert mentions["Q30"].mentions == 3
    assert mentions["Q145"].weak and mentions["Q145"].sentence_index == 1


WORD = st.text(st.characters(categories=("L", "N", "P", "S")), min_size=1, max_size=12)


@settings(max_examples=300)
@given(name=WORD, before=WORD, after=WORD)
def test_a_name_between_spaces_is_always_found(name: str, before: str, after: str) -> None:
    assume(name.strip() == name)
    sentence = f"{before} {name} {after}"
    assert found(sentence, ("Q1", name, "label", False)) == ["Q1"]
    assert found(sentence.upper(), ("Q1", name.lower(), "label", False)) == ["Q1"] or (
        sentence.upper().casefold() != sentence.casefold()  # e.g. 'ß'.upper() == 'SS'
    )


@settings(max_examples=300)
@given(
    name=st.text(st.characters(categories=("L", "N")), min_size=1, max_size=8),
    glue=st.sampled_from("abc1é"),
)
def test_a_name_inside_a_longer_word_is_never_found(name: str, glue: str) -> None:
    sentence = f"x {glue}{name}{glue} y"
    assume(not re.search(rf"(?<!\w){re.escape(name.casefold())}(?!\w)", sentence.casefold()))
    assert found(sentence, ("Q1", name, "label", False)) == []
