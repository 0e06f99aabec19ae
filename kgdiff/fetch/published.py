"""The checksum a download must match: given, from a checksum list URL, or published beside it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit, urlunsplit

import requests

from kgdiff.errors import InputError, UsageError
from kgdiff.fetch.checksums import algorithm_for_digest, find_entry, parse_checksums
from kgdiff.fetch.transfer import TIMEOUT, RetryPolicy, TransientError, check_status, retrying

# Wikimedia dump names start with `<wiki>-<YYYYMMDD>` (or `-latest`), and the checksum lists of a
# dump run sit in the same directory as `<wiki>-<YYYYMMDD>-{sha1,md5}sums.txt`.
_DUMP_PREFIX = re.compile(r"(?P<prefix>[a-z0-9_]+-(?:\d{8}|latest))-")
SIBLING_KINDS = ("sha1", "md5")
MAX_CHECKSUM_BYTES = 16 << 20


@dataclass(frozen=True)
class Expected:
    """The digest a download must have, and where it came from (shown in messages)."""

    algorithm: str
    digest: str
    source: str


def file_name(url: str) -> str:
    """The file name at the end of a URL's path; InputError when there is none."""
    name = unquote(urlsplit(url).path.rsplit("/", 1)[-1])
    # an encoded slash or NUL would let the name escape the destination directory
    if not name or name in {".", ".."} or any(c in name for c in "/\\\0"):
        raise InputError(f"{url} does not end with a file name; give the URL of the dump file")
    return name


def sibling_checksum_urls(url: str) -> list[str]:
    """The Wikimedia checksum lists published next to a dump (empty for other names)."""
    found = _DUMP_PREFIX.match(file_name(url))
    if found is None:
        return []
    parts = urlsplit(url)
    directory = parts.path.rsplit("/", 1)[0]
    return [
        urlunsplit(
            (parts.scheme, parts.netloc, f"{directory}/{found['prefix']}-{kind}sums.txt", "", "")
        )
        for kind in SIBLING_KINDS
    ]


def from_option(digest: str) -> Expected:
    """An expected digest given on the command line (algorithm from its length)."""
    try:
        algorithm = algorithm_for_digest(digest)
    except ValueError as exc:
        raise UsageError(f"checksum {digest!r}: {exc}") from exc
    return Expected(algorithm, digest.lower(), "the command line")


def from_checksum_url(
    session: requests.Session, checksum_url: str, name: str, policy: RetryPolicy
) -> Expected:
    """The entry for ``name`` in the checksum list at ``checksum_url``; InputError if absent."""
    text = fetch_text(session, checksum_url, policy)
    if text is None:
        raise InputError(f"{checksum_url}: not found (HTTP 404); check the checksum URL")
    expected = _lookup(text, checksum_url, name)
    if expected is None:
        raise InputError(f"{checksum_url} lists no checksum for {name}; check the checksum URL")
    return expected


def from_siblings(session: requests.Session, url: str, policy: RetryPolicy) -> Expected | None:
    """The first published sibling checksum list (sha1, then md5) that lists the dump."""
    name = file_name(url)
    for checksum_url in sibling_checksum_urls(url):
        # mirrors on object stores answer 403 for a file that does not exist
        text = fetch_text(session, checksum_url, policy, absent=frozenset({403, 404, 410}))
        expected = None if text is None else _lookup(text, checksum_url, name)
        if expected is not None:
            return expected
    return None


def fetch_text(
    session: requests.Session,
    url: str,
    policy: RetryPolicy,
    absent: frozenset[int] = frozenset({404, 410}),
) -> str | None:
    """A small text file over HTTP (retried like downloads); None for an ``absent`` status."""

    def attempt() -> str | None:
        try:
            with session.get(url, stream=True, timeout=TIMEOUT) as response:
                if response.status_code in absent:
                    return None
                check_status(response, url)
                return _read_small(response, url)
        except (
            requests.ConnectionError,
            requests.Timeout,
            requests.exceptions.ChunkedEncodingError,
        ) as exc:
            raise TransientError(type(exc).__name__) from exc

    return retrying(attempt, policy, f"download of {url}")


def _read_small(response: requests.Response, url: str) -> str:
    body = bytearray()
    for chunk in response.iter_content(1 << 16):
        body += chunk
        if len(body) > MAX_CHECKSUM_BYTES:
            raise InputError(f"{url} is larger than a checksum list can be; check the URL")
    return body.decode("utf-8", errors="replace")


def _lookup(text: str, source: str, name: str) -> Expected | None:
    entry = find_entry(parse_checksums(text.splitlines(), source), name)
    return None if entry is None else Expected(entry.algorithm, entry.digest, source)
