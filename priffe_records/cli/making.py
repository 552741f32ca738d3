"""``priffe new``, ``priffe deal`` and ``priffe completion``: writing records, and the shell.

The records come from :mod:`priffe_records.rules.blank`; this module only
parses options and writes the text (to stdout, or atomically to a new file).
"""

from __future__ import annotations

import datetime
import random
import sys

import click
from click.shell_completion import get_completion_class

from priffe_records.cli.common import (
    EXIT_OK,
    FORCE_OPTION,
    GAME_CHOICE,
    UserError,
    refuse_existing,
    user_errors,
)
from priffe_records.cli.seat_options import SEAT_CHOICE
from priffe_records.format.atomic import write_text_atomically
from priffe_records.format.record import Record
from priffe_records.format.values import exact_date
from priffe_records.format.writer import dumps
from priffe_records.game.language import msg, msg_n
from priffe_records.game.words import seat_letter, seat_name
from priffe_records.rules.blank import random_deals, seats, skeleton
from priffe_records.rules.family import game_words

GAME_OPTION = click.option("--game", type=GAME_CHOICE, default=game_words()[0],
                           show_default=True,
                           help="Priffe (four players) or Austrian Préférence (three: N, E, S).")


def emit_records(records: list[Record], output: str | None, force: bool) -> None:
    """The records as a PPN file on stdout, or in a new file (an existing one only with --force)."""
    text = dumps(records)
    if output is None or output == "-":
        sys.stdout.write(text)
        return
    refuse_existing(output, force)
    with user_errors():
        write_text_atomically(output, text)
    click.echo(str(msg_n("wrote {file} ({n} record)", "wrote {file} ({n} records)", len(records),
                         file=output)), err=True)


@click.command("new")
@click.option("-p", "--player", "players", multiple=True, metavar="NAME",
              help="A player, in seat order N, E, S, W (Préférence: N, E, S); repeat for each. "
                   "Name all of them, or none: then every name is '?', to write in later.")
@click.option("--event", default="?", help="The Event tag (the club evening, the tournament).")
@click.option("--site", default="?", help="The Site tag (where it is played).")
@click.option("--date", default=None, metavar="YYYY.MM.DD", help="The Date tag (default: today).")
@click.option("--deals", type=click.IntRange(min=1, max=500), default=8, show_default=True,
              help="How many deals to lay out.")
@click.option("--dealer", type=SEAT_CHOICE,
              default="N", show_default=True, help="The dealer of the first deal.")
@GAME_OPTION
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write the skeleton to this new file instead of standard output.")
@FORCE_OPTION
def new_command(players: tuple[str, ...], event: str, site: str, date: str | None, deals: int,
                dealer: str, game: str, output: str | None, force: bool) -> None:
    """Write a partie skeleton to fill in by hand: who, where, when, and the dealer of each deal.

    Every deal gets the Event, Site, Date and player tags, the dealer passing
    to the left (R3; in Préférence N → E → S), and empty Contract, Declarer
    and Result. It reads back as a partie not played yet: 'priffe validate'
    finds no errors, only that there is nothing to score. When a rubber ends
    and the players change seats (R24), correct the names from there on.
    """
    table = seats(game)
    if len(players) > len(table):
        raise UserError(msg("{game} has {count} players; {given} were given", game=game,
                            count=len(table), given=len(players)))
    if 0 < len(players) < len(table):  # not a silent [West "?"]: a forgotten -p
        missing = ", ".join(str(seat_name(s)) for s in table[len(players):])
        raise UserError(msg_n(
            "{game} has {count} players, but {n} was named: nobody sits at {missing}. Name "
            "every player with -p in seat order, or none to write the names in later",
            "{game} has {count} players, but {n} were named: nobody sits at {missing}. Name "
            "every player with -p in seat order, or none to write the names in later",
            len(players), game=game, count=len(table), missing=missing))
    first = dealer.upper()
    if first not in {s.value for s in table}:
        raise UserError(msg("in {game} the dealer is one of {seats}", game=game,
                            seats=", ".join(str(seat_letter(s)) for s in table)))
    when = datetime.date.today().strftime("%Y.%m.%d") if date is None else exact_date(date)
    if when is None:
        raise UserError(msg("--date {value!r} is not a day of the calendar: write YYYY.MM.DD "
                            "(2026.10.17), '?' for an unknown digit (2026.??.??)", value=date))
    emit_records(skeleton(game, deals=deals, dealer=first, players=players, event=event,
                          site=site, date=when), output, force)
    sys.exit(EXIT_OK)


@click.command("deal")
@click.argument("count", metavar="[N]", type=click.IntRange(min=1, max=100_000), default=1)
@click.option("--seed", type=int, help="The same seed gives the same deals (default: a random "
                                       "seed, shown on standard error).")
@click.option("--play", is_flag=True,
              help="Whole deals: auction, play and the correct Result, Score and totals.")
@GAME_OPTION
@click.option("-o", "--output", type=click.Path(dir_okay=False, allow_dash=True),
              help="Write to this new file instead of standard output.")
@FORCE_OPTION
def deal_command(count: int, seed: int | None, play: bool, game: str, output: str | None,
                 force: bool) -> None:
    """Print N random legal deals: the hands only, or with --play whole deals with true claims.

    For practice at the table and for tests: every deal --play writes
    validates without findings.
    """
    if seed is None:
        seed = random.SystemRandom().randrange(2**32)
        click.echo(str(msg("seed {seed} (repeat with --seed {seed})", seed=seed)), err=True)
    emit_records(random_deals(game, count, seed=seed, played=play), output, force)
    sys.exit(EXIT_OK)


SHELLS = ("bash", "zsh", "fish")


@click.command("completion")
@click.argument("shell", type=click.Choice(SHELLS))
@click.pass_context
def completion_command(ctx: click.Context, shell: str) -> None:
    """Print the tab-completion script for SHELL (click's own), to load from the shell's setup."""
    root = ctx.find_root().command
    cls = get_completion_class(shell)
    if cls is None:  # pragma: no cover - click ships all three
        raise UserError(msg("no completion for {shell}", shell=shell))
    click.echo(cls(root, {}, "priffe", "_PRIFFE_COMPLETE").source())


COMMANDS: list[click.Command] = [new_command, deal_command, completion_command]
