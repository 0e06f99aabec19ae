"""Property: over generated histories of edits, creations, merges, deletions, undeletions and
re-creations, written as daily incremental dumps (in any order) and a logging dump, a
refresh of the base to any day gives every table as an ingest of that day's state does;
without the deletions, as an ingest of the state where nothing was deleted."""

from __future__ import annotations

import tempfile
from dataclasses import dataclass, field
from datetime import date, timedelta
from pathlib import Path

import orjson
from hypothesis import given, settings
from hypothesis import strategies as st

from bench.refresh_gen.xml_dump import LogEvent, Revision, write_log, write_revisions
from kgdiff.ingest.pipeline import IngestRequest, ingest_wikidata
from kgdiff.refresh.pipeline import refresh_snapshot
from kgdiff.refresh.request import RefreshRequest
from tests.refresh_samples import refresh_of, snapshot_rows

ENTITIES = [f"Q{n}" for n in range(1, 7)]
BASE_DAY = date(2024, 1, 1)
DAYS = [BASE_DAY + timedelta(days=n) for n in range(1, 5)]
SUFFIXES = [".bz2", ".gz", "", ".bz2"]


def _statement(qid: str, pid: str, number: int, index: int) -> dict[str, object]:
    value = {"entity-type": "item", "numeric-id": number, "id": f"Q{number}"}
    return {
        "mainsnak": {
            "snaktype": "value",
            "property": pid,
            "datatype": "wikibase-item",
            "datavalue": {"value": value, "type": "wikibase-entityid"},
        },
        "type": "statement",
        "id": f"{qid}${pid}-{index}",
        "rank": "normal",
    }


def content(qid: str, version: int) -> bytes:
    """The text of one revision of ``qid``: its label, claims and sitelink vary with it."""
    claims = {"P31": [_statement(qid, "P31", 100 + version % 3, 0)]}
    if version % 2:
        claims["P39"] = [_statement(qid, "P39", 200 + n, n) for n in range(version % 4 + 1)]
    doc = {
        "type": "item",
        "id": qid,
        "labels": {"en": {"language": "en", "value": f"{qid} version {version}"}},
        "descriptions": {},
        "aliases": {"en": [{"language": "en", "value": f"alias {version % 2}"}]},
        "claims": claims,
        "sitelinks": {"enwiki": {"site": "enwiki", "title": f"{qid} ({version})", "badges": []}},
    }
    return orjson.dumps(doc)


def redirect(qid: str, target: str) -> bytes:
    """The text of a merged item's page: a redirect, as Wikidata writes it."""
    return orjson.dumps({"entity": qid, "redirect": target})


@dataclass
class History:
    """A base state, then revisions and log events, each at its own second."""

    base: dict[str, bytes]
    revisions: list[Revision] = field(default_factory=list)
    events: list[LogEvent] = field(default_factory=list)

    def state(self, day: date, deletions: bool) -> dict[str, bytes]:
        """Every entity page's text at the end of ``day`` (deleted pages left out)."""
        last = f"{day.isoformat()}T23:59:59Z"
        texts, gone = dict(self.base), set()
        happened: list[tuple[str, int, Revision | LogEvent]] = [
            (r.timestamp, 0, r) for r in self.revisions
        ]
        if deletions:
            happened += [(e.timestamp, 1, e) for e in self.events]
        for stamp, _, what in sorted(happened, key=lambda item: (item[0], item[1])):
            if stamp > last:
                break
            if isinstance(what, Revision):
                texts[what.entity] = what.text or b""
                gone.discard(what.entity)
            elif what.action == "delete":
                gone.add(what.entity)
            else:
                gone.discard(what.entity)
        return {qid: text for qid, text in texts.items() if qid not in gone}


