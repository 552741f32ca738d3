"""benchmarks/aims.py prints every aim of issue 21 in one run (a smoke test on small inputs).

Its figures are not checked here (small inputs on a shared machine say little); that every
aim gets its line, with the figure, the aim, met or not and the load, is.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

AIMS = Path(__file__).resolve().parent.parent / "benchmarks" / "aims.py"
LINE = re.compile(r"^(?P<name>.+?)\s{2,}(?P<measured>\S.*?)\s+(?P<value>\d+\.\d\d)\s+"
                  r"(?P<aim>[≤≥] \S+(?: s| MB)?)\s+(?P<met>met|NOT met)\s+(?P<load>\d+\.\d\d)$")
NAMES = ("priffe --version CPU", "completion", "score / validate CPU", "replay --html CPU",
         "replay --html page", "validate peak RSS", "validate -j 2 tree RSS",
         "import -j 1 tree RSS", "import -j 2 tree RSS", "read × endplay, CPU",
         "read + validate × endplay, CPU", "import × endplay, CPU")


@pytest.mark.slow
def test_aims_prints_every_aim_with_its_figure_and_the_load() -> None:
    pytest.importorskip("endplay", reason="the bench extra (endplay) is the peer")
    if shutil.which("sqlite-utils") is None and \
            not (Path(sys.executable).parent / "sqlite-utils").exists():
        pytest.skip("sqlite-utils is the start-up aim's reference")
    # Instruction counts need valgrind and minutes even on small files: left out here.
    run = subprocess.run([sys.executable, str(AIMS), "--quick", "--skip", "instructions"],
                         capture_output=True, text=True, check=False, cwd=AIMS.parent,
                         timeout=900)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = [m for line in run.stdout.splitlines() if (m := LINE.match(line))]
    assert [m["name"] for m in lines if not m["name"].startswith(NAMES)] == []
    for name in NAMES:
        assert sum(m["name"].startswith(name) for m in lines) == 1, (name, run.stdout)
    assert re.search(r"^\d+ of 12 aims met; load average \d+\.\d\d at the end$", run.stdout,
                     re.M), run.stdout
