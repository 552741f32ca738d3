"""What a replay shows, deal by deal: the model both the terminal and the HTML viewer draw.

The facts come from the rules engine only:
:func:`~priffe_records.rules.priffe.analysis.analyse_record` (which runs the
validator's trick replay, :func:`~priffe_records.rules.priffe.play.replay`)
says who led and who won each trick, what the contract is and what the deal
scores. This module merely arranges those facts into steps (the deal, then
trick after trick, then the score) and words them in Swedish or English, so
a viewer never re-implements a rule.

>>> from priffe_records.format.reader import loads
>>> text = '[Board "3"]\\n[Contract "Hjärter"]\\n[Declarer "E"]\\n[Result "NS 8 EW 5"]\\n'
>>> r = build_replays(list(loads(text)))[0]
>>> r.playable
False
>>> print(summary_line(r, WORDS["en"]).replace(" — ", "\\n"))
Board 3: Hearts by East, NS 8 EW 5
a score-sheet record without hands or play: nothing to replay
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from priffe_records.format.record import Location, Record
from priffe_records.game.calls import Call, Contract
from priffe_records.game.cards import SEATS, SUITS, Card, Deal, Rank, Seat, Side, Suit, sorted_cards
from priffe_records.game.evaluation import honour_tricks, show_hs
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.partie import parties
from priffe_records.rules.priffe.analysis import DealOutcome, analyse_record
from priffe_records.rules.priffe.options import HonoursVariant, Options
from priffe_records.rules.priffe.rubber import DealLine
from priffe_records.rules.priffe.scoring import DealScore, SidePoints, honour_cards, honour_holders

# ------------------------------------------------------------------ words


@dataclass(frozen=True, slots=True)
class Words:
    """Every label a replay prints, in one language; the engine's own messages stay English."""

    lang: str
    seats: tuple[str, str, str, str]  # N E S W
    short: tuple[str, str, str, str]
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
    honours: str
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
    unknown: str
    take: str
    tricks_word: str
    over: str
    under: str
    penalty_tricks_word: str
    each: str
    small_slam: str
    grand_slam: str
    penalty_slam: str
    no_slam: str
    honours_none: str
    game_points: str
    first_game: str
    second_game: str
    no_game: str
    forfeit: str
    deal_total: str
    rubber_total: str
    by: str
    step_help: str
    previous: str
    next: str
    deal_word: str
    cards_left: str

    def seat(self, seat: Seat) -> str:
        return self.seats[seat.index]

    def seat_short(self, seat: Seat) -> str:
        return self.short[seat.index]

    def rank(self, rank: Rank) -> str:
        return self.ranks.get(rank, rank.value)

    def card(self, card: Card) -> str:
        return card.suit.symbol + self.rank(card.rank)

    def suit_cards(self, cards: Sequence[Card]) -> str:
        """One suit's ranks high first, ``Ä K Kn 6 3``; a void is ``—``."""
        return " ".join(self.rank(c.rank) for c in sorted_cards(cards)) or "—"

    def call(self, call: Call | None) -> str:
        return "?" if call is None else call.word(self.lang)

    def card_group(self, cards: Sequence[Card]) -> str:
        """Cards grouped by suit, ``♥Ä K D Kn`` or ``♠Ä ♥Ä ♦Ä ♣Ä``."""
        groups = []
        for suit in SUITS:
            held = [c for c in cards if c.suit is suit]
            if held:
                groups.append(suit.symbol + self.suit_cards(held))
        return " ".join(groups)

    def contract_word(self, contract: Contract) -> str:
        return contract.word(self.lang)


_SV_RANKS = {Rank.ACE: "Ä", Rank.QUEEN: "D", Rank.JACK: "Kn", Rank.TEN: "10"}
_EN_RANKS = {Rank.TEN: "10"}

