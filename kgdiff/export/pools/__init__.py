"""The ``pools`` config: ChroKnowBench's shape, per (subject, property) group the yearly object
pools (``kg.pools``), the group's state and per year a generation, a multiple-choice and a
true/false item, split by state (``dynamic``, ``static``; the static groups sampled by
``--pools-static``) (docs/benchmark-export.md#the-pools-config). Its scoring is
:mod:`kgdiff.export.scoring.pools`.

May import the shared packages of the export (``inputs``, ``dataset``, ``records``, ``rules``,
``distractors``, ``words``, ``core``, ``relations``, ``scoring``); never another config.
"""
