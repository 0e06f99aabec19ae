"""kgdiff export audit on real records: the export the demo made before issue 35
(tests/data/export_audit/demo-ca28b2e, see tests/data/NOTICE), whose problems the audit must
find, and the audit every export now runs and writes into its folder."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import kgdiff
from kgdiff.export.audit import item_kinds
from kgdiff.export.audit.report import AuditReport, SplitAudit
from kgdiff.export.audit.run import audit_export
from tests.benchmark_exports import export
from tests.paths import DATA, run_kgdiff

FROZEN = DATA / "export_audit" / "demo-ca28b2e"


@pytest.fixture(scope="module")
def frozen(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A copy of the demo's export of commit ca28b2e (the audit may write into it)."""
    folder = tmp_path_factory.mktemp("frozen") / "bench"
    shutil.copytree(FROZEN, folder)
    return folder


@pytest.fixture(scope="module")
def report(frozen: Path, export_sample_store: Path) -> AuditReport:
    """The audit of the frozen export, with the three demo snapshots as its store."""
    return audit_export(frozen, kgdiff.open(export_sample_store))


def split(report: AuditReport, config: str, name: str) -> SplitAudit:
    return next(s for s in report.splits if (s.config, s.split) == (config, name))


def test_the_demos_tautologies_are_found(report: AuditReport) -> None:
    stable = split(report, "qa", "stable").findings["tautology"]
    assert stable.count == 15 and stable.checked == 72
    assert "qa/Q155/P17: Which country is Brazil in? → Brazil" in stable.examples
    evolved = split(report, "qa", "evolved").findings["tautology"]
    assert evolved.examples == ["qa/Q55/P17: Which country is Netherlands in? → Netherlands"]
    uncharted = split(report, "qa", "uncharted").findings["tautology"].examples
    assert uncharted == [
        "qa/Q148/P17: Which country is People's Republic of China in? → People's Republic of China"
    ]
    chains = split(report, "multi_hop", "hops_2").findings["tautology"]
    assert chains.count == 4 and chains.examples[0].endswith("→ Washington")
    assert split(report, "temporal", "timestamp").findings["tautology"].count == 0
    # the abstention items are not looked at: their gold is "I don't know"
    assert split(report, "temporal", "unanswerable").findings["tautology"].checked == 0


def test_a_gold_that_spells_its_subject_is_found(report: AuditReport) -> None:
    # "At which address is the official website of Moldova?" → http://www.moldova.md/en/start
    stable = split(report, "qa", "stable").findings["names_subject"]
    assert stable.count == 19 and stable.checked == 72
    assert "qa/Q217/P856: Moldova → http://www.moldova.md/en/start" in stable.examples
    evolved = split(report, "qa", "evolved").findings["names_subject"].examples
    assert "qa/Q83/P856: MediaWiki → https://www.mediawiki.org/" in evolved
    chains = split(report, "multi_hop", "hops_2").findings["names_subject"].examples
    assert chains[0] == "multi_hop/Q234/P36/P131: City of Brussels → Brussels-Capital Region"
    assert split(report, "temporal", "timestamp").findings["names_subject"].count == 0
    target = next(t for t in report.targets if t.key == "names_subject")
    assert not target.met and target.figure == "29 records"


def test_a_flag_emoji_answer_and_novalue_outdated_are_found(report: AuditReport) -> None:
    assert split(report, "qa", "uncharted").findings["unsayable_answers"].examples == [
        "qa/Q166/P17: 🇷🇺"
    ]
    implicit = split(report, "temporal", "implicit").findings["unsayable_outdated"]
    assert implicit.count == 4
    assert implicit.examples[0] == "temporal/implicit/Q937/P27/1909: <novalue>"
    assert split(report, "qa", "stable").findings["unsayable_answers"].count == 0


def test_a_respelled_url_asked_as_evolution_is_found(report: AuditReport) -> None:
    found = split(report, "qa", "evolved").findings["reformatted"]
    assert found.examples == [
        "qa/Q31/P856: http://www.belgium.be/ → http://www.belgium.be",
        "qa/Q369/P856: https://wikiquote.org → http://www.wikiquote.org/",
    ]
    assert split(report, "qa", "evolved").findings["refined"].count == 0
    target = next(t for t in report.targets if t.key == "non_substantive")
    assert not target.met and target.figure == "2 records"


