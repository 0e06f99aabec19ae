"""The task files of an exported benchmark folder (docs/benchmark-tasks.md): lm-evaluation-harness
YAML and Inspect tasks per config, form and split (:mod:`~kgdiff.export.tasks.writer`, the forms
of each config in :mod:`~kgdiff.export.tasks.forms`), and the files copied into the folder
(``task_files/``, which import nothing of kgdiff, and :mod:`kgdiff.portable`, kgdiff's
scoring that they run).

May import the shared packages (``dataset``, to read the folder's splits); never a config.
"""
