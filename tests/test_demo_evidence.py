"""kgdiff demo shows every advertised feature: groups Wikipedia `supported`, records with a
Wikipedia context, the benchmark's audit; and the README says what its benchmark left out and
why, in the audit's own figures."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import orjson
import pytest

import kgdiff
from kgdiff.export.audit.render import left_out_lines, target_lines
from kgdiff.export.audit.run import audit_export
from tests.demo_run import DemoRun
from tests.paths import ROOT


@pytest.fixture(scope="module")
def demo(demo_run: DemoRun, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """``kgdiff demo`` (the session's run): a copy of its store and what it printed."""
    store = tmp_path_factory.mktemp("demo") / "store"
    shutil.copytree(demo_run.store, store)
    return store, demo_run.stdout


def test_the_demo_shows_groups_wikipedia_supports(demo: tuple[Path, str]) -> None:
    _, out = demo
    verdicts = out[out.index("does Wikipedia support the facts?") :]
    # the demo's own dates precede the Wikipedia sample: unknown, and the command says why
    assert "no enwiki snapshot at or before the init date (2013-12-21)" in verdicts
    judged = verdicts[verdicts.index("at the Wikipedia sample's date") :]
    supported = re.search(r"stable\s*│\s*([\d,]+)\s*│", judged)
    assert supported is not None and int(supported.group(1).replace(",", "")) > 0
    assert "groups Wikipedia supports" in judged
    assert re.search(r"Andorra\s*│\s*continent\s*│\s*Europe", judged)


def test_the_demos_benchmark_has_records_with_a_context(demo: tuple[Path, str]) -> None:
    store, out = demo
    # the one qa group with a sentence, Andorra's heads of state, names a co-prince without
    # an English label (gold_partly_unnamed): the demo shows a chain with a context instead
    assert "one record of multi_hop/hops_2 with a Wikipedia context" in out
    assert "Alabama is a state located in the southeastern" in out
    folder = store / "exports" / "benchmark-2014-10-11"
    lines = (folder / "data" / "multi_hop" / "hops_2.jsonl").read_bytes().splitlines()
    with_context = [r for r in map(orjson.loads, lines) if any(r["hop_contexts"])]
    assert with_context and all(r["current"] == "2016-05-01" for r in with_context)
    assert "benchmark records at fault" in out and "left out:" in out


def test_the_readme_says_what_the_demos_benchmark_left_out_and_why(
    demo: tuple[Path, str],
) -> None:
    store, _ = demo
    report = audit_export(store / "exports" / "benchmark-2014-10-11", kgdiff.open(store))
    marks = {True: "met:", False: "NOT met:"}
    wanted = left_out_lines(report) + [
        line for line in target_lines(report, marks.__getitem__) if not line.startswith(" ")
    ]
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    missing = [f"- {line}" for line in wanted if f"- {line}\n" not in readme]
    assert not missing, "README.md's demo summary should read:\n" + "\n".join(missing)


def test_the_demo_shows_knowledge_updates_and_keeps_their_classification(
    demo: tuple[Path, str],
) -> None:
    """The demo prints the knowledge updates after mid-2005 and keeps the valid-time build
    they rest on, which the README's ``kgdiff updates`` example then reads."""
    store, out = demo
    shown = out[out.index("knowledge updates after a 2005-06-01 cutoff") :]
    assert re.search(
        r"Germany \(Q183\)\s*│\s*head of government\s*│\s*Q2530\s*│\s*Q567\s*│\s*2005-11-22", shown
    )
    builds = [json.loads(p.read_text()) for p in store.glob("builds/classify/*/params.json")]
    assert {(b["mode"], b["cutoff"], b["current"]) for b in builds} >= {
        ("valid", "2005-06-01", "2014-12-31")
    }
