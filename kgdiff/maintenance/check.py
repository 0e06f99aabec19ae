"""``kgdiff store check``: every published folder against its manifest, every build, the
catalog against the folders, and what stopped runs left behind, in one report."""

from __future__ import annotations

from kgdiff.errors import StoreError
from kgdiff.ingest.progress import Progress
from kgdiff.maintenance.builds import build_bytes, check_builds
from kgdiff.maintenance.catalog import check_catalog
from kgdiff.maintenance.findings import Finding, Report
from kgdiff.maintenance.leftovers import check_leftovers
from kgdiff.maintenance.published import Published, check_published, published_folders, total_bytes
from kgdiff.maintenance.reading import Meter
from kgdiff.store.builds_index import published_builds
from kgdiff.store.layout import StoreLayout

PUBLISHED_ROOTS = ("snapshots", "wikipedia", "pageviews")


def check_store(
    layout: StoreLayout,
    progress: Progress | None = None,
    published: list[Finding] | None = None,
) -> Report:
    """What is wrong in the store of ``layout``, one finding each.

    ``published``: the findings of an earlier check about the published folders, taken as
    they are rather than reading those folders again (a check after ``--repair``, which
    never changes them)."""
    if not layout.root.is_dir():
        raise StoreError(f"no store at {layout.root}; check the path or --store")
    folders = published_folders(layout)
    meter = Meter(progress)
    reread = published is None
    meter.begin(
        f"checking {layout.root.name}",
        (total_bytes(folders) if reread else 0) + build_bytes(layout),
    )
    try:
        findings = check_published(layout, folders, meter) if published is None else list(published)
        findings += check_builds(layout, meter)
    finally:
        meter.end()
    findings += check_catalog(layout)
    findings += check_leftovers(layout)
    return Report(findings, _checked(layout, folders, meter))


def published_findings(report: Report) -> list[Finding]:
    """The findings of ``report`` about the published folders."""
    return [f for f in report.findings if f.where.split("/", 1)[0] in PUBLISHED_ROOTS]


def _checked(layout: StoreLayout, folders: list[Published], meter: Meter) -> dict[str, int]:
    counted = {
        "snapshots": sum(item.kind == "snapshot" for item in folders),
        "Wikipedia snapshots": sum(item.kind == "Wikipedia snapshot" for item in folders),
        "page view sources": sum(item.kind == "page view source" for item in folders),
        "classification builds": len(published_builds(layout)),
        "files": meter.files,
        "MB": round(meter.bytes / 1e6),
    }
    return {what: count for what, count in counted.items() if count or what == "snapshots"}
