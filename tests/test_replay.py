"""The replay model: it must show exactly what the validator replays, and word it per language."""

from __future__ import annotations

import io
import json
from dataclasses import replace
from pathlib import Path

import pytest
from conftest import GOLDEN
from rich.console import Console

from priffe_records.format.reader import loads, read
from priffe_records.game.cards import Card, Seat
from priffe_records.replay.html import page_data, render_page, safe_json
from priffe_records.replay.model import build_replays
from priffe_records.replay.stepping import decode, move, walk
from priffe_records.replay.terminal import full_view, step_count, step_view
from priffe_records.replay.wording import WORDS, honours_line, score_lines, words
from priffe_records.rules.priffe.analysis import analyse_record

EXAMPLE = GOLDEN / "replay-example.ppn"
REVOKE = GOLDEN / "replay-revoke.ppn"
PARTIE = GOLDEN / "replay-partie.ppn"


def plain(renderable: object) -> str:
    buf = io.StringIO()
    Console(file=buf, width=100, color_system=None).print(renderable)
    return buf.getvalue()


def test_tricks_are_the_validators_tricks() -> None:
    [rec] = read(EXAMPLE)
    [r] = build_replays([rec])
    play = analyse_record(rec).play
    assert play is not None and len(r.tricks) == len(play.tricks) == 13
    for mine, theirs in zip(r.tricks, play.tricks, strict=True):
        assert mine.leader is theirs.leader
        assert mine.winner is theirs.winner
        assert [c.card for c in mine.cards] == [p.card for p in theirs.cards]
    assert r.tricks[-1].tally == (play.won.ns, play.won.ew) == (10, 3)
    assert r.tricks[0].leader is Seat.E and r.tricks[0].winner is Seat.N
    assert r.stop is None and r.other_findings == ()


def test_cards_left_shrink_trick_by_trick() -> None:
    [r] = build_replays(list(read(EXAMPLE)))
    for step in range(14):
        left = r.left(step)
        assert all(h is not None and len(h) == 13 - step for h in left), step
    assert r.tricks[0].cards[0].comments == () and r.tricks[0].cards[-1].comments == (
        "North takes the first trick",)


def test_score_breakdown_names_its_rules() -> None:
    [r] = build_replays(list(read(EXAMPLE)))
    lines = {line.rule: line.text for line in score_lines(r, WORDS["en"])}
    assert lines["R14–R15"] == "NS take 10 tricks (4 over 6): 4 penalty tricks × 20 = 80"
    assert lines["R16"] == "no slam"
    assert lines["R17"] == "Honours: no honour points"
    assert lines["R15–R17"] == "Deal score: NS 80 EW 0"
    assert lines["R18"] == "NS +40 toward game"
    assert lines["R19–R20"] == "NS makes its first game: +10"
    assert lines["R19–R21"] == "Rubber so far: NS 90 EW 0"
    sv = {line.rule: line.text for line in score_lines(r, WORDS["sv"])}
    assert sv["R14–R15"] == "NS tar 10 stick (4 över 6): 4 strafftrick à 20 = 80"
    assert sv["R15–R17"] == "Givens poäng: NS 80 ÖV 0"
    assert sv["R17"] == "Honnörer: inga poäng för honnörer"


def test_honours_line_per_language_and_variant() -> None:
    [r] = build_replays(list(read(EXAMPLE)))
    assert honours_line(r, WORDS["sv"]) == (
        "Honnörer (♥Ä K D Kn): N ♥Ä, S ♥K D, V ♥Kn → 0 (R17, honnörer räknas på en hand)")
    text = EXAMPLE.read_text("utf-8").replace('"Priffe"', '"Priffe;preset=en"')
    [en] = build_replays(list(loads(text)))
    assert honours_line(en, WORDS["en"]) == (
        "Honours (♥A K Q J): N ♥A, S ♥K Q, W ♥J → NS 20 (R17, honours count for the side)")


