"""What a store check finds: one :class:`Finding` per problem, each with what to do, and
the exit code they make.

Three kinds: a *problem* ``kgdiff store check --repair`` mends (a leftover of a killed run, a
missing view, a build that cannot be read: things kgdiff can make again); *damage* to a
published snapshot or page view source, which ``--repair`` never touches (the fix is to
remove it and ingest it again); and a *note*, nothing wrong (a resumable ingest, builds of
earlier snapshots), said so that nothing is a surprise.
"""

from __future__ import annotations

from collections.abc import Iterable

import msgspec

PROBLEM = "problem"
DAMAGE = "damage"
NOTE = "note"

EXIT_SOUND = 0
"""No problem and no damage (notes may be printed); with ``--repair``: none left after it."""
EXIT_REPAIRABLE = 1
"""Problems, every one of which ``--repair`` mends (reported by a check without it)."""
EXIT_NEEDS_YOU = 5
"""Damage that ``--repair`` never mends (a published snapshot: remove it and ingest it
again), or a repair that failed; the code of kgdiff's other store errors."""

REMOVE = "remove"
"""Repair: delete a leftover file or folder (of a process that has stopped)."""
DROP_STAGING = "drop-staging"
"""Repair: delete the staging folder of a stopped ingest (with its lock, taken first)."""
UNPUBLISH = "unpublish"
"""Repair: remove a build kgdiff makes again when asked (renamed away under the store lock)."""
FAIL_JOBS = "fail-jobs"
"""Repair: mark the orphaned jobs failed (asking again runs them anew)."""
REBUILD_CATALOG = "rebuild-catalog"
"""Repair: rebuild the catalog from the folders (every repair ends with one)."""


class Repair(msgspec.Struct, frozen=True):
    """What ``--repair`` does about a finding: ``action`` on ``path`` (relative to the store
    root, or None)."""

    action: str
    path: str | None = None
    inode: int | None = None
    """The inode ``path`` had when checked: a build made again since (a new folder, renamed
    into place) is not the one found unreadable, and is left alone."""


class Finding(msgspec.Struct, frozen=True):
    """One thing a check found: how bad (``problem``, ``damage`` or ``note``), where
    (relative to the store root), what is wrong, what to do, and what ``--repair`` does."""

    severity: str
    where: str
    message: str
    fix: str
    repair: Repair | None = None

    @property
    def line(self) -> str:
        """The one line the command prints: what, where, what to do."""
        return f"{self.severity}: {self.where}: {self.message}; {self.fix}"


def problem(where: str, message: str, fix: str, repair: Repair) -> Finding:
    """A problem ``--repair`` mends by ``repair``."""
    return Finding(PROBLEM, where, message, fix, repair)


def damage(where: str, message: str, fix: str) -> Finding:
    """Damage ``--repair`` never touches."""
    return Finding(DAMAGE, where, message, fix)


def note(where: str, message: str, fix: str, repair: Repair | None = None) -> Finding:
    """Nothing wrong; ``repair`` only when asked for (``--drop-staging``)."""
    return Finding(NOTE, where, message, fix, repair)


class Report(msgspec.Struct):
    """Everything one check found and how much it read."""

    findings: list[Finding]
    checked: dict[str, int]
    """How many of each thing it checked (snapshots, files, bytes, builds, ...)."""
    repaired: list[str] = []
    """What ``--repair`` did, one line each."""
    failed: list[str] = []
    """Repairs that failed, one line each (with why)."""

    def of(self, severity: str) -> list[Finding]:
        """The findings of one severity."""
        return [finding for finding in self.findings if finding.severity == severity]

    @property
    def exit_code(self) -> int:
        """:data:`EXIT_SOUND`, :data:`EXIT_REPAIRABLE` or :data:`EXIT_NEEDS_YOU`."""
        if self.of(DAMAGE) or self.failed:
            return EXIT_NEEDS_YOU
        return EXIT_REPAIRABLE if self.of(PROBLEM) else EXIT_SOUND

    @property
    def summary(self) -> str:
        """One line: what was checked and what was found."""
        checked = ", ".join(_amount(count, what) for what, count in self.checked.items())
        found = _counted(
            [
                (len(self.of(PROBLEM)), "problem", "problems"),
                (len(self.of(DAMAGE)), "damaged file or folder", "damaged files or folders"),
                (len(self.of(NOTE)), "note", "notes"),
            ]
        )
        verdict = "sound" if self.exit_code == EXIT_SOUND else "not sound"
        return f"checked {checked}: {found or 'nothing to report'}; the store is {verdict}"


def _amount(count: int, what: str) -> str:
    """``3 snapshots``, ``1 snapshot``, ``9 MB``."""
    if what.endswith("s") and count == 1:
        what = what[:-1]
    return f"{count:,} {what}"


def _counted(items: Iterable[tuple[int, str, str]]) -> str:
    return ", ".join(f"{n} {one if n == 1 else many}" for n, one, many in items if n)
