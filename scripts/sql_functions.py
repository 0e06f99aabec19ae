"""Write kgdiff/data/sql_functions.toml: the built-in functions a user's SQL query may call.

Every function the installed DuckDB defines, but those the deny sets of
kgdiff/query/sql_functions.py name, one per line, so that a review reads the diff. After a
DuckDB upgrade (tests/test_safe_sql_functions.py fails and names the functions that came
and went), look at each new one: a function that writes, runs SQL given as text, or answers
with a path, a setting or the environment goes into a deny set; then run this script.

    .venv/bin/python scripts/sql_functions.py           rewrite the file
    .venv/bin/python scripts/sql_functions.py --check   exit 1 if the file is out of date
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import duckdb

from kgdiff.query.sql_functions import Allowed, allowed_from

DATA = Path(__file__).resolve().parent.parent / "kgdiff" / "data" / "sql_functions.toml"
HEADER = """\
# The built-in functions a user's SQL query may call (POST /v1/sql): every function of the
# DuckDB below but those the deny sets of kgdiff/query/sql_functions.py name. Written by
# scripts/sql_functions.py: do not edit; change the deny sets and run the script.
"""


def current() -> Allowed:
    """The allow-lists of the installed DuckDB, on a connection that loads no extension
    (as the query's connection: what it has is what DuckDB has built in)."""
    config: dict[str, str | bool | int | float | list[str]] = {
        "autoload_known_extensions": False,
        "autoinstall_known_extensions": False,
    }
    with duckdb.connect(config=config) as connection:
        return allowed_from(connection)


def toml_text(allowed: Allowed) -> str:
    """The data file's text for ``allowed``."""
    return "\n".join(
        (
            HEADER,
            f"duckdb = {json.dumps(allowed.duckdb_version)}",
            "",
            "# called in an expression: scalar, aggregate and window functions, macros",
            _array("functions", allowed.functions),
            "",
            "# called in FROM: table functions and table macros",
            _array("table_functions", allowed.table_functions),
            "",
        )
    )


def _array(key: str, names: frozenset[str]) -> str:
    lines = [f"    {json.dumps(name)}," for name in sorted(names)]
    return "\n".join([f"{key} = [", *lines, "]"])


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="exit 1 if the file is stale")
    arguments = parser.parse_args(argv)
    text = toml_text(current())
    if arguments.check:
        if DATA.read_text(encoding="utf-8") != text:
            print(f"{DATA} is out of date; run scripts/sql_functions.py", file=sys.stderr)
            return 1
        return 0
    DATA.write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