WORDS: dict[str, Words] = {
    "sv": Words(
        "sv", ("Nord", "Öst", "Syd", "Väst"), ("N", "Ö", "S", "V"), _SV_RANKS,
        board="Giv", rubber="Robbert", dealer="Given", forehand="Förhand",
        declarer="spelförare", contract="Kontrakt", trumps="trumf", no_trumps="ingen trumf",
        auction="Budgivning", honours="Honnörer", hs="hs", trick="Stick", lead="Utspel",
        cards="Kort i spelordning", winner="Tar", play="Spelet", score="Poäng",
        checks="Kontroll", stopped="Uppspelningen stannar här, vid ett otillåtet drag",
        claim="Resten av sticken tas i anspråk (*)", unknown="okänd",
        nothing="ett protokoll utan händer eller spel: inget att spela upp",
        take="tar", tricks_word="stick", over="över", under="under",
        penalty_tricks_word="straffstick", each="à",
        small_slam="lillslam", grand_slam="storslam", penalty_slam="straff", no_slam="ingen slam",
        honours_none="inga honnörspoäng", game_points="mot utgång",
        first_game="gör första utgången", second_game="gör andra utgången",
        no_game="ingen utgång", forfeit="förlorar sina poäng mot utgången",
        deal_total="Givets poäng", rubber_total="Robbert hittills", by="av",
        step_help="Enter/mellanslag/→ nästa · ← eller b tillbaka · q avsluta",
        previous="Föregående", next="Nästa", deal_word="Giv", cards_left="kort kvar"),
    "en": Words(
        "en", ("North", "East", "South", "West"), ("N", "E", "S", "W"), _EN_RANKS,
        board="Board", rubber="Rubber", dealer="Dealer", forehand="Forehand",
        declarer="declarer", contract="Contract", trumps="trumps", no_trumps="no trumps",
        auction="Auction", honours="Honours", hs="hs", trick="Trick", lead="Lead",
        cards="Cards in the order played", winner="Won by", play="The play", score="Score",
        checks="Checks", stopped="The replay stops here, at an illegal move",
        claim="The remaining tricks are claimed (*)", unknown="unknown",
        nothing="a score-sheet record without hands or play: nothing to replay",
        take="take", tricks_word="tricks", over="over", under="under",
        penalty_tricks_word="penalty tricks", each="×",
        small_slam="small slam", grand_slam="grand slam", penalty_slam="penalty",
        no_slam="no slam", honours_none="no honour points", game_points="toward game",
        first_game="makes its first game", second_game="makes its second game",
        no_game="no game", forfeit="forfeits its points toward that game",
        deal_total="Deal score", rubber_total="Rubber so far", by="by",
        step_help="Enter/space/→ next · ← or b back · q quit",
        previous="Previous", next="Next", deal_word="Deal", cards_left="cards left"),
}


def words(lang: str) -> Words:
    """The labels for ``sv`` or ``en``; anything else is a caller's mistake."""
    try:
        return WORDS[lang]
    except KeyError:
        raise ValueError(f"language {lang!r} is not available (use sv or en)") from None


# ------------------------------------------------------------------ model


@dataclass(frozen=True, slots=True)
class CallView:
    seat: Seat
    call: Call | None
    legal: bool
    errors: tuple[Finding, ...] = ()


@dataclass(frozen=True, slots=True)
class CardView:
    seat: Seat
    card: Card | None  # None: an unknown card '-'
    legal: bool
    comments: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class TrickView:
    """One trick as the validator replayed it; ``tally`` counts tricks after it."""

    number: int
    leader: Seat | None
    cards: tuple[CardView, ...]
    winner: Seat | None
    tally: SidePoints
    before: tuple[tuple[Card, ...] | None, ...]  # each seat's cards before the trick, N E S W
    errors: tuple[Finding, ...] = ()
    notes: tuple[Finding, ...] = ()

    @property
    def complete(self) -> bool:
        return len(self.cards) == 4


@dataclass(frozen=True, slots=True)
class HonourView:
    """The four honours of the contract (R17), who was dealt each, and what they score."""

    cards: tuple[Card, ...]
    holders: tuple[tuple[Card, Seat], ...] | None
    points: SidePoints | None
    variant: HonoursVariant


