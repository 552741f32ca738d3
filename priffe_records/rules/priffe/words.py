"""Priffe's words for the reader: its calls and contracts, and its ``Scoring`` word.

Data only (it imports ``game/`` and the format's :class:`Vocabulary`), so the reader
loads it without the engine. A record without a Scoring tag is Priffe's, and its
Result reads as FORMAT.md's ``NS n EW m``.

>>> WORDS.calls["spelut"], WORDS.contracts["forced null"], WORDS.accepts(None)
('Spela', 'Tvångsnoll', True)
"""

from __future__ import annotations

from priffe_records.format.vocabulary import Vocabulary
from priffe_records.game.calls import call_spellings, contract_spellings, unknown_call

# An auction in a file holds FORMAT.md's words: every spelling a call is read by in code,
# but for the names of Noll FORMAT.md does not list.
_NOT_IN_FILES = frozenset({"nolo", "misère", "misere"})

WORDS = Vocabulary(
    name="Priffe",
    calls={w: c for w, c in call_spellings().items() if w not in _NOT_IN_FILES},
    contracts=contract_spellings(),
    unknown_call=unknown_call,
    family="priffe_records.rules.priffe.family",
    untagged=True,
    sides_result=True,
)
