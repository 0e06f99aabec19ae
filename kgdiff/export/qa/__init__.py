"""The ``qa`` config: single-hop questions about the classified groups, one split per level
(``stable``, ``evolved``, ``uncharted``), built column by column a batch of groups at a time
(docs/benchmark-export.md#the-qa-config).

May import the shared packages of the export (``inputs``, ``dataset``, ``records``, ``rules``,
``distractors``, ``words``, ``core``, ``relations``, ``scoring``); never another config.
"""
