"""``replay`` exits 1 for any deal it shows with an error (issue 28 item 8b).

It exited 1 on a misspelt call but 0 on a card dealt twice (R2) or a wrong claimed
total (R23): the status now says what ``validate``'s says of the deals shown.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner
from conftest import ROOT

from priffe_records.cli import cli

UPPSALA = ROOT / "examples" / "partie-uppsala.ppn"
DAMAGES = {
    "R2": ("W:Q.AJ852.AT983.65 AKT972", "W:K.AJ852.AT983.65 AKT972"),  # ♠K dealt twice
    "R23": ('[ScoreRubber "NS 70 EW 0"]', '[ScoreRubber "NS 80 EW 0"]'),
    "PPN": ("Hjärter Pass Noll Spela", "Hjärterr Pass Noll Spela"),  # exited 1 already
}


@pytest.mark.parametrize("rule", DAMAGES)
@pytest.mark.parametrize("how", [[], ["--html", "r.html"], ["-q"]])
def test_a_deal_shown_with_an_error_exits_1(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                            rule: str, how: list[str]) -> None:
    monkeypatch.chdir(tmp_path)
    old, new = DAMAGES[rule]
    Path("p.ppn").write_text(UPPSALA.read_text("utf-8").replace(old, new, 1), "utf-8")
    shown = CliRunner().invoke(cli, ["replay", *how, "--lang", "en", "--board", "1", "p.ppn"])
    assert shown.exit_code == 1, shown.output
    assert rule in shown.output + "".join(p.read_text("utf-8") for p in Path().glob("*.html"))
    other = CliRunner().invoke(cli, ["replay", *how, "--board", "5", "p.ppn"])
    assert other.exit_code == 0, other.output  # the error is in a deal not shown
