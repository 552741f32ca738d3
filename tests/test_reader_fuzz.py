"""No input makes the reader or the validator raise: problems come back located."""

from __future__ import annotations

import io

from conftest import scaled
from hypothesis import given
from hypothesis import strategies as st

from priffe_records import BadRecord, Record, dumps, loads, validate

PIECES = ['[', ']', '"', '\\', '{', '}', ';', '%', '#', '##', '\n', '\n\n', ' ', '\t', '*',
          '+', '-', '--', '=1=', '$3', '!', '?', '^I', '^S', '^R', '^L', 'Event', 'Auction',
          'Play', 'Deal', 'Dealer', 'Result', 'Contract', 'Note', 'N', 'E', 'S', 'W', 'N:',
          'Hjärter', 'Pass', 'Spela', 'SA', 'h10', '♥K', 'AKQ.JT9.876.543', '.', '1NT', 'x',
          'NS 8', 'EW', '13', 'é', '\x00', '\x7f', '\u2028']

texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


@scaled(4)  # cheap texts: many of them
@given(texts)
def test_any_text_reads_and_validates_without_raising(text: str) -> None:
    out = list(loads(text, errors="collect", name="fuzz.ppn"))
    for item in out:
        if isinstance(item, BadRecord):
            assert item.errors and all(e.location.line >= 1 and e.location.column >= 1
                                       for e in item.errors)
        else:
            assert isinstance(item, Record)
    for f in validate(out):
        assert f.rule and f.message
    good = [r for r in out if isinstance(r, Record)]
    assert list(loads(dumps(good), errors="collect")) == good


SEMANTIC = {
    "Dealer": ["N", "E", "S", "W", "", "?"],
    "Deal": ["N:KJ.A7.AQ3.AKQJ63 A64.T9863.T8742. T9872.KQ2.KJ6.85 Q53.J54.95.T9742",
             "N:- - - -", "E:AKQJT98765432... - - -", "N:AK.. - - -"],
    "Scoring": ["Priffe", "Priffe;preset=en", "Priffe;must_trump=on", "IMP", "Priffe;x=1", ""],
    "Contract": ["Spela", "Noll", "Hjärter", "Ruter", "Tvångsnoll", "Passnoll", "5C", ""],
    "Declarer": ["N", "E", "S", "W", "", "Q"],
    "Result": ["NS 10 EW 3", "NS 7 EW 6", "NS 14", "9", "", "NS 13 EW 0", "EW 5 NS 9"],
    "Score": ["NS 80 EW 0", "NS 0 EW 20", "garbage", "NS 10"],
    "Honours": ["NS 40 EW 0", "NS 0 EW 0", "x"],
    "ScoreRubber": ["NS 90 EW 0", "NS 0 EW 0", "?"],
    "Settlement": ["N 12;S 12;E -12;W -12", "N 1", ""],
    "Rubber": ["1", "2", "x", ""],
    "Board": ["1", "2", "3", ""],
}


@st.composite
def semantic_records(draw: st.DrawFn) -> Record:
    from strategies import auction_tags, play_tags

    from priffe_records.format.record import Tag

    tags = [Tag(name, draw(st.sampled_from(values))) for name, values in SEMANTIC.items()
            if draw(st.booleans())]
    if draw(st.booleans()):
        tags.append(draw(auction_tags))
    if draw(st.booleans()):
        tags.append(draw(play_tags))
    return Record(tuple(tags))


@scaled(2)
@given(st.lists(semantic_records(), min_size=1, max_size=5))
def test_odd_records_validate_score_and_replay_without_raising(records: list[Record]) -> None:
    from rich.console import Console

    from priffe_records.replay.html import render_page
    from priffe_records.replay.model import build_replays
    from priffe_records.replay.terminal import full_view
    from priffe_records.replay.wording import WORDS
    from priffe_records.rules.priffe.sheet import score_parties

    for f in validate(records):
        assert f.rule and f.message and f.severity
    assert isinstance(score_parties(records), list)
    replays = build_replays(records)
    console = Console(width=100, record=True, file=io.StringIO())
    for replay in replays:
        console.print(full_view(replay, WORDS["sv"]))
    if replays:
        assert "<html" in render_page(replays, WORDS["en"]).lower()
