"""The ``multi_hop`` config: chains of two or three hops valid at the cutoff (``kg.chains``),
each asked as one question composed from its relations' templates, with every hop's own
question and context (docs/benchmark-export.md#the-multi_hop-config).

May import the shared packages of the export (``inputs``, ``dataset``, ``records``, ``rules``,
``distractors``, ``words``, ``core``, ``relations``, ``scoring``); never another config.
"""
