"""The distractors of a person on the real samples (issue 35, item 3): people of the gold's
role, of the sex a mother, a father or a spouse implies, never a person merely for being one
(a Dutch footballer as the mother of Jesus, a porn actress as a head of government), the
record left out when the store has too few; and no distractor a value its subject holds in
any snapshot (docs/benchmark-export.md#option-kind-agreement). Judged here from the store
with plain SQL; the audit's own reading of the same standard is tested at the end."""

from __future__ import annotations

import json
from collections import defaultdict
from datetime import date
from pathlib import Path
from typing import Any

import duckdb
import polars as pl
import pytest

import kgdiff
from kgdiff.export.audit.run import audit_export
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.relations.catalogue import shipped_catalogue
from tests.benchmark_exports import export, records
from tests.paths import DATA

Record = dict[str, Any]
SPLITS = {
    "qa": ("stable", "evolved", "uncharted"),
    "temporal": ("implicit", "unanswerable"),
}
MAN, WOMAN = "Q6581097", "Q6581072"
FROZEN = DATA / "export_audit" / "demo-ca28b2e"


@pytest.fixture(scope="module")
def samples(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The window of the blind read's real export (init 2013-12-21, cutoff 2013-12-25,
    current 2014-10-11): mothers, children and founders in ``qa``."""
    out = tmp_path_factory.mktemp("people") / "bench"
    return export(
        export_demo_store, out, init=date(2013, 12, 21), cutoff=date(2013, 12, 25),
        current=date(2014, 10, 11), configs=("qa", "temporal"),
    )  # fmt: skip


@pytest.fixture(scope="module")
def demo(export_demo_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The demo's window: heads of state and government of years the data do not cover."""
    out = tmp_path_factory.mktemp("people-demo") / "bench"
    return export(export_demo_store, out, configs=("qa", "temporal"))


def every(done: BenchmarkExport) -> list[Record]:
    return [
        record
        for config, splits in SPLITS.items()
        for split in splits
        for record in records(done.out, split, config)
    ]


class People:
    """What the store says of items, read with plain SQL: labels, classes, sex, roles, the
    objects of each property and what each subject holds."""

    def __init__(self, store: Path) -> None:
        connection = duckdb.connect(str(store / "kg.duckdb"), read_only=True)
        self.by_label: dict[str, set[str]] = defaultdict(set)
        for qid, label in connection.execute(
            "SELECT DISTINCT qid, value FROM labels WHERE lang = 'en' AND kind = 'label'"
        ).fetchall():
            self.by_label[label].add(qid)
        self.facts: dict[tuple[str, str], set[str]] = defaultdict(set)
        self.objects: dict[str, set[str]] = defaultdict(set)
        for subject, pid, value in connection.execute(
            "SELECT DISTINCT subject, pid, object_qid FROM statements"
            " WHERE object_qid IS NOT NULL AND rank <> 'deprecated'"
        ).fetchall():
            self.facts[subject, pid].add(value)
            self.objects[pid].add(value)
        connection.close()

    def person(self, qid: str) -> bool:
        return "Q5" in self.facts[qid, "P31"]

    def roles(self, qid: str) -> set[str]:
        return self.facts[qid, "P106"] | self.facts[qid, "P39"]

    def usual_roles(self, pid: str) -> set[str]:
        """The roles held by at least half of the property's objects that hold one (three at
        least)."""
        holders = [self.roles(qid) for qid in self.objects[pid] if self.roles(qid)]
        counts: dict[str, int] = defaultdict(int)
        for held in holders:
            for role in held:
                counts[role] += 1
        if len(holders) < 3:
            return set()
        return {role for role, count in counts.items() if 2 * count >= len(holders)}


@pytest.fixture(scope="module")
def people(export_demo_store: Path, samples: BenchmarkExport) -> People:
    return People(export_demo_store)


def reference(record: Record) -> list[str]:
    """The gold's objects (for an abstention item, the group's objects of other years)."""
    if record.get("kind") == "unanswerable":
        return list(record["outdated"])
    return list(record.get("latest") or record.get("objects") or [])


def noise(record: Record) -> list[str]:
    return [o for o, k in zip(record["options"], record["choice_types"], strict=True)
            if k == "noise"]  # fmt: skip


def of_persons_kind(record: Record, option: str, people: People) -> bool:
    """Whether ``option`` names a person of the role (and the sex) of the record's gold."""
    gold = [qid for qid in reference(record) if people.person(qid)]
    pid = record["pid"]
    sexes = {MAN} if pid == "P22" else {WOMAN} if pid == "P25" else None
    if pid == "P26":
        sexes = {sex for qid in gold for sex in people.facts[qid, "P21"]}
    roles = {role for qid in gold for role in people.roles(qid)} | people.usual_roles(pid)
    for qid in people.by_label.get(option, set()):
        if not people.person(qid):
            continue
        if sexes is not None and not people.facts[qid, "P21"] & sexes:
            continue
        if people.roles(qid) & roles or qid in people.objects[pid]:
            return True
    return False


def persons_records(done: BenchmarkExport, people: People) -> list[Record]:
    """The records whose gold is a person, or a relation's object the catalogue expects to
    be a person that the store does not hold."""
    catalogue = shipped_catalogue()
    found = []
    for record in every(done):
        gold = reference(record)
        expects = catalogue[record["pid"]].object_class == "Q5"
        known = [qid for qid in gold if people.facts[qid, "P31"]]
        if any(people.person(qid) for qid in gold) or (expects and not known):
            found.append(record)
    return found


