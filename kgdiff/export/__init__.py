"""Benchmark export: what turns classified facts into questions a model is scored on, and
the scoring of a model's answers.

This package sits above the query (:mod:`kgdiff.query`, whose :mod:`~kgdiff.query.classified`
writes classifications with their evidence columns: ``kgdiff classify --out``); nothing below it
imports from here, nor does the plot (docs/architecture.md). :mod:`kgdiff.export.relations` is
the relation catalogue: per Wikidata property, its label, the type of its objects and the
templates of its questions; :mod:`kgdiff.export.benchmark` writes a benchmark as a Hugging Face
dataset folder (``kgdiff export benchmark``: the configs in ``qa_config``, ``multi_hop_config``
and ``updates_config``); :mod:`kgdiff.export.tasks` writes the folder's lm-eval and Inspect task
files, :mod:`kgdiff.export.dataset_folder` reads its records back, and
:mod:`kgdiff.export.scoring` scores predictions against them.
"""
