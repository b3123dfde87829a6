"""runtime_guard goes into production processes: it must import only the standard library."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

PROGRAM = r'''
import importlib.abc, sys
BLOCKED = {"libcst", "typer", "rich", "yaml", "spanlint", "lint", "rules", "pytest", "attrs", "pydantic", "hypothesis"}

class Block(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in BLOCKED:
            raise ImportError(f"blocked import of {name}")
        return None

sys.meta_path.insert(0, Block())
import hashlib
from dataclasses import dataclass
from runtime_guard import guard, StaleSpanError, DecisionLog, SpanCache, check_artifact

@dataclass
class Span:
    span_id: str
    content: str
    version: int = 1

@guard("rewrite")
def edit(spans):
    spans[0].content = "new"

try:
    edit([Span("a", "old")])
except StaleSpanError:
    print("caught")
loaded = sorted(m.split(".")[0] for m in sys.modules if m.split(".")[0] in BLOCKED)
print("third-party:", loaded)
'''


def test_runtime_guard_imports_and_works_with_third_party_imports_blocked():
    result = subprocess.run([sys.executable, "-c", PROGRAM], cwd=REPO, capture_output=True, text=True,
                            timeout=60)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines() == ["caught", "third-party: []"]
