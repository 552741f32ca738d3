r"""Bridge's words for the reader, and which records are bridge's (docs/bridge.md).

Data only. A record is bridge's when its ``Scoring`` tag's first field is a scoring
system PBN §3.4.12 names (``MP``, ``IMP``, ``Rubber`` …, or ``Bridge``), or when its
Scoring says nothing (absent, empty, ``?``) and its Contract has a bridge contract's
shape, ``<1-7><C|D|H|S|NT>[X|XX]`` or ``Pass`` (PBN §3.4.14), or its Auction holds a
bridge call (``1C``, ``X``, ``AP`` …), or it has a ``Vulnerable`` tag (a dealer's hand
record: Deal, Dealer, Vulnerable and nothing played): no Priffe or Préférence contract or
call has that shape, and neither game has vulnerability. A record with none is the
default family's. Bridge's calls (``1NT``, ``X``,
``AP`` …) are read as foreign calls by every family's words, so bridge names only
``Pass`` and reads the other calls by their text. A record the reader cannot read is
claimed by its text the same way (:func:`claims_text`), so its unknown call lists
bridge's calls, not Klöver.

>>> WORDS.accepts("IMP;Cross"), WORDS.accepts("Priffe"), WORDS.accepts(None)
(True, False, False)
>>> claims_text('[Contract "4S"]\n[Auction "N"]\nPas\n'), claims_text('[Auction "N"]\n1nt! Pas\n')
(True, True)
>>> from priffe_records.format.reader import loads
>>> [WORDS.claims_untagged(r) for r in loads('[Contract "4HX"]\n\n[Contract "Hjärter"]\n\n'
...                                          '[Auction "N"]\nPass 1C AP\n')]
[True, False, True]
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from priffe_records.format.record import Record, TokenKind
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.language import Message, msg

# PBN §3.4.12's basic scoring systems (a modifier alone names no game).
SCORINGS = frozenset({"mp", "matchpoints", "imp", "cavendish", "chicago", "rubber", "bam",
                      "instant", "emp", "oldmp", "imp_1948", "imp_1961", "bridge"})
CONTRACT = re.compile(r"([1-7])(NT|[CDHS])(XX|X)?", re.IGNORECASE)
_CALL = re.compile(r"[1-7](?:NT|[CDHSN])|XX?|AP")  # as the reader keeps a bridge call
# In an unread record's text: the Contract's value, the Auction's data (PBN §3.5.1).
_CONTRACT_TAG = re.compile(r'\[[ \t]*Contract[ \t]+"([^"\n]*)"')
_VULNERABLE_TAG = re.compile(r'^[ \t]*\[[ \t]*Vulnerable[ \t]', re.MULTILINE)
_AUCTION_DATA = re.compile(r'\[[ \t]*Auction[ \t]+"[^"\n]*"[ \t]*\]([^\[]*)')
_SUFFIX = re.compile(r"[=$!?].*")  # a note, NAG or suffix annotation after a call
# The calls of a bridge auction (PBN §3.5.1), by their case-folded spelling.
_CALLS = {w.casefold(): w for w in ("Pass", "X", "XX", "AP", *(
    f"{level}{strain}" for level in "1234567" for strain in ("C", "D", "H", "S", "NT")))}
CALL_WORDS = "Pass X XX AP 1C 1D 1H 1S 1NT 2C … 7NT"


def claims(record: Record) -> bool:
    """Whether a record whose Scoring says nothing is bridge's: its Contract has a bridge
    contract's shape, or its Auction holds a bridge call, or it has a Vulnerable tag."""
    auction = record.auction
    calls = () if auction is None or TokenKind.FOREIGN not in auction.kinds else (
        t for k, t in zip(auction.kinds, auction.texts, strict=True) if k is TokenKind.FOREIGN)
    return record.get("Vulnerable") is not None or _claimed(record.get("Contract"), calls)


def claims_text(text: str) -> bool:
    """:func:`claims` for a record the reader could not read: its text's Contract value
    and the words of its Auction data."""
    contract, auction = _CONTRACT_TAG.search(text), _AUCTION_DATA.search(text)
    calls = () if auction is None else (
        _SUFFIX.sub("", w).upper() for w in auction.group(1).split())
    return _VULNERABLE_TAG.search(text) is not None or _claimed(
        contract and contract.group(1), calls)


def _claimed(contract: str | None, calls: Iterable[str]) -> bool:
    """The one claim rule: a bridge contract's shape, or a bridge call."""
    shape = None if contract is None else contract.strip()
    if shape is not None and (shape.casefold() == "pass" or CONTRACT.fullmatch(shape)):
        return True
    return any(_CALL.fullmatch(call) for call in calls)


def unknown_call(word: str) -> Message:
    """An unknown word in a bridge auction, with the closest bridge call and the calls, so
    a bridge file is not told to write Klöver."""
    close = difflib.get_close_matches(word.casefold(), list(_CALLS), n=1, cutoff=0.75)
    return (msg("unknown call {word!r} — did you mean {hint!r}? (bridge calls: {calls})",
                word=word, hint=_CALLS[close[0]], calls=CALL_WORDS) if close else
            msg("unknown call {word!r} (bridge calls: {calls})", word=word,
                calls=CALL_WORDS))


WORDS = Vocabulary(
    name="Bridge",
    calls={"pass": "Pass"},
    contracts={},
    unknown_call=unknown_call,
    family="priffe_records.rules.bridge.family",
    scorings=SCORINGS,
    claims=claims,
    claims_text=claims_text,
)
