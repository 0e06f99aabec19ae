"""The ``<name>.verified.json`` record written next to a verified download."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from kgdiff.version import __version__

SUFFIX = ".verified.json"


@dataclass(frozen=True)
class Sidecar:
    """What was downloaded from where, and the digest it was checked against."""

    url: str
    size: int
    algorithm: str | None
    digest: str | None
    checksum_source: str | None
    verified: bool
    time: str
    tool: str

    @classmethod
    def now(
        cls, url: str, size: int, algorithm: str | None, digest: str | None, source: str | None
    ) -> Sidecar:
        """A record stamped with the current UTC time and this kgdiff version."""
        stamp = datetime.now(UTC).isoformat(timespec="seconds")
        verified = digest is not None
        return cls(url, size, algorithm, digest, source, verified, stamp, f"kgdiff {__version__}")


def sidecar_path(final: Path) -> Path:
    """``DEST/<name>.verified.json`` for ``DEST/<name>``."""
    return final.with_name(final.name + SUFFIX)


def write_sidecar(final: Path, record: Sidecar) -> None:
    """Write the record atomically (temp name, then rename)."""
    target = sidecar_path(final)
    temp = target.with_name(target.name + ".tmp")
    temp.write_text(json.dumps(asdict(record), indent=2) + "\n", encoding="utf-8")
    temp.replace(target)


def read_sidecar(final: Path) -> Sidecar | None:
    """The record next to ``final``; None if missing or unreadable (it is then rewritten)."""
    try:
        data: Any = json.loads(sidecar_path(final).read_text(encoding="utf-8"))
        return Sidecar(**data)
    except (OSError, ValueError, TypeError):
        return None
