"""The layers of docs/architecture.md, enforced: who may import whom.

Every import statement of every module counts, including those inside
functions and under ``TYPE_CHECKING``, so a lazy import cannot hide a
layering breach.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest
from conftest import ROOT

PACKAGE = ROOT / "priffe_records"

# layer -> the package layers it may import (itself always allowed)
ALLOWED: dict[str, set[str]] = {
    "game": set(),
    "dd": {"game"},
    "format": {"game"},
    "rules": {"game", "format", "dd"},
    "archive": {"game", "format", "rules", "dd"},
    "replay": {"game", "format", "rules", "dd"},
    "cli": {"game", "format", "rules", "archive", "replay", "dd", "<root>"},
    "<root>": {"game", "format", "rules", "archive", "replay", "dd"},
}
# third-party or standard modules a layer must not touch
FORBIDDEN_EXTERNAL: dict[str, set[str]] = {
    "game": {"click", "rich", "sqlite3", "sqlite_utils", "lark"},
    "dd": {"click", "rich", "sqlite3", "sqlite_utils", "lark"},
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


def _absolute(node: ast.ImportFrom, me: str, path: Path) -> str:
    """The absolute name of the module a ``from`` import of module ``me`` names."""
    if not node.level:
        return node.module or ""
    package = me if path.name == "__init__.py" else me.rpartition(".")[0]
    base = package.split(".")
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, *([node.module] if node.module else [])])


def _imports(path: Path, name: str) -> list[tuple[int, str]]:
    """(line, absolute module name) of every import in the file of module ``name``."""
    found: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(path.read_text("utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            mod = _absolute(node, name, path)
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
    assert top == ["__init__.py", "archive", "cli", "dd", "format", "game", "py.typed",
                   "replay", "rules"]


def _breaches(path: Path, me: str) -> list[str]:
    layer = _layer(me)
    breaches = []
    for line, mod in _imports(path, me):
        top = mod.split(".")[0]
        if top == "priffe_records":
            other = _layer(mod)
            mine, theirs = _family(me), _family(mod)
            if theirs and not mine:
                breaches.append(f"line {line}: shared module imports family {theirs} ({mod})")
                continue
            if other == layer and layer != "<root>":
                if mine and theirs and mine != theirs:
                    breaches.append(f"line {line}: family {mine} imports family {theirs} ({mod})")
                continue
            if other not in ALLOWED[layer]:
                breaches.append(f"line {line}: {layer} imports {other} ({mod})")
        elif top in FORBIDDEN_EXTERNAL.get(layer, set()):
            breaches.append(f"line {line}: {layer} imports {top}")
    return breaches


# Shared modules that still import a family package, on their way to the family's hooks
# (rules/family.py). The list only shrinks: a module listed here that no longer imports a
# family fails the test below until its line goes.
STILL_IMPORTS_A_FAMILY: set[str] = set()  # emptied: no shared module imports a family


def _family_imports(breaches: list[str]) -> tuple[list[str], list[str]]:
    """The breaches split into shared-imports-a-family and every other kind."""
    shared = [b for b in breaches if "shared module imports family" in b]
    return shared, [b for b in breaches if b not in shared]


@pytest.mark.parametrize("path", MODULES, ids=lambda p: str(p.relative_to(PACKAGE)))
def test_module_imports_only_what_its_layer_allows(path: Path) -> None:
    me = _module_name(path)
    family, other = _family_imports(_breaches(path, me))
    if me in STILL_IMPORTS_A_FAMILY:
        assert family, f"{me} imports no family any more: take it off STILL_IMPORTS_A_FAMILY"
        family = []
    breaches = family + other
    assert not breaches, f"{path.relative_to(ROOT)} breaks docs/architecture.md:\n" + \
        "\n".join(breaches)


def test_only_the_datasette_plugin_imports_datasette() -> None:
    """Datasette is an optional extra (``serve``): one package imports it, and only
    ``priffe serve`` or Datasette itself loads that package."""
    plugin = PACKAGE / "cli" / "datasette_plugin"
    found = [f"{path.relative_to(ROOT)}:{line} imports {mod}" for path in MODULES
             if plugin not in path.parents
             for line, mod in _imports(path, _module_name(path))
             if mod.split(".")[0] == "datasette"]
    assert found == []
    assert any(mod.startswith("datasette") for _, mod in
               _imports(plugin / "__init__.py", "priffe_records.cli.datasette_plugin"))


def test_the_family_registry_imports_no_family() -> None:
    """rules/family.py names the built-in families by where they live, and imports none."""
    path = PACKAGE / "rules" / "family.py"
    assert not _breaches(path, "priffe_records.rules.family")
    assert not [m for _, m in _imports(path, "priffe_records.rules.family")
                if _family(m) is not None]


def test_every_entry_point_names_words_the_reader_may_load() -> None:
    """Each family's entry point names its vocabulary in a module that imports only game/,
    format/ and its own family's modules that do the same: the reader loads it
    (format/vocabulary.py) and so runs no engine."""
    from importlib.metadata import entry_points

    found = list(entry_points(group="priffe_records"))
    assert found
    for ep in found:
        if not ep.module.startswith("priffe_records."):
            continue  # another package's family (a test's): its own layers
        assert _words_layers(ep.module) <= {"game", "format"}, ep.module


def _words_layers(module: str) -> set[str]:
    """The layers ``module`` imports, through the modules of its own family it imports
    (Préférence's words read its bids, a data module of its folder)."""
    own, out = module.rpartition(".")[0], set()
    for _, m in _imports(ROOT / (module.replace(".", "/") + ".py"), module):
        if m.startswith(own + "."):
            out |= _words_layers(m)
        elif m.startswith("priffe_records"):
            out.add(_layer(m))
    return out


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


def test_the_checker_sees_a_shared_module_import_a_family(tmp_path: Path) -> None:
    """A planted breach: shared code of any layer importing a family, lazily or not."""
    fake = tmp_path / "fake.py"
    fake.write_text("from priffe_records.rules import family, priffe\n"
                    "def f():\n    from priffe_records.rules.preference.books import PrefBooks\n"
                    "from ..rules.priffe import options\n", "utf-8")
    for me in ("priffe_records.rules.partie", "priffe_records.archive.fake",
               "priffe_records.cli.fake"):
        found = sorted(_breaches(fake, me))
        assert found == ["line 1: shared module imports family priffe "
                         "(priffe_records.rules.priffe)",
                         "line 3: shared module imports family preference "
                         "(priffe_records.rules.preference.books)",
                         "line 4: shared module imports family priffe "
                         "(priffe_records.rules.priffe)"], me


# ---------------------------------------------------------------- public names between modules

# The allow-list, one module: the adapter may use Lark's private names. Every reach past
# Lark's public API sits there, so a Lark upgrade that moves them is one file to change.
MAY_USE_LARK_INTERNALS = {"priffe_records.format.lark_adapter"}
MODULE_NAMES = {_module_name(p) for p in MODULES}


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _crossings(path: Path, me: str) -> list[str]:
    """Each private name this module takes from another: ``from x import _y``, and
    ``x._y`` where ``x`` names an imported module of the package or of Lark."""
    tree = ast.parse(path.read_text("utf-8"), str(path))
    modules: dict[str, str] = {}  # local name -> module it names
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            mod = _absolute(node, me, path)
            for a in node.names:
                if f"{mod}.{a.name}" in MODULE_NAMES or mod == "lark":
                    modules[a.asname or a.name] = f"{mod}.{a.name}"
                if _private(a.name) and mod != me:
                    found.append(f"line {node.lineno}: from {mod} import {a.name}")
        elif isinstance(node, ast.Import):
            for a in node.names:
                modules[a.asname or a.name.split(".")[0]] = (a.asname and a.name) or \
                    a.name.split(".")[0]
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr) and \
                isinstance(node.value, ast.Name) and node.value.id in modules:
            mod = modules[node.value.id]
            if mod != me and mod.split(".")[0] in ("priffe_records", "lark"):
                found.append(f"line {node.lineno}: {node.value.id}.{node.attr} ({mod})")
    return found


