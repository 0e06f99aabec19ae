"""``kgdiff export audit``: the quality report of an exported benchmark folder.

The audit is written apart from the code that makes the records, and shares none of its rules:
it reads the folder's records back and checks them against what a benchmark author would keep
(docs/benchmark-export.md#the-quality-audit): no question that gives its answer away, no
reformatted or refined value counted as a change, distractors of the gold's kind, distinct
options, answers a model could say, labels instead of bare ids. Each check is a pure function
over one split's records (a polars frame); :mod:`kgdiff.export.audit.run` runs them over a
folder, :mod:`kgdiff.export.audit.report` holds the figures and the hard targets.
"""