def test_distractors_judged_in_slices_are_judged_alike(
    report: AuditReport, frozen: Path, export_sample_store: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the item distractors given their verdicts 7 at a time (500,000 in an export)
    monkeypatch.setattr(item_kinds, "JUDGED_SLICE", 7)
    sliced = audit_export(frozen, kgdiff.open(export_sample_store))
    kinds = [(w.findings.get("option_kind"), s.findings.get("option_kind"))
             for w, s in zip(report.splits, sliced.splits, strict=True)]  # fmt: skip
    assert all(whole == part for whole, part in kinds)
    assert sum(whole is not None and whole.checked > 20 for whole, _ in kinds) >= 2
    assert sliced.targets == report.targets


def test_distractors_of_another_kind_are_found(report: AuditReport, frozen: Path) -> None:
    # "What came just before November?" → October, offered with Wednesday and 3: the store
    # says October is a month, Wednesday a day of the week
    wrong = split(report, "qa", "stable").findings["option_kind"].examples
    assert "qa/Q125/P155: gold October (item), distractor Wednesday" in wrong
    assert "qa/Q125/P155: gold October (item), distractor 3" in wrong
    kinds = next(t for t in report.targets if t.key == "option_kind")
    assert not kinds.met and "of 482 distractors" in kinds.figure
    # the dates and durations of the temporal config are all of their gold's kind
    assert split(report, "temporal", "timestamp").findings["option_kind"].share == 1.0
    # without the store, words alone still tell a number's distractors: "What came just
    # before 4?" → 3, offered with October and Wednesday (issue 35)
    alone = audit_export(frozen)
    found = split(alone, "qa", "stable").findings["option_kind"]
    assert found.examples[:2] == [
        "qa/Q202/P155: gold 3 (item), distractor October",
        "qa/Q202/P155: gold 3 (item), distractor Wednesday",
    ]
    assert found.unchecked == 94
    assert any("item distractors not judged" in note for note in alone.notes)


def test_what_was_left_out_is_read_from_the_build_file(report: AuditReport) -> None:
    qa = split(report, "qa", "stable").dropped
    assert qa is not None and qa.scope == "config" and qa.total == 138 + 1183 + 6
    implicit = split(report, "temporal", "implicit").dropped
    assert implicit is not None and implicit.scope == "split"
    assert implicit.counts == {"no_answer_text": 174, "no_year_without_doubt": 71}


def test_no_duplicate_options_and_every_record_labelled(report: AuditReport) -> None:
    for audited in report.splits:
        assert audited.count("duplicate_options") == 0
        labelled = audited.findings["labelled"]
        assert labelled.count == labelled.checked == audited.records


def test_the_command_reports_and_strict_fails(frozen: Path, export_sample_store: Path) -> None:
    store = ("--store", str(export_sample_store))
    done = run_kgdiff("export", "audit", str(frozen), *store)
    assert done.returncode == 0, done.stderr
    assert "benchmark records at fault" in done.stdout
    assert "NOT met: no question gives its answer away: 21 records (target 0)" in done.stdout
    assert "qa/Q155/P17: Which country is Brazil in? → Brazil" in done.stdout
    strict = run_kgdiff("export", "audit", str(frozen), *store, "--strict", "--json")
    assert strict.returncode == 8
    assert strict.stderr.startswith("error: the export misses 5 hard target(s) of the audit")
    document = json.loads(strict.stdout)
    assert document["passed"] is False
    assert document["configs"]["qa"]["stable"]["tautology"]["count"] == 15
    assert document["targets"]["duplicate_options"]["met"] is True


def test_write_puts_one_section_into_the_card_and_the_build_file(
    frozen: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "bench"
    shutil.copytree(frozen, folder)
    (folder / "README.md").write_text("# card\n\n## Licence\n\nCC0.\n", encoding="utf-8")
    refused = run_kgdiff("export", "audit", str(folder), "--write", "--store", str(tmp_path))
    assert refused.returncode == 2 and "no store there" in refused.stderr
    for _ in range(2):  # the default store, if any: the figures below need none
        done = run_kgdiff("export", "audit", str(folder), "--write")
        assert done.returncode == 0, done.stderr
    card = (folder / "README.md").read_text(encoding="utf-8")
    assert card.count("## Quality audit") == 1
    assert card.index("## Quality audit") < card.index("## Licence")
    assert "| qa/stable | 72 | 1,327* | 15 / 19 |" in card
    build = json.loads((folder / "kgdiff_build.json").read_text(encoding="utf-8"))
    assert build["audit"]["targets"]["tautology"]["figure"] == "21 records"
    assert build["configs"]["qa"]["left_out"]["too_few_options"] == 6


def test_every_export_is_audited_into_its_folder(export_sample_store: Path, tmp_path: Path) -> None:
    done = export(export_sample_store, tmp_path / "b", configs=("qa", "temporal"))
    assert done.audit is not None
    build = json.loads((done.out / "kgdiff_build.json").read_text(encoding="utf-8"))
    again = audit_export(done.out, kgdiff.open(export_sample_store))
    assert build["audit"] == json.loads(json.dumps(again.as_json()))
    assert {s.config for s in again.splits} == {"qa", "temporal"}
    card = (done.out / "README.md").read_text(encoding="utf-8")
    assert card.index("## Quality audit") < card.index("## Licence")
    printed = run_kgdiff(
        "export",
        "benchmark",
        "--cutoff",
        "2014-10-11",
        "--out",
        str(tmp_path / "c"),
        "--store",
        str(export_sample_store),
    )
    assert printed.returncode == 0, printed.stderr
    assert "benchmark records at fault" in printed.stdout
    assert "no two options of the same text" in printed.stdout
