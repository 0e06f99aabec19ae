"""kgdiff export benchmark, config multi_hop, on the real samples: every hop holds at the
cutoff, the chain links up, the question is composed from the catalogue's templates, the
folder loads with the datasets library, and hop contexts come from the evidence."""

from __future__ import annotations

from datetime import date
from pathlib import Path
from typing import Any

import orjson
import pytest

import kgdiff
from kgdiff.errors import BeyondDataError
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.dataset.schema import MULTI_HOP_SCHEMA
from kgdiff.export.relations.catalogue import load_catalogue
from kgdiff.temporal.dates import GapPolicy
from tests.benchmark_exports import CUTOFF, export, records

SPLITS = ("hops_2", "hops_3")


@pytest.fixture(scope="module")
def exported(
    export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory
) -> BenchmarkExport:
    out = tmp_path_factory.mktemp("multi-hop") / "bench"
    return export(export_sample_store, out, configs=("qa", "multi_hop"))


def chains(folder: Path) -> list[dict[str, Any]]:
    return [record for split in SPLITS for record in records(folder, split, "multi_hop")]


def test_both_configs_are_written(exported: BenchmarkExport) -> None:
    assert list(exported.configs) == ["qa", "multi_hop"]
    assert exported.configs["multi_hop"]["hops_2"] > 50
    assert exported.configs["multi_hop"]["hops_3"] > 20


def test_every_hop_holds_at_the_cutoff_and_the_chain_links_up(
    export_sample_store: Path, exported: BenchmarkExport
) -> None:
    found = chains(exported.out)
    # every group's facts in one query: asked for the hop subjects (hundreds), facts_at would
    # plan its query once per subject; tests/test_lookup.py checks that both give the same rows
    facts = kgdiff.open(export_sample_store).facts_at(CUTOFF)
    holds = {
        (row["subject"], row["pid"]): set(row["objects"]) for row in facts.iter_rows(named=True)
    }
    for record in found:
        hops = zip(record["hop_subjects"], record["pids"], record["hop_objects"], strict=True)
        for subject, pid, obj in hops:
            assert obj in holds[(subject, pid)], (record["id"], pid)
        assert record["hop_subjects"][1:] == record["hop_objects"][:-1]
        assert (
            record["latest"][0] == record["hop_objects"][-1]
            or record["hop_objects"][-1] in record["latest"]
        )
        assert record["date"] == CUTOFF.isoformat()
        assert (
            len(set(record["hop_subjects"]) | {record["hop_objects"][-1]}) == record["n_hops"] + 1
        )


def test_the_question_is_composed_from_the_relations_templates(exported: BenchmarkExport) -> None:
    catalogue = load_catalogue()
    for record in chains(exported.out):
        relations = [catalogue[pid] for pid in record["pids"]]
        question = str(record["question"])
        label = str(record["subject_label"])
        # the start as it reads in a sentence ("the United Kingdom"), in the past tense when
        # it no longer existed (docs/relations.md#english)
        first = {relations[0].question(name, past) for name in (label, f"the {label}")
                 for past in (False, True)}  # fmt: skip
        assert record["hop_questions"][0] in first and record["hop_questions"][0] in question
        last = {relations[-1].question(f"X{len(relations) - 1}", past) for past in (False, True)}
        assert any(question.endswith(text) for text in last)
        assert set(record["answer_labels"]) <= set(record["answers"])


