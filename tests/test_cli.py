"""The command line: one-line errors and exit codes scripts can trust."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.paths import SAMPLES, run_kgdiff


def test_unusable_store_is_one_line_exit_6(tmp_path: Path) -> None:
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the store should go")
    sample = str(SAMPLES / "testDump_json_2014-12.json.bz2")
    result = run_kgdiff(
        "ingest",
        "wikidata",
        sample,
        "--date",
        "2014-12-31",
        "--store",
        str(blocker / "store"),
        "--quiet",
    )
    assert result.returncode == 6
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error:") and "not-a-dir" in lines[0]


@pytest.mark.parametrize(
    ("args", "env"),
    [
        pytest.param(("snapshots", "--store", "{file}"), {}, id="snapshots"),
        pytest.param(
            ("classify", "--cutoff", "2014-01-01", "--store", "{file}"), {}, id="classify"
        ),
        pytest.param(("store", "check", "--store", "{file}"), {}, id="store check"),
        pytest.param(("snapshots",), {"KGDIFF_STORE": "{file}"}, id="from the environment"),
    ],
)
def test_a_store_that_is_a_file_is_a_usage_error(
    args: tuple[str, ...], env: dict[str, str], tmp_path: Path
) -> None:
    """A store path that names a file (a typo, a dump given as --store) is refused, not read
    as a store without snapshots; the file is left as it was."""
    file = tmp_path / "dump.json"
    file.write_text("not a store")
    words = [word.replace("{file}", str(file)) for word in args]
    result = run_kgdiff(*words, env={k: v.replace("{file}", str(file)) for k, v in env.items()})
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr == (
        f"error: store {file} is a file, not a folder: give --store (or $KGDIFF_STORE) the "
        "folder the store is in, or one to make it in\n"
    )
    assert file.read_text() == "not a store" and sorted(tmp_path.iterdir()) == [file]


@pytest.mark.parametrize("how", ["option", "environment"])
def test_listing_a_store_folder_that_does_not_exist_is_an_error(how: str, tmp_path: Path) -> None:
    """A mistyped store (an option or the environment) is named as missing, not listed as a
    store without snapshots; nothing is made there. An empty folder is a store without any."""
    missing = tmp_path / "no-such-store"
    args, env = (
        (("--store", str(missing)), {}) if how == "option" else ((), {"KGDIFF_STORE": str(missing)})
    )
    result = run_kgdiff("snapshots", *args, env=env)
    assert result.returncode == 5 and result.stdout == ""
    assert result.stderr == (
        f"error: no store at {missing} (no such folder); ingest a snapshot there first (or run "
        "'kgdiff demo'), or give --store the folder of an existing store\n"
    )
    assert not missing.exists()
    missing.mkdir()
    empty = run_kgdiff("snapshots", *args, env=env)
    assert empty.returncode == 0 and empty.stdout.startswith("no snapshots in")


def test_snapshots_list_show_and_remove(tmp_path: Path) -> None:
    store = str(tmp_path / "store")
    sample = str(SAMPLES / "testDump_json_2014-12.json.bz2")
    assert (
        run_kgdiff(
            "ingest",
            "wikidata",
            sample,
            "--date",
            "2014-12-31",
            "--snapshot",
            "s1",
            "--store",
            store,
            "--limit",
            "50",
            "--quiet",
        ).returncode
        == 0
    )
    listing = run_kgdiff("snapshots", "--store", store)
    assert listing.returncode == 0 and "s1" in listing.stdout
    shown = run_kgdiff("snapshots", "show", "s1", "--store", store)
    assert shown.returncode == 0 and '"entities": 50' in shown.stdout
    assert run_kgdiff("snapshots", "rm", "s1", "--store", store, "--yes").returncode == 0
    assert not (tmp_path / "store" / "snapshots" / "snapshot=s1").exists()
    missing = run_kgdiff("snapshots", "show", "s1", "--store", store)
    assert missing.returncode == 5 and "no snapshot named 's1'" in missing.stderr


def _damaged_store(tmp_path: Path) -> Path:
    """A store whose catalog file is garbage (a disk error, a half-copied store)."""
    store = tmp_path / "store"
    store.mkdir()
    (store / "kg.duckdb").write_bytes(b"not a DuckDB database\n" * 200)
    return store


def _crash_log(stderr: str) -> Path:
    """The crash log the one line names, after checking that it is the only line."""
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert lines[0].startswith("error: IOException: ") and "Traceback" not in stderr
    return Path(lines[0].rpartition("; details in ")[2])


def test_an_unexpected_error_is_one_line_and_exit_70_with_a_crash_log(tmp_path: Path) -> None:
    store = _damaged_store(tmp_path)
    state = tmp_path / "state"
    result = run_kgdiff(
        "timeline", "Q42", "--store", str(store), env={"XDG_STATE_HOME": str(state)}
    )
    assert result.returncode == 70, result.stderr
    log = _crash_log(result.stderr)
    assert log.parent == state / "kgdiff" and log.name.startswith("crash-")
    text = log.read_text(encoding="utf-8")
    assert f"command: kgdiff timeline Q42 --store {store}" in text
    assert "Traceback (most recent call last)" in text and "not a valid DuckDB database" in text


def test_a_crash_log_goes_to_the_cache_folder_when_the_state_folder_is_unusable(
    tmp_path: Path,
) -> None:
    store = _damaged_store(tmp_path)
    blocked = tmp_path / "a-file"
    blocked.write_text("the state folder cannot be made under a file")
    env = {"XDG_STATE_HOME": str(blocked), "XDG_CACHE_HOME": str(tmp_path / "cache")}
    result = run_kgdiff("timeline", "Q42", "--store", str(store), env=env)
    assert result.returncode == 70, result.stderr
    log = _crash_log(result.stderr)
    assert log.parent == tmp_path / "cache" / "kgdiff" and "Traceback" in log.read_text()
