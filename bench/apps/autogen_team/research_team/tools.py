"""Function tools the research agents can call."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Dict, List

from autogen_core.tools import FunctionTool

from .citations import Citation, cite
from .embeddings import EmbeddingCache, NoteIndex
from .memory import NoteMemory
from .notes import NoteStore


@dataclass
class Workspace:
    store: NoteStore
    cache: EmbeddingCache
    index: NoteIndex
    memory: NoteMemory
    citations: Dict[str, Citation] = field(default_factory=dict)

    def cited(self) -> List[Citation]:
        return list(self.citations.values())


def make_tools(ws: Workspace) -> List[FunctionTool]:
    async def save_note(text: str, source_url: str = "") -> str:
        note = ws.store.add(text, source_url=source_url)
        ws.index.index_note(note)
        return f"saved note {note.note_id} (v{note.version})"

    async def search_notes(query: str, k: int = 5) -> str:
        probe = ws.cache._embed(query)
        hits = ws.index.search(probe, k=k)
        if not hits:
            return "no matching notes"
        return "\n".join(f"{n.note_id} v{n.version} ({score:.2f}): {n.text[:160]}" for n, score in hits)

    async def add_citation(note_id: str, passage: str, label: str) -> str:
        note = ws.store.require(note_id)
        ws.citations[label] = cite(note, passage, label=label)
        return f"cited {label} -> {note_id}"

    async def quote_citation(label: str) -> str:
        citation = ws.citations.get(label)
        if citation is None:
            return f"no citation named {label}"
        note = ws.store.get(citation.note_id)
        if note is None:
            return f"{label}: source note was removed"
        try:
            return note.text[citation.start : citation.end] or f"{label}: empty passage"
        except IndexError:
            return f"{label}: passage out of range"

    async def check_citation(label: str) -> str:
        citation = ws.citations.get(label)
        note = ws.store.get(citation.note_id) if citation else None
        if citation is None or note is None:
            return f"{label}: missing"
        if note.content_hash != citation.content_hash or note.version != citation.version:
            return f"{label}: source changed since it was cited (v{citation.version} -> v{note.version}); re-cite"
        return f"{label}: ok \u201c{note.text[citation.start : citation.end]}\u201d"

    async def pin_finding(note_id: str) -> str:
        await ws.memory.supersede(ws.store.require(note_id))
        return f"pinned {note_id}"

    return [
        FunctionTool(save_note, description="Save a research finding as a note."),
        FunctionTool(search_notes, description="Search saved notes by meaning."),
        FunctionTool(add_citation, description="Cite an exact passage of a note under a short label."),
        FunctionTool(quote_citation, description="Return the passage a citation label points at."),
        FunctionTool(check_citation, description="Check that a citation still matches its note."),
        FunctionTool(pin_finding, description="Pin a note so every agent sees it."),
    ]
