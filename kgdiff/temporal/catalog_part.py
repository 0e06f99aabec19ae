"""What the classification adds to the catalog: its table macros and a view per build."""

from __future__ import annotations

from kgdiff.sqlfiles import load_sql, render
from kgdiff.store.builds_index import shown_builds
from kgdiff.store.layout import StoreLayout
from kgdiff.store.store_root import store_relative
from kgdiff.temporal.macros import catalog_macros


class TemporalPart:
    """``entity_redirects``, ``classified_<dates>_<mode>`` views over the builds, and the
    temporal macros."""

    def views(self, layout: StoreLayout) -> list[str]:
        """``entity_redirects`` (the rows merges are read from), then one view per
        classification build of the snapshots published now."""
        return [
            load_sql("catalog/entity_redirects_view"),
            *(
                render("catalog/build_view", view=b.view, file=store_relative(layout, b.files))
                for b in shown_builds(layout)
            ),
        ]

    def macros(self) -> list[str]:
        """date_reads, classify, timeline, pools, chains, updates and facts_at, in order."""
        return catalog_macros()


CATALOG_PART = TemporalPart()