@pytest.mark.parametrize("window", ["samples", "demo"])
def test_a_persons_distractors_hold_its_role(
    window: str, request: pytest.FixtureRequest, people: People
) -> None:
    """Every distractor of a person is a person who holds one of its roles (an occupation
    or a position), one most of the relation's people hold, or the relation's object
    elsewhere: the demo once offered Jenna Jameson and Plato as heads of government, Piet
    Kraak, a footballer, as the mother of Jesus, Diego Velázquez as a founder of Wikipedia."""
    done: BenchmarkExport = request.getfixturevalue(window)
    found = persons_records(done, people)
    checked = [(record["id"], option) for record in found for option in noise(record)]
    wrong = [
        (record["id"], option)
        for record in found
        for option in noise(record)
        if not of_persons_kind(record, option, people)
    ]
    # the demo's heads of government and spouses are mostly items the store does not hold,
    # of unknown role and sex: their records are left out rather than padded (and Andorra's
    # co-princes, one of them without a label: gold_partly_unnamed)
    assert len(checked) > {"samples": 25, "demo": 2}[window]
    assert not wrong, wrong


def test_a_mothers_distractors_are_women_and_too_few_leave_the_record_out(
    samples: BenchmarkExport, people: People
) -> None:
    """The mother of Louis IX was offered Sebastián Piñera; the mother of Jesus, whom the
    samples give one other mother (Blanche of Castile), was offered a footballer to fill the
    options: she is left out now, and counted."""
    by_id = {record["id"]: record for record in every(samples)}
    louis = by_id["qa/Q346/P25"]
    assert louis["answers"] == ["Blanche of Castile"]
    for option in noise(louis):
        assert any(WOMAN in people.facts[qid, "P21"] for qid in people.by_label[option]), option
    assert "qa/Q302/P25" not in by_id
    build = json.loads((samples.out / "kgdiff_build.json").read_text(encoding="utf-8"))
    stable = build["audit"]["configs"]["qa"]["stable"]["dropped"]["reasons"]
    assert stable["too_few_options"] >= 1
    spouses = [r for r in every(samples) if r["pid"] == "P26"]
    for record in spouses:  # a spouse the store gives no sex is left out
        sexes = {sex for qid in reference(record) for sex in people.facts[qid, "P21"]}
        assert sexes, record["id"]


@pytest.mark.parametrize("window", ["samples", "demo"])
def test_no_distractor_is_true_of_its_subject(
    window: str, request: pytest.FixtureRequest, people: People
) -> None:
    """Chile's head of state of 2013, Sebastián Piñera, was offered as a wrong answer for
    "In 2019, who was the head of state of Chile?" (he was); "God" as a child of Mary. No
    distractor names an item its subject holds, in any snapshot, under the relation asked or
    another of the same object class, nor a person for a person's relation when it is no
    person."""
    done: BenchmarkExport = request.getfixturevalue(window)
    catalogue = shipped_catalogue()
    wrong = []
    for record in every(done):
        kind = catalogue[record["pid"]].object_class
        kin = [r.pid for r in catalogue if kind is not None and r.object_class == kind]
        held = {v for pid in {record["pid"], *kin} for v in people.facts[record["subject"], pid]}
        for option in noise(record):
            if people.by_label.get(option, set()) & held:
                wrong.append((record["id"], option))
    assert not wrong, wrong
    texts = {option for record in every(done) if record["id"] == "qa/Q345/P40"
             for option in record["options"]}  # fmt: skip
    assert "God" not in texts and "Mars" not in texts


def test_the_audit_reads_the_same_standard(export_sample_store: Path, tmp_path: Path) -> None:
    """Three abstention records of the demo's export of commit ca28b2e, audited: people
    offered for their class alone (Julian Assange, a journalist, as Belgium's head of
    government; Chilean presidents as Bill Clinton's wife, whose sex the samples do not give)
    and Chile's head of state of 2013 offered as a wrong one for 1813 (true of Chile) are not
    of the gold's kind; a president (François Hollande) for a head of government is, and so
    is Sebastián Piñera, a head of government elsewhere."""
    chosen = [
        "temporal/unanswerable/Q1124/P26/1942",
        "temporal/unanswerable/Q298/P35/1813",
        "temporal/unanswerable/Q31/P6/1827",
    ]
    frozen = pl.read_parquet(FROZEN / "data" / "temporal" / "unanswerable.parquet")
    picked = frozen.filter(pl.col("id").is_in(chosen)).sort("id")
    assert picked.height == 3
    path = tmp_path / "bench" / "data" / "temporal" / "unanswerable.parquet"
    path.parent.mkdir(parents=True)
    picked.write_parquet(path)
    report = audit_export(tmp_path / "bench", kgdiff.open(export_sample_store))
    found = report.splits[0].findings["option_kind"]
    wrong = [example.split("/")[2] + " " + example.split("distractor ")[1]
             for example in found.examples]  # fmt: skip
    assert wrong == [
        "Q1124 Sebastián Piñera", "Q1124 Michelle Bachelet", "Q1124 François Hollande",
        "Q298 Sebastián Piñera", "Q31 Julian Assange",
    ]  # fmt: skip
    # of the gold's kind: François Hollande and Sebastián Piñera for Belgium, Chile's outdated
    # head of state Michelle Bachelet, and François Hollande for Chile
    assert (found.count, found.checked) == (4, 9)
