import hashlib
import time
from dataclasses import dataclass, field
from typing import List, Optional

from pydantic import BaseModel, Field


def content_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class Span(BaseModel):
    span_id: str
    content: str
    version: int = 0
    digest: str = ""
    tombstoned_at: Optional[float] = None


@dataclass
class Tombstone:
    span_id: str
    content: str
    created: float = field(default_factory=time.time)
    holders: List[str] = field(default_factory=list)


@dataclass
class Summary:
    summary_id: str
    text: str
    root_ids: List[str]
    parent_id: Optional[str] = None
