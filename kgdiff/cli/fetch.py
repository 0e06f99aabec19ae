"""``kgdiff fetch URL``: download a dump (resumable) and verify its published checksum."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeRemainingColumn,
    TransferSpeedColumn,
)

from kgdiff.cli.common import console, err_console, parse_day, resumable
from kgdiff.cli.help_format import Group
from kgdiff.cli.outputs import checked_folder
from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.checksums import algorithm_for_digest
from kgdiff.fetch.download import FetchResult, fetch
from kgdiff.fetch.incremental import (
    INCR_BASE_URL,
    IncrementalRequest,
    day_url,
    fetch_incremental,
)


class _Bars:
    """One rich bar per stage (download, verify): bytes, speed, time left; on stderr."""

    def __init__(self, name: str) -> None:
        self._name = name
        self._tasks: dict[str, TaskID] = {}
        self.progress = Progress(
            TextColumn("[bold]{task.description}"),
            BarColumn(),
            DownloadColumn(),
            TransferSpeedColumn(),
            TimeRemainingColumn(),
            console=err_console,
        )

    def __enter__(self) -> _Bars:
        return self

    def __exit__(self, *exc: object) -> None:
        if self._tasks:
            self.progress.stop()

    def __call__(self, stage: str, done: int, total: int | None) -> None:
        task = self._tasks.get(stage)
        if task is None:
            if not self._tasks:  # started on first use: no blank line when nothing is downloaded
                self.progress.start()
            task = self._tasks[stage] = self.progress.add_task(f"{stage} {self._name}")
        self.progress.update(task, completed=done, total=total)


def _one_checksum(sha1: str | None, md5: str | None, sha256: str | None) -> str | None:
    options = (("sha1", sha1), ("md5", md5), ("sha256", sha256))
    given = [(name, value) for name, value in options if value]
    if len(given) > 1:
        raise UsageError("give at most one of --sha1, --md5 and --sha256")
    if not given:
        return None
    name, value = given[0]
    try:
        matches = algorithm_for_digest(value) == name
    except ValueError:
        matches = False
    if not matches:
        raise UsageError(f"--{name} {value!r} is not a {name} digest (hex); check the value")
    return value


def _report(result: FetchResult, quiet: bool) -> None:
    if not quiet:
        if result.status == "unchanged":
            note = "already downloaded and verified; nothing to do"
        elif result.digest is None:
            note = "downloaded WITHOUT checksum verification (--no-verify)"
        else:
            note = f"{result.algorithm} {result.digest} matches {result.checksum_source}"
        err_console.print(f"{result.size:,} bytes, {note}", highlight=False, soft_wrap=True)
    console.print(str(result.path), highlight=False, markup=False, soft_wrap=True)


class _UrlByDefault(Group):
    """``kgdiff fetch URL`` stays a download of one URL; ``kgdiff fetch incr`` is the
    sub-command: anything that names no sub-command is the ``url`` one's arguments."""

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        if args and args[0] not in self.commands and args[0] not in ("--help", "-h"):
            args = ["url", *args]
        return super().parse_args(ctx, args)


fetch_app = typer.Typer(
    cls=_UrlByDefault,
    help="Download a dump (kgdiff fetch URL) or the daily incremental dumps (kgdiff fetch incr).",
    no_args_is_help=True,
)


@fetch_app.command("url")
def fetch_command(
    url: Annotated[str, typer.Argument(help="URL of the dump file.")],
    dest: Annotated[Path, typer.Option("--dest", help="Directory to download into.")] = Path(),
    sha1: Annotated[str | None, typer.Option("--sha1", help="Expected SHA-1 (hex).")] = None,
    md5: Annotated[str | None, typer.Option("--md5", help="Expected MD5 (hex).")] = None,
    sha256: Annotated[str | None, typer.Option("--sha256", help="Expected SHA-256 (hex).")] = None,
    checksum_url: Annotated[
        str | None,
        typer.Option("--checksum-url", help="URL of a checksum list (md5sums/sha1sums style)."),
    ] = None,
    no_verify: Annotated[
        bool, typer.Option("--no-verify", help="Keep the file even if no checksum is published.")
    ] = False,
    retries: Annotated[
        int, typer.Option("--retries", min=0, help="Retries in a row without progress.")
    ] = 5,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the path.")] = False,
) -> None:
    """Download a dump (resuming a .part), verify its checksum, print the file's path."""
    checksum = _one_checksum(sha1, md5, sha256)
    bars = None if quiet else _Bars(url.rsplit("/", 1)[-1])
    with resumable(), bars or nullcontext():
        result = fetch(
            url,
            dest,
            checksum=checksum,
            checksum_url=checksum_url,
            verify=not no_verify,
            retries=retries,
            progress=bars,
        )
    _report(result, quiet)


@fetch_app.command("incr")
def fetch_incr_command(
    wiki: Annotated[str, typer.Option("--wiki", help="The wiki's database name.")] = "wikidatawiki",
    first: Annotated[str, typer.Option("--from", help="First day, YYYY-MM-DD.")] = "",
    last: Annotated[str, typer.Option("--to", help="Last day, YYYY-MM-DD (included).")] = "",
    out: Annotated[Path, typer.Option("--out", help="Directory to download into.")] = Path(),
    base_url: Annotated[
        str, typer.Option("--base-url", help="Where the incremental dumps are (a mirror).")
    ] = INCR_BASE_URL,
    retries: Annotated[
        int, typer.Option("--retries", min=0, help="Retries in a row without progress.")
    ] = 5,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="Print only the paths.")] = False,
) -> None:
    """Download the daily incremental dumps of --from to --to, for kgdiff refresh.

    Each day's pages-meta-hist-incr file and its checksum list, resumed and verified like
    kgdiff fetch URL (a day already downloaded is kept); prints each file's path."""
    if not first or not last:
        raise UsageError("give --from YYYY-MM-DD and --to YYYY-MM-DD")
    checked_folder(out, "fetch incr downloads the daily dumps into a folder", "incr")
    request = IncrementalRequest(
        wiki, parse_day(first, "--from"), parse_day(last, "--to"), out, base_url, retries
    )

    def done(result: FetchResult) -> None:
        _report(result, quiet)

    bars = None if quiet else _Bars(f"{wiki} {first}..{last}")
    with resumable(), bars or nullcontext():
        result = fetch_incremental(request, on_day=done, progress=bars)
    if result.missing:
        listed = ", ".join(day.isoformat() for day in result.missing)
        where = day_url(base_url, wiki, result.missing[0], "")
        raise InputError(
            f"no incremental dump is published for {listed} (looked in {where} and the other"
            " days' folders); those days are missing from the changes: fetch them later, or"
            " refresh from a full dump"
        )
