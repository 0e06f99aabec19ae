"""Refuse to ingest an unfinished (``.part``) or checksum-failed (``.corrupt``) download."""

from __future__ import annotations

from pathlib import Path

from kgdiff.errors import InputError

# the names `kgdiff fetch` gives a download that is not (yet) verified
PART_SUFFIX = ".part"
CORRUPT_SUFFIX = ".corrupt"


def refuse_unverified(path: Path) -> None:
    """Raise InputError for a ``.part`` or ``.corrupt`` file left by ``kgdiff fetch``."""
    if path.name.endswith(PART_SUFFIX):
        reason = "an unfinished download"
    elif path.name.endswith(CORRUPT_SUFFIX):
        reason = "a download that failed its checksum"
    else:
        return
    raise InputError(
        f"{path} is {reason}; run `kgdiff fetch URL` again to finish and verify it, "
        "then ingest the file without the suffix"
    )
