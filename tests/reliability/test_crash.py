"""`kill -9` at random points: afterwards a run with the cache reports exactly what `--no-cache` does,
and a killed `--fix` leaves neither a temporary file nor a broken source behind."""

from __future__ import annotations

import ast
import os
import random
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.reliability.helpers import REPO, spanlint

CORPUS = REPO / "tests" / "rules" / "corpus"
KILLS = 3


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    (root / ".git").mkdir()
    for source in sorted(CORPUS.glob("*.py"))[:24]:  # small: CI-sized
        shutil.copy(source, root / source.name)
    return root


def _killed(root: Path, *args: str, seed: int) -> None:
    """Start `spanlint check ARGS` and kill it and its workers with SIGKILL after a random delay."""
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    delays = random.Random(seed)
    for _ in range(KILLS):
        run = subprocess.Popen(
            [sys.executable, "-m", "spanlint", "check", *args, "--output-format", "json"], cwd=root, env=env,
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True,
        )
        time.sleep(delays.uniform(0.2, 4.0))
        try:
            os.killpg(run.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass  # it finished first
        run.wait()


def test_after_kills_a_cached_run_reports_what_no_cache_does(project: Path) -> None:
    _killed(project, "--select", "ALL", seed=17)
    cached = spanlint(project, "--select", "ALL")
    assert cached.stderr == ""
    assert (cached.code, cached.findings) == (
        (uncached := spanlint(project, "--select", "ALL", "--no-cache")).code, uncached.findings
    )
    assert spanlint(project, "--select", "ALL").findings == uncached.findings  # and once more, warm


def test_a_killed_fix_leaves_no_temporary_file_nor_broken_source(project: Path) -> None:
    _killed(project, "--fix", "--unsafe-fixes", seed=18)
    finished = spanlint(project, "--fix", "--unsafe-fixes")
    assert "Traceback" not in finished.stderr
    assert [p.name for p in project.iterdir() if p.name.endswith(".spanlint")] == []
    for path in project.glob("*.py"):
        ast.parse(path.read_text(encoding="utf-8"))
    assert spanlint(project).findings == spanlint(project, "--no-cache").findings
