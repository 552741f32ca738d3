"""The build compiles the gettext catalogs (``.po`` → ``.mo``) with Babel, and the solver's
core (``priffe_records/dd/core.py``) with Cython where it can; everything else is in
pyproject.toml. An editable install builds both in place, next to their sources.

The core is one source: the ``.py`` file, typed for Cython in its pure-Python mode. Where
Cython or a working C compiler is missing, the build prints one warning and the package
installs pure Python, which runs the same code (Python imports the extension module ahead of
the ``.py`` file when both are there, so nothing at run time chooses between them).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any, ClassVar

from setuptools import Command, Extension, setup
from setuptools.command.build import build
from setuptools.command.build_ext import build_ext

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


# The modules compiled from their own .py source (Cython's pure-Python mode).
COMPILED_MODULES = ["priffe_records.dd.core"]


def _warn_pure(module: str, why: object) -> None:
    print(f"WARNING: {module} is not compiled ({why}); it installs as pure Python, "
          "which gives the same results, only slower.", file=sys.stderr)


class optional_build_ext(build_ext):
    """Compile each module with Cython and the C compiler; a module that fails stays pure.

    Cython turns the ``.py`` source into C here, not when setup.py is loaded, so an sdist
    or a metadata query needs neither Cython nor a compiler; the C goes to the build folder.
    A module that did not compile leaves the list, so neither the wheel nor an editable
    install looks for its extension file.
    """

    def build_extensions(self) -> None:
        self.extensions = [ext for ext in self.extensions if self._compiled(ext)]

    def _compiled(self, ext: Extension) -> bool:
        try:
            from Cython.Build import cythonize
        except ImportError:
            _warn_pure(ext.name, "Cython is not installed")
            return False
        try:
            (c_module,) = cythonize(
                [ext], build_dir=str(Path(self.build_temp) / "cython"), quiet=True,
                compiler_directives={"language_level": 3})
            ext.sources = c_module.sources
            if self.compiler.compiler_type == "unix":  # no debug symbols: a sixth of the size
                ext.extra_compile_args = ["-g0"]
            self.build_extension(ext)
        except Exception as error:  # Cython's or the C compiler's failure, whichever: pure
            _warn_pure(ext.name, f"{type(error).__name__}: {error}")
            return False
        return True


build.sub_commands.append(("build_catalogs", None))
setup(
    cmdclass={"build_catalogs": build_catalogs, "build_ext": optional_build_ext},
    ext_modules=[Extension(name, [name.replace(".", "/") + ".py"])
                 for name in COMPILED_MODULES],
)