@dataclass(frozen=True, slots=True)
class ScoreLine:
    """One line of the score breakdown: a rule ID, the words and the points per side."""

    rule: str
    text: str
    points: SidePoints | None = None


@dataclass(frozen=True, slots=True)
class GameState:
    """Game points toward game and games won, before and after this deal (R18–R21)."""

    toward_before: SidePoints
    games_before: SidePoints
    bonus: SidePoints
    forfeit: SidePoints
    toward_after: SidePoints
    games_after: SidePoints
    rubber_total: SidePoints | None  # None once an earlier deal of the rubber was unscorable


@dataclass(frozen=True, slots=True)
class DealReplay:
    """Everything one record shows; ``steps`` is the number of trick steps to walk."""

    outcome: DealOutcome
    index: int  # 1-based position in the records given
    location: Location | None
    event: str | None
    site: str | None
    date: str | None
    rubber: str | None
    board: str | None
    players: tuple[str | None, ...]
    dealer: Seat | None
    forehand: Seat | None
    deal: Deal | None
    hs: tuple[Fraction | None, ...]
    contract: Contract | None
    declarer: Seat | None
    honours: HonourView | None
    calls: tuple[CallView, ...]
    tricks: tuple[TrickView, ...]
    stop: Finding | None  # the illegal move the replay stops at
    claimed: bool
    result: SidePoints | None
    game: GameState | None
    comments: tuple[str, ...]
    other_findings: tuple[Finding, ...]

    @property
    def playable(self) -> bool:
        """A score sheet (no hands, no auction, no play) has nothing to step through."""
        return self.deal is not None or bool(self.calls) or bool(self.tricks)

    @property
    def options(self) -> Options:
        return self.outcome.options

    @property
    def score(self) -> DealScore | None:
        return self.outcome.score

    @property
    def trump(self) -> Suit | None:
        return self.contract.trump if self.contract is not None else None

    def player(self, seat: Seat) -> str | None:
        return self.players[seat.index]

    @property
    def stop_errors(self) -> tuple[Finding, ...]:
        """Every error of the move the replay stops at (a trick may break R11 twice)."""
        if self.stop is None:
            return ()
        if self.tricks and self.stop in self.tricks[-1].errors:
            return self.tricks[-1].errors
        return (self.stop,)

    def tally(self, step: int) -> SidePoints:
        """Tricks per side after ``step`` tricks."""
        return self.tricks[step - 1].tally if step > 0 and self.tricks else SidePoints()

    def left(self, step: int) -> tuple[tuple[Card, ...] | None, ...]:
        """Each seat's cards after ``step`` tricks (N E S W), ``None`` for an unknown hand."""
        if step < len(self.tricks):
            return self.tricks[step].before
        hands = self.tricks[-1].before if self.tricks else _dealt(self.deal)
        if not self.tricks:
            return hands
        played = {c.card for c in self.tricks[-1].cards if c.card is not None}
        return tuple(None if h is None else tuple(c for c in h if c not in played)
                     for h in hands)


def _dealt(deal: Deal | None) -> tuple[tuple[Card, ...] | None, ...]:
    if deal is None:
        return (None, None, None, None)
    return tuple(None if (h := deal.hand(s)) is None else tuple(sorted_cards(h.cards))
                 for s in SEATS)


def _comments(texts: Sequence[str]) -> tuple[str, ...]:
    return tuple(t.strip() for t in texts if t.strip())


