"""The family seam: every entry point loads to a family that answers every hook and that
mypy checks; shared code takes the game words, rule letters and views from the families."""

from __future__ import annotations

import ast
import importlib
import json
from importlib import metadata
from pathlib import Path

import pytest
from test_family_plugin import BRIDGE_ENTRY, install_family, without_bridge  # noqa: F401

from priffe_records.archive.query import Filters, deals_sql
from priffe_records.archive.schema import ensure_schema, open_archive
from priffe_records.archive.stored_messages import without_rule_tail
from priffe_records.format.vocabulary import GROUP, Vocabulary, entry_points
from priffe_records.game.language import msg
from priffe_records.rules import family
from priffe_records.rules.family import Check, GameFamily, families, family_named

HOOKS = {name for name in dir(GameFamily) if not name.startswith("_")}


@pytest.mark.parametrize("ep", list(metadata.entry_points(group=GROUP)), ids=lambda ep: ep.name)
def test_every_entry_point_is_a_typed_family_answering_every_hook(ep: object) -> None:
    """The entry point names a vocabulary; its plugin module answers ``priffe_family``
    with the family of that vocabulary, which has every hook, and assigns it to
    ``GameFamily[...]`` at module level, so ``mypy --strict`` checks it against the
    protocol."""
    words = ep.load()  # type: ignore[attr-defined]
    assert isinstance(words, Vocabulary)
    plugin = importlib.import_module(words.family)
    fam = plugin.priffe_family()
    assert fam.vocabulary is words and fam in families()
    assert sorted(HOOKS - set(dir(fam))) == []
    assert fam.prefix.isalpha() and fam.prefix.isupper()
    tree = ast.parse(Path(str(plugin.__file__)).read_text("utf-8"))
    typed = [node for node in tree.body if isinstance(node, ast.AnnAssign)
             and ast.unparse(node.annotation).startswith("GameFamily[")]
    assert typed, f"{words.family} assigns its family to no GameFamily[...]"


def test_the_default_family_comes_first_then_the_others_by_name() -> None:
    assert [f.name for f in families()] == ["Priffe", "Bridge", "Preference"]


def test_the_entry_points_read_as_importlib_metadata_reads_them(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """format/vocabulary.py reads the entry points itself (importlib.metadata's import is
    most of their cost): the same names and values, an installed package's too."""
    install_family(monkeypatch, tmp_path, "contract_bridge", BRIDGE_ENTRY)
    try:
        assert entry_points() == {ep.name: ep.value
                                  for ep in metadata.entry_points(group=GROUP)}
        assert entry_points()["contract_bridge"] == BRIDGE_ENTRY
    finally:
        monkeypatch.undo()
        family.forget_families()


def test_the_rule_pattern_knows_every_family_s_letter() -> None:
    """A finding stored before schema 11 loses its rule ID at the end of its text, for
    any registered family's letter (bridge's B10 too)."""
    for rule in ("B10", "P3", "R11"):
        data = json.dumps({"id": f"the score is wrong ({rule})"})
        assert json.loads(without_rule_tail(data))["id"] == "the score is wrong"


def test_query_game_and_contract_come_from_the_families() -> None:
    _, params = deals_sql(Filters(game="preference", contract="hearts"))
    assert params[-2:] == ["Preference", "Hearts"]


def test_a_family_s_own_views_are_made_with_the_archive(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    view = "SELECT id, tricks_ns, tricks_ew FROM deals WHERE game = 'Bridge'"
    monkeypatch.setattr(type(family_named("bridge")), "archive_views",
                        lambda self: {"bridge_deals": view})
    db = open_archive(str(tmp_path / "a.db"))
    ensure_schema(db)
    assert {"bridge_deals", "preference_standings"} <= set(db.view_names())


@pytest.mark.usefixtures("without_bridge")
def test_a_family_installed_after_the_archive_was_made_gets_its_views(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The schema is current, yet the families installed are not those it was opened with:
    the next open for writing makes the new family's views (and never loads a family when
    nothing changed)."""
    path = str(tmp_path / "a.db")
    ensure_schema(open_archive(path))  # made without bridge
    (tmp_path / "site").mkdir()
    install_family(monkeypatch, tmp_path / "site", "contract_bridge", BRIDGE_ENTRY)
    monkeypatch.setattr(type(family_named("bridge")), "archive_views",
                        lambda self: {"bridge_deals": "SELECT id FROM deals"})
    db = open_archive(path)
    ensure_schema(db)
    assert "bridge_deals" in db.view_names()
    assert ("contract_bridge", BRIDGE_ENTRY) in db.execute(
        "SELECT name, entry FROM families").fetchall()


def test_an_install_without_the_families_entry_points_is_one_clear_line(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        tmp_path: Path) -> None:
    """A clone's editable install made before families had entry points finds none: the
    command says so and how to mend it, exit 2, no traceback."""
    from priffe_records.cli import main
    from priffe_records.format import vocabulary

    record = tmp_path / "a.ppn"
    record.write_text('[Board "1"]\n[Contract "Spela"]\n', "utf-8")
    monkeypatch.setattr(vocabulary, "entry_points", dict)
    family.forget_families()
    monkeypatch.setattr("sys.argv", ["priffe", "--lang", "en", "validate", str(record)])
    try:
        with pytest.raises(SystemExit) as ended:
            main()
    finally:
        monkeypatch.undo()
        family.forget_families()
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err == ("priffe: no game family is installed: this copy's entry points are missing; "
                   "install it again (in a clone: pip install -e .)\n"), err


def test_a_check_covers_its_family_s_rules_whatever_the_prefix_s_length() -> None:
    """A family's letter may be longer than one (a bridge law as ``L12``, or ``BR3``)."""
    check = Check("play", "BR2", "BR4", ("Play",), msg("play"))
    assert [check.covers(r) for r in ("BR2", "BR4", "BR5", "B3", "R3", "BR²")] == \
        [True, True, False, False, False, False]
    assert check.rules == "BR2–BR4"
