"""The one tokenizer of PPN text, derived from the grammar Lark builds.

Lark (LALR, contextual lexer) spends most of its time per token on machinery the
reader does not need. This module reads the same grammar Lark reads: the terminals'
patterns, their priorities and order, and the LALR parse table, and compiles from
them what the contextual lexer and the parser do:

* one scanner per lexer context, the state's terminals (plus the ignored white
  space) joined in Lark's own order, so the same terminal wins at every position;
  a terminal Lark retypes when its text is a keyword (``Auction`` after a ``[``
  that opens a tag pair written over several lines) is retyped by Lark's own callback;
* the parser's state machine over those tokens, found by running the parse
  table's shifts and reductions on every terminal from every reachable stack,
  so a token is taken only where Lark's parser takes it and the record must end
  where the parser accepts its end;
* the blocks of the tree (``auction``/``play``/``plain``) by the terminals the
  grammar starts those rules with (by the second one where the first, that ``[``,
  opens more than one kind), and the anonymous tokens Lark's tree leaves out
  (``"Auction"``, ``"]"``) left out the same way.

Every text Lark's parser takes, :meth:`Scanner.parse` takes to the same items; where
Lark fails it gives None, and Lark explains the error (format/parser.py).
``tests/test_scanner_conformance.py`` compares the two on generated and fuzzed text.

What the compilation derives from Lark is plain data (:func:`tables`): patterns,
retyping keywords and state moves. It is kept as JSON in the user's cache folder,
keyed by the grammar's hash, Lark's version and this module's source, so valid text
reads without importing Lark at all (:func:`cached_scanner`); Lark runs only to make
the tables once and to explain a syntax error.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from collections.abc import Callable
from importlib import util
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from lark import Lark

Item = Any  # a comment token or (kind, tokens), as parse_chunk returns them

# How many stacks the parser's state machine may reach before we stop trusting
# that it is finite (it is: the grammar's repetitions are left-recursive).
_MAX_STACKS = 2000
_KINDS = frozenset({"auction", "play", "plain"})
# What a token does besides joining the open block, when it does more (rare: a tag pair
# written over several lines): open a block whose kind the next token decides; decide
# it ("=kind"), the token kept, or ("-kind") left out; be left out of the tree.
_UNDECIDED, _DROP = "?", "-"


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


class ScanToken:
    """What the reader reads of a token: type, value, line and column (1-based), as Lark's."""

    __slots__ = ("column", "line", "type", "value")

    def __init__(self, type_: str, value: str, line: int, column: int) -> None:
        self.type = type_
        self.value = value
        self.line = line
        self.column = column

    def __repr__(self) -> str:
        return f"ScanToken({self.type!r}, {self.value!r}, {self.line}, {self.column})"


# A parser state's action on a terminal: (next state, what the token does: None for white
# space; "" joins the open block; a kind opens one; _UNDECIDED, _DROP, "=kind", "-kind").
Action = tuple[int, str | None]


Tables = dict[str, Any]  # what :func:`tables` derives: JSON-ready lists, dicts and strings


class Scanner:
    """The compiled tokenizer: scanners per parser state and the state transitions."""

    def __init__(self, data: Tables) -> None:
        self.newline_types = frozenset(data["newline_types"])
        self.ignore = frozenset(data["ignore"])
        self.accepts_end: list[bool] = [bool(b) for b in data["accepts_end"]]
        matchers = [re.compile(p).match for p in data["patterns"]]
        self.scan: list[Callable[..., Any]] = [matchers[i] for i in data["scan"]]
        keywords = [{typ: re.compile("|".join(f"(?P<{n}>{r})" for n, r in words)).fullmatch
                     for typ, words in table.items()} for table in data["keywords"]]
        self.retype: list[dict[str, Callable[..., Any]]] = [keywords[i] for i in data["retype"]]
        self.retyped: list[dict[str, Action]] = [
            {t: (int(a[0]), a[1]) for t, a in acts.items()} for acts in data["retyped"]]
        self.steps: list[dict[str, Action]] = [
            {t: a for t, a in acts.items() if t not in self.retype[number]}
            for number, acts in enumerate(self.retyped)]

    def parse(self, text: str) -> list[Item] | None:
        """The items Lark's parse of ``text`` gives, or None where Lark's parse fails."""
        steps, scan, newline_types = self.steps, self.scan, self.newline_types
        state = 0
        pos, n = 0, len(text)
        line, line_start = 1, 0
        items: list[Item] = []
        block: list[ScanToken] | None = None
        new = ScanToken.__new__
        while pos < n:
            m = scan[state](text, pos)
            if m is None:
                return None
            typ = m.lastgroup
            end = m.end()
            act = steps[state].get(typ)
            if act is None:
                typ = self.retype_of(state, typ, text[pos:end])
                act = self.retyped[state].get(typ) if typ else None
                if act is None:
                    return None
            nxt, kind = act
            if kind is not None:
                tok = new(ScanToken)  # no __init__ call: ~9 tokens a record
                tok.type = typ
                tok.value = text[pos:end]
                tok.line = line
                tok.column = pos - line_start + 1
                if not kind:
                    if block is None:
                        items.append(tok)
                    else:
                        block.append(tok)
                elif kind in _KINDS:
                    block = [tok]
                    items.append((kind, block))
                else:
                    block = _rare(kind, tok, items, block)
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

    def retype_of(self, state: int, typ: str | None, value: str) -> str | None:
        """The type Lark gives a token of terminal ``typ`` in ``state`` (its "unless"
        callback retypes a keyword), or None when no callback applies."""
        keyword = self.retype[state].get(typ or "")
        if keyword is None:
            return None
        m = keyword(value)
        return m.lastgroup if m else typ


