"""Shared test setup: paths, the real files every test reads, hypothesis profiles, ``slow``.

A user's clone has no ``../shared`` beside it: the corpus lists are empty there and
the tests that need the corpus skip, while the project's own files are always read.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, settings

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "pbn" / "corpus"
EXAMPLES = ROOT / "examples"
DATA = Path(__file__).resolve().parent / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"

# ---------------------------------------------------------------- the real files
# The project's own files, in every clone:
EXAMPLE_FILES = sorted(EXAMPLES.glob("*.ppn"))
FIXTURE_FILES = sorted(DATA.glob("*.ppn"))  # written by hand for the tests
# Small files by hand, each in the shape of a named program's output (PBN and PPN).
CONFORMANCE_FILES = sorted((DATA / "conformance").glob("*.p?n"))
GOLDEN_FILES = sorted(GOLDEN.glob("*.ppn"))
PPN_FILES = EXAMPLE_FILES + FIXTURE_FILES + GOLDEN_FILES
PROJECT_FILES = PPN_FILES + CONFORMANCE_FILES
# Bridge PBN files from ../shared, when it is beside the clone (never copied in).
CORPUS_FILES = sorted(CORPUS.glob("*.pbn")) if CORPUS.is_dir() else []
REAL_FILES = PROJECT_FILES + CORPUS_FILES

# ---------------------------------------------------------------- hypothesis
# A shared 2-core machine: a deadline would measure the load, not the code.
_COMMON = {"deadline": None, "suppress_health_check": [HealthCheck.too_slow]}
settings.register_profile("dev", max_examples=10, **_COMMON)
settings.register_profile("ci", max_examples=100, print_blob=True, **_COMMON)
settings.register_profile("deep", max_examples=1000, **_COMMON)
PROFILE = os.environ.get("HYPOTHESIS_PROFILE") or (
    "ci" if os.environ.get("CI") == "true" else "dev")
settings.load_profile(PROFILE)
# The loops of seeded cases outside hypothesis (byte-level fuzz) run long with 'deep'.
DEEP = PROFILE == "deep"


def scaled(weight: float) -> settings:
    """The profile's number of examples times ``weight`` (at least one).

    Tests differ in cost per example by a hundredfold: a cheap text fuzz takes more
    examples than the profile's count, a whole generated partie fewer.
    """
    return settings(max_examples=max(1, round(settings.default.max_examples * weight)))


def _is_property(item: pytest.Item) -> bool:
    return bool(getattr(getattr(item, "obj", None), "is_hypothesis_test", False))


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every hypothesis test is ``slow``: its cost is its profile's count of examples."""
    for item in items:
        if _is_property(item):
            item.add_marker(pytest.mark.slow)


# ---------------------------------------------------------------- the environment


def _compile_catalogs() -> None:
    """Tests read the compiled catalogs: recompile a .po edited since the last build."""
    from priffe_records.game import catalogs

    catalogs.compile_all()


if "PYTEST_XDIST_WORKER" not in os.environ:  # the controller compiles, before any worker
    _compile_catalogs()

# English unless a test asks for Swedish: the machine's own locale must not change outputs.
for _name in ("PRIFFE_LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES"):
    os.environ.pop(_name, None)
os.environ["LANG"] = "C.UTF-8"


@pytest.fixture
def corpus_dir() -> Path:
    if not CORPUS.is_dir():
        pytest.skip("../shared/pbn/corpus is not present")
    return CORPUS


@pytest.fixture
def corpus_files() -> list[Path]:
    """The corpus's files; the test skips in a clone without ``../shared``."""
    if not CORPUS_FILES:
        pytest.skip("../shared/pbn/corpus is not present")
    return CORPUS_FILES


@pytest.fixture(scope="module", params=["compiled", "pure"])
def dd_core(request: pytest.FixtureRequest) -> Iterator[ModuleType]:
    """The solver's proofs once with each core (tests/dd_cores.py): a module that uses it
    (``pytestmark = pytest.mark.usefixtures("dd_core")``) runs twice."""
    import dd_cores

    module = dd_cores.compiled_core() if request.param == "compiled" else dd_cores.pure_core()
    with dd_cores.use_core(module):
        yield module
