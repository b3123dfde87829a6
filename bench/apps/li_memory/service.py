from collections import deque

from .store import SpanStore


def span_payload(store: SpanStore, span_id: str) -> dict:
    span = store.get(span_id)
    body = {"id": span_id, "text": span.content if span else ""}
    body["text"] = body["text"][:200]
    return body


class JobQueue:
    def __init__(self) -> None:
        self.jobs: deque = deque()

    def take(self) -> dict | None:
        job = self.jobs.popleft() if self.jobs else None
        return job
