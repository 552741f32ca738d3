"""Start-up: ``priffe --version``, ``--help`` and tab completion import no engine.

Each probe runs in a fresh interpreter (this test process has imported everything
already) and reports ``sys.modules`` after the command.
"""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import click
import pytest
from click.testing import CliRunner

from priffe_records.cli import HOMES, cli
from priffe_records.cli.help_texts import translate_help
from priffe_records.cli.lazy import _help_in_source

# What a command's module pulls in; none of it may load before a command runs.
HEAVY = ("sqlite_utils", "rich", "lark", "tabulate", "numpy", "priffe_records.rules",
         "priffe_records.archive", "priffe_records.replay", "priffe_records.format.parser",
         "priffe_records.dd")



@pytest.fixture(autouse=True)
def _english_after() -> Iterator[None]:
    """Help texts are swapped in place: put the English back for the tests that follow."""
    yield
    CliRunner().invoke(cli, ["--lang", "en", "--help"])


_PROBE = """
import json, sys
from priffe_records.cli import main
try:
    main()
except SystemExit:
    pass
print(json.dumps(sorted(sys.modules)), file=sys.stderr)
"""


def _modules_after(*args: str, env: dict[str, str] | None = None) -> set[str]:
    """The modules loaded once ``priffe ARGS`` has run, in a fresh process."""
    proc = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True,
                          text=True, env={**os.environ, **(env or {})}, check=False)
    return set(json.loads(proc.stderr.strip().splitlines()[-1]))


def _heavy(modules: set[str]) -> list[str]:
    return sorted(m for m in modules if any(m == h or m.startswith(h + ".") for h in HEAVY))


@pytest.mark.parametrize("args", [("--version",), ("--help",), ("--lang", "sv", "--help"),
                                  ("-h",)])
def test_version_and_help_import_no_engine(args: tuple[str, ...]) -> None:
    assert _heavy(_modules_after(*args)) == []


@pytest.mark.parametrize("shell", ["bash_complete", "zsh_complete", "fish_complete"])
def test_completing_a_command_name_imports_no_engine(shell: str) -> None:
    modules = _modules_after(env={"_PRIFFE_COMPLETE": shell, "COMP_WORDS": "priffe va",
                                  "COMP_CWORD": "1"})
    assert _heavy(modules) == []


def test_a_command_imports_its_own_module_only() -> None:
    modules = _modules_after("fmt", "--help")
    assert "priffe_records.cli.format" in modules
    assert "priffe_records.cli.archive" not in modules
    assert "sqlite_utils" not in modules


