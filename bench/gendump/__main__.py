"""``python -m bench.gendump`` runs the command line."""

from bench.gendump.cli import main

raise SystemExit(main())
