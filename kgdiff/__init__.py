"""kgdiff: a temporal knowledge graph from Wikidata and Wikipedia dumps.

For a language model's knowledge cutoff, kgdiff tells which facts are stable,
which evolved and which are uncharted, with the evidence behind each.
"""

__version__ = "0.1.0"
