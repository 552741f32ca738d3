"""Findings stored as messages, so an archive reads in its reader's language.

A finding's text is stored twice: ``findings.message``, rendered in English (for
full-text search and plain SQL), and ``findings.message_json``, the gettext id and
field values (:func:`~priffe_records.game.language.to_data`). The SQL function
``priffe_message(message_json, message)``, registered on every archive connection
and in the Datasette plugin, renders it in the active language.

Rows stored before schema version 5 hold only the text, in the language of their
import: :func:`recover` finds the catalog entry it was rendered from (English or
Swedish) and its field values, so the migration can store the message too.
"""

from __future__ import annotations

import ast
import json
import re
import sqlite3
import struct
from collections.abc import Callable
from functools import cache
from pathlib import Path

from priffe_records.format.record import HEAD_TAGS, SCORE_TAGS
from priffe_records.game.cards import Card
from priffe_records.game.language import (
    DOMAIN,
    LANGUAGES,
    LOCALE_DIR,
    Message,
    from_data,
    render,
    to_data,
)
from priffe_records.game.words import card_name, lacking_tags, lacking_word, tag_word

SQL_FUNCTION = "priffe_message"
SEAT_WORDS = ("North", "East", "South", "West")  # tag names too, but in a message a seat
_FIELD = re.compile(r"\{(\w+)(![rs])?\}")


# Before schema 11 a finding's text ended with its own rule ID as well ("… (R11)").
_TAIL = r"\s*\((?:{rule}|\{{rules\}})\)$"


def _rule() -> str:
    """A rule ID of any registered family: its ``prefix`` (R, P, …) and a number (asked
    only of old text: an archive opened unchanged loads no family)."""
    from priffe_records.rules.family import families

    return "(?:" + "|".join(re.escape(f.prefix) for f in families()) + r")\d+"


def message_json(text: Message | str) -> str | None:
    """What ``findings.message_json`` holds for a finding's text (None: a plain string)."""
    if not isinstance(text, Message):
        return None
    return json.dumps(to_data(text), ensure_ascii=False, separators=(",", ":"))


def shown(data: str | None, stored: str | None, lang: str | None = None) -> str | None:
    """The finding's text in ``lang`` (default: the active one); the stored text when it
    has no message or the message cannot be read."""
    if data:
        try:
            # stored before the tags had words of their own: worded as now
            return _worded_now(from_data(json.loads(data))).render(lang)
        except (ValueError, KeyError, TypeError, IndexError):
            pass
    return stored


def without_rule_tail(data: str) -> str:
    """``message_json`` stored before schema 11, its ids without the rule ID at their end:
    the finding's rule column names it once (``(R17, {variant})`` keeps ``({variant})``)."""
    tail, first = _TAIL.format(rule=_rule()), rf"\({_rule()}, ([^()]*)\)$"

    def fix(ident: str) -> str:
        return re.sub(first, r"(\1)", re.sub(tail, "", ident))

    def walk(value: object) -> object:
        if isinstance(value, dict):
            return {k: fix(v) if k in ("id", "plural") and isinstance(v, str) else walk(v)
                    for k, v in value.items()}
        return value
    return json.dumps(walk(json.loads(data)), ensure_ascii=False, separators=(",", ":"))


def register(conn: sqlite3.Connection) -> None:
    """Make ``priffe_message(message_json, message)`` callable in SQL on ``conn``."""
    fn: Callable[[str | None, str | None], str | None] = shown
    conn.create_function(SQL_FUNCTION, 2, fn)


# ------------------------------------------------------------------ old rows


def _mo(path: Path) -> list[tuple[str, list[str]]]:
    """(msgid, msgstr forms) of a compiled catalog; the msgid keeps its plural after a NUL
    (gettext's reader drops it, and a plural's English form is needed here)."""
    data = path.read_bytes()
    magic = struct.unpack("<I", data[:4])[0]
    order = "<" if magic == 0x950412DE else ">"
    _, count, ids, strs = struct.unpack(order + "4I", data[4:20])
    out = []
    for i in range(count):
        n, at = struct.unpack(order + "2I", data[ids + 8 * i:ids + 8 * i + 8])
        m, to = struct.unpack(order + "2I", data[strs + 8 * i:strs + 8 * i + 8])
        out.append((data[at:at + n].decode("utf-8"),
                    data[to:to + m].decode("utf-8").split("\0")))
    return out


