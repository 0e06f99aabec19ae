"""Benchmark export: what turns classified facts into questions a model is scored on, and
the scoring of a model's answers.

This package sits above the temporal core (:mod:`kgdiff.temporal`) and the evidence; nothing
below it imports from here. :mod:`kgdiff.export.relations` is the relation catalogue: per
Wikidata property, its label, the type of its objects and the templates of its questions;
:mod:`kgdiff.export.scoring` scores predictions against exported records;
:mod:`kgdiff.export.tasks` writes an exported folder's lm-eval and Inspect task files, and
:mod:`kgdiff.export.dataset_folder` reads the folder's records back.
"""
