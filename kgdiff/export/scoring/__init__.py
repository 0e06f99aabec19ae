"""Scoring a model's predictions against a benchmark's records (docs/scoring.md): the fuzzy
match over answer normalisation (:mod:`~kgdiff.export.scoring.text_match`), option letters and
true/false (:mod:`~kgdiff.export.scoring.choices`), the predictions' reader
(:mod:`~kgdiff.export.scoring.predictions`), the report per level and relation
(:mod:`~kgdiff.export.scoring.report`), and ChroKnowBench's categories for the ``pools`` config
(:mod:`~kgdiff.export.scoring.chrono`, :mod:`~kgdiff.export.scoring.pools`). A free-text
answer's other scores, dates and durations, and counts are :mod:`kgdiff.portable`'s (standard
library only: a benchmark folder's task files score with the same modules).

Imports nothing else of :mod:`kgdiff.export`: the records' rules normalise texts as scoring
does by importing it.
"""
