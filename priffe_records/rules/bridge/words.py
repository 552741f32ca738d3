r"""Bridge's words for the reader, and which records are bridge's (docs/bridge.md).

Data only. A record is bridge's when its ``Scoring`` tag's first field is a scoring
system PBN §3.4.12 names (``MP``, ``IMP``, ``Rubber`` …, or ``Bridge``), or when its
Scoring says nothing (absent, empty, ``?``) and its Contract has a bridge contract's
shape, ``<1-7><C|D|H|S|NT>[X|XX]`` or ``Pass`` (PBN §3.4.14), or its Auction holds a
bridge call (``1C``, ``X``, ``AP`` …): no Priffe or Préférence contract or call has that
shape. A record with neither is the default family's. Bridge's calls (``1NT``, ``X``,
``AP`` …) are read as foreign calls by every family's words, so bridge names only
``Pass`` and reads the other calls by their text.

>>> WORDS.accepts("IMP;Cross"), WORDS.accepts("Priffe"), WORDS.accepts(None)
(True, False, False)
>>> from priffe_records.format.reader import loads
>>> [WORDS.claims_untagged(r) for r in loads('[Contract "4HX"]\n\n[Contract "Hjärter"]\n\n'
...                                          '[Auction "N"]\nPass 1C AP\n')]
[True, False, True]
"""

from __future__ import annotations

import re

from priffe_records.format.record import Record, TokenKind
from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.calls import unknown_bridge_call

# PBN §3.4.12's basic scoring systems (a modifier alone names no game).
SCORINGS = frozenset({"mp", "matchpoints", "imp", "cavendish", "chicago", "rubber", "bam",
                      "instant", "emp", "oldmp", "imp_1948", "imp_1961", "bridge"})
CONTRACT = re.compile(r"([1-7])(NT|[CDHS])(XX|X)?", re.IGNORECASE)
_SHAPE = re.compile(r"[1-7](?:NT|[CDHS])(?:XX|X)?|Pass", re.IGNORECASE)
_CALL = re.compile(r"[1-7](?:NT|[CDHSN])|XX?|AP")  # as the reader keeps a bridge call


def claims(record: Record) -> bool:
    """Whether a record whose Scoring says nothing is bridge's: its Contract has a bridge
    contract's shape, or its Auction holds a bridge call."""
    contract = record.get("Contract")
    if contract is not None and _SHAPE.fullmatch(contract.strip()):
        return True
    auction = record.auction
    return auction is not None and TokenKind.FOREIGN in auction.kinds and any(
        k is TokenKind.FOREIGN and _CALL.fullmatch(t)
        for k, t in zip(auction.kinds, auction.texts, strict=True))


WORDS = Vocabulary(
    name="Bridge",
    calls={"pass": "Pass"},
    contracts={},
    unknown_call=unknown_bridge_call,
    family="priffe_records.rules.bridge.family",
    scorings=SCORINGS,
    claims=claims,
)
