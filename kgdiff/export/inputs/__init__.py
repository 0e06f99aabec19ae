"""What an export reads once and every config shares: the classified groups
(:mod:`~kgdiff.export.inputs.groups`), the words, subjects' facts and distractor tiers of all
configs (:mod:`~kgdiff.export.inputs.shared_naming`), the Wikipedia sentences and popularity
records carry (:mod:`~kgdiff.export.inputs.contexts`), and DuckDB reads run ahead in the
background (:mod:`~kgdiff.export.inputs.read_ahead`).

May import ``records``, ``rules``, ``distractors``, ``words``, ``core``, ``relations`` and
``scoring``; never a config.
"""
