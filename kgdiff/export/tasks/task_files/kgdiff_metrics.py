"""The hooks a benchmark folder's lm-eval task files name, over kgdiff's answer matching.

Written by kgdiff into ``tasks/lm_eval/`` and ``tasks/inspect/`` of an exported benchmark,
beside ``kgdiff_portable/``: kgdiff's own scoring modules (``kgdiff.portable``), copied
unchanged, so that an answer is scored with the very code ``kgdiff score`` runs
(docs/scoring.md): ``em``, ``alias_em``, ``f1``, ``outdated_rate`` and ``unknown_rate`` for
every open answer, and ``date_match`` and ``number_match`` for the records that have them
(a date or a duration, a count). Only ``kgdiff score``'s fuzzy match is left out: it needs
rapidfuzz. Both need only the standard library, so the folder works where kgdiff is not
installed.

lm-eval calls the ``*_text``, ``*_target``, ``*_choices`` and ``*_results`` functions with one
record of the split (``doc``) and the model's output for it.
"""

from __future__ import annotations

import hashlib
import importlib
import importlib.util
import string
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from types import ModuleType
from typing import Any

Doc = Mapping[str, Any]
PORTABLE = "kgdiff_portable"
"""The folder of kgdiff's scoring modules, beside this file."""


def portable(name: str) -> ModuleType:
    """The module ``name`` of the :data:`PORTABLE` folder beside this file."""
    # lm-eval imports this file from its path (a `!function` of a task file), so the folder
    # is on no search path: it is imported from its path too, as a package named after where
    # it lies (a second benchmark folder in the same process gets its own).
    folder = Path(__file__).resolve().with_name(PORTABLE)
    package = f"{PORTABLE}_{hashlib.sha256(str(folder).encode()).hexdigest()[:16]}"
    if package not in sys.modules:
        init = folder / "__init__.py"
        spec = importlib.util.spec_from_file_location(
            package, init, submodule_search_locations=[str(folder)]
        )
        if spec is None or spec.loader is None:
            raise ImportError(f"cannot load {init}")
        sys.modules[package] = importlib.util.module_from_spec(spec)
        try:
            spec.loader.exec_module(sys.modules[package])
        except BaseException:
            del sys.modules[package]
            raise
    return importlib.import_module(f"{package}.{name}")


GENERATION = portable("generation")
PARTIAL_METRICS: tuple[str, ...] = GENERATION.PARTIAL_METRICS
"""The scores only some records get (``date_match``, ``number_match``)."""
SCORED_FIELDS: tuple[str, ...] = GENERATION.SCORED_FIELDS
"""The record fields :func:`answer_scores` reads."""


def answer_scores(prediction: str, doc: Doc) -> dict[str, float]:
    """One free-text answer scored as ``kgdiff score`` does (without ``fuzzy``): ``em`` (a
    latest object's label), ``alias_em`` (a label or alias), ``f1``, ``outdated_rate`` (an
    outdated object and no latest one), ``unknown_rate`` (an abstention), and ``date_match``
    and ``number_match`` when the record has them (a key left out otherwise)."""
    scores: dict[str, float] = GENERATION.answer_scores(prediction, doc)
    return scores


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
    """The generated answer (up to the first new line) scored with :func:`answer_scores`.
    A record without ``date_match`` or ``number_match`` leaves the key out: lm-eval averages
    a metric over the records whose results hold it, as ``kgdiff score`` does."""
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
