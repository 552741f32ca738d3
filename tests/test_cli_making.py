"""priffe new, priffe deal, priffe completion, and the examples at the end of every --help."""

from __future__ import annotations

import json
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import click
import pytest
from click.testing import CliRunner, Result

from priffe_records.cli import cli
from priffe_records.format.reader import loads
from priffe_records.format.writer import dumps


def invoke(*args: str, stdin: str | None = None) -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def findings(text: str) -> list[dict[str, object]]:
    res = invoke("validate", "--nl", "-", stdin=text)
    return [json.loads(x) for x in res.stdout.splitlines()]


# priffe new ------------------------------------------------------------------------------------


def test_new_lays_out_the_partie_and_validates_as_unfinished() -> None:
    res = invoke("new", "-p", "Anna", "-p", "Bertil", "-p", "Cecilia", "-p", "David",
                 "--event", "Klubbkväll", "--site", "Uppsala", "--date", "2026.11.30",
                 "--deals", "6", "--dealer", "S")
    assert res.exit_code == 0, res.output
    recs = list(loads(res.stdout))
    assert [r.get("Board") for r in recs] == ["1", "2", "3", "4", "5", "6"]
    assert [r.get("Dealer") for r in recs] == ["S", "W", "N", "E", "S", "W"]  # R3
    assert {(r.get("North"), r.get("East"), r.get("South"), r.get("West")) for r in recs} == \
        {("Anna", "Bertil", "Cecilia", "David")}
    assert {r.get("Event") for r in recs} == {"Klubbkväll"}
    found = findings(res.stdout)
    assert not [f for f in found if f["severity"] == "error"]
    assert {f["rule"] for f in found} == {"R8"}  # only "nothing to score yet"
    assert dumps(loads(res.stdout)) == res.stdout  # canonical: fmt leaves it alone


def test_new_preference_has_three_players_and_its_scoring() -> None:
    res = invoke("new", "--game", "preference", "-p", "Anna", "-p", "Franz", "-p", "Maria",
                 "--deals", "4", "--dealer", "E")
    recs = list(loads(res.stdout))
    assert [r.get("Dealer") for r in recs] == ["E", "S", "N", "E"]
    assert all(r.get("West") is None and r.get("Scoring", "").startswith("Preference")
               for r in recs)
    assert not [f for f in findings(res.stdout) if f["severity"] == "error"]


def test_new_refuses_a_fifth_player_a_west_dealer_in_preference_and_overwriting(
        tmp_path: Path) -> None:
    assert invoke("new", *["-p", "x"] * 5).exit_code == 2
    res = invoke("new", "--game", "preference", "--dealer", "W")
    assert res.exit_code == 2 and "N, E, S" in res.stderr
    out = tmp_path / "kväll.ppn"
    out.write_text("mine", encoding="utf-8")
    res = invoke("new", "-o", str(out))
    assert res.exit_code == 2 and out.read_text(encoding="utf-8") == "mine"
    assert invoke("new", "-o", str(out), "--force").exit_code == 0
    assert out.read_text(encoding="utf-8").startswith("% PPN")


def test_new_defaults_to_today() -> None:
    import datetime

    res = invoke("new", "--deals", "1")
    [rec] = loads(res.stdout)
    assert rec.get("Date") == datetime.date.today().strftime("%Y.%m.%d")


# priffe deal -----------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["priffe", "preference"])
def test_deal_play_validates_clean_and_a_seed_repeats(game: str) -> None:
    a = invoke("deal", "--play", "5", "--seed", "11", "--game", game)
    b = invoke("deal", "--play", "5", "--seed", "11", "--game", game)
    assert a.exit_code == 0 and a.stdout == b.stdout
    recs = list(loads(a.stdout))
    assert len(recs) == 5 and all(r.get("Play") is not None for r in recs)
    assert findings(a.stdout) == []


