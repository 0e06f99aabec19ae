"""``kgdiff spark ...``: the ingest and the classification on Apache Spark (docs/spark.md).

pyspark is imported by the commands' modules only when they run.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from kgdiff.cli.common import StoreOption, console, graph, optional_day, parse_day
from kgdiff.cli.ingest import Coverage, print_result
from kgdiff.cli.options import (
    AllowGapOption,
    CurrentOption,
    CutoffOption,
    InitOption,
    LangOption,
    MaxGapOption,
    OutOption,
    checked_out,
    describe_reads,
    gap_policy,
)
from kgdiff.cli.tables import figure, key
from kgdiff.query.classified import GroupChoice, export_classification, level_counts
from kgdiff.readers.json_dump import DEFAULT_CHUNK_BYTES
from kgdiff.store.layout import StoreLayout
from kgdiff.temporal.classify import check_mode
from kgdiff.wording import counted

MasterOption = Annotated[
    str | None,
    typer.Option(
        "--master",
        help="Spark master URL (local[*], local-cluster[N,C,M], spark://host:7077, yarn);"
        " default: $KGDIFF_SPARK_MASTER, else local[*]. Ignored under spark-submit.",
        show_default=False,
    ),
]


def spark_ingest_command(
    path: Annotated[Path, typer.Argument(help="Wikidata JSON dump (.json, .json.gz, .json.bz2).")],
    snapshot: Annotated[
        str | None, typer.Option("--snapshot", help="Snapshot name (default wikidata-YYYYMMDD).")
    ] = None,
    date: Annotated[
        str | None,
        typer.Option("--date", help="Snapshot date, YYYY-MM-DD (default: from the file name)."),
    ] = None,
    store: StoreOption = None,
    master: MasterOption = None,
    coverage: Annotated[
        Coverage | None,
        typer.Option(
            "--coverage",
            help="full (a whole dump: what it lacks did not exist) or subset (a sample, a"
            " filtered dump: it knows only its entities). Default: full.",
            show_default=False,
        ),
    ] = None,
    max_rejects: Annotated[
        int | None,
        typer.Option("--max-rejects", min=0, help="Abort beyond N malformed entities."),
    ] = None,
    chunk_mb: Annotated[
        int, typer.Option("--chunk-mb", min=1, help="Lines a task parses at once (MiB).")
    ] = DEFAULT_CHUNK_BYTES >> 20,
    split_mb: Annotated[
        int | None,
        typer.Option(
            "--split-mb",
            min=1,
            help="Largest piece of the file one task reads (default: Spark's, 128 MiB).",
            show_default=False,
        ),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No summary.")] = False,
) -> None:
    """Ingest a Wikidata JSON dump on Spark into a snapshot, as 'kgdiff ingest wikidata' does."""
    from kgdiff.spark.ingest import SparkIngestRequest, spark_ingest

    request = SparkIngestRequest(
        path=path,
        snapshot=snapshot,
        date=date,
        store=store,
        master=master,
        coverage=coverage.value if coverage else None,
        chunk_bytes=chunk_mb << 20,
        max_rejects=max_rejects,
        split_bytes=split_mb << 20 if split_mb else None,
    )
    result = spark_ingest(request)
    if not quiet:
        print_result(result)


def spark_classify_command(
    cutoff: CutoffOption,
    init: InitOption = None,
    current: CurrentOption = None,
    mode: Annotated[
        str, typer.Option("--mode", help="record, valid or both (the two views must agree).")
    ] = "record",
    out: OutOption = None,
    lang: LangOption = "en",
    max_gap: MaxGapOption = 31,
    allow_gap: AllowGapOption = False,
    store: StoreOption = None,
    master: MasterOption = None,
) -> None:
    """Classify every (subject, property) group on Spark SQL, as 'kgdiff classify' does."""
    from kgdiff.spark.classify import spark_classification
    from kgdiff.spark.session import spark_session

    out = checked_out(out)
    gap = gap_policy(max_gap, allow_gap)
    given = {
        "init": optional_day(init, "--init"),
        "cutoff": parse_day(cutoff, "--cutoff"),
        "current": optional_day(current, "--current"),
    }
    check_mode(mode)
    kg = graph(store)
    try:  # the dates' defaults and checks, before Spark starts
        window, _ = kg.answers.window(given, mode, gap)
    finally:
        kg.close()
    layout = StoreLayout.resolve(store)
    spark = spark_session(master)
    build = spark_classification(spark, layout, window.triple(), mode, gap)
    source = "reused" if build.reused else "built"
    console.print(f"{source} {build.path} (view {build.params.view_name} in {layout.catalog})")
    for line in describe_reads(build.reads):
        console.print(line, highlight=False, markup=False)
    table = Table(key("level"), figure("groups"), title="groups by level")
    for name, count in level_counts(build.path, GroupChoice()):
        table.add_row(name, f"{count:,}")
    console.print(table)
    if out is not None:
        exported = export_classification(layout, build, out, GroupChoice(), lang)
        console.print(f"wrote {counted(exported.rows, 'group')} to {out}, with {lang} labels")