def _tricks(out: DealOutcome) -> tuple[tuple[TrickView, ...], Finding | None]:
    """The validator's tricks, with running counts and hands; cut at the first illegal card."""
    if out.play is None:
        return (), None
    views: list[TrickView] = []
    hands = [None if h is None else list(h) for h in _dealt(out.deal)]
    ns = ew = 0
    stop: Finding | None = None
    for t in out.play.tricks:
        before = tuple(None if h is None else tuple(h) for h in hands)
        cards = tuple(CardView(p.seat, p.card, p.legal,
                               _comments([c.text for c in p.token.comments]))
                      for p in t.cards)
        for p in t.cards:
            hand = hands[p.seat.index]
            if p.card is not None and hand is not None and p.card in hand:
                hand.remove(p.card)
        if t.winner is not None and len(t.cards) == 4:
            if t.winner.side is Side.NS:
                ns += 1
            else:
                ew += 1
        errors = tuple(f for f in t.findings if f.severity is Severity.ERROR)
        notes = tuple(f for f in t.findings if f.severity is not Severity.ERROR)
        views.append(TrickView(t.number, t.leader, cards, t.winner, SidePoints(ns, ew), before,
                               errors, notes))
        if errors:
            stop = errors[0]
            break
    return tuple(views), stop


def _calls(out: DealOutcome) -> tuple[tuple[CallView, ...], Finding | None]:
    """The auction's calls; an illegal one carries the engine's message and ends the replay."""
    if out.auction is None:
        return (), None
    views: list[CallView] = []
    for c in out.auction.calls:
        errs = tuple(f for f in out.auction.findings
                     if f.is_error and c.token.location is not None
                     and f.location == c.token.location)
        if not c.legal and not errs:
            errs = tuple(f for f in out.auction.findings if f.is_error)[:1]
        views.append(CallView(c.seat, c.call, c.legal, errs))
        if not c.legal:
            return tuple(views), errs[0] if errs else None
    return tuple(views), None


def _honours(out: DealOutcome) -> HonourView | None:
    if out.contract is None:
        return None
    cards = tuple(sorted_cards(honour_cards(out.contract, out.options)))
    holders = honour_holders(out.deal, frozenset(cards)) if out.deal is not None else None
    pairs = tuple((c, holders[c]) for c in cards) if holders is not None else None
    return HonourView(cards, pairs, out.honours, out.options.honours)


def _hs(deal: Deal | None) -> tuple[Fraction | None, ...]:
    if deal is None:
        return (None, None, None, None)
    return tuple(None if (h := deal.hand(s)) is None else honour_tricks(h) for s in SEATS)


def _key(f: Finding) -> tuple[object, ...]:
    """Findings compare without their record number (the driver adds it to copies)."""
    return (f.rule, f.severity, f.message, f.location)


def _game(line: DealLine, toward_before: SidePoints) -> GameState:
    step = line.step
    assert step is not None
    games = line.games or SidePoints()
    made = step.game_made
    before = games - SidePoints.one(made, 1) if made is not None else games
    ds = line.outcome.score
    toward = SidePoints() if made is not None or ds is None else toward_before + ds.game
    return GameState(toward_before, before, step.bonus, step.forfeit, toward, games,
                     line.totals)


def _books(records: Sequence[Record], preset: str
           ) -> tuple[dict[int, DealLine], dict[int, list[Finding]], dict[int, GameState]]:
    """The validator's own run over all records: outcomes, findings and rubber steps by index.

    The engine's :class:`~priffe_records.rules.priffe.rubber.PartieScorer` decides games,
    bonuses and forfeits; only the points toward the next game (which its
    lines do not carry) are followed here, for display.
    """
    lines: dict[int, DealLine] = {}
    found: dict[int, list[Finding]] = {}
    games: dict[int, GameState] = {}
    for p in parties(records, preset=preset):
        toward: dict[int, SidePoints] = {}
        for line in p.lines:
            i = line.outcome.index
            lines[i] = line
            if line.step is not None:
                games[i] = g = _game(line, toward.get(line.seq, SidePoints()))
                toward[line.seq] = g.toward_after
        for f in p.findings:
            if f.record is not None:
                found.setdefault(f.record, []).append(f)
    return lines, found, games


