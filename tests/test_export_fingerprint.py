"""The benchmark export of the demo's store makes the records it made when its fingerprint was
last written (tests/data/export_fingerprint.json, scripts/export_fingerprint.py): a change meant
to move code leaves every record of every config and split as it was."""

from __future__ import annotations

import json
from pathlib import Path

from scripts.export_fingerprint import EXPORTS, FINGERPRINT, export_fingerprint

REGENERATE = (
    "the benchmark export's records differ from tests/data/export_fingerprint.json; if the "
    "change is intended, rewrite it with `.venv/bin/python scripts/export_fingerprint.py "
    "--write` (it builds the demo's store, or give one with --store) and commit the file "
    "with the change that made it"
)


def test_the_demo_export_is_the_fingerprinted_one(pristine_demo: Path, tmp_path: Path) -> None:
    committed = json.loads(FINGERPRINT.read_text(encoding="utf-8"))
    found = export_fingerprint(pristine_demo, tmp_path)  # exports from copies of the store
    assert set(found) == set(committed) == set(EXPORTS)
    for name in EXPORTS:
        assert found[name] == committed[name], f"{name}: {REGENERATE}"
