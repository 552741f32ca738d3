"""priffe add: an evening typed deal by deal from standard input, checked before each save.

The reference is tests/data/evening-hand.ppn, the same evening typed by hand
into 'priffe new''s skeleton. Typed through 'priffe add' (with mistakes
corrected on the way) the file must come out byte for byte the same.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import DATA

from priffe_records.cli import adding, cli
from priffe_records.format.reader import read
from priffe_records.format.record import Record
from priffe_records.format.writer import dumps
from priffe_records.game.calls import Contract
from priffe_records.game.cards import Seat
from priffe_records.game.language import msg
from priffe_records.rules import entry
from priffe_records.rules.entry import ENTRY_TAGS
from priffe_records.rules.priffe import entry as priffe_entry

HAND = DATA / "evening-hand.ppn"

# What the secretary types, deal by deal: contract, declarer, tricks (the declarer's
# side; NS for a contract without declarer), the score on the paper (empty: none).
ENGLISH = [
    "hjärterr", "Hjärter", "Bertil", "10", "NS 0 EW 40",  # a typo: did you mean 'Hjärter'?
    "spela", "cecilia", "9", "",
    "noll", "West", "5", "EW 20",
    "tv", "6", "",  # Tvångsnoll by its first letters; no declarer is asked
    "Ruter", "N", "7", "",
    "hj", "D", "7", "",
    "Spela", "E", "8", "NS 20",  # the score on the wrong side: R15 ...
    "c", "", "", "", "EW 20",  # ... corrected; the other answers kept
    "Noll", "Anna", "4", "",
    "passnoll", "7", "",
    "Hjärter", "Bertil", "10", "NS 40 EW 0",
    "",  # an empty contract: the evening is typed
]
SWEDISH = [
    "Hjärter", "Ö", "10", "NS 0 ÖV 40",
    "Spela", "Syd", "9", "",
    "Noll", "V", "5", "ÖV 20",
    "Tvångsnoll", "NS 6 ÖV 7", "",
    "ruter", "Nord", "7", "",
    "Hjärter", "Väst", "7", "",
    "Spela", "Ö", "8", "NS 20",
    "rätta", "", "", "", "ÖV 20",
    "Noll", "N", "4", "",
    "Pasnoll", "Passnoll", "NS 7", "",  # a typo: menade du 'Passnoll'?
    "Hjärter", "S", "10", "NS 40",
    "",
]


def laid_out(records: list[Record]) -> list[Record]:
    """The evening before anything was played: priffe new's empty Declarer, Contract, Result."""
    out = []
    for rec in records:
        for name in ENTRY_TAGS:
            rec = rec.replace_tag(name, "") if name in ("Declarer", "Contract", "Result") \
                else rec.without_tag(name)
        out.append(rec)
    return out


@pytest.fixture
def evening(tmp_path: Path) -> Path:
    path = tmp_path / "kväll.ppn"
    path.write_text(dumps(laid_out(list(read(HAND)))), encoding="utf-8")
    return path


def add(path: Path, answers: list[str], *args: str) -> Result:
    return CliRunner().invoke(cli, ["add", *args, str(path)], input="\n".join(answers) + "\n")


@pytest.mark.parametrize(("lang", "answers"), [("en", ENGLISH), ("sv", SWEDISH)])
def test_typed_evening_is_the_hand_typed_file(evening: Path, lang: str,
                                              answers: list[str]) -> None:
    res = add(evening, answers, "--lang", lang)
    assert res.exit_code == 0, res.output
    assert evening.read_text(encoding="utf-8") == HAND.read_text(encoding="utf-8")
    said = res.stdout
    if lang == "en":
        assert "did you mean 'Hjärter'?" in said
        assert "Board 4: West deals (David)" in said
        assert "R14" in said and "Correct the deal (c) or keep it as written (k)?" in said
        assert "NS win" in said  # the running sheet shows the second rubber's end
    else:
        assert "menade du 'Passnoll'?" in said
        assert "Giv 4: Väst ger (David)" in said
        assert "R14" in said and "Rätta given (r) eller behåll den som den står (b)?" in said
        assert "NS vinner" in said


def test_an_error_kept_is_saved_as_written(evening: Path) -> None:
    res = add(evening, ["Hjärter", "E", "10", "NS 40", "k", ""])
    assert res.exit_code == 0, res.output
    first = next(iter(read(evening)))
    assert first.get("Score") == "NS 40 EW 0" and first.get("Contract") == "Hjärter"


