"""Benchmark export: QA records in the seed papers' shapes, and the scoring of predictions."""
