"""The CLI's help texts in the player's language.

Click keeps help texts as plain strings on the command objects (docstrings and
``help=``), so they are not marked with ``msg``: :func:`english_texts` lists them (for the
Babel extractor in ``cli/help_catalog.py``), and :func:`translate_help` swaps them in
place, once the language is known, before click prints a help page.
"""

from __future__ import annotations

from collections.abc import Iterator

import click

from priffe_records.cli.lazy import loaded_subcommands
from priffe_records.game.language import translate

# Every object whose help we changed, with its English text: the message id.
_ENGLISH: dict[tuple[int, str], tuple[object, str, str]] = {}
# cli/examples.py epilogs: only the heading is words; the example lines are commands.
_EXAMPLES = "\b\nExamples:\n"


def _translated(text: str, lang: str) -> str:
    if text.startswith(_EXAMPLES):
        return f"\b\n{translate('Examples:', lang)}\n{text[len(_EXAMPLES):]}"
    return translate(text, lang)


def _texts(command: click.Command) -> Iterator[tuple[object, str]]:
    """(object, attribute) of every help text below ``command``."""
    for attr in ("help", "epilog", "short_help"):
        if getattr(command, attr, None):
            yield command, attr
    for param in command.params:
        if getattr(param, "help", None):
            yield param, "help"
    for sub in loaded_subcommands(command):
        yield from _texts(sub)


def translate_help(command: click.Command, lang: str) -> None:
    """Show ``command``'s help texts (and its subcommands') in ``lang``."""
    for obj, attr in _texts(command):
        key = (id(obj), attr)
        if key not in _ENGLISH:
            _ENGLISH[key] = (obj, attr, getattr(obj, attr))
        setattr(obj, attr, _translated(_ENGLISH[key][2], lang))


def english_texts(command: click.Command) -> Iterator[tuple[object, str, str]]:
    """(object, attribute, English text) of every help text below ``command``, whatever
    language it shows now; an epilog of examples is only its heading ``Examples:``."""
    for obj, attr in _texts(command):
        text = _ENGLISH.get((id(obj), attr), (None, None, getattr(obj, attr)))[2]
        if isinstance(text, str) and text.startswith(_EXAMPLES):
            text = "Examples:"
        if isinstance(text, str):
            yield obj, attr, text
