"""Helpers for the rules tests: build small PPN texts and look at their findings."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from priffe_records import loads
from priffe_records.format import record as record_module
from priffe_records.game.cards import FULL_DECK, SEATS, Card, Seat, sorted_cards
from priffe_records.rules.findings import Finding, Severity
from priffe_records.rules.validate import validate

DATA = Path(__file__).resolve().parent / "data"
FORMAT_EXAMPLE = (DATA / "format-example.ppn").read_text(encoding="utf-8")


def ppn(tags: dict[str, str], auction: tuple[str, str] | None = None,
        play: tuple[str, str] | None = None, extra: dict[str, str] | None = None) -> str:
    """A record: tags in order, then ``[Auction "seat"]`` calls and ``[Play "seat"]`` cards."""
    lines = [f'[{k} "{v}"]' for k, v in tags.items()]
    if auction is not None:
        lines += [f'[Auction "{auction[0]}"]', auction[1]]
    if play is not None:
        lines += [f'[Play "{play[0]}"]', play[1]]
    lines += [f'[{k} "{v}"]' for k, v in (extra or {}).items()]
    return "\n".join(lines) + "\n"


def set_tag(text: str, name: str, value: str) -> str:
    """Replace (or add at the end) one tag's value."""
    pat = re.compile(r'^\[' + name + r' "[^"]*"\]', re.M)
    if pat.search(text):
        return pat.sub(f'[{name} "{value}"]', text, count=1)
    return text.rstrip("\n") + f'\n[{name} "{value}"]\n'


def drop_tag(text: str, name: str) -> str:
    return re.sub(r'^\[' + name + r' "[^"]*"\]\n', "", text, flags=re.M)


def set_section(text: str, name: str, seat: str, body: str) -> str:
    """Replace a section (its tag and the lines up to the next tag)."""
    pat = re.compile(r'^\[' + name + r' "[^"]*"\]\n(?:[^\[].*\n)*', re.M)
    new = f'[{name} "{seat}"]\n{body.strip()}\n'
    return pat.sub(lambda _: new, text, count=1) if pat.search(text) else text + new


def findings(text: str, **kw: object) -> list[Finding]:
    return validate(loads(text), **kw)  # type: ignore[arg-type]


def rules(text: str, severity: Severity | None = Severity.ERROR, **kw: object) -> list[str]:
    return [f.rule for f in findings(text, **kw) if severity is None or f.severity is severity]


def errors(text: str, **kw: object) -> list[Finding]:
    return [f for f in findings(text, **kw) if f.is_error]


def deal_with(fixed: dict[Seat, list[str]], dealer: Seat = Seat.N) -> str:
    """A full Deal value: the given cards where asked, the rest dealt round the table."""
    hands: dict[Seat, list[Card]] = {s: [Card.parse(c) for c in fixed.get(s, [])] for s in SEATS}
    used = {c for h in hands.values() for c in h}
    rest = [c for c in sorted_cards(FULL_DECK) if c not in used]
    for seat in SEATS:
        while len(hands[seat]) < 13:
            hands[seat].append(rest.pop())
    out = []
    for seat in dealer.rotation():
        suits = []
        for suit in "SHDC":
            ranks = [c.rank for c in sorted_cards(hands[seat]) if c.suit.value == suit]
            suits.append("".join(r.value for r in ranks))
        out.append(".".join(suits))
    return f"{dealer.value}:" + " ".join(out)


def sheet(contract: str, declarer: str, result: str, honours: str = "NS 0 EW 0",
          **more: str) -> str:
    """A score-sheet record (no hands, no auction, no play)."""
    tags = {"Event": "Test", "Contract": contract, "Declarer": declarer, "Result": result,
            "Honours": honours}
    tags.update(more)
    return ppn(tags)


def counting_places(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Count every place ``word_places`` yields: the work of locating tokens in the file."""
    seen = [0]
    real = record_module.word_places

    def counted(text: str, line: int, column: int) -> Iterator[tuple[int, int]]:
        for place in real(text, line, column):
            seen[0] += 1
            yield place

    monkeypatch.setattr(record_module, "word_places", counted)
    return seen
