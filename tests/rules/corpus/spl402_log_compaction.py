# rules: SPL402
"""Compacting and summarizing a decision log instead of rolling it over."""
from pydantic import BaseModel


class Ledger(BaseModel):
    entries: list[str] = []


def prune(items: list, keep: int) -> list:
    return items[-keep:]


def summarize(items: list) -> str:
    return "; ".join(items)[:200]


class Session(BaseModel):
    ledger: Ledger = Ledger()
    decisions: list[str] = []
    summary: str = ""

    def compact_decisions(self) -> None:
        self.decisions = prune(self.decisions, keep=100)  # expect: SPL402

    def squash(self) -> None:
        summarize(self.decisions)  # expect: SPL402

    def digest(self) -> None:
        self.summary = summarize(self.decisions)

    def compact_ledger(self) -> None:
        self.ledger.compact()  # expect: SPL402

    async def truncate_ledger(self, n: int) -> None:
        await self.ledger.truncate(n)  # expect: SPL402

    def report(self) -> str:
        return summarize(list(self.ledger.entries))
