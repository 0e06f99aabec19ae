"""The task files' scoring is ``kgdiff score``'s: kgdiff_metrics.py
(kgdiff/export/tasks/task_files/) scores a free-text answer with ``kgdiff_portable/``, the copy
of kgdiff/portable/ that write_tasks puts beside it, so every score but ``fuzzy`` is the one
``generation_score`` gives, ``date_match`` and ``number_match`` included, on arbitrary text and
on every generation record of the demo export as lm-eval (its Parquet files through
``datasets``) and Inspect (its JSON lines) read them, with answers that hit and miss their
dates and counts; the files need the standard library alone and work from a copy of the folder
moved elsewhere; lm-eval and Inspect report a real export's ``date_match`` and
``number_match`` as ``kgdiff score`` does; and the lm-eval hooks read the likeliest option."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from collections import Counter
from pathlib import Path
from types import ModuleType
from typing import Any

import datasets  # type: ignore[import-untyped]  # no types
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kgdiff.export.dataset.folder import dataset_splits, read_records, split_path
from kgdiff.export.scoring.report import generation_score
from kgdiff.portable.generation import PARTIAL_METRICS
from tests.answer_forms import WRAPPERS, record_answers
from tests.benchmark_exports import records
from tests.paths import ROOT
from tests.shared_exports import DEMO_EVERY_CONFIG, shared_export
from tests.task_tools import folder_task_module, load_task_module, run_inspect_many, run_lm_eval
from tests.test_task_hooks import RECORD

Reading = tuple[dict[str, Any], dict[str, Any], dict[str, Any]]
"""A record as kgdiff score, lm-eval and Inspect read it."""

OSLO_2013: dict[str, Any] = {
    "id": "pools/Q585/P1082/2013", "answers": ["623966"], "answer_labels": ["623966"],
    "objects": ["+623966|1"], "earlier_objects": [], "later_objects": ["+634463|1"],
    "outdated_answers": [],
}  # fmt: skip
INDEPENDENCE: dict[str, Any] = {
    "id": "qa/Q30/P571", "answers": ["4 July 1776"], "answer_labels": ["4 July 1776"],
    "latest": ["+1776-07-04T00:00:00Z|11|Q1985727"], "outdated": [], "outdated_answers": [],
}  # fmt: skip
BONN_END: dict[str, Any] = {
    "id": "temporal/timestamp/Q183/P36/end", "kind": "timestamp", "bound": "end",
    "date": "1990-10-02", "date_precision": "day", "answers": ["2 October 1990", "1990-10-02"],
    "answer_labels": ["2 October 1990"], "outdated_answers": [],
}  # fmt: skip
SAMPLES = [RECORD, OSLO_2013, INDEPENDENCE, BONN_END]
TEXT = st.text(
    alphabet=st.characters(codec="utf-8", categories=["L", "M", "N", "P", "S", "Z", "Cc", "Cf"]),
    max_size=30,
)
TASK_FILES = ROOT / "kgdiff" / "export" / "tasks" / "task_files"
TOOLS = ("lm_eval", "inspect")


def without_fuzzy(scores: dict[str, float]) -> dict[str, float]:
    """``kgdiff score``'s scores of an answer but ``fuzzy`` (it needs rapidfuzz)."""
    return {key: value for key, value in scores.items() if key != "fuzzy"}


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> ModuleType:
    """The task files' kgdiff_metrics.py, of a folder of one record."""
    return folder_task_module(tmp_path_factory.mktemp("task-metrics"), [RECORD])


STANDALONE = """
import importlib.util, json, sys
assert importlib.util.find_spec("kgdiff") is None
spec = importlib.util.spec_from_file_location("kgdiff_metrics", sys.argv[1])
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
print(json.dumps(module.gen_results(json.loads(sys.argv[3]), [sys.argv[2]])))
"""
"""A Python without site-packages (``-I -S``: no kgdiff, no rapidfuzz) scoring an answer
with the task files' hook."""


@pytest.mark.parametrize(
    ("answer", "record", "metric"),
    [
        ("about 624,000", OSLO_2013, "number_match"),
        ("July 4, 1776", INDEPENDENCE, "date_match"),
        ("3 October 1990", BONN_END, "date_match"),
    ],
)
def test_the_task_files_score_with_the_standard_library_alone(
    folder: ModuleType, answer: str, record: dict[str, Any], metric: str
) -> None:
    command = [sys.executable, "-I", "-S", "-c", STANDALONE, str(folder.__file__), answer]
    done = subprocess.run(
        [*command, json.dumps(record)], capture_output=True, text=True, check=False, timeout=120
    )
    assert done.returncode == 0, done.stderr
    scores = json.loads(done.stdout)
    assert scores == without_fuzzy(generation_score(answer, record))
    assert scores[metric] == 1.0 and scores["em"] == 0.0


def _imported(path: Path) -> set[str]:
    """The top-level packages a module imports (relative imports left out)."""
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


def test_the_shipped_modules_import_the_standard_library_alone() -> None:
    shipped = [*(ROOT / "kgdiff" / "portable").glob("*.py"), TASK_FILES / "kgdiff_metrics.py"]
    assert len(shipped) >= 6
    for path in shipped:
        assert _imported(path) <= sys.stdlib_module_names, path
    assert _imported(TASK_FILES / "kgdiff_tasks.py") - sys.stdlib_module_names == {"inspect_ai"}


@settings(max_examples=300)
@given(st.sampled_from(SAMPLES), st.one_of(TEXT, st.sampled_from(RECORD["outdated_answers"])))
def test_arbitrary_answers_are_scored_as_kgdiff_scores_them(
    folder: ModuleType, record: dict[str, Any], answer: str
) -> None:
    expected = without_fuzzy(generation_score(answer.strip(), record))
    assert folder.gen_results(record, [answer]) == expected


