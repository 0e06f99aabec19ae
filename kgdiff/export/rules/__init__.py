"""What is asked and what is left out (docs/benchmark-export.md#what-is-left-out): which subjects
an export asks about (:mod:`~kgdiff.export.rules.salience`), questions that give their answer
away (:mod:`~kgdiff.export.rules.tautology`, :mod:`~kgdiff.export.rules.subject_echo`), answers
that did not exist yet (:mod:`~kgdiff.export.rules.existence`), subjects that no longer exist
(:mod:`~kgdiff.export.rules.subject_state`), the year a count is asked in
(:mod:`~kgdiff.export.rules.series_years`).

May import ``words``, ``core``, ``relations`` and ``scoring``; never a config.
"""
