"""Keep pyarrow from importing pandas in the processes of an ingest or a refresh.

The first time pyarrow turns Python objects into an array (``pa.array([...])``, ``pa.table``,
an empty table of a schema) it imports pandas, if installed, to learn pandas' missing-value
singletons; its C++ side tries again at every conversion until the import succeeds. kgdiff
never hands pyarrow a pandas object, yet where pandas is installed (a dependency of other
tools in the same environment) that import cost each process ~0.8 CPU-seconds: an ingest or
a refresh paid it three times (the main process and two parse workers), about half of a
refresh's CPU time on a 2 M-statement store.

:func:`keep_pandas_out` makes ``import pandas`` fail in this process from then on, so pyarrow
sees no pandas, as on an install without it. Only processes that are wholly kgdiff's call it:
the command line's ingest and refresh, and the parse workers (:mod:`kgdiff.ingest.worker`,
loaded by the server they are forked from). A library caller (``kgdiff.open``, the tests)
keeps pandas.
"""

from __future__ import annotations

import importlib.abc
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType

BLOCKED = "pandas"


class _NoPandas(importlib.abc.MetaPathFinder):
    """A finder that answers every import of pandas (or of its submodules) with ImportError."""

    def find_spec(
        self,
        fullname: str,
        path: Sequence[str] | None,
        target: ModuleType | None = None,
    ) -> ModuleSpec | None:
        if fullname == BLOCKED or fullname.startswith(BLOCKED + "."):
            raise ImportError(f"{BLOCKED} is kept out of this kgdiff process (kgdiff.no_pandas)")
        return None


def keep_pandas_out() -> bool:
    """Make ``import pandas`` fail in this process; False (nothing done) if pandas is
    already imported."""
    if BLOCKED in sys.modules:
        return False
    if not any(isinstance(finder, _NoPandas) for finder in sys.meta_path):
        sys.meta_path.insert(0, _NoPandas())
    return True
