"""spanlint's engine and its Python API."""

from __future__ import annotations

from lint.diagnostics import Diagnostic, Edit, FixSummary, Location
from lint.engine import lint_source
from lint.settings import Settings
from rules.project import ProjectIndex

__all__ = ["Diagnostic", "Edit", "FixSummary", "Location", "Settings", "check_source"]


def check_source(source: str, path: str = "<string>", config: Settings | None = None, project: ProjectIndex | None = None) -> list[Diagnostic]:
    """Lint one source text as if it were the file at `path`."""
    return lint_source(source, path, config or Settings(), project)
