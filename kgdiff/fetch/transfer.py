"""Ranged HTTP download into a ``.part`` file: resume, restart when needed, retry with backoff."""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import requests
import urllib3

from kgdiff.errors import InputError
from kgdiff.version import __version__

USER_AGENT = f"kgdiff/{__version__} (+https://github.com/kgdiff; research benchmark builder)"
TIMEOUT = (15.0, 60.0)  # seconds: connect, and between two reads
_CONTENT_RANGE = re.compile(r"bytes\s+(?:(\d+)-(\d+)|\*)/(\d+|\*)")

T = TypeVar("T")
TransferProgress = Callable[[int, int | None], None]


class TransientError(Exception):
    """A failure worth retrying: connection lost, timeout, 5xx/429, a server misbehaving once."""


class ProgressedError(TransientError):
    """A transient failure after some bytes were saved: the next attempt resumes from there."""


@dataclass(frozen=True)
class RetryPolicy:
    """How many consecutive failed attempts to retry, and the first pause (doubled each time)."""

    retries: int = 5
    backoff: float = 1.0


def new_session() -> requests.Session:
    """A session that names kgdiff and asks for the bytes as stored (no transfer compression)."""
    session = requests.Session()
    session.headers.update({"User-Agent": USER_AGENT, "Accept-Encoding": "identity"})
    return session


def retrying(attempt: Callable[[], T], policy: RetryPolicy, what: str) -> T:
    """Run ``attempt`` until it succeeds; a TransientError waits 1, 2, 4 … × backoff and retries.

    ``retries`` bounds failures in a row: a :class:`ProgressedError` (bytes were saved before the
    failure) starts a new count, so a long download survives any number of separate cuts.
    """
    failures = 0
    while True:
        try:
            return attempt()
        except TransientError as exc:
            failures = 1 if isinstance(exc, ProgressedError) else failures + 1
            if failures > policy.retries:
                raise InputError(
                    f"{what}: {exc} (gave up after {policy.retries} retries); "
                    "check the network and the URL, then rerun to resume"
                ) from exc
            time.sleep(policy.backoff * 2 ** (failures - 1))


def check_status(response: requests.Response, url: str) -> None:
    """Raise TransientError for 5xx/429 and InputError for any other failure status."""
    status = response.status_code
    if status >= 500 or status == 429:
        raise TransientError(f"HTTP {status} {response.reason}")
    if status >= 400:
        raise InputError(f"{url}: HTTP {status} {response.reason}; check the URL")


def download_part(
    session: requests.Session,
    url: str,
    part: Path,
    *,
    chunk_size: int,
    policy: RetryPolicy,
    progress: TransferProgress | None = None,
) -> int:
    """Complete ``part`` with the bytes of ``url`` (resuming from its size); its final size."""
    return retrying(
        lambda: _attempt(session, url, part, chunk_size, progress), policy, f"download of {url}"
    )


def _attempt(
    session: requests.Session,
    url: str,
    part: Path,
    chunk_size: int,
    progress: TransferProgress | None,
) -> int:
    offset = part.stat().st_size if part.exists() else 0
    headers = {"Range": f"bytes={offset}-"} if offset else {}
    try:
        with session.get(url, headers=headers, stream=True, timeout=TIMEOUT) as response:
            if response.status_code == 416:
                return _already_complete(response, part, offset)
            check_status(response, url)
            start, total = _start_and_total(response, part, offset)
            return _save_body(response, part, start, total, chunk_size, progress)
    except (
        requests.ConnectionError,
        requests.Timeout,
        requests.exceptions.ChunkedEncodingError,
        urllib3.exceptions.HTTPError,
    ) as exc:
        saved = part.stat().st_size if part.exists() else 0
        kind = ProgressedError if saved != offset else TransientError
        raise kind(f"{type(exc).__name__} at byte {saved:,}") from exc
    except requests.RequestException as exc:
        raise InputError(f"{url}: {exc}; check the URL") from exc


def _already_complete(response: requests.Response, part: Path, offset: int) -> int:
    """416 to ``Range: bytes=N-``: fine if the server's size is N, else start over."""
    found = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
    if found and found.group(3) == str(offset):
        return offset
    part.unlink()
    raise TransientError(f"the server refused to resume at byte {offset:,}; starting over")


def _start_and_total(
    response: requests.Response, part: Path, offset: int
) -> tuple[int, int | None]:
    """Where the body starts in the file, and the file's size if the server says it."""
    if response.status_code != 206:  # a full body: no Range asked, or the server ignored it
        length = response.headers.get("Content-Length")
        return 0, int(length) if length and length.isdigit() else None
    found = _CONTENT_RANGE.fullmatch(response.headers.get("Content-Range", "").strip())
    if found is None or found.group(1) is None or int(found.group(1)) != offset:
        part.unlink()
        shown = response.headers.get("Content-Range")
        raise TransientError(f"asked for bytes from {offset:,}, got {shown!r}; starting over")
    size = found.group(3)
    return offset, int(size) if size.isdigit() else None


def _save_body(
    response: requests.Response,
    part: Path,
    start: int,
    total: int | None,
    chunk_size: int,
    progress: TransferProgress | None,
) -> int:
    done = start
    if progress is not None:
        progress(done, total)
    with part.open("ab" if start else "wb") as out:
        for chunk in _chunks(response, chunk_size):
            out.write(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done, total)
        out.flush()
        os.fsync(out.fileno())
    if total is not None and done != total:
        kind = ProgressedError if done > start else TransientError
        raise kind(f"connection closed at byte {done:,} of {total:,}")
    return done


def _chunks(response: requests.Response, chunk_size: int) -> Iterator[bytes]:
    """The body as sent (no content decoding), in pieces of at most ``chunk_size`` bytes.

    ``read1`` hands over whatever has arrived, so a cut connection loses nothing already
    received; ``iter_content`` (urllib3 before 2.3) drops the partial last chunk.
    """
    read1 = getattr(response.raw, "read1", None)
    if read1 is None:
        yield from response.iter_content(chunk_size)
        return
    while chunk := read1(chunk_size, decode_content=False):
        yield chunk
