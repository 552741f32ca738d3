"""No import cycle between the package's modules, not even through a deferred import.

Every ``import`` and ``from … import`` statement counts, wherever it stands: at the top of
a module, inside a function (a deferred import only moves the cycle to run time) and
under ``if TYPE_CHECKING:`` (the type checker follows the circle too). A relative import
is resolved against the module's package, and ``from package import module`` is an
edge to that module, not to the package. Importing ``a.b`` also runs ``a/__init__.py``,
but that edge is Python's, not the module's: it is not counted.

``KNOWN`` is empty: the last cycles (``format/``'s seven modules, ``archive`` classify ↔
store ↔ workers, ``dd`` ↔ ``dd.workers``) are gone. Were one ever let in for a while, it
would be listed there, and the list must match what is found exactly.
"""

from __future__ import annotations

import ast
from pathlib import Path

from conftest import ROOT

PACKAGE = ROOT / "priffe_records"

# Each a strongly connected set of modules, by dotted name without the package's name.
KNOWN: set[frozenset[str]] = set()


def imported(tree: ast.Module, me: str, is_package: bool, modules: set[str]) -> set[str]:
    """The package modules that the module ``me`` imports anywhere in ``tree``."""
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".") if is_package else me.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            for a in node.names:  # ``from pkg import module`` names the module itself
                found.add(f"{mod}.{a.name}" if f"{mod}.{a.name}" in modules else mod)
    return {m for m in found if m in modules and m != me}


def graph_of(package: Path) -> dict[str, set[str]]:
    """Each module of ``package`` and the package modules it imports."""
    paths = sorted(package.rglob("*.py"))
    modules = {module_name_in(p, package) for p in paths}
    return {module_name_in(p, package): imported(
        ast.parse(p.read_text("utf-8"), str(p)), module_name_in(p, package),
        p.name == "__init__.py", modules) for p in paths}


def module_name_in(path: Path, package: Path) -> str:
    """``priffe_records.archive.store`` for priffe_records/archive/store.py."""
    parts = list(path.relative_to(package.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def cycles(graph: dict[str, set[str]]) -> set[frozenset[str]]:
    """The strongly connected sets of two or more modules (Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: set[frozenset[str]] = set()

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            part = set()
            while True:
                w = stack.pop()
                part.add(w)
                if w == v:
                    break
            if len(part) > 1:
                found.add(frozenset(part))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def _named(parts: set[frozenset[str]]) -> list[str]:
    return sorted(" ↔ ".join(sorted(m.removeprefix("priffe_records.") for m in p))
                  for p in parts)


def test_no_import_cycle_even_through_deferred_imports() -> None:
    found = {frozenset(m.removeprefix("priffe_records.") for m in part)
             for part in cycles(graph_of(PACKAGE))}
    assert not found - KNOWN, f"new import cycles: {_named(found - KNOWN)}"
    assert not KNOWN - found, f"cycles broken, strike them from KNOWN: {_named(KNOWN - found)}"


def test_every_kind_of_import_is_an_edge(tmp_path: Path) -> None:
    """Deferred, TYPE_CHECKING, relative and ``from package import module`` imports all
    close a circle; the package's own ``__init__`` is not an edge of its children."""
    pkg = tmp_path / "pkg"
    (pkg / "sub").mkdir(parents=True)
    files = {
        "__init__.py": "from pkg import a\n",
        "a.py": "def f():\n    from .sub import b\n",
        "sub/__init__.py": "",
        "sub/b.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import pkg.c\n",
        "c.py": "from . import a\n",
        "d.py": "import pkg.a\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text, "utf-8")
    graph = graph_of(pkg)
    assert graph["pkg.a"] == {"pkg.sub.b"}
    assert graph["pkg.sub.b"] == {"pkg.c"}
    assert graph["pkg.c"] == {"pkg.a"}
    assert cycles(graph) == {frozenset({"pkg.a", "pkg.sub.b", "pkg.c"})}
    (pkg / "c.py").write_text("import os\n", "utf-8")
    assert cycles(graph_of(pkg)) == set()
