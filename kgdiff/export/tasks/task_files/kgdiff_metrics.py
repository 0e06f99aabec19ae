"""kgdiff's answer matching for a benchmark folder, and the hooks its lm-eval task files name.

Written by kgdiff into ``tasks/lm_eval/`` and ``tasks/inspect/`` of an exported benchmark; it
needs only the standard library, so the folder works where kgdiff is not installed. The
matching is kgdiff's own (``kgdiff score`` and docs/scoring.md): a prediction and a gold
string are compared once both are normalised (Unicode NFKC, case folded, accents of Latin,
Greek and Cyrillic letters dropped, apostrophes dropped, other punctuation a word break, the
articles a/an/the dropped). ``kgdiff score`` also gives the fuzzy match, which needs rapidfuzz
and is left out here.

lm-eval calls the ``*_text``, ``*_target``, ``*_choices`` and ``*_results`` functions with one
record of the split (``doc``) and the model's output for it.
"""

from __future__ import annotations

import re
import string
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

Doc = Mapping[str, Any]

ARTICLES = frozenset({"a", "an", "the"})
UNKNOWN_PHRASES = (
    "unknown",
    "i don't know",
    "i do not know",
    "don't know",
    "i'm not sure",
    "not sure",
    "no answer",
    "no idea",
    "i have no idea",
    "cannot answer",
    "i cannot answer",
    "can't answer",
    "not known",
    "unanswerable",
    "not applicable",
)
"""Whole answers that abstain (compared normalised; "Unknown Soldier" is an answer)."""

_APOSTROPHES = frozenset("'\u2019\u2018`\u00b4\u02bc")
_COMBINING_DIACRITICS = re.compile("[\u0300-\u036f]")


def normalise(text: str) -> str:
    """``text`` as an answer is compared: folded, without accents, punctuation or articles."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = _COMBINING_DIACRITICS.sub("", unicodedata.normalize("NFKD", text))
    text = unicodedata.normalize("NFKC", text).casefold()
    kept = []
    for char in text:
        category = unicodedata.category(char)
        if char in _APOSTROPHES or category == "Cf":
            continue
        kept.append(" " if category[0] == "P" or category == "Cc" else char)
    return " ".join(word for word in "".join(kept).split() if word not in ARTICLES)


def matches_any(prediction: str, golds: Iterable[str]) -> bool:
    """Whether ``prediction`` equals one of ``golds`` once both are normalised (a gold string
    that normalises to nothing never matches)."""
    form = normalise(prediction)
    return bool(form) and form in {normalise(gold) for gold in golds}


def token_f1(prediction: str, golds: Iterable[str]) -> float:
    """The best token F1 of the normalised prediction against one of ``golds``."""
    predicted = Counter(normalise(prediction).split())
    best = 0.0
    for gold in golds:
        expected = Counter(normalise(gold).split())
        common = sum((predicted & expected).values())
        if common:
            precision = common / sum(predicted.values())
            recall = common / sum(expected.values())
            best = max(best, 2 * precision * recall / (precision + recall))
    return best


_UNKNOWN_FORMS = frozenset(normalise(phrase) for phrase in UNKNOWN_PHRASES)


def is_unknown(prediction: str) -> bool:
    """Whether the prediction abstains: nothing once normalised, or an "I don't know"."""
    form = normalise(prediction)
    return not form or form in _UNKNOWN_FORMS


def answer_scores(prediction: str, doc: Doc) -> dict[str, float]:
    """One free-text answer scored as ``kgdiff score`` does (without ``fuzzy``): ``em`` (a
    latest object's label), ``alias_em`` (a label or alias), ``f1``, ``outdated_rate`` (an
    outdated object and no latest one) and ``unknown_rate`` (an abstention)."""
    answers = list(doc["answers"])
    labels = list(doc.get("answer_labels") or answers)
    latest = matches_any(prediction, [*answers, *labels])
    outdated = not latest and matches_any(prediction, doc.get("outdated_answers") or [])
    return {
        "em": float(matches_any(prediction, labels)),
        "alias_em": float(latest),
        "f1": token_f1(prediction, [*answers, *labels]),
        "outdated_rate": float(outdated),
        "unknown_rate": float(is_unknown(prediction)),
    }


def option_letters(count: int) -> list[str]:
    """The letters of ``count`` options: A, B, …"""
    return list(string.ascii_uppercase[:count])


def option_lines(question: str, options: Sequence[str]) -> str:
    """A multiple-choice prompt: the question, then one lettered line per option."""
    letters = option_letters(len(options))
    lines = [f"{letter}. {option}" for letter, option in zip(letters, options, strict=True)]
    return "\n".join([question, *lines])


# --- lm-eval: open question, answered in free text --------------------------------------


def gen_text(doc: Doc) -> str:
    """The prompt of an open question."""
    return f"Question: {doc['question']}\nAnswer:"


def gen_target(doc: Doc) -> str:
    """The reference answer lm-eval logs: the first latest object's label."""
    labels = doc.get("answer_labels") or doc["answers"]
    return str(labels[0]) if labels else ""