@pytest.mark.parametrize("game", ["priffe", "preference"])
def test_deal_play_happened_nowhere(game: str) -> None:
    """Practice deals say so, as the hands-only ones do: the generators' own Event, Site and
    Date (Graz 1911, the example partie's) would file them beside a real evening."""
    res = invoke("deal", "--play", "3", "--seed", "5", "--game", game)
    recs = list(loads(res.stdout))
    assert {(r.get("Event"), r.get("Site"), r.get("Date")) for r in recs} == {
        ("Övning", "?", "?")}


@pytest.mark.parametrize(("game", "cards"), [("priffe", 52), ("preference", 32)])
def test_deal_hands_only_are_legal_deals(game: str, cards: int) -> None:
    res = invoke("deal", "3", "--seed", "2", "--game", game)
    recs = list(loads(res.stdout))
    assert len(recs) == 3 and all(r.get("Auction") is None for r in recs)
    for r in recs:
        text = r.get("Deal") or ""
        hands = text.split(":", 1)[1].split()
        held = "".join(h.replace(".", "") for h in hands if h != "-")
        talon = (r.get("Talon") or "").replace(" ", "")
        assert len(held) + len(talon) // 2 == cards
    assert not [f for f in findings(res.stdout) if f["severity"] == "error"]


def test_deal_without_seed_names_its_seed() -> None:
    res = invoke("deal")
    assert res.exit_code == 0 and "--seed" in res.stderr
    seed = res.stderr.split()[1]
    assert invoke("deal", "--seed", seed).stdout == res.stdout


@pytest.mark.slow  # a real process
def test_real_pipe_deal_play_into_validate() -> None:
    """`priffe deal --play 5 | priffe validate -` with the installed executable."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or "priffe"
    deal = subprocess.run([exe, "deal", "--play", "5", "--seed", "3"], capture_output=True,
                          timeout=60, check=True)
    check = subprocess.run([exe, "validate", "-"], input=deal.stdout, capture_output=True,
                           timeout=60, check=False)
    assert check.returncode == 0, check.stdout
    assert b"0 errors, 0 warnings, 0 unverifiable in 1 file (5 records)" in check.stdout


# completion and --help examples ----------------------------------------------------------------


@pytest.mark.parametrize("shell", ["bash", "zsh", "fish"])
def test_completion_prints_clicks_script(shell: str) -> None:
    res = invoke("completion", shell)
    assert res.exit_code == 0 and "_PRIFFE_COMPLETE" in res.stdout
    assert f"{shell}_source" in res.stdout or shell in res.stdout


@pytest.mark.slow  # a real process
def test_completion_script_completes_commands() -> None:
    """What the shell script asks click for: the commands starting with 'va'."""
    exe = shutil.which("priffe", path=str(Path(sys.executable).parent)) or "priffe"
    env = {"_PRIFFE_COMPLETE": "bash_complete", "COMP_WORDS": "priffe va", "COMP_CWORD": "1",
           "PATH": str(Path(sys.executable).parent)}
    res = subprocess.run([exe], env=env, capture_output=True, text=True, timeout=60,
                         check=False)
    assert "plain,validate" in res.stdout.splitlines()


def _examples(command: click.Command) -> list[str]:
    with click.Context(command, info_name=command.name) as ctx:
        text = command.get_help(ctx)
    assert "Examples:" in text, command.name
    tail = text.split("Examples:")[-1].strip().splitlines()
    return [line.strip() for line in tail]


@pytest.mark.parametrize("name", sorted(cli.commands))
def test_help_ends_with_real_examples(name: str) -> None:
    """Two or three examples, each a priffe command line whose options exist."""
    examples = _examples(cli.commands[name])
    assert 2 <= len(examples) <= 3, examples
    for line in examples:
        words = shlex.split(line.split(" > ")[0].split(" >> ")[0])
        parts: list[list[str]] = [[]]
        for w in words:
            if w == "|":
                parts.append([])
            else:
                parts[-1].append(w)
        for argv in parts:
            if argv[0] != "priffe":
                continue
            sub = cli.commands[argv[1]]
            sub.make_context(argv[1], argv[2:], resilient_parsing=False)  # raises when wrong
        assert f"priffe {name}" in line, line
