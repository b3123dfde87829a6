"""Helpers shared by the rule tests."""

from __future__ import annotations

import re

_EXPECT = re.compile(r"#\s*expect:\s*(?P<codes>SPL\d{3}(?:\s*,\s*SPL\d{3})*)")


def expected_findings(source: str) -> set[tuple[int, str]]:
    """(line, code) of every finding `source` marks with a trailing `# expect: SPL101[, SPL102]`."""
    return {
        (number, code.strip())
        for number, line in enumerate(source.splitlines(), start=1)
        for match in [_EXPECT.search(line)]
        if match
        for code in match.group("codes").split(",")
    }
