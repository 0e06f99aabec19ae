"""``kgdiff ingest api``: a small snapshot of a few entities as of a date, without a dump.

The entities' JSON as of the date (:mod:`kgdiff.wikiapi.entities`) is saved as one
``wbgetentities``-shaped document in ``STORE/api/NAME.json`` (the snapshot's source, kept
for provenance) and ingested like any entity file, so the snapshot is made exactly as one
from a dump would be. Entities that did not exist at the date are listed as missing.
The snapshot is a *subset* one (:mod:`kgdiff.store.coverage`): it covers the entities asked
for, those that did not exist at the date included (their absence is known).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from datetime import date, datetime, time
from pathlib import Path

import msgspec

from kgdiff.errors import InputError
from kgdiff.ingest.pipeline import IngestRequest, IngestResult, ingest_wikidata
from kgdiff.ingest.progress import Progress
from kgdiff.store.layout import StoreLayout, check_snapshot_name
from kgdiff.store.manifest import SUBSET
from kgdiff.wikiapi.client import WikiClient
from kgdiff.wikiapi.entities import NOT_YET, EntityAsOf, check_entity_ids, entities_as_of

WIKIDATA_API = "https://www.wikidata.org/w/api.php"


@dataclass(frozen=True)
class ApiSnapshotRequest:
    """What ``kgdiff ingest api`` was asked to do."""

    entities: list[str]
    date: date
    snapshot: str | None = None
    api_url: str = WIKIDATA_API
    store: str | Path | None = None
    cache_dir: Path | None = None
    max_requests: int | None = None


@dataclass(frozen=True)
class ApiSnapshotResult:
    """The ingest's result and what could not be had at the date."""

    ingest: IngestResult
    problems: dict[str, str]
    """Entities left out, and why (missing at the date, hidden text, bad JSON)."""
    requests: int
    """API requests made (0 when the snapshot already existed)."""


def ingest_api_snapshot(
    request: ApiSnapshotRequest, progress: Progress | None = None
) -> ApiSnapshotResult:
    """Fetch the entities as of the date and publish them as a snapshot (a no-op when the
    snapshot was already built from them)."""
    ids = check_entity_ids(request.entities)
    name = check_snapshot_name(request.snapshot or f"api-{request.date:%Y%m%d}")
    layout = StoreLayout.resolve(request.store)
    source = layout.root / "api" / f"{name}.json"
    requests = 0
    if not (source.is_file() and (layout.snapshot_dir(name) / "manifest.json").is_file()):
        requests = _fetch(request, ids, source)
    problems = _problems(source)
    absent = tuple(sorted(i for i, problem in problems.items() if problem == NOT_YET))
    ingest = ingest_wikidata(
        IngestRequest(
            path=source, snapshot=name, date=request.date.isoformat(), store=layout.root,
            workers=1, coverage=SUBSET, known_absent=absent,
        ),
        progress,
    )  # fmt: skip
    return ApiSnapshotResult(ingest, problems, requests)


def _fetch(request: ApiSnapshotRequest, ids: list[str], source: Path) -> int:
    """Save the entities' JSON as of the date in ``source``; return the requests made."""
    client = WikiClient.from_api_url(
        request.api_url, cache_dir=request.cache_dir, max_requests=request.max_requests
    )
    when = datetime.combine(request.date, time(23, 59, 59))
    found = list(entities_as_of(client, ids, when))
    if all(entity.document is None for entity in found):
        raise InputError(
            f"{request.api_url}: none of {', '.join(ids)} existed on {request.date} "
            f"({found[0].problem}); check the ids and the date"
        )
    _write_document(source, found)
    return client.requests_made


def _write_document(path: Path, found: list[EntityAsOf]) -> None:
    """Write the entities as ``{"entities": {id: json | {"missing": ""}}}``, atomically."""
    entities: dict[str, object] = {}
    for entity in found:
        if entity.document is None:
            entities[entity.entity_id] = {"id": entity.entity_id, "missing": ""}
        else:
            entities[entity.entity_id] = entity.document
    problems = {e.entity_id: e.problem for e in found if e.problem is not None}
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_bytes(msgspec.json.encode({"entities": entities, "kgdiff_problems": problems}))
    tmp.replace(path)


def _problems(path: Path) -> dict[str, str]:
    """The entities the document records as missing at the date, and why."""
    document = msgspec.json.decode(path.read_bytes())
    problems: dict[str, str] = document.get("kgdiff_problems", {})
    return problems