@st.composite
def histories(draw: st.DrawFn) -> History:
    """A base of some entities, then a few days of edits, creations, merges, deletions,
    undeletions and re-creations (each a revision or a log event)."""
    present = draw(st.sets(st.sampled_from(ENTITIES), min_size=2, max_size=5))
    history = History({qid: content(qid, 0) for qid in sorted(present)})
    alive, deleted, merged = set(present), set[str](), set[str]()
    revision, log, version = 1000, 1, 1
    for day in DAYS:
        for second in range(draw(st.integers(0, 4))):
            stamp = f"{day.isoformat()}T10:00:{second:02d}Z"
            kind = draw(
                st.sampled_from(["edit", "create", "merge", "delete", "restore", "recreate"])
            )
            pool = sorted(alive - merged) if kind in ("edit", "merge", "delete") else []
            if kind == "create":
                pool = sorted(set(ENTITIES) - alive - deleted)
            elif kind in ("restore", "recreate"):
                pool = sorted(deleted)
            if not pool:
                continue
            qid = draw(st.sampled_from(pool))
            if kind == "merge":
                targets = sorted(alive - merged - {qid})
                if not targets:
                    continue
                into = draw(st.sampled_from(targets))
                revision += 2
                history.revisions.append(Revision(qid, revision - 1, stamp, redirect(qid, into)))
                history.revisions.append(Revision(into, revision, stamp, content(into, version)))
                merged.add(qid)
            elif kind == "delete":
                history.events.append(LogEvent(qid, stamp, "delete", log))
                alive.discard(qid)
                deleted.add(qid)
            elif kind in ("restore", "recreate"):
                history.events.append(LogEvent(qid, stamp, "restore", log))
                deleted.discard(qid)
                alive.add(qid)
                if kind == "recreate":
                    later = f"{day.isoformat()}T11:00:{second:02d}Z"
                    revision += 1
                    merged.discard(qid)
                    history.revisions.append(Revision(qid, revision, later, content(qid, version)))
            else:
                revision += 1
                merged.discard(qid)
                history.revisions.append(Revision(qid, revision, stamp, content(qid, version)))
                alive.add(qid)
            log += 1
            version += 1
    return history


def _dump(path: Path, texts: dict[str, bytes], day: date) -> Path:
    stamp = f"{day.isoformat()}T00:00:00Z"
    write_revisions(path, (Revision(qid, 1, stamp, text) for qid, text in sorted(texts.items())))
    return path


def _daily_files(history: History, folder: Path) -> list[Path]:
    files = []
    for day, suffix in zip(DAYS, SUFFIXES, strict=True):
        of_day = [r for r in history.revisions if r.timestamp.startswith(day.isoformat())]
        of_day.sort(key=lambda r: (r.entity, r.timestamp))  # a page's revisions together
        path = folder / f"wikidatawiki-{day:%Y%m%d}-pages-meta-hist-incr.xml{suffix}"
        write_revisions(path, of_day)
        files.append(path)
    return files


def _ingest(store: Path, dump: Path, name: str, day: date) -> None:
    request = IngestRequest(path=dump, snapshot=name, date=day.isoformat(), store=store, workers=1)
    ingest_wikidata(request)


def _check(history: History, day: date, order: list[int], deletions: bool) -> None:
    """Refresh the base to ``day`` from the daily dumps in ``order`` (and the logging dump,
    if ``deletions``); compare it with an ingest of the state the history says."""
    with tempfile.TemporaryDirectory(prefix="kgdiff-histories-") as work:
        folder, store = Path(work), Path(work) / "store"
        _ingest(store, _dump(folder / "base.xml", history.base, BASE_DAY), "base", BASE_DAY)
        files = _daily_files(history, folder)
        log = folder / "wikidatawiki-20240105-pages-logging.xml.gz"
        write_log(log, sorted(history.events, key=lambda e: e.timestamp))
        request = RefreshRequest(
            changes=tuple(files[index] for index in order), base="base", snapshot="refreshed",
            date=day.isoformat(), deletions=log if deletions else None, store=store, workers=1,
        )  # fmt: skip
        result = refresh_snapshot(request)
        assert refresh_of(result.manifest).deletions == ("known" if deletions else "unknown")
        state = history.state(day, deletions)
        if not state:  # every entity deleted (an ingest of no entity publishes nothing)
            assert not any(snapshot_rows(store, "refreshed").values())
            return
        _ingest(store, _dump(folder / "state.xml", state, day), "direct", day)
        assert snapshot_rows(store, "refreshed") == snapshot_rows(store, "direct")


@settings(max_examples=4)
@given(history=histories(), day=st.sampled_from(DAYS), order=st.permutations(range(len(DAYS))))
def test_a_refresh_with_the_deletions_equals_an_ingest_of_the_state_it_reaches(
    history: History, day: date, order: list[int]
) -> None:
    _check(history, day, order, deletions=True)


@settings(max_examples=4)
@given(history=histories(), day=st.sampled_from(DAYS), order=st.permutations(range(len(DAYS))))
def test_without_the_deletions_nothing_is_deleted_and_the_rest_is_as_an_ingest(
    history: History, day: date, order: list[int]
) -> None:
    _check(history, day, order, deletions=False)
