from typing import Dict, List

from autogen_core.memory import MemoryContent

from .embeddings import embed


class MemoryVectorIndex:
    def __init__(self) -> None:
        self._vecs: Dict[str, List[float]] = {}
        self._full: Dict[str, List[float]] = {}

    def index(self, item: MemoryContent) -> None:
        sid = item.metadata["span_id"]
        self._vecs[sid] = embed(str(item.content))

    def index_full(self, item: MemoryContent) -> None:
        m = item.metadata
        self._full[f"{m['span_id']}:{m['version']}:{m['hash']}"] = embed(str(item.content))