def tables(parser: Lark) -> Tables:
    """What the tokenizer needs of Lark's analysis of the grammar, as plain data.

    Lark's own helpers choose the terminals as its BasicLexer does, so both take the
    same terminal at every position; nothing of Lark is kept, so the result can be
    cached as JSON and a later process reads text without importing Lark.
    """
    from priffe_records.format.lark_adapter import (
        Shift,
        create_unless,
        parse_table,
        regexp_has_newline,
        unless_words,
    )

    # Lark's own helpers, so the scanners are built as BasicLexer builds its own.
    table = parse_table(parser)
    terminals = {t.name: t for t in parser.terminals}
    ignore = frozenset(parser.lexer_conf.ignore)
    newline_types = sorted(
        name for name, t in terminals.items() if regexp_has_newline(t.pattern.to_regexp()))
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

    opens, decides, dropped = _blocks(parser)

    # Explore every stack reachable by terminals (finite: checked), and which were
    # reached by an opener that leaves the block's kind to the next token.
    ids: dict[tuple[int, ...], int] = {(start,): 0}
    order: list[tuple[int, ...]] = [(start,)]
    moves: list[dict[str, int]] = []
    undecided: set[int] = set()
    i = 0
    while i < len(order):
        stack = order[i]
        i += 1
        out: dict[str, int] = {}
        for term in states[stack[-1]]:
            if term not in terminals:
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
            if opens.get(term) == _UNDECIDED:
                undecided.add(ids[after])
        moves.append(out)
    accepts_end = [step(stack, "$END") is not None for stack in order]

    # One scanner per lexer context: the terminals of the parser state (the
    # contextual lexer's set), ignored white space added, in BasicLexer's order.
    scanners: dict[frozenset[str], tuple[int, int]] = {}
    patterns: list[str] = []
    keywords: list[dict[str, list[tuple[str, str]]]] = []
    scan: list[int] = []
    retype: list[int] = []
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
            patterns.append(pattern)
            keywords.append(unless_words(callbacks))
            scanners[accepts] = (len(patterns) - 1, len(keywords) - 1)
        scan.append(scanners[accepts][0])
        retype.append(scanners[accepts][1])

    # Per state, what each terminal the scanner may return does; absent: an error.
    # A terminal Lark may retype is looked up after the retyping (Scanner.steps leaves it out).
    retyped: list[dict[str, Action]] = []
    for number, move in enumerate(moves):
        acts: dict[str, Action] = {}
        for term, to in move.items():
            if term in ignore:
                continue
            if number in undecided:
                if term not in decides:
                    raise ValueError(f"{term} after an opener decides no block")
                acts[term] = (to, decides[term])
            else:
                acts[term] = (to, opens.get(term, _DROP if term in dropped else ""))
        acts.update({term: (number, None) for term in ignore})
        retyped.append(acts)
    return {"newline_types": newline_types, "ignore": sorted(ignore),
            "accepts_end": accepts_end, "patterns": patterns, "scan": scan,
            "keywords": keywords, "retype": retype, "retyped": retyped}



def _rare(op: str, tok: ScanToken, items: list[Item], block: list[ScanToken] | None
          ) -> list[ScanToken] | None:
    """What a token of a tag pair written over several lines does to the items."""
    if op == _UNDECIDED:
        block = [tok]
        items.append((op, block))
    elif op != _DROP:  # "=kind" or "-kind": the open block is of this kind
        assert block is not None and items[-1][1] is block  # the grammar's order
        items[-1] = (op[1:], block)
        if op[0] == "=":
            block.append(tok)
    return block


