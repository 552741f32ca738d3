"""One PPN record's text → tokens, and friendly syntax errors.

The grammar lives in ``grammar/ppn.lark`` (shipped in the wheel as
``priffe_records/format/ppn.lark``). Lark analyses it (LALR, contextual lexer) once per
process, its tables cached between runs; the tokenizer (format/scanner.py) is compiled
from those tables, kept as plain data in the same cache folder, and reads every record
without importing Lark. Lark's own parser runs only to make those tables once and on a
record the tokenizer cannot read: to explain the syntax error and read around it.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import sys
from collections.abc import Callable
from importlib import resources
from typing import TYPE_CHECKING, Any

from priffe_records.format.errors import PPNSyntaxError
from priffe_records.format.record import Location
from priffe_records.format.scanner import Scanner, cached_scanner, tables
from priffe_records.format.vocabulary import Vocabulary, vocabularies
from priffe_records.game.language import Message, listing, msg

if TYPE_CHECKING:  # Lark is imported only where it runs: valid text never needs it
    from lark import Lark
    from lark.exceptions import UnexpectedInput


def _collect() -> Any:
    """A transformer that keeps the raw tokens: the reader makes the model with locations."""
    from lark import Transformer

    class Collect(Transformer[Any, Any]):
        def start(self, items: list[Any]) -> list[Any]:
            return items

        def auction(self, items: list[Any]) -> tuple[str, list[Any]]:
            return ("auction", items)

        def play(self, items: list[Any]) -> tuple[str, list[Any]]:
            return ("play", items)

        def plain(self, items: list[Any]) -> tuple[str, list[Any]]:
            return ("plain", items)

    return Collect()


def grammar_text(every: tuple[Vocabulary, ...] | None = None) -> str:
    """The grammar Lark reads: ``grammar/ppn.lark`` (packaged as
    ``priffe_records/format/ppn.lark``) with the registered families' call words in.

    In the source tree the packaged name is a symlink to the one grammar file;
    the wheel build copies its content, so there is one truth either way. Which words
    are calls is each family's to say (its vocabulary), so a new family's calls need no
    line here; the tables' caches are keyed by this text.
    """
    text = (resources.files("priffe_records.format") / "ppn.lark").read_text("utf-8")
    return text.replace("{CALL_WORDS}", call_pattern(every or vocabularies()))


def call_pattern(every: tuple[Vocabulary, ...]) -> str:
    """Every family's call spellings as one regular expression, factored by their common
    starts (``clubs?``, ``h(?:and(?:clubs|…)|earts?|…)``): matched letter by letter, not
    word by word, so a call costs the scanner what the hand-written pattern cost. Sorted,
    so the same families give the same grammar and the same cached tables.

    >>> call_pattern((Vocabulary("X", {"club": "", "clubs": "", "spade": "", "spader": "",
    ...                                "spades": "", "♣": "", "♠": ""}, {}, str, ""),))
    '(?:clubs?|spade[rs]?|[♠♣])'
    """
    trie: dict[str, Any] = {}
    for word in {w for v in every for w in v.calls}:
        node = trie
        for ch in word:
            node = node.setdefault(ch, {})
        node[""] = {}
    return _factored(trie)


def _factored(node: dict[str, Any]) -> str:
    """The regular expression of a trie's words ("" marks a word's end)."""
    kids = sorted(k for k in node if k)
    ends = [k for k in kids if list(node[k]) == [""]]  # letters that end a word, alone
    branches = [re.escape(k) + _factored(node[k]) for k in kids if k not in ends]
    if ends:
        branches.append("[" + "".join(map(re.escape, ends)) + "]" if len(ends) > 1
                        else re.escape(ends[0]))
    if not branches:
        return ""
    one = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
    if "" not in node:
        return one
    # one letter, a class or a group takes the "?" itself; a run of letters needs a group
    atomic = len(branches) > 1 or len(one) == 1 or one.startswith("[")
    return one + "?" if atomic else "(?:" + one + ")?"


def cache_folder() -> str | None:
    """The user's cache folder of this package, made if missing; None when unwritable."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    folder = os.path.join(base, "priffe-records")
    try:
        os.makedirs(folder, exist_ok=True)
    except OSError:
        return None
    return folder if os.access(folder, os.W_OK) else None


def cache_file(grammar: str) -> str | None:
    """Where Lark keeps the analysed grammar between runs, or None when it cannot.

    Loading the tables costs a fraction of building them: worth it for a
    command run per file from a shell loop. The name carries the grammar's
    hash and the Lark and Python versions (Lark checks its own hash inside
    too), so an edited grammar or an upgrade never loads stale tables. An
    unwritable cache folder means no cache, silently.
    """
    folder = cache_folder()
    if folder is None:
        return None
    import lark

    digest = hashlib.sha256(grammar.encode("utf-8")).hexdigest()[:16]
    py = "".join(map(str, sys.version_info[:2]))
    return os.path.join(folder, f"ppn-{digest}-lark{lark.__version__}-py{py}.cache")


