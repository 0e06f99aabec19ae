"""The files :func:`kgdiff.export.tasks.writer.write_tasks` copies into a benchmark folder.

They are modules here so that ruff, mypy and the tests check them, but they run in the folder,
where kgdiff may not be installed: they import nothing from kgdiff (only the standard library,
and ``kgdiff_tasks`` Inspect itself). ``kgdiff_metrics`` goes into both ``tasks/lm_eval/`` and
``tasks/inspect/``; ``kgdiff_tasks`` into ``tasks/inspect/``.
"""
