"""SPL102's fix, offered only when the configuration names the digest function."""

from __future__ import annotations

import libcst as cst

from spanlint import Settings, check_source
from runtime_guard.vocabulary import Vocabulary
from tests.rules.test_examples import _apply_edits

SOURCE = '''"""Span operators."""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Span:
    span_id: str
    content: str
    version: int
    content_hash: str


def redact(span: Span) -> None:
    span.content = scrub(span.content)  # strip secrets
    span.version += 1
'''

FIXED = '''"""Span operators."""
from __future__ import annotations

from myproj.spans import digest
from dataclasses import dataclass


@dataclass
class Span:
    span_id: str
    content: str
    version: int
    content_hash: str


def redact(span: Span) -> None:
    span.content = scrub(span.content)  # strip secrets
    span.content_hash = digest(span.content)
    span.version += 1
'''

WITH_DIGEST = Settings(select=("SPL102",), vocabulary=Vocabulary.from_mapping({"digest_function": "myproj.spans.digest"}))


def _findings(source: str, settings: Settings):
    return [d for d in check_source(source, "ops.py", settings) if d.code == "SPL102"]


def test_no_fix_without_a_configured_digest_function() -> None:
    (finding,) = _findings(SOURCE, Settings(select=("SPL102",)))
    assert finding.fix is None


def test_fix_recomputes_the_hash_and_imports_the_digest_function() -> None:
    (finding,) = _findings(SOURCE, WITH_DIGEST)
    assert finding.fix is not None and finding.fix.applicability == "unsafe"
    fixed = _apply_edits(SOURCE, finding.fix.edits)
    assert fixed == FIXED
    cst.parse_module(fixed)
    assert _findings(fixed, WITH_DIGEST) == []


def test_fix_reuses_an_existing_import() -> None:
    source = SOURCE.replace("from dataclasses import dataclass\n", "from dataclasses import dataclass\n\nfrom myproj.spans import digest\n")
    (finding,) = _findings(source, WITH_DIGEST)
    fixed = _apply_edits(source, finding.fix.edits)
    assert fixed.count("from myproj.spans import digest") == 1
    assert "    span.content_hash = digest(span.content)\n" in fixed
    assert _findings(fixed, WITH_DIGEST) == []
