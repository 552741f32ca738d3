"""The sides NS and ÖV, the seats N Ö S V: everywhere a Swedish reader looks (issue 29).

PPN keeps PBN's letters (N E S W, ``NS 8 EW 5`` in a tag), but what a person
reads in Swedish names the sides NS and ÖV and the seats Ö and V, and what she
types may use either spelling (GLOSSARY-sv.md).
"""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from conftest import EXAMPLE_FILES, EXAMPLES
from test_add import HAND, laid_out

from priffe_records.cli import cli
from priffe_records.format.reader import loads, read
from priffe_records.format.record import Record
from priffe_records.format.writer import dumps
from priffe_records.replay.html import MARKER

UPPSALA = EXAMPLES / "partie-uppsala.ppn"
# A side or seat in the file's English letters, standing alone.
ENGLISH_TOKEN = re.compile(r"(?<![\w-])(EW|E|W)(?![\w-])")

TWO_DEALS = """[Event "Onsdag"]
[Site "Uppsala"]
[Date "2026.10.17"]
[Board "1"]
[North "Anna"]
[East "Bertil"]
[South "Cecilia"]
[West "David"]
[Dealer "N"]
[Scoring "Priffe"]
[Contract "Spela"]
[Declarer "N"]
[Result "NS 10 EW 3"]
[Score "NS 70 EW 0"]

[Event "Onsdag"]
[Site "Uppsala"]
[Date "2026.10.17"]
[Board "2"]
[North "Anna"]
[East "Bertil"]
[South "Cecilia"]
[West "David"]
[Dealer "E"]
[Scoring "Priffe"]
[Contract "Tvångsnoll"]
[Declarer ""]
[Result "{result}"]
"""


def sv(*args: str, stdin: str | None = None) -> Result:
    command, *rest = args
    return CliRunner().invoke(cli, [command, "--lang", "sv", *rest], input=stdin,
                              env={"COLUMNS": "200"})


def test_validate_names_the_sides_ns_and_ov(tmp_path: Path) -> None:
    path = tmp_path / "kväll.ppn"
    path.write_text(TWO_DEALS.format(result="7"), encoding="utf-8")
    out = sv("validate", str(path)).output
    assert "poängen på raden säger NS 70 ÖV 0, men denna giv ger NS 40 ÖV 0" in out
    assert "sticken på raden '7' säger inte vilken sida som tog dem: skriv 'NS n ÖV m'" in out
    assert not ENGLISH_TOKEN.search(out)


def test_a_result_written_with_ov_reads(tmp_path: Path) -> None:
    """What the message asks for, 'NS n ÖV m', is what the file may say."""
    path = tmp_path / "kväll.ppn"
    path.write_text(TWO_DEALS.format(result="NS 7 ÖV 6"), encoding="utf-8")
    out = sv("validate", str(path)).output
    assert "fel R12" not in out and "tog sticken" not in out and "1 fel," in out
    assert "7–6" in sv("score", str(path)).output


def test_the_score_sheet_in_the_terminal_says_ov() -> None:
    out = sv("score", str(UPPSALA)).output
    head = next(line for line in out.splitlines() if line.startswith("Giv"))
    assert head.split()[6:10] == ["NS", "ÖV", "Σ", "NS"] and "Σ ÖV" in head
    assert "utgång ÖV +10" in out and "Σ NS 20, Σ ÖV 140 · ÖV vinner" in out