def build_replays(records: Sequence[Record], preset: str = "sv") -> list[DealReplay]:
    """Run the validator over the records and arrange each one for replay.

    All records are given (not just the one shown) so the rubber's games and
    totals follow it from its first deal, exactly as ``priffe validate`` sees
    them. ``preset`` is for records without a Scoring tag.
    """
    lines, found, games = _books(records, preset)
    out: list[DealReplay] = []
    for i, rec in enumerate(records, 1):
        line = lines.get(i)
        o = line.outcome if line is not None else replace(analyse_record(rec, preset), index=i)
        calls, call_stop = _calls(o)
        tricks, trick_stop = _tricks(o) if call_stop is None else ((), None)
        stop = call_stop or trick_stop
        forehand = o.dealer.left if o.dealer is not None else (
            calls[0].seat if calls else None)
        shown = {_key(f) for f in ([stop] if stop else [])}
        for c in calls:
            shown.update(_key(f) for f in c.errors)
        if o.play is not None:  # in the trick list, or after the stop and so never reached
            shown.update(_key(f) for f in o.play.findings)
        if o.auction is not None and call_stop is not None:
            shown.update(_key(f) for f in o.auction.findings)
        other = tuple(f for f in found.get(i, o.findings) if _key(f) not in shown
                      and f.severity is not Severity.UNVERIFIABLE)
        result = o.tricks
        if o.play is not None and o.play.complete and stop is None:
            result = o.play.won
        leading = [c.text for c in rec.leading] + [c.text for t in rec.tags
                                                    if t.name not in ("Auction", "Play")
                                                    for c in t.comments]
        out.append(DealReplay(
            o, i, rec.location, rec.get("Event"), rec.get("Site"), rec.get("Date"),
            rec.get("Rubber"), rec.get("Board"), o.players, o.dealer, forehand, o.deal,
            _hs(o.deal), o.contract, o.declarer, _honours(o), calls, tricks, stop,
            bool(o.play and o.play.claimed), result, games.get(i) if stop is None else None,
            _comments(leading), other))
    return out


# ------------------------------------------------------------------ wording


def title(r: DealReplay, w: Words) -> str:
    """``Klubbkväll · Uppsala · 2026.11.29 · Robbert 1 · Giv 1``."""
    parts = [p for p in (r.event, r.site, r.date) if p and p.strip() not in ("", "?")]
    if r.rubber:
        parts.append(f"{w.rubber} {r.rubber}")
    parts.append(f"{w.board} {r.board or r.index}")
    return " · ".join(parts)


def seat_label(r: DealReplay, seat: Seat, w: Words) -> str:
    """``Nord: Anna`` or just ``Nord`` when the record names nobody."""
    name = r.player(seat)
    return f"{w.seat(seat)}: {name}" if name else w.seat(seat)


def roles(r: DealReplay, w: Words) -> str:
    """``Given: Nord (Anna) · Förhand: Öst (Bertil)``."""
    def who(seat: Seat | None) -> str:
        if seat is None:
            return w.unknown
        name = r.player(seat)
        return f"{w.seat(seat)} ({name})" if name else w.seat(seat)
    return f"{w.dealer}: {who(r.dealer)} · {w.forehand}: {who(r.forehand)}"


def contract_line(r: DealReplay, w: Words) -> str:
    """``Kontrakt: Hjärter av Öst (spelförare) · trumf ♥``."""
    if r.contract is None:
        return f"{w.contract}: {w.unknown}"
    text = f"{w.contract}: {w.contract_word(r.contract)}"
    if r.declarer is not None:
        text += f" {w.by} {w.seat(r.declarer)} ({w.declarer})"
    trump = r.trump
    return text + f" · {w.trumps} {trump.symbol}" if trump else text + f" · {w.no_trumps}"


def hs_text(value: Fraction | None, w: Words) -> str:
    return "" if value is None else f"{show_hs(value)} {w.hs}"


def honours_line(r: DealReplay, w: Words) -> str | None:
    """Where the contract's honours lie and what they score (R17)."""
    h = r.honours
    if h is None:
        return None
    if not h.cards:
        return f"{w.honours}: {w.honours_none} (R17)"
    names = w.card_group(h.cards)
    parts: list[str] = []
    if h.holders is not None:
        by_seat: dict[Seat, list[Card]] = {}
        for card, seat in h.holders:
            by_seat.setdefault(seat, []).append(card)
        parts = [f"{w.seat_short(s)} {w.card_group(cs)}"
                 for s, cs in sorted(by_seat.items(), key=lambda kv: kv[0].index)]
    points = _points(h.points) if h.points is not None else "?"
    where = f": {', '.join(parts)}" if parts else ""
    return f"{w.honours} ({names}){where} → {points} (R17, honours={h.variant.value})"


