"""``kgdiff fetch URL``: download a dump (resumable) and verify its published checksum."""

from __future__ import annotations

from contextlib import nullcontext
from pathlib import Path
from typing import Annotated

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

from kgdiff.cli.common import console, err_console, resumable
from kgdiff.errors import UsageError
from kgdiff.fetch.checksums import algorithm_for_digest
from kgdiff.fetch.download import FetchResult, fetch


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
