"""Linear cost: a fix's edits are made from the one top-level statement it changes, not from the
whole module (once per finding, that was quadratic in the file's size). They must be the edits the
whole module gives. (Speed itself is measured by hand: `bench/linear_cost.py`.)"""

from __future__ import annotations

from pathlib import Path

import pytest

import spanlint.edits
from spanlint.engine import lint_source
from spanlint.settings import Settings

CORPUS = Path(__file__).resolve().parents[1] / "rules" / "corpus"


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.py")), ids=lambda p: p.name)
def test_fix_edits_from_one_statement_are_those_of_the_whole_module(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    source = path.read_text(encoding="utf-8")
    settings = Settings(select=("ALL",), extend_select=("SPL900",))
    local = lint_source(source, path.name, settings)
    monkeypatch.setattr(spanlint.edits.TopLevel, "holding", lambda self, nodes: None)  # always the whole module
    whole = lint_source(source, path.name, settings)
    assert [d.fix for d in local] == [d.fix for d in whole]
