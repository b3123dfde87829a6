"""spanlint's engine and its Python API."""

from __future__ import annotations

from pathlib import Path
from typing import Sequence

from spanlint.diagnostics import Diagnostic, Edit, FixSummary, Location
from spanlint.engine import lint_source
from spanlint.settings import Settings
from spanlint.rules.project import ProjectIndex

__all__ = ["Diagnostic", "Edit", "FixSummary", "Location", "Settings", "check_paths", "check_source"]


def check_source(source: str, path: str = "<string>", config: Settings | None = None, project: ProjectIndex | None = None) -> list[Diagnostic]:
    """Lint one source text as if it were the file at `path`."""
    return lint_source(source, path, config or Settings(), project)


def check_paths(paths: Sequence[str | Path], config: Settings | None = None, *, jobs: int = 1) -> list[Diagnostic]:
    """Lint the Python files under `paths` (sorted findings).

    With `config`, every file gets those settings; without, each file's configuration files apply,
    as on the command line.
    """
    from spanlint.config import ConfigResolver
    from spanlint.runner import RunOptions, check_paths as run

    resolver = ConfigResolver.fixed(config) if config is not None else ConfigResolver()
    return run(paths, resolver, RunOptions(jobs=jobs)).diagnostics
