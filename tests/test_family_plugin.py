"""A family installed from outside the package is found by its entry point alone: bridge,
its own entry point hidden, is no family (its records not claimed, its calls not listed,
no ``--game bridge``); installed again as another package would install it (a
``dist-info`` folder with the entry point, on ``sys.path``), all of that comes back with
no line of shared code knowing it. What the shared code then does with a family's records
(validate, score, deal, archive, serve) is tests/test_bridge_seam.py's."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from test_bridge_seam import TWO_DEALS

from priffe_records import loads
from priffe_records.archive.query import Filters, QueryError, deals_sql
from priffe_records.cli import cli
from priffe_records.format import vocabulary
from priffe_records.rules import family
from priffe_records.rules.family import families
from priffe_records.rules.validate import validate

BRIDGE_ENTRY = "priffe_records.rules.bridge.words:WORDS"
# No Scoring: bridge's by its contract; the misspelt call is worded by the claiming family.
BAD_CALL = '[Contract "4S"]\n[Auction "N"]\nPass Pas\n'


def install_family(monkeypatch: pytest.MonkeyPatch, where: Path, name: str, words: str
                   ) -> None:
    """A package that registers a family as an installed one does: a ``dist-info`` folder
    with its entry point, on ``sys.path``; the loaded families forgotten."""
    info = where / f"{name}-0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\n")
    (info / "entry_points.txt").write_text(f"[priffe_records]\n{name} = {words}\n")
    monkeypatch.syspath_prepend(str(where))
    family.forget_families()


@pytest.fixture
def without_bridge(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The entry points as read from ``sys.path``, less this package's own ``bridge``;
    the loaded families and words forgotten before and after."""
    read = vocabulary.entry_points

    def others() -> dict[str, str]:
        found = read()
        assert found.pop("bridge") == BRIDGE_ENTRY
        return found

    monkeypatch.setattr(vocabulary, "entry_points", others)
    family.forget_families()
    yield
    monkeypatch.undo()
    family.forget_families()


@pytest.fixture
def installed_bridge(without_bridge: None, monkeypatch: pytest.MonkeyPatch,
                     tmp_path_factory: pytest.TempPathFactory) -> None:
    """Bridge hidden, then installed by a package of its own (``contract_bridge``)."""
    install_family(monkeypatch, tmp_path_factory.mktemp("site"), "contract_bridge",
                   BRIDGE_ENTRY)


def _unknown_call() -> str:
    [bad] = loads(BAD_CALL, errors="collect")
    [error] = bad.errors
    return error.message


def test_without_its_entry_point_bridge_is_no_family(without_bridge: None) -> None:
    """No family claims an IMP record or a 4S contract: the default family refuses them;
    the reader lists Priffe's calls; ``--game`` offers no bridge."""
    assert [f.name for f in families()] == ["Priffe", "Preference"]
    assert family.family_for("IMP").name == "Priffe"
    found = validate(loads(TWO_DEALS))
    assert found and all(f.message.startswith("not a Priffe record") for f in found)
    assert "(calls: Pass Klöver" in _unknown_call()
    with pytest.raises(QueryError, match=r"write one of priffe, preference$"):
        deals_sql(Filters(game="bridge"))
    res = CliRunner().invoke(cli, ["--lang", "en", "deal", "--game", "bridge"])
    assert res.exit_code == 2 and "'bridge' is not one of 'priffe', 'preference'" in res.stderr


def test_installed_from_outside_bridge_is_found_by_its_entry_point(
        installed_bridge: None) -> None:
    """The installed entry point makes bridge a family again: it claims its records (by
    Scoring, or by a bridge contract without one), the reader reads and words its calls
    by its vocabulary, its records are validated by its rules, ``--game`` offers it."""
    assert [f.name for f in families()] == ["Priffe", "Bridge", "Preference"]
    assert [family.family_for(s).name for s in ("IMP;Cross", "mp", "Rubber", "Priffe")] == [
        "Bridge", "Bridge", "Bridge", "Priffe"]
    records = loads('[Contract "4HX"]\n\n[Scoring "?"]\n[Contract "Pass"]\n\n'
                    '[Contract "Hjärter"]\n\n[Scoring "Preference"]\n[Contract "Hearts"]\n')
    assert [family.family_of(r).name for r in records] == [
        "Bridge", "Bridge", "Priffe", "Preference"]
    assert vocabulary.lexicon_for("imp;x=1").own is family.family_for("IMP").vocabulary
    assert _unknown_call().endswith("(bridge calls: Pass X XX AP 1C 1D 1H 1S 1NT 2C … 7NT)")
    assert [(f.rule, f.record) for f in validate(loads(TWO_DEALS))] == [("B10", 2)]
    _, params = deals_sql(Filters(game="BRIDGE"))
    assert params[-1] == "Bridge"
    with pytest.raises(QueryError, match=r"write one of priffe, bridge, preference$"):
        deals_sql(Filters(game="whist"))
    res = CliRunner().invoke(cli, ["--lang", "en", "deal", "--game", "bridge", "--seed", "1"])
    assert res.exit_code == 0 and '[Scoring "IMP"]' in res.stdout, res.output + res.stderr