def test_a_deal_after_the_last_is_appended_with_r24_seats(tmp_path: Path) -> None:
    """Deal 10 ended the second rubber: deal 11 starts the third, whose seats R24 proposes."""
    path = tmp_path / "k.ppn"
    path.write_text(HAND.read_text(encoding="utf-8"), encoding="utf-8")
    res = add(path, ["", "Noll", "N", "3", "", ""])  # Enter takes the proposed seats
    assert res.exit_code == 0, res.output
    assert "N Cecilia, E Anna, S Bertil, W David" in res.stdout
    records = list(read(path))
    assert len(records) == 11
    new = records[-1]
    # the next board and dealer; South (the dealer) and West (forehand) keep their places
    assert (new.get("Board"), new.get("Dealer"), new.get("North"), new.get("East"),
            new.get("South"), new.get("West")) == ("11", "S", "Cecilia", "Anna", "Bertil",
                                                    "David")
    assert records[:10] == list(read(HAND))


@pytest.mark.parametrize("lang", ["en", "sv"])
def test_other_seats_typed_at_a_rubbers_end(evening: Path, lang: str) -> None:
    """In a laid-out evening that never changed seats, the new seats go to every open deal
    (written with the next deal typed)."""
    records = list(read(evening))
    same = [r.replace_tag("East", "Bertil").replace_tag("South", "Cecilia") for r in records]
    evening.write_text(dumps(same), encoding="utf-8")
    six = ENGLISH[:ENGLISH.index("Spela", 10)]  # the first rubber's six deals, as typed above
    seats = ["Anna, Bertil", "Anna, David, Cecilia, Bertil"]  # a mistake, then the seats
    res = add(evening, [*six, *seats, "Spela", "David", "8", "", ""], "--lang", lang)
    assert res.exit_code == 0, res.output
    said = res.stdout
    assert ("four names separated by commas" if lang == "en" else "fyra namn") in said
    after = list(read(evening))
    assert [(r.get("East"), r.get("West")) for r in after[6:]] == [("David", "Bertil")] * 4
    assert [r.get("East") for r in after[:6]] == ["Bertil"] * 6
    assert after[6].get("Declarer") == "E" and after[7].get("Contract") == ""


def test_errors_of_the_new_deal_only(evening: Path) -> None:
    """Only the typed deal's findings are said, not the open deals' "nothing to score"."""
    res = add(evening, ["Hjärter", "E", "14", "13", "NS 40 EW 0", "k", ""])
    assert res.exit_code == 0, res.output
    assert "a side takes 0 to 13 tricks" in res.stdout
    assert "R15" in res.stdout  # EW took all 13: the score is theirs
    # the other deals are open, not this deal's findings: R8 only in this deal's note
    assert res.stdout.count("R8") == res.stdout.count("not checked (") == 1


def test_input_ending_mid_deal_saves_nothing_of_it(evening: Path) -> None:
    before = evening.read_bytes()
    res = add(evening, ["Hjärter", "E"])
    assert res.exit_code == 1
    assert "ended in the middle of a deal" in res.stderr
    assert evening.read_bytes() == before


def test_missing_file_says_how_to_start(tmp_path: Path) -> None:
    res = add(tmp_path / "nope.ppn", [""])
    assert res.exit_code == 2
    assert "priffe new -o" in res.stderr and "Traceback" not in res.output


PREF_HAND = DATA / "preference-evening-hand.ppn"
# Préférence: contract, declarer, who dropped out, the tricks of those who played, payments.
PREF_ENGLISH = [
    "Heartz", "Hearts", "Franz", "", "2 6 2", "N 1;E 10;S 1",  # a typo; payments wrong: P12
    "c", "", "", "", "", "-",  # corrected: the payments were not on the paper after all
    "pref", "E", "S", "3 7", "",  # Preference by its first letters; South dropped out
    "handc", "Maria", "N E", "",  # both defenders dropped out: no tricks are asked
    "",
]
PREF_SWEDISH = [
    "Hearts", "Ö", "", "N 2 E 6 S 2", "N 1;E 10;S 1",
    "rätta", "", "", "", "", "-",
    "Preference", "Franz", "V", "Syd", "N 3 E 7", "",  # V: W stays empty (P1); then South
    "HandClubs", "S", "Anna, Franz", "",
    "",
]


