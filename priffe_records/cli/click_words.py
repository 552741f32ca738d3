"""Click's own words ("Usage:", "Options", "Error: …", "Missing argument") in the player's
language.

Click marks its texts with the standard ``gettext`` functions, bound as ``_`` and
``ngettext`` in each of its modules, so they read the process-wide ``messages``
domain and the environment's locale, not ``--lang``. :func:`install` rebinds those
names to functions that read our catalog in the active language, and fall back to
click's own lookup in English, so a program that shares the process sees no change
outside a Swedish ``priffe`` run. :func:`extract` is the Babel extractor (``babel.cfg``)
that puts click's texts into our ``.po``, from the installed click's sources: a click
upgrade with new words makes the catalog test fail until they are translated.
"""

from __future__ import annotations

import gettext
import importlib
from collections.abc import Iterator
from pathlib import Path
from typing import IO, Any

import click

from priffe_records.cli.lazy import loaded_subcommands
from priffe_records.game.language import (
    DEFAULT_LANGUAGE,
    Message,
    catalog,
    language,
    msg,
    msg_p,
)

# Modules of click that bind `_` / `ngettext` at import (Windows-only _winconsole left out).
_MODULES = ("core", "decorators", "exceptions", "formatting", "parser", "shell_completion",
            "termui", "types", "utils", "_termui_impl")
# Texts only a programmer sees (a broken command definition), or that we never show.
_DEVELOPER = frozenset({
    "d", "Windows error: {error}", "Unknown standard stream '{name}'", "Unknown color {colour!r}",
    "Name '{name}' defined twice",
    "Boolean option {decl!r} cannot use the same flag for true/false.",
    "Could not determine name for option with declarations {decls!r}",
    "No options defined but a name was passed ({name}). Did you mean to declare an argument "
    "instead? Did you mean to pass '--{name}'?",
    "Arguments take exactly one parameter declaration, got {length}: {decls}.",
    "Value must be an iterable.",
    "DeprecationWarning: The command {name!r} is deprecated.{extra_message}",
    "DeprecationWarning: The {param_type} {name!r} is deprecated.{extra_message}",
    "{editor}: Editing failed", "{editor}: Editing failed: {e}",
})


def _texts_in(lang: str) -> Any:
    """English is click's own lookup (the process's locale, as outside priffe); else ours."""
    return gettext if lang == DEFAULT_LANGUAGE else catalog(lang)


def _gettext(message: str) -> str:
    return str(_texts_in(language()).gettext(message))


def _ngettext(singular: str, plural: str, n: int) -> str:
    return str(_texts_in(language()).ngettext(singular, plural, n))


def install() -> None:
    """Make click's texts follow the active language (idempotent)."""
    for name in _MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = _gettext  # type: ignore[attr-defined]
        if hasattr(module, "ngettext"):
            module.ngettext = _ngettext  # type: ignore[attr-defined]


def texts() -> Iterator[tuple[int, Any, Any, str]]:
    """(line, funcname, message, module file) of every user-facing text in click."""
    from babel.messages.extract import extract_python

    root = Path(click.__file__).parent
    seen: set[object] = set()
    for name in _MODULES:
        path = root / f"{name}.py"
        with path.open("rb") as f:
            for lineno, funcname, message, _comments in extract_python(
                    f, {"_": None, "ngettext": (1, 2)}, [], {}):
                if message is None:
                    continue  # a computed text, _(variable)
                if isinstance(message, tuple):
                    message = (message[0], message[1])
                key = message if isinstance(message, str) else message[0]
                if not key or key in _DEVELOPER or message in seen:
                    continue
                seen.add(message)
                yield lineno, funcname, message, path.name


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: Any) -> Iterator[Any]:
    """Babel extractor: this file's own ``msg_p`` words, then click's texts, as our keywords
    ``msg`` / ``msg_n`` would mark them."""
    from babel.messages.extract import extract_python

    yield from extract_python(fileobj, keywords, comment_tags, options)
    for lineno, funcname, message, filename in texts():
        yield lineno, "msg_n" if funcname == "ngettext" else "msg", message, [
            f"click/{filename}"]


