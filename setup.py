"""The build compiles the gettext catalogs (``.po`` → ``.mo``) with Babel; everything else is
in pyproject.toml. An editable install compiles them in place, next to the ``.po`` files."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from typing import Any, ClassVar

from setuptools import Command, setup
from setuptools.command.build import build

HERE = Path(__file__).resolve().parent


def _catalogs() -> Any:
    # Loaded by path: importing the package would need its runtime dependencies.
    spec = importlib.util.spec_from_file_location(
        "priffe_catalogs", HERE / "priffe_records" / "game" / "catalogs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class build_catalogs(Command):
    description = "compile the gettext catalogs (.po -> .mo) with Babel"
    user_options: ClassVar[list[tuple[str, str | None, str]]] = []
    editable_mode = False
    build_lib: str | None = None

    def initialize_options(self) -> None:
        self.build_lib = None

    def finalize_options(self) -> None:
        self.set_undefined_options("build_py", ("build_lib", "build_lib"))

    def _pairs(self) -> list[tuple[Path, Path]]:
        cat = _catalogs()
        out = []
        for po in sorted(cat.LOCALE_DIR.glob(f"*/LC_MESSAGES/{cat.DOMAIN}.po")):
            rel = po.relative_to(HERE).with_suffix(".mo")
            target = HERE / rel if self.editable_mode else Path(self.build_lib or "") / rel
            out.append((po, target))
        return out

    def run(self) -> None:
        cat = _catalogs()
        for po, mo in self._pairs():
            cat.compile_po(po, mo)

    def get_outputs(self) -> list[str]:
        return [str(mo) for _, mo in self._pairs()]

    def get_source_files(self) -> list[str]:
        return [str(po.relative_to(HERE)) for po, _ in self._pairs()]

    def get_output_mapping(self) -> dict[str, str]:
        return {str(mo): str(po) for po, mo in self._pairs()}


build.sub_commands.append(("build_catalogs", None))
setup(cmdclass={"build_catalogs": build_catalogs})
