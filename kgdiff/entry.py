"""The ``kgdiff`` script's entry point, which imports nothing until it is called.

Parse workers start from Python's forkserver, and each of them first runs the script that
started the ingest (as ``__mp_main__``, its ``if __name__ == "__main__"`` guard keeping the
command from running again). Were the entry point :func:`kgdiff.cli.main` itself, each
worker would import the command line (typer, rich: ~0.1 CPU-seconds) only to throw it away;
from here a worker imports this module and the bare ``kgdiff`` package (~0.01 s). It lives
outside :mod:`kgdiff.cli`, whose ``__init__`` (typer) runs on importing any of its modules.
"""

from __future__ import annotations


def main() -> None:
    """Run the ``kgdiff`` command line (see :mod:`kgdiff.cli`)."""
    from kgdiff.cli import main as run_command_line

    run_command_line()
