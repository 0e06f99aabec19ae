"""The ``updates`` config: AntiLeakBench's knowledge updates after the cutoff (``kg.updates``),
each asked like a ``qa`` record (the wording shared in :mod:`kgdiff.export.records.asked`), with
the first Wikipedia revision that states it as context and distractor documents
(docs/benchmark-export.md#the-updates-config).

May import the shared packages of the export (``inputs``, ``dataset``, ``records``, ``rules``,
``distractors``, ``words``, ``core``, ``relations``, ``scoring``); never another config.
"""
