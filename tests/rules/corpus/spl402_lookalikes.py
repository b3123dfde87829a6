# rules: SPL402
"""Names that look like decision logs but are not one being edited."""
import logging
from collections import defaultdict

log = logging.getLogger(__name__)
audit_logger = logging.getLogger("audit")


def drop_handlers(logger: logging.Logger) -> None:
    log.info("dropping handlers")
    audit_logger.warning("dropping handlers")
    for handler in list(logger.handlers):
        logger.removeHandler(handler)
    audit_logger.handlers.clear()


def build_provenance(node) -> dict:
    provenance = {"source": node.source, "tmp": True}
    provenance["parents"] = [p.id for p in node.parents]
    provenance.pop("tmp")
    return provenance


def vote(candidates: list) -> list:
    decisions = [c for c in candidates if c.score > 0.5]
    decisions.sort(key=lambda c: c.score)
    decisions.pop()
    return decisions


class Filesystem:
    def __init__(self) -> None:
        self.journal_file = open("/tmp/journal", "ab")
        self.journal_path = "/tmp/journal"

    def checkpoint(self) -> None:
        self.journal_file.truncate(0)


class DecisionLog:
    def __init__(self, entries=None) -> None:
        self.entries = list(entries or [])
        self.entries.sort()

    def __iter__(self):
        return iter(self.entries)


def tally(audit_events: list) -> dict:
    counts: dict = defaultdict(int)
    for event in audit_events:
        counts[event.kind] += 1
    return counts


def record_reasons(decisions: dict, span, reason: str) -> None:
    decisions[span.id] = reason
