"""A small YAML writer for lm-eval's task files.

The task files are a few nested mappings, lists and scalars, plus lm-eval's ``!function``
tag; writing them here keeps kgdiff free of a YAML dependency and the output byte-stable
(keys in the order given, strings quoted only when YAML would read them otherwise).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

_PLAIN = re.compile(r"[A-Za-z_][A-Za-z0-9_./-]*")
# Words YAML 1.1 (PyYAML, which lm-eval reads with) takes for booleans or null.
_RESERVED = frozenset({"true", "false", "yes", "no", "on", "off", "y", "n", "null", "~"})


@dataclass(frozen=True)
class Function:
    """A value lm-eval reads as a Python function: ``!function module.name``."""

    name: str


def scalar(value: Any) -> str:
    """One value on a line: a flow list, a ``!function``, a number, a boolean or a string."""
    if isinstance(value, Function):
        return f"!function {value.name}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        plain = _PLAIN.fullmatch(value) and value.lower() not in _RESERVED
        # a JSON string is a valid YAML double-quoted scalar
        return value if plain else json.dumps(value, ensure_ascii=False)
    if isinstance(value, Sequence):
        return "[" + ", ".join(scalar(item) for item in value) + "]"
    raise TypeError(f"cannot write {type(value).__name__} as a YAML scalar")


def _is_block_list(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(i, Mapping) for i in value)


def mapping_lines(mapping: Mapping[str, Any], indent: int = 0) -> list[str]:
    """The lines of a block mapping; nested mappings and lists of mappings as blocks."""
    pad = " " * indent
    lines = []
    for key, value in mapping.items():
        if isinstance(value, Mapping):
            lines += [f"{pad}{key}:", *mapping_lines(value, indent + 2)]
        elif _is_block_list(value):
            lines.append(f"{pad}{key}:")
            for item in value:
                first, *rest = mapping_lines(item, indent + 4)
                lines += [f"{pad}  - {first.lstrip()}", *rest]
        else:
            lines.append(f"{pad}{key}: {scalar(value)}")
    return lines


def render(document: Mapping[str, Any], comments: Sequence[str] = ()) -> str:
    """A YAML document: ``# `` comment lines, then the mapping."""
    head = [f"# {line}".rstrip() for line in comments]
    return "\n".join([*head, *mapping_lines(document)]) + "\n"
