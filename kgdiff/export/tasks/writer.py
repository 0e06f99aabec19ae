"""Task files for an exported benchmark folder: lm-evaluation-harness and Inspect.

:func:`write_tasks` writes ``DIR/tasks/lm_eval/`` (one YAML task per config, form and split, a
group per config and form, a group ``kgdiff`` of them all, ``kgdiff_metrics.py`` and
``kgdiff_portable/``), ``DIR/tasks/inspect/`` (``kgdiff_tasks.py`` and the same
``kgdiff_metrics.py`` and ``kgdiff_portable/``) and ``DIR/tasks/README.md`` (how to run them).
``kgdiff_portable/`` is :mod:`kgdiff.portable` copied unchanged: the task files score answers
with kgdiff's own code. The files read the folder's own data and import nothing from kgdiff
(docs/benchmark-tasks.md).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from kgdiff.errors import InputError
from kgdiff.export.dataset.folder import dataset_splits, parquet_schema, split_path
from kgdiff.export.tasks.forms import (
    CONFIG_FORMS,
    Form,
    group_document,
    group_name,
    task_document,
    task_name,
)
from kgdiff.export.tasks.yaml_writer import render

TEMPLATES = "kgdiff.export.tasks.task_files"
GUIDE = "README.md"
LM_EVAL_FILES = ("kgdiff_metrics.py",)
INSPECT_FILES = ("kgdiff_metrics.py", "kgdiff_tasks.py")
TOP_GROUP = "kgdiff"
PORTABLE = "kgdiff.portable"
PORTABLE_FOLDER = "kgdiff_portable"
"""Where the task files find :mod:`kgdiff.portable` (``kgdiff_metrics.PORTABLE``)."""


@dataclass(frozen=True)
class Plan:
    """The task files of one (config, form): the splits that have records."""

    config: str
    form: Form
    splits: list[str]


def write_tasks(dataset_dir: Path, configs: list[str]) -> list[Path]:
    """Write the lm-eval and Inspect task files of ``configs`` into ``dataset_dir/tasks/``
    and return their paths. Configs without forms in :data:`CONFIG_FORMS` get none; empty
    splits get no lm-eval task. Task files an earlier run left there are replaced. A split
    without a JSON lines mirror, or without a field a form reads, is an
    :class:`~kgdiff.errors.InputError` naming the file."""
    plans = [plan for config in configs for plan in _plans(dataset_dir, config)]
    if not plans:
        return []
    lm_eval = dataset_dir / "tasks" / "lm_eval"
    inspect = dataset_dir / "tasks" / "inspect"
    for folder in (lm_eval, inspect):
        folder.mkdir(parents=True, exist_ok=True)
        for old in [*folder.glob("kgdiff*.yaml"), *folder.glob("kgdiff*.py")]:
            old.unlink()
        shutil.rmtree(folder / PORTABLE_FOLDER, ignore_errors=True)
    written = [path for plan in plans for path in _write_plan(lm_eval, plan)]
    written.append(_write_top_group(lm_eval, plans))
    written += [_copy_template(name, lm_eval) for name in LM_EVAL_FILES]
    written += [_copy_template(name, inspect) for name in INSPECT_FILES]
    written += [*_copy_portable(lm_eval), *_copy_portable(inspect)]
    written.append(_copy_template(GUIDE, dataset_dir / "tasks"))
    return sorted(written)


def _plans(dataset_dir: Path, config: str) -> list[Plan]:
    forms = CONFIG_FORMS.get(config, ())
    if not forms:
        return []
    filled: list[str] = []
    for split in dataset_splits(dataset_dir, config):
        path = split_path(dataset_dir, config, split)
        split_path(dataset_dir, config, split, ".jsonl")  # Inspect reads the mirror
        columns, rows = parquet_schema(path)
        for form in forms:
            missing = [name for name in form.fields if name not in columns]
            if missing:
                raise InputError(
                    f"{path}: no {', '.join(missing)} column; the {form.name} tasks of the "
                    f"{config} config read {', '.join(form.fields)}"
                )
        if rows:
            filled.append(split)
    return [Plan(config, form, filled) for form in forms if filled]


def _write_plan(folder: Path, plan: Plan) -> list[Path]:
    written = []
    for split in plan.splits:
        path = folder / f"{task_name(plan.config, plan.form, split)}.yaml"
        comments = [
            f"kgdiff benchmark, config {plan.config}, split {split}: {plan.form.title}.",
            "Run lm_eval from the dataset folder: data_files are relative to it.",
        ]
        path.write_text(render(task_document(plan.config, plan.form, split), comments))
        written.append(path)
    path = folder / f"{group_name(plan.config, plan.form)}.yaml"
    comments = [f"kgdiff benchmark, config {plan.config}: {plan.form.title}, every split."]
    path.write_text(render(group_document(plan.config, plan.form, plan.splits), comments))
    return [*written, path]


def _write_top_group(folder: Path, plans: list[Plan]) -> Path:
    path = folder / f"{TOP_GROUP}.yaml"
    document = {"group": TOP_GROUP, "task": [group_name(p.config, p.form) for p in plans]}
    path.write_text(render(document, ["kgdiff benchmark: every task of this folder."]))
    return path


def _copy_template(name: str, folder: Path) -> Path:
    path = folder / name
    path.write_bytes(resources.files(TEMPLATES).joinpath(name).read_bytes())
    return path


def _copy_portable(folder: Path) -> list[Path]:
    """Copy the modules of :mod:`kgdiff.portable` into ``folder/kgdiff_portable/``."""
    target = folder / PORTABLE_FOLDER
    target.mkdir()
    modules = [item for item in resources.files(PORTABLE).iterdir() if item.name.endswith(".py")]
    written = []
    for module in sorted(modules, key=lambda item: item.name):
        path = target / module.name
        path.write_bytes(module.read_bytes())
        written.append(path)
    return written
