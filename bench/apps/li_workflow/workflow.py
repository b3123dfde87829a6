"""The case agent: retrieve, answer with quotes, compact superseded material."""

from __future__ import annotations

import re
from typing import List, Optional

from llama_index.core import PromptTemplate, VectorStoreIndex
from llama_index.core.llms import LLM
from llama_index.core.postprocessor.types import BaseNodePostprocessor
from llama_index.core.schema import MetadataMode, NodeWithScore
from llama_index.core.workflow import (
    Context,
    Event,
    StartEvent,
    StopEvent,
    Workflow,
    step,
)

from li_workflow.buffer import ContextBuffer
from li_workflow.decision_log import DecisionLog, new_edit_id
from li_workflow.spans import StaleArtifactError
from li_workflow.transforms import ContextCompressor, TombstoneFilter

ANSWER_PROMPT = PromptTemplate(
    "Answer the engineer's question from the context. Quote supporting passages "
    "verbatim between <q> and </q>.\nPinned notes:\n{pinned}\n\nContext:\n{context_str}\n\n"
    "Question: {query_str}\nAnswer:"
)
_QUOTE = re.compile(r"<q>(.+?)</q>", re.DOTALL)


class RetrievedEvent(Event):
    query: str
    nodes: List[NodeWithScore]


class CitationEvent(Event):
    span_id: str
    start: int
    end: int
    label: str = ""


class AnchoredQuoteEvent(Event):
    span_id: str
    version: int
    content_hash: str
    start: int
    end: int
    label: str = ""


class QuoteEvent(Event):
    label: str
    text: str
    stale: bool = False


class CompactEvent(Event):
    ref_doc_ids: List[str]
    reason: str


class CaseAgentWorkflow(Workflow):
    def __init__(
        self,
        index: VectorStoreIndex,
        llm: LLM,
        pinned: ContextBuffer,
        decisions: DecisionLog,
        postprocessors: Optional[List[BaseNodePostprocessor]] = None,
        top_k: int = 6,
        **kwargs,
    ) -> None:
        super().__init__(**kwargs)
        self.index = index
        self.llm = llm
        self.pinned = pinned
        self.decisions = decisions
        self.postprocessors = postprocessors or []
        self.top_k = top_k

    @step
    async def retrieve(self, ctx: Context, ev: StartEvent) -> RetrievedEvent | CompactEvent:
        query: str = ev.get("query")
        retriever = self.index.as_retriever(similarity_top_k=self.top_k)
        nodes = await retriever.aretrieve(query)
        for pp in self.postprocessors:
            nodes = await pp.apostprocess_nodes(nodes, query_str=query)
        stale = sorted(
            {
                n.node.ref_doc_id
                for n in nodes
                if n.node.ref_doc_id and n.node.metadata.get("superseded_by")
            }
        )
        if stale:
            ctx.send_event(
                CompactEvent(ref_doc_ids=stale, reason="retrieved material marked superseded")
            )
        await ctx.store.set("query", query)
        return RetrievedEvent(query=query, nodes=nodes)

    @step
    async def answer(self, ctx: Context, ev: RetrievedEvent) -> CitationEvent | AnchoredQuoteEvent | None:
        context_str = "\n\n".join(
            n.node.get_content(metadata_mode=MetadataMode.LLM) for n in ev.nodes
        )
        pinned = self.pinned.live()
        reply = await self.llm.apredict(
            ANSWER_PROMPT,
            pinned="\n".join(s.content for s in pinned) or "(none)",
            context_str=context_str,
            query_str=ev.query,
        )
        await ctx.store.set("answer", reply)
        sent = 0
        for i, m in enumerate(_QUOTE.finditer(reply), start=1):
            q = m.group(1).strip()
            label = f"[{i}]"
            hit = next((s for s in pinned if q in s.content), None)
            if hit is not None:
                at = hit.content.index(q)
                ctx.send_event(
                    AnchoredQuoteEvent(
                        span_id=hit.span_id,
                        version=hit.version,
                        content_hash=hit.content_hash,
                        start=at,
                        end=at + len(q),
                        label=label,
                    )
                )
                sent += 1
                continue
            for n in ev.nodes:
                text = n.node.get_content(metadata_mode=MetadataMode.NONE)
                at = text.find(q)
                if at >= 0:
                    ctx.send_event(
                        CitationEvent(span_id=n.node.node_id, start=at, end=at + len(q), label=label)
                    )
                    sent += 1
                    break
        await ctx.store.set("n_quotes", sent)
        if not sent:
            ctx.send_event(QuoteEvent(label="", text=""))
        return None

    @step(num_workers=4)
    async def quote(self, ctx: Context, ev: CitationEvent) -> QuoteEvent:
        node = await self.index.docstore.aget_node(ev.span_id)
        body = node.get_content(metadata_mode=MetadataMode.NONE)
        return QuoteEvent(label=ev.label, text=body[ev.start : ev.end])

    @step(num_workers=4)
    async def quote_anchored(self, ctx: Context, ev: AnchoredQuoteEvent) -> QuoteEvent:
        span = self.pinned.find(ev.span_id)
        try:
            if span is None:
                raise StaleArtifactError(ev.span_id)
            if (span.version, span.content_hash) != (ev.version, ev.content_hash):
                raise StaleArtifactError(ev.span_id)
            return QuoteEvent(label=ev.label, text=span.content[ev.start : ev.end])
        except StaleArtifactError:
            return QuoteEvent(label=ev.label, text="", stale=True)

    @step
    async def finalize(self, ctx: Context, ev: QuoteEvent) -> StopEvent | None:
        n = await ctx.store.get("n_quotes", default=0)
        if n == 0:
            return StopEvent(result={"answer": await ctx.store.get("answer"), "quotes": []})
        got = ctx.collect_events(ev, [QuoteEvent] * n)
        if got is None:
            return None
        quotes = [{"label": q.label, "text": q.text} for q in got if not q.stale]
        return StopEvent(result={"answer": await ctx.store.get("answer"), "quotes": quotes})

    @step
    async def compact(self, ctx: Context, ev: CompactEvent) -> None:
        edit_id = new_edit_id("compact")
        for ref_doc_id in ev.ref_doc_ids:
            info = self.index.ref_doc_info.get(ref_doc_id)
            if info is None:
                continue
            await self.index.adelete_ref_doc(ref_doc_id, delete_from_docstore=True)
            self.decisions.record(
                edit_id=edit_id,
                op="compact",
                rationale=f"{ev.reason}: {info.metadata.get('superseded_by', '?')}",
                span_ids=[ref_doc_id, *info.node_ids],
            )
        return None


def build_agent(
    index: VectorStoreIndex,
    llm: LLM,
    pinned: ContextBuffer,
    decisions: DecisionLog,
    compress_over_chars: int = 1_200,
    timeout: float = 120.0,
) -> CaseAgentWorkflow:
    return CaseAgentWorkflow(
        index=index,
        llm=llm,
        pinned=pinned,
        decisions=decisions,
        postprocessors=[
            TombstoneFilter(),
            ContextCompressor(llm=llm, max_chars=compress_over_chars),
        ],
        timeout=timeout,
        verbose=False,
    )