def get_parser() -> Lark:
    """Lark's parser of the grammar, built (or loaded from the cache) once per process.

    Its tables make the tokenizer when none is cached; the parser itself explains
    syntax errors.
    """
    return _parser(vocabularies())


@functools.lru_cache(maxsize=4)
def _parser(every: tuple[Vocabulary, ...]) -> Lark:
    """The parser of the grammar with these families' call words (a test that registers a
    family gets its own; :func:`~priffe_records.format.vocabulary.forget`)."""
    from lark import Lark

    options: dict[str, Any] = {
        "parser": "lalr",
        "lexer": "contextual",
        "transformer": _collect(),
        "propagate_positions": False,
        "maybe_placeholders": False,
    }
    grammar = grammar_text(every)
    cache = cache_file(grammar)
    try:
        lark = Lark(grammar, **options, **({"cache": cache} if cache else {}))
    except Exception:  # pragma: no cover - a cache file Lark cannot load: build afresh
        lark = Lark(grammar, **options)
    return lark


def get_scanner() -> Scanner:
    """The tokenizer, from its cached tables or else made from Lark's (once per process).

    Callers that fork workers call this first, so the workers inherit it.
    """
    return _scanner(vocabularies())


@functools.lru_cache(maxsize=4)
def _scanner(every: tuple[Vocabulary, ...]) -> Scanner:
    return cached_scanner(grammar_text(every), cache_folder(), lambda: tables(_parser(every)))


def parse_chunk(text: str) -> list[Any] | None:
    """The tokens of one record's text in blocks, or None when it holds a syntax error
    (then :func:`parse_segment` reads around the errors and :func:`explain` words them)."""
    return get_scanner().parse(text)


_WORD = re.compile(r'[^\s\[\]{};"%=$!?]+')

_NICE: dict[str, Message | str] = {
    "LBRACKET": "'['", "RSQB": "']'", "TAGNAME": msg("a tag name"),
    "STRING": msg("a quoted value"), "CALLS": msg("a call"), "CARDS": msg("a card"),
    "TAGS": msg("a tag pair"), "AUCTION_TAG": msg("a tag pair"), "PLAY_TAG": msg("a tag pair"),
    "DASH": "'-'", "END": "'*'", "CONTINUE": "'+'",
    "IRREGULARITY": msg("'^I', '^S', '^R' or '^L'"), "NOTE_REF": msg("a note '=n='"),
    "NAG": msg("a NAG '$n'"), "SUFFIX": msg("a suffix"), "SECTION_TOKEN": msg("section data"),
    "BRACE_COMMENT": msg("a comment"), "LINE_COMMENT": msg("a comment"),
    "ESCAPE_LINE": msg("a % line"), "AUCTION": "'Auction'", "PLAY": "'Play'",
    "$END": msg("the end of the record"),
}


def _expected(names: set[str] | frozenset[str]) -> Message:
    """What the parser would have taken, ordered by the English words (stable in both)."""
    nice = {str(_NICE.get(n, n)): _NICE.get(n, n) for n in names if not n.startswith("__")}
    return listing([nice[k] for k in sorted(nice)], None) if nice else msg("something else")


def _position(exc: UnexpectedInput) -> tuple[int, int]:
    line = getattr(exc, "line", None)
    column = getattr(exc, "column", None)
    tok = getattr(exc, "token", None)
    if not isinstance(line, int) or line < 1:
        line = getattr(tok, "line", None)
    if not isinstance(column, int) or column < 1:
        column = getattr(tok, "column", None)
    return (line if isinstance(line, int) and line > 0 else 0,
            column if isinstance(column, int) and column > 0 else 1)


