"""Killing stories that were withdrawn by the agency."""

from __future__ import annotations

from typing import List

from haystack.document_stores.in_memory import InMemoryDocumentStore

from newsdesk.editorial_log import EditorialLog


def kill_stories(store: InMemoryDocumentStore, log: EditorialLog, story_ids: List[str], editor: str, reason: str) -> int:
    docs = store.filter_documents(filters={"field": "meta.story_id", "operator": "in", "value": story_ids})
    ids = [d.id for d in docs]
    log.note(editor, "kill", ids, reason)
    store.delete_documents(ids)
    return len(ids)


def kill_withdrawn(store: InMemoryDocumentStore, log: EditorialLog, feed_event: dict) -> None:
    docs = store.filter_documents(filters={"field": "meta.story_id", "operator": "==", "value": feed_event["story_id"]})
    ids = [d.id for d in docs]
    store.delete_documents(ids)
    log.note("feed", "kill", ids, feed_event.get("notice", "withdrawn"))
