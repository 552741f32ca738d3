"""The solver's core is one source, compiled where the build can and pure elsewhere.

setup.py compiles ``priffe_records/dd/core.py`` with Cython in its pure-Python mode; where
that fails the package installs the same file as Python (``dd.COMPILED`` says which). The
solver's proofs run with both cores in one run (tests/dd_cores.py, the ``dd_core`` fixture);
here: that the two cores are what they claim, that the pure one needs no Cython, and that a
build without a C compiler still installs a working solver.
"""

from __future__ import annotations

import ast
import doctest
import importlib.machinery
import os
import subprocess
import sys
import venv
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import FrameType, ModuleType

import pytest
from dd_cores import SOURCE, compiled_core, load_source, pure_core, use_core
from dd_oracle import Oracle
from test_wheel import build_wheel

from priffe_records import dd
from priffe_records.dd import Deal, Goal, shadow
from priffe_records.game.cards import Card, Seat

ORDER = (Seat.N, Seat.E, Seat.S)


def _deal(goal: Goal) -> Deal:
    """Three hands of four cards, N measured, no trumps."""
    hands = {Seat.N: "SA S9 H4 D2", Seat.E: "SK H3 HA D5", Seat.S: "SQ S2 H2 D9"}
    return Deal({s: frozenset(map(Card.parse, h.split())) for s, h in hands.items()},
                ORDER, None, Seat.N, frozenset({Seat.N}), goal, must_trump=False)


def _core_frames(run: object) -> int:
    """How many Python frames of ``dd/core.py`` a call runs: none in the compiled core."""
    seen = 0

    def profile(frame: FrameType, event: str, arg: object) -> None:
        nonlocal seen
        seen += event == "call" and frame.f_code.co_filename == str(SOURCE)

    sys.setprofile(profile)
    try:
        assert callable(run)
        run()
    finally:
        sys.setprofile(None)
    return seen


@pytest.fixture(params=["compiled", "pure"])
def core(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    module = compiled_core() if request.param == "compiled" else pure_core()
    with use_core(module):
        yield module


def test_each_core_is_what_it_says_and_is_the_one_that_runs(core: ModuleType) -> None:
    compiled = core.COMPILED
    assert dd.COMPILED is compiled
    suffixes = importlib.machinery.EXTENSION_SUFFIXES if compiled else [".py"]
    assert any(core.__file__.endswith(suffix) for suffix in suffixes), core.__file__
    frames = _core_frames(lambda: dd.value(_deal(Goal.MOST)))
    assert (frames == 0) == compiled, frames
    for goal in Goal:
        deal = _deal(goal)
        oracle = Oracle(deal)
        assert dd.value(deal) == oracle.value()
        assert dd.card_values(deal) == {c: oracle.value((c,)) for c in deal.hands[Seat.N]}


def _root_conftest() -> ModuleType:
    """The project root's conftest.py (``import conftest`` here is tests/conftest.py)."""
    return load_source(SOURCE.parents[2] / "conftest.py", "priffe_root_conftest")


def test_an_extension_older_than_its_source_is_found(tmp_path: Path) -> None:
    stale_extensions = _root_conftest().stale_extensions
    source = tmp_path / "core.py"
    built = tmp_path / ("core" + importlib.machinery.EXTENSION_SUFFIXES[0])
    source.write_text("")
    built.write_bytes(b"")
    os.utime(source, (2_000_000_000, 2_000_000_000))
    os.utime(built, (1_000_000_000, 1_000_000_000))
    assert stale_extensions(source) == [built]
    os.utime(built, (2_000_000_001, 2_000_000_001))
    assert stale_extensions(source) == []


def test_the_core_doctests_pass_in_both(core: ModuleType) -> None:
    # Collected by pytest the .py file would import as the extension (conftest.py skips it).
    found = doctest.DocTestFinder().find(pure_core())
    if not any(t.examples for t in found):
        pytest.skip("dd/core.py has no doctests")
    result = doctest.testmod(core, raise_on_error=False, verbose=False)
    assert result.attempted == sum(len(t.examples) for t in found)
    assert result.failed == 0


def _cython_names(source: str) -> set[str]:
    """Every ``cython.NAME`` the core's source evaluates (decorators, declares, casts),
    annotations included: shadow.py must have each for a machine without Cython."""
    return {node.attr for node in ast.walk(ast.parse(source))
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
            and node.value.id == "cython"}


def test_the_shadow_module_has_every_cython_name_the_core_uses() -> None:
    used = _cython_names(SOURCE.read_text("utf-8"))
    assert "compiled" in used
    assert sorted(name for name in used if not hasattr(shadow, name)) == []


def test_the_shadow_check_finds_a_missing_name() -> None:
    assert not hasattr(shadow, "p_uchar")
    assert "p_uchar" in _cython_names("import cython\nx: cython.p_uchar\n")


def test_the_pure_core_runs_without_cython_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "cython", None)  # `import cython` now fails
    monkeypatch.setitem(sys.modules, "priffe_records.dd._core_nocython", None)
    module = load_source(SOURCE, "priffe_records.dd._core_nocython")
    assert module.cython is shadow
    with use_core(module):
        assert dd.COMPILED is False
        for goal in Goal:
            assert dd.value(_deal(goal)) == Oracle(_deal(goal)).value()


