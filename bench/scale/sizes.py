"""Rung sizes: statements per snapshot, written as millions (``25``), or with a unit
(``20k``, ``1.5M``, ``2G``)."""

from __future__ import annotations

UNITS = {"k": 1_000, "m": 1_000_000, "g": 1_000_000_000}


def parse_size(text: str) -> int:
    """``"25"`` → 25,000,000; ``"20k"`` → 20,000; a usage error for anything else."""
    raw = text.strip().lower()
    unit = UNITS.get(raw[-1:])
    number = raw[:-1] if unit else raw
    try:
        value = float(number) * (unit or UNITS["m"])
    except ValueError:
        raise SystemExit(f"--sizes: {text!r} is not a size (e.g. 25 for 25 M, 20k, 1.5M)") from None
    if value < 1_000:
        raise SystemExit(f"--sizes: {text!r} is below 1,000 statements; a rung needs more")
    return int(value)


def parse_sizes(text: str) -> list[int]:
    """Comma-separated sizes, ascending, each once."""
    return sorted({parse_size(part) for part in text.split(",") if part.strip()})


def label(size: int) -> str:
    """The short name of a size: ``25M``, ``20k``, ``1.5M``."""
    for suffix, unit in (("G", UNITS["g"]), ("M", UNITS["m"]), ("k", UNITS["k"])):
        if size >= unit:
            return f"{size / unit:g}{suffix}"
    return str(size)
