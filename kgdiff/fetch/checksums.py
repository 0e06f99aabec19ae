"""Checksum lists (Wikimedia ``*-md5sums.txt``, ``*-sha1sums.txt``, ``sha256sums``); hashing."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from kgdiff.errors import InputError

ALGORITHM_BY_LENGTH = {32: "md5", 40: "sha1", 64: "sha256"}
HASH_CHUNK_BYTES = 1 << 20

# `md5sum`/`sha1sum` output: the digest, a space, then a space (text) or `*` (binary mode) and the
# name; some tools write a single space, so the second separator character is optional.
_LINE = re.compile(r"(?P<digest>[0-9A-Fa-f]+) [ *]?(?P<name>\S.*)")
_NAME_HINT = re.compile(r"(md5|sha1|sha256)sums?", re.IGNORECASE)


@dataclass(frozen=True)
class ChecksumEntry:
    """One line of a checksum file: a lower-case hex digest for a file name."""

    digest: str
    name: str
    algorithm: str


def algorithm_for_digest(digest: str) -> str:
    """``md5``, ``sha1`` or ``sha256`` from the length of a hex digest; ValueError otherwise."""
    if not re.fullmatch(r"[0-9A-Fa-f]+", digest):
        raise ValueError(f"{digest!r} is not a hexadecimal digest")
    algorithm = ALGORITHM_BY_LENGTH.get(len(digest))
    if algorithm is None:
        raise ValueError(
            f"a digest of {len(digest)} hex digits is neither md5 (32), sha1 (40) nor sha256 (64)"
        )
    return algorithm


def algorithm_for_name(checksum_file: str) -> str | None:
    """The algorithm a checksum file's name announces (``enwiki-20240101-sha1sums.txt``), if any."""
    found = _NAME_HINT.search(checksum_file.rsplit("/", 1)[-1])
    return found.group(1).lower() if found else None


def parse_line(line: str, source: str, line_number: int) -> ChecksumEntry:
    """Parse ``<hex>  <name>`` (also ``<hex> <name>``, ``<hex> *<name>``); InputError otherwise."""
    found = _LINE.fullmatch(line.rstrip("\r\n"))
    algorithm = ALGORITHM_BY_LENGTH.get(len(found.group("digest"))) if found else None
    if found is None or algorithm is None:
        shown = line.strip()[:80]
        raise InputError(
            f"{source} line {line_number}: {shown!r} is not '<md5|sha1|sha256 hex>  <file name>'; "
            "check that the URL or file really is a checksum list"
        )
    announced = algorithm_for_name(source)
    if announced is not None and announced != algorithm:
        raise InputError(
            f"{source} line {line_number}: a {algorithm} digest in a {announced} checksum file; "
            "check that the URL or file really is the checksum list you meant"
        )
    return ChecksumEntry(found.group("digest").lower(), found.group("name"), algorithm)


def parse_checksums(lines: Iterable[str], source: str) -> list[ChecksumEntry]:
    """Every entry of a checksum file (blank lines skipped); ``source`` names it in errors."""
    return [
        parse_line(line, source, number)
        for number, line in enumerate(lines, start=1)
        if line.strip()
    ]


def find_entry(entries: Iterable[ChecksumEntry], name: str) -> ChecksumEntry | None:
    """The entry for a file name (its last path component), or None."""
    base = name.rsplit("/", 1)[-1]
    return next((entry for entry in entries if entry.name.rsplit("/", 1)[-1] == base), None)


def hash_file(
    path: Path,
    algorithm: str,
    *,
    chunk_size: int = HASH_CHUNK_BYTES,
    progress: Callable[[int], None] | None = None,
) -> str:
    """The lower-case hex digest of a file, read in chunks (memory stays bounded)."""
    digest = hashlib.new(algorithm)
    done = 0
    with path.open("rb") as stream:
        while chunk := stream.read(chunk_size):
            digest.update(chunk)
            done += len(chunk)
            if progress is not None:
                progress(done)
    return digest.hexdigest()
