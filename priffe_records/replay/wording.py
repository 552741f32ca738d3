"""The words of a replay, in Swedish or English: labels, and lines built from the model.

Kept apart from :mod:`priffe_records.replay.model` so the facts and their
wording change independently (a new language touches only this module).

>>> from priffe_records.format.reader import loads
>>> from priffe_records.replay.model import build_replays
>>> text = '[Board "3"]\\n[Contract "Hjärter"]\\n[Declarer "E"]\\n[Result "NS 8 EW 5"]\\n'
>>> r = build_replays(list(loads(text)))[0]
>>> print(summary_line(r, WORDS["en"]).replace(" — ", "\\n"))
Board 3: Hearts by East, NS 8 EW 5
a score-sheet record without hands or play: nothing to replay
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import NamedTuple

from priffe_records.format.values import is_unspecified
from priffe_records.game.cards import SEATS, SUITS, Card, Rank, Seat, sorted_cards
from priffe_records.game.language import LANGUAGES, Message, msg_p, render, shown_date
from priffe_records.game.words import rank_name, seat_letter, seat_name, shown_words
from priffe_records.replay.model import CallView, DealReplay
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.repeats import counted
from priffe_records.rules.replay_facts import Said

# ------------------------------------------------------------------ words


@dataclass(frozen=True, slots=True)
class Words:
    """Every label a replay prints, in one language; the engine's messages it shows are
    rendered in the same language (:func:`where`)."""

    lang: str
    seats: tuple[str, ...]  # N E S W, as Seat.index counts them
    short: tuple[str, ...]
    ranks: dict[Rank, str]
    board: str
    rubber: str
    dealer: str
    forehand: str
    declarer: str
    contract: str
    trumps: str
    no_trumps: str
    auction: str
    hs: str
    trick: str
    lead: str
    cards: str
    winner: str
    play: str
    score: str
    checks: str
    stopped: str
    claim: str
    nothing: str
    cannot: str
    unknown: str
    by: str
    talon: str
    discard: str
    dropped_out: str
    gives_up: str
    gave_up: str
    hold: str
    step_help: str
    previous: str
    next: str
    deal_word: str
    cards_left: str
    card_table: str  # the four hands' region, as a screen reader names it

    def seat(self, seat: Seat) -> str:
        return self.seats[seat.index]

    def seat_short(self, seat: Seat) -> str:
        return self.short[seat.index]

    def rank(self, rank: Rank) -> str:
        return self.ranks.get(rank, rank.value)

    def sides(self, text: str) -> str:
        """A side or the file's ``NS 8 EW 5`` as the reader names the sides (ÖV in Swedish)."""
        return shown_words(text, self.lang)

    def card(self, card: Card) -> str:
        return card.suit.symbol + self.rank(card.rank)

    def suit_cards(self, cards: Sequence[Card]) -> str:
        """One suit's ranks high first, ``Ä K Kn 6 3``; a void is ``—``."""
        return " ".join(self.rank(c.rank) for c in sorted_cards(cards)) or "—"

    def call(self, call: Said | None) -> str:
        return "?" if call is None else call.render(self.lang)

    def card_group(self, cards: Sequence[Card]) -> str:
        """Cards grouped by suit, ``♥Ä K D Kn`` or ``♠Ä ♥Ä ♦Ä ♣Ä``."""
        groups = []
        for suit in SUITS:
            held = [c for c in cards if c.suit is suit]
            if held:
                groups.append(suit.symbol + self.suit_cards(held))
        return " ".join(groups)

    def contract_word(self, contract: Said) -> str:
        return contract.render(self.lang)


