"""Agents, tasks and the support crew."""

from dataclasses import dataclass

from crewai import Agent, Crew, Process, Task
from crewai.hooks import LLMCallHookContext, register_before_llm_call_hook
from crewai.tasks.task_output import TaskOutput

from crew_memory.admin import CrewSettings
from crew_memory.citations import CitationBuilder
from crew_memory.decision_log import DecisionLog
from crew_memory.longterm import ArticleKnowledge
from crew_memory.spans import SpanStore
from crew_memory.tools import (EditSpanTool, ForgetSpanTool, OffsetIndex, QuoteSentenceTool,
                               RedactSpanTool)


@dataclass
class CrewContext:
    store: SpanStore
    decisions: DecisionLog
    index: OffsetIndex
    citations: CitationBuilder
    task_span: str | None = None

    def record_output(self, output: TaskOutput) -> None:
        span = self.store.add(output.raw, kind=output.name or "agent_output",
                              produced_by=f"agent:{output.agent}")
        if output.name == "task":
            self.task_span = span.span_id


def install_hooks(ctx: CrewContext) -> None:
    def tidy_task_span(hook: LLMCallHookContext) -> None:
        if ctx.task_span in ctx.store.spans:
            ctx.store.normalize_whitespace(ctx.task_span)

    register_before_llm_call_hook(tidy_task_span)


def build_crew(ctx: CrewContext, settings: CrewSettings, articles: ArticleKnowledge) -> Crew:
    shared = dict(store=ctx.store, log=ctx.decisions)
    researcher = Agent(role="Support Researcher", llm=settings.model,
                       goal="Find the facts for {ticket_subject} and keep the shared notes tidy",
                       backstory="You know the help centre by heart and prune noisy notes.",
                       tools=[QuoteSentenceTool(index=ctx.index), RedactSpanTool(**shared),
                              EditSpanTool(**shared), ForgetSpanTool(**shared)])
    writer = Agent(role="Support Writer", llm=settings.model,
                   goal="Write a clear, cited reply to the customer",
                   backstory="You write short answers and cite sources as [span] \u201cquote\u201d.")
    triage = Task(name="task", agent=researcher, callback=ctx.record_output,
                  description="Restate the problem in ticket {ticket_id}: {ticket_body}",
                  expected_output="A one-paragraph problem statement")
    research = Task(agent=researcher, context=[triage], callback=ctx.record_output,
                    description="Collect the facts that answer it; fix or remove bad notes.",
                    expected_output="Bullet list of facts with span ids, then edits made")
    reply = Task(agent=writer, context=[triage, research],
                 description="Draft the reply to the customer from the researched facts.",
                 expected_output="Markdown reply with citations")
    return Crew(agents=[researcher, writer], tasks=[triage, research, reply],
                process=Process.sequential, knowledge_sources=articles.sources(),
                verbose=settings.verbose)
