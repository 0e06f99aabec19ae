"""Entry point for ``python -m bench.scale``."""

from bench.scale.cli import main

raise SystemExit(main())
