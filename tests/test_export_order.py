"""Export order (FORMAT.md, PBN §3.1): what the canonical text of every import is written in.

``export_order`` takes one lookup a tag and returns a record already in order as it is;
these pin the order it gives, written out by hand.
"""

from __future__ import annotations

from priffe_records.format.reader import loads
from priffe_records.format.record import export_order


def _names(text: str) -> list[str]:
    [rec] = loads(text)
    return [t.name for t in export_order(rec.tags)]


def test_tags_out_of_order_go_to_export_order_notes_with_their_section() -> None:
    text = ('[Note "1:before any section"]\n[Zeta "z"]\n[Score "NS 0 EW 0"]\n'
            '[Play "N"]\nSA S2 S3 S4\n[Note "2:of the play"]\n[Board "1"]\n'
            '[Auction "E"]\nPass\n[Note "3:of the auction"]\n[Alpha "a"]\n'
            '[OptimumResultTable "Declarer;Denomination\\\\2R;Result\\\\2R"]\nN NT 6\n'
            '[Event "e"]\n[Deal "N:AKQJ.T987.65.432 T987.65.432.AKQJ 65.432.AKQJ.T987 '
            '432.AKQJ.T987.65"]\n')
    assert _names(text) == ["Event", "Board", "Deal", "Auction", "Note", "Play", "Note",
                            "Note", "Score", "Alpha", "Zeta", "OptimumResultTable"]


def test_a_record_in_export_order_keeps_its_tags() -> None:
    [rec] = loads('[Event "e"]\n[Board "1"]\n[Auction "E"]\nPass\n[Note "1:x"]\n'
                  '[Score "NS 0 EW 0"]\n[Alpha "a"]\n[Zeta "z"]\n')
    assert export_order(rec.tags) == list(rec.tags)
