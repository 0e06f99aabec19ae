"""Every command's ``--out`` (and ``--data``) is checked before any work (issue 39, item 4): a
file of the wrong kind, a folder that does not exist, a file's name given to a command that
writes a folder, an RDF suffix that contradicts ``--format``: one line, exit 2, nothing
written. The survey walks the command tree, so a new command with an ``--out`` needs a case
here."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import rdflib
import typer.main

from kgdiff.cli import app_for
from tests.paths import run_kgdiff

CUTOFF = "2014-10-11"
RDF_Q183 = ["--snapshot", "wd-2014-12", "--entities", "Q183"]
OFFLINE = ["--base-url", "http://127.0.0.1:9/", "--retries", "0"]
"""fetch incr's source, were the --out let through: nothing listens there."""
CASES: dict[tuple[str, str], tuple[list[str], str]] = {
    ("classify", "--out"): (["--cutoff", CUTOFF, "--out", "{tmp}/groups.txt"], ".parquet file"),
    ("spark classify", "--out"): (["--cutoff", CUTOFF, "--out", "{tmp}/g.txt"], ".parquet file"),
    ("timeline", "--out"): (["Q183", "--out", "{tmp}/no/t.csv"], "is not a folder"),
    ("pools", "--out"): (["Q183", "--pid", "P6", "--out", "{tmp}/p.tsv"], ".parquet file"),
    ("chains", "--out"): (["--date", "2014-11-01", "--out", "{tmp}/c.json"], ".parquet file"),
    ("updates", "--out"): (["--cutoff", "2005-06-01", "--out", "{tmp}/u.txt"], ".parquet file"),
    ("revisions", "--out"): (["--cutoff", "2005-06-01", "--out", "{tmp}/no/r.csv"], "a folder"),
    ("popularity", "--out"): (["--out", "{tmp}/no/p.csv"], "is not a folder"),
    ("evidence show", "--out"): (["Q183", "--out", "{tmp}/no/e.csv"], "is not a folder"),
    ("plot timeline", "--out"): (
        ["Q183", "--cutoff", CUTOFF, "--out", "{tmp}/t.pdf"],
        "not a picture kind",
    ),
    ("plot timeline", "--data"): (
        ["Q183", "--cutoff", CUTOFF, "--out", "{tmp}/t.svg", "--data", "{tmp}/t.txt"],
        "--data",
    ),
    ("plot staleness", "--out"): (["--out", "{tmp}/no/s.svg"], "is not a folder"),
    ("plot staleness", "--data"): (["--out", "{tmp}/s.svg", "--data", "{tmp}/s.tsv"], "--data"),
    ("export benchmark", "--out"): (
        ["--cutoff", CUTOFF, "--out", "{tmp}/bench.parquet"],
        "writes a folder (a Hugging Face dataset), not a .parquet file",
    ),
    ("export rdf", "--out"): (
        [*RDF_Q183, "--format", "ttl", "--out", "{tmp}/germany.nt"],
        "its suffix .nt names N-Triples, but --format ttl writes Turtle: name it germany.ttl",
    ),
    ("fetch incr", "--out"): (
        ["--from", "2024-01-01", "--to", "2024-01-02", *OFFLINE, "--out", "{tmp}/incr.xml.bz2"],
        "downloads the daily dumps into a folder, not a .bz2 file",
    ),
}
"""(command, option) → the arguments that give it a bad output, and what the refusal says."""


def _commands(group: Any, context: Any, path: list[str]) -> Iterator[tuple[str, Any, Any]]:
    for name in group.list_commands(context):
        command = group.get_command(context, name)
        child = command.make_context(name, [], parent=context, resilient_parsing=True)
        if hasattr(command, "list_commands"):
            yield from _commands(command, child, [*path, name])
        else:
            yield " ".join([*path, name]), command, child


def output_options() -> set[tuple[str, str]]:
    """(command, option) of every ``--out`` and ``--data`` the command line has."""
    root = typer.main.get_command(app_for([]))
    context = root.make_context("kgdiff", [], resilient_parsing=True)
    return {
        (name, option)
        for name, command, child in _commands(root, context, [])
        for param in command.get_params(child)
        for option in getattr(param, "opts", [])
        if option in ("--out", "--data")
    }


def test_the_survey_covers_every_output_option() -> None:
    assert output_options() == set(CASES)


