"""The shipped example shows every rule firing exactly once, as the README says."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from spanlint.rules import all_rules

REPO = Path(__file__).resolve().parents[2]


def test_every_default_rule_fires_once_on_the_shipped_example() -> None:
    completed = subprocess.run(
        [sys.executable, "-m", "spanlint", "check", "examples/", "--no-cache", "--output-format", "json"],
        cwd=REPO, capture_output=True, text=True, check=False,
    )
    assert completed.returncode == 1, completed.stderr
    codes = sorted(finding["code"] for finding in json.loads(completed.stdout))
    expected = sorted(r.code for r in all_rules() if r.default_enabled and r.code != "SPL000")
    assert codes == expected
