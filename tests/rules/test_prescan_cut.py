"""Cutting a file to the definitions its pre-filters found a shape in keeps every line and column."""

from __future__ import annotations

from spanlint.engine import lint_source
from spanlint.settings import Settings
from spanlint.rules.prescan import cut_to_definitions
from spanlint.rules.project import summarize_source
from spanlint.rules.rewrites import ContentWritePrefilter
from runtime_guard.vocabulary import DEFAULT_VOCABULARY


CUT_SOURCE = (
    "import dataclasses\r\n"
    "LIMIT = 3\r\n"
    "\r\n"
    "@dataclasses.dataclass\r\n"
    "class Span:\r\n"
    "    id: str\r\n"
    "    content: str\r\n"
    "    version: int = 0\r\n"
    "\r\n"
    "    @property\r\n"
    "    def size(self):\r\n"
    "        return len(self.content)\r\n"
    "\r\n"
    "    def redact(self, text):\r\n"
    "        self.content = text\r\n"
    "\r\n"
    "def helper(spans):\r\n"
    "    return [s.id for s in spans]\r\n"
)


def test_cut_blanks_other_definitions_and_keeps_every_position() -> None:
    summary = summarize_source(CUT_SOURCE, DEFAULT_VOCABULARY)
    keep = summary.shape_definitions[ContentWritePrefilter.shape]
    cut = cut_to_definitions(CUT_SOURCE, summary.definitions, keep)
    assert [first for first, _, _ in summary.definitions] == [10, 14, 17]
    assert keep == {1}  # only `redact` writes content
    assert cut.split("\r\n") == [
        *CUT_SOURCE.split("\r\n")[:9], "    pass", "", "", "",
        *CUT_SOURCE.split("\r\n")[13:16], "pass", "", "",
    ]
    compile(cut, "cut.py", "exec")


def test_cut_keeps_findings_and_their_positions() -> None:
    settings = Settings(select=("SPL101",))
    with_cut = lint_source(CUT_SOURCE, "spans.py", settings)
    assert [(d.code, d.location.line, d.location.column) for d in with_cut] == [("SPL101", 15, 9)]
    assert with_cut == lint_source(CUT_SOURCE, "spans.py", settings, prescan=False)


def test_a_file_with_other_line_breaks_is_never_cut() -> None:
    source = CUT_SOURCE.replace("LIMIT = 3", "LIMIT = 3  # \x0c form feed")
    summary = summarize_source(source, DEFAULT_VOCABULARY)
    assert cut_to_definitions(source, summary.definitions, frozenset()) == source
