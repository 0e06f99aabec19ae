"""The command line: one-line errors and exit codes scripts can trust."""

from __future__ import annotations

from pathlib import Path

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
