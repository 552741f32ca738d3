"""What every command shares: the language, turning library errors into one clear line and
an exit code."""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, TypeVar

import click

from priffe_records.cli import click_words
from priffe_records.cli.help_texts import translate_help
from priffe_records.cli.lazy import loaded_subcommands
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import (
    LANGUAGES,
    Message,
    language,
    msg,
    os_reason,
    resolve_language,
    use_language,
)

click_words.install()  # click's own words ("Usage:", "Error:") follow --lang too

EXIT_OK = 0
EXIT_FINDINGS = 1  # the input was read; it has errors (or would change, for --check)
EXIT_UNUSABLE = 2  # the input could not be used at all


class UserError(click.ClickException):
    """An error the user can fix; printed as ``priffe: message`` without a traceback."""

    def __init__(self, message: Message | str, exit_code: int = EXIT_UNUSABLE) -> None:
        super().__init__(str(message))
        self.exit_code = exit_code  # type: ignore[misc]

    def show(self, file: object = None) -> None:
        click.echo(f"priffe: {self.format_message()}", err=True)


FORCE_OPTION = click.option("--force", is_flag=True, help="With -o: replace an existing file.")
JOBS_OPTION = click.option(
    "-j", "--jobs", type=click.IntRange(min=1), default=None,
    help="Processes to check a file with (default: the number of CPUs for a file over 2 MB, "
         "else 1; 1 when the load average is at least twice the CPUs). The output is the same "
         "for any number.")


def refuse_existing(output: str, force: bool) -> None:
    """Stop before writing over a file the user has (unless --force): an output path that
    names the wrong file would otherwise lose it with no way back."""
    if output != "-" and os.path.lexists(output) and not force:
        raise UserError(msg("{file}: the file exists; nothing written (use --force to replace it)",
                            file=output))


@contextmanager
def user_errors() -> Iterator[None]:
    """Report library and OS errors as :class:`UserError` instead of a traceback."""
    try:
        yield
    except PriffeError as e:
        raise UserError(str(e)) from None
    except FileNotFoundError as e:
        raise UserError(msg("{file}: no such file", file=e.filename)) from None
    except IsADirectoryError as e:
        raise UserError(msg("{file}: is a folder", file=e.filename)) from None
    except PermissionError as e:
        raise UserError(msg("{file}: permission denied", file=e.filename)) from None
    except OSError as e:
        name = getattr(e, "filename", None) or ""
        raise UserError(msg("{file}: {reason}", file=name, reason=os_reason(e))) from None
    except KeyboardInterrupt:
        click.echo("priffe: " + str(msg("interrupted")), err=True)
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


@contextmanager
def pipe_closed_is_fine() -> Iterator[None]:
    """``priffe parse … | head``: the reader has what it wanted; end quietly with 0."""
    try:
        yield
    except BrokenPipeError:
        quiet_stdout()
        sys.exit(EXIT_OK)


F = TypeVar("F", bound=Callable[..., Any])


def _preset(ctx: click.Context, param: click.Parameter, value: str) -> object:
    from priffe_records.rules.family import default_family  # the engine: not for --version

    return default_family().presets[value]


QUIET_HELP = "Errors only: no warnings or unverifiable rules, in the report and in the summary."
VERBOSE_HELP = "Also list each check that passed."


def quiet_verbose_options(quiet: str = QUIET_HELP, verbose: str | None = VERBOSE_HELP
                          ) -> Callable[[F], F]:
    """``-q/--quiet`` and (unless ``verbose`` is None) ``-v/--verbose``, the same on every
    command: quiet shows errors only, verbose adds each check that passed (or, for ``fmt``,
    each file that was already canonical). The command receives ``quiet`` (and
    ``verbose``); giving both is a usage error."""
    def decorate(f: F) -> F:
        @functools.wraps(f)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if kwargs.get("quiet") and kwargs.get("verbose"):
                raise click.UsageError(str(msg("Choose either --quiet or --verbose.")))
            return f(*args, **kwargs)

        decorated: Callable[..., Any] = wrapper
        if verbose is not None:
            decorated = click.option("-v", "--verbose", is_flag=True, help=verbose)(decorated)
        decorated = click.option("-q", "--quiet", is_flag=True, help=quiet)(decorated)
        return decorated  # type: ignore[return-value]

    return decorate


