"""Errors kgdiff reports to users, each with the exit code scripts can rely on."""

from __future__ import annotations


class KgdiffError(Exception):
    """Base class: a one-line message that says what went wrong and what to do."""

    exit_code = 1


class InputError(KgdiffError):
    """The input file is unreadable, corrupt or truncated (names the file and offset)."""

    exit_code = 3


class TooManyRejectsError(KgdiffError):
    """More malformed records than ``--max-rejects`` allows."""

    exit_code = 4


class StoreError(KgdiffError):
    """The store is in a state that prevents the operation (e.g. a name already taken)."""

    exit_code = 5


class UsageError(KgdiffError):
    """Arguments that cannot work together, or a value that cannot be inferred."""

    exit_code = 2


class UnknownIdError(UsageError):
    """An entity or property id that no snapshot of the store knows (the REST service: 404)."""


class BeyondDataError(UsageError):
    """A date the snapshots cannot answer (after the latest one by more than the gap allowed,
    or before the first one in record time); the message names every snapshot."""


class WorkerDiedError(KgdiffError):
    """A worker process ended abruptly (killed, out of memory); a rerun resumes."""

    exit_code = 7


class InterruptedRunError(KgdiffError):
    """The user interrupted a long run (Ctrl-C); finished work is kept for a resume."""

    exit_code = 130


class AuditFailedError(KgdiffError):
    """An SQL audit returned rows that break a classification rule."""

    exit_code = 1