@cache
def _entries() -> tuple[tuple[str | None, str, str | None, str, int], ...]:
    """(context, id, plural id, template) of every catalog text, in both languages."""
    out: list[tuple[str | None, str, str | None, str, int]] = []
    mo = LOCALE_DIR / "sv" / "LC_MESSAGES" / f"{DOMAIN}.mo"
    for key, forms in _mo(mo) if mo.exists() else []:
        if not key:
            continue  # the header
        context, _, key = key.rpartition("\x04") if "\x04" in key else ("", "", key)
        ident, _, plural = key.partition("\0")
        # A plural's form stands for n = 1 or "more" (English and Swedish: n != 1).
        for i, english in enumerate((ident, plural) if plural else (ident,)):
            out.append((context or None, ident, plural or None, english, 1 + i))
        for i, text in enumerate(forms):
            out.append((context or None, ident, plural or None, text, 1 + min(i, 1)))
    # language.listing's separator, the same in every language (not a catalog entry)
    out.append((None, "{a}, {b}", None, "{a}, {b}", 1))
    return tuple(out)


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str | None, str, str | None, int,
                                frozenset[str], int, frozenset[str], bool], ...]:
    """Regexes of the templates with fields, most specific (most literal text) first."""
    out = []
    for context, ident, plural, template, form in _entries():
        fields = _FIELD.findall(template)
        literal = _FIELD.sub("", template)
        if not fields:
            continue
        parts, last = [], 0
        for m in _FIELD.finditer(template):
            parts.append(re.escape(template[last:m.start()]))
            name = m.group(1)
            parts.append(f"(?P={name})" if f"(?P<{name}>" in "".join(parts)
                         else f"(?P<{name}>.+?)")
            last = m.end()
        parts.append(re.escape(template[last:]))
        out.append((re.compile("".join(parts), re.S), context, ident, plural, form,
                    frozenset(re.findall(rf"\b{_rule()}\b", template)), len(literal),
                    frozenset(name for name, conv in fields if conv == "!r"),
                    not literal.strip(" ,;")))  # "{a}, {b}": only inside another message
    out.sort(key=lambda p: -p[6])
    return tuple(out)


@cache
def _words() -> dict[str, Message]:
    """Field-less catalog texts (seats, suits, ranks …) by their text in either language."""
    out: dict[str, Message] = {}
    # A word without a context (msg("declarer")) is what a sentence uses; one with a
    # context is a heading or a label, so it only counts when nothing else has the text.
    for context, ident, _plural, template, _form in sorted(
            _entries(), key=lambda e: e[0] is not None):
        # Préférence's bid names share their Swedish with Priffe's file words (Ruter), which
        # a message keeps as text: such a word is never read back as a Préférence bid.
        if "{" not in template and context != "préférence bid":
            out.setdefault(template, Message(ident, context=context))
    return out


_TAG_NAMES = frozenset((*(t for t in HEAD_TAGS if t not in SEAT_WORDS), *SCORE_TAGS,
                        "Deal", "Auction", "Play", "Contract", "Declarer", "Result", "Talon",
                        "Discard", "Dropout", "Scoring", "Dealer", "Vulnerable"))
_LISTINGS = frozenset({"{a} and {b}", "{a} or {b}", "{a}, {b}"})
_CARD = re.compile(r"^([♠♥♦♣])(10|[2-9]|Ä|K|D|Kn|A|Q|J|T)$")
_SV_RANKS = {"Ä": "A", "D": "Q", "Kn": "J", "10": "T"}


def _field(text: str, quoted: bool = False) -> object:
    """A captured field value as what it was: a number, a word, a card, else the text."""
    if quoted:  # a {value!r} field: the text is the repr of a string
        try:
            value = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            return text
        return value if isinstance(value, str) else text
    if re.fullmatch(r"-?\d+", text):
        return int(text)
    card = _CARD.match(text)
    if card:
        suit = {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}[card.group(1)]
        try:
            return card_name(Card.parse(suit + _SV_RANKS.get(card.group(2), card.group(2))))
        except ValueError:
            return text
    if text in _TAG_NAMES:
        return text  # a tag name is the same in every language
    return _words().get(text, text)


def recover(text: str) -> Message | None:
    """The catalog message ``text`` was rendered from, with its field values, or None.

    Field values are read back as numbers, cards, catalog words or, recursively, catalog
    messages; the most specific template whose message renders back to exactly ``text``
    (in English or Swedish) wins.
    """
    found = _recover(text, 0) or _recover(re.sub(_TAIL.format(rule=_rule()), "", text), 0)
    return None if found is None else _worded_now(found)


# Messages whose field holds a tag as a sentence says it (game/words.tag_word; "no {tags}":
# lacking_word): a text gives back only the tag's name, which these fields now word.
_TAG_FIELDS = frozenset({
    "{tag} {reason}", "{tag} {text!r} is not a seat (N, E, S or W)",
    "{tag} {text!r} is not a seat (N, E, S or W); {hint}",
    "{tag} {value!r} must name the seat of the first call: N, E, S or W",
    "{tag} {value!r} must name the seat of the first card: N, E, S or W",
    "the known hands leave the honours open ({values}): {tag} is taken as written ({variant})",
    "{name} {text!r} is not a seat (N, E or S)",
    "{name} is W, but W stays empty in Préférence: N, E or S"})
_LACKING = frozenset({"no {tags}", "not checked (no {missing}): {what} taken as written"})


