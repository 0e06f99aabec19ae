"""No machine folder in a SQL answer: the last guard of ``POST /v1/sql`` (issue 34).

The query's session reads the store by relative paths and the guard refuses the functions
that name settings or paths, so a folder of the server should never reach an answer. This
takes out, from every text of the answer's JSON, whatever still names one: the store's
folder (paths under it become relative: ``/data/kg/x.parquet`` is ``x.parquet``, ``/data/kg``
is ``.``), the folders the snapshots' dumps were read from (a manifest's ``source_path``
becomes the dump's file name) and the folder of the process's private catalog copy.
"""

from __future__ import annotations

import re
from pathlib import Path

import orjson

from kgdiff.store.layout import StoreLayout
from kgdiff.store.manifest import read_manifest


def source_folders(layout: StoreLayout) -> set[Path]:
    """The folders the store's snapshots, Wikipedia snapshots and page view sources were
    read from (as their manifests record them; unreadable manifests are passed over)."""
    manifests = [layout.snapshot_dir(name) / "manifest.json" for name in layout.published_names()]
    manifests += [
        layout.wikipedia_snapshot_dir(name) / "manifest.json" for name in layout.wikipedia_names()
    ]
    manifests += [
        layout.pageview_source_dir(name) / "manifest.json" for name in layout.pageview_sources()
    ]
    folders = set()
    for path in manifests:
        try:
            source = read_manifest(path).source.path
        except (OSError, ValueError):
            continue
        if source.startswith("/"):
            folders.add(Path(source).parent)
    return folders


def without_machine_folders(answer: bytes, layout: StoreLayout, others: set[Path]) -> bytes:
    """``answer`` (JSON) with the store's folder made relative and every folder of
    ``others`` taken out of its texts, longest first (a folder inside another goes first)."""
    answer = _without(answer, layout.root, inside=b"", itself=b".")
    for folder in sorted(others - {layout.root}, key=lambda path: -len(str(path))):
        answer = _without(answer, folder, inside=b"", itself=b"")
    return answer


def _without(answer: bytes, folder: Path, inside: bytes, itself: bytes) -> bytes:
    text = orjson.dumps(str(folder).rstrip("/"))[1:-1]
    if not text or text == b"/":
        return answer
    # followed by '/', or by nothing that could go on a file name ('/data/kg2' is not it)
    pattern = re.escape(text) + rb"(/|(?![\w-]|\.[\w-]))"
    return re.sub(pattern, lambda match: inside if match.group(1) else itself, answer)