def gen_results(doc: Doc, results: Sequence[str]) -> dict[str, float]:
    """The generated answer (up to the first new line) scored with :func:`answer_scores`."""
    return answer_scores(results[0].strip(), doc)


# --- lm-eval: a multi-hop chain's open question ---------------------------------------------

chain_text = gen_text
chain_target = gen_target


def chain_results(doc: Doc, results: Sequence[str]) -> dict[str, float]:
    """The generated answer scored as :func:`gen_results`, without ``outdated_rate``: a
    chain is valid at one date and has no outdated answers."""
    scores = gen_results(doc, results)
    del scores["outdated_rate"]
    return scores


# --- lm-eval: multiple choice, the option letter with the highest likelihood -----------------


def mc_text(doc: Doc) -> str:
    """The question with its lettered options, then "Answer:" (``question``, not
    ``mc_question``: that one already holds the options, lettered, and an instruction)."""
    return option_lines(str(doc["question"]), doc["options"]) + "\nAnswer:"


def mc_choices(doc: Doc) -> list[str]:
    """The option letters the model chooses from."""
    return option_letters(len(doc["options"]))


def mc_target(doc: Doc) -> int:
    """The index of the gold letter."""
    return option_letters(len(doc["options"])).index(str(doc["gold"]).strip().upper())


def mc_results(doc: Doc, results: Sequence[tuple[float, bool]]) -> dict[str, float]:
    """``mc_accuracy``, and whether the chosen option is the outdated object
    (``outdated_rate``) or "Unknown" (``unknown_rate``); the choice is the likeliest letter."""
    likelihoods = [result[0] for result in results]
    chosen = likelihoods.index(max(likelihoods))
    kind = list(doc.get("choice_types") or [])[chosen : chosen + 1]
    return {
        "mc_accuracy": float(chosen == mc_target(doc)),
        "outdated_rate": float(kind == ["outdated"]),
        "unknown_rate": float(kind == ["unknown"]),
    }


# --- lm-eval: true or false -----------------------------------------------------------------


def tf_text(doc: Doc) -> str:
    """The statement, asked as true or false."""
    return f"True or false? {doc['tf_statement']}\nAnswer:"


def tf_choices(doc: Doc) -> list[str]:
    """The two answers."""
    return ["True", "False"]


def tf_target(doc: Doc) -> int:
    """0 when the statement is true, 1 when false."""
    return 0 if doc["tf_label"] else 1


def tf_results(doc: Doc, results: Sequence[tuple[float, bool]]) -> dict[str, float]:
    """``tf_accuracy``: whether the likelier answer is the right one."""
    true_ll, false_ll = results[0][0], results[1][0]
    return {"tf_accuracy": float((true_ll > false_ll) == bool(doc["tf_label"]))}
