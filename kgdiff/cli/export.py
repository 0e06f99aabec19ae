"""``kgdiff export benchmark``: a classification as a Hugging Face dataset of questions;
``kgdiff export rdf``: a snapshot as RDF in Wikidata's mapping."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from kgdiff.cli.common import (
    StoreOption,
    console,
    err_console,
    graph,
    optional_day,
    parse_day,
)
from kgdiff.cli.demo_benchmark import print_export
from kgdiff.cli.export_audit import export_audit_command
from kgdiff.cli.options import (
    AllowGapOption,
    CurrentOption,
    CutoffOption,
    InitOption,
    LangOption,
    MaxGapOption,
    gap_policy,
)
from kgdiff.cli.outputs import checked_folder, rdf_format
from kgdiff.export.core.benchmark_model import DEFAULT_MIN_SITELINKS
from kgdiff.wording import counted

export_app = typer.Typer(help="Export benchmark datasets and RDF.", no_args_is_help=True)

DEFAULT_CONFIGS = "qa"


@export_app.command("benchmark")
def export_benchmark_command(
    cutoff: CutoffOption,
    out: Annotated[Path, typer.Option("--out", help="The dataset folder to write (new or empty).")],
    init: InitOption = None,
    current: CurrentOption = None,
    mode: Annotated[str, typer.Option("--mode", help="record or valid time.")] = "record",
    seed: Annotated[int, typer.Option("--seed", help="Seed of every random choice.")] = 0,
    limit: Annotated[
        int | None, typer.Option("--limit", help="At most N records per split (by the seed).")
    ] = None,
    configs: Annotated[
        str,
        typer.Option(
            "--configs",
            help="Configs to export, comma-separated: qa, multi_hop, updates, temporal, pools.",
        ),
    ] = DEFAULT_CONFIGS,
    relations: Annotated[
        Path | None,
        typer.Option("--relations", help="A relation catalogue over the shipped one (TOML)."),
    ] = None,
    options: Annotated[
        int, typer.Option("--options", help="Options per multiple-choice item (2 to 26).")
    ] = 4,
    pools_static: Annotated[
        str,
        typer.Option(
            "--pools-static",
            help="The pools config's static groups, the first in the seed's order: balanced"
            " (as many as its dynamic groups, as ChroKnowBench), all, or at most N.",
        ),
    ] = "balanced",
    min_sitelinks: Annotated[
        int,
        typer.Option(
            "--min-sitelinks",
            help="Ask only about subjects with at least N sitelinks (articles in Wikimedia"
            " projects); 0 asks about every subject.",
        ),
    ] = DEFAULT_MIN_SITELINKS,
    min_pageviews: Annotated[
        int | None,
        typer.Option(
            "--min-pageviews",
            help="With page views in the store: ask only about subjects whose article has a"
            " median of at least N monthly views.",
        ),
    ] = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    force: Annotated[
        bool, typer.Option("--force", help="Replace a non-empty --out folder.")
    ] = False,
    store: StoreOption = None,
) -> None:
    """Write a Hugging Face dataset folder of questions for a cutoff (docs/benchmark-export.md)."""
    from kgdiff.export.benchmark import check_configs, export_benchmark
    from kgdiff.export.core.benchmark_model import BenchmarkRequest
    from kgdiff.export.pools.sample import pools_static_policy

    checked_folder(out, "export benchmark writes a folder (a Hugging Face dataset)", "bench")
    names = check_configs([name.strip() for name in configs.split(",") if name.strip()])
    request = BenchmarkRequest(
        cutoff=parse_day(cutoff, "--cutoff"),
        init=optional_day(init, "--init"),
        current=optional_day(current, "--current"),
        mode=mode,
        seed=seed,
        limit=limit,
        configs=names,
        relations=relations,
        lang=lang,
        options=options,
        gap=gap_policy(max_gap, allow_gap),
        pools_static=pools_static_policy(pools_static),
        min_sitelinks=min_sitelinks,
        min_pageviews=min_pageviews,
    )
    done = export_benchmark(graph(store), request, out, force, _step)
    print_export(done, names[0])


def _step(message: str) -> None:
    err_console.print(message, style="dim", highlight=False)


export_app.command("audit")(export_audit_command)


@export_app.command("rdf")
def export_rdf_command(
    out: Annotated[
        Path,
        typer.Option(
            "--out",
            help="The file to write (replaced whole); .nt.gz or .nq.gz: gzip-compressed.",
        ),
    ],
    snapshot: Annotated[
        str | None,
        typer.Option(
            "--snapshot",
            help="The snapshot to export (nq/trig: several, comma-separated; default with "
            "--classification: the snapshots it reads).",
        ),
    ] = None,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            help="nt (N-Triples) or nq (N-Quads, a graph per snapshot), streamed; ttl (Turtle) "
            "or trig (TriG), for --entities. Default: the one --out's suffix names (.nt, .nq,"
            " .ttl, .trig, before a .gz), else nt.",
            show_default=False,
        ),
    ] = None,
    entities: Annotated[
        str | None, typer.Option("--entities", help="Only these entities, e.g. Q1,Q2.")
    ] = None,
    truthy: Annotated[
        bool,
        typer.Option("--truthy", help="Only the truthy wdt: triples (with terms and sitelinks)."),
    ] = False,
    classification: Annotated[
        str | None,
        typer.Option(
            "--classification",
            help="INIT,CUTOFF,CURRENT: also write that classification in its own graph "
            "(kgdiff: vocabulary, docs/rdf.md; nq or trig).",
        ),
    ] = None,
    mode: Annotated[
        str, typer.Option("--mode", help="The classification's time: record or valid.")
    ] = "record",
    store: StoreOption = None,
) -> None:
    """Write snapshots as RDF in Wikidata's own mapping, entity by entity (docs/rdf.md):
    N-Triples or N-Quads of whole snapshots, Turtle or TriG of a few entities, and a
    classification beside them."""
    from kgdiff.export.rdf.writer import RdfRequest, export_rdf

    wanted = [qid.strip() for qid in entities.split(",") if qid.strip()] if entities else None
    chosen = rdf_format(out, fmt)
    request = RdfRequest(
        snapshot, out, chosen, wanted, truthy, classification=classification, mode=mode
    )
    done = export_rdf(store, request)
    console.print(
        f"{counted(done.triples, 'triple')} written to {done.path}", highlight=False, soft_wrap=True
    )
