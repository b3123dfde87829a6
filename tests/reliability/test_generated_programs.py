"""Generated programs (hypothesmith): spanlint never raises, and every file gets findings or SPL000.

CI runs a few hundred examples; `pytest -m slow tests/reliability/test_generated_programs.py` runs
10,000 (`SPANLINT_FUZZ_EXAMPLES=N` sets every test's count; docs/reliability.md).
"""

from __future__ import annotations

import ast
import os
import warnings

import hypothesmith
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from spanlint import Settings, check_source

ALL = Settings(select=("ALL",))
pytestmark = pytest.mark.filterwarnings("ignore::SyntaxWarning")  # from hypothesmith compiling its programs
SPAN_CODE = "def compress(span):\n    span.content = span.content[:100]\n"


def _check(source: str) -> None:
    findings = check_source(source, "generated.py", ALL)
    internal = [d.message for d in findings if d.code == "SPL000" and "internal error" in d.message]
    assert internal == [], internal
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # hypothesmith's programs are full of SyntaxWarnings
            ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        assert [d.code for d in findings] == ["SPL000"], "an unparsable file gets exactly its SPL000"


def _examples(default: int) -> int:
    return int(os.environ.get("SPANLINT_FUZZ_EXAMPLES", default))


_PROGRAMS = st.one_of(hypothesmith.from_grammar(), hypothesmith.from_node())
FAST = dict(deadline=None, suppress_health_check=list(HealthCheck))


@settings(max_examples=_examples(120), **FAST)
@given(hypothesmith.from_grammar())
def test_module_generated_from_the_grammar_never_raises(source: str) -> None:
    _check(source)


@settings(max_examples=_examples(60), **FAST)
@given(hypothesmith.from_node())
def test_module_generated_from_syntax_trees_never_raises(source: str) -> None:
    _check(source)


@settings(max_examples=_examples(30), **FAST)
@given(hypothesmith.from_node())
def test_finding_is_reported_whatever_code_follows_it(generated: str) -> None:
    source = SPAN_CODE + generated
    _check(source)
    findings = check_source(source, "generated.py", ALL)
    assert ("SPL101", 2) in {(d.code, d.location.line) for d in findings} or [d.code for d in findings] == ["SPL000"]


@pytest.mark.slow
@settings(max_examples=_examples(10_000), **FAST)
@given(_PROGRAMS)
def test_generated_module_never_raises_long_run(source: str) -> None:
    _check(source)
