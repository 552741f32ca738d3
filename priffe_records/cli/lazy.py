"""A click group that imports a command's module only when that command is used.

click's documented ``LazyGroup`` pattern, shaped for ``priffe``: the group
knows each command's name and module up front; ``--version``, ``--help``
and a completion of the command name read the one-line help from the
module's source (its docstring) instead of importing the module, which
would pull in the parser, the engine, SQLite and rich.
"""

from __future__ import annotations

import ast
import importlib
from collections.abc import Callable, Iterator, MutableMapping
from contextlib import contextmanager
from functools import cache
from importlib.util import find_spec
from pathlib import Path
from typing import Any

import click

from priffe_records.game.language import language, translate


class LazyCommands(MutableMapping[str, click.Command]):
    """``group.commands`` whose values import on first access; the names are known at once.

    ``prepare`` runs once on each command as it loads (the language option, the
    examples, the help texts in the active language).
    """

    def __init__(self, homes: dict[str, str], prepare: Callable[[str, click.Command], None]
                 ) -> None:
        self._homes = homes
        self._prepare = prepare
        self._loaded: dict[str, click.Command] = {}

    def __getitem__(self, name: str) -> click.Command:
        if name not in self._loaded:
            if name not in self._homes:
                raise KeyError(name)
            module = importlib.import_module(self._homes[name])
            command = next(c for c in module.COMMANDS if c.name == name)
            self._prepare(name, command)
            self._loaded[name] = command
        return self._loaded[name]

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._loaded[name] = command

    def __delitem__(self, name: str) -> None:
        self._homes.pop(name, None)
        del self._loaded[name]

    def __iter__(self) -> Iterator[str]:
        yield from self._homes
        yield from (name for name in self._loaded if name not in self._homes)

    def __len__(self) -> int:
        return len(set(self._homes) | set(self._loaded))

    def loaded(self) -> list[click.Command]:
        """The commands imported so far: the only ones whose texts need translating."""
        return list(self._loaded.values())

    def home(self, name: str) -> str | None:
        return None if name in self._loaded else self._homes.get(name)


class LazyGroup(click.Group):
    """A group over :class:`LazyCommands`: listing and completing names import nothing."""

    commands: LazyCommands

    def __init__(self, *args: Any, homes: dict[str, str],
                 prepare: Callable[[str, click.Command], None], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = LazyCommands(homes, prepare)
        self._previewing = False

    @contextmanager
    def _previews(self) -> Iterator[None]:
        self._previewing = True
        try:
            yield
        finally:
            self._previewing = False

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        home = self.commands.home(cmd_name)
        if self._previewing and home is not None:
            return click.Command(cmd_name, help=translate(_help_in_source(home, cmd_name),
                                                          language()))
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        with self._previews():
            super().format_commands(ctx, formatter)

    def shell_complete(self, ctx: click.Context, incomplete: str
                       ) -> list[click.shell_completion.CompletionItem]:
        with self._previews():
            return super().shell_complete(ctx, incomplete)


@cache
def _help_in_source(module: str, name: str) -> str:
    """The help of ``@click.command(name)`` in ``module``, read without running the module:
    its ``help=`` if given, else the function's docstring as written (click keeps it
    raw: the raw text is the message id of its translation)."""
    spec = find_spec(module)
    assert spec is not None and spec.origin is not None, module
    tree = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and (given := _declares(node, name)) is not None:
            return given or ast.get_docstring(node, clean=False) or ""
    raise LookupError(f"{module} declares no command {name!r}")


def _declares(node: ast.FunctionDef, name: str) -> str | None:
    """``help=`` of the function's ``@click.command(name)`` ('' if none), or None."""
    for deco in node.decorator_list:
        if (isinstance(deco, ast.Call) and isinstance(deco.func, ast.Attribute)
                and deco.func.attr == "command" and deco.args
                and isinstance(deco.args[0], ast.Constant) and deco.args[0].value == name):
            for kw in deco.keywords:
                if kw.arg == "help" and isinstance(kw.value, ast.Constant):
                    return str(kw.value.value)
            return ""
    return None


def loaded_subcommands(command: click.Command) -> list[click.Command]:
    """The subcommands of ``command`` already imported: what a pass over texts may touch
    without loading the rest (each lazy command is dressed as it loads)."""
    if not isinstance(command, click.Group):
        return []
    subs = command.commands
    return subs.loaded() if isinstance(subs, LazyCommands) else list(subs.values())
