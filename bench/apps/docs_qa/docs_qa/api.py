"""HTTP API (FastAPI)."""

from __future__ import annotations

from typing import List, Optional

from fastapi import FastAPI, HTTPException
from pydantic import BaseModel

from docs_qa.app import HandbookQA

app = FastAPI(title="handbook-qa")
qa: Optional[HandbookQA] = None


class AskRequest(BaseModel):
    question: str
    top_k: int = 6


class SourceOut(BaseModel):
    id: str
    text: str
    score: float


class AskResponse(BaseModel):
    answer: str
    sources: List[SourceOut]


class FeedbackIn(BaseModel):
    id: str
    content: str
    version: int = 0


@app.post("/ask", response_model=AskResponse)
def ask(req: AskRequest) -> AskResponse:
    if qa is None:
        raise HTTPException(503, "index not loaded")
    req.question = " ".join(req.question.split())
    answer, sources = qa.ask(req.question, top_k=req.top_k)
    out = [SourceOut(id=s.node.node_id, text=s.node.get_content()[:500], score=s.score or 0.0) for s in sources]
    return AskResponse(answer=answer, sources=out)


@app.post("/feedback")
def feedback(item: FeedbackIn) -> dict:
    item.content = item.content.strip()[:2000]
    if qa is not None:
        qa.feedback.append(item.model_dump())
    return {"ok": True}
