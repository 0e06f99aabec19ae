"""kgdiff's version, which builds, snapshots, downloads and requests record (``kgdiff.__version__``
is this one). A module of its own, below every layer: the package's ``__init__`` opens the
knowledge graph (:mod:`kgdiff.query`), so a lower layer that imported the version from there
would import upwards."""

from __future__ import annotations

__version__ = "0.1.0"
