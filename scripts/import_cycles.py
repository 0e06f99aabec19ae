"""No import circles in kgdiff and api, module by module (``make lint``, :mod:`scripts.lint`).

import-linter's ``acyclic_siblings`` contract (pyproject.toml) finds circles between the parts
of a package, each part taken whole (``kgdiff.temporal`` importing ``kgdiff.query``, which
imports the temporal core), but not one through a package's own ``__init__``
(``kgdiff/__init__.py`` opens the knowledge graph: a module below it that imported ``kgdiff``
would close a circle the contract does not see). This reads every module's imports with the
stdlib's ast, at any depth: an import inside a function or an ``if TYPE_CHECKING:`` block is a
dependency all the same, and hiding a circle there does not break it.

    .venv/bin/python scripts/import_cycles.py    name each circle; exit 1 if there is one
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("kgdiff", "api")

Graph = dict[str, set[str]]


def module_files(root: Path, packages: Iterable[str]) -> dict[str, Path]:
    """Every module of ``packages`` (folders below ``root``) by its dotted name; a package's
    ``__init__.py`` is the package itself."""
    found: dict[str, Path] = {}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            found[".".join(parts)] = path
    return found


def imported_names(name: str, path: Path) -> Iterator[str]:
    """The dotted names a module imports (``from a import b`` gives ``a.b`` and ``a``'s
    candidate), relative imports resolved against the module's package."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(package, node)
            yield from (f"{base}.{alias.name}" if base else alias.name for alias in node.names)


def _from_base(package: str, node: ast.ImportFrom) -> str:
    """The module a ``from ... import`` statement reads from."""
    if not node.level:
        return node.module or ""
    parts = package.split(".")
    base = ".".join(parts[: len(parts) - node.level + 1])
    return f"{base}.{node.module}" if node.module else base


def _owner(name: str, modules: dict[str, Path]) -> str | None:
    """The module ``name`` is or is in (``a.b.func`` → ``a.b``); None outside ``modules``."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(root: Path = ROOT, packages: Iterable[str] = PACKAGES) -> Graph:
    """Which of the packages' modules each of them imports."""
    modules = module_files(root, packages)
    graph: Graph = {}
    for name, path in modules.items():
        owners = (_owner(imported, modules) for imported in imported_names(name, path))
        graph[name] = {owner for owner in owners if owner is not None}
    return graph


def tangles(graph: Graph) -> list[list[str]]:
    """The groups of modules that import one another round a circle (strongly connected
    components of two or more modules, or one that imports itself), each sorted."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []
    for start in sorted(graph):
        if start not in order:
            _visit(start, graph, order, low, stack, groups)
    return sorted(groups)


def _visit(
    start: str,
    graph: Graph,
    order: dict[str, int],
    low: dict[str, int],
    stack: list[str],
    groups: list[list[str]],
) -> None:
    """Tarjan's algorithm from ``start``, without recursion (the graph is deep)."""
    work = [(start, iter(sorted(graph[start])))]
    order[start] = low[start] = len(order)
    stack.append(start)
    while work:
        node, following = work[-1]
        step = next(following, None)
        if step is not None:
            if step not in order:
                order[step] = low[step] = len(order)
                stack.append(step)
                work.append((step, iter(sorted(graph[step]))))
            elif step in stack:
                low[node] = min(low[node], order[step])
            continue
        work.pop()
        if work:
            low[work[-1][0]] = min(low[work[-1][0]], low[node])
        if low[node] == order[node]:
            group = stack[stack.index(node) :]
            del stack[stack.index(node) :]
            if len(group) > 1 or node in graph[node]:
                groups.append(sorted(group))


def circle(group: list[str], graph: Graph) -> list[str]:
    """One circle through the first module of ``group``: the modules in import order, the
    first again at the end (a breadth-first search inside the group)."""
    first, members = group[0], set(group)
    came_from: dict[str, str] = {}
    frontier = [first]
    while frontier:
        following = []
        for node in frontier:
            for step in sorted(graph[node] & members):
                if step == first:
                    path = [node]
                    while path[-1] != first:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), first]
                if step not in came_from:
                    came_from[step] = node
                    following.append(step)
        frontier = following
    return [first, first]


def main() -> int:
    """Print each circle of kgdiff's and api's imports; 1 if there is any."""
    graph = import_graph()
    found = tangles(graph)
    for group in found:
        print(
            f"import circle among {len(group)} modules: {' -> '.join(circle(group, graph))}; "
            "move what both need into a module below them (docs/architecture.md)",
            file=sys.stderr,
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
