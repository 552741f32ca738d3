"""The Babel extractor of the CLI's help texts (``babel.cfg``: ``click_help``).

It needs the whole command tree, so it lives apart from ``help_texts``, which the
tree itself imports.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import IO, Any

from priffe_records.cli import cli
from priffe_records.cli.help_texts import english_texts


def extract(fileobj: IO[bytes], keywords: Any, comment_tags: Any,
            options: dict[str, Any]) -> Iterator[tuple[int, str, str, list[str]]]:
    """Babel extractor: the English help texts of the ``priffe`` command tree."""
    list(cli.commands.values())  # import every command, so that every text is seen
    seen: set[str] = set()
    for obj, attr, text in english_texts(cli):
        if text not in seen:
            seen.add(text)
            yield 1, "N_", text, [f"priffe {getattr(obj, 'name', '')} {attr}"]
