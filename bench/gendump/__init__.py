"""Generate a synthetic Wikidata JSON dump in the real layout, built from real entities.

Usage::

    .venv/bin/python -m bench.gendump --size-mb 1024 --out /work/bench-data
    .venv/bin/python -m bench.gendump --size-mb 3072 --out /work/bench-data \\
        --name wikidata-20240102-all

The output ``DIR/NAME.json`` has the layout of the Wikidata JSON dumps: a first line
``[``, one entity per line, every entity line but the last ending with ``,``, and a
last line ``]``. ``.json.gz`` (pigz, else gzip level 6) and ``.json.bz2`` (lbzip2,
else the bz2 module) are compressed from it. ``DIR/gendump.json`` records the
parameters and file sizes so a re-run with the same parameters only redoes what is
missing.

Entities are real (the 2014-12 wikibrain JSON dump plus single canonical entities),
normalised once to the current serialisation (every map present, ``datatype`` on
every snak, ``id`` on entity values, hashed qualifiers, 4-digit years, page metadata
at the end), then sampled with a seeded RNG and rewritten so every emitted entity is
unique: new ids, statement GUIDs re-prefixed, item values remapped into the emitted
id range, sitelink titles made unique, and light perturbations (dropped and added
statements, shifted years, changed ranks). Lines are written with ``\\uXXXX`` and
``\\/`` escapes like the real dumps (PHP ``json_encode``).

Modules, in pipeline order:

- :mod:`~bench.gendump.common`: entity type, type mix, line encoding, snak hash
- :mod:`~bench.gendump.modernise`: old (2014) JSON → current serialisation
- :mod:`~bench.gendump.templates`: read the real sources, build the weighted pool
- :mod:`~bench.gendump.ids`: new ids, item remapping, GUIDs, titles, page metadata
- :mod:`~bench.gendump.perturb`: dropped/added statements, shifted years, ranks
- :mod:`~bench.gendump.rewrite`: template → unique entity
- :mod:`~bench.gendump.emit`: type-mix sampling and streaming ``NAME.json``
- :mod:`~bench.gendump.stats`: counters of a run
- :mod:`~bench.gendump.compress`: ``.gz``, ``.bz2``, ``.zst`` copies
- :mod:`~bench.gendump.cache`: the ``gendump.json`` manifest, reuse or regenerate
- :mod:`~bench.gendump.cli`: options and entry point
"""

from bench.gendump.cache import load_manifest, make_dump, save_manifest
from bench.gendump.cli import main, parse_args
from bench.gendump.common import Entity, encode_line
from bench.gendump.compress import compress
from bench.gendump.emit import write_dump
from bench.gendump.stats import Stats
from bench.gendump.templates import Pool, Template, build_pool

__all__ = [
    "Entity",
    "Pool",
    "Stats",
    "Template",
    "build_pool",
    "compress",
    "encode_line",
    "load_manifest",
    "main",
    "make_dump",
    "parse_args",
    "save_manifest",
    "write_dump",
]
