"""Scoring a model's predictions against a benchmark's records (docs/scoring.md): answer
normalisation and string matches (:mod:`~kgdiff.export.scoring.text_match`), option letters and
true/false (:mod:`~kgdiff.export.scoring.choices`), dates and durations
(:mod:`~kgdiff.export.scoring.date_match`), the predictions' reader
(:mod:`~kgdiff.export.scoring.predictions`), the report per level and relation
(:mod:`~kgdiff.export.scoring.report`), and ChroKnowBench's categories for the ``pools`` config
(:mod:`~kgdiff.export.scoring.chrono`, :mod:`~kgdiff.export.scoring.pools`).

Imports nothing else of :mod:`kgdiff.export`: the records' rules normalise texts as scoring
does by importing it.
"""
