"""End-to-end ticket flow: triage, research, reply, housekeeping."""

import logging
import re

from crewai.flow.flow import Flow, listen, start
from pydantic import BaseModel, Field

from crew_memory.admin import CrewSettings, SettingsRegistry, Widget
from crew_memory.citations import CitationBuilder, StaleCitation, render_citation, resolve_pinned
from crew_memory.compaction import Compactor
from crew_memory.crew import CrewContext, build_crew, install_hooks
from crew_memory.decision_log import DecisionLog
from crew_memory.helpdesk import TicketRepo, WebhookOutbox
from crew_memory.longterm import ArticleKnowledge
from crew_memory.spans import SpanStore
from crew_memory.summarizer import Summarizer
from crew_memory.tools import OffsetIndex

log = logging.getLogger(__name__)
_CITE = re.compile(r"\[(sp-\d{5})\]\s*\u201c([^\u201d]+)\u201d")


class TicketState(BaseModel):
    ticket_id: int = 0
    reply: str = ""


class TicketFlow(Flow[TicketState]):
    settings: CrewSettings = Field(default_factory=CrewSettings)

    @start()
    async def run_crew(self) -> str:
        self.store, self.tickets, self.status = SpanStore(), TicketRepo(), Widget("status", "")
        self.ctx = CrewContext(self.store, DecisionLog(), OffsetIndex(self.store),
                               CitationBuilder(self.store))
        row = self.tickets.get(self.state.ticket_id)
        if row is None:
            raise LookupError(f"ticket {self.state.ticket_id} not found")
        self.store.add(row.content, kind="ticket", produced_by="helpdesk")
        install_hooks(self.ctx)
        crew = build_crew(self.ctx, self.settings, ArticleKnowledge())
        result = await crew.akickoff(inputs={"ticket_id": row.id, "ticket_subject": row.subject,
                                             "ticket_body": row.content})
        return result.raw

    @listen(run_crew)
    def attach_citations(self, reply: str) -> None:
        notes = []
        for span_id, quote in _CITE.findall(reply):
            pinned = self.ctx.citations.pin(span_id, quote) if span_id in self.store.spans else None
            if pinned is None:
                continue
            try:
                notes.append(resolve_pinned(self.store, pinned))
            except StaleCitation as exc:
                log.warning("falling back to loose citation: %s", exc)
                loose = self.ctx.citations.cite(span_id, quote[:60])
                notes.extend([render_citation(self.store, loose)] if loose else [])
        self.state.reply = "\n".join([reply, *notes])

    @listen(attach_citations)
    async def housekeeping(self) -> None:
        summarizer = Summarizer(self.store)
        await summarizer.extend([s for s in self.store.live() if s.kind == "agent_output"])
        compactor = Compactor(self.store, self.ctx.decisions, self.settings.token_budget)
        removed = compactor.trim_to_budget()
        compactor.sweep()
        self.status.update(f"trimmed {len(removed)} spans", warn=bool(removed))

    @listen(housekeeping)
    def send_reply(self) -> None:
        row = self.tickets.get(self.state.ticket_id)
        if row is not None:
            self.tickets.save_reply(row, self.state.reply)
            outbox = WebhookOutbox("https://helpdesk.internal/api/replies")
            outbox.enqueue(f"reply-{row.id}", str(row.id), self.state.reply)
            outbox.flush(signoff=SettingsRegistry().get("signoff"))