@pytest.mark.parametrize("path", [p for p in MODULES
                                  if _module_name(p) not in MAY_USE_LARK_INTERNALS],
                         ids=lambda p: str(p.relative_to(PACKAGE)))
def test_no_private_name_crosses_a_module(path: Path) -> None:
    """A name another module needs is public, with a docstring; Lark's private names are
    used in the adapter only."""
    found = _crossings(path, _module_name(path))
    assert not found, f"{path.relative_to(ROOT)} uses another module's private names:\n" + \
        "\n".join(found)


def test_the_private_name_check_sees_each_kind(tmp_path: Path) -> None:
    fake = tmp_path / "fake.py"
    fake.write_text("from priffe_records.format.reader import _x, loads\n"
                    "from priffe_records.rules.priffe import play\n"
                    "from lark import lexer\n"
                    "import os\n"
                    "from . import _y\n"
                    "play._clean(os._exit, lexer._create_unless, loads._a, play.public)\n",
                    "utf-8")
    assert _crossings(fake, "priffe_records.format.fake") == [
        "line 1: from priffe_records.format.reader import _x",
        "line 5: from priffe_records.format import _y",
        "line 6: play._clean (priffe_records.rules.priffe.play)",
        "line 6: lexer._create_unless (lark.lexer)"]


