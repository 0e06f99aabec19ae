"""The names of a set of entities read once into files (kgdiff/export/words/names_file.py): any
part of them has the names Names.read gives it, on the real samples, however the ids are cut
into ranges."""

from __future__ import annotations

from pathlib import Path

import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import kgdiff
from kgdiff.export.words import names_file
from kgdiff.export.words.name_ids import entity_ids, name_ids
from kgdiff.export.words.names import Names, _leads
from kgdiff.export.words.names_file import NamesFile

SNAPSHOTS = ("wd-2013-12", None)


@pytest.fixture(scope="module")
def ids(export_demo_store: Path) -> list[str]:
    with kgdiff.open(export_demo_store).connection() as connection:
        rows = connection.sql("SELECT DISTINCT qid FROM entities ORDER BY qid").fetchall()
    return [str(row[0]) for row in rows]


@pytest.fixture(scope="module")
def files(export_demo_store: Path, ids: list[str]) -> dict[str | None, NamesFile]:
    """The names of every entity of the samples (and ids that name nothing), written 700 ids
    a range, as of each snapshot."""
    kg = kgdiff.open(export_demo_store)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(names_file, "RANGE_IDS", 700)
        made = {
            s: NamesFile(kg, [*ids, "Q99999999", "P31", "nonsense"], s, "en") for s in SNAPSHOTS
        }
    assert len(list(made[None]._folder.path.glob("names-*.parquet"))) == 3
    return made


def _read(store: Path, ids: list[str], snapshot: str | None) -> Names:
    with kgdiff.open(store).connection() as connection:
        return Names.read(connection, ids, snapshot, "en")


@settings(max_examples=20)
@given(data=st.data())
def test_a_part_has_the_names_it_would_read(
    export_demo_store: Path, ids: list[str], files: dict[str | None, NamesFile], data: st.DataObject
) -> None:
    snapshot = data.draw(st.sampled_from(SNAPSHOTS))
    part = data.draw(st.lists(st.sampled_from(ids), max_size=60))
    found = files[snapshot].names([*part, "Q1", "P31"])
    expected = _read(export_demo_store, [*part, "Q1", "P31"], snapshot)
    assert found.ids() == expected.ids()
    assert all(found._names[qid] == expected._names[qid] for qid in expected.ids())


def test_every_entity_and_its_article(
    export_demo_store: Path, ids: list[str], files: dict[str | None, NamesFile]
) -> None:
    found, expected = files[None].names(ids), _read(export_demo_store, ids, None)
    assert len(found.ids()) > 1_000 and found.ids() == expected.ids()
    assert [found._names[q] for q in found.ids()] == [expected._names[q] for q in found.ids()]
    # an article's lead tells that a name takes "the" (the samples' Wikipedia of 2016)
    assert any(name.definite for name in found._names.values())
    assert files[None].names([]).ids() == [] and files[None].names(["Q99999999"]).ids() == []
    # the leads kept are those Names.read reads
    leads = files[None]._rows("leads", pl.Series(ids))
    kg = kgdiff.open(export_demo_store)
    with kg.connection() as connection, name_ids(connection, entity_ids(ids)):
        expected_leads = _leads(connection, ids, "enwiki")
    assert leads is not None and dict(leads.iter_rows()) == expected_leads and expected_leads


def test_the_files_go_with_close(export_demo_store: Path, ids: list[str]) -> None:
    made = NamesFile(kgdiff.open(export_demo_store), ids[:10], None, "en")
    folder = made._folder.path
    assert any(folder.iterdir())
    made.close()
    assert not folder.exists()
