"""Tools exposed to the ``dspy.ReAct`` maintenance agent."""

from __future__ import annotations

from types import MappingProxyType
from typing import Any

import dspy

from .index import PassageIndex
from .store import PassageStore
from .textutil import sentence_bounds


def make_tools(store: PassageStore, index: PassageIndex) -> list[dspy.Tool]:
    def search_passages(query: str) -> list[dict[str, Any]]:
        """Find passages relevant to the query."""
        return [{"pid": p.pid, "title": p.title, "text": p.text} for p in index.search(query)]

    def read_passage(pid: str) -> MappingProxyType:
        """Return one passage, read-only."""
        passage = store.get(pid)
        return MappingProxyType(dict(passage.items()))

    def fix_passage(pid: str, corrected_text: str) -> str:
        """Replace the text of a passage with a corrected version (typos, OCR errors)."""
        passage = store.get(pid)
        passage["text"] = corrected_text
        passage["version"] = passage["version"] + 1
        passage["sentence_offsets"] = sentence_bounds(corrected_text)
        return f"updated {pid} to v{passage['version']}"

    return [
        dspy.Tool(search_passages, name="search_passages"),
        dspy.Tool(read_passage, name="read_passage"),
        dspy.Tool(fix_passage, name="fix_passage"),
    ]


class CurateStore(dspy.Signature):
    """Review the passages about the topic and fix obvious transcription errors."""

    topic: str = dspy.InputField()
    report: str = dspy.OutputField()


def make_curator(store: PassageStore, index: PassageIndex, max_iters: int = 8) -> dspy.ReAct:
    return dspy.ReAct(CurateStore, tools=make_tools(store, index), max_iters=max_iters)
