"""``kgdiff refresh``: a new snapshot from the changes since an earlier one, stored as a delta
(docs/refresh.md)."""
