"""Priffe calls and contracts (R5, R8) and the words players write for them.

The canonical words are Swedish; import also accepts ASCII spellings,
English words and suit symbols, in any letter case (FORMAT.md).

>>> Call.parse("hjarter"), Call.parse("♥"), Call.parse("Play")
(<Call.HJARTER: 'Hjärter'>, <Call.HJARTER: 'Hjärter'>, <Call.SPELA: 'Spela'>)
>>> Call.SPELA.outranks(Call.NOLL)
True
>>> suggest_call("Hjärterr")
'Hjärter'
>>> Contract.parse("tvangsnoll")
<Contract.TVANGSNOLL: 'Tvångsnoll'>
>>> read_written("tv").contract, read_written("kl").word, sorted(contract_words())[:2]
(<Contract.TVANGSNOLL: 'Tvångsnoll'>, 'Klöver', ['diamonds', 'forced null'])
"""

from __future__ import annotations

import difflib
import enum
from dataclasses import dataclass

from priffe_records.game.cards import Suit
from priffe_records.game.errors import PriffeError
from priffe_records.game.language import Message, listing, msg
from priffe_records.game.words import plain_key


class Call(enum.Enum):
    """A call; ``value`` is the canonical export word."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    PASS = "Pass"
    KLOVER = "Klöver"
    SPADER = "Spader"
    RUTER = "Ruter"
    HJARTER = "Hjärter"
    NOLL = "Noll"
    SPELA = "Spela"

    @property
    def is_bid(self) -> bool:
        return self is not Call.PASS

    @property
    def height(self) -> int:
        """Bid rank (R5): Klöver 1 … Spela 6; Pass 0."""
        return _HEIGHT[self]

    def outranks(self, other: Call) -> bool:
        return self.height > other.height

    @classmethod
    def parse(cls, text: str) -> Call:
        """Read any accepted spelling; ``ValueError`` names the closest word."""
        key = text.casefold()
        if key in _CALL_WORDS:
            return _CALL_WORDS[key]
        hint = suggest_call(text)
        raise CallError(msg("unknown call {text!r} — did you mean {hint!r}?", text=text,
                            hint=hint) if hint else msg("unknown call {text!r}", text=text),
                        hint)

    def word(self, lang: str = "sv") -> str:
        return self.value if lang == "sv" else _CALL_EN[self]


_CALL_ORDER = (Call.PASS, Call.KLOVER, Call.SPADER, Call.RUTER, Call.HJARTER, Call.NOLL,
               Call.SPELA)
_HEIGHT = {c: i for i, c in enumerate(_CALL_ORDER)}
_CALL_EN = {Call.PASS: "Pass", Call.KLOVER: "Clubs", Call.SPADER: "Spades",
            Call.RUTER: "Diamonds", Call.HJARTER: "Hearts", Call.NOLL: "Null",
            Call.SPELA: "Play"}
_CALL_WORDS: dict[str, Call] = {}
for _call, _words in {
    Call.PASS: ("pass",),
    Call.KLOVER: ("klöver", "klover", "clubs", "club", "♣", "♧"),
    Call.SPADER: ("spader", "spades", "spade", "♠", "♤"),
    Call.RUTER: ("ruter", "diamonds", "diamond", "♦", "♢"),
    Call.HJARTER: ("hjärter", "hjarter", "hearts", "heart", "♥", "♡"),
    Call.NOLL: ("noll", "null", "nolo", "misère", "misere"),
    Call.SPELA: ("spela", "spelut", "play"),
}.items():
    for _w in _words:
        _CALL_WORDS[_w] = _call


class CallError(PriffeError, ValueError):
    """A call or contract word that cannot be read; ``suggestion`` is the closest word, if any.

    Callers branch on ``suggestion`` (a typo of a Priffe word, or another game's
    word altogether) instead of matching "did you mean" in the message.
    """

    def __init__(self, message: Message | str, suggestion: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.suggestion = suggestion


def suggest_call(text: str) -> str | None:
    """The canonical word closest to a misspelt call, if any is close."""
    words = [w for w in _CALL_WORDS if len(w) > 1]
    hit = difflib.get_close_matches(text.casefold(), words, n=1, cutoff=0.75)
    return _CALL_WORDS[hit[0]].value if hit else None


def unknown_call(word: str) -> Message:
    """An unknown word in a Priffe auction, with the closest Priffe call and the calls."""
    hint = suggest_call(word)
    return (msg("unknown call {word!r} — did you mean {hint!r}? (calls: Pass Klöver Spader "
                "Ruter Hjärter Noll Spela)", word=word, hint=hint) if hint else
            msg("unknown call {word!r} (calls: Pass Klöver Spader Ruter Hjärter Noll Spela)",
                word=word))


def call_spellings() -> dict[str, str]:
    """Every word read as a call (case-folded) and the call's canonical word."""
    return {w: c.value for w, c in _CALL_WORDS.items()}


