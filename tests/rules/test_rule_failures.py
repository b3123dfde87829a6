"""A rule that raises on a file: the other rules' findings on it stay, the failure names the rule and the line."""

from __future__ import annotations

import pytest

from spanlint.engine import lint_source
from spanlint.settings import Settings
from spanlint.rules.spl201_derived_cache_keyed_on_span_id import DerivedCacheKeyedOnSpanId

SOURCE = (
    "from dataclasses import dataclass, KW_ONLY\n"
    "\n"
    "@dataclass\n"
    "class Citation:\n"
    "    _: KW_ONLY\n"
    "    span_id: str\n"
    "    start_char: int\n"
    "    end_char: int\n"
    "\n"
    "def compress(span):\n"
    "    span.content = span.content[:100]\n"
    "\n"
    "def embed_cached(s):\n"
    "    _EMBEDDING_CACHE[s.span_id] = embed(s.content)\n"
)


def test_a_dataclass_field_named_underscore_is_linted() -> None:
    """`_: KW_ONLY` has no word parts: SPL202 raised IndexError on it and the file became SPL000."""
    found = [(d.code, d.location.line, d.internal) for d in lint_source(SOURCE, "citations.py", Settings(select=("ALL",)))]
    assert ("SPL202", 4, False) in found and ("SPL101", 11, False) in found
    assert not any(code == "SPL000" or internal for code, _, internal in found)


@pytest.mark.parametrize("prescan", [True, False])
def test_a_rule_that_raises_is_an_internal_error_and_the_others_still_report(
    prescan: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings = Settings(select=("ALL",))
    before = lint_source(SOURCE, "citations.py", settings, prescan=prescan)

    def visit_Subscript(self, node):  # LibCST finds visitor methods by their name
        raise IndexError("list index out of range")

    monkeypatch.setattr(DerivedCacheKeyedOnSpanId, "visit_Subscript", visit_Subscript, raising=False)
    after = lint_source(SOURCE, "citations.py", settings, prescan=prescan)
    failures = [d for d in after if d.internal]
    assert [(d.code, d.location.line, d.message) for d in failures] == [
        ("SPL201", 11, "IndexError: list index out of range")
    ]
    assert [d for d in after if not d.internal] == [d for d in before if d.code != "SPL201"]
    assert any(d.code == "SPL201" for d in before)
