"""A small benchmark folder in the exporter's layout, made from the real sample snapshots.

``write_qa_folder(store, out)`` classifies the bundled Wikidata samples at a cutoff and writes
a few groups of each level as ``qa`` records (``data/qa/<split>.parquet`` and ``.jsonl``,
``README.md``, ``kgdiff_build.json``). The records' answers, outdated answers and aliases are
the store's; the questions, options and statements are simple and deterministic (the
exporter's own wording and option choice are not what these tests check).
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import polars as pl

import kgdiff
from kgdiff.errors import UnknownIdError

INIT, CUTOFF, CURRENT = "2013-12-21", "2014-10-11", "2014-12-31"
SPLITS = ("stable", "evolved", "uncharted")
PER_SPLIT = 8
QID = re.compile(r"Q[1-9][0-9]*")


def _chosen(groups: pl.DataFrame, level: str) -> pl.DataFrame:
    """The first groups of a level whose latest objects have labels (evolved ones with an
    outdated object, so that outdated answers occur)."""
    rows = groups.filter(pl.col("level") == level, pl.col("latest").list.len() > 0)
    unnamed = pl.col("latest_labels").list.eval(pl.element().str.contains(r"^Q\d+$")).list.any()
    rows = rows.filter(unnamed.not_())
    if level == "evolved":
        rows = rows.filter(pl.col("outdated_labels").list.len() > 0)
    return rows.head(PER_SPLIT)


def _aliases(kg: Any, qids: list[str]) -> list[str]:
    found: list[str] = []
    for qid in qids:
        if not QID.fullmatch(qid):  # a literal value (a string, a date): no aliases
            continue
        try:
            entity = kg.entity(qid)
        except UnknownIdError:  # a subset snapshot need not hold the object itself
            continue
        found += [alias for aliases in entity["aliases"].to_list() for alias in aliases or []]
    return found


def _options(row: dict[str, Any], noise: str, position: int) -> tuple[list[str], list[str]]:
    picks = [(row["latest_labels"][0], "correct")]
    if row["outdated_labels"]:
        picks.append((row["outdated_labels"][0], "outdated"))
    picks += [("Unknown", "unknown"), (noise, "noise")]
    shift = position % len(picks)
    picks = picks[shift:] + picks[:shift]
    return [text for text, _ in picks], [kind for _, kind in picks]


def qa_record(kg: Any, row: dict[str, Any], noise: str, position: int) -> dict[str, Any]:
    """One ``qa`` record of a classified group."""
    subject, relation = row["subject_label"], row["pid_label"]
    labels = list(row["latest_labels"])
    options, kinds = _options(row, noise, position)
    true = position % 2 == 0
    return {
        "id": f"{row['subject']}-{row['pid']}",
        "subject": row["subject"],
        "subject_label": subject,
        "pid": row["pid"],
        "relation": relation,
        "level": row["level"],
        "change_kind": row["change_kind"],
        "question": f"What is the {relation} of {subject}?",
        "cloze": f"The {relation} of {subject} is",
        "answers": labels + _aliases(kg, list(row["latest"])),
        "answer_labels": labels,
        "latest": list(row["latest"]),
        "outdated": list(row["outdated"]),
        "all_answers": list(row["all_answers"]),
        "outdated_answers": list(row["outdated_labels"]) + _aliases(kg, list(row["outdated"])),
        "mc_question": f"What is the {relation} of {subject}?",
        "options": options,
        "choice_types": kinds,
        "gold": "ABCD"[kinds.index("correct")],
        "tf_statement": f"The {relation} of {subject} is {labels[0] if true else noise}.",
        "tf_label": true,
        "context": None,
        "context_page": None,
        "context_revision": None,
        "context_sentence": None,
        "popularity": None,
        "init": INIT,
        "cutoff": CUTOFF,
        "current": CURRENT,
    }


def private_store(store: Path, folder: Path) -> Path:
    """A copy of a shared store in ``folder``: classifying builds into the store, and other
    tests expect the shared store to have no build yet."""
    copy = folder / "store"
    shutil.copytree(store, copy)
    return copy


def write_qa_folder(store: Path, out: Path) -> dict[str, list[dict[str, Any]]]:
    """Write the folder; the records of each split."""
    kg = kgdiff.open(store)
    groups = kg.classify(CUTOFF, init=INIT, current=CURRENT)
    splits: dict[str, list[dict[str, Any]]] = {}
    for level in SPLITS:
        rows = _chosen(groups, level).to_dicts()
        # another group's answer as the noise option: a real label of the same kind of thing
        noises = [r["latest_labels"][0] for r in rows[1:] + rows[:1]]
        splits[level] = [
            qa_record(kg, row, noise if noise != row["latest_labels"][0] else "Atlantis", i)
            for i, (row, noise) in enumerate(zip(rows, noises, strict=True))
        ]
    folder = out / "data" / "qa"
    folder.mkdir(parents=True)
    for split, records in splits.items():
        frame = pl.DataFrame(records, infer_schema_length=None)
        frame.write_parquet(folder / f"{split}.parquet")
        frame.write_ndjson(folder / f"{split}.jsonl")
    _write_card(out, splits)
    return splits


def _write_card(out: Path, splits: dict[str, list[dict[str, Any]]]) -> None:
    files = "\n".join(
        f"      - split: {split}\n        path: data/qa/{split}.parquet" for split in splits
    )
    card = f"---\nconfigs:\n  - config_name: qa\n    data_files:\n{files}\n---\n# test\n"
    (out / "README.md").write_text(card)
    build = {
        "init": INIT,
        "cutoff": CUTOFF,
        "current": CURRENT,
        "configs": {"qa": {split: len(records) for split, records in splits.items()}},
    }
    (out / "kgdiff_build.json").write_text(json.dumps(build, indent=2) + "\n")
