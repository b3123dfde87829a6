# rules: SPL403
"""Soft-deleted nodes with a `deleted` flag, collected by age or by turn count."""
from datetime import datetime, timedelta


class Node:
    def __init__(self, node_id: str, text: str) -> None:
        self.node_id = node_id
        self.text = text
        self.deleted = False
        self.deleted_at: datetime | None = None
        self.turn = 0
        self.refcount = 0


class GraphMemory:
    def __init__(self) -> None:
        self.nodes: list[Node] = []
        self.turn = 0
        self.max_age = timedelta(hours=1)

    def purge_deleted(self) -> None:
        for node in list(self.nodes):
            if node.deleted and datetime.now() - node.deleted_at > self.max_age:
                self.nodes.remove(node)  # expect: SPL403

    def purge_deleted_unreferenced(self) -> None:
        for node in list(self.nodes):
            if node.deleted and node.refcount == 0 and datetime.now() - node.deleted_at > self.max_age:
                self.nodes.remove(node)

    def purge_by_turns(self, keep_turns: int = 5) -> None:
        self.nodes[:] = [n for n in self.nodes if not (n.deleted and self.turn - n.turn > keep_turns)]  # expect: SPL403

    def purge_all_deleted(self) -> None:
        # Deleted nodes collected by flag alone, not by age.
        self.nodes = [n for n in self.nodes if not n.deleted]

    async def purge_async(self, store) -> None:
        for node in list(self.nodes):
            if node.deleted and self.turn - node.turn > 10:
                await store.delete(node.node_id)  # expect: SPL403
