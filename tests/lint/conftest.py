"""Helpers for engine and CLI tests: small projects written into a temporary directory."""

from __future__ import annotations

import multiprocessing
import os
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


# While `_OPENS` is set, each path opened is written to that descriptor, one a line, by this process
# and by the pool workers it forks (they inherit the hook and the descriptor). An audit hook cannot
# be removed, so it is installed once.
_OPENS: int | None = None


def _record_open(event: str, arguments: tuple) -> None:
    if _OPENS is not None and event == "open" and isinstance(arguments[0], str):
        os.write(_OPENS, os.fsencode(os.path.abspath(arguments[0])) + b"\n")


class Opens:
    """The paths opened (once per open) since the fixture started or `clear()`, in every process."""

    def __init__(self, descriptor: int) -> None:
        self._descriptor = descriptor

    def clear(self) -> None:
        os.ftruncate(self._descriptor, 0)

    def count(self, path: str | Path) -> int:
        log = os.pread(self._descriptor, os.fstat(self._descriptor).st_size, 0)
        return os.fsdecode(log).splitlines().count(str(path))


@pytest.fixture
def opened(tmp_path: Path) -> Opens:
    global _OPENS
    if not getattr(_record_open, "installed", False):
        import sys

        sys.addaudithook(_record_open)
        _record_open.installed = True  # type: ignore[attr-defined]
    descriptor = os.open(tmp_path / "opens.log", os.O_RDWR | os.O_CREAT | os.O_APPEND)
    _OPENS = descriptor
    yield Opens(descriptor)
    _OPENS = None
    os.close(descriptor)


forked_workers = pytest.mark.skipif(
    multiprocessing.get_start_method() != "fork", reason="the pool workers must inherit the audit hook of `opened`"
)
