"""``--out`` of the commands that write a folder or RDF, checked before any work: a folder
command refuses a file's name, ``export rdf`` takes its format from the file's suffix and
refuses a suffix that contradicts ``--format``. (Rows: :func:`kgdiff.cli.options.checked_out`.)
"""

from __future__ import annotations

from pathlib import Path

from kgdiff.errors import UsageError

FILE_SUFFIXES = frozenset(
    {
        ".parquet", ".jsonl", ".json", ".csv", ".tsv", ".txt", ".md", ".yaml", ".yml",
        ".nt", ".nq", ".ttl", ".trig", ".svg", ".png", ".pdf",
        ".gz", ".bz2", ".zst", ".xz", ".zip", ".tar", ".arrow",
    }
)  # fmt: skip
"""Suffixes that name a file, never a folder a command writes into."""

RDF_SUFFIXES = {".nt": "nt", ".nq": "nq", ".ttl": "ttl", ".trig": "trig"}
"""The file suffixes of the formats ``export rdf`` writes."""
RDF_NAMES = {"nt": "N-Triples", "nq": "N-Quads", "ttl": "Turtle", "trig": "TriG"}
OTHER_RDF = {".rdf": "RDF/XML", ".owl": "RDF/XML", ".xml": "RDF/XML", ".jsonld": "JSON-LD"}
"""Suffixes of RDF serialisations kgdiff does not write."""
COMPRESSED = frozenset({".gz", ".bz2", ".zst", ".xz"})
GZIP = ".gz"
"""The one compression ``export rdf`` writes (of its streamed formats, N-Triples and N-Quads)."""
DEFAULT_RDF = "nt"


def checked_folder(out: Path, what: str, example: str) -> Path:
    """``--out`` of a command that writes into a folder (``what``: the command and what it
    writes, ``example``: a folder name to suggest): refused when it is an existing file or
    has a file's suffix."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} is a file, and {what}; give a folder's name")
    if out.suffix.lower() in FILE_SUFFIXES:
        raise UsageError(
            f"--out {out}: {what}, not a {out.suffix} file; give a folder name without a"
            f" file suffix, e.g. --out {example}"
        )
    return out


def rdf_format(out: Path, fmt: str | None) -> str:
    """The format ``export rdf`` writes to ``out``: ``--format`` if given, else the one its
    suffix names (before a ``.gz``: N-Triples or N-Quads written compressed; N-Triples without
    one); a usage error when they contradict each other, or for another compression or
    another serialisation's suffix."""
    suffix = out.suffix.lower()
    if suffix in COMPRESSED and suffix != GZIP:
        raise UsageError(
            f"--out {out}: kgdiff export rdf compresses with gzip only; name it"
            f" {out.with_suffix(GZIP).name}"
        )
    compressed = suffix == GZIP
    named = out.with_suffix("") if compressed else out
    suffix = named.suffix.lower()
    if suffix in OTHER_RDF:
        raise UsageError(
            f"--out {out}: kgdiff does not write {OTHER_RDF[suffix]}; name a"
            f" {', '.join(RDF_SUFFIXES)} file (or give --format)"
        )
    implied = RDF_SUFFIXES.get(suffix)
    if fmt is None:
        return implied or DEFAULT_RDF
    chosen = fmt.strip().lower()
    if implied is not None and chosen in RDF_NAMES and implied != chosen:
        renamed = named.with_suffix("." + chosen).name + (GZIP if compressed else "")
        raise UsageError(
            f"--out {out}: its suffix {suffix} names {RDF_NAMES[implied]}, but --format"
            f" {fmt} writes {RDF_NAMES[chosen]}: name it {renamed},"
            f" or leave out --format to write {RDF_NAMES[implied]}"
        )
    return chosen
