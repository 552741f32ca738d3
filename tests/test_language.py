"""The catalogs: every message in the sources has a Swedish translation, and the language
is chosen as documented (--lang, PRIFFE_LANG, the locale, English)."""

from __future__ import annotations

import re

import pytest

from priffe_records.game import catalogs
from priffe_records.game.language import (
    Message,
    language,
    msg,
    msg_n,
    resolve_language,
    set_language,
    use_language,
)

_FIELD = re.compile(r"\{(\w*)[^{}]*\}")


def test_every_message_id_has_a_swedish_translation() -> None:
    missing = catalogs.untranslated("sv")
    assert not missing, ("messages without a Swedish translation (run "
                         "`python -m priffe_records.game.catalogs update`, then translate "
                         "them in the .po file):\n" + "\n".join(missing))


def test_the_swedish_catalog_has_no_message_the_sources_lost() -> None:
    used = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
            for m in catalogs.extract() if m.id}
    po = {(m.context, m.id if isinstance(m.id, str) else m.id[0])
          for m in catalogs.read("sv") if m.id}
    assert po - used == set(), "stale entries: run `python -m priffe_records.game.catalogs update`"


def test_translations_keep_every_field_and_rule_id() -> None:
    """A Swedish text uses the same {fields} and the same (R..) IDs as its English id; a
    plural form those of the English form it stands for (singular, plural)."""
    bad = []
    for m in catalogs.read("sv"):
        if not m.id:
            continue
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        want_rules = set(re.findall(r"\b(?:R|P)\d+\b", ids[0]))
        for form, s in enumerate(strings):
            want_fields = set(_FIELD.findall(ids[min(form, len(ids) - 1)])) - {"n"}
            got = set(_FIELD.findall(s)) - {"n"}
            if got != want_fields or set(re.findall(r"\b(?:R|P)\d+\b", s)) != want_rules:
                bad.append(f"{ids[0]!r} -> {s!r}")
    assert not bad, "\n".join(bad)


def test_messages_render_in_either_language_and_nest() -> None:
    m = msg("{seat} is dealt {count} cards; each player holds 13",
            seat=msg("North"), count=14)
    assert m.render("en") == "North is dealt 14 cards; each player holds 13"
    assert m.render("sv") == "Nord har fått 14 kort; varje spelare ska ha 13"
    assert str(m) == m.render("en")  # a library user who picks nothing gets English
    assert m == msg("{seat} is dealt {count} cards; each player holds 13",
                    seat=msg("North"), count=14)
    assert Message("no such id {x}", {"x": 1}).render("sv") == "no such id 1"


def test_plural_messages_pick_the_form_by_n() -> None:
    assert msg_n("{n} card", "{n} cards", 1).render("en") == "1 card"
    assert msg_n("{n} card", "{n} cards", 3).render("en") == "3 cards"


def test_the_active_language_is_english_until_picked() -> None:
    assert language() == "en"
    with use_language("sv"):
        assert language() == "sv"
        assert str(msg("South")) == "Syd"
    assert language() == "en"
    with pytest.raises(ValueError, match="not available"):
        set_language("de")


@pytest.mark.parametrize(("option", "env", "want"), [
    ("sv", {"PRIFFE_LANG": "en", "LANG": "en_US.UTF-8"}, "sv"),
    ("en", {"PRIFFE_LANG": "sv", "LANG": "sv_SE.UTF-8"}, "en"),
    (None, {"PRIFFE_LANG": "sv", "LANG": "en_US.UTF-8"}, "sv"),
    (None, {"LANG": "sv_SE.UTF-8"}, "sv"),
    (None, {"LC_ALL": "sv_FI.utf8", "LANG": "en_GB.UTF-8"}, "sv"),
    (None, {"LC_ALL": "C", "LANG": "sv_SE.UTF-8"}, "en"),
    (None, {"LANG": "de_DE.UTF-8"}, "en"),
    (None, {}, "en"),
])
def test_language_comes_from_option_then_priffe_lang_then_locale(
        option: str | None, env: dict[str, str], want: str) -> None:
    assert resolve_language(option, env) == want


def _sample_findings() -> list[object]:
    from conftest import EXAMPLE_FILES, FIXTURE_FILES

    from priffe_records.format.reader import read
    from priffe_records.rules.validate import validate

    out: list[object] = []
    for path in FIXTURE_FILES + EXAMPLE_FILES:
        out.extend(validate(read(path, errors="collect")))
    return out


