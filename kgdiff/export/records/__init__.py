"""A record's answers, options and true/false statement: the rules for one record
(:mod:`~kgdiff.export.records.options`, :mod:`~kgdiff.export.records.items`, the small splits
built one by one) and the same rules column by column for a frame of records
(:mod:`~kgdiff.export.records.answer_frames`, :mod:`~kgdiff.export.records.option_frames`,
:mod:`~kgdiff.export.records.choice_frames`), the one order every config shows its options
in (:mod:`~kgdiff.export.records.option_order`), and what a ``qa``-like record asks
(:mod:`~kgdiff.export.records.asked`).

May import ``rules``, ``distractors``, ``words``, ``core``, ``relations`` and ``scoring``;
never a config.
"""
