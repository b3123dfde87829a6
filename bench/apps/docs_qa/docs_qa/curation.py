"""Editors curate the index: remove outdated chunks, with a log of who removed what and why."""

from __future__ import annotations

import datetime as dt
from typing import List

from llama_index.core import VectorStoreIndex


class CurationLog:
    def __init__(self) -> None:
        self._rows: List[dict] = []

    def add(self, action: str, node_id: str, reason: str, editor: str = "system") -> None:
        self._rows.append(
            {"at": dt.datetime.now(dt.timezone.utc).isoformat(), "action": action,
             "node_id": node_id, "reason": reason, "editor": editor}
        )

    def rows(self) -> List[dict]:
        return list(self._rows)

    def redact_editor(self, editor: str) -> None:
        """GDPR request: remove an editor's name from the log."""
        for row in self._rows:
            if row["editor"] == editor:
                row["editor"] = "<removed>"

    def clear(self) -> None:
        self._rows.clear()


def retire_nodes(index: VectorStoreIndex, node_ids: List[str], log: CurationLog, reason: str) -> None:
    index.delete_nodes(node_ids, delete_from_docstore=True)
    for nid in node_ids:
        log.add("retire", nid, reason)


def retire_nodes_logged(index: VectorStoreIndex, node_ids: List[str], log: CurationLog, reason: str) -> None:
    for nid in node_ids:
        log.add("retire", nid, reason)
    index.delete_nodes(node_ids, delete_from_docstore=True)


def retire_outdated(index: VectorStoreIndex, before: str) -> int:
    docstore = index.docstore
    stale = [nid for nid, node in docstore.docs.items() if node.metadata.get("updated", "9999") < before]
    for nid in stale:
        index.delete_ref_doc(nid, delete_from_docstore=True)
    return len(stale)
