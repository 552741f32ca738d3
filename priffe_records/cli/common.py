"""What every command shares: turning library errors into one clear line and an exit code."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

import click

from priffe_records.format.errors import PriffeError
from priffe_records.rules.priffe.options import PRESETS, Options

EXIT_OK = 0
EXIT_FINDINGS = 1  # the input was read; it has errors (or would change, for --check)
EXIT_UNUSABLE = 2  # the input could not be used at all


class UserError(click.ClickException):
    """An error the user can fix; printed as ``priffe: message`` without a traceback."""

    def __init__(self, message: str, exit_code: int = EXIT_UNUSABLE) -> None:
        super().__init__(message)
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: object = None) -> None:
        click.echo(f"priffe: {self.format_message()}", err=True)


@contextmanager
def user_errors() -> Iterator[None]:
    """Report library and OS errors as :class:`UserError` instead of a traceback."""
    try:
        yield
    except PriffeError as e:
        raise UserError(str(e)) from None
    except FileNotFoundError as e:
        raise UserError(f"{e.filename}: no such file") from None
    except IsADirectoryError as e:
        raise UserError(f"{e.filename}: is a directory") from None
    except PermissionError as e:
        raise UserError(f"{e.filename}: permission denied") from None
    except OSError as e:
        name = getattr(e, "filename", None) or ""
        raise UserError(f"{name}: {e.strerror or e}") from None
    except KeyboardInterrupt:
        click.echo("priffe: interrupted", err=True)
        sys.exit(130)


def quiet_stdout() -> None:
    """Point stdout at /dev/null after a closed pipe (`priffe … | head`).

    The reader has what it wanted; without this the interpreter's final
    flush fails again and prints an error on exit.
    """
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):
        pass  # not a real file (a test runner's capture): nothing to flush


F = TypeVar("F", bound=Callable[..., Any])


def _preset(ctx: click.Context, param: click.Parameter, value: str) -> Options:
    return PRESETS[value]


def preset_option(f: F) -> F:
    """``--preset``, the same on every command: the command receives ``options: Options``.

    The choices are the keys of :data:`PRESETS`, so a new preset needs no CLI change.
    """
    return click.option("--preset", "options", type=click.Choice(sorted(PRESETS)),
                        default="sv", show_default=True, callback=_preset,
                        help="Rules for records without a Scoring tag (RULES.md Presets).")(f)
