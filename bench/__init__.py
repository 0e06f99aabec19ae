"""Benchmark tooling for kgdiff: synthetic dumps, the qwikidata baseline, RSS measurement."""
