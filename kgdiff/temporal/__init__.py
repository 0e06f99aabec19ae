"""The temporal core: per-cutoff classification of facts (DESIGN.md §4)."""
