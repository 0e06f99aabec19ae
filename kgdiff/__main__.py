"""``python -m kgdiff`` runs the command line."""

from kgdiff.cli import main

main()