def preset_option(f: F) -> F:
    """``--preset``, the same on every command: the command receives ``options``, the
    default family's rule variants (Priffe's ``Options``) for records without a Scoring tag.

    The choices are the default family's presets, so a new preset needs no CLI change.
    """
    from priffe_records.rules.family import default_family

    return click.option("--preset", "options",
                        type=click.Choice(sorted(default_family().presets)),
                        default="sv", show_default=True, callback=_preset,
                        help="Rules for records without a Scoring tag (RULES.md Presets).")(f)


class LazyChoice(click.Choice[str]):
    """A choice whose list is asked for when the option is used or shown: a plain
    ``click.Choice`` takes it when the decorator runs, which would load tabulate or the
    families for every command, even one that never uses the option. ``word`` reads a
    value in other spellings (``Ö`` for ``E``) into the word the command gets."""

    def __init__(self, listed: Callable[[], Sequence[str]],
                 word: Callable[[str], str | None] | None = None,
                 case_sensitive: bool = True) -> None:
        self._listed, self._word = listed, word
        super().__init__((), case_sensitive=case_sensitive)

    @property
    def choices(self) -> tuple[str, ...]:
        return tuple(self._listed())

    @choices.setter
    def choices(self, _: object) -> None:
        """click's ``__init__`` sets the list; the property asks for it."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None
                ) -> Any:
        found = self._word(value) if self._word and isinstance(value, str) else None
        return found if found is not None else super().convert(value, param, ctx)


def _game_words() -> tuple[str, ...]:
    from priffe_records.rules.family import game_words

    return game_words()


# ``--game``: every registered family's word (``priffe``, ``preference``…).
GAME_CHOICE = LazyChoice(_game_words, case_sensitive=False)


_LANG_SET = "priffe_language_set"
_CHOSEN: ContextVar[str | None] = ContextVar("priffe_cli_language", default=None)


def _lang(ctx: click.Context, param: click.Parameter, value: str | None) -> str:
    """Pick the language before anything else is parsed: ``--lang``, else ``PRIFFE_LANG``,
    else the locale, else English. Given on the group and the command, the command wins."""
    root = ctx.find_root()
    if value is None and root.meta.get(_LANG_SET):
        return str(root.meta[_LANG_SET])
    chosen = _CHOSEN.get()
    lang = resolve_language(value) if value is not None or chosen is None else chosen
    # Scoped to this invocation: a library caller in the same process keeps its language.
    ctx.with_resource(use_language(lang))
    root.meta[_LANG_SET] = lang
    translate_help(root.command, lang)
    click_words.translate_types(root.command, lang)
    return lang


def lang_given(ctx: click.Context) -> str | None:
    """The language ``--lang`` named on the command line (this command or a group above it),
    else ``None``: ``serve`` then follows each browser instead."""
    node: click.Context | None = ctx
    while node is not None:
        if node.get_parameter_source("lang") is click.core.ParameterSource.COMMANDLINE:
            return language()
        node = node.parent
    return None


def add_lang_option(command: click.Command) -> None:
    """Give ``command`` (and every subcommand of a group) the ``--lang`` option."""
    if not any(p.name == "lang" for p in command.params):
        command.params.insert(0, click.Option(
            ["--lang"], type=click.Choice(LANGUAGES), default=None, is_eager=True,
            expose_value=False, callback=_lang,
            help="Language of messages and output: sv or en (default: PRIFFE_LANG, else the "
                 "locale, else en)."))
    for sub in loaded_subcommands(command):
        add_lang_option(sub)


class LanguageGroup(click.Group):
    """The root group: picks the language before click parses anything, so even an eager
    ``--help`` (given before ``--lang``, or with only the locale to go by) is translated."""

    def main(self, args: Any = None, *a: Any, **kw: Any) -> Any:
        given = list(sys.argv[1:] if args is None else args)
        lang = resolve_language(_lang_in(given))
        translate_help(self, lang)
        click_words.translate_types(self, lang)
        token = _CHOSEN.set(lang)
        try:
            with use_language(lang):
                return super().main(given, *a, **kw)
        finally:
            _CHOSEN.reset(token)


def _lang_in(args: list[str]) -> str | None:
    """The value of the last ``--lang X`` / ``--lang=X`` in ``args`` that names a language."""
    found = None
    for i, arg in enumerate(args):
        value = args[i + 1] if arg == "--lang" and i + 1 < len(args) else \
            arg.partition("=")[2] if arg.startswith("--lang=") else None
        if value in LANGUAGES:
            found = value
    return found
