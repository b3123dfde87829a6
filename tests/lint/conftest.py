"""Helpers for engine and CLI tests: small projects written into a temporary directory."""

from __future__ import annotations

from pathlib import Path

import pytest

# A function that rewrites span content in place and never bumps the version: one SPL101 finding.
REWRITE = "def compress(span):\n    span.content = span.content[:100]\n"
CLEAN = "def compress(span):\n    span.content = span.content[:100]\n    span.version += 1\n"


def write_tree(root: Path, files: dict[str, str | bytes]) -> Path:
    """Write `files` (relative path -> text or bytes) under `root`; return `root`."""
    for relative, content in files.items():
        path = root / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8")
    return root


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory (a git-free tree with a root config), made the current directory."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    monkeypatch.delenv("SPANLINT_OUTPUT_FORMAT", raising=False)
    monkeypatch.delenv("NO_COLOR", raising=False)
    return root
