"""No answer and no error of a user's SQL query names the folder the store is in on the
server (issue 34, finding 10): on b4f0265 ``kgdiff_store_root()``,
``getvariable('kgdiff_store')``, ``duckdb_databases()``, ``duckdb_settings()`` and
``parquet_schema(...)`` answered with it. The views now read the store by relative paths,
the functions that answer with settings, variables and the server's paths are refused, and
what is left of the folder in any text is made relative.

The store lies under a folder of a distinctive name; every answer and every error text is
searched for the store's path and for that name.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import orjson
import pytest

from kgdiff.query.safe_sql import run_safe_sql
from kgdiff.query.sql_errors import SqlError, SqlRefusedError
from kgdiff.query.sql_masking import source_folders
from kgdiff.store.catalog_copy import catalog_copy
from kgdiff.store.layout import StoreLayout

DISTINCT = "kgdiff-Zq8-secret-folder"
PART = "snapshots/snapshot=wd-2014-12/statements/part-00000.parquet"
# {root} stands for the store's folder, for a user who has learnt it elsewhere
PROBES = {
    "root macro": "SELECT kgdiff_store_root()",
    "files macro": "SELECT kgdiff_store_files(['snapshots/*/manifest.json'])",
    "variable": "SELECT getvariable('kgdiff_store')",
    "variables": "SELECT * FROM duckdb_variables()",
    "databases": "SELECT * FROM duckdb_databases()",
    "databases view": "SELECT * FROM duckdb_databases",
    "settings": "SELECT * FROM duckdb_settings()",
    "setting": "SELECT current_setting('allowed_directories')",
    "temp setting": "SELECT current_setting('temp_directory')",
    "home setting": "SELECT current_setting('home_directory')",
    "pg_settings": "SELECT * FROM pg_catalog.pg_settings",
    "database list": "SELECT * FROM pragma_database_list",
    "database size": "SELECT * FROM pragma_database_size()",
    "extensions": "SELECT * FROM duckdb_extensions()",
    "temporary files": "SELECT * FROM duckdb_temporary_files()",
    "user agent": "SELECT * FROM pragma_user_agent()",
    "SHOW a setting": "SHOW allowed_directories",
    "summarize": "SUMMARIZE duckdb_databases",
    "describe": "DESCRIBE SELECT * FROM statements",
    "parquet_schema": f"SELECT file_name FROM parquet_schema('{PART}')",
    "parquet_schema of the views' files": "SELECT DISTINCT file_name FROM parquet_schema("
    "kgdiff_store_files(['snapshots/*/statements/*.parquet']))",
    "parquet_metadata, absolute": f"SELECT file_name FROM parquet_metadata('{{root}}/{PART}')",
    "filename column": "SELECT DISTINCT filename FROM read_parquet("
    "'snapshots/*/statements/*.parquet', filename = true)",
    "filename column, absolute": "SELECT DISTINCT filename FROM read_parquet("
    "'{root}/snapshots/*/statements/*.parquet', filename = true)",
    "glob": "SELECT file FROM glob('**')",
    "glob, absolute": "SELECT file FROM glob('{root}/snapshots/*/manifest.json')",
    "read_text, absolute": "SELECT filename FROM read_text('{root}/snapshots/*/manifest.json')",
    "views' SQL": "SELECT sql FROM duckdb_views()",
    "macros' SQL": "SELECT macro_definition FROM duckdb_functions()",
    "current database": "SELECT current_database(), current_schema()",
    "missing file": "SELECT * FROM read_parquet('nothere/*.parquet')",
    "missing file, absolute": "SELECT * FROM read_parquet('{root}/nothere.parquet')",
    "a folder": "SELECT * FROM read_text('{root}/snapshots')",
    "not csv": "SELECT * FROM read_csv('{root}/kg.duckdb')",
    "sniff": "SELECT * FROM sniff_csv('{root}/snapshots/snapshot=wd-2014-12/manifest.json')",
    "outside": "SELECT * FROM read_text('{root}/../x.txt')",
    "error() of the root": "SELECT error('at ' || '{root}')",
    "cast of the root": "SELECT '{root}'::INTEGER",
}
ANSWERED = {"root macro", "files macro", "describe", "parquet_schema", "filename column"}


@pytest.fixture(scope="module")
def hidden_store(sql_store: StoreLayout, tmp_path_factory: pytest.TempPathFactory) -> StoreLayout:
    root = tmp_path_factory.mktemp(DISTINCT) / "store"
    shutil.copytree(sql_store.root, root)
    return StoreLayout(root)


@pytest.mark.parametrize("probe", PROBES.values(), ids=PROBES.keys())
def test_no_answer_or_error_names_the_stores_folder(hidden_store: StoreLayout, probe: str) -> None:
    query = probe.replace("{root}", str(hidden_store.root))
    try:
        answer = run_safe_sql(hidden_store, query)
        text = orjson.dumps([answer.columns, answer.rows]).decode()
    except SqlError as error:
        text = str(error)
    assert str(hidden_store.root) not in text and DISTINCT not in text, text


@pytest.mark.parametrize("name", sorted(ANSWERED))
def test_what_is_still_answered_answers_relative_paths(
    hidden_store: StoreLayout, name: str
) -> None:
    assert run_safe_sql(hidden_store, PROBES[name]).rows


def test_paths_are_relative_to_the_store(hidden_store: StoreLayout) -> None:
    answer = run_safe_sql(
        hidden_store, PROBES["filename column, absolute"].replace("{root}", str(hidden_store.root))
    )
    assert sorted(answer.rows)[0] == ["snapshots/snapshot=wd-2013-12/statements/part-00000.parquet"]
    root = run_safe_sql(hidden_store, PROBES["root macro"])
    assert root.rows == [[""]]


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("variable", "getvariable() answers with the session's variables"),
        ("databases", "duckdb_databases() answers with the server's file paths"),
        ("settings", "duckdb_settings() answers with the server's settings"),
        ("setting", "current_setting() answers with the server's settings"),
        ("database list", "duckdb_databases() answers with the server's file paths"),
        ("SHOW a setting", "SHOW allowed_directories answers with the server's settings"),
    ],
)
def test_what_would_name_it_is_refused_with_the_reason(
    hidden_store: StoreLayout, name: str, says: str
) -> None:
    with pytest.raises(SqlRefusedError, match=f"^refused: .*{re.escape(says)}"):
        run_safe_sql(hidden_store, PROBES[name])


def test_a_store_named_by_a_relative_path(
    hidden_store: StoreLayout, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the query's process works in the store's folder: a relative name must not follow it
    monkeypatch.chdir(hidden_store.root.parent)
    relative = StoreLayout(Path(hidden_store.root.name))
    assert run_safe_sql(relative, "SELECT count(*) > 0 FROM statements").rows == [[True]]
    # only the store's absolute folder is taken out of answers, not a word like its name
    words = f"SELECT 'the {relative.root.name}''s catalog, {relative.root.name}/x' AS s"
    answer = run_safe_sql(relative, words)
    assert answer.rows == [[f"the {relative.root.name}'s catalog, {relative.root.name}/x"]]


SOURCE_PROBES = {
    "snapshots' sources": "SELECT source_path FROM snapshots",
    "Wikipedia sources": "SELECT * FROM wikipedia_snapshots",
    "manifests as text": "SELECT content FROM read_text('snapshots/*/manifest.json')",
    "page view manifests": "SELECT content FROM read_text('pageviews/*/manifest.json')",
}


@pytest.mark.parametrize("probe", SOURCE_PROBES.values(), ids=SOURCE_PROBES.keys())
def test_no_answer_names_the_folders_the_dumps_were_read_from(
    hidden_store: StoreLayout, probe: str
) -> None:
    folders = source_folders(hidden_store)
    assert folders  # the demo's dumps were read from the checkout's snapshots/ and tests/data
    text = orjson.dumps(run_safe_sql(hidden_store, probe).rows).decode()
    assert not [folder for folder in folders if str(folder) in text], text
    assert ".bz2" in text or ".txt" in text  # the dumps' file names stay


def test_the_private_catalog_copys_folder_is_never_named(hidden_store: StoreLayout) -> None:
    copy = catalog_copy(hidden_store.catalog)
    answer = run_safe_sql(hidden_store, f"SELECT '{copy}' AS path, '{copy.parent}/' AS folder")
    assert answer.rows == [[copy.name, ""]]
