"""The temporal core: per-cutoff classification of facts (docs/classification.md)."""