def _labels() -> dict[str, Message]:
    """Every label's English text, looked up in the catalogue (context ``replay``) like any
    other message: the Swedish words live in the ``.po`` file, checked against the glossary."""
    return {
        "board": msg_p("replay", "Board"), "rubber": msg_p("replay", "Rubber"),
        "dealer": msg_p("replay", "Dealer"), "forehand": msg_p("replay", "Forehand"),
        "declarer": msg_p("replay", "declarer"), "contract": msg_p("replay", "Contract"),
        "trumps": msg_p("replay", "trumps"), "no_trumps": msg_p("replay", "no trumps"),
        "auction": msg_p("replay", "Auction"),
        "hs": msg_p("replay", "hs"), "trick": msg_p("replay", "Trick"),
        "lead": msg_p("replay", "Lead"), "cards": msg_p("replay", "Cards in the order played"),
        "winner": msg_p("replay", "Won by"), "play": msg_p("replay", "The play"),
        "score": msg_p("replay", "Score"), "checks": msg_p("replay", "Checks"),
        "stopped": msg_p("replay", "The replay stops here, at an illegal move"),
        "claim": msg_p("replay", "The remaining tricks are claimed (*)"),
        "unknown": msg_p("replay", "unknown"),
        "nothing": msg_p("replay",
                         "a score-sheet record without hands or play: nothing to replay"),
        "cannot": msg_p("replay", "cannot be replayed"),
        "talon": msg_p("pref replay", "Talon"), "discard": msg_p("pref replay", "discard"),
        "dropped_out": msg_p("pref replay", "dropped out"),
        "gives_up": msg_p("pref replay", "gives up"), "gave_up": msg_p("pref replay", "gave up"),
        "hold": msg_p("pref replay", "hold"),
        "by": msg_p("replay", "by"),
        "step_help": msg_p("replay", "Enter/space/→ next · ← or b back · q quit"),
        "previous": msg_p("replay", "Previous"), "next": msg_p("replay", "Next"),
        "deal_word": msg_p("replay", "Deal"), "cards_left": msg_p("replay", "cards left"),
        "card_table": msg_p("replay", "card table"),
    }


@cache
def words(lang: str) -> Words:
    """The labels for ``sv`` or ``en`` from the catalogue; anything else is a caller's
    mistake."""
    if lang not in LANGUAGES:
        raise ValueError(f"language {lang!r} is not available (use sv or en)")
    ranks = {r: rank_name(r).render(lang) for r in Rank}
    return Words(lang, tuple(seat_name(s).render(lang) for s in SEATS),
                 tuple(seat_letter(s).render(lang) for s in SEATS), ranks,
                 **{k: m.render(lang) for k, m in _labels().items()})


class _ByLanguage(Mapping[str, Words]):
    """``WORDS["sv"]``: the labels of a language, built from the catalogue when first asked."""

    def __getitem__(self, lang: str) -> Words:
        if lang not in LANGUAGES:
            raise KeyError(lang)
        return words(lang)

    def __iter__(self) -> Iterator[str]:
        return iter(LANGUAGES)

    def __len__(self) -> int:
        return len(LANGUAGES)


WORDS: Mapping[str, Words] = _ByLanguage()


# ------------------------------------------------------------------ wording


def title(r: DealReplay, w: Words) -> str:
    """``Klubbkväll · Uppsala · 29 nov. 2026 · Robbert 1 · Giv 1``."""
    parts = [p for p in (r.event, r.site, r.date and _date(r.date, w.lang))
             if p and not is_unspecified(p)]
    if r.rubber:
        parts.append(f"{w.rubber} {r.rubber}")
    parts.append(f"{w.board} {r.board or r.index}")
    return " · ".join(parts)


def seat_label(r: DealReplay, seat: Seat, w: Words) -> str:
    """``Nord: Anna`` or just ``Nord`` when the record names nobody."""
    name = r.player(seat)
    return f"{w.seat(seat)}: {name}" if name else w.seat(seat)


def seat_marks(r: DealReplay, seat: Seat, w: Words) -> str:
    """``Given, Förhand, spelförare``: the seat's roles in the deal, and a drop-out."""
    marks = [m for m, s in ((w.dealer, r.dealer), (w.forehand, r.forehand)) if s is seat
             and not (m is w.forehand and _dealer_calls_first(r))]
    if r.declarer is seat:
        marks.append(w.declarer)
    if seat in r.dropouts:
        marks.append(w.gave_up if seat is r.declarer else w.dropped_out)
    return ", ".join(marks)


def roles(r: DealReplay, w: Words) -> str:
    """``Given: Nord (Anna) · Förhand: Öst (Bertil)``."""
    def who(seat: Seat | None) -> str:
        if seat is None:
            return w.unknown
        name = r.player(seat)
        return f"{w.seat(seat)} ({name})" if name else w.seat(seat)
    return f"{w.dealer}: {who(r.dealer)}" + (
        "" if _dealer_calls_first(r) else f" · {w.forehand}: {who(r.forehand)}")


