"""The files :func:`kgdiff.export.tasks.writer.write_tasks` copies into a benchmark folder.

They are modules here so that ruff, mypy and the tests check them, but they run in the folder,
where kgdiff may not be installed: they import nothing from kgdiff (only the standard library,
and ``kgdiff_tasks`` Inspect itself). ``kgdiff_metrics`` goes into both ``tasks/lm_eval/`` and
``tasks/inspect/``, beside a copy of :mod:`kgdiff.portable` (``kgdiff_portable/``), which it
imports from its path: so it is imported from a written folder, not from here (the tests load
it as lm-eval does); ``kgdiff_tasks`` goes into ``tasks/inspect/``.
"""