@pytest.mark.parametrize(("lang", "answers"), [("en", PREF_ENGLISH), ("sv", PREF_SWEDISH)])
def test_typed_preference_evening_is_the_hand_typed_file(tmp_path: Path, lang: str,
                                                         answers: list[str]) -> None:
    path = tmp_path / "graz.ppn"
    path.write_text(dumps(laid_out(list(read(PREF_HAND)))), encoding="utf-8")
    res = add(path, answers, "--lang", lang)
    assert res.exit_code == 0, res.output
    assert path.read_text(encoding="utf-8") == PREF_HAND.read_text(encoding="utf-8")
    said = res.stdout
    assert "P12" in said
    if lang == "en":
        assert "did you mean 'Hearts'?" in said and "Tricks of N E: 3 7" in said
    else:
        assert "i Préférence är platserna N, Ö och S" in said and "Stick för N E: N 3 E 7" in said


def test_nothing_written_when_the_text_would_not_read_back(
        evening: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    before = evening.read_bytes()
    monkeypatch.setattr(entry, "dumps", lambda records: dumps(list(records)[:-1]))
    res = add(evening, ["Hjärter", "E", "10", "", ""])
    assert res.exit_code == 2
    assert "does not read back" in res.stderr
    assert evening.read_bytes() == before


def test_entry_words() -> None:
    players = {Seat.N: "Anna", Seat.E: "Annika"}
    with pytest.raises(entry.EntryError, match="could be Anna or Annika"):
        entry.parse_seat("Ann", players)
    assert entry.parse_seat("anni", players) is Seat.E
    with pytest.raises(entry.EntryError, match="could be"):
        priffe_entry.parse_contract("p")  # Passnoll or Play
    with pytest.raises(entry.EntryError, match="no declarer"):
        priffe_entry.parse_tricks("6", None)
    assert str(priffe_entry.parse_points("80-20")) == "NS 80 EW 20"


def test_on_a_terminal_answers_are_read_with_tab_completion(
        monkeypatch: pytest.MonkeyPatch) -> None:
    readline = pytest.importorskip("readline")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stdin", Terminal())
    answers = iter(["hj"])
    seen: list[tuple[str, list[str | None]]] = []

    def typed(prompt: str) -> str:
        complete = readline.get_completer()
        seen.append((prompt, [complete("S", i) for i in range(3)]))
        return next(answers)  # StopIteration never: one question

    monkeypatch.setattr("builtins.input", typed)
    ask = adding.Asker()
    assert ask.value(msg("Contract"), priffe_entry.parse_contract,
                     completions=[c.value for c in Contract]) is Contract.HJARTER
    assert seen == [("Contract: ", ["Spela", None, None])]
    monkeypatch.setattr("builtins.input", lambda prompt: (_ for _ in ()).throw(EOFError))
    with pytest.raises(adding.EndOfAnswers):
        ask.line(msg("Contract"))


def test_the_running_sheet_piped_is_full_lines(tmp_path: Path) -> None:
    """Piped, the running sheet is score's: a rubber's end longer than 120 columns is one line."""
    long = "Anna Lindqvist-Långnamnsson-Ekström-Öhrnström"
    path = tmp_path / "kväll.ppn"
    path.write_text(dumps(laid_out(list(read(HAND)))).replace('"Anna"', f'"{long}"'), "utf-8")
    res = add(path, [long if a == "Anna" else a for a in ENGLISH], "--lang", "en")
    assert res.exit_code == 0, res.output
    ends = [line for line in res.stdout.splitlines() if " win; " in line]
    assert ends and all(long in line and len(line) > 120 for line in ends), ends


# ------------------------------------------------------------- the words on the paper


def sv_add(path: Path, answers: list[str], *args: str) -> Result:
    return add(path, answers, "--lang", "sv", *args)


@pytest.mark.parametrize(("word", "bid"), [("Klöver", "Klöver"), ("SPADER", "Spader"),
                                           ("klover", "Klöver"), ("kl", "Klöver"),
                                           ("sp", "Spader")])
def test_a_final_klover_or_spader_is_a_tvangsnoll(evening: Path, word: str, bid: str) -> None:
    """R8: the secretary writes the final bid; the contract is Tvångsnoll, no declarer asked."""
    res = sv_add(evening, [word, "NS 6 ÖV 7", "", ""])
    assert res.exit_code == 0, res.output
    assert f"{bid} som slutbud: Tvångsnoll, ingen spelförare (R8)" in res.stdout
    assert "Spelförare" not in res.stdout
    first = next(iter(read(evening)))
    assert (first.get("Contract"), first.get("Declarer"), first.get("Result")) == \
        ("Tvångsnoll", "", "NS 6 EW 7")


@pytest.mark.parametrize(("word", "contract"), [
    ("passnolla", Contract.PASSNOLL), ("Passnolla", Contract.PASSNOLL),
    ("misär", Contract.NOLL), ("Misar", Contract.NOLL), ("hj", Contract.HJARTER),
    ("HJÄRTER", Contract.HJARTER), ("hjarter", Contract.HJARTER), ("ru", Contract.RUTER),
    ("Ru", Contract.RUTER), ("sang", Contract.SPELA), ("tvångsnolla", Contract.TVANGSNOLL),
    ("Tvangsnoll", Contract.TVANGSNOLL), ("kl", Contract.TVANGSNOLL),
    ("spe", Contract.SPELA)])
def test_the_paper_words_for_a_contract(word: str, contract: Contract) -> None:
    assert priffe_entry.parse_contract(word) is contract


def test_a_start_shared_by_two_contracts_says_both() -> None:
    with pytest.raises(entry.EntryError, match="'s' could be Spader or Spela"):
        priffe_entry.parse_contract("s")


def test_paper_words_typed_in_swedish(evening: Path) -> None:
    res = sv_add(evening, ["misär", "Ö", "4", "", "passnolla", "7", "", "hj", "S", "7", "", ""])
    assert res.exit_code == 0, res.output
    got = [(r.get("Contract"), r.get("Declarer")) for r in list(read(evening))[:3]]
    assert got == [("Noll", "E"), ("Passnoll", ""), ("Hjärter", "S")]


def seated(path: Path, **names: str) -> None:
    records = list(read(path))
    path.write_text(dumps([_seat(r, names) for r in records]), encoding="utf-8")


def _seat(record: Record, names: dict[str, str]) -> Record:
    for tag, name in names.items():
        record = record.replace_tag(tag, name)
    return record


@pytest.mark.parametrize("typed", ["Marta", "marta", "MÄRTA", "ståhl", "Marta Stahl"])
def test_a_first_name_unique_among_the_players(evening: Path, typed: str) -> None:
    seated(evening, South="Märta Ståhl")
    res = sv_add(evening, ["Hjärter", typed, "7", "", ""])
    assert res.exit_code == 0, res.output
    assert next(iter(read(evening))).get("Declarer") == "S"


def test_a_first_name_of_two_players_says_which(evening: Path) -> None:
    seated(evening, South="Märta Ståhl", East="Marta Berg")
    res = sv_add(evening, ["Hjärter", "marta", "Ståhl", "7", "", ""])
    assert res.exit_code == 0, res.output
    assert "'marta' kan vara Marta Berg eller Märta Ståhl" in res.stdout
    assert next(iter(read(evening))).get("Declarer") == "S"


def test_a_score_kept_is_marked_and_counted_as_written(evening: Path) -> None:
    """Kept at 'b': the deal says so (Kept "Score"), and the engine counts the paper's points."""
    res = sv_add(evening, ["Hjärter", "Ö", "10", "NS 20", "b", ""])
    assert res.exit_code == 0, res.output
    first = next(iter(read(evening)))
    assert first.get("Score") == "NS 20 EW 0" and first.get("Kept") == "Score"
    assert "20*" in res.stdout and "* som på papperet; reglerna ger NS 0" in res.stdout


def test_a_deal_not_kept_has_no_mark(evening: Path) -> None:
    res = sv_add(evening, ["Hjärter", "Ö", "10", "ÖV 40", ""])
    assert res.exit_code == 0, res.output
    assert next(iter(read(evening))).get("Kept") is None


def test_a_saved_deal_is_corrected_by_its_board(evening: Path) -> None:
    """--board: the saved values are offered (Enter keeps each), the same checks run, and
    only that deal changes."""
    assert sv_add(evening, [*SWEDISH[:8], ""]).exit_code == 0  # boards 1 and 2
    before = list(read(evening))
    res = sv_add(evening, ["", "Nord", "", "NS 20", "r", "", "", "", "-"], "--board", "2")
    assert res.exit_code == 0, res.output
    said = res.stdout
    assert "Giv 2: Öst ger (Bertil)" in said and "Kontrakt [Spela]:" in said
    assert "R15" in said and "Rätta given (r)" in said  # a wrong score, then cleared ('-')
    after = list(read(evening))
    assert after[1].get("Declarer") == "N" and after[1].get("Score") is None
    assert after[1].get("Result") == "NS 9 EW 4"  # Enter kept the nine tricks
    assert after[:1] == before[:1] and after[2:] == before[2:]
    assert "sparade 1 giv" in res.stderr


def test_a_kept_deal_stays_kept_when_nothing_changes(evening: Path) -> None:
    assert sv_add(evening, ["Hjärter", "Ö", "10", "NS 20", "b", ""]).exit_code == 0
    res = sv_add(evening, ["", "", "", ""], "--board", "1")
    assert res.exit_code == 0, res.output
    assert "behålls som de står på papperet" in res.stdout
    assert next(iter(read(evening))).get("Kept") == "Score"


def test_no_such_board(evening: Path) -> None:
    before = evening.read_bytes()
    res = sv_add(evening, [""], "--board", "99")
    assert res.exit_code == 2 and "det finns ingen giv 99 i filen" in res.stderr
    assert "Traceback" not in res.output and evening.read_bytes() == before


def test_a_correction_is_not_written_unless_it_reads_back(
        evening: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert sv_add(evening, [*SWEDISH[:4], ""]).exit_code == 0
    before = evening.read_bytes()
    monkeypatch.setattr(entry, "dumps", lambda records: dumps(list(records)[:-1]))
    res = sv_add(evening, ["", "", "9", "", ""], "--board", "1")
    assert res.exit_code == 2 and "läses inte tillbaka" in res.stderr
    assert evening.read_bytes() == before


def test_sheet_import_reads_the_same_paper_words(tmp_path: Path) -> None:
    """A spreadsheet row is read as add reads an answer: a final Klöver, misär, a first name."""
    sheet = tmp_path / "kväll.csv"
    sheet.write_text("Nord,Anna\nÖst,Märta Ståhl\nSyd,Cia\nVäst,Dan\n\n"
                     "Giv,Kontrakt,Spelförare,Stick\n1,Klöver,,NS 6 ÖV 7\n2,misär,marta,4\n",
                     encoding="utf-8")
    res = CliRunner().invoke(cli, ["sheet-import", str(sheet), "-o", str(tmp_path / "k.ppn")])
    assert res.exit_code == 0, res.output
    got = [(r.get("Contract"), r.get("Declarer")) for r in read(tmp_path / "k.ppn")]
    assert got == [("Tvångsnoll", ""), ("Noll", "E")]


def test_a_preference_deal_corrected_with_enter_everywhere_is_unchanged(tmp_path: Path) -> None:
    """--board offers a Préférence deal's own answers: Enter to each writes it back as it was."""
    path = tmp_path / "graz.ppn"
    path.write_text(PREF_HAND.read_text(encoding="utf-8"), encoding="utf-8")
    res = sv_add(path, [""] * 6, "--board", "2")
    assert res.exit_code == 0, res.output
    assert "Kontrakt [Preference]:" in res.stdout and "Stick för N E [3 7]:" in res.stdout
    assert path.read_text(encoding="utf-8") == PREF_HAND.read_text(encoding="utf-8")


def test_an_answer_not_understood_says_so_as_a_secretary_would(evening: Path) -> None:
    res = sv_add(evening, ["Hjärterr", "hj", "S", "7", "", ""])
    assert res.exit_code == 0, res.output
    assert "  Förstod inte: " in res.output, res.output


@pytest.mark.parametrize(("lang", "answers", "note"), [
    ("en", ENGLISH, "not checked ("), ("sv", SWEDISH, "ej kontrollerat (")])
def test_the_not_checked_note_is_said_once_a_session(evening: Path, lang: str,
                                                     answers: list[str], note: str) -> None:
    """Ten deals typed from the paper, none with hands or play: what is taken as written
    is said once, at the first deal, not once a deal (as validate counts it once a file)."""
    res = add(evening, answers, "--lang", lang)
    assert res.exit_code == 0, res.output
    assert res.stdout.count(note) == 1
    first = res.stdout.index(note)
    assert first < res.stdout.index("Board 2" if lang == "en" else "Giv 2")
