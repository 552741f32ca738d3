"""Every use of Lark beyond its public API, in one place.

The tokenizer (:mod:`priffe_records.format.scanner`) compiles its scanners from the
parse table and the terminals Lark built, with Lark's own helpers so both choose
the same terminal; the error recovery (:mod:`priffe_records.format.parser`) moves
the lexer past a bad line. Lark publishes none of these: when an upgrade of Lark
moves them, this module is the one to change (the conformance and recovery
tests fail first). ``tests/test_architecture.py`` allows private names here only.
"""

from __future__ import annotations

import re
from typing import Any

from lark import Lark
from lark import lexer as lark_lexer
from lark.exceptions import UnexpectedInput
from lark.parsers.lalr_analysis import Shift

__all__ = ["Shift", "create_unless", "error_line", "parse_table",
           "regexp_has_newline", "skip_rest_of_line", "unless_words"]


def parse_table(parser: Lark) -> Any:
    """The LALR parse table of an LALR parser: ``states``, ``start_states``, ``end_states``."""
    return parser.parser.parser._parse_table


def regexp_has_newline(regexp: str) -> bool:
    """Whether a terminal's pattern can match a line end (Lark counts lines by it)."""
    found: bool = lark_lexer._regexp_has_newline(regexp)
    return found


def create_unless(terminals: list[Any]) -> tuple[list[Any], dict[str, Any]]:
    """The terminals as Lark's basic lexer keeps them, and the retyping callbacks of the
    string terminals that a pattern terminal would otherwise swallow ("unless")."""
    build: Any = lark_lexer._create_unless
    kept, callbacks = build(terminals, 0, re, False)
    return kept, callbacks


def unless_words(callbacks: dict[str, Any]) -> dict[str, list[tuple[str, str]]]:
    """The keywords each retyping callback of :func:`create_unless` gives their own type:
    per terminal, (type, pattern) in Lark's order; the first whole match wins."""
    return {name: [(t.name, t.pattern.to_regexp()) for t in callback.scanner.terminals]
            for name, callback in callbacks.items()}


def _line_state(exc: UnexpectedInput) -> Any:
    state: Any = exc.interactive_parser.lexer_thread.state
    return state


def error_line(exc: UnexpectedInput) -> int:
    """The line the lexer stands on when ``on_error`` is called with ``exc``."""
    line: int = _line_state(exc).line_ctr.line
    return line


def skip_rest_of_line(exc: UnexpectedInput) -> None:
    """Move the lexer past the rest of its line, so parsing resumes on the next one."""
    state = _line_state(exc)
    counter = state.line_ctr
    source: str = getattr(state.text, "text", state.text)  # lark 1.3: TextSlice
    end = source.find("\n", counter.char_pos)
    end = len(source) if end < 0 else end + 1
    if end > counter.char_pos:
        counter.feed(source[counter.char_pos:end])