def _dealer_calls_first(r: DealReplay) -> bool:
    """Bridge: the dealer calls first, and a bridge player knows no forehand, so none is
    named (in Priffe and Préférence forehand is the dealer's left-hand player)."""
    return r.dealer is not None and r.forehand is r.dealer


def contract_line(r: DealReplay, w: Words) -> str:
    """``Kontrakt: Hjärter av Öst (spelförare) · trumf ♥``, then what a game of three
    adds: the declarer's discard, who dropped out, a give-up."""
    if r.contract is None:
        text = f"{w.contract}: {w.unknown}"
    else:
        text = f"{w.contract}: {w.contract_word(r.contract)}"
        if r.declarer is not None:
            text += f" {w.by} {w.seat(r.declarer)} ({w.declarer})"
        trump = r.trump
        text += f" · {w.trumps} {trump.symbol}" if trump else f" · {w.no_trumps}"
    if r.discard:
        text += f" · {w.discard} " + " ".join(w.card(c) for c in r.discard)
    out = [s for s in r.dropouts if s is not r.declarer]
    if out:
        text += f" · {w.dropped_out}: " + ", ".join(w.seat(s) for s in out)
    if r.gave_up and r.declarer is not None:
        text += f" · {w.seat(r.declarer)} {w.gives_up}"
    return text


def hs_text(value: str | None, w: Words) -> str:
    return "" if value is None else f"{value} {w.hs}"


# The same few dates come back deal after deal; Babel is slow to ask.
_date = lru_cache(maxsize=256)(shown_date)


def honours_line(r: DealReplay, w: Words) -> str | None:
    """Where the contract's honours lie and what they score, as the family words it."""
    return None if r.honours is None else r.honours.render(w.lang)


def calls_text(r: DealReplay, w: Words) -> list[tuple[str, CallView]]:
    return [(f"{w.seat(c.seat)} {w.call(c.words)}" + (f" ({w.hold})" if c.hold else ""), c)
            for c in r.calls]


class ScoreText(NamedTuple):
    """One line of the score breakdown in the replay's language."""

    rule: str
    text: str
    total: bool


def score_lines(r: DealReplay, w: Words) -> list[ScoreText]:
    """The score breakdown, one line per rule, as the family worded it."""
    return [ScoreText(s.rule, s.text.render(w.lang), s.total) for s in r.score]


def sheet_only(r: DealReplay) -> bool:
    """A score-sheet record: nothing to step through, and nothing wrong with it."""
    return not r.playable and not r.why_not


def summary_line(r: DealReplay, w: Words, brief: bool = False) -> str:
    """One line for a record with nothing to step through: a score sheet, or a record whose
    hands, auction or play cannot be used, followed by why (each error on a line).

    ``brief`` leaves out why a score sheet has nothing to replay, for a sheet listed right
    under another that said it: a 1952 partie of 14 sheet deals says it once, not 14 times.
    """
    head = f"{w.board} {r.board or r.index}"
    what: list[str] = []
    if r.contract is not None:
        c = w.contract_word(r.contract)
        what.append(f"{c} {w.by} {w.seat(r.declarer)}" if r.declarer else c)
    if r.result is not None:
        what.append(w.sides(r.result))
    body = f": {', '.join(what)}" if what else ""
    if r.why_not:
        lines = "".join(f"\n  {line}" for line, _ in check_lines(r.why_not, w))
        return f"{head}{body} — {w.cannot}:{lines}"
    return f"{head}{body}" if brief else f"{head}{body} — {w.nothing}"


def where(f: Finding, w: Words | None = None) -> str:
    """``file:line:col: message``: the validator's message with its place, in the replay's
    language (``w``), else the active one."""
    text = render(f.text, w.lang if w is not None else None)
    return f"{f.location}: {text}" if f.location is not None else text


def check_line(f: Finding, w: Words) -> str:
    """``error R11: file:line:col: message``, a finding in a replay's checks."""
    return f"{f.severity.word.render(w.lang)} {f.rule}: {where(f, w)}"


def check_lines(found: Sequence[Finding], w: Words) -> list[tuple[str, bool]]:
    """A replay's checks, each line with whether it is an error; a finding said more than
    three times is counted after its third (:func:`~priffe_records.rules.repeats.counted`)."""
    return [(check_line(f, w) if isinstance(f, Finding) else f.render(w.lang),
             f.severity is Severity.ERROR) for f in counted(found)]