@pytest.mark.parametrize("case", sorted(CASES), ids=" ".join)
def test_a_bad_output_is_refused_before_any_work(
    demo_store: Path, tmp_path: Path, case: tuple[str, str]
) -> None:
    words, says = CASES[case]
    args = [word.replace("{tmp}", str(tmp_path)) for word in words]
    store = [] if case[0] == "fetch incr" else ["--store", str(demo_store)]  # fetch has none
    done = run_kgdiff(*case[0].split(), *args, *store)
    assert done.returncode == 2, done.stderr
    assert done.stderr.startswith("error:") and len(done.stderr.splitlines()) == 1
    assert says in done.stderr and case[1] in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_an_existing_file_is_no_benchmark_folder(demo_store: Path, tmp_path: Path) -> None:
    taken = tmp_path / "bench"
    taken.write_text("a file\n")
    args = ["--cutoff", CUTOFF, "--out", str(taken), "--store", str(demo_store)]
    done = run_kgdiff("export", "benchmark", *args)
    assert done.returncode == 2 and f"--out {taken} is a file" in done.stderr
    assert taken.read_text() == "a file\n"


@pytest.mark.parametrize("parent_is_a_file", [False, True], ids=["missing", "a file"])
def test_a_missing_parent_folder_is_named_with_what_to_do(
    demo_store: Path, tmp_path: Path, parent_is_a_file: bool
) -> None:
    """A benchmark folder inside one that does not exist: create that one (kgdiff does not
    make a tree of folders on a typo's word); inside a file, only that it is not a folder."""
    parent = tmp_path / "runs"
    if parent_is_a_file:
        parent.write_text("a file\n")
    out = parent / "bench"
    args = ["--cutoff", CUTOFF, "--out", str(out), "--store", str(demo_store)]
    done = run_kgdiff("export", "benchmark", *args)
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1
    assert f"--out {out}: {parent} is not a folder" in done.stderr
    assert ("it does not exist: create it" in done.stderr) is not parent_is_a_file


@pytest.mark.parametrize(
    ("name", "fmt", "parse_as"),
    [("germany.ttl", None, "turtle"), ("germany.nt", None, "nt"), ("germany.txt", "nt", "nt")],
)
def test_the_rdf_format_follows_the_suffix(
    demo_store: Path, tmp_path: Path, name: str, fmt: str | None, parse_as: str
) -> None:
    out = tmp_path / name
    chosen = ["--format", fmt] if fmt else []
    args = ["--snapshot", "wd-2014-12", "--entities", "Q183", *chosen, "--out", str(out)]
    done = run_kgdiff("export", "rdf", *args, "--store", str(demo_store))
    assert done.returncode == 0, done.stderr
    assert out.read_text().startswith("@prefix") == (parse_as == "turtle")
    assert len(rdflib.Graph().parse(out, format=parse_as)) > 3000


@pytest.mark.parametrize(
    ("name", "says"),
    [
        ("germany.nt.bz2", "compresses with gzip only; name it germany.nt.gz"),
        ("germany.rdf", "kgdiff does not write RDF/XML"),
    ],
)
def test_rdf_kgdiff_cannot_write_is_refused(
    demo_store: Path, tmp_path: Path, name: str, says: str
) -> None:
    args = ["--snapshot", "wd-2014-12", "--entities", "Q183", "--out", str(tmp_path / name)]
    done = run_kgdiff("export", "rdf", *args, "--store", str(demo_store))
    assert done.returncode == 2 and says in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_n_triples_hold_each_triple_once(demo_store: Path, tmp_path: Path) -> None:
    """Q183 has two statements that Germany is a member of Q7825, both best-ranked: they
    give one truthy triple, written once (it was written twice: 3,872 lines, 3,871 triples)."""
    out = tmp_path / "germany.nt"
    args = ["--snapshot", "wd-2014-12", "--entities", "Q183", "--out", str(out)]
    done = run_kgdiff("export", "rdf", *args, "--store", str(demo_store))
    assert done.returncode == 0, done.stderr
    lines = out.read_text().splitlines()
    assert len(lines) == len(set(lines)) == len(rdflib.Graph().parse(out, format="nt"))
    assert f"{len(lines):,} triples written" in done.stdout
    member = (
        "<http://www.wikidata.org/entity/Q183> <http://www.wikidata.org/prop/direct/P463>"
        " <http://www.wikidata.org/entity/Q7825> ."
    )
    assert lines.count(member) == 1
