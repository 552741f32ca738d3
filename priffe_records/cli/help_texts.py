"""The CLI's help texts in the player's language.

Click keeps help texts as plain strings on the command objects (docstrings and
``help=``), so they are not marked with ``msg``: :func:`extract` is a Babel
extractor (configured in ``babel.cfg``) that collects them from the command
tree, and :func:`translate_help` swaps them in place, once the language is
known, before click prints a help page.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

import click

from priffe_records.cli.lazy import loaded_subcommands
from priffe_records.game.language import translate

# Every object whose help we changed, with its English text: the message id.
_ENGLISH: dict[int, tuple[object, str, str]] = {}
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
        key = id(obj) * 4 + ("help", "epilog", "short_help").index(attr)
        if key not in _ENGLISH:
            _ENGLISH[key] = (obj, attr, getattr(obj, attr))
        setattr(obj, attr, _translated(_ENGLISH[key][2], lang))


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: dict[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor: the English help texts of the ``priffe`` command tree."""
    from priffe_records.cli import cli

    list(cli.commands.values())  # import every command, so that every text is seen
    seen: set[str] = set()
    for obj, attr in _texts(cli):
        text = _ENGLISH.get(id(obj) * 4 + ("help", "epilog", "short_help").index(attr),
                            (None, None, getattr(obj, attr)))[2]
        if isinstance(text, str) and text.startswith(_EXAMPLES):
            text = "Examples:"
        if isinstance(text, str) and text not in seen:
            seen.add(text)
            yield 1, "N_", text, [f"priffe {getattr(obj, 'name', '')} {attr}"]
