# rules: SPL402
"""A log class of its own: rotation and compaction rewrite its entries."""
import json


class AuditLog:
    def __init__(self, path: str) -> None:
        self.path = path
        self.entries: list[dict] = []
        self.entries.append({"op": "open"})

    def append(self, entry: dict) -> None:
        self.entries.append(entry)
        with open(self.path, "a") as fh:
            fh.write(json.dumps(entry) + "\n")

    def rotate(self, keep: int) -> None:
        self.entries = self.entries[-keep:]  # expect: SPL402

    def forget(self, span_id: str) -> None:
        self.entries = [e for e in self.entries if e.get("span_id") != span_id]  # expect: SPL402

    def __len__(self) -> int:
        return len(self.entries)


class Pruner:
    def __init__(self, audit_log: AuditLog) -> None:
        self.audit_log = audit_log

    def prune(self, spans: list, keep: set) -> list:
        self.audit_log.append({"op": "prune", "dropped": [s.id for s in spans if s.id not in keep]})
        return [s for s in spans if s.id in keep]

    def tidy(self) -> None:
        self.audit_log.entries.pop(0)  # expect: SPL402

    def scrub(self, i: int) -> None:
        del self.audit_log.entries[i]  # expect: SPL402

    def replace_all(self, entries: list) -> None:
        self.audit_log.entries = entries  # expect: SPL402