def test_second_game_follows_the_rubber() -> None:
    replays = build_replays(list(read(PARTIE)))
    assert [r.playable for r in replays] == [True, False, True]
    last = {line.rule: line.text for line in score_lines(replays[2], WORDS["en"])}
    assert last["R19–R20"] == "NS makes its second game: +20"
    assert last["R19–R21"] == "Rubber so far: NS 200 EW 0"


def test_illegal_card_stops_the_replay_with_the_validators_message() -> None:
    [r] = build_replays(list(read(REVOKE)))
    assert len(r.tricks) == 3 and r.stop is not None
    assert r.stop.rule == "R11" and "West plays ♣4 while holding ♦9" in r.stop.message
    assert r.stop.location is not None and (r.stop.location.line, r.stop.location.column) == (23, 7)
    assert [c.legal for c in r.tricks[2].cards] == [True, False, True, True]
    rules = [line.rule for line in score_lines(r, WORDS["en"])]
    assert "R15–R17" in rules and not [x for x in rules if x.startswith("R19")], "no game step"
    text = plain(full_view(r, WORDS["en"]))
    assert "The replay stops here, at an illegal move" in text
    assert "replay-revoke.ppn:23:7: trick 3: West plays ♣4" in text
    assert " 4   " not in text.split("The play:")[1].split("The replay")[0], "no trick 4"


def test_illegal_call_stops_before_the_play() -> None:
    text = EXAMPLE.read_text("utf-8").replace("Hjärter Pass Pass Pass", "Hjärter Ruter Pass Pass")
    [r] = build_replays(list(loads(text, name="x.ppn")))
    assert r.stop is not None and r.stop.rule == "R5" and r.tricks == ()
    assert [c.legal for c in r.calls] == [True, False]
    out = plain(full_view(r, WORDS["sv"]))
    # One language throughout: the engine's message is Swedish too (issue 12).
    flat = " ".join(out.split())
    assert "Syd Ruter !" in out and "x.ppn:19:9: Syd bjuder Ruter" in flat
    assert "South" not in out and "bids" not in out


def test_score_sheet_has_nothing_to_replay() -> None:
    r = build_replays(list(read(PARTIE)))[1]
    assert not r.playable and step_count(r) == 1
    assert plain(full_view(r, WORDS["sv"])).strip() == (
        "Giv 2: Spela av Nord, NS 7 ÖV 6 — ett protokoll utan händer eller spel: inget att "
        "spela upp")


def test_markup_in_names_is_text() -> None:
    text = EXAMPLE.read_text("utf-8").replace('"Anna"', '"[bold red]Anna[/]"')
    [r] = build_replays(list(loads(text)))
    assert "[bold red]Anna[/]" in plain(full_view(r, WORDS["en"]))


def test_step_view_shows_the_trick_in_the_middle() -> None:
    [r] = build_replays(list(read(EXAMPLE)))
    assert step_count(r) == 14
    out = plain(step_view(r, WORDS["en"], 1))
    assert "Trick 1" in out and "S ♥2" in out and "q quit" in out
    assert "Score:" not in out and "Score:" in plain(step_view(r, WORDS["en"], 13))


@pytest.mark.parametrize(("keys", "shown"), [
    ("right enter space q", [0, 1, 2, 3]),
    ("right left left b right", [0, 1, 0, 0, 0, 1]),
    ("x right", [0, 0, 1]),
])
def test_walk_follows_the_keys(keys: str, shown: list[int]) -> None:
    seen: list[int] = []
    presses = iter([*keys.split(), ""])
    walk(14, seen.append, lambda: next(presses))
    assert seen == shown


def test_next_on_the_last_position_ends() -> None:
    seen: list[int] = []
    walk(2, seen.append, iter(["right", "right"]).__next__)
    assert seen == [0, 1]
    assert move("left", 0, 5) == 0 and move("escape", 3, 5) is None


def test_decode_arrow_keys() -> None:
    assert [decode(k) for k in ("\x1b[C", "\x1b[D", "\r", " ", "Q", "\x1b", "\x03")] == [
        "right", "left", "enter", "space", "q", "escape", "ctrl-c"]


