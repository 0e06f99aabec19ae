"""``fetch``: download a dump with resume, verify its checksum, then publish it under its name."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import requests

from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.checksums import hash_file
from kgdiff.fetch.guard import CORRUPT_SUFFIX, PART_SUFFIX
from kgdiff.fetch.published import (
    Expected,
    file_name,
    from_checksum_url,
    from_option,
    from_siblings,
    sibling_checksum_urls,
)
from kgdiff.fetch.sidecar import Sidecar, read_sidecar, write_sidecar
from kgdiff.fetch.transfer import RetryPolicy, download_part, new_session

DEFAULT_CHUNK_BYTES = 1 << 20

# stage ("download" or "verify"), bytes done, bytes in all (None when the server does not say)
FetchProgress = Callable[[str, int, int | None], None]


@dataclass(frozen=True)
class FetchResult:
    """The verified file, and whether it was ``downloaded``, ``unchanged`` or ``adopted``."""

    path: Path
    status: str
    size: int
    algorithm: str | None
    digest: str | None
    checksum_source: str | None


def fetch(
    url: str,
    dest_dir: Path,
    *,
    checksum: str | None = None,
    checksum_url: str | None = None,
    verify: bool = True,
    session: requests.Session | None = None,
    progress: FetchProgress | None = None,
    chunk_size: int = DEFAULT_CHUNK_BYTES,
    retries: int = 5,
    backoff: float = 1.0,
) -> FetchResult:
    """Download ``url`` into ``dest_dir`` (resuming a ``.part``) and verify it before naming it.

    The checksum is ``checksum`` (hex; md5/sha1/sha256 by length), else the entry in the list at
    ``checksum_url``, else the Wikimedia sha1/md5 list published beside the dump. Without any,
    only ``verify=False`` downloads. A mismatch leaves ``<name>.corrupt`` and raises InputError.
    Network failures are retried with exponential ``backoff``, each attempt resuming; ``retries``
    bounds the failures in a row without progress.
    """
    if not verify and (checksum or checksum_url):
        raise UsageError("--no-verify cannot be combined with a checksum; drop one of them")
    final = dest_dir / file_name(url)
    explicit = from_option(checksum) if checksum else None
    done = _unchanged(final, url, explicit, verify)
    if done is not None:
        return done
    session = session if session is not None else new_session()
    policy = RetryPolicy(retries, backoff)
    expected = _expected(session, url, explicit, checksum_url, policy) if verify else None
    dest_dir.mkdir(parents=True, exist_ok=True)
    if expected is not None and final.is_file():
        return _adopt(final, url, expected, progress)
    final.with_name(final.name + CORRUPT_SUFFIX).unlink(missing_ok=True)
    part = final.with_name(final.name + PART_SUFFIX)
    transfer = None if progress is None else _stage(progress, "download")
    size = download_part(
        session, url, part, chunk_size=chunk_size, policy=policy, progress=transfer
    )
    if expected is not None:
        _verify_part(part, final, expected, progress)
    part.replace(final)
    return _record(final, url, size, expected, "downloaded")


def _unchanged(
    final: Path, url: str, explicit: Expected | None, verify: bool
) -> FetchResult | None:
    """The earlier result when ``final`` and its sidecar still describe this download."""
    record = read_sidecar(final)
    if record is None or record.url != url or not final.is_file():
        return None
    if record.size != final.stat().st_size or (verify and not record.verified):
        return None
    if explicit is not None and (record.algorithm, record.digest) != (
        explicit.algorithm,
        explicit.digest,
    ):
        return None
    return FetchResult(
        final, "unchanged", record.size, record.algorithm, record.digest, record.checksum_source
    )


def _expected(
    session: requests.Session,
    url: str,
    explicit: Expected | None,
    checksum_url: str | None,
    policy: RetryPolicy,
) -> Expected:
    """The digest to check against; InputError (before any download) when none is published."""
    if explicit is not None:
        return explicit
    if checksum_url is not None:
        return from_checksum_url(session, checksum_url, file_name(url), policy)
    found = from_siblings(session, url, policy)
    if found is None:
        siblings = sibling_checksum_urls(url)
        tried = f"tried {' and '.join(siblings)}" if siblings else "not a Wikimedia dump name"
        raise InputError(
            f"no published checksum for {url} ({tried}); give --sha1/--md5/--sha256 HEX "
            "or --checksum-url URL, or --no-verify to download without checking"
        )
    return found


def _verify_part(
    part: Path, final: Path, expected: Expected, progress: FetchProgress | None
) -> None:
    """Check the complete ``.part``; on mismatch rename it ``.corrupt`` and raise InputError."""
    actual = _digest(part, expected.algorithm, progress)
    if actual == expected.digest:
        return
    corrupt = final.with_name(final.name + CORRUPT_SUFFIX)
    part.replace(corrupt)
    raise InputError(
        f"{final.name}: {expected.algorithm} is {actual} but {expected.source} says "
        f"{expected.digest}; kept the download as {corrupt}, rerun to delete it and download again"
    )


def _adopt(
    final: Path, url: str, expected: Expected, progress: FetchProgress | None
) -> FetchResult:
    """A file already at the final name (no sidecar): keep it if it matches, else refuse."""
    actual = _digest(final, expected.algorithm, progress)
    if actual != expected.digest:
        raise InputError(
            f"{final} already exists but its {expected.algorithm} is {actual}, not "
            f"{expected.digest} ({expected.source}); delete it or choose another --dest, then rerun"
        )
    return _record(final, url, final.stat().st_size, expected, "adopted")


def _record(
    final: Path, url: str, size: int, expected: Expected | None, status: str
) -> FetchResult:
    algorithm, digest, source = (
        (expected.algorithm, expected.digest, expected.source) if expected else (None, None, None)
    )
    write_sidecar(final, Sidecar.now(url, size, algorithm, digest, source))
    return FetchResult(final, status, size, algorithm, digest, source)


def _digest(path: Path, algorithm: str, progress: FetchProgress | None) -> str:
    size = path.stat().st_size
    report = None if progress is None else _stage(progress, "verify", size)
    return hash_file(
        path, algorithm, progress=None if report is None else lambda n: report(n, size)
    )


def _stage(
    progress: FetchProgress, stage: str, total: int | None = None
) -> Callable[[int, int | None], None]:
    return lambda done, size: progress(stage, done, size if size is not None else total)
