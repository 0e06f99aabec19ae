"""What every part of an export builds on: what an export is asked for and what each config
produced (:mod:`~kgdiff.export.core.benchmark_model`), randomness drawn from the seed and a
record's id alone, one record or a whole column at a time (:mod:`~kgdiff.export.core.seeded`,
:mod:`~kgdiff.export.core.column_draws`), the counts of what was left out, per split and
reason (:mod:`~kgdiff.export.core.drop_counts`), and a query's rows handed from DuckDB to polars
through a file (:mod:`~kgdiff.export.core.file_frames`).

The bottom of the export's shared packages: imports nothing of :mod:`kgdiff.export`.
"""