# Placeholders in usage lines and option lists ("FILES...", "--db FILE"), by their English
# word: what an argument's name or an option's type shows when no metavar is given.
METAVARS: dict[str, Message] = {
    "OPTIONS": msg_p("metavar", "OPTIONS"), "COMMAND": msg_p("metavar", "COMMAND"),
    "ARGS": msg_p("metavar", "ARGS"), "FILES": msg_p("metavar", "FILES"),
    "FILE": msg_p("metavar", "FILE"), "PATHS": msg_p("metavar", "PATHS"),
    "STATEMENT": msg_p("metavar", "STATEMENT"), "TEXT": msg_p("metavar", "TEXT"),
    "INTEGER": msg_p("metavar", "INTEGER"), "INTEGER RANGE": msg_p("metavar", "INTEGER"),
    "FLOAT RANGE": msg_p("metavar", "NUMBER"), "FLOAT": msg_p("metavar", "NUMBER"),
    "STYLE": msg_p("metavar", "STYLE"), "NAME": msg_p("metavar", "NAME"),
    "YYYY.MM.DD": msg_p("metavar", "YYYY.MM.DD"), "OUT.html": msg_p("metavar", "OUT.html"),
    "DATE": msg_p("metavar", "DATE"),
    "PATH": msg_p("metavar", "PATH"), "DIRECTORY": msg_p("metavar", "DIRECTORY"),
    "N": msg_p("metavar", "N"), "R": msg_p("metavar", "R"), "DB": msg_p("metavar", "DB"),
    "ARCHIVE": msg_p("metavar", "ARCHIVE"), "SECONDS": msg_p("metavar", "SECONDS"),
}
# Words click translates as _(variable), which no extractor sees: "[required]" in --help.
COMPUTED_WORDS: tuple[Message, ...] = (msg("required"),)
# What click calls a number in "'x' is not a valid integer."
NUMBER_TYPES: dict[str, Message] = {
    "integer": msg_p("number type", "integer"), "integer range": msg_p("number type", "integer"),
    "float": msg_p("number type", "number"), "float range": msg_p("number type", "number"),
}
# The English state of what we changed: (object, attribute) -> value.
_ENGLISH: dict[tuple[int, str], tuple[object, str, object]] = {}


def _set(obj: object, attr: str, value: object) -> None:
    key = (id(obj), attr)
    if key not in _ENGLISH:
        _ENGLISH[key] = (obj, attr, getattr(obj, attr))
    setattr(obj, attr, value)


def _english(obj: object, attr: str) -> Any:
    return _ENGLISH.get((id(obj), attr), (obj, attr, getattr(obj, attr)))[2]


def _word(english: str, lang: str) -> str:
    """``english`` in ``lang``; English help stays exactly as click writes it."""
    word = METAVARS.get(english) if lang != DEFAULT_LANGUAGE else None
    return word.render(lang) if word is not None else english


def metavar_words(command: click.Command) -> Iterator[str]:
    """The English placeholder words below ``command`` that :func:`translate_types` renames."""
    for param in command.params:
        if isinstance(param, click.Argument) and not isinstance(param.type, click.Choice):
            yield str(_english(param, "metavar") or param.name or "").upper().strip("[]")
        elif _named_option(param):
            yield _english(param, "metavar") or _type_word(param.type)
    if isinstance(command, click.Group):
        for sub in command.commands.values():
            yield from metavar_words(sub)


def _named_option(param: click.Parameter) -> bool:
    """An option whose value placeholder is a word (not a flag, not a list of choices)."""
    if not isinstance(param, click.Option) or param.is_flag or param.count:
        return False
    return bool(_english(param, "metavar")) or not isinstance(param.type, click.Choice)


def _type_word(t: click.ParamType[Any]) -> str:
    return str(_english(t, "name")).upper()


def translate_types(command: click.Command, lang: str) -> None:
    """Name the placeholders and path parameters below ``command`` in ``lang``.

    Click fixed a ``click.Path``'s name ("file") when the command was defined and quotes it
    in errors ("File 'x' is a directory."); usage lines show ``[OPTIONS]`` and ``FILES...``.
    English puts back exactly what click had.
    """
    help_option = getattr(command, "_help_option", None)  # click caches it, with its text
    if help_option is not None:
        help_option.help = _texts_in(lang).gettext("Show this message and exit.")
    if lang == DEFAULT_LANGUAGE:
        for obj, attr, value in _ENGLISH.values():
            setattr(obj, attr, value)
        for sub in loaded_subcommands(command):
            translate_types(sub, lang)
        return
    _set(command, "options_metavar", f"[{_word('OPTIONS', lang)}]")
    if isinstance(command, click.Group) and not command.chain:
        _set(command, "subcommand_metavar", f"{_word('COMMAND', lang)} [{_word('ARGS', lang)}]...")
    for param in command.params:
        if isinstance(param.type, click.Path):
            t = param.type
            english = "file" if t.file_okay and not t.dir_okay else \
                "directory" if t.dir_okay and not t.file_okay else "path"
            # click named it through gettext in the language active when the command was
            # loaded, so the recorded value may already be Swedish: English is the flags' word.
            _ENGLISH[(id(t), "name")] = (t, "name", english)
            t.name = catalog(lang).gettext(english)
        elif str(_english(param.type, "name")) in NUMBER_TYPES:
            _set(param.type, "name", NUMBER_TYPES[str(_english(param.type, "name"))].render(lang))
        if isinstance(param, click.Argument) and not isinstance(param.type, click.Choice):
            explicit = _english(param, "metavar")
            if explicit:
                bare = explicit.strip("[]")
                _set(param, "metavar", explicit.replace(bare, _word(bare, lang)))
            else:
                var = _word(str(param.name or "").upper(), lang)
                var = var if param.required else f"[{var}]"
                _set(param, "metavar", var + ("..." if param.nargs != 1 else ""))
        elif _named_option(param):
            explicit = _english(param, "metavar")
            word = _word(explicit or _type_word(param.type), lang)
            _set(param, "metavar", word + ("..." if param.nargs != 1 else ""))
    for sub in loaded_subcommands(command):
        translate_types(sub, lang)
