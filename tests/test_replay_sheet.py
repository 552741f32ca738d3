"""A score-sheet deal in the HTML viewer says there is nothing to replay (issue 11, point 11).

Not empty hands and a 0–0 trick count: a transcribed sheet often has a Deal
tag of four unknown hands, and that is still nothing to step through.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from priffe_records import loads
from priffe_records.cli import cli
from priffe_records.replay.compact import Strings
from priffe_records.replay.html import deal_data, render_page
from priffe_records.replay.model import build_replays
from priffe_records.replay.wording import words

SHEET = """\
[Event "Priffeafton"]
[Board "1"]
[North "Ingeborg"]
[Declarer "N"]
[Contract "Noll"]
[Result "NS 8 EW 5"]
"""


@pytest.mark.parametrize("deal", ["", '[Deal "N:- - - -"]\n', '[Deal "W:- - - -"]\n'])
def test_a_score_sheet_deal_has_nothing_to_replay(deal: str) -> None:
    [r] = build_replays(list(loads(SHEET + deal)))
    assert not r.playable
    data = deal_data(r, words("en"), Strings())
    assert "nothing to replay" in str(data["u"])
    assert "s" not in data and "p" not in data, "no seats, no play"
    sv = deal_data(r, words("sv"), Strings())
    assert "inget att spela upp" in str(sv["u"])


def test_the_page_of_a_sheet_with_unknown_hands(tmp_path: Path) -> None:
    path = tmp_path / "sheet.ppn"
    path.write_text(SHEET + '[Deal "N:- - - -"]\n', "utf-8")
    out = tmp_path / "sheet.html"
    res = CliRunner().invoke(cli, ["replay", str(path), "--html", str(out), "--lang", "en"])
    assert res.exit_code == 0, res.output
    page = out.read_text("utf-8")
    data = json.loads(page.split('id="priffe-data">')[1].split("</script>")[0])
    assert "nothing to replay" in data["deals"][0]["u"] and "p" not in data["deals"][0]
    assert page == render_page(build_replays(list(loads(path.read_text("utf-8")))),
                               words("en"))
