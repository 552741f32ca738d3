"""Shared fixtures: paths to the shared corpus and the examples."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
CORPUS = SHARED / "pbn" / "corpus"
EXAMPLES = ROOT / "examples"
DATA = Path(__file__).resolve().parent / "data"
GOLDEN = Path(__file__).resolve().parent / "golden"


def _compile_catalogs() -> None:
    """Tests read the compiled catalogs: recompile a .po edited since the last build."""
    from priffe_records.game import catalogs

    catalogs.compile_all()


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
