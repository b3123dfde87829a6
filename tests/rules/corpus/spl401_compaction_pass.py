# rules: SPL401
"""A context buffer with several compaction passes, some recording their rationale first."""
from dataclasses import dataclass, field


@dataclass
class Span:
    id: str
    content: str
    score: float = 0.0
    tokens: int = 0


@dataclass
class ContextBuffer:
    spans: list[Span] = field(default_factory=list)
    decision_log: list[dict] = field(default_factory=list)
    budget: int = 4096

    def add(self, span: Span) -> None:
        self.spans.append(span)

    def token_count(self) -> int:
        return sum(s.tokens for s in self.spans)

    def compact(self) -> None:
        while self.token_count() > self.budget:
            dropped = self.spans.pop(0)  # expect: SPL401
            self.decision_log.append({"op": "evict", "id": dropped.id})

    def compact_recorded(self) -> None:
        while self.token_count() > self.budget:
            self.decision_log.append({"op": "evict", "id": self.spans[0].id, "why": "over budget"})
            self.spans.pop(0)

    def prune_low_scores(self, threshold: float) -> None:
        for span in list(self.spans):
            if span.score < threshold:
                self.spans.remove(span)  # expect: SPL401

    def prune_low_scores_recorded(self, threshold: float) -> None:
        for span in list(self.spans):
            if span.score < threshold:
                self.decision_log.append({"op": "prune", "id": span.id, "score": span.score})
                self.spans.remove(span)

    def keep_top(self, k: int) -> None:
        ranked = sorted(self.spans, key=lambda s: s.score, reverse=True)
        keep = {s.id for s in ranked[:k]}
        self.spans = [s for s in self.spans if s.id in keep]  # expect: SPL401

    def keep_top_recorded(self, k: int) -> None:
        ranked = sorted(self.spans, key=lambda s: s.score, reverse=True)
        dropped = [s.id for s in ranked[k:]]
        self.decision_log.append({"op": "keep_top", "dropped": dropped})
        keep = {s.id for s in ranked[:k]}
        self.spans = [s for s in self.spans if s.id in keep]

    def truncate_head(self, n: int) -> None:
        del self.spans[:n]  # expect: SPL401
        self.decision_log.append({"op": "truncate", "n": n})

    def snapshot(self) -> list[Span]:
        return [s for s in self.spans if s.tokens > 0]