# ---------------------------------------------------------------- docs/architecture.md

_TABLE_ROW = re.compile(r"^\| `([^`]+\.py)` \|", re.MULTILINE)


def _documented(page: str) -> set[str]:
    """The modules the page's "Every module" table names, as paths under priffe_records/."""
    section = page.split("## Every module", 1)[1].split("\n## ", 1)[0]
    return set(_TABLE_ROW.findall(section))


def test_the_architecture_page_names_every_module_and_no_other() -> None:
    page = (ROOT / "docs" / "architecture.md").read_text("utf-8")
    on_disk = {str(p.relative_to(PACKAGE)) for p in MODULES}
    named = _documented(page)
    assert sorted(on_disk - named) == [], "modules docs/architecture.md does not name"
    assert sorted(named - on_disk) == [], "modules docs/architecture.md names that are gone"


def test_the_module_table_reader_reads_rows() -> None:
    page = "## Every module\n\n| `a/b.py` | one |\n| `c.py` | two |\n\n## Next\n| `d.py` | x |\n"
    assert _documented(page) == {"a/b.py", "c.py"}


def _protocols(tree: ast.Module) -> set[str]:
    return {node.name for node in tree.body if isinstance(node, ast.ClassDef)
            and any("Protocol" in ast.unparse(base) for base in node.bases)}


def test_shared_code_asks_the_family_hooks_and_never_probes_them() -> None:
    """A family's objects are asked through the hooks of rules/family.py, each with its
    default, never tested for what they can do: no protocol there is runtime-checkable,
    and no module outside the families asks ``isinstance(x, <one of those protocols>)``
    (books that stream used to be found by ``isinstance(books, StreamingBooks)``)."""
    family = PACKAGE / "rules" / "family.py"
    tree = ast.parse(family.read_text("utf-8"))
    protocols = _protocols(tree)
    assert {"PartieBooks", "Table", "Rules"} <= protocols
    assert "runtime_checkable" not in family.read_text("utf-8")
    families = {p.parent for p in (PACKAGE / "rules").glob("*/family.py")}
    probes = []
    for path in PACKAGE.rglob("*.py"):
        if any(parent in families for parent in path.parents):
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if (isinstance(node, ast.Call) and ast.unparse(node.func) == "isinstance"
                    and len(node.args) == 2
                    and set(re.findall(r"\w+", ast.unparse(node.args[1]))) & protocols):
                probes.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert probes == []


def test_no_shared_module_names_a_games_own_views() -> None:
    """A game's views (its ``archive_views`` hook) are asked for by the hooks, never named
    by shared code: ``priffe stats`` and the Datasette metadata take a game's standings
    from its ``standings`` hook (they named ``preference_standings`` before)."""
    from priffe_records.rules.family import families

    views = {name for fam in families() for name in fam.archive_views()}
    assert "preference_standings" in views
    homes = {p.parent for p in (PACKAGE / "rules").glob("*/family.py")}
    named = [f"{path.relative_to(ROOT)}: {view}" for path in PACKAGE.rglob("*.py")
             if not any(parent in homes for parent in path.parents)
             for view in views if view in path.read_text("utf-8")]
    assert named == []
