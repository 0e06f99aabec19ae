"""The ``temporal`` config: EvolveBench-style questions from the timelines of the classified
groups, in valid time, one split per kind (``timestamp``, ``interval``, ``implicit``,
``unanswerable``): the rows of each kind, their dates, wording, options and abstentions
(docs/benchmark-export.md#the-temporal-config).

May import the shared packages of the export (``inputs``, ``dataset``, ``records``, ``rules``,
``distractors``, ``words``, ``core``, ``relations``, ``scoring``); never another config.
"""
