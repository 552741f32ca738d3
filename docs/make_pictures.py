"""Regenerate the replay pictures in docs/: the terminal replay (SVG) and the HTML viewer (PNG).

Run from the repository root::

    python docs/make_pictures.py

The SVG needs only rich. The PNG needs Playwright and a chromium at
/usr/bin/chromium (``.ci/install-browser`` installs both); without them the
PNG is left as it is and the script says so.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from rich.console import Console

from priffe_records.format.reader import read
from priffe_records.replay.html import write_page
from priffe_records.replay.model import build_replays
from priffe_records.replay.terminal import full_view, step_view
from priffe_records.replay.wording import WORDS

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
DEAL = ROOT / "tests" / "golden" / "replay-example.ppn"  # FORMAT.md's example deal
CHROMIUM = os.environ.get("PRIFFE_CHROMIUM", "/usr/bin/chromium")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
TRICKS_SHOWN = 5  # the screenshot stops mid-play, so the table shows a trick and hands left


def terminal_svg(out: Path) -> None:
    [replay] = build_replays(list(read(DEAL)))
    console = Console(record=True, width=84, force_terminal=True, color_system="truecolor",
                      file=open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115
    console.print(step_view(replay, WORDS["sv"], TRICKS_SHOWN)
                  if "--step" in sys.argv else full_view(replay, WORDS["sv"]))
    console.save_svg(str(out), title="priffe replay deal.ppn")
    console.file.close()
    print(f"wrote {out.relative_to(ROOT)}")


def html_png(out: Path) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("skipped the PNG: playwright is not installed (run .ci/install-browser)")
        return
    if not os.access(CHROMIUM, os.X_OK):
        print(f"skipped the PNG: no browser at {CHROMIUM} (run .ci/install-browser)")
        return
    with tempfile.TemporaryDirectory() as tmp:
        page_file = Path(tmp) / "replay.html"
        write_page(page_file, build_replays(list(read(DEAL))), WORDS["sv"])
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport={"width": 1200, "height": 660})
            page.goto(page_file.as_uri())
            for _ in range(TRICKS_SHOWN):
                page.click("#next")
            page.screenshot(path=str(out), full_page=True)
            browser.close()
    print(f"wrote {out.relative_to(ROOT)}")


if __name__ == "__main__":
    terminal_svg(DOCS / "replay-terminal.svg")
    html_png(DOCS / "replay-html.png")
