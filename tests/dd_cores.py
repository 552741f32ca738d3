"""The solver's two cores in one test run: the module the build compiled from
``priffe_records/dd/core.py`` with Cython, and the same file loaded as plain Python.

The package itself never chooses: Python imports the extension ahead of the ``.py`` file
when the build made one. The tests take the pure core by loading ``core.py`` by path under
another module name, and hand it to ``priffe_records.dd`` in the compiled core's place for
the length of a test module (``use_core``); the fixture ``dd_core`` in conftest.py runs a
module once with each.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from types import ModuleType

import pytest

from priffe_records import dd
from priffe_records.dd import core, engine

SOURCE = Path(dd.__file__).with_name("core.py")
PURE_NAME = "priffe_records.dd._core_pure"


def load_source(path: Path, name: str) -> ModuleType:
    """``path`` run as Python source under the module name ``name``, whatever compiled
    module sits beside it (entered in ``sys.modules`` first, as an import does)."""
    loader = importlib.machinery.SourceFileLoader(name, str(path))
    module = ModuleType(name)
    module.__file__ = str(path)
    sys.modules[name] = module
    loader.exec_module(module)
    return module


def load_core(path: Path) -> ModuleType:
    """A core from a file: ``core.py`` source of any version, or an extension module a
    build compiled from one (named after the file's stem, as Cython names its init);
    for a benchmark's baseline measured in the same run."""
    name = path.name.split(".")[0]
    if path.suffix == ".py":
        return load_source(path, f"priffe_records.dd._{name}_baseline")
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def pure_core() -> ModuleType:
    """``dd/core.py`` run as Python source, whatever the build made (loaded once)."""
    return sys.modules.get(PURE_NAME) or load_source(SOURCE, PURE_NAME)


def compiled_core() -> ModuleType:
    """The compiled core; skips the test where the build made none, and fails it under
    ``CI=true``, where the build must prove both cores."""
    if not core.COMPILED:
        why = (f"no compiled solver core beside {SOURCE} (the build found no Cython or "
               "no C compiler); `pip install -e .` with both makes it")
        if os.environ.get("CI") == "true":
            pytest.fail(why)
        pytest.skip(why)
    return core


@contextmanager
def use_core(module: ModuleType) -> Iterator[None]:
    """``priffe_records.dd`` running on ``module``: every name it and its engine
    (``dd/engine.py``) took from the imported core (the search, its helpers, ``COMPILED``)
    is ``module``'s until the block ends."""
    taken = [(user, name, value) for user in (dd, engine) for name, value in vars(user).items()
             if not name.startswith("__") and getattr(core, name, _NOT) is value]
    try:
        for user, name, _ in taken:
            setattr(user, name, getattr(module, name))
        yield
    finally:
        for user, name, value in taken:
            setattr(user, name, value)


_NOT = object()