def test_words_refuses_unknown_language() -> None:
    with pytest.raises(ValueError, match="sv or en"):
        words("de")


def test_html_data_is_escaped_and_complete(tmp_path: Path) -> None:
    evil = "<script>alert(1)</script>"
    text = EXAMPLE.read_text("utf-8").replace('"Anna"', f'"{evil}"')
    replays = build_replays(list(loads(text)))
    page = render_page(replays, WORDS["en"])
    assert evil not in page and "\\u003cscript\\u003ealert(1)" in page
    assert "http://" not in page.split("<body>")[1] and "https://" not in page
    data = page_data(replays, WORDS["en"])
    blob = page.split('id="priffe-data">')[1].split("</script>")[0]
    assert json.loads(blob) == json.loads(json.dumps(data))
    deal, strings = data["deals"][0], data["strings"]  # type: ignore[index]
    assert strings[deal["s"][0]] == f"North: {evil}"
    tricks = deal["p"].split(" ")  # leader, winner, then the cards: the page counts
    assert len(tricks) == 13 and sum(t[1] in "NS" for t in tricks) == 10
    assert safe_json("a&b<c>") == '"a\\u0026b\\u003cc\\u003e"'


def test_a_card_annotation_is_drawn_beside_the_card() -> None:
    """CardView.annotation (room for a double-dummy cost, ``−1``) follows its card in the
    terminal and travels in the page's data; without one nothing is added."""
    [r] = build_replays(list(read(EXAMPLE)))
    first = r.tricks[0]
    marked = first._replace(cards=(first.cards[0]._replace(annotation="−1"), *first.cards[1:]))
    noted = replace(r, tricks=(marked, *r.tricks[1:]))
    card = first.cards[0].card
    assert card is not None
    shown = WORDS["en"].card(card)
    assert f"{shown} −1" in plain(full_view(noted, WORDS["en"]))
    assert f"{shown} −1" not in plain(full_view(r, WORDS["en"]))
    assert page_data([noted], WORDS["en"])["deals"][0]["an"] == {"0.0": "−1"}  # type: ignore[index]
    assert "an" not in page_data([r], WORDS["en"])["deals"][0]  # type: ignore[index]


def test_an_unknown_card_in_a_play_without_hands_is_drawn_unknown() -> None:
    # PBN allows "-" for a card not known; with no Deal the engine finds nothing wrong,
    # so the play is "clean" yet holds a card that is no card (found by the fuzz test).
    from priffe_records.format.reader import loads

    replay = build_replays(list(loads('[Contract "Spela"]\n[Play "N"]\nC2 - *\n')))[0]
    first = replay.tricks[0]
    assert [(c.seat, c.card) for c in first.cards] == [(Seat.N, Card.parse("C2")), (Seat.E, None)]


def test_page_hands_are_the_same_for_any_equal_card_objects() -> None:
    """The page's hand ids and plays look the deck's cards up by identity for speed; an
    equal card made elsewhere (``Card(suit, rank)``) gives the same text."""
    from priffe_records.game.cards import Rank, Suit
    from priffe_records.replay.compact import hand_ids, plays
    from priffe_records.rules.replay_facts import CardView, TrickView

    made = [Card(Suit.S, Rank.ACE), Card(Suit.H, Rank.TEN), Card(Suit.C, Rank.TWO)]
    read_ = [Card.parse(x) for x in ("SA", "H10", "C2")]
    assert made[0] is not read_[0]
    assert hand_ids(made) == hand_ids(read_) == "A.T..2"
    trick = [TrickView(1, Seat.N, tuple(CardView(s, c, True) for s, c in zip(
        (Seat.N, Seat.E, Seat.S), cards, strict=True)), Seat.N, (1, 0), size=3)
        for cards in (made, read_)]
    assert plays(trick[:1], "NES") == plays(trick[1:], "NES") == "NNSAHTC2"
