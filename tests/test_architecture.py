"""The layers of docs/architecture.md, enforced: who may import whom.

Every import statement of every module counts, including those inside
functions and under ``TYPE_CHECKING``, so a lazy import cannot hide a
layering breach.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "priffe_records"

# layer -> the package layers it may import (itself always allowed)
ALLOWED: dict[str, set[str]] = {
    "game": set(),
    "format": {"game"},
    "rules": {"game", "format"},
    "archive": {"game", "format", "rules"},
    "replay": {"game", "format", "rules"},
    "cli": {"game", "format", "rules", "archive", "replay", "<root>"},
    "<root>": {"game", "format", "rules", "archive", "replay"},
}
# third-party or standard modules a layer must not touch
FORBIDDEN_EXTERNAL: dict[str, set[str]] = {
    "game": {"click", "rich", "sqlite3", "sqlite_utils", "lark"},
    "format": {"click", "rich", "sqlite3", "sqlite_utils"},
    "rules": {"click", "rich", "sqlite3", "sqlite_utils", "lark"},
    "archive": {"click", "rich"},
    "replay": {"click", "sqlite3", "sqlite_utils"},
    "<root>": {"click", "rich", "sqlite3", "sqlite_utils"},
}


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file of module ``name``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join([*base, *([node.module] if node.module else [])])
            else:
                mod = node.module or ""
            found.append((node.lineno, mod))
            if mod in ("priffe_records", *(f"priffe_records.{x}" for x in ALLOWED)):
                found.extend((node.lineno, f"{mod}.{a.name}") for a in node.names)
    return found


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in ALLOWED else "<root>"


def _family(module: str) -> str | None:
    """``priffe`` for priffe_records.rules.priffe.x: the game family a rules module belongs to."""
    parts = module.split(".")
    if len(parts) > 2 and parts[1] == "rules" and parts[2] not in SHARED_RULES:
        return parts[2]
    return None


# modules of rules/ itself, shared by every family
SHARED_RULES = {p.stem for p in (PACKAGE / "rules").glob("*.py")}


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_layer_folder_exists_and_nothing_else_sits_at_the_top() -> None:
    top = sorted(p.name for p in PACKAGE.iterdir()
                 if p.name not in {"__pycache__"} and not p.name.endswith(".egg-info"))
    assert top == ["__init__.py", "archive", "cli", "format", "game", "py.typed", "replay",
                   "rules"]


def _breaches(path: Path, me: str) -> list[str]:
    layer = _layer(me)
    breaches = []
    for line, mod in _imports(path, me):
        top = mod.split(".")[0]
        if top == "priffe_records":
            other = _layer(mod)
            if other == layer and layer != "<root>":
                mine, theirs = _family(me), _family(mod)
                if mine and theirs and mine != theirs:
                    breaches.append(f"line {line}: family {mine} imports family {theirs} ({mod})")
                continue
            if other not in ALLOWED[layer]:
                breaches.append(f"line {line}: {layer} imports {other} ({mod})")
        elif top in FORBIDDEN_EXTERNAL.get(layer, set()):
            breaches.append(f"line {line}: {layer} imports {top}")
    return breaches


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_only_what_its_layer_allows(path: Path) -> None:
    breaches = _breaches(path, _module_name(path))
    assert not breaches, f"{path.relative_to(ROOT)} breaks docs/architecture.md:\n" + \
        "\n".join(breaches)


def test_the_checker_sees_each_kind_of_breach(tmp_path: Path) -> None:
    """The rules above can fail: each kind of breach is caught, lazy imports included."""
    fake = tmp_path / "fake.py"
    fake.write_text("from priffe_records.archive import store\n"
                    "def f():\n    import click\n"
                    "from ...cli import common\n"
                    "from priffe_records.rules.preference import auction\n", "utf-8")
    found = _breaches(fake, "priffe_records.rules.priffe.fake")
    assert sorted(found) == ["line 1: rules imports archive (priffe_records.archive)",
                     "line 1: rules imports archive (priffe_records.archive.store)",
                     "line 3: rules imports click",
                     "line 4: rules imports cli (priffe_records.cli)",
                     "line 4: rules imports cli (priffe_records.cli.common)",
                     "line 5: family priffe imports family preference "
                     "(priffe_records.rules.preference)"]
