"""The ``priffe`` command: a thin click layer over the library.

Each command group lives in its own module and adds itself through
``COMMANDS``; this module only names them (:data:`HOMES`) and owns the entry
point. A command's module is imported when the command runs, so ``--version``,
``--help`` and tab completion start without the parser, the engine or SQLite.
"""

from __future__ import annotations

import click

from priffe_records import __version__
from priffe_records.cli import click_words
from priffe_records.cli.common import LanguageGroup, add_lang_option
from priffe_records.cli.examples import epilog
from priffe_records.cli.help_texts import translate_help
from priffe_records.cli.lazy import LazyGroup
from priffe_records.game.language import language

# Every command and the module whose COMMANDS holds it (tests/test_startup.py checks both ways).
HOMES: dict[str, str] = {
    name: f"priffe_records.cli.{module}" for module, names in (
        ("format", ("fmt", "parse")),
        ("rules", ("validate", "score")),
        ("archive", ("import", "query", "sql", "stats", "export", "metadata", "remove")),
        ("analyse", ("analyse",)),
        ("replay", ("replay",)),
        ("making", ("new", "deal", "completion")),
        ("adding", ("add", "sheet-import")),
        ("serve", ("serve",)),
    ) for name in names
}


def _prepare(name: str, command: click.Command) -> None:
    """Dress a command as it loads: examples, ``--lang``, texts in the active language."""
    command.epilog = epilog(name) or command.epilog
    add_lang_option(command)
    translate_help(command, language())
    click_words.translate_types(command, language())


class PriffeGroup(LanguageGroup, LazyGroup):
    """The root group: the language first (LanguageGroup), commands on demand (LazyGroup)."""


@click.group(cls=PriffeGroup, homes=HOMES, prepare=_prepare,
             context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--version", is_flag=True, expose_value=False, is_eager=True,
              callback=lambda ctx, _param, value: _version(ctx, value),
              help="Show the version and which double-dummy core is installed, and exit.")
def cli() -> None:
    """Read, check, archive and replay records of the card game Priffe (PPN files)."""
    import sys

    from priffe_records.rules.gcscope import collector_tuned  # not for --help

    # A command that reads has imported the parser by now: its tokenizer is loaded first,
    # so that the scope moves it out of the collector's sight with the rest.
    parser = sys.modules.get("priffe_records.format.parser")
    if parser is not None:
        parser.get_scanner()
    click.get_current_context().with_resource(collector_tuned())


def _version(ctx: click.Context, value: bool) -> None:
    if not value or ctx.resilient_parsing:
        return
    from priffe_records.cli.version import version_line

    click.echo(str(version_line(__version__)))
    ctx.exit()


add_lang_option(cli)  # `priffe --lang sv validate …` and `priffe validate --lang sv …`


def main() -> None:
    import sys

    from priffe_records.cli.runtime import decline_numpy_to_sqlite_utils
    from priffe_records.game.errors import PriffeError

    decline_numpy_to_sqlite_utils()  # before a command's module imports sqlite-utils
    try:
        cli(prog_name="priffe")
    except PriffeError as e:  # raised outside a command's own user_errors (a broken install)
        click.echo(f"priffe: {e}", err=True)
        sys.exit(2)
