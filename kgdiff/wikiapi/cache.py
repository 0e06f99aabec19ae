"""An on-disk cache of revision texts, keyed by (site, title, revision id, kind).

A revision's text never changes once saved, so a cached text is served without asking the
wiki again. Each entry is one gzip-compressed JSON file named by the SHA-256 of its key
(``ab/abcdef….json.gz``); it repeats its key, so a file that does not match (or cannot be
read) counts as a miss and is simply fetched and written again. Files are written under a
temporary name and renamed into place, so a reader never sees half an entry.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import json
import os
import tempfile
import zlib
from pathlib import Path


class RevisionCache:
    """Revision texts under one folder (created when the first entry is written)."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder

    def get(self, site: str, title: str, revid: int, kind: str) -> str | None:
        """The cached text, or ``None`` if it was never stored (or its file is damaged)."""
        path = self._path(site, title, revid, kind)
        try:
            with gzip.open(path, "rt", encoding="utf-8") as handle:
                entry = json.load(handle)
        except (OSError, EOFError, zlib.error, ValueError):
            return None
        if not isinstance(entry, dict) or entry.get("key") != [site, title, revid, kind]:
            return None
        text = entry.get("text")
        return text if isinstance(text, str) else None

    def put(self, site: str, title: str, revid: int, kind: str, text: str) -> None:
        """Store a text atomically (a concurrent writer of the same entry is harmless)."""
        path = self._path(site, title, revid, kind)
        path.parent.mkdir(parents=True, exist_ok=True)
        payload = json.dumps({"key": [site, title, revid, kind], "text": text})
        handle, temp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
        try:
            with os.fdopen(handle, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as out:
                out.write(payload.encode("utf-8"))
            Path(temp).replace(path)
        except BaseException:
            with contextlib.suppress(OSError):
                Path(temp).unlink()
            raise

    def _path(self, site: str, title: str, revid: int, kind: str) -> Path:
        key = json.dumps([site, title, revid, kind], ensure_ascii=False)
        digest = hashlib.sha256(key.encode("utf-8")).hexdigest()
        return self.folder / digest[:2] / f"{digest}.json.gz"
