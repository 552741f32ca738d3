"""A fast path for records in export shape, derived from the grammar Lark builds.

Lark (LALR, contextual lexer) spends most of its time per token on machinery a
record in export shape does not need. This module reads the same grammar Lark
reads: the terminals' patterns, their priorities and order, and the LALR parse
table, and compiles from them what the contextual lexer and the parser would do
on the tokens seen in export-shape records:

* one scanner per lexer context, the state's terminals (plus the ignored white
  space) joined in Lark's own order, so the same terminal wins at every position;
* the parser's state machine over those tokens, found by running the parse
  table's shifts and reductions on every terminal from every reachable stack,
  so a token is taken only where Lark's parser takes it and the record must end
  where the parser accepts its end;
* the blocks of the tree (``auction``/``play``/``plain``) by the terminals the
  grammar starts those rules with.

Anything it does not model gives up (``None``) and Lark parses the record as
before: no terminal fits (a syntax error), a terminal outside the model (``[`` of
a tag pair written over several lines), a state the machine does not know, a
record whose end the parser would not accept. Errors and recovery stay Lark's.

``PRIFFE_FAST_LEX=0`` turns the fast path off (the equality tests run both).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

from lark import Lark

Item = Any  # a comment token or (kind, tokens), as parse_chunk returns them

# How many stacks the parser's state machine may reach before we stop trusting
# that it is finite (it is: the grammar's repetitions are left-recursive).
_MAX_STACKS = 2000
# Terminals whose tokens this module hands out; LBRACKET starts a tag pair split
# over lines, whose anonymous tokens ("Auction", "]") Lark filters: left to Lark.
_MODELLED_OUT = frozenset({"LBRACKET"})


_BACKREF = re.compile(r"\\[1-9]|\(\?P=")
# "(?:\\.|[^…\\…])*": an escape or a character of a class that excludes the backslash.
_CLASS_ITEM = r"(?:[^\]\\]|\\.)*"
_ESCAPED_RUN = re.compile(
    r"\(\?:\\\\\.\|(\[\^" + _CLASS_ITEM + r"\\\\" + _CLASS_ITEM + r"\])\)\*(?![*+?{])")


def faster(regexp: str) -> str:
    """The same pattern, quicker for Python's ``re``: the same matches, tried in the same order.

    Groups that capture become groups that do not (nothing reads them: no back
    references, checked), and ``(?:\\.|[^…])*`` over a class without the backslash
    (a string's body) is unrolled to ``[^…]*(?:\\.[^…]*)*``: the two branches start
    with different characters, so both forms take the same iterations and give them
    back in the same order, but the class runs in one step instead of a branch per
    character.
    """
    if _BACKREF.search(regexp):
        return regexp
    out: list[str] = []
    i, n, in_class = 0, len(regexp), False
    while i < n:
        c = regexp[i]
        if c == "\\":
            out.append(regexp[i:i + 2])
            i += 2
            continue
        if in_class:
            in_class = c != "]"
            out.append(c)
            i += 1
            continue
        if c == "[":
            j = i + 1
            if j < n and regexp[j] == "^":
                j += 1
            if j < n and regexp[j] == "]":
                j += 1
            out.append(regexp[i:j])
            i, in_class = j, True
            continue
        out.append("(?:" if c == "(" and regexp[i + 1:i + 2] != "?" else c)
        i += 1
    plain = "".join(out)
    return _ESCAPED_RUN.sub(lambda m: f"{m.group(1)}*(?:\\\\.{m.group(1)}*)*", plain)


class FastToken:
    """What the reader reads of a Lark token: type, value, line and column (1-based)."""

    __slots__ = ("column", "line", "type", "value")

    def __init__(self, type_: str, value: str, line: int, column: int) -> None:
        self.type = type_
        self.value = value
        self.line = line
        self.column = column

    def __repr__(self) -> str:
        return f"FastToken({self.type!r}, {self.value!r}, {self.line}, {self.column})"


class FastPath:
    """The compiled fast path: scanners per parser state and the state transitions."""

    def __init__(self, parser: Lark) -> None:
        from priffe_records.format.lark_adapter import (
            Shift,
            create_unless,
            parse_table,
            regexp_has_newline,
        )

        # Lark's own helpers, so the scanners are built as BasicLexer builds its own.
        table = parse_table(parser)
        terminals = {t.name: t for t in parser.terminals}
        ignore = frozenset(parser.lexer_conf.ignore)
        self.newline_types = frozenset(
            name for name, t in terminals.items() if regexp_has_newline(t.pattern.to_regexp()))
        self.ignore = ignore
        states: dict[int, dict[str, tuple[Any, Any]]] = table.states
        start = table.start_states["start"]
        end_state = table.end_states["start"]

        def step(stack: tuple[int, ...], term: str) -> tuple[int, ...] | None:
            """The stack after the parser takes ``term`` (its reductions, then the shift),
            or None where it errs; for ``$END``, the stack where it accepts (Lark's is_end)."""
            work = list(stack)
            for _ in range(100):
                action = states[work[-1]].get(term)
                if action is None:
                    return None
                kind, arg = action
                if kind is Shift:
                    if term == "$END":
                        return None
                    work.append(arg)
                    return tuple(work)
                size = len(arg.expansion)
                if size:
                    del work[-size:]
                if not work:
                    return None
                goto = states[work[-1]].get(arg.origin.name)
                if goto is None or goto[0] is not Shift:
                    return None
                work.append(goto[1])
                if term == "$END" and work[-1] == end_state:
                    return tuple(work)
            return None

        # Explore every stack reachable by terminals (finite: checked).
        ids: dict[tuple[int, ...], int] = {(start,): 0}
        order: list[tuple[int, ...]] = [(start,)]
        moves: list[dict[str, int]] = []
        i = 0
        while i < len(order):
            stack = order[i]
            i += 1
            out: dict[str, int] = {}
            for term in states[stack[-1]]:
                if term not in terminals or term in _MODELLED_OUT:
                    continue
                after = step(stack, term)
                if after is None:
                    continue
                if after not in ids:
                    if len(order) >= _MAX_STACKS:
                        raise ValueError("the parser's state machine is not small")
                    ids[after] = len(order)
                    order.append(after)
                out[term] = ids[after]
            moves.append(out)
        self.moves = moves
        self.accepts_end = [step(stack, "$END") is not None for stack in order]

        # One scanner per lexer context: the terminals of the parser state (the
        # contextual lexer's set), ignored white space added, in BasicLexer's order.
        scanners: dict[frozenset[str], tuple[Callable[..., Any], frozenset[str]]] = {}
        self.scan: list[Callable[..., Any]] = []
        self.give_up: list[frozenset[str]] = []
        for stack in order:
            accepts = frozenset(t for t in states[stack[-1]] if t in terminals or t == "$END")
            if accepts not in scanners:
                names = (set(accepts) | set(ignore)) & set(terminals)
                chosen = [terminals[n] for n in names]
                chosen.sort(key=lambda x: (-x.priority, -x.pattern.max_width,
                                           -len(x.pattern.value), x.name))
                kept, callbacks = create_unless(chosen)
                # The name marks the end of its body: a group left open over a body's
                # repetitions makes Python's re save its marks at every turn (~8× slower).
                pattern = "|".join(f"(?:{faster(t.pattern.to_regexp())})(?P<{t.name}>)"
                                   for t in kept)
                # A terminal an "unless" callback may retype is left to Lark.
                scanners[accepts] = (re.compile(pattern).match,
                                     frozenset(callbacks) | _MODELLED_OUT)
            scan, give_up = scanners[accepts]
            self.scan.append(scan)
            self.give_up.append(give_up)

        # Which terminal opens which block: the first symbol of the rules
        # auction, play and plain (after Lark expanded the grammar's EBNF).
        self.opens: dict[str, str] = {}
        for rule in parser.rules:
            kind = rule.origin.name
            if kind in ("auction", "play", "plain") and rule.expansion:
                first = rule.expansion[0].name
                if first in _MODELLED_OUT:
                    continue
                if self.opens.setdefault(first, kind) != kind:
                    raise ValueError(f"{first} opens two kinds of block")
        # A block's tokens are those up to the next block's opener: true when no
        # opener may also stand inside a block (checked against the rules).
        for rule in parser.rules:
            for sym in rule.expansion[1:]:
                if sym.name in self.opens or (sym.name in _MODELLED_OUT and sym.is_term):
                    raise ValueError(f"{sym.name} stands inside a rule")

        # Per state, what each terminal the scanner may return does: (next state, the
        # block it opens, "" for none; None: white space to skip); absent: give up.
        self.steps: list[dict[str, tuple[int, str | None]]] = []
        for number, move in enumerate(moves):
            acts: dict[str, tuple[int, str | None]] = {
                term: (to, self.opens.get(term, "")) for term, to in move.items()
                if term not in self.give_up[number] and term not in ignore}
            acts.update({term: (number, None) for term in ignore})
            self.steps.append(acts)

    def parse(self, text: str) -> list[Item] | None:
        """The items Lark's parse of ``text`` gives, or None when this is not certain."""
        steps, scan, newline_types = self.steps, self.scan, self.newline_types
        state = 0
        pos, n = 0, len(text)
        line, line_start = 1, 0
        items: list[Item] = []
        block: list[FastToken] | None = None
        new = FastToken.__new__
        while pos < n:
            m = scan[state](text, pos)
            if m is None:
                return None
            typ = m.lastgroup
            act = steps[state].get(typ)
            if act is None:
                return None
            end = m.end()
            nxt, kind = act
            if kind is not None:
                tok = new(FastToken)  # no __init__ call: ~9 tokens a record
                tok.type = typ
                tok.value = text[pos:end]
                tok.line = line
                tok.column = pos - line_start + 1
                if kind:
                    block = [tok]
                    items.append((kind, block))
                elif block is None:
                    items.append(tok)
                else:
                    block.append(tok)
                state = nxt
            if typ in newline_types:
                count = text.count("\n", pos, end)
                if count:
                    line += count
                    line_start = text.rindex("\n", pos, end) + 1
            pos = end
        if not self.accepts_end[state]:
            return None
        return items


@functools.cache
def machine(parser: Lark) -> FastPath | None:
    """The fast path for this parser, or None when the grammar is outside its model."""
    try:
        return FastPath(parser)
    except (ImportError, AttributeError, KeyError, TypeError, ValueError, re.error):
        return None
