"""Write the changes between two snapshots of a synthetic store as the dumps ``kgdiff refresh``
and ``kgdiff ingest wikidata`` read, for the refresh benchmark (bench/README.md).

Usage::

    .venv/bin/python -m bench.refresh_gen --store /work/bench-data/refresh/gen20m \\
        --base syn-2022-01-01 --target syn-2022-07-01 --out DIR [--share 0.1]

:mod:`~bench.refresh_gen.generate` writes the dumps, :mod:`~bench.refresh_gen.entity_sql`
makes each entity's JSON from its rows (in DuckDB), :mod:`~bench.refresh_gen.xml_dump` the
daily incremental and logging XML dumps (also used by the tests of ``kgdiff refresh``).
"""
