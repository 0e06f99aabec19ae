"""The one check every ingest makes of the path it is given: a regular file, or a clear
error that says what was found instead (nothing, or a folder) and what to give."""

from __future__ import annotations

from pathlib import Path

from kgdiff.errors import InputError


def check_input_file(path: Path, wanted: str) -> None:
    """Raise :class:`InputError` unless ``path`` is a file; ``wanted`` says in a few words
    what the command reads (``a Wikidata dump or entity file``), for a folder given instead."""
    if path.is_file():
        return
    if path.is_dir():
        raise InputError(
            f"{path} is a directory, not a file; give the path of {wanted}, one file a run"
        )
    raise InputError(f"{path}: no such file; check the path")
