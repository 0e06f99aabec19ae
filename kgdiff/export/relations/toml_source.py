"""A TOML file read for its values and for the lines they stand on, so that an error about a
value can name its line.

``tomllib`` parses the file but keeps no positions; :class:`TomlLines` finds, in the text,
the line of each table header (``[P6]``) and of each key in a table (``label = …``). It
knows TOML's line structure only as far as a hand-written file needs: headers, keys (bare,
quoted or dotted) and multi-line strings, whose lines are never taken for keys. What it does
not find falls back to the line of the enclosing table, then to line 1.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from typing import Any

from kgdiff.errors import UsageError


def _name_pattern(prefix: str = "") -> str:
    """A bare, basic-quoted or literal-quoted TOML key, in groups ``q``, ``s``, ``b``."""
    return rf"""(?:"(?P<{prefix}q>[^"]*)"|'(?P<{prefix}s>[^']*)'|(?P<{prefix}b>[A-Za-z0-9_-]+))"""


HEADER = re.compile(rf"\s*\[\[?\s*{_name_pattern()}\s*(?:\.\s*{_name_pattern('x')}\s*)?\]")
KEY = re.compile(rf"\s*{_name_pattern()}\s*[.=]")
POSITION = re.compile(r"\(at line (\d+), column \d+\)|\(at end of document\)")
TWICE = re.compile(r"Cannot declare \('([^']*)',\) twice")


def _name(match: re.Match[str], prefix: str = "") -> str | None:
    for group in ("q", "s", "b"):
        value = match.group(prefix + group)
        if value is not None:
            return value
    return None


def _toggles(line: str) -> int:
    """How many multi-line string delimiters a line holds (an odd count opens or closes)."""
    return line.count('"""') + line.count("'''")


@dataclass
class TomlLines:
    """The lines (1-based) of the tables and keys of a TOML text."""

    tables: dict[str, int] = field(default_factory=dict)
    keys: dict[tuple[str, str], int] = field(default_factory=dict)

    @classmethod
    def of(cls, text: str) -> TomlLines:
        """Find every table header and key of ``text`` (the first line of each wins)."""
        found = cls()
        table, in_string = "", False
        for number, line in enumerate(text.split("\n"), start=1):  # as tomllib counts lines
            if in_string:
                in_string = _toggles(line) % 2 == 0
                continue
            header = HEADER.match(line)
            key = KEY.match(line)
            if header:
                table = _name(header) or ""
                found.tables.setdefault(table, number)
                sub = _name(header, "x")
                if sub is not None:
                    found.keys.setdefault((table, sub), number)
            elif key:
                found.keys.setdefault((table, _name(key) or ""), number)
                in_string = _toggles(line) % 2 == 1
        return found

    def table(self, name: str) -> int:
        """The line of table ``name``: its header, or a top-level key ``name`` (a dotted or
        inline table); 1 when neither is found."""
        return self.tables.get(name) or self.keys.get(("", name)) or 1

    def key(self, table: str, key: str) -> int:
        """The line of ``key`` in ``table`` (``""`` for the top level), else the table's."""
        return self.keys.get((table, key)) or self.table(table)


@dataclass(frozen=True)
class TomlSource:
    """A TOML text, what to call it in messages, and where its tables and keys are."""

    name: str
    text: str
    lines: TomlLines

    @classmethod
    def of(cls, name: str, text: str) -> TomlSource:
        """The source ``text``, called ``name`` in every message about it."""
        return cls(name, text, TomlLines.of(text))

    def error(self, line: int, message: str) -> UsageError:
        """A usage error naming this file and ``line``."""
        return UsageError(f"{self.name}, line {line}: {message}")

    def parse(self) -> dict[str, Any]:
        """The values of the text; a usage error naming the line when it is not TOML."""
        try:
            return tomllib.loads(self.text)
        except tomllib.TOMLDecodeError as exc:
            raise self._syntax_error(str(exc)) from exc

    def _syntax_error(self, reason: str) -> UsageError:
        position = POSITION.search(reason)
        line = self.text.count("\n") + 1
        if position and position.group(1):
            line = int(position.group(1))
        twice = TWICE.match(reason)
        if twice:
            first = self.lines.table(twice.group(1))
            return self.error(
                line, f"[{twice.group(1)}] is declared twice (first on line {first}); keep one"
            )
        if reason.startswith("Cannot overwrite a value"):
            return self.error(line, "a value is set twice (a repeated field or table); keep one")
        detail = POSITION.sub("", reason).strip()
        return self.error(line, f"not valid TOML ({detail}); fix the syntax on that line")
