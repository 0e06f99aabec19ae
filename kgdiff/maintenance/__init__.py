"""``kgdiff store check``: the store verifies and mends itself (think ``git fsck``).

It reads every layer's folders: the snapshots (the store), the classification builds (the
temporal layer's :class:`~kgdiff.temporal.builds.BuildParams`) and the service's jobs (the
query layer's :mod:`kgdiff.query.jobs`), so it lives above them all, beside the export: the
layers run ``store -> ingest -> temporal -> evidence -> query -> export/plot/maintenance ->
cli``, and no layer imports one above it. The command line (:mod:`kgdiff.cli.store`) only
prints what :func:`kgdiff.maintenance.check.check_store` finds and
:func:`kgdiff.maintenance.repair.repair_store` mends.
"""
