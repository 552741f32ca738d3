"""The ``priffe`` command: a thin click layer over the library.

Each command group lives in its own module and adds itself through
``COMMANDS``; this module only assembles them and owns the entry point.
"""

from __future__ import annotations

import click

from priffe_records import __version__
from priffe_records.cli import adding, archive, format, making, replay, rules, serve
from priffe_records.cli.common import LanguageGroup, add_lang_option
from priffe_records.cli.examples import add_examples
from priffe_records.cli.runtime import tune_gc_for_batch


@click.group(cls=LanguageGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="priffe")
def cli() -> None:
    """Read, check, archive and replay records of the card game Priffe (PPN files)."""
    tune_gc_for_batch()


for _module in (format, rules, archive, replay, making, adding, serve):
    for _command in _module.COMMANDS:
        cli.add_command(_command)
add_examples(cli)
add_lang_option(cli)  # `priffe --lang sv validate …` and `priffe validate --lang sv …`


def main() -> None:
    cli(prog_name="priffe")
