"""Entry point for ``python -m bench.classify_gen``."""

from bench.classify_gen.cli import main

raise SystemExit(main())