def _worded_now(message: Message, lacking: bool = False) -> Message:
    """``message`` with a tag name read back from a field worded as the code words it now:
    ``{tag}`` as :func:`tag_word`, the parts a record lacks as :func:`lacking_tags` (the
    Swedish "ingen budgivning, inget spel …" reads back as a list without its "no")."""
    if lacking and message.id in _LACKING_WORDS and not message.params:
        return lacking_word(_LACKING_WORDS[message.id])
    if message.id.startswith("not checked ({why})") and "why" in message.params:
        names = _lacked(message.params["why"])
        if names:
            return Message(message.id, {**message.params, "why": lacking_tags(names)},
                           context=message.context, plural=message.plural, n=message.n)

    def value(key: str, v: object) -> object:
        inner = lacking or (message.id in _LACKING and key != "what")
        if isinstance(v, Message):
            return _worded_now(v, inner)
        if isinstance(v, str) and inner and v in _LACKING_WORDS:
            return lacking_word(v)
        if isinstance(v, str) and key in ("tag", "name") and message.id in _TAG_FIELDS:
            return tag_word(v)
        return v
    params = {k: value(k, v) for k, v in message.params.items()}
    return Message(message.id, params, context=message.context, plural=message.plural,
                   n=message.n)


# A lacking part as a text reads back: its name, or Swedish "inget spel" as "no play".
_LACKING_WORDS = {"Auction": "Auction", "Play": "Play", "Deal": "Deal", "no play": "Play"}


def _lacked(why: object) -> list[str]:
    """The parts a read-back list of lacking parts names (of Auction, Play, Deal), in
    order; empty when ``why`` is not such a list."""
    if isinstance(why, str):
        return [why] if why in ("Auction", "Play", "Deal") else []
    if not isinstance(why, Message):
        return []
    if why.id in _LACKING_WORDS and not why.params:
        return [_LACKING_WORDS[why.id]]
    if why.id == "no {tags}":
        return _lacked(why.params.get("tags"))
    if why.id in ("{a} or {b}", "{a}, {b}", "{a}"):
        parts = [_lacked(v) for v in why.params.values()]
        return [n for p in parts for n in p] if all(parts) else []
    return []


@cache
def _recover(text: str, depth: int) -> Message | None:
    exact = _words().get(text)
    if exact is not None:
        return exact
    rules = frozenset(re.findall(rf"\b{_rule()}\b", text))
    best: tuple[int, Message] | None = None
    for pattern, context, ident, plural, form, want, _, quoted, generic in _patterns():
        if not want <= rules or (generic and depth == 0):
            continue
        m = pattern.fullmatch(text)
        if m is None:
            continue
        params = {k: _nested(v, k in quoted, depth) for k, v in m.groupdict().items()}
        if "n" in params and not isinstance(params["n"], int):
            continue  # {n} is a number in every message
        n = params.pop("n", form) if plural else None  # no {n} in the text: the form's n
        message = _rendering(text, ident, params, context, plural,
                             n if isinstance(n, int) else None, m.groupdict(), quoted)
        if message is None:
            continue
        left = _words_left(message)  # fewer words kept as text: better read
        if plural and "n" not in m.groupdict():
            # A form that shows no {n} (Swedish often has one text for both): a listed
            # field ("a and b") means the plural.
            listed = any(isinstance(v, Message) and v.id in _LISTINGS
                         for v in params.values())
            left += int(listed != (form > 1))
        if best is None or left < best[0]:
            best = (left, message)
            if left == 0:
                break
    return None if best is None else best[1]


def _rendering(text: str, ident: str, params: dict[str, object], context: str | None,
               plural: str | None, n: int | None, raw: dict[str, str],
               quoted: frozenset[str]) -> Message | None:
    """The message that renders to ``text`` in one of the languages; a field whose reading
    back renders otherwise in that language (a word found through the other language's
    text) is kept as it was written."""
    found = []
    for lang in LANGUAGES:
        fixed = {k: v if not isinstance(v, Message) or render(v, lang) == raw[k]
                 else raw[k] for k, v in params.items()}
        message = Message(ident, fixed, context=context, plural=plural, n=n)
        if render(message, lang) == text:
            found.append(message)
    return min(found, key=_words_left, default=None)


def _words_left(message: Message) -> int:
    """How many words stayed plain text in the field values (not names, tags or rule IDs)."""
    n = 0
    for v in message.params.values():
        if isinstance(v, Message):
            n += _words_left(v)
        elif isinstance(v, str) and re.search(r"[^\W\d_]", v) and v not in _TAG_NAMES \
                and not re.fullmatch(_rule(), v):
            n += len(v.split())  # a sentence kept as text weighs more than a word
    return n


def _nested(text: str, quoted: bool, depth: int) -> object:
    value = _field(text, quoted)
    if isinstance(value, str) and not quoted and depth < 8 and " " in value:
        return _recover(value, depth + 1) or value
    return value
