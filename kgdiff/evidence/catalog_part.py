"""What the evidence adds to the catalog: the ``evidence`` view, and the ``supported``
columns on the views of the classification builds (which it makes again, after the
classification's part has made them plain)."""

from __future__ import annotations

from kgdiff.evidence.supported import (
    evidence_files,
    evidence_snapshots,
    evidence_wiki,
    supported_select,
    supported_view,
)
from kgdiff.sqlfiles import render
from kgdiff.store.builds_index import shown_builds
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import store_relative


class EvidencePart:
    """The evidence views (none when no evidence is built)."""

    def views(self, layout: StoreLayout) -> list[str]:
        """``evidence``, then each build's view with its evidence columns."""
        files = [store_relative(layout, path) for path in evidence_files(layout)]
        wiki = evidence_wiki(layout)
        if not files or wiki is None:
            return []
        views = [render("catalog/evidence_view", files=files)]
        built = evidence_snapshots(layout)
        for build in shown_builds(layout):
            dates = build.init, build.cutoff, build.current
            relative = store_relative(layout, build.files)
            views.append(
                supported_view(build.view, supported_select(relative, *dates, wiki, built))
            )
        return views

    def macros(self) -> list[str]:
        """None: the evidence is read through views."""
        return []


CATALOG_PART = EvidencePart()
