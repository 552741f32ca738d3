"""The partie's books (P2, P12–P14): the pot, the antes and each player's balance.

Fed the deals of one partie in order, the books pay the antes whenever the
pot is empty (P13), settle each deal against the pot (P12) and compare the
claimed Score, Pot and Balance with their own (P14). When a deal cannot be
settled the books no longer know the pot; they take the next claimed Pot
and Balance as written (and say so) and go on from there, as a scorer
copying the totals from the sheet would.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from priffe_records.format.record import Location
from priffe_records.game.cards import Seat
from priffe_records.game.language import msg, reason
from priffe_records.game.words import seat_name
from priffe_records.rules.family import KeptBooks
from priffe_records.rules.findings import Finding, error, sort_key, tag_location, unverifiable
from priffe_records.rules.players import PartieNames, name_slips
from priffe_records.rules.preference.bids import format_seat_numbers

from .analysis import PrefOutcome
from .deal import given
from .payments import Payments, payments, settle
from .table import PLAYERS, next_player, seat_numbers


@dataclass(frozen=True, slots=True)
class PrefLine:
    """One deal on the partie sheet; ``None`` where the books do not know."""

    outcome: PrefOutcome
    ante: int  # antes paid before this deal, per player (0 when the pot held something,
    # or when the ante is not known)
    score: dict[Seat, int] | None
    pot: int | None  # after the deal
    balances: dict[str, int] | None  # by player (name, or seat letter when nameless)


@dataclass(frozen=True, slots=True)
class PrefPartie:
    """A Préférence partie: its deals in order, the final standings and every finding."""

    event: str | None
    site: str | None
    date: str | None
    lines: tuple[PrefLine, ...] = ()
    standings: tuple[tuple[str, int], ...] = ()
    pot: int | None = None
    findings: tuple[Finding, ...] = field(default=())
    family: str = "Preference"

    def with_findings(self, findings: tuple[Finding, ...]) -> PrefPartie:
        return replace(self, findings=findings)


def _owner(o: PrefOutcome, seat: Seat) -> str:
    return o.player(seat) or seat.value


def _fmt_scores(score: dict[Seat, int]) -> str:
    return format_seat_numbers({s.value: v for s, v in score.items()}, scores=True)


class PrefBooks(KeptBooks):
    """Running pot and balances of one partie."""

    def __init__(self, event: str | None, site: str | None, date: str | None) -> None:
        self.event, self.site, self.date = event, site, date
        self.pot: int | None = 0
        self.balances: dict[str, int] | None = {}
        self.lines: list[PrefLine] = []
        self.findings: list[Finding] = []
        self.last: PrefOutcome | None = None
        self._names = PartieNames(len(PLAYERS))

    def lost(self, where: Location, index: int) -> None:
        """An unreadable record inside the partie: from here on the books are unsure."""
        if self.pot is not None:
            note = unverifiable("P14", msg("a record of this partie could not be read, so the "
                                        "pot and balances after it are taken from the next "
                                        "claims"),
                                where)
            self.findings.append(note.at_record(index))
        self.pot = None
        self.balances = None

    def add(self, o: PrefOutcome) -> PrefLine:
        f, _ = name_slips(self._names, o.record, o.players, PLAYERS, "P1")
        self._rotation(o, f)
        players = [_owner(o, s) for s in PLAYERS]
        ante = 0
        pot = self.pot
        balances = None if self.balances is None else dict(self.balances)
        if balances is not None:
            for name in players:
                balances.setdefault(name, 0)
        known_ante = o.options.ante
        if pot == 0 and known_ante is None:
            pot = balances = None  # the Scoring tag's ante cannot be used (P13)
        elif pot == 0 and known_ante is not None:
            ante = known_ante  # P13
            pot = 3 * ante
            if balances is not None:
                for name in players:
                    balances[name] -= ante
        score: dict[Seat, int] | None = None
        pot_before = pot
        p: Payments | None = o.payments
        if p is not None and o.declarer is not None and pot is not None:
            s = settle(p, pot)
            score, pot = s.score, s.pot
            if balances is not None:
                for seat in PLAYERS:
                    balances[_owner(o, seat)] += score[seat]
        else:
            pot = None
            balances = None
        self._check_score(o, score, p, pot_before, f)
        pot, balances = self._check_pot(o, pot, balances, players, f)
        self.pot, self.balances, self.last = pot, balances, o
        line = PrefLine(o, ante, score, pot, balances)
        self.lines.append(line)
        self.findings.extend(x.at_record(o.index) for x in f)
        return line

    def _rotation(self, o: PrefOutcome, f: list[Finding]) -> None:
        """P2: the deal passes clockwise, W skipped."""
        prev = self.last
        if prev is None or prev.dealer is None or o.dealer is None:
            return
        b0, b1 = prev.record.get("Board"), o.record.get("Board")
        # ASCII digits only: "²".isdigit() is true, and int() of it raises.
        if b0 and b1 and all(b.isascii() and b.isdigit() and len(b) < 10 for b in (b0, b1)) \
                and int(b1) != int(b0) + 1:
            return  # deals missing between: nothing to compare
        want = next_player(prev.dealer)
        if o.dealer is not want:
            f.append(error("P2", msg("{seat} deals, but after {prev} the deal passes to {want}",
                                      seat=seat_name(o.dealer),
                                     prev=seat_name(prev.dealer), want=seat_name(want)),
                           tag_location(o.record, "Dealer")))

    def _check_score(self, o: PrefOutcome, score: dict[Seat, int] | None,
                     p: Payments | None, pot_before: int | None, f: list[Finding]) -> None:
        text = o.record.get("Score")
        if not given(text):
            return
        assert text is not None
        try:
            raw = seat_numbers(text, scores=True)
        except ValueError as e:
            f.append(error("P14", msg("Score {reason}", reason=reason(e)),
                           tag_location(o.record, "Score")))
            return
        claimed = {s: raw.get(s, 0) for s in PLAYERS}
        if score is None or pot_before is None:
            if p is not None:
                f.append(unverifiable("P14", msg("Score {text!r}: the pot before this deal is not "
                                              "known, so the score is taken as written",
                                              text=text), tag_location(o.record, "Score")))
            return
        if claimed == score:
            return
        rule = _score_rule(o, claimed, score, pot_before)
        f.append(error(rule, msg("Score says {claimed}, but the deal pays {score}",
                                   claimed=_fmt_scores(claimed), score=_fmt_scores(score)),
                       tag_location(o.record, "Score")))

    def _check_pot(self, o: PrefOutcome, pot: int | None, balances: dict[str, int] | None,
                   players: list[str], f: list[Finding]
                   ) -> tuple[int | None, dict[str, int] | None]:
        """P14 on Pot and Balance; unknown books take the claims as written."""
        text = o.record.get("Pot")
        if given(text):
            assert text is not None
            v = text.strip()
            if not (v.isascii() and v.isdigit() and len(v) < 10):
                f.append(error("P14", msg("Pot {text!r} must be a whole number, e.g. '60'",
                                          text=text), tag_location(o.record, "Pot")))
            elif pot is None:
                f.append(unverifiable("P14", msg("Pot {value}: the pot is not known here, so it is "
                                                 "taken as written", value=v),
                                      tag_location(o.record, "Pot")))
                pot = int(v)
            elif int(v) != pot:
                f.append(error("P14", msg("Pot says {value}, but the pot holds {pot} after this "
                                          "deal", value=v, pot=pot),
                               tag_location(o.record, "Pot")))
        text = o.record.get("Balance")
        if given(text):
            assert text is not None
            try:
                raw = seat_numbers(text, scores=True)
            except ValueError as e:
                f.append(error("P14", msg("Balance {reason}", reason=reason(e)),
                               tag_location(o.record, "Balance")))
                return pot, balances
            claimed = {_owner(o, s): v for s, v in raw.items()}
            if balances is None:
                if self.balances is not None or self.lines:
                    f.append(unverifiable("P14", msg("Balance {text!r}: the balances are not known "
                                                  "here, so they are taken as written",
                                                  text=text), tag_location(o.record, "Balance")))
                balances = dict(claimed) if len(claimed) == 3 else None
            else:
                wrong = [(name, v) for name, v in claimed.items() if balances.get(name) != v]
                if wrong or len(claimed) != 3:
                    want = format_seat_numbers({s.value: balances[_owner(o, s)]
                                                for s in PLAYERS}, scores=True)
                    f.append(error("P14", msg("Balance says {claimed}, but the balances are {want}",
                                              claimed=text.strip(), want=want),
                               tag_location(o.record, "Balance")))
        return pot, balances

    def close(self) -> PrefPartie:
        standings: tuple[tuple[str, int], ...] = ()
        if self.balances is not None:
            standings = tuple(sorted(self.balances.items(), key=lambda kv: (-kv[1], kv[0])))
        return PrefPartie(self.event, self.site, self.date, tuple(self.lines), standings,
                          self.pot, tuple(sorted(self.findings, key=sort_key)))


def _score_rule(o: PrefOutcome, claimed: dict[Seat, int], score: dict[Seat, int],
                pot_before: int) -> str:
    """Which rule a wrong Score most likely missed: the antes (P13), made or not (P11), P12."""
    ante = o.options.ante
    if ante and all(claimed[s] == score[s] - ante for s in PLAYERS):
        return "P13"
    t = o.tricks
    if t is not None and o.declarer is not None:
        for seat in t:
            alt = dict(t)
            need = 6 if seat is o.declarer else 2
            alt[seat] = need - 1 if t[seat] >= need else need
            other = payments(o.dealer, o.declarer, alt, o.out, o.gave_up)
            if other is not None and settle(other, pot_before).score == claimed:
                return "P11"
    return "P12"
