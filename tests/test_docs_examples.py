"""Every ```python block of README.md and docs/*.md runs, and docs/api.md is what make_api makes.

An example a reader copies must work as printed: each block runs on its own
in a temporary folder that holds a copy of examples/, the way a user runs it
from a clone.
"""

from __future__ import annotations

import re
import runpy
import shutil
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
# A fence may be indented (a block inside a list item); its body is dedented.
_BLOCK = re.compile(r"^([ \t]*)```python[ \t]*\n(.*?)^\1```[ \t]*$", re.M | re.S)


def python_blocks(text: str) -> list[tuple[int, str]]:
    """(line, code) of each ```python block of a Markdown text."""
    return [(text.count("\n", 0, m.start()) + 1, textwrap.dedent(m.group(2)))
            for m in _BLOCK.finditer(text)]


EXAMPLES = [pytest.param(code, id=f"{page.relative_to(ROOT)}:{line}")
            for page in PAGES
            for line, code in python_blocks(page.read_text(encoding="utf-8"))]


def test_blocks_are_found() -> None:
    text = "x\n```python\nprint(1)\n```\n  1. item\n\n   ```python\n   a = 2\n   ```\n"
    assert python_blocks(text) == [(2, "print(1)\n"), (7, "a = 2\n")]
    assert len(EXAMPLES) >= 5  # README, api, archive, preference, replay, translating


@pytest.mark.parametrize("code", EXAMPLES)
def test_example_runs(code: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    script = tmp_path / "example.py"
    script.write_text(code, encoding="utf-8")
    runpy.run_path(str(script), run_name="__main__")


def test_api_page_is_up_to_date() -> None:
    make_api = runpy.run_path(str(ROOT / "docs" / "make_api.py"))
    assert (ROOT / "docs" / "api.md").read_text(encoding="utf-8") == make_api["render"](), \
        "docs/api.md is out of date: run python docs/make_api.py"
