from dataclasses import dataclass
from typing import Dict, List

from .store import SpanStore


@dataclass
class Label:
    id: str
    text: str


def relabel(labels: Dict[str, Label], lid: str, text: str) -> None:
    labels[lid].text = text


def render(store: SpanStore) -> List[str]:
    return [f"{s.span_id} v{s.version}: {s.content[:60]}" for s in store.live()]