def test_the_splits_load_offline_with_the_datasets_library(
    exported: BenchmarkExport, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    datasets = pytest.importorskip("datasets")
    for split in SPLITS:
        loaded = datasets.load_dataset(
            str(exported.out), "multi_hop", split=split, cache_dir=str(tmp_path)
        )
        assert loaded.column_names == list(MULTI_HOP_SCHEMA)
        assert loaded.to_list() == records(exported.out, split, "multi_hop")


def test_hop_contexts_come_from_the_evidence(export_demo_store: Path, tmp_path: Path) -> None:
    # the demo's Wikipedia snapshot is dated 2016-05-01, after the latest Wikidata snapshot
    done = export(
        export_demo_store,
        tmp_path / "ctx",
        configs=("multi_hop",),
        current=date(2016, 5, 1),
        gap=GapPolicy(allow=True),
    )
    kg = kgdiff.open(export_demo_store)
    seen = 0
    for record in chains(done.out):
        hops = zip(
            record["hop_subjects"],
            record["pids"],
            record["hop_objects"],
            record["hop_contexts"],
            record["hop_context_pages"],
            record["hop_context_sentences"],
            strict=True,
        )
        for subject, pid, obj, sentence, page, index in hops:
            if sentence is None:
                assert page is None and index is None
                continue
            seen += 1
            rows = kg.sql(
                "SELECT count(*) FROM evidence WHERE subject = $s AND pid = $p AND object_qid = $o"
                " AND title = $t AND sentence_index = $i AND sentence = $x AND NOT weak",
                {"s": subject, "p": pid, "o": obj, "t": page, "i": index, "x": sentence},
            )
            assert rows.item() >= 1
    assert seen > 0


def test_a_cutoff_the_chains_cannot_be_read_at_is_refused_before_any_work(
    export_sample_store: Path, tmp_path: Path
) -> None:
    # valid time classifies a 2012 cutoff, but chains are read in record time, and the first
    # snapshot is of 2013-12-21
    window = {"init": date(2005, 1, 1), "cutoff": date(2012, 1, 1), "mode": "valid"}
    with pytest.raises(BeyondDataError, match="multi_hop config reads its chains") as refused:
        export(export_sample_store, tmp_path / "b", configs=("qa", "multi_hop"), **window)
    assert "before the first snapshot" in str(refused.value)
    assert list(tmp_path.iterdir()) == []
    done = export(export_sample_store, tmp_path / "qa", configs=("qa",), **window)
    assert done.configs["qa"]["stable"] > 0


@pytest.fixture(scope="module")
def june(export_sample_store: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The chains at 2014-06-01, read in the dump of 2013-12 (the next is of 2014-10)."""
    out = tmp_path_factory.mktemp("multi-hop-june") / "bench"
    return export(export_sample_store, out, configs=("multi_hop",), cutoff=date(2014, 6, 1))


def _left_out(done: BenchmarkExport) -> dict[str, int]:
    built = orjson.loads((done.out / "kgdiff_build.json").read_bytes())
    left: dict[str, int] = built["configs"]["multi_hop"]["left_out"]
    return left


def test_a_hop_asked_in_the_past_tense_held_one_value(
    export_sample_store: Path, june: BenchmarkExport
) -> None:
    # in the 2013 dump Adolf Hitler's citizenship is Austria (ended 1925) and Germany: "Which
    # country was Adolf Hitler a citizen of?" is answered by both, so no chain goes on from it
    kg = kgdiff.open(export_sample_store)
    found = chains(june.out)
    assert found and not [r["id"] for r in found if r["id"].startswith("multi_hop/Q352/P27/")]
    past = 0
    for record in found:
        hops = zip(record["hop_subjects"], record["pids"], record["hop_questions"], strict=True)
        for subject, pid, question in hops:
            if not question.startswith(("Which country was ", "Where was ", "Where did ")):
                continue
            past += 1
            held = kg.sql(
                "SELECT count(DISTINCT value) FROM statements WHERE snapshot = $n"
                " AND subject = $s AND pid = $p AND rank <> 'deprecated'",
                {"n": record["snapshot"], "s": subject, "p": pid},
            )
            assert held.item() == 1, (record["id"], question)
    assert past > 20
    assert _left_out(june)["past_hop_held_several_values"] >= 1


def test_a_hop_a_later_dump_shows_changed_by_the_date_is_left_out(june: BenchmarkExport) -> None:
    # the dump of 2013-12 has Sebastián Piñera as Chile's head of state and of government;
    # that of 2014-10 has Michelle Bachelet from 2014-03-11, and no head of government
    found = chains(june.out)
    assert all(record["snapshot"] == "wd-2013-12" for record in found)
    chile = [r["id"] for r in found if "Q298" in r["hop_subjects"]]
    assert not chile
    assert _left_out(june)["hop_changed_by_the_date"] == 10
    # Donald Tusk, followed by Ewa Kopacz from 2014-09-22 (the later dump keeps no history
    # of him), was Poland's head of government on 2014-06-01: those chains are kept
    tusk = [r for r in found if r["answer_labels"] == ["Donald Tusk"]]
    assert {r["id"] for r in tusk} >= {"multi_hop/Q270/P17/P6", "multi_hop/Q268/P17/P6"}