class Contract(enum.Enum):
    """What is played (R8); ``value`` is the canonical export word."""

    __hash__ = object.__hash__  # members are singletons; Enum's own hash is slow

    SPELA = "Spela"
    NOLL = "Noll"
    HJARTER = "Hjärter"
    RUTER = "Ruter"
    TVANGSNOLL = "Tvångsnoll"
    PASSNOLL = "Passnoll"

    @property
    def trump(self) -> Suit | None:
        return _TRUMP.get(self)

    @property
    def kind(self) -> str:
        """``positive``, ``negative`` or ``forced`` (the scoring chapter of RULES.md)."""
        return _KIND[self]

    @property
    def has_declarer(self) -> bool:
        return _KIND[self] != "forced"

    @classmethod
    def parse(cls, text: str) -> Contract:
        key = text.casefold()
        if key in _CONTRACT_WORDS:
            return _CONTRACT_WORDS[key]
        hit = difflib.get_close_matches(key, list(_CONTRACT_WORDS), n=1, cutoff=0.75)
        if hit:
            hint = _CONTRACT_WORDS[hit[0]].value
            raise CallError(msg("unknown contract {text!r} — did you mean {hint!r}?", text=text,
                                hint=hint), hint)
        raise CallError(msg("unknown contract {text!r}", text=text))

    def word(self, lang: str = "sv") -> str:
        return self.value if lang == "sv" else _CONTRACT_EN[self]


_CONTRACT_EN = {Contract.SPELA: "Play", Contract.NOLL: "Null", Contract.HJARTER: "Hearts",
                Contract.RUTER: "Diamonds", Contract.TVANGSNOLL: "Forced null",
                Contract.PASSNOLL: "Pass null"}
# Read in the engine's inner loops: a table, not a branch or a new dict per question.
_TRUMP = {Contract.HJARTER: Suit.H, Contract.RUTER: Suit.D}
_KIND = {c: "positive" if c in (Contract.SPELA, Contract.HJARTER, Contract.RUTER)
         else "negative" if c is Contract.NOLL else "forced" for c in Contract}
_CONTRACT_WORDS: dict[str, Contract] = {}
for _con, _cwords in {
    Contract.SPELA: ("spela", "spelut", "play"),
    Contract.NOLL: ("noll", "null"),
    Contract.HJARTER: ("hjärter", "hjarter", "hearts", "♥"),
    Contract.RUTER: ("ruter", "diamonds", "♦"),
    Contract.TVANGSNOLL: ("tvångsnoll", "tvangsnoll", "forced null", "forcednull"),
    Contract.PASSNOLL: ("passnoll", "pass null", "passnull"),
}.items():
    for _w in _cwords:
        _CONTRACT_WORDS[_w] = _con


def contract_spellings() -> dict[str, str]:
    """Every word read as a contract (case-folded) and the contract's canonical word."""
    return {w: c.value for w, c in _CONTRACT_WORDS.items()}


def contract_words() -> tuple[str, ...]:
    """Every word read as a contract (lower case): what tab completion offers."""
    return tuple(_CONTRACT_WORDS)


