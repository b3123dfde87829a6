"""The rules over a broad corpus of realistic modules, each line's expected findings marked in place.

A corpus file names the rules it checks in a header comment `# rules: SPL101, SPL102` and marks
every line that must have a finding with a trailing `# expect: SPL101` (several codes separated by
commas). For those rules, the findings must be exactly the marked lines: an unmarked finding is a
false positive, a marked line without one a miss.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from spanlint import Settings, check_source
from tests.rules.conftest import expected_findings

CORPUS = Path(__file__).parent / "corpus"
_RULES = re.compile(r"^#\s*rules:\s*(?P<codes>.+)$", re.MULTILINE)



@pytest.mark.parametrize("path", sorted(CORPUS.rglob("*.py")), ids=lambda p: str(p.relative_to(CORPUS)))
def test_corpus_file(path: Path) -> None:
    source = path.read_text(encoding="utf-8")
    header = _RULES.search(source)
    assert header, f"{path.name} lacks a '# rules: SPL...' header"
    codes = tuple(c.strip() for c in header.group("codes").split(","))
    found = {
        (d.location.line, d.code)
        for d in check_source(source, path.name, Settings(select=codes))
        if d.code in codes
    }
    expected = {(line, code) for line, code in expected_findings(source) if code in codes}
    assert sorted(found - expected) == [], "false positives (line, code)"
    assert sorted(expected - found) == [], "missed findings (line, code)"
