"""``python -m bench.refresh_gen``."""

from bench.refresh_gen.cli import main

raise SystemExit(main())
