"""Labels on an entity's timeline rows (``pid_label``, ``value_label``)."""

from __future__ import annotations

import pyarrow as pa

from kgdiff.query.labels import Labels


def with_labels(subject: str, rows: pa.Table, labels: Labels) -> pa.Table:
    """The timeline of ``subject`` with ``subject``, ``subject_label``, ``pid_label`` and
    ``value_label`` columns (ids without a label, and values that are no entity, stand for
    themselves)."""
    count = rows.num_rows
    pid_labels = [labels.of(p) for p in rows.column("pid").to_pylist()]
    value_labels = [labels.of(v) for v in rows.column("value").to_pylist()]
    rows = rows.add_column(0, "subject", pa.array([subject] * count, pa.string()))
    rows = rows.add_column(1, "subject_label", pa.array([labels.of(subject)] * count, pa.string()))
    rows = rows.add_column(3, "pid_label", pa.array(pid_labels, pa.string()))
    return rows.add_column(5, "value_label", pa.array(value_labels, pa.string()))
