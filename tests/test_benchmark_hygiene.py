"""Records a benchmark author keeps (issue 35), on the real samples of the demo store, every
config: no record gives its answer away ("Which country is Brazil in?", "Malta is in Malta."),
every answer and option is words a model could say (no 🇷🇺), no placeholder (``<novalue>``,
``<somevalue>``) is shown anywhere, the popularity filters leave out unpopular subjects, and
what is left out is counted per config, split and reason in ``kgdiff_build.json``."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest

import kgdiff
from kgdiff.errors import UsageError
from kgdiff.export.benchmark import BenchmarkExport
from kgdiff.export.words.names import Names
from tests.benchmark_exports import export, records
from tests.paths import run_kgdiff
from tests.shared_exports import DEMO_EVERY_CONFIG, shared_export

Record = dict[str, Any]
WORDS = re.compile(r"[^\W_]")
"""A letter or a digit of any script: what a text a model could say has."""
PLACEHOLDERS = ("<novalue>", "<somevalue>")
TEXT_LISTS = ("answers", "answer_labels", "outdated_answers", "options")


@pytest.fixture(scope="module")
def exported(pristine_demo: Path, tmp_path_factory: pytest.TempPathFactory) -> BenchmarkExport:
    """The demo store's export, every config and static pool (made once per run: the same
    export of the same store as tests/test_benchmark_wording.py's and test_task_metrics.py's)."""
    return shared_export(tmp_path_factory, pristine_demo, **DEMO_EVERY_CONFIG)


@pytest.fixture(scope="module")
def build(exported: BenchmarkExport) -> dict[str, Any]:
    document: dict[str, Any] = json.loads((exported.out / "kgdiff_build.json").read_text())
    return document


@pytest.fixture(scope="module")
def by_config(exported: BenchmarkExport) -> dict[str, list[Record]]:
    return {
        config: [r for split in splits for r in records(exported.out, split, config)]
        for config, splits in exported.configs.items()
    }


def by_id(found: list[Record]) -> dict[str, Record]:
    return {record["id"]: record for record in found}


def test_no_country_is_asked_which_country_it_is_in(
    by_config: dict[str, list[Record]], build: dict[str, Any]
) -> None:
    qa = by_id(by_config["qa"])
    questions = {record["question"] for record in qa.values()}
    statements = {record["tf_statement"] for record in qa.values()}
    # Brazil (Q155) and Malta (Q233) are countries; Netherlands (Q55) and Barbados (Q244)
    # are, for the data, in themselves
    for gone in ("Q155", "Q233", "Q55", "Q244", "Q33", "Q45"):
        assert f"qa/{gone}/P17" not in qa, gone
    assert "Which sovereign state is Brazil in?" not in questions
    assert "Malta is in Malta." not in statements and "Finland is in Finland." not in statements
    assert "Which sovereign state is Boston in?" in questions  # a city is asked
    dropped = build["configs"]["qa"]["dropped"]
    assert dropped["stable"]["subject_class_not_asked"] >= 10
    assert dropped["evolved"]["tautology"] >= 1  # "Which country is Netherlands in?"


def test_no_record_of_any_config_gives_its_answer_away(by_config: dict[str, list[Record]]) -> None:
    from kgdiff.export.rules.tautology import judge

    for config in ("qa", "pools", "multi_hop"):
        assert by_config[config], config
        for record in by_config[config]:
            texts = [record["question"], record["cloze"]]
            values = record.get("latest") or record.get("objects") or []
            verdict = judge(
                record["answers"], record["answer_labels"], [record["subject_label"]], texts,
                record["subject"], values,
            )  # fmt: skip
            assert not verdict.tautology and not verdict.restating, record["id"]
    for record in by_config["temporal"]:
        own = record["outdated"] if record["kind"] == "unanswerable" else record["objects"]
        assert record["subject"] not in own, record["id"]
        if record["kind"] in ("timestamp", "interval"):
            slots = [record["subject_label"], *record["object_labels"]]
            verdict = judge(record["answers"], record["answer_labels"], slots, [record["question"]])
            assert not verdict.tautology, record["id"]


def test_an_alias_that_restates_the_question_is_no_answer(
    by_config: dict[str, list[Record]],
) -> None:
    lisbon = by_id(by_config["qa"])["qa/Q45/P36"]
    assert lisbon["question"] == "Which city is the capital of Portugal?"
    assert "Lisbon" in lisbon["answers"] and "Lisbon, Portugal" in lisbon["answers"]
    assert "Capital of Portugal" not in lisbon["answers"]


def test_a_chain_whose_answer_its_question_names_is_left_out(
    by_config: dict[str, list[Record]], build: dict[str, Any]
) -> None:
    chains = by_id(by_config["multi_hop"])
    # "Which country is George Washington a citizen of?" then its capital: Washington, D.C.
    assert "multi_hop/Q23/P27/P36" not in chains
    assert "multi_hop/Q42/P27/P36" in chains  # Douglas Adams → United Kingdom → London
    dropped = build["configs"]["multi_hop"]["dropped"]
    assert dropped["hops_2"]["tautology"] > 0 and dropped["hops_3"]["tautology"] > 0


def test_answers_and_options_are_words_a_model_could_say(
    by_config: dict[str, list[Record]],
) -> None:
    russia = by_id(by_config["pools"])["pools/Q1229/P17/2013"]
    assert "Russia" in russia["answers"] and "🇷🇺" not in russia["answers"]
    for config, found in by_config.items():
        for record in found:
            for field in TEXT_LISTS:
                texts = record.get(field) or []
                assert all(WORDS.search(text) for text in texts), (config, record["id"], field)


def test_no_placeholder_is_shown_anywhere(
    by_config: dict[str, list[Record]], build: dict[str, Any]
) -> None:
    for config, found in by_config.items():
        for record in found:
            for field, value in record.items():
                values = value if isinstance(value, list) else [value]
                assert not set(map(str, values)) & set(PLACEHOLDERS), (config, record["id"], field)
    # Einstein was stateless from 1896 to 1901: his other years' records keep the countries
    einstein = [
        r
        for r in by_config["temporal"]
        if r["subject"] == "Q937"
        and r["pid"] == "P27"
        and r["kind"] in ("implicit", "unanswerable")
    ]
    assert einstein and all("Q39" in r["objects"] + r["outdated"] for r in einstein)
    assert build["configs"]["qa"]["dropped"]["stable"]["no_value"] >= 1
    assert build["configs"]["temporal"]["dropped"]["implicit"]["no_value"] >= 1


def test_every_record_left_out_is_counted_per_split_and_reason(
    exported: BenchmarkExport, build: dict[str, Any]
) -> None:
    configs = build["configs"]
    for config, splits in exported.configs.items():
        dropped = configs[config]["dropped"]
        assert set(splits) <= set(dropped), config
        totals: dict[str, int] = {}
        for reasons in dropped.values():
            for reason, count in reasons.items():
                totals[reason] = totals.get(reason, 0) + count
        left_out = configs[config]["left_out"]
        if config == "temporal":
            assert dropped == {k: {r: n for r, n in v.items() if n} for k, v in left_out.items()}
        else:
            assert totals == {reason: n for reason, n in left_out.items() if n}, config
    qa = configs["qa"]
    for level, written in exported.configs["qa"].items():
        assert qa["groups_by_level"][level] == written + sum(qa["dropped"][level].values())
    pools = configs["pools"]
    every = sum(exported.configs["pools"].values())
    assert pools["group_years"] == every + sum(sum(r.values()) for r in pools["dropped"].values())
    hops = configs["multi_hop"]
    chains = sum(exported.configs["multi_hop"].values())
    assert hops["chains"] == chains + sum(sum(r.values()) for r in hops["dropped"].values())


def test_min_sitelinks_leaves_out_the_subjects_below_it(
    export_demo_store: Path, exported: BenchmarkExport, build: dict[str, Any], tmp_path: Path
) -> None:
    assert (
        build["parameters"]["min_sitelinks"] == 1 and build["parameters"]["min_pageviews"] is None
    )
    done = export(
        export_demo_store, tmp_path / "popular", configs=("qa", "pools"), min_sitelinks=150
    )
    kept = [r for split in done.configs["qa"] for r in records(done.out, split)]
    assert kept and len(kept) < sum(exported.configs["qa"].values())
    with kgdiff.open(export_demo_store).connection() as connection:
        rows = connection.execute(  # as of the latest snapshot holding the subject
            "SELECT qid, arg_max(n_sitelinks, snapshot) FROM entities GROUP BY qid"
        ).fetchall()
    sitelinks = dict(rows)
    assert all(sitelinks[r["subject"]] >= 150 for r in kept)
    document = json.loads((done.out / "kgdiff_build.json").read_text())
    assert document["parameters"]["min_sitelinks"] == 150
    per_split = {
        split: reasons["below_min_sitelinks"]
        for split, reasons in document["configs"]["qa"]["dropped"].items()
        if "below_min_sitelinks" in reasons
    }
    removed = sum(per_split.values())
    assert per_split["stable"] > 0
    card = (done.out / "README.md").read_text()
    assert "`--min-sitelinks 150`: a subject needs at least 150 sitelinks" in card
    line = next(line for line in card.splitlines() if line.startswith("- `--min-sitelinks 150`"))
    assert f"Records left out: qa {removed:,} (" in line
    assert all(f"{split} {count:,}" in line for split, count in per_split.items())


def test_min_pageviews_keeps_the_subjects_read_enough(
    export_sample_store: Path, tmp_path: Path
) -> None:
    from kgdiff.pageviews.ingest import PageviewIngest, ingest_file

    store = tmp_path / "store"
    shutil.copytree(export_sample_store, store)
    with pytest.raises(UsageError, match=r"--min-pageviews 100: the store has no page views"):
        export(store, tmp_path / "none", min_pageviews=100)
    # no real page-view dump of these articles ships with the tests: an hourly dump's lines
    views = tmp_path / "pageviews-20141201-100000"
    views.write_text("en Germany 500 0\nen Boston 40 0\nde Germany 9 0\n", encoding="utf-8")
    ingest_file(PageviewIngest(views, period="hour", date="2014-12-01T10", store=store))
    done = export(store, tmp_path / "read", min_pageviews=100)
    kept = [r for split in done.configs["qa"] for r in records(done.out, split)]
    assert kept and {r["subject"] for r in kept} == {"Q183"}  # Germany, not Boston
    document = json.loads((done.out / "kgdiff_build.json").read_text())
    assert document["configs"]["qa"]["dropped"]["stable"]["below_min_pageviews"] > 0


def test_the_command_takes_the_filters_and_refuses_a_bad_one(
    export_sample_store: Path, tmp_path: Path
) -> None:
    common = ["export", "benchmark", "--cutoff", "2014-10-11", "--store", str(export_sample_store)]
    done = run_kgdiff(*common, "--out", str(tmp_path / "a"), "--min-pageviews", "10")
    assert done.returncode == 2 and "the store has no page views" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1
    done = run_kgdiff(*common, "--out", str(tmp_path / "b"), "--min-sitelinks", "-1")
    assert done.returncode == 2 and "--min-sitelinks -1" in done.stderr
    done = run_kgdiff(*common, "--out", str(tmp_path / "c"), "--min-sitelinks", "0")
    assert done.returncode == 0, done.stderr
    built = json.loads((tmp_path / "c" / "kgdiff_build.json").read_text())
    assert built["parameters"]["min_sitelinks"] == 0
    assert not tmp_path.joinpath("a").exists() and not tmp_path.joinpath("b").exists()


def test_an_alias_of_one_snapshot_alone_is_no_name(export_demo_store: Path) -> None:
    """P39's English alias "job" is in wd-2014-10 alone, while wd-2013-12 and wd-2014-12 both
    hold P39 without it: read as of wd-2014-10 it is no name. An alias of a snapshot at
    either end has one neighbour and is kept (a new alias is no vandalism)."""
    with kgdiff.open(export_demo_store).connection() as connection:
        middle = Names.read(connection, ["P39", "Q298", "Q216"], "wd-2014-10", "en")
        latest = Names.read(connection, ["Q216"], "wd-2014-12", "en")
        aliases = {
            row[0]
            for row in connection.execute(
                "SELECT value FROM labels WHERE qid = 'P39' AND kind = 'alias' AND lang = 'en'"
                " AND snapshot = 'wd-2014-10'"
            ).fetchall()
        }
    assert "job" in aliases
    assert "job" not in middle.texts("P39") and set(middle.texts("P39")) >= aliases - {"job"}
    assert "Vilna" in latest.texts("Q216")  # new in wd-2014-12, the latest: kept
