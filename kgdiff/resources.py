"""The files kgdiff reads at run time and ships with itself, found through the import system.

The repository keeps its SQL statements in ``sql/`` and the demo's sample dumps in
``snapshots/``; setup.py installs these folders as the packages ``kgdiff.sql`` and
``kgdiff.snapshots`` (beside ``kgdiff/data/``), so a wheel carries them and an editable install
of a checkout maps them to the checkout's folders. Every reader of such a file goes through
this module, never through a path relative to a source file, which would point outside an
installed package.
"""

from __future__ import annotations

from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path

SQL_PACKAGE = "kgdiff.sql"
SAMPLES_PACKAGE = "kgdiff.snapshots"
DATA_PACKAGE = "kgdiff"
DATA_FOLDER = "data"


class MissingResourceError(LookupError):
    """A file that ships with kgdiff is not there: the installation is incomplete."""


def _find(package: str, name: str) -> Traversable:
    """``name`` (``/``-separated) inside ``package``; an error naming both when it is absent."""
    found = files(package)
    for part in name.split("/"):
        found = found / part
    if not found.is_file():
        raise MissingResourceError(
            f"{name} is missing from {package} (looked for {found}); reinstall kgdiff"
        )
    return found


def sql_text(name: str) -> str:
    """The text of the SQL statement ``name`` (``sql/<name>.sql``, e.g. ``catalog/views``)."""
    return _find(SQL_PACKAGE, f"{name}.sql").read_text(encoding="utf-8")


def sql_names(folder: str) -> list[str]:
    """The names of the statements in one folder of ``sql/`` (``audits``), sorted."""
    found = files(SQL_PACKAGE) / folder
    if not found.is_dir():
        raise MissingResourceError(f"sql/{folder} is missing from {SQL_PACKAGE}; reinstall kgdiff")
    names = (entry.name for entry in found.iterdir() if entry.is_file())
    return sorted(name.removesuffix(".sql") for name in names if name.endswith(".sql"))


def data_text(name: str) -> str:
    """The text of a data file shipped in ``kgdiff/data/`` (e.g. ``relation_catalogue.toml``)."""
    return _find(DATA_PACKAGE, f"{DATA_FOLDER}/{name}").read_text(encoding="utf-8")


def sample_bytes(name: str) -> bytes:
    """The bytes of a file among the bundled samples (``snapshots/<name>``)."""
    return _find(SAMPLES_PACKAGE, name).read_bytes()


def sample_path(name: str) -> Path:
    """The path of a bundled sample dump on disk (an ingest reads, stats and hashes it)."""
    found = _find(SAMPLES_PACKAGE, name)
    if not isinstance(found, Path):  # e.g. kgdiff imported from a zip archive
        raise MissingResourceError(f"the sample {name} is not a file on disk ({found})")
    return found
