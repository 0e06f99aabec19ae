"""Benchmark export: what turns classified facts into questions a model is scored on, and
the scoring of a model's answers.

This package sits above the query (:mod:`kgdiff.query`, whose :mod:`~kgdiff.query.classified`
writes classifications with their evidence columns: ``kgdiff classify --out``); nothing below it
imports from here, nor does the plot (docs/architecture.md). :mod:`kgdiff.export.benchmark`
writes a benchmark as a Hugging Face dataset folder (``kgdiff export benchmark``): it builds
each config asked for, writes the folder with its task files and audits it. Inside, each
subpackage imports only from those below it (import-linter's ``export-layers`` contract in
pyproject.toml), and the five configs know nothing of each other:

- ``benchmark`` (a module): the export, the one place that knows every config;
- the configs, one subpackage each: ``qa``, ``multi_hop``, ``updates``, ``temporal``,
  ``pools``; beside them ``audit`` (the quality report of a folder, sharing no rule with the
  records' code) and ``tasks`` (the folder's lm-eval and Inspect task files);
- ``inputs`` (the classified groups and what the configs share, read once) and ``dataset`` (the
  folder's schema, splits, card, writer and reader);
- ``records`` (a record's answers, options and true/false statement);
- ``rules`` (what is asked and what is left out) and ``distractors`` (options of the gold's
  kind);
- ``words`` (labels, aliases and kinds of the values named);
- ``core`` (the request and the configs' results, seeded draws, counts of what was left out);
- ``relations`` (the relation catalogue and its English), ``scoring`` (predictions scored
  against records) and ``rdf`` (snapshots as RDF), which import nothing else of the export.
"""