def test_the_import_itself_is_cheap() -> None:
    proc = subprocess.run([sys.executable, "-c", "import json, sys, priffe_records; "
                           "priffe_records.__version__; print(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True)
    assert _heavy(set(json.loads(proc.stdout))) == []


def test_the_public_names_still_load_on_use() -> None:
    import priffe_records

    for name in priffe_records.__all__:
        assert getattr(priffe_records, name) is not None, name
    assert set(priffe_records.__all__) <= set(dir(priffe_records))
    with pytest.raises(AttributeError, match="no_such_name"):
        priffe_records.no_such_name  # noqa: B018


def test_homes_name_every_command_of_every_module() -> None:
    """HOMES and the modules' COMMANDS lists agree both ways: no command is lost."""
    cli_dir = Path(__file__).parent.parent / "priffe_records" / "cli"
    declared: dict[str, str] = {}
    for path in cli_dir.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) \
                    and node.func.attr == "command" and node.args \
                    and isinstance(node.args[0], ast.Constant):
                declared[str(node.args[0].value)] = f"priffe_records.cli.{path.stem}"
    assert declared == HOMES


@pytest.mark.parametrize("name", sorted(HOMES))
def test_the_help_read_from_source_is_the_command_s_own(name: str) -> None:
    command = cli.commands[name]
    translate_help(command, "en")  # an earlier test in this process may have shown it in sv
    assert _help_in_source(HOMES[name], name) == command.help


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_top_help_lists_every_command_as_the_loaded_commands_would(
        lang: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The listing read from source is click's own listing of the imported commands."""
    lazy = CliRunner().invoke(cli, ["--lang", lang, "--help"], terminal_width=100)
    assert lazy.exit_code == 0, lazy.output
    list(cli.commands.values())  # import every command
    monkeypatch.setattr(type(cli), "format_commands", click.Group.format_commands)
    eager = CliRunner().invoke(cli, ["--lang", lang, "--help"], terminal_width=100)
    assert lazy.output == eager.output
    assert all(f"\n  {name} " in lazy.output for name in HOMES)


@pytest.mark.parametrize("lang", ["en", "sv"])
@pytest.mark.parametrize("name", sorted(HOMES))
def test_every_command_help_works(name: str, lang: str) -> None:
    result = CliRunner().invoke(cli, ["--lang", lang, name, "--help"])
    assert result.exit_code == 0, result.output
    assert f"priffe {name}" in result.output


def test_importing_a_file_stored_unchanged_reads_nothing_of_it(tmp_path: Path) -> None:
    """A file whose bytes were imported before costs its hash and one query: neither the
    reader nor the rules engine (nor rich, without a terminal) is loaded for it."""
    from archive_support import partie_file

    ppn, db = tmp_path / "lund.ppn", str(tmp_path / "a.db")
    partie_file(ppn, 21)
    first = _modules_after("import", "--db", db, str(ppn))
    assert "priffe_records.format.reader" in first and "priffe_records.archive.engine" in first
    again = _modules_after("import", "--db", db, str(ppn))
    assert "sqlite_utils" in again  # the archive was opened and asked
    assert not {"priffe_records.format.reader", "priffe_records.archive.engine",
                "priffe_records.archive.classify", "priffe_records.rules.partie",
                "priffe_records.rules.family", "priffe_records.rules.priffe.words",
                "rich.progress"} & again  # no family, not even its words
    # nothing read: no parser (the group used to build it for every command), nothing
    # printed as a table, and sqlite-utils' optional numpy declined
    assert _loaded(again, "lark", "priffe_records.format.parser", "numpy", "pandas",
                   "tabulate", "rich") == []


def _loaded(modules: set[str], *names: str) -> list[str]:
    """Which of ``names`` (packages with their submodules) are among ``modules``."""
    return sorted(m for m in modules if any(m == n or m.startswith(n + ".") for n in names))


FirstRun = tuple[dict[str, str], Path, set[str]]


@pytest.fixture(scope="module")
def first_validate(tmp_path_factory: pytest.TempPathFactory) -> FirstRun:
    """A cache folder of its own (the environment that names it), filled by a first
    ``validate`` of one generated deal, the deal's file, and the modules that run loaded:
    the tokenizer's tables, made from Lark's in most of a second, are made once for both
    tests below."""
    from priffe_records import write
    from priffe_records.rules.priffe.generate import iter_records

    tmp = tmp_path_factory.mktemp("startup-cache")
    one = tmp / "one.ppn"
    write(iter_records(1, 1), one)
    cache = {"XDG_CACHE_HOME": str(tmp / "cache")}
    return cache, one, _modules_after("validate", str(one), env=cache)


def test_validating_one_deal_loads_the_reader_and_no_archive_or_table(
        first_validate: FirstRun) -> None:
    """A secretary's ``validate`` reads and prints a summary line: neither SQLite, numpy,
    tabulate, the archive nor the replay is loaded for it; Lark only the first time,
    to make the tokenizer's tables, which later runs read from the cache."""
    cache, one, cold = first_validate
    assert "priffe_records.format.reader" in cold and "lark" in cold
    warm = _modules_after("validate", str(one), env=cache)
    assert "priffe_records.format.reader" in warm
    assert _loaded(warm, "lark", "numpy", "pandas", "sqlite_utils", "tabulate",
                   "priffe_records.archive", "priffe_records.replay") == []


def test_a_syntax_error_is_explained_by_lark_with_a_warm_cache(first_validate: FirstRun,
                                                              tmp_path: Path) -> None:
    """Valid text needs no Lark; a record the tokenizer rejects is explained by Lark."""
    good, bad = tmp_path / "good.ppn", tmp_path / "bad.ppn"
    good.write_text('[Event "Klubbkväll"]\n[Contract "Hjärter"]\n', encoding="utf-8")
    bad.write_text('[Event "Klubbkväll"]\n[contract "Hjärter"]\n', encoding="utf-8")
    cache, _, _ = first_validate
    assert "lark" not in _modules_after("validate", str(good), env=cache)
    assert "lark" in _modules_after("validate", str(bad), env=cache)


@pytest.mark.parametrize("name", ["import", "query", "stats"])
def test_an_archive_command_s_help_loads_no_numpy_or_parser(name: str) -> None:
    modules = _modules_after(name, "--help")
    assert "sqlite_utils" in modules  # the command's module was imported
    assert _loaded(modules, "numpy", "pandas", "lark", "tabulate", "rich") == []


_SQLITE_UTILS_ALONE = """
import json, sys
from priffe_records.cli.runtime import decline_numpy_to_sqlite_utils
decline_numpy_to_sqlite_utils()
import sqlite_utils
before = "numpy" in sys.modules
import numpy
print(json.dumps([before, numpy.__name__]))
"""


def test_numpy_is_declined_to_sqlite_utils_only() -> None:
    """sqlite-utils loads without numpy; any other importer still gets it."""
    pytest.importorskip("numpy")
    proc = subprocess.run([sys.executable, "-c", _SQLITE_UTILS_ALONE], capture_output=True,
                          text=True, check=True)
    assert json.loads(proc.stdout) == [False, "numpy"]


def test_numpy_already_loaded_is_left_to_sqlite_utils() -> None:
    """A host that loaded numpy first keeps sqlite-utils' numpy column types."""
    pytest.importorskip("numpy")
    code = ("import numpy, sqlite_utils.db as d\n"
            "from priffe_records.cli.runtime import decline_numpy_to_sqlite_utils\n"
            "decline_numpy_to_sqlite_utils()\n"
            "import sys; print(d.np is numpy, len(sys.meta_path))")
    with_numpy = subprocess.run([sys.executable, "-c", code], capture_output=True,
                                text=True, check=True).stdout.split()
    plain = subprocess.run([sys.executable, "-c", "import sys; print(len(sys.meta_path))"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert with_numpy == ["True", plain[0]]


def test_table_styles_are_tabulate_s_read_on_use() -> None:
    import tabulate

    from priffe_records.cli.output import TABLE_STYLES

    style = TABLE_STYLES
    assert style.choices == tuple(sorted(tabulate.tabulate_formats))
    assert style.convert("github", None, None) == "github"
    with pytest.raises(click.BadParameter, match="nope"):
        style.convert("nope", None, None)