@pytest.fixture(scope="module")
def demo(pristine_demo: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The demo store's export at its default dates, every config and static pool (made once
    per run: the same export of the same store as tests/test_benchmark_hygiene.py's)."""
    return shared_export(tmp_path_factory, pristine_demo, **DEMO_EVERY_CONFIG).out


@pytest.fixture(scope="module")
def readings(demo: Path, tmp_path_factory: pytest.TempPathFactory) -> list[Reading]:
    """Every record of the configs ``kgdiff score`` scores as free text (``multi_hop``'s
    chains have no outdated answers) as it reads them (Parquet through pyarrow), as lm-eval
    does (``datasets.load_dataset("parquet", …)``) and as Inspect's task does (JSON lines,
    the fields it scores in the sample's metadata)."""
    cache = str(tmp_path_factory.mktemp("hf-cache"))
    inspect = load_task_module(demo / "tasks" / "inspect" / "kgdiff_metrics.py")
    found: list[Reading] = []
    for config in ("qa", "updates", "temporal", "pools"):
        for split in dataset_splits(demo, config):
            ours = read_records(demo, config, [split])
            if not ours:
                continue
            files = {split: str(split_path(demo, config, split))}
            theirs = list(
                datasets.load_dataset("parquet", data_files=files, cache_dir=cache)[split]
            )
            lines = records(demo, split, config)
            assert [r["id"] for r in theirs] == [r["id"] for r in lines] == [r["id"] for r in ours]
            metadata = [{name: r.get(name) for name in inspect.SCORED_FIELDS} for r in lines]
            found += zip(ours, theirs, metadata, strict=True)
    return found


@pytest.fixture(scope="module")
def hooks(demo: Path) -> tuple[ModuleType, ModuleType]:
    """The demo export's kgdiff_metrics.py for lm-eval and for Inspect."""
    tasks = demo / "tasks"
    lm_eval, inspect = (load_task_module(tasks / tool / "kgdiff_metrics.py") for tool in TOOLS)
    return lm_eval, inspect


def _check(hooks: tuple[ModuleType, ModuleType], reading: Reading, answer: str) -> dict[str, float]:
    ours, theirs, metadata = reading
    lm_eval, inspect = hooks
    expected = without_fuzzy(generation_score(answer.strip(), ours))
    assert lm_eval.gen_results(theirs, [answer]) == expected, (ours["id"], answer)
    assert inspect.answer_scores(answer.strip(), metadata) == expected, (ours["id"], answer)
    return expected


def test_every_record_of_the_demo_export_is_scored_as_kgdiff_score_scores_it(
    readings: list[Reading], hooks: tuple[ModuleType, ModuleType]
) -> None:
    seen: Counter[tuple[str, float]] = Counter()
    for reading in readings:
        for answer in record_answers(reading[0]):
            scores = _check(hooks, reading, answer)
            seen.update((name, scores[name]) for name in PARTIAL_METRICS if name in scores)
    # both metrics are given, both right and wrong, on many answers
    assert min(seen[(name, value)] for name in PARTIAL_METRICS for value in (0.0, 1.0)) >= 20, seen


@pytest.fixture(scope="module")
def partial(readings: list[Reading]) -> list[Reading]:
    """The readings of the records scored by a partial metric (``date_match``,
    ``number_match``): found once, not again for every example drawn from them."""
    return [r for r in readings if set(generation_score("", r[0])) & set(PARTIAL_METRICS)]


@settings(max_examples=400)
@given(st.data())
def test_answers_near_a_dated_or_counted_record_are_scored_as_kgdiff_scores_them(
    partial: list[Reading], hooks: tuple[ModuleType, ModuleType], data: st.DataObject
) -> None:
    reading = data.draw(st.sampled_from(partial))
    forms = record_answers(reading[0])
    said = data.draw(st.one_of(st.sampled_from(forms), TEXT, st.integers(0, 10**10).map(str)))
    _check(hooks, reading, data.draw(st.sampled_from(WRAPPERS)).format(said))


def test_lm_eval_and_inspect_report_a_real_exports_dates_and_counts(
    demo: Path, tmp_path: Path
) -> None:
    tasks = "kgdiff_pools_gen_dynamic,kgdiff_temporal_gen_timestamp,kgdiff_temporal_gen_interval"
    results = run_lm_eval(demo, tmp_path, tasks, limit=8)
    assert results["kgdiff_pools_gen_dynamic"]["number_match,none"] == 0.0  # the dummy: "lol"
    assert results["kgdiff_temporal_gen_timestamp"]["date_match,none"] == 0.0
    assert results["kgdiff_temporal_gen_interval"]["date_match,none"] == 0.0
    counts = records(demo, "dynamic", "pools")[:5]
    rounded = {
        r["question"]: f"about {round(int(r['answers'][0].replace(',', '')), -3):,}" for r in counts
    }
    dates = records(demo, "timestamp", "temporal")[:5]
    reworded = {r["question"]: r["date"] for r in dates}  # as the record writes it: ISO
    asked = (
        (counts, rounded, "pools", "dynamic", "number_match"),
        (dates, reworded, "temporal", "timestamp", "date_match"),
    )
    runs = [
        (demo, "kgdiff_gen", replies, {"config": config, "split": split})
        for _, replies, config, split, _ in asked
    ]
    for (rows, replies, _, _, metric), report in zip(
        asked, run_inspect_many(tmp_path, runs), strict=True
    ):
        scores = [generation_score(replies[r["question"]], r) for r in rows]
        assert report["metrics"][f"{metric}/mean"] == sum(s[metric] for s in scores) / 5 == 1.0
        assert report["metrics"]["em/mean"] == sum(s["em"] for s in scores) / 5
