"""kgdiff: a temporal knowledge graph from Wikidata and Wikipedia dumps.

For a language model's knowledge cutoff, kgdiff tells which facts are stable,
which evolved and which are uncharted, with the evidence behind each.
"""

import os

__version__ = "0.1.0"

# Arrow's mimalloc asks for transparent huge pages by default: each fresh 2 MB page is
# zeroed whole on first touch, which cost finalize a third of its CPU time in system time
# on the machines measured (bench/README.md). Read by mimalloc when pyarrow loads, so it
# only works when kgdiff is imported first, as the command line does; a user's setting wins.
os.environ.setdefault("MIMALLOC_ALLOW_LARGE_OS_PAGES", "0")
