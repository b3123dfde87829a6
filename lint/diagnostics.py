"""The findings spanlint reports: plain, picklable, ordered data."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from spanlint.rules.base import Applicability, Severity

__all__ = ["Applicability", "Diagnostic", "Edit", "FixSummary", "Location", "Severity", "sort_diagnostics"]


@dataclass(frozen=True, order=True)
class Location:
    """A 1-based line and column."""

    line: int
    column: int


@dataclass(frozen=True)
class Edit:
    """Replace the text from `location` up to `end_location` with `content`."""

    content: str
    location: Location
    end_location: Location


@dataclass(frozen=True)
class FixSummary:
    """A fix as reported: what it does, how safe it is, and the text edits it makes."""

    message: str
    applicability: Applicability
    edits: tuple[Edit, ...]


@dataclass(frozen=True)
class Diagnostic:
    """One finding of one rule at one place in one file."""

    path: str
    location: Location
    end_location: Location
    code: str
    name: str
    message: str
    severity: Severity = "error"
    fix: FixSummary | None = None
    # What to do about it (the `help:` line), apart from the message, which states the fact and the place.
    help: str | None = None
    # The source line(s) of the finding, stripped: the basis of the stable fingerprint.
    snippet: str = field(default="", compare=False)
    # The test during which the runtime guard found it (merged by `--runtime-report`); None: found statically.
    runtime_test: str | None = None
    # Not a finding: the rule `code` failed on this file at `location` (a bug in spanlint, to report).
    internal: bool = False

    @property
    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.path, self.location.line, self.location.column, self.code)

    @property
    def fingerprint(self) -> str:
        """A stable id for this finding that survives unrelated edits (no line numbers in it)."""
        text = "\0".join((self.path, self.code, " ".join(self.snippet.split())))
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def sort_diagnostics(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """Sort by path, line, column, code: the one order every report uses."""
    return sorted(diagnostics, key=lambda d: (d.sort_key, d.message))