def explain(exc: UnexpectedInput, file: str, first_line: int, lines: list[str],
            unknown_call: Callable[[str], Message] | None = None) -> PPNSyntaxError:
    """Turn a Lark error into one plain sentence with file, line and column.

    Both lexer failures (no terminal fits) and parser failures (a token that
    fits no rule, e.g. a word the fallback lexer took as section data) are
    classified by what the parser state expected, so the user reads "unknown
    call" rather than a list of terminal names. ``unknown_call`` (the record's game's
    vocabulary's) words that error and lists the calls; by default
    the first registered family's.
    """
    line, column = _position(exc)
    if line == 0:
        line = len(lines) or 1
    text = lines[line - 1] if 0 < line <= len(lines) else ""
    loc = Location(file, first_line + line - 1, column)
    tok = getattr(exc, "token", None)
    tok_type = getattr(tok, "type", None)
    allowed = set(getattr(exc, "allowed", None) or getattr(exc, "expected", None) or ())
    ch = text[column - 1] if column - 1 < len(text) else ""
    m = _WORD.match(text, column - 1)
    word = m.group(0) if m else ch
    if len(word) > 30:
        word = word[:29] + "…"
    if ch and ((ord(ch) < 32 and ch not in "\t") or ch == "\x7f"):
        return PPNSyntaxError(msg("control character {char!r} (PBN §2.2 allows none): is this "
                                  "a PPN/PBN text file?", char=ch), loc, text)
    why: Message
    if tok_type == "$END":
        why = msg("the record ends inside a tag pair; expected {expected}",
                  expected=_expected(allowed))
    elif (ch == '"' and "STRING" in allowed) or (ch == '"' and tok_type is None):
        why = msg("unterminated string: the value has no closing '\"' on this line")
    elif ch == "{" and tok_type is None:
        why = msg("unterminated comment: '{' has no matching '}'")
    elif "TAGNAME" in allowed and ch.isalpha():
        why = msg("tag name {word!r} must start with a capital letter (PBN §3.3)", word=word)
    elif "TAGNAME" in allowed:
        why = msg("expected a tag name after '[', found {char!r}", char=ch)
    elif "CALLS" in allowed and word and ch not in "[]":
        why = (unknown_call or vocabularies()[0].unknown_call)(word)
    elif "CARDS" in allowed and word and ch not in "[]":
        why = msg("card {word!r} is not a card: a suit S H D C (or ♠ ♥ ♦ ♣) then a rank "
                  "A K Q J T 9 … 2", word=word)
    elif ch == "%":
        why = msg("'%' starts an escape line only in the first column (PBN §2.4)")
    elif ch == "]" and "LBRACKET" in allowed:
        why = msg("stray ']': no tag pair is open here")
    elif "STRING" in allowed:
        why = msg("the tag has no value: expected a quoted string, found {word!r}", word=word)
    elif "RSQB" in allowed:
        why = msg("expected ']' to close the tag pair, found {word!r}", word=word)
    else:
        why = msg("unexpected {word!r}; expected {expected}", word=word,
                  expected=_expected(allowed))
    return PPNSyntaxError(why, loc, text)


# ---------------------------------------------------------------- recovery

# Terminals a parser state expects only in the middle of a tag pair: an error
# there cannot be skipped over, the tag pair is lost (reported) and reading
# resumes at the next tag.
_IN_TAG = frozenset({"TAGNAME", "STRING", "RSQB", "AUCTION", "PLAY"})
_BETWEEN = frozenset({"LBRACKET", "TAGS", "AUCTION_TAG", "PLAY_TAG", "CALLS", "CARDS",
                      "SECTION_TOKEN"})


def _expected_names(exc: UnexpectedInput) -> set[str]:
    return set(getattr(exc, "allowed", None) or getattr(exc, "expected", None) or ())


def parse_segment(text: str) -> tuple[list[Any], list[UnexpectedInput]]:
    """Parse one tag pair and its section data, collecting every syntax error.

    Inside section data an error skips to the next line (one error per line
    at most, and the work stays linear); an error inside the tag pair itself
    ends the segment. Returns what was read and the errors, in order.
    """
    from lark.exceptions import UnexpectedInput

    from priffe_records.format.lark_adapter import error_line, skip_rest_of_line

    found: list[UnexpectedInput] = []
    lines_skipped: set[int] = set()

    def on_error(exc: UnexpectedInput) -> bool:
        names = _expected_names(exc)
        if names & _IN_TAG and not names & _BETWEEN:
            return False
        line = error_line(exc)
        if line not in lines_skipped or not found:
            found.append(exc)
        lines_skipped.add(line)
        skip_rest_of_line(exc)
        return True

    try:
        items: list[Any] = get_parser().parse(text, on_error=on_error)  # type: ignore[assignment]
    except UnexpectedInput as exc:
        found.append(exc)
        return [], found
    return items, found


def unclosed(exc: UnexpectedInput, file: str, first_line: int, lines: list[str]) -> PPNSyntaxError:
    """A tag pair left open where the next tag pair starts: located at the end of its line.

    Seen when recovery parses one tag pair alone and meets its end (``$END``);
    the user forgot the ``]`` or ``"`` on that line, not something at the next tag.
    """
    index = max((i for i, t in enumerate(lines) if t.strip()), default=0)
    text = lines[index] if lines else ""
    loc = Location(file, first_line + index, len(text.rstrip()) + 1)
    return PPNSyntaxError(msg("the tag pair is not closed on this line; expected {expected}",
                              expected=_expected(_expected_names(exc))), loc, text)


def ends_early(exc: UnexpectedInput) -> bool:
    """Whether the parser met the end of its text inside a tag pair."""
    tok = getattr(exc, "token", None)
    return getattr(tok, "type", None) == "$END"