@pytest.mark.slow  # builds a wheel and installs it in a fresh venv
def test_without_a_c_compiler_the_wheel_installs_the_pure_core(tmp_path: Path) -> None:
    env = {**os.environ, "CC": "false", "LDSHARED": "false"}
    wheel, output = build_wheel(tmp_path, env)
    assert "WARNING: priffe_records.dd.core is not compiled" in output, output[-2000:]
    names = zipfile.ZipFile(wheel).namelist()
    assert "priffe_records/dd/core.py" in names
    assert [n for n in names if n.startswith("priffe_records/dd/core.")] == [
        "priffe_records/dd/core.py"]
    env_dir = tmp_path / "venv"
    # No pip of the venv's own (seeding it took 3 s): this pip installs into it (--python),
    # as tests/test_wheel.py does.
    venv.EnvBuilder(with_pip=False, system_site_packages=False).create(env_dir)
    py = str(env_dir / "bin" / "python")
    # The solver imports nothing outside the standard library: no dependencies needed.
    pip = subprocess.run([sys.executable, "-m", "pip", "--python", py, "install", "-q",
                          "--no-deps", "--no-compile", str(wheel)],
                         capture_output=True, text=True, timeout=600)
    assert pip.returncode == 0, pip.stderr[-2000:]
    solve = ("from priffe_records import dd\n"
             "from priffe_records.dd import core\n"
             "from priffe_records.game.cards import Card, Seat\n"
             "hands = {Seat.N: 'SA S9 H4 D2', Seat.E: 'SK H3 HA D5', "
             "Seat.S: 'SQ S2 H2 D9'}\n"
             "deal = dd.Deal({s: frozenset(map(Card.parse, h.split())) for s, h in "
             "hands.items()}, (Seat.N, Seat.E, Seat.S), None, Seat.N, frozenset({Seat.N}), "
             "dd.Goal.MOST, must_trump=False)\n"
             "print(dd.COMPILED, core.cython.__name__, dd.value(deal))\n")
    proc = subprocess.run([py, "-c", solve], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120)
    most = Oracle(_deal(Goal.MOST)).value()
    assert proc.stdout.split() == ["False", "priffe_records.dd.shadow", str(most)], proc.stderr


def test_without_cython_the_build_warns_and_leaves_the_core_pure(tmp_path: Path) -> None:
    # setup.py's build_ext as pip runs it, with `import Cython` failing.
    run = ("import runpy, sys\n"
           "sys.modules['Cython'] = sys.modules['Cython.Build'] = None\n"
           f"sys.argv = ['setup.py', 'build_ext', '--build-lib', {str(tmp_path / 'lib')!r},"
           f" '--build-temp', {str(tmp_path / 'temp')!r}]\n"
           "runpy.run_path('setup.py', run_name='__main__')\n")
    proc = subprocess.run([sys.executable, "-c", run], cwd=SOURCE.parents[2],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert ("WARNING: priffe_records.dd.core is not compiled (Cython is not installed)"
            in proc.stderr)
    assert not list(tmp_path.rglob("core*"))


def test_version_names_the_solvers_that_run() -> None:
    """``priffe --version`` says DDS (with endplay's version) for positive contracts where
    endplay is installed, and compiled or pure for the own core: what ``dd`` imported."""
    from importlib.metadata import version

    from click.testing import CliRunner

    from priffe_records.cli import cli

    out = CliRunner().invoke(cli, ["--version"]).output
    core = "compiled" if dd.COMPILED else "pure Python, slower"
    if dd.dds.available():
        assert (f"double-dummy: DDS (endplay {version('endplay')}) for positive contracts, "
                f"own solver ({core}) for misère and three hands") in out
    else:
        assert f"own solver ({core}) for every contract; DDS is not installed" in out
    sv = CliRunner().invoke(cli, ["--lang", "sv", "--version"]).output
    assert "egen lösare (" + ("kompilerad" if dd.COMPILED else "ren Python") in sv


def test_version_without_endplay_says_the_own_solver_answers_all(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from importlib.metadata import PackageNotFoundError

    from click.testing import CliRunner

    from priffe_records.cli import cli, version

    def missing(name: str) -> str:
        raise PackageNotFoundError(name)

    monkeypatch.setattr(version, "installed_version", missing)
    out = CliRunner().invoke(cli, ["--version"]).output
    assert "own solver (" in out and "for every contract; DDS is not installed" in out


def test_version_reads_the_core_from_the_files_beside_the_source(tmp_path: Path) -> None:
    from priffe_records.cli.version import core_compiled

    source = tmp_path / "core.py"
    source.write_text("")
    assert not core_compiled(source)
    (tmp_path / ("core" + importlib.machinery.EXTENSION_SUFFIXES[0])).write_bytes(b"")
    assert core_compiled(source)