def test_every_finding_the_engine_makes_is_a_translatable_message() -> None:
    """A plain str would stay English in a Swedish report."""
    from priffe_records.rules.findings import Finding

    findings = [f for f in _sample_findings() if isinstance(f, Finding)]
    assert findings
    plain = [str(f) for f in findings if not isinstance(f.text, Message)]
    assert not plain, "\n".join(plain)
    for f in findings:
        if isinstance(f.text, Message):
            assert f.render("sv") != f.render("en"), f.render("en")


def _preference_findings() -> list[object]:
    """Damaged Préférence records: one or more findings for each of P1..P14."""
    from preference_support import BOARD1, board1_with, example_with, swapped
    from rules_support import findings

    texts = [
        board1_with(Deal="S:86.T97.T98.JT - AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ"),
        board1_with(Deal="S:87.T97.T98.JT 2... AKQ9.A8.K7.A7 JT.KQJ.AQJ.KQ"),
        board1_with(Talon="C9 CK"), board1_with(Talon="C9"), board1_with(West="Xaver"),
        board1_with(North="Anna", East="Anna"), example_with(3, Dealer="S"),
        board1_with(Dealer="W"), board1_with(auction="Spela Pass Pass"),
        BOARD1.replace('[Auction "N"]', '[Auction "E"]'),
        board1_with(auction="Clubs Spades Diamonds Diamonds Diamonds Pass Pass"),
        board1_with(auction="Diamonds Spades Pass Pass"), board1_with(auction="Pass Pass Pass"),
        board1_with(auction="Spades Diamonds Pass Diamonds Hearts Pass Hearts"),
        board1_with(Discard="ST SA"), example_with(2, Discard="ST SJ"),
        board1_with(Discard="ST"), board1_with(Contract="Clubs"),
        board1_with(Contract="Preference"), board1_with(Contract="Hjärter"),
        example_with(3, Dropout="S N"), board1_with(Dropout="N S"), board1_with(Dropout="N N"),
        board1_with(swapped(2, 1, 3, 1)), board1_with(swapped(6, 1, 9, 1)),
        BOARD1.replace('[Play "E"]', '[Play "S"]'), board1_with(Score="N 1;E 10;S -11"),
        board1_with(Score="N 0;E -20;S -10"), board1_with(Score="N -9;E -30;S -21"),
        board1_with(Score="N x"), example_with(1, Pot="50"), example_with(1, Pot="lots"),
        example_with(2, Balance="N -9;E -20;S -20"), board1_with(Declarer="N"),
        board1_with(Result="N 4 E 5 S 1"), board1_with(Result="N 4 E 4 S 1"),
        board1_with(Scoring="Preference;bonus=3"), board1_with(Scoring="Preference;ante=x"),
        ('[Event "x"]\n[Dealer "S"]\n[Scoring "Preference"]\n[Declarer "E"]\n'
         '[Contract "Hearts"]\n[Result "N 5 E 4 S 1"]\n[Score "N 1;E -20;S -11"]\n'),
    ]
    return [f for text in texts for f in findings(text)]


def test_every_preference_finding_is_a_translatable_message() -> None:
    """P1..P14 findings read in Swedish too, each one in words other than the English."""
    from priffe_records.rules.findings import Finding

    found = [f for f in _preference_findings() if isinstance(f, Finding)]
    covered = {f.rule for f in found}
    assert {f"P{i}" for i in range(1, 15)} <= covered, sorted(covered)
    plain = [str(f) for f in found if not isinstance(f.text, Message)]
    assert not plain, "\n".join(plain)
    same = [f.render("en") for f in found if f.render("sv") == f.render("en")]
    assert not same, "\n".join(same)
    with use_language("sv"):
        assert any("måste bekänna" in str(f) for f in found)


def test_a_language_block_left_open_changes_nothing_when_it_is_collected() -> None:
    """click keeps ``--lang``'s block in a context that ``--help`` may leave open; when the
    collector frees it later, the language of whatever runs then must not change (a
    generator's late ``finally`` put Swedish back in the middle of later tests)."""
    import contextlib
    import gc

    stack = contextlib.ExitStack()
    with use_language("sv"):
        stack.enter_context(use_language("sv"))  # never closed
    assert language() == "en"
    stack.cycle = stack  # type: ignore[attr-defined]  # freed by the collector only
    del stack
    gc.collect()
    assert language() == "en"
