# rules: SPL402
"""Logs passed around by type: parameters annotated with a log class."""
from dataclasses import dataclass, field


@dataclass
class DecisionLog:
    entries: list = field(default_factory=list)

    def record(self, entry) -> None:
        self.entries.append(entry)


def forget(log: DecisionLog, i: int) -> None:
    del log.entries[i]  # expect: SPL402


def forget_last(log: DecisionLog) -> None:
    log.entries.pop()  # expect: SPL402


def note(log: DecisionLog, entry) -> None:
    log.record(entry)


def show(log: DecisionLog) -> list:
    return list(log.entries)


def debug(log, message: str) -> None:
    # An untyped `log` is most often a logger.
    log.info(message)
    log.handlers.clear()


async def replay(log: DecisionLog, sink) -> None:
    for entry in log.entries:
        await sink.send(entry)
