"""Run lm-eval's command line as the ``lm_eval`` script does, its task index made of the
``--include_path`` folders alone (tests/task_tools.py's run_lm_eval).

    python tests/lm_eval_run.py ARGS…

lm-eval indexes the 14,000 YAML files of its own tasks at every start, which the benchmark
folder's tasks never name (they include nothing of lm-eval's): 85 % of a run's 20 CPU-seconds.
Everything else is lm-eval's own command line, unchanged.
"""

from __future__ import annotations

import sys
from functools import partialmethod

from lm_eval.__main__ import cli_evaluate  # type: ignore[import-untyped]
from lm_eval.tasks import TaskManager  # type: ignore[import-untyped]

if __name__ == "__main__":
    without_defaults = partialmethod(TaskManager.__init__, include_defaults=False)
    TaskManager.__init__ = without_defaults
    sys.argv[0] = "lm_eval"
    sys.exit(cli_evaluate())
