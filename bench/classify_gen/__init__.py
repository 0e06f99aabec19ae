"""Generate a synthetic kgdiff store at scale, for the classification benchmark.

Usage::

    .venv/bin/python -m bench.classify_gen --statements 20000000 --snapshots 3 \\
        --out /work/bench-data/classify/3x20M [--seed 42] [--check]

writes ``OUT/snapshots/snapshot=syn-YYYY-MM-DD/{statements,qualifiers,entities,labels,
sitelinks}.parquet`` and ``manifest.json`` with the columns, types and sort orders of a
real ingest, publishes them with kgdiff's own publish step (so ``OUT/kg.duckdb`` has the
usual views and the ``classify`` macro), and records its parameters in ``OUT/gen.json``
(a re-run with the same parameters reuses the store).

Everything is generated in DuckDB SQL from ``range()`` and hash-based draws, so it is
fast and deterministic for a seed:

- :mod:`~bench.classify_gen.model`: subject kinds, property templates (real pids, value
  types, group sizes, temporal qualifiers), churn and shape rates;
- :mod:`~bench.classify_gen.draws`: the draws and per-transition event terms;
- :mod:`~bench.classify_gen.world`: subjects and (subject, pid) groups, cut to the target;
- :mod:`~bench.classify_gen.statements`: the statements of snapshot k, in sorted order;
- :mod:`~bench.classify_gen.tables`: entities, labels, sitelinks and qualifiers;
- :mod:`~bench.classify_gen.generate`: the whole store; :mod:`~bench.classify_gen.check`:
  figures of a store (shares of qualifiers, ranks, precisions; churn between snapshots).

Shape: subjects of seven kinds (scholarly articles, humans, places, taxa, organisations,
countries, others); statements per subject are skewed (most have a handful, a few
hundreds: citations, diplomatic relations, population series); external identifiers are
drawn from a Zipf-like pool. Careers (P39, P54, P6, P35, P108, P169…) carry P580/P582
intervals with the last one often open, memberships a P580, awards a P585, populations
and other measurement series a P585 (year or day precision, some preferred ranks); dates
are at day, month or year precision, pre-1583 ones mostly Julian; a few percent of
qualifiers are unknown (somevalue) and a few statements deprecated or preferred.

Churn between consecutive snapshots (a few percent of the groups): values replaced or
added, statements and groups removed, a career's open statement ended and a successor
started on a date between the snapshots, new census figures, rank changes, new subjects
(new articles published between the snapshots), new identifier groups, and subjects
deleted or turned into redirects.
"""