def _blocks(parser: Lark) -> tuple[dict[str, str], dict[str, str], frozenset[str]]:
    """What opens each kind of block, what decides a block's kind, what the tree leaves out.

    The first terminal of the rules auction, play and plain (after Lark expanded the
    grammar's EBNF) opens that kind; one that opens several (``[``) leaves the kind to
    the rule's second terminal. A block's tokens are those up to the next block's
    opener: true when no opener may also stand inside a block (checked against the
    rules). A terminal the tree leaves out must be left out wherever it stands.
    """
    kinds_of: dict[str, set[str]] = {}
    seconds: dict[str, set[tuple[str, bool]]] = {}
    keep_all = bool(getattr(parser.options, "keep_all_tokens", False))
    left_out: set[str] = set()
    kept: set[str] = set()
    for rule in parser.rules:
        for sym in rule.expansion:
            if sym.is_term:
                out = getattr(sym, "filter_out", False) and not keep_all
                (left_out if out else kept).add(sym.name)
        if rule.origin.name in _KINDS and rule.expansion:
            first = rule.expansion[0]
            if not first.is_term:
                raise ValueError(f"{rule.origin.name} starts with a rule")
            kinds_of.setdefault(first.name, set()).add(str(rule.origin.name))
    if left_out & kept:
        raise ValueError(f"{left_out & kept} are left out in one rule, kept in another")
    opens = {t: next(iter(k)) if len(k) == 1 else _UNDECIDED for t, k in kinds_of.items()}
    for rule in parser.rules:
        if rule.origin.name in _KINDS and opens[rule.expansion[0].name] == _UNDECIDED:
            if len(rule.expansion) < 2 or not rule.expansion[1].is_term:
                raise ValueError(f"{rule.origin.name}'s kind is not decided by its second token")
            second = rule.expansion[1]
            seconds.setdefault(second.name, set()).add((str(rule.origin.name),
                                                        second.name in left_out))
        for sym in rule.expansion[1:]:
            if sym.name in opens:
                raise ValueError(f"{sym.name} stands inside a rule")
    decides: dict[str, str] = {}
    for term, found in seconds.items():
        if len(found) != 1:
            raise ValueError(f"{term} decides two kinds of block")
        [(kind, dropped)] = found
        decides[term] = ("-" if dropped else "=") + kind
    return opens, decides, frozenset(left_out)


def scanner(parser: Lark) -> Scanner:
    """The tokenizer compiled from this parser's grammar, straight from Lark's tables."""
    return Scanner(tables(parser))


def lark_version() -> str | None:
    """Lark's version, read from its package without importing it (None if not found)."""
    spec = util.find_spec("lark")
    if spec is None or spec.origin is None:
        return None
    try:
        with open(spec.origin, encoding="utf-8") as f:
            found = re.search(r"^__version__\b[^=]*=\s*['\"]([^'\"]+)", f.read(), re.M)
    except OSError:
        return None
    return found.group(1) if found else None


def cache_path(folder: str, grammar: str) -> str | None:
    """The tables' file for this grammar, Lark and tokenizer source, or None if unknown.

    The tables follow from the grammar, from Lark's analysis of it and from how this
    module and its adapter derive them: a change of any gives another name, so a
    stale file is never read.
    """
    version = lark_version()
    if version is None:
        return None
    digest = hashlib.sha256(grammar.encode("utf-8"))
    here = os.path.dirname(os.path.abspath(__file__))
    for name in ("scanner.py", "lark_adapter.py"):
        try:
            with open(os.path.join(here, name), "rb") as f:
                digest.update(f.read())
        except OSError:
            return None
    return os.path.join(folder, f"scanner-{digest.hexdigest()[:16]}-lark{version}.json")


def _load(path: str) -> Scanner | None:
    """The tokenizer from a cache file, or None if it is missing or not a valid table."""
    try:
        with open(path, encoding="utf-8") as f:
            return Scanner(json.load(f))
    except (OSError, ValueError, TypeError, KeyError, IndexError, AttributeError, re.error):
        return None


def _store(path: str, data: Tables) -> None:
    """Write the tables atomically (a temporary file renamed); a failure is no error."""
    from priffe_records.format.atomic import write_text_atomically
    from priffe_records.format.errors import PriffeError

    try:
        write_text_atomically(path, json.dumps(data, separators=(",", ":")))
    except (PriffeError, OSError):
        return


def cached_scanner(grammar: str, folder: str | None, build: Callable[[], Tables]) -> Scanner:
    """The tokenizer from the cache in ``folder`` when it holds valid tables; else built.

    ``build`` runs Lark (only when the cache is missing, stale, corrupt or unusable),
    and its tables are written for the next process. A file that does not load as a
    tokenizer is rebuilt and replaced, silently: the cache is never a reason to fail.
    """
    path = cache_path(folder, grammar) if folder else None
    if path is not None:
        found = _load(path)
        if found is not None:
            return found
    data = json.loads(json.dumps(build()))  # the very data a later process loads
    made = Scanner(data)
    if path is not None:
        _store(path, data)
    return made
