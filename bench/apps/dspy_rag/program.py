"""The DSPy programs: ingestion and cited question answering."""

from __future__ import annotations

import re
import uuid

import dspy
from dspy.experimental import Citations, Document

from .citations import anchors_from
from .index import PassageIndex, PassageVectorCache
from .models import Highlight, make_passage
from .store import PassageStore


class AnswerWithSources(dspy.Signature):
    """Answer the question using only the documents, and cite the supporting text."""

    documents: list[Document] = dspy.InputField()
    history: dspy.History = dspy.InputField()
    question: str = dspy.InputField()
    answer: str = dspy.OutputField()
    citations: Citations = dspy.OutputField()


class Ingest(dspy.Module):
    def __init__(self, store: PassageStore) -> None:
        super().__init__()
        self.store = store

    def forward(self, texts: list[str], titles: list[str] | None = None) -> dspy.Prediction:
        titles = titles or [""] * len(texts)
        passages = [
            self.store.add(make_passage(uuid.uuid4().hex[:12], text, title=title))
            for text, title in zip(texts, titles, strict=True)
        ]
        return dspy.Prediction(passages=passages)


def highlights_for(question: str, passages: list[dspy.Example]) -> list[Highlight]:
    terms = {t.lower() for t in re.findall(r"\w{4,}", question)}
    found: list[Highlight] = []
    for passage in passages:
        for match in re.finditer(r"\w{4,}", passage.text):
            if match.group(0).lower() in terms:
                found.append(Highlight(pid=passage.pid, start=match.start(), end=match.end(), label=match.group(0)))
    return found


class CitedRAG(dspy.Module):
    def __init__(self, index: PassageIndex, reranker: PassageVectorCache, k: int = 5) -> None:
        super().__init__()
        self.index = index
        self.reranker = reranker
        self.k = k
        self.answer = dspy.Predict(AnswerWithSources)

    def forward(self, question: str, history: dspy.History | None = None) -> dspy.Prediction:
        question = " ".join(question.split())
        candidates = self.index.search(question)
        passages = self.reranker.rerank(question, candidates)[: self.k]
        documents = [Document(data=p.text, title=p.title or p.pid) for p in passages]
        result = self.answer(
            documents=documents,
            history=history or dspy.History(messages=[]),
            question=question,
        )
        return dspy.Prediction(
            answer=result.answer,
            citations=result.citations,
            anchors=anchors_from(result, passages),
            passages=passages,
            highlights=highlights_for(question, passages),
        )
