"""The library tunes the garbage collector for its batch work and leaves it as it found it
(issue 9): enabled or not, thresholds, frozen objects — also when the work fails."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from priffe_records import dumps, loads, validate
from priffe_records.rules.gcscope import GEN0_THRESHOLD, collector_paused, collector_tuned
from priffe_records.rules.priffe.generate import generate_records


def state() -> tuple[bool, tuple[int, int, int], bool]:
    """Enabled, thresholds, and whether anything is frozen (the frozen count itself drops
    as frozen objects die, so only zero or not can be compared)."""
    return gc.isenabled(), gc.get_threshold(), gc.get_freeze_count() > 0


@pytest.fixture
def host_gc() -> Iterator[None]:
    """The test process's collector as it was, whatever a test sets up."""
    before = state()
    yield
    gc.set_threshold(*before[1])
    (gc.enable if before[0] else gc.disable)()
    if not before[2]:
        gc.unfreeze()


@pytest.mark.parametrize("enabled", [True, False])
@pytest.mark.parametrize("threshold", [(700, 10, 10), (50_000, 5, 3)])
@pytest.mark.parametrize("frozen", [False, True])
def test_validate_restores_the_collector(host_gc: None, enabled: bool,
                                         threshold: tuple[int, int, int], frozen: bool) -> None:
    gc.unfreeze()
    if frozen:
        gc.freeze()
    gc.set_threshold(*threshold)
    (gc.enable if enabled else gc.disable)()
    before = state()
    assert validate(generate_records(30, seed=2)) == []
    assert state() == before


def test_validate_restores_the_collector_when_the_records_raise(host_gc: None) -> None:
    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    before = state()
    seen: list[tuple[bool, tuple[int, int, int], bool]] = []

    def records() -> Iterator[object]:
        yield from loads('[Event "a"]\n[Contract "Noll"]\n[Declarer ""]\n')
        seen.append(state())
        raise OSError("the disk went away")

    with pytest.raises(OSError, match="disk"):
        validate(records())  # type: ignore[arg-type]
    assert state() == before
    # While the batch ran, the collector was tuned: fewer young collections, heap frozen.
    assert seen[0][1][0] == GEN0_THRESHOLD and seen[0][2]


def test_nested_scopes_keep_an_outer_freeze(host_gc: None) -> None:
    gc.unfreeze()
    with collector_tuned():
        outer = state()
        with collector_tuned():
            pass
        assert state() == outer  # the inner scope did not unfreeze the outer one's heap
    assert gc.get_freeze_count() == 0


def test_import_restores_the_collector(host_gc: None, tmp_path: object) -> None:
    import io
    from pathlib import Path

    from priffe_records.archive.importing import SourceError, import_file
    from priffe_records.archive.schema import open_archive

    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    before = state()
    db = open_archive(str(Path(str(tmp_path)) / "a.db"))
    text = dumps(generate_records(12, seed=4)).encode()
    assert import_file(db, io.BytesIO(text), name="x.ppn").new == 12
    assert state() == before

    class Failing(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, b: bytearray | memoryview) -> int:  # type: ignore[override]
            raise OSError(5, "Input/output error")

    with pytest.raises(SourceError):
        import_file(db, io.BufferedReader(Failing()), name="bad.ppn")
    assert state() == before


@pytest.mark.parametrize("enabled", [True, False])
def test_a_paused_collector_is_restored_also_when_the_batch_raises(host_gc: None,
                                                                   enabled: bool) -> None:
    (gc.enable if enabled else gc.disable)()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled() is enabled
    with pytest.raises(OSError, match="disk"), collector_paused():
        raise OSError("the disk went away")
    assert gc.isenabled() is enabled


def test_replay_leaves_the_host_collector_as_it_was(host_gc: None, tmp_path: Path) -> None:
    """``priffe replay`` pauses the collector while it builds its deals and its page, and
    gives it back: a test's CliRunner (a host program) finds it enabled afterwards."""
    from click.testing import CliRunner

    from priffe_records.cli import cli
    from priffe_records.cli import replay as replay_cli

    seen: list[bool] = []
    real = replay_cli.replays_of

    def watched(*args: Any) -> Any:
        seen.append(gc.isenabled())
        return real(*args)

    gc.enable()
    src = tmp_path / "deals.ppn"
    src.write_text("".join(str(r) + "\n" for r in generate_records(3, seed=1)), "utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setattr(replay_cli, "replays_of", watched)
        res = CliRunner().invoke(cli, ["replay", "--html", str(tmp_path / "p.html"), str(src)])
    assert res.exit_code == 0, res.output
    assert seen == [False] and gc.isenabled()


def test_a_command_tunes_the_collector_only_while_it_runs(host_gc: None, tmp_path: Path
                                                          ) -> None:
    """The CLI uses the library's one scope for the whole command: an in-process run
    (a notebook's, a test's) finds the collector as it left it, nothing frozen."""
    from click.testing import CliRunner

    from priffe_records.cli import cli

    gc.unfreeze()
    gc.set_threshold(700, 10, 10)
    src = tmp_path / "a.ppn"
    src.write_text(dumps(generate_records(4, seed=2)), "utf-8")
    result = CliRunner().invoke(cli, ["validate", str(src)])
    assert result.exit_code == 0, result.output
    assert state() == (True, (700, 10, 10), False)
