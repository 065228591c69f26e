"""The package's shape, as a maintainer relies on it: no import cycle, no module reaching into
another module's private names, no module grown past what one reading takes in."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "gbr_tui"
MAX_LINES = 500
#: Names with a leading underscore that are a documented public API: named tuples' own.
PUBLIC_UNDERSCORED = frozenset({"_fields", "_field_defaults", "_asdict", "_make", "_replace"})


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(path): path for path in sorted(PACKAGE.rglob("*.py"))}
TREES = {name: ast.parse(path.read_text(encoding="utf-8"), str(path)) for name, path in MODULES.items()}


def runtime_nodes(tree: ast.AST) -> Iterator[ast.AST]:
    """Every node, except those under ``if TYPE_CHECKING:`` (imports for annotations only)."""
    for node in ast.iter_child_nodes(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            yield from (inner for branch in node.orelse for inner in (branch, *runtime_nodes(branch)))
            continue
        yield node
        yield from runtime_nodes(node)


def imported_modules(name: str) -> set[str]:
    """The package's modules that ``name`` imports, at its top or inside a function."""
    found = set()
    package = name if MODULES[name].name == "__init__.py" else name.rpartition(".")[0]
    for node in runtime_nodes(TREES[name]):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name in MODULES)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(
                    [*package.split(".")[: len(package.split(".")) - node.level + 1], *filter(None, [base])]
                )
            for alias in node.names:
                full = f"{base}.{alias.name}"
                if full in MODULES:
                    found.add(full)
                elif base in MODULES:
                    found.add(base)
    found.discard(name)
    return found


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components of more than one module (Tarjan's algorithm)."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for after in sorted(graph[node]):
            if after not in order:
                visit(after)
                low[node] = min(low[node], low[after])
            elif after in stack:
                low[node] = min(low[node], order[after])
        if low[node] == order[node]:
            component = []
            while (top := stack.pop()) != node:
                component.append(top)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def private_reaches(name: str) -> list[str]:
    """``from m import _x`` and ``obj._x`` where ``_x`` is not a name this module defines itself
    (an instance of one of its own classes may use another's private state)."""
    tree = TREES[name]
    own = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            own.add(node.name)
        elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            own.add(node.attr)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            own.add(node.id)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            own.add(node.target.id)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            found += [f"line {node.lineno}: import {alias.name}" for alias in node.names if _private(alias.name)]
        elif isinstance(node, ast.Attribute) and _private(node.attr) and node.attr not in own:
            found.append(f"line {node.lineno}: {ast.unparse(node)}")
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__") and name not in PUBLIC_UNDERSCORED


def test_the_modules_are_found() -> None:
    assert "gbr_tui.core.code" in MODULES and "gbr_tui.app" in MODULES
    assert "gbr_tui.core.collection" in MODULES  # a package's __init__ by the package's name


def test_the_import_graph_sees_a_cycle_when_there_is_one() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(graph) == [["a", "b", "c"]]
    assert imported_modules("gbr_tui.core.code")  # it imports the package's material module


def test_no_import_cycle() -> None:
    graph = {name: imported_modules(name) for name in MODULES}
    assert cycles(graph) == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_reach_into_another_modules_private_names(name: str) -> None:
    assert private_reaches(name) == []


def test_a_reach_into_private_state_is_seen() -> None:
    TREES["probe"] = ast.parse("from x import _hidden\ndef f(collection):\n    collection._number += 1\n")
    try:
        assert private_reaches("probe") == ["line 1: import _hidden", "line 3: collection._number"]
    finally:
        del TREES["probe"]


@pytest.mark.parametrize("name", sorted(MODULES))
def test_no_module_over_500_lines(name: str) -> None:
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= MAX_LINES
