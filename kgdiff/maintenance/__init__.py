"""``kgdiff store check``: the store verifies and mends itself (think ``git fsck``).

It reads what every layer leaves in the store: the snapshots and builds (the store's own
:mod:`kgdiff.store.vetting` and :mod:`kgdiff.store.builds_index`), the ingest's staging and
progress reports (:mod:`kgdiff.ingest.progress`), and the service's jobs
(:mod:`kgdiff.query.jobs`, whose orphans it fails). So it cannot live in ``kgdiff.store``,
which imports nothing above it: it sits above the query layer, beside the export and the
plots (``store -> ingest -> temporal -> evidence -> query -> export/plot/maintenance ->
cli``), and only the command line (:mod:`kgdiff.cli.store`) imports it, to print what
:func:`kgdiff.maintenance.check.check_store` finds and
:func:`kgdiff.maintenance.repair.repair_store` mends.
"""
