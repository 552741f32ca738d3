"""The peer: endplay, a bridge PBN library, reading the bridge twin of our benchmark file.

The twin of a generated Priffe deal is a bridge record of the same deal and the same
tricks of play, with contract ``1H``: the declarer sits right of the seat that led, so
the play table starts at the same seat and holds the same cards in the same columns;
Result is the declaring side's tricks. The twin keeps the names, dates, board numbers
and the comment lines between tags; it has no Auction (Priffe calls are no bridge
bids) and no comments inside the play table (endplay's table reader does not take
them), so endplay reads slightly less text than we do.

``pip install -e '.[bench]'`` installs endplay.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from priffe_records.format.record import Record, TokenKind
from priffe_records.game.cards import Seat, Side
from priffe_records.rules.priffe.generate import iter_records

_KEEP = ("Event", "Site", "Date", "Board", "West", "North", "East", "South", "Dealer", "Deal")


def bridge_twin(rec: Record) -> str:
    """One bridge PBN record: the deal, the play and a 1H contract (see the module)."""
    lines: list[str] = []
    for name in _KEEP:
        tag = rec.tag(name)
        if tag is None:
            continue
        lines.append(f'[{name} "{tag.value}"]')
        lines.extend("{" + c.text + "}" for c in tag.comments)
        if name == "Dealer":
            lines.append('[Vulnerable "None"]')
    play = rec.play
    lead = Seat.parse(rec.get("Play") or "N")
    declarer = lead.right
    result = rec.get("Result") or "NS 0 EW 0"
    _, ns, _, ew = result.split()
    tricks = ns if declarer.side is Side.NS else ew
    contract = rec.tag("Contract")
    lines += [f'[Declarer "{declarer.value}"]', '[Contract "1H"]']
    lines.extend("{" + c.text + "}" for c in (contract.comments if contract else ()))
    lines += [f'[Result "{tricks}"]', f'[Play "{lead.value}"]']
    cards = [t.text for t in play.tokens if t.kind is not TokenKind.END] if play else []
    lines += [" ".join(cards[i:i + 4]) for i in range(0, len(cards), 4)]
    if play is not None and play.ended:
        lines.append("*")
    return "\n".join(lines) + "\n"


def write_twin(records: Iterable[Record], path: Path) -> None:
    with path.open("w", encoding="utf-8") as f:
        f.write("% PBN 2.1\n% EXPORT\n")
        for rec in records:
            f.write("\n" + bridge_twin(rec))


def twin_file(path: Path, n: int, seed: int, *, one_partie: bool = False) -> None:
    """The twin of ``generated_file(path, n, seed)``: the same generator, the same seed."""
    from timing import cached

    cached(path, "pbn", n, seed, one_partie,
           lambda: write_twin(iter_records(n, seed, comments=True, one_partie=one_partie), path))


def endplay_load(path: Path) -> int:
    """endplay's whole reader (it returns a list of boards) on ``path``; the number read."""
    try:
        from endplay.parsers import pbn
    except ImportError:  # pragma: no cover - the bench extra is missing
        raise SystemExit("endplay is the baseline: pip install -e '.[bench]'") from None
    with path.open(encoding="utf-8") as f:
        return len(pbn.load(f))
