"""The LibCST internals `rules.libcst_backend` relies on are there, in the LibCST range pyproject.toml pins,
and the public API stands in when they are not."""

from __future__ import annotations

import importlib.metadata
import re
from pathlib import Path

import libcst
import pytest
from packaging.requirements import Requirement

from spanlint.rules import libcst_backend

PYPROJECT = Path(__file__).resolve().parents[2] / "pyproject.toml"


def test_installed_libcst_is_in_the_pinned_range() -> None:
    (line,) = re.findall(r'"(libcst[^"]*)"', PYPROJECT.read_text(encoding="utf-8"))
    requirement = Requirement(line)
    assert requirement.specifier.contains(importlib.metadata.version("libcst"))
    assert requirement.specifier.contains("1.1.0") and not requirement.specifier.contains("2.0.0")


def test_the_internals_are_what_the_backend_expects() -> None:
    assert libcst_backend.validation_can_be_skipped()
    assert libcst_backend.child_fields(libcst.FunctionDef)[:2] == ("leading_lines", "decorators")
    assert libcst.CSTNode.__post_init__ is not libcst_backend._no_validation  # restored after each parse


def test_without_the_internals_the_public_api_is_used(monkeypatch: pytest.MonkeyPatch) -> None:
    source = "@decorator\ndef f(x):\n    return x[1:2]\n"
    monkeypatch.setattr(libcst_backend, "validation_can_be_skipped", lambda: False)
    assert libcst_backend.parse_module(source).code == source
    libcst_backend.child_fields.cache_clear()
    monkeypatch.delattr(libcst.FunctionDef, "_visit_and_replace_children")
    try:
        fields = libcst_backend.child_fields(libcst.FunctionDef)
        assert {"decorators", "params", "body"} <= set(fields) and "name" in fields
    finally:
        libcst_backend.child_fields.cache_clear()
