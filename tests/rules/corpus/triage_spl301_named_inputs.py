# rules: SPL301
"""Shapes met triaging frameworks the rules were not tuned on (issue 14): a summarize tool whose argument is
called `summary` (the text to summarize), and the rolling summaries that stay real. A local is judged by
what it was bound to; its name counts only when nothing else is known (a parameter, an attribute)."""


class PromptSummaryTool:
    def summarize(self, params: dict):
        summary = params["values"]["summary"]
        if isinstance(summary, str):
            artifacts = [summary]
        else:
            artifacts = self.memory.load_artifacts(summary["artifact_namespace"])
        return self.engine.summarize_artifacts(artifacts, rulesets=self.rulesets)

    def summarize_request(self, request):
        text = request.json["summary"]
        return self.engine.summarize_text(text)

    def summarize_loaded(self, key: str):
        summary = self.store.load_text(key)
        return self.engine.summarize_text(summary)


class SummaryConversationMemory:
    def try_add_run(self, run) -> None:
        self.runs.append(run)
        pending = self.runs[self.summary_index:]
        if len(pending) > self.offset:
            self.summary = self.summarize_runs(self.summary, pending[: -self.offset])  # expect: SPL301
            self.summary_index = len(self.runs) - self.offset


class BrainMemory:
    async def openai_summarize(self, llm, max_words: int = 200):
        texts = [self.historical_summary]
        for m in self.history:
            texts.append(m.content)
        text = "\n".join(texts)
        summary = await self._summarize(text=text, max_words=max_words)  # expect: SPL301
        self.historical_summary = summary
        self.history = []
        return summary


def refine(llm, chunks: list[str]) -> str:
    summary = ""
    for chunk in chunks:
        summary = llm.summarize(summary + "\n" + chunk)  # expect: SPL301
    return summary


def resummarize(llm, state: dict) -> str:
    previous = state["summary"]
    return llm.summarize(previous)  # expect: SPL301
