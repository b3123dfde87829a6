"""Saving and restoring a research session."""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Dict, Mapping

from autogen_agentchat.teams import BaseGroupChat

from .citations import Citation
from .decision_log import DecisionLog
from .notes import NoteStore, ResearchNote, digest, rough_tokens
from .tools import Workspace


@dataclass
class SessionRow:
    """A row in the sessions table of the local sqlite catalogue."""

    id: int
    title: str
    path: str
    updated_at: float = field(default_factory=time.time)
    turns: int = 0


def rename_session(row: SessionRow, title: str) -> SessionRow:
    row.title = title.strip() or row.title
    row.updated_at = time.time()
    return row


def dump_notes(store: NoteStore) -> Dict[str, Any]:
    return {
        "notes": [asdict(n) for n in store],
        "embeddings": [
            {"note_id": n.note_id, "version": n.version, "content_hash": n.content_hash, "vector": n.embedding}
            for n in store
            if n.embedding is not None
        ],
    }


def load_notes(store: NoteStore, state: Mapping[str, Any]) -> int:
    vectors = {(e["note_id"], e["version"], e["content_hash"]): e["vector"] for e in state.get("embeddings", [])}
    repaired = 0
    for row in state.get("notes", []):
        note = ResearchNote(**row)
        actual = digest(note.text)
        if actual != note.content_hash:
            note.version += 1
            note.content_hash = actual
            note.token_count = rough_tokens(note.text)
            note.embedding = None
            repaired += 1
        else:
            note.embedding = vectors.get((note.note_id, note.version, note.content_hash))
        store.put(note)
    return repaired


async def save_session(path: Path, team: BaseGroupChat, ws: Workspace, log: DecisionLog) -> None:
    payload = {
        "team": await team.save_state(),
        "notes": dump_notes(ws.store),
        "citations": {k: asdict(c) for k, c in ws.citations.items()},
        "memory": ws.memory.snapshot(),
        "decisions": log.to_state(),
    }
    path.write_text(json.dumps(payload, default=str), encoding="utf-8")


async def load_session(path: Path, team: BaseGroupChat, ws: Workspace, log: DecisionLog) -> int:
    payload = json.loads(path.read_text(encoding="utf-8"))
    await team.load_state(payload["team"])
    repaired = load_notes(ws.store, payload.get("notes", {}))
    ws.citations = {k: Citation(**v) for k, v in payload.get("citations", {}).items()}
    log.load_state(payload.get("decisions", {}))
    return repaired