# R8: the contract each final bid makes. Spader and Klöver are information bids: as the
# final bid they make the contract Tvångsnoll, which has no declarer.
FINAL_BID_CONTRACT: dict[Call, Contract] = {
    Call.SPELA: Contract.SPELA, Call.NOLL: Contract.NOLL, Call.HJARTER: Contract.HJARTER,
    Call.RUTER: Contract.RUTER, Call.SPADER: Contract.TVANGSNOLL,
    Call.KLOVER: Contract.TVANGSNOLL}


@dataclass(frozen=True, slots=True)
class Written:
    """A contract as the secretary reads it off the score sheet: the contract (R8), and
    the final bid written in its place when that bid names another contract (Klöver or
    Spader for a Tvångsnoll)."""

    contract: Contract
    final_bid: Call | None = None

    @property
    def word(self) -> str:
        """The word written: the final bid's when one was, else the contract's."""
        return self.final_bid.value if self.final_bid is not None else self.contract.value


# What a secretary writes on the paper beyond the file's words (every contract's and every
# final bid's spelling is read too): the suits' short forms, the players' names for the
# contracts. Keys are compared as plain_key folds them (no case, no accents).
_PAPER_ONLY: dict[str, Call | Contract] = {
    "kl": Call.KLOVER, "sp": Call.SPADER, "hj": Call.HJARTER, "ru": Call.RUTER,
    "sang": Contract.SPELA, "sangspel": Contract.SPELA,
    "misär": Contract.NOLL, "misärspel": Contract.NOLL,
    "passnolla": Contract.PASSNOLL, "tvångsnolla": Contract.TVANGSNOLL,
}


def _written(word: Call | Contract) -> Written:
    if isinstance(word, Contract):
        return Written(word)
    contract = FINAL_BID_CONTRACT[word]
    return Written(contract, word if contract.kind == "forced" else None)


# The one table of words read from the paper: plain key → what it says.
_SPOKEN: list[tuple[str, Call | Contract]] = [
    *_CONTRACT_WORDS.items(), *((w, c) for w, c in _CALL_WORDS.items() if c in FINAL_BID_CONTRACT),
    *_PAPER_ONLY.items()]
PAPER_WORDS: dict[str, Written] = {}
for _key, _word in _SPOKEN:
    PAPER_WORDS.setdefault(plain_key(_key), _written(_word))


def is_final_bid(text: str) -> bool:
    """Whether ``text`` is a final bid that names another contract (``Klöver``, ``sp``:
    a Tvångsnoll, R8), as the paper may write it where the contract goes."""
    word = PAPER_WORDS.get(plain_key(text))
    return word is not None and word.final_bid is not None


def read_written(text: str) -> Written:
    """A contract as written on the paper: any word of :data:`PAPER_WORDS` (any case, with
    or without accents), or the start of words that all say one thing (``tv``).

    Raises :class:`CallError` for a word that could say several things or none, with
    the closest word as its suggestion.

    >>> read_written("Klöver"), read_written("SP").word, read_written("hjarter").contract
    (Written(contract=<Contract.TVANGSNOLL: 'Tvångsnoll'>, final_bid=<Call.KLOVER: 'Klöver'>), \
'Spader', <Contract.HJARTER: 'Hjärter'>)
    >>> read_written("passnolla").contract, read_written("Misär").contract
    (<Contract.PASSNOLL: 'Passnoll'>, <Contract.NOLL: 'Noll'>)
    """
    key = plain_key(text)
    exact = PAPER_WORDS.get(key)
    if exact is not None:
        return exact
    hits = {w for k, w in PAPER_WORDS.items() if key and k.startswith(key)}
    if len(hits) == 1:
        return hits.pop()
    if hits:
        words = sorted({w.word for w in hits})
        raise CallError(msg("{text!r} could be {choices}", text=text.strip(),
                            choices=listing(words, "or")))
    near = difflib.get_close_matches(key, [k for k in PAPER_WORDS if len(k) > 2], n=1,
                                     cutoff=0.75)
    if near:
        hint = PAPER_WORDS[near[0]].word
        raise CallError(msg("unknown contract {text!r} — did you mean {hint!r}?",
                            text=text.strip(), hint=hint), hint)
    raise CallError(msg("unknown contract {text!r}", text=text.strip()))