def test_the_printed_sheet_says_ov(tmp_path: Path) -> None:
    page = tmp_path / "kväll.html"
    assert sv("score", "--html", str(page), str(UPPSALA)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert "<th>ÖV</th>" in html and "<th>Σ ÖV</th>" in html and "ÖV vinner" in html
    assert ">EW<" not in html and "Σ EW" not in html


def test_the_csv_names_sides_and_seats_in_swedish_and_reads_back(tmp_path: Path) -> None:
    sheet = tmp_path / "kväll.csv"
    assert sv("score", "--csv", str(sheet), str(UPPSALA)).exit_code == 0
    rows = sheet.read_text(encoding="utf-8").splitlines()
    head = next(r for r in rows if r.startswith("Giv,"))
    assert head.endswith("Σ NS,Σ ÖV")
    assert rows[rows.index(head) + 1].startswith("1,V,Spela,V,NS 9 ÖV 4,NS 0 ÖV 0,NS 60 ÖV 0")
    back = tmp_path / "kväll.ppn"
    res = sv("sheet-import", str(sheet), "-o", str(back))
    assert res.exit_code == 0, res.output
    assert [(r.get("Dealer"), r.get("Declarer"), r.get("Result"), r.get("Score"))
            for r in read(back)] == \
        [(r.get("Dealer"), r.get("Declarer"), r.get("Result"), r.get("Score"))
         for r in read(UPPSALA)]


def test_the_replay_page_counts_tricks_for_ns_and_ov(tmp_path: Path) -> None:
    page = tmp_path / "giv.html"
    assert sv("replay", str(UPPSALA), "--html", str(page)).exit_code == 0
    html = page.read_text(encoding="utf-8")
    assert '<span id="side-ew">ÖV</span>' in html
    texts = _shown_texts(html)
    assert "Givens poäng: NS 60 ÖV 0" in texts


def test_add_proposes_the_new_seats_and_asks_for_tricks_in_swedish(tmp_path: Path) -> None:
    path = tmp_path / "k.ppn"
    path.write_text(HAND.read_text(encoding="utf-8"), encoding="utf-8")
    res = sv("add", str(path), stdin="\n".join(["", "Noll", "V", "5", "", "", ""]))
    assert res.exit_code == 0, res.output
    assert "N Cecilia, Ö Anna, S Bertil, V David" in res.stdout
    assert "Stick tagna av ÖV" in res.stdout
    assert list(read(path))[-1].get("Declarer") == "W"


def test_a_declarer_typed_v_is_offered_as_v_when_the_deal_is_corrected(tmp_path: Path) -> None:
    path = tmp_path / "kväll.ppn"
    path.write_text(dumps(laid_out(list(read(HAND)))), encoding="utf-8")
    # Noll by West, the score on the wrong side: R15; correct (r), keep each answer.
    res = sv("add", str(path), stdin="\n".join(["Noll", "V", "5", "NS 20", "r", "", "", "",
                                                "ÖV 20", ""]))
    assert res.exit_code == 0, res.output
    assert "[V]" in res.stdout and "[W]" not in res.stdout
    assert next(iter(read(path))).get("Declarer") == "W"


def test_new_takes_the_dealer_o_and_lists_swedish_letters() -> None:
    res = sv("new", "-p", "Anna", "-p", "Bertil", "-p", "Cecilia", "-p", "David",
             "--deals", "2", "--dealer", "Ö")
    assert res.exit_code == 0, res.output
    assert [r.get("Dealer") for r in read_text(res.stdout)] == ["E", "S"]
    wrong = sv("new", "--dealer", "X")
    assert wrong.exit_code == 2 and "N, Ö, S, V" in wrong.output.replace("'", "")
    assert "[N|Ö|S|V]" in sv("new", "--help").output
    bad = sv("new", "--game", "preference", "--dealer", "V")
    assert bad.exit_code != 0 and "N, Ö, S" in bad.output


def read_text(text: str) -> list[Record]:
    return [r for r in loads(text) if isinstance(r, Record)]


def _shown_texts(html: str) -> list[str]:
    """What a reader of the replay page sees: its text nodes, and its data's texts."""
    data = json.loads(html.split('id="priffe-data">', 1)[1].split("</script>", 1)[0])
    assert MARKER not in html
    parser = _Text()
    parser.feed(html)
    words = data["words"]
    return [*parser.texts, *data["strings"],
            *(v for k, v in words.items() if isinstance(v, str)),
            *(v for k in ("seats", "short") for v in words[k].values())]


class _Text(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.texts: list[str] = []
        self._hidden = 0

    def handle_starttag(self, tag: str, attrs: object) -> None:
        self._hidden += tag in ("script", "style")

    def handle_endtag(self, tag: str) -> None:
        self._hidden -= tag in ("script", "style")

    def handle_data(self, data: str) -> None:
        if not self._hidden and data.strip():
            self.texts.append(data.strip())


@pytest.mark.parametrize("example", EXAMPLE_FILES, ids=lambda p: p.stem)
def test_no_swedish_surface_shows_an_english_side_or_seat(tmp_path: Path,
                                                          example: Path) -> None:
    """validate, the sheet (terminal, page, CSV) and the replay (terminal, page) of every
    example, in Swedish: not one EW, E or W standing alone."""
    page, sheet, replay = tmp_path / "s.html", tmp_path / "s.csv", tmp_path / "r.html"
    shown = {
        "validate": sv("validate", "-v", str(example)).output,
        "score": sv("score", str(example)).output,
        "score --html": sv("score", "--html", str(page), str(example)).output
        + "\n".join(_shown_texts_of_page(page)),
        "score --csv": sv("score", "--csv", str(sheet), str(example)).output
        + sheet.read_text(encoding="utf-8"),
        "replay": sv("replay", str(example)).output,
        "replay --html": sv("replay", str(example), "--html", str(replay)).output
        + "\n".join(_shown_texts(replay.read_text(encoding="utf-8"))),
    }
    found = {name: sorted({m.group(0) for m in ENGLISH_TOKEN.finditer(text)})
             for name, text in shown.items()}
    assert all(len(text) > 20 for text in shown.values())
    assert found == {name: [] for name in shown}


def _shown_texts_of_page(path: Path) -> list[str]:
    parser = _Text()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser.texts
