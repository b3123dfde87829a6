"""Memory of a file just under the default `max-file-bytes`: a worker stays near 300 MB (slow)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

from spanlint.settings import Settings
from tests.reliability.helpers import REPO

CORPUS = Path("/root/.cache/spanlint-corpus/agents")
MEASURE = """
import resource, sys
from spanlint import Settings, check_source
source = open(sys.argv[1], encoding="utf-8").read()
findings = check_source(source, "big.py", Settings(select=("ALL",)))
assert all(f.code != "SPL000" for f in findings), findings[:1]
print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024)
"""


def _parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):
        return False
    return True


@pytest.mark.slow
@pytest.mark.skipif(not CORPUS.is_dir(), reason="needs the agents corpus")
def test_file_just_under_the_limit_stays_near_300_mb(tmp_path: Path) -> None:
    limit = Settings().max_file_bytes
    parts, size = [], 0
    for path in sorted(CORPUS.rglob("*.py")):
        text = path.read_text(encoding="utf-8", errors="replace")
        if "from __future__" in text or size + len(text.encode()) + 1 > limit or not _parses(text):
            continue
        parts.append(text + "\n")
        size += len(text.encode()) + 1
        if size > limit * 0.95:
            break
    big = tmp_path / "big.py"
    big.write_text("".join(parts), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", MEASURE, str(big)], cwd=REPO, capture_output=True, text=True, timeout=600, check=True
    )
    peak_mb = int(done.stdout.split()[-1])
    print(f"{size:,} bytes of code: peak RSS {peak_mb} MB")
    assert peak_mb < 400, f"{size:,} bytes of code: peak RSS {peak_mb} MB"
