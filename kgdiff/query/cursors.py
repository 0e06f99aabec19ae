"""Opaque keyset cursors: where the next page of a question starts.

A cursor is the last key of a page, ``(subject, pid)``, with a short fingerprint of the
question it belongs to, as URL-safe base64 of JSON. Clients hand it back untouched; a cursor
that does not decode, holds no ids, or belongs to another question is refused, so a page
never silently starts somewhere unexpected.
"""

from __future__ import annotations

import base64
import binascii
import hashlib

import msgspec

from kgdiff.errors import UsageError
from kgdiff.ids import ENTITY_ID

VERSION = 1
MAX_LENGTH = 512
Key = tuple[str, str]


class CursorError(UsageError):
    """A cursor that is not one this question gave out (the REST service: 400)."""


def fingerprint(*parts: object) -> str:
    """A short digest of what a question asks (its dates, mode, language, choice)."""
    return hashlib.sha256(repr(parts).encode()).hexdigest()[:12]


def encode_cursor(key: Key, scope: str) -> str:
    """The cursor after ``key`` for the question whose fingerprint is ``scope``."""
    raw = msgspec.json.encode([VERSION, scope, key[0], key[1]])
    return base64.urlsafe_b64encode(raw).decode().rstrip("=")


def decode_cursor(text: str, scope: str) -> Key:
    """The key a cursor holds; a :class:`CursorError` for anything else."""
    if len(text) > MAX_LENGTH:
        raise CursorError("cursor is too long to be one this service gave out")
    try:
        raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
        version, owner, subject, pid = msgspec.json.decode(raw, type=tuple[int, str, str, str])
    except (binascii.Error, ValueError, msgspec.DecodeError) as exc:
        raise CursorError(
            "cursor is not one this service gave out: pass next_cursor as it came"
        ) from exc
    if version != VERSION or not (ENTITY_ID.fullmatch(subject) and ENTITY_ID.fullmatch(pid)):
        raise CursorError("cursor is not one this service gave out: pass next_cursor as it came")
    if owner != scope:
        raise CursorError(
            "cursor belongs to another question: keep every other parameter as on the first page"
        )
    return subject, pid
