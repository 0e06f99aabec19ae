"""``kgdiff store check --repair``: mend what a check found that kgdiff may mend.

It removes the temporaries of stopped processes and the staging of stopped ingests that
cannot resume (a resumable one only with ``drop_staging``), unpublishes the builds that
cannot be read (kgdiff makes them again when asked), marks orphaned jobs failed, and ends
with a catalog rebuild, which restores missing views and drops what it should not show. It
never deletes or changes a published snapshot or page view source. Each action checks
again first that it is still due: a process may have started, or finished, meanwhile.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from kgdiff.errors import KgdiffError
from kgdiff.maintenance.findings import (
    DROP_STAGING,
    FAIL_JOBS,
    NOTE,
    REMOVE,
    UNPUBLISH,
    Finding,
    Report,
)
from kgdiff.maintenance.leftovers import jobs_folder, writer_pid
from kgdiff.query.jobs import fail_orphaned_jobs
from kgdiff.store.catalog import rebuild_catalog, store_lock
from kgdiff.store.layout import StoreLayout
from kgdiff.store.liveness import ProcessMark, is_running
from kgdiff.store.staging import lock_path, lock_staging


def repair_store(layout: StoreLayout, report: Report, drop_staging: bool = False) -> Report:
    """Mend the findings of ``report`` that have a repair (notes only with
    ``drop_staging``), then rebuild the catalog; ``report`` with what was done or failed."""
    done, failed = [], []
    for finding in report.findings:
        if not _due(finding, drop_staging):
            continue
        try:
            said = _mend(layout, finding)
        except (OSError, KgdiffError) as exc:
            failed.append(f"{finding.where}: could not mend it ({exc})")
            continue
        if said:
            done.append(f"{finding.where}: {said}")
    try:
        with store_lock(layout):
            rebuild_catalog(layout)
        done.append("kg.duckdb: rebuilt the catalog")
    except (OSError, KgdiffError) as exc:
        failed.append(f"kg.duckdb: could not rebuild the catalog ({exc})")
    return Report(report.findings, report.checked, done, failed)


def _due(finding: Finding, drop_staging: bool) -> bool:
    if finding.repair is None:
        return False
    return finding.severity != NOTE or (drop_staging and finding.repair.action == DROP_STAGING)


def _mend(layout: StoreLayout, finding: Finding) -> str | None:
    """Do the repair of ``finding``; what was done (None: nothing was left to do)."""
    assert finding.repair is not None
    action = finding.repair.action
    path = layout.root / finding.repair.path if finding.repair.path else layout.root
    if action == REMOVE:
        return _remove_leftover(path)
    if action == DROP_STAGING:
        return _drop_staging(path)
    if action == UNPUBLISH:
        return _unpublish(layout, path, finding.repair.inode)
    if action == FAIL_JOBS:
        failed = fail_orphaned_jobs(jobs_folder(layout))
        return f"marked {len(failed)} orphaned job(s) failed" if failed else None
    return None  # the catalog: rebuilt last, whatever was found


def _remove_leftover(path: Path) -> str | None:
    pid = writer_pid(path.name)
    if not path.exists() and not path.is_symlink():
        return None
    if pid is None or is_running(ProcessMark(pid)):
        return None  # not a temporary, or its process runs (again): left alone
    _delete(path)
    return "removed"


def _drop_staging(path: Path) -> str | None:
    """Remove a stopped ingest's staging folder (or lone lock), holding its lock meanwhile
    (a StoreError when an ingest took it since the check)."""
    folder = path.with_suffix("") if path.suffix == ".lock" else path
    lock = lock_staging(folder)
    try:
        _delete(folder)
        lock_path(folder).unlink(missing_ok=True)
    finally:
        lock.close()
    return "removed the staging" if path == folder else "removed the lock"


def _unpublish(layout: StoreLayout, path: Path, inode: int | None) -> str | None:
    """Rename the build found unreadable away under the store lock (no reader finds it half
    deleted), then delete it; one made again since (another inode) is left alone."""
    trash = path.with_name(f".trash-{path.name}-{os.getpid()}")
    with store_lock(layout):
        if not path.exists() or (inode is not None and path.stat().st_ino != inode):
            return None
        path.rename(trash)
    _delete(trash)
    return "removed (made again when asked for)"


def _delete(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)