def _points(p: SidePoints) -> str:
    if p == SidePoints():
        return "0"
    return " ".join(f"{s.value} {p[s]}" for s in Side if p[s])


def calls_text(r: DealReplay, w: Words) -> list[tuple[str, CallView]]:
    return [(f"{w.seat(c.seat)} {w.call(c.call)}", c) for c in r.calls]


def score_lines(r: DealReplay, w: Words) -> list[ScoreLine]:
    """The score breakdown, one line per rule, as the engine computed it."""
    ds = r.score
    if ds is None:
        return []
    side = ds.scoring_side.value
    took = r.result[ds.scoring_side] if r.result is not None else None
    word = w.penalty_tricks_word if ds.penalty else w.tricks_word
    per = 20 if ds.penalty else 10
    base = f"{ds.n} {w.over} 6" if ds.contract.kind == "positive" else f"{ds.n} {w.under} 7"
    lines = [ScoreLine("R14–R15", f"{side} {w.take} {took} {w.tricks_word} ({base}): {ds.n} "
                       f"{word} {w.each} {per} = {ds.trick_points}",
                       SidePoints.one(ds.scoring_side, ds.trick_points))]
    if ds.slam:
        name = w.grand_slam if ds.n == 7 else w.small_slam
        if ds.penalty:
            name = f"{w.penalty_slam} {name}" if w.lang == "en" else f"{w.penalty_slam}{name}"
        lines.append(ScoreLine("R16", f"{side} {name} +{ds.slam}",
                               SidePoints.one(ds.scoring_side, ds.slam)))
    else:
        lines.append(ScoreLine("R16", w.no_slam))
    hp = ds.honours
    lines.append(ScoreLine("R17", f"{w.honours}: {_points(hp)}" if hp != SidePoints()
                           else f"{w.honours}: {w.honours_none}", hp))
    lines.append(ScoreLine("R15–R17", f"{w.deal_total}: {ds.total}", ds.total))
    lines.append(ScoreLine("R18", f"{side} +{10 * ds.n} {w.game_points}", ds.game))
    g = r.game
    if g is None:
        return lines
    for s in Side:
        if g.bonus[s]:
            which = w.first_game if g.games_before[s] == 0 else w.second_game
            lines.append(ScoreLine("R19–R20", f"{s.value} {which}: +{g.bonus[s]}",
                                   SidePoints.one(s, g.bonus[s])))
        if g.forfeit[s]:
            lines.append(ScoreLine("R21", f"{s.value} {w.forfeit}: −{g.forfeit[s]}",
                                   SidePoints.one(s, -g.forfeit[s])))
    if g.bonus == SidePoints():
        t = g.toward_after
        lines.append(ScoreLine("R19", f"{w.no_game} ({w.game_points}: {t})"))
    if g.rubber_total is not None:
        lines.append(ScoreLine("R19–R21", f"{w.rubber_total}: {g.rubber_total}",
                               g.rubber_total))
    return lines


def summary_line(r: DealReplay, w: Words) -> str:
    """One line for a score-sheet record, which has nothing to step through."""
    head = f"{w.board} {r.board or r.index}"
    what: list[str] = []
    if r.contract is not None:
        c = w.contract_word(r.contract)
        what.append(f"{c} {w.by} {w.seat(r.declarer)}" if r.declarer else c)
    if r.result is not None:
        what.append(f"NS {r.result.ns} EW {r.result.ew}")
    body = f": {', '.join(what)}" if what else ""
    return f"{head}{body} — {w.nothing}"


def where(f: Finding) -> str:
    """``file:line:col: message``: the validator's message with its place."""
    return f"{f.location}: {f.message}" if f.location is not None else f.message
