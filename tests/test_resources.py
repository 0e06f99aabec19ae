"""The files kgdiff ships, found through the import system: in an editable install of a
checkout they are the checkout's own (tests/test_installed_wheel.py checks a wheel's)."""

from __future__ import annotations

import pytest

from kgdiff.resources import MissingResourceError, data_text, sample_path, sql_names, sql_text
from kgdiff.sqlfiles import SqlFileError, load_sql
from tests.paths import ROOT, SAMPLES


def test_the_checkouts_folders_are_the_packages_resources() -> None:
    assert sample_path("samples.json") == SAMPLES / "samples.json"
    assert sql_names("audits") == sorted(p.stem for p in (ROOT / "sql" / "audits").glob("*.sql"))
    view = ROOT / "sql" / "catalog" / "snapshots_view.sql"
    assert sql_text("catalog/snapshots_view") == view.read_text(encoding="utf-8")
    catalogue = ROOT / "kgdiff" / "data" / "relation_catalogue.toml"
    assert data_text("relation_catalogue.toml") == catalogue.read_text(encoding="utf-8")


def test_a_missing_resource_names_what_was_looked_for() -> None:
    with pytest.raises(SqlFileError, match=r"'catalog/no_such_view'.*no_such_view\.sql"):
        load_sql("catalog/no_such_view")
    with pytest.raises(MissingResourceError, match="reinstall kgdiff"):
        sample_path("no-such-dump.json.bz2")
    with pytest.raises(MissingResourceError, match="sql/no_such_folder"):
        sql_names("no_such_folder")
