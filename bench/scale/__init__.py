"""The scale ladder: every step of kgdiff, as the command line runs it, on 3 × N statements.

Usage::

    .venv/bin/python -m bench.scale --sizes 25,50,100,200 [--steps classify-record,export]
        [--data /work/bench-data/scale] [--one-core 25] [--serve-args "--rates 200 --seconds 60"]

For each size N (statements per snapshot) it generates, once, a store of three snapshots
with :mod:`bench.classify_gen` (shaped after real Wikidata: bench/README.md), the JSON dump
of its first snapshot (sizes up to ``--ingest-max``) and a synthetic English Wikipedia of
its latest one; then, on a fresh work store (the snapshots hard-linked), runs each step in
its own process, measured for wall time, CPU time and peak RSS of the process tree, and
disk: ``ingest``, ``classify-record``, ``classify-valid``, ``updates``, ``chains``, ``pools``,
``staleness-record``, ``staleness-valid``, ``ingest-wikipedia``, ``evidence``, ``export`` (all
configs), ``rdf`` (N-Triples of the latest snapshot), ``lookup`` (the service's copies) and
``serve`` (``bench.serve_load`` against ``kgdiff serve``). A step that fails or passes
``--timeout`` is reported as such and the ladder goes on.

It prints one table (step × size), the exponent of time, memory and disk fitted over the
sizes (log-log least squares), a projection to a full Wikidata snapshot (1.65 B statements)
on 2 and on 16 cores, and the work plan (steps over 4 GB, or growing faster than N^1.1);
results go to ``DIR/results/scale-*.json`` (``--results`` fits earlier runs together with a
new one; ``--report-only`` only reports them).

Modules: :mod:`~bench.scale.steps` (the commands), :mod:`~bench.scale.data` (inputs and
work stores), :mod:`~bench.scale.dump` (JSON dump), :mod:`~bench.scale.wikipedia`
(synthetic articles), :mod:`~bench.scale.measure` (process-tree measurement with a time
bound), :mod:`~bench.scale.runner` (a rung), :mod:`~bench.scale.fit` (exponents and
projection), :mod:`~bench.scale.report` (table and JSON), :mod:`~bench.scale.markdown` (the tables
for bench/README.md), :mod:`~bench.scale.cli`.
"""
