"""SPL301: a summary summarized again without recording the chain."""

from __future__ import annotations

import ast
import re
import sys
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any

from spanlint.rules.analysis import PAYLOAD_WORDS, callee_name, dotted_name, literal_text, root_name, string_key, string_value
from spanlint.rules import flow, traversal
from spanlint.rules.aliases import ContainerAliases
from spanlint.rules.base import Invalid, ScopedRule, Valid, words_pattern
from spanlint.rules.flow import enclosing_statements
from spanlint.rules.libcst_backend import cst
from spanlint.rules.project import ACTOR_NOUNS, NOT_SPAN_NOUNS
from spanlint.rules.names import (
    CONFIG_WORDS, COPY_CALLS, MODEL_CALLS, MODEL_RECEIVER_WORDS, SUMMARY_PROSE_NOUNS, earlier_summary_slots, literal_asks_for_summary, name_parts,
    names_model_call, summarize_request,
    summary_noun_request,
)
from spanlint.rules.prescan import (
    FUNCTIONS, Prefilter, Scope, alternation, last_name, line_offsets, match_lines, spans_line, walk,
)
from runtime_guard.vocabulary import Vocabulary

# Name words of classes that show, carry or configure text rather than keep a summary (`HttpPayload`,
# `TicketPanel`); an agent may keep one.
_LOOK_ALIKE_PARTS = (NOT_SPAN_NOUNS - ACTOR_NOUNS) | PAYLOAD_WORDS | CONFIG_WORDS
# Calls whose result says nothing about their argument's text: `len(summary)`, `bool(summary)`.
_OPAQUE_CALLS = frozenset({"len", "bool", "int", "float", "isinstance", "id", "type", "hash", "count_tokens"})
# Last words of a class name that make it a record of what its other words say (`SummaryRecord`).
_RECORD_NOUNS = frozenset({"record", "note", "item", "doc", "document", "text", "result"})
_OPAQUE_PREFIXES = frozenset({"is", "has", "should", "can", "count", "num", "get_num", "len"})
# Prompt prose that calls the text it is given a summary: `Shorten this summary`, `Merge these summaries`.
_GIVEN_SUMMARY = re.compile(
    r"\b(?:this|these|those|following|given|above|below)\s+(?:\w+\s+)?(?:summary|summaries|digests?|recaps?)\b"
    r"|\bsummaries\b",
    re.IGNORECASE,
)


class SummarizeCallPrefilter(Prefilter):
    """A call, or a definition, named like summarizing (`SpanAnalysis.is_summarize_call`, loosened):
    a summarize word (`summarize`, `asummarize`, `summarizer`) or a summary word among its parts; a
    model call (`llm.complete(...)`) whose arguments hold a string asking for a summary or name a
    module constant whose value does (`SUMMARY_PROMPT.format(...)`), or in a function whose lines
    hold such a string (a prompt passed through locals); any call given such a string there (a helper
    passing its prompt to a model: `_complete(model, "Shorten this summary.", text)`)."""

    shape = "summarize-call"
    statements = (*FUNCTIONS, ast.Assign, ast.AnnAssign)  # the summarizers a module defines; its prompts
    expressions = (ast.Call,)

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self.request = summarize_request(self.vocabulary)
        self.prompts: set[str] = set()  # module constants whose value asks for a summary
        self._request_lines: list[int] | None = None
        self.helpers: set[str] = set()  # functions holding a call marked here: a call of one may summarize
        self.prompted: set[str] = set()  # functions given a prompt that asks for a summary: they may pass it on
        self.chains: set[str] = set()  # attributes of `self` that marked model calls are made on

    def words(self) -> tuple[str, ...]:
        return (*self.vocabulary.summarize_words, *self.vocabulary.summary_words)

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, (ast.Assign, ast.AnnAssign)):
            if scope.node is None and node.value is not None and self._asks_for_summary(node.value):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                names = {t.id for t in targets if isinstance(t, ast.Name)}
                self.prompts |= names
                self.scan.extra_words |= names  # the lines naming a prompt get their calls looked at
        elif self._summarizes(node.name):
            self.mark(node)

    def expression(self, node: ast.AST, scope: Scope) -> None:
        name = last_name(node)
        if not name:
            return
        if self._summarizes(name) or (names_model_call(name) and (
            self.walks_whole(scope) or any(self._asks_for_summary(arg) for arg in (*node.args, *node.keywords))
            or any(self._fills_summary_slot(arg) for arg in node.args)
        )):
            self.mark(node)
            if scope.node is not None:
                self.helpers.add(scope.node.name)
            receiver = node.func.value if isinstance(node.func, ast.Attribute) else None
            if isinstance(receiver, ast.Attribute) and isinstance(receiver.value, ast.Name) and receiver.value.id == "self":
                self.chains.add(receiver.attr)  # `self.turn_chain.invoke(...)`: where the chain is made matters too
        elif node.args and self.walks_whole(scope) and any(self._asks_for_summary(arg) for arg in node.args):
            self.mark(node)  # a helper given the prompt: `_complete(model, "Shorten this summary.", text)`
            self.prompted.add(name)

    def expressions_done(self, scopes: list[Scope]) -> None:
        """Calls of the module's functions that hold a summarize call (`self._complete(body)`), the
        model calls of the functions given a prompt that asks for one, and the assignments making the
        chains model calls are made on (`self.turn_chain = ...`)."""
        if self.chains:  # `self.turn_chain = TURN_PROMPT | llm`, in `__init__` or any method
            for scope in scopes:
                if scope.node is not None:
                    for node in walk(scope.node):
                        if isinstance(node, ast.Assign) and any(
                            isinstance(t, ast.Attribute) and t.attr in self.chains
                            and isinstance(t.value, ast.Name) and t.value.id == "self" for t in node.targets
                        ):
                            self.mark(node)
        if not (self.helpers or self.prompted):
            return
        for scope in scopes:
            if scope.node is not None:
                passes_prompt = scope.node.name in self.prompted
                for node in walk(scope.node):
                    if isinstance(node, ast.Call) and (
                        last_name(node) in self.helpers or (passes_prompt and names_model_call(last_name(node)))
                    ):
                        self.mark(node)

    def walks_whole(self, scope: Scope) -> bool:
        """A function whose lines ask for a summary, or name a module constant that does: its model calls
        may take that prompt through locals (`chain = SUMMARY_PROMPT | llm; chain.invoke(...)`)."""
        if scope.node is None:
            return False
        if self._request_lines is None:
            lowered = self.scan.lowered
            named = any(w.rstrip("e") in lowered for w in self.vocabulary.summarize_words) or any(
                w in lowered for w in self.vocabulary.summary_words
            )
            lines = match_lines(lowered, summarize_request(self.vocabulary, any_case=False)) if named else []
            if self.prompts:  # the module's prompt constants, by name (identifiers: the source's case)
                lines += match_lines(self.scan.source, re.compile(r"(?:%s)\b" % alternation(self.prompts, whole_word_start=True)))
            self._request_lines = sorted({*lines, *self._noun_request_lines()} if not named else {*lines})
        return spans_line(scope.node, self._request_lines)

    def _noun_request_lines(self) -> list[int]:
        """Lines where a summary noun of prose is asked for (`Write a five-line news digest`), in a file
        `summarize_request` is not run over."""
        lowered, found = self.scan.lowered, []
        tail = summary_noun_request(self.vocabulary)
        starts: list[int] = []  # `line_offsets`, made at the first request found
        for noun in SUMMARY_PROSE_NOUNS:
            at = lowered.find(noun)
            while at >= 0:
                if tail.search(lowered, max(0, at - 200), at):
                    starts = starts or line_offsets(lowered)
                    found.append(bisect_right(starts, at))
                at = lowered.find(noun, at + 1)
        return found

    def _asks_for_summary(self, expr: ast.AST) -> bool:
        return any(
            (isinstance(n, ast.Constant) and isinstance(n.value, str) and self.request.search(n.value) is not None)
            or (isinstance(n, ast.Name) and n.id in self.prompts)
            for n in walk(expr)
        )

    def _fills_summary_slot(self, arg: ast.expr) -> bool:
        """`{"summary": previous, "turns": ...}`: a prompt template's variables, one named for a summary."""
        return isinstance(arg, ast.Dict) and any(
            isinstance(k, ast.Constant) and isinstance(k.value, str) and bool(set(self.parts(k.value)) & set(self.vocabulary.summary_words))
            for k in arg.keys
        )

    def _summarizes(self, name: str) -> bool:
        words = self.vocabulary.summarize_words
        for part in self.parts(name):
            stem = part[1:] if part.startswith("a") and part[1:] in words else part
            if stem in words or (stem.endswith("r") and stem[:-1] in words) or part in self.vocabulary.summary_words:
                return True
        return False


# A string that is a word or identifier (`"summary"`, `"daily_digest"`), not prose.
_KEYWORD = re.compile(r"[A-Za-z_][\w-]*")


@dataclass
class _Inputs:
    """What a summarize call's arguments (or an assigned value) read."""

    names: set[str] = field(default_factory=set)  # plain names, resolved by flow at the end of the scope
    texts: set[str] = field(default_factory=set)  # code of attribute/subscript reads (`self.summary`)
    summary: str | None = None  # the first read whose name says it is a summary
    keyword: str | None = None  # the keyword that passes it, when that is what says summary
    nested: bool = False  # a summarize call inside the arguments
    asks: bool = False  # a string in it asks for a summary (a prompt)


@dataclass
class _Binding:
    """One assignment to a local name."""

    order: int
    loops: tuple[int, ...]
    summarized: bool  # assigned straight from a summarize call
    inputs: _Inputs
    call: cst.Call | None = None  # that call, when it is one the scope records
    branches: tuple[tuple[int, int], ...] = ()  # (id of an enclosing `if`, 0 in its body or 1 after it), outermost first


@dataclass
class _Call:
    node: cst.Call
    order: int
    loops: tuple[int, ...]
    inputs: _Inputs
    carried: str | None = None  # `self.summary` in `self.summary = summarize(self.summary, ...)`
    carried_in: str | None = None  # `self.state` in `self.state = State(text=t)`, `t` summarized from `self.state`
    folded: str | None = None  # `messages` in `return [summary_msg, *messages[cut:]]`, summarized from `messages[:cut]`
    prompted: bool = False  # a model call, a summarize call only if its prompt asks for a summary
    receiver: str | None = None  # `chain` of `chain.invoke(...)`, a local that may hold the prompt (`PROMPT | llm`)


@dataclass
class _Scope:
    """A function (or the module) whose summarize calls are decided when it ends."""

    params: dict[str, str | None]
    bindings: dict[str, list[_Binding]] = field(default_factory=dict)
    calls: list[_Call] = field(default_factory=list)
    function: cst.FunctionDef | None = None  # None for the module
    aliases: ContainerAliases | None = None
    tracking: list[cst.CSTNode] = field(default_factory=list)  # where it records lineage or writes a decision log
    unlinked: set[str] = field(default_factory=set)  # classes it builds without lineage: `Segment(id=..., body=...)`
    loops: list[int] = field(default_factory=list)  # ids of the enclosing for/while loops, innermost last
    branches: list[list[Any]] = field(default_factory=list)  # [if statement, 0 in its body or 1 after], innermost last


class SummaryOfSummary(ScopedRule):
    code = "SPL301"
    name = "summary-of-summary"
    summary = "A summary is summarized again and the chain is not recorded"
    message = "Summarize call whose input is itself a summary; the summary chain is not recorded"
    help = "Pass what the summary is made from (`parents=`, `source_ids=`), or record the link in the decision log"
    prefilter = SummarizeCallPrefilter
    # The one fact read across definitions, the signatures of the module's summarizers (`_signatures`),
    # comes from definitions named like summarizing, which hold the shape too.
    local_to_definitions = True
    docs = """
## What it does
Finds summarize calls (`summarize`, `summarise`, `condense`, `compress`, `resummarize`, or a
`summary` with a producing verb such as `predict_new_summary`; also a model call, such as
`llm.complete(...)`, `chain.invoke(...)` or `generator.run(...)`, whose arguments hold a string asking
for a summary (`Summarize ...`, `Rewrite the summary ...`, `You maintain a running summary`) or name a
module constant that does (also written over several lines): `llm.complete(SUMMARY_PROMPT.format(text=...))`,
also through locals and a chain made on it: `chain = SUMMARY_PROMPT | llm; chain.invoke(...)`, or
made on the object: `self.chain = SUMMARY_PROMPT | llm` in `__init__`)
whose input is itself a summary:
a nested summarize call, a local or attribute assigned from an earlier summarize call (including
a running summary carried through a loop or kept on `self`, through local aliases, or stored in a
new span: `self.summary_span = Span(id=new_id(), content=summarize(prev.content + ...))`), text read
back from where the call's result is stored (`self.notes = reply.content` after a prompt holding
`self.notes`; `self.digests[key] = summary` after reading `self.digests.get(key)`), an argument whose
name says it is a summary (`existing_summary`, `prev_summary`, `running_summary`, `state["summary"]`),
a summary put back into the container one part of which it summarizes, before the rest
(`return [SystemMessage(content=reply.content), *recent]` after summarizing `older = messages[:-keep]`;
`self.messages = [summary] + self.messages[cut:]`): the next pass summarizes that part again, the
earlier summary first in it, unless the part is filtered to leave summaries out,
what a read selecting summaries by a word returns (`store.filter_documents({..., "value": "summary"})`,
`store.search(ns, filter={"kind": "summary"})`),
or a value the prompt labels as the earlier summary (`"Earlier digest:\n{earlier}"` filled by
`.format(earlier=...)`, `f"Previous summary: {memo}"`, a template variable named for a summary:
`chain.invoke({"summary": previous, "turns": ...})`). A local assigned in the function is
judged by what it was assigned, not by its name, and a `summary` field read out of a request or the
parameters of a tool call (`params["summary"]`) is the text to summarize, not an earlier summary.

The call is fine when the chain is tracked: it passes lineage (`parent=`, `parents=`,
`source_ids=`, `sources=`, `lineage=`, `derived_from=`, `chain=`), or calls a helper named for
keeping it (`resummarize_with_chain(...)`, `summarize_with_lineage(...)`), or the same function records
the link on every path through the call (a lineage keyword on another call, a lineage attribute
or key it sets, or a record call on a decision log or chain such as
`self.decision_log.record(...)`; a record in another branch does not count), or the summary passed in is
an object whose class carries lineage fields (a field naming parents, sources or the ids of the
summarized messages) and the function builds no new object of that class without them. A lineage
field beside the summary in a state (`state.summary` next to `state.summary_sources`) counts only
when the function writes it.

## Why is this bad?
Each pass over a summary loses detail and adds the model's errors, and once the previous summary
is overwritten nothing says what the new one was derived from. The evidence for what the agent
"remembers" is gone, and a wrong fact introduced three summaries ago cannot be traced to a source.

## Example
```python
def remember(self, messages):
    self.summary = self.llm.summarize(self.summary, messages)
```

## Use instead
Derive the summary from the sources, or record the chain:
```python
def remember(self, messages):
    previous = self.summary
    self.summary = self.llm.summarize(previous, messages, parents=[previous.id])
```

## Fix safety
No fix: what to record as lineage is the caller's decision.
"""
    valid = [
        # A payload's body compressed before it is sent: not a summary the code keeps.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass HttpPayload:\n    body: str = ''\n\n"
            "def shrink(payload: HttpPayload, llm) -> None:\n    payload.body = llm.compress(payload.body)\n"
        ),
        # A helper named for keeping the chain (`..._with_chain`, `..._with_lineage`), maybe in another module.
        Valid(
            "def housekeeping(self):\n    latest = self.state.summaries[-1]\n"
            "    resummarize_with_chain(self.state, self.llm, latest)\n"
        ),
        # What goes back into the history is summarized from sources only: earlier summaries are left out.
        Valid(
            "def compact(messages, summarizer, keep=6):\n"
            "    older = [m for m in messages[:-keep] if not m.additional_kwargs.get('is_summary')]\n"
            "    summary = summarizer.summarize(older)\n"
            "    return [SystemMessage(content=summary, additional_kwargs={'is_summary': True}), *messages[-keep:]]\n"
        ),
        Valid(
            "def compact(self, summarizer, keep=6):\n    summary = summarizer.summarize(self.transcript)\n"
            "    return [SystemMessage(content=summary), *self.messages[-keep:]]\n"
        ),
        # The turns selected by their kind: sources, not summaries.
        Valid(
            "def digest_turns(store, session_id: str) -> str:\n"
            "    found = store.filter_documents({\"field\": \"meta.kind\", \"operator\": \"==\", \"value\": \"turn\"})\n"
            "    return summarize_text([d.content for d in found])\n"
        ),
        # The summary fills a slot of a prompt that answers a question: nothing new is summarized from it.
        Valid(
            "from langchain_core.prompts import ChatPromptTemplate\n\n"
            "QA_PROMPT = ChatPromptTemplate.from_messages(\n"
            "    [(\"human\", \"Conversation so far:\\n{summary}\\n\\nAnswer the question: {question}\")]\n)\n\n"
            "class Answerer:\n    def __init__(self, llm) -> None:\n        self.qa_chain = QA_PROMPT | llm\n\n"
            "    def answer(self, summary: str, question: str) -> str:\n"
            "        return self.qa_chain.invoke({\"summary\": summary, \"question\": question})\n"
        ),
        # The same helper asked to summarize the messages themselves: a summary from sources.
        Valid(
            "async def _complete(model, instruction, body):\n"
            "    reply = await model.ainvoke([SystemMessage(content=instruction), HumanMessage(content=body)])\n"
            "    return reply.content\n\n"
            "async def digest(store, ns, model, messages):\n"
            "    text = await _complete(model, 'Summarize the conversation.', '\\n'.join(m.content for m in messages))\n"
            "    await store.aput(ns, 'rolling', {'text': text, 'source_ids': [m.id for m in messages]})\n"
        ),
        # A rolling summary that carries the previous one's sources and names it as its parent.
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass SummaryRecord:\n    summary_id: str\n    text: str\n"
            "    source_ids: list[str] = field(default_factory=list)\n    parent_summary_id: str | None = None\n\n"
            "class Summarizer:\n    def extend(self, turns):\n        prev = self.current\n"
            "        text = self.llm.invoke(f'Summarize. Summary so far: {prev.text}\\nNew turns: {turns}')\n"
            "        self.current = SummaryRecord(new_id(), text, source_ids=prev.source_ids + [t.id for t in turns],\n"
            "                                     parent_summary_id=prev.summary_id)\n"
        ),
        Valid(  # the `else` of a loop is not a branch of an `if` (this once raised IndexError)
            "def first_summary(messages):\n"
            "    for m in messages:\n"
            "        if m.role == 'summary':\n"
            "            return m.text\n"
            "    else:\n"
            "        raise ValueError('no summary')\n"
        ),
        Valid(  # the prompt, through locals, asks a question about the summary
            "def answer(state, model):\n"
            "    summary = state.get('summary', '')\n"
            "    prompt = f'Answer the question using this summary: {summary}'\n"
            "    return model.invoke([HumanMessage(content=prompt)])\n"
        ),
        Valid(  # the prompt asks a question about the summary: the call does not make a new summary
            'PROMPT = "Answer the question using this summary:\\n{summary}\\n\\nQuestion: {q}"\n\n\n'
            "def answer(llm, memory, q):\n"
            "    return llm.complete(PROMPT.format(summary=memory.summary, q=q))\n"
        ),
        Valid(  # a summary made from the sources
            'PROMPT = "Summarize these notes:\\n\\n{text}"\n\n\n'
            "def fold(llm, batch):\n"
            "    return llm.complete(PROMPT.format(text='\\n'.join(s.body for s in batch)))\n"
        ),
        Valid(
            "def remember(self, messages):\n"
            "    previous = self.summary\n"
            "    self.summary = self.llm.summarize(previous, messages, parents=[previous.id])\n"
        ),
        Valid(
            "def digest(chunks):\n"
            "    return [summarize(chunk.text) for chunk in chunks]\n"
        ),
        Valid(
            "import zlib\n\n"
            "def pack(summary: bytes) -> bytes:\n"
            "    return zlib.compress(summary)\n"
        ),
        Valid(
            "async def roll(self, turns):\n"
            "    summary = await self.llm.summarize(turns)\n"
            "    self.decision_log.record('summarized', turns=[t.id for t in turns])\n"
            "    return await self.llm.summarize([summary, *turns])\n"
        ),
        Valid(
            "def shorten(text):\n"
            "    text = compress(text)\n"
            "    return text\n"
        ),
        Valid(
            "class Report:\n"
            "    def render(self, summary):\n"
            "        return _format_summary(summary)\n"
        ),
        Valid(
            "def update(memory, messages):\n"
            "    new = summarize(messages, max_summary_tokens=256, summary_prompt=PROMPT)\n"
            "    memory.append(new)\n"
        ),
        Valid(  # a store of summaries refreshed from the sources only
            "def refresh_topic(llm, topic, docs, digests: dict[str, str]) -> None:\n"
            "    body = '\\n'.join(d.text for d in docs)\n"
            "    out = llm.complete('Summarize for the topic page:\\n' + body)\n"
            "    digests[topic] = out.text\n"
        ),
        Valid(  # a node reading the messages and writing the summary key of the same state
            "def summary_node(state, model):\n"
            "    reply = model.invoke(state['messages'] + ['Write a short summary of the chat above.'])\n"
            "    state['summary'] = reply.content\n"
            "    return state\n"
        ),
        Valid(  # the state's sibling field records what the extended summary came from
            "from dataclasses import dataclass, field\n\n\n"
            "@dataclass\n"
            "class ThreadState:\n"
            "    turns: list[str] = field(default_factory=list)\n"
            "    summary: str = ''\n"
            "    summary_parents: list[str] = field(default_factory=list)\n\n\n"
            "async def fold_thread(state: ThreadState, llm) -> dict:\n"
            "    reply = await llm.ainvoke('Update the running summary.\\n' + state.summary + '\\n'.join(state.turns))\n"
            "    return {'summary': reply.content, 'summary_parents': [*state.summary_parents, *state.turns]}\n"
        ),
        Valid(  # the template labels a slot as the earlier summary, but the caller fills it with a literal
            'BRIEF = "Write a short briefing.\\nPrevious briefing summary: {before}\\nItems:\\n{items}"\n\n\n'
            "def first_briefing(llm, items):\n"
            "    return llm.complete(BRIEF.format(before='(none)', items='\\n'.join(items)))\n"
        ),
        Valid(  # the prompt labels the earlier summary but asks a question about it, not for a new summary
            "def ask(llm, memo, question):\n"
            "    return llm.chat(f'Using the summary so far: {memo}\\nanswer this: {question}')\n"
        ),
        Valid(  # a chain made on a prompt that asks a question: no summary is produced
            'QA = ChatPromptTemplate.from_template("Answer from this summary: {summary}\\nQuestion: {q}")\n\n\n'
            "def answer(state, llm):\n"
            "    chain = QA | llm\n"
            "    return chain.invoke({'summary': state['summary'], 'q': state['question']})\n"
        ),
        Valid(  # a hash digest is not a summary
            "import hashlib\n\n\n"
            "def stamp(llm, seg):\n"
            "    seg.digest = hashlib.sha256(seg.body.encode()).hexdigest()\n"
            "    return llm.complete(f'Classify this note: {seg.body}\\nDigest: {seg.digest}')\n"
        ),
        Valid(  # the summary object passed in lists its sources, and no new one is built here
            "from dataclasses import dataclass, field\n\n\n"
            "@dataclass\n"
            "class Recap:\n"
            "    text: str\n"
            "    sources: list[str] = field(default_factory=list)\n\n\n"
            "def recap_prompt(chain, recap: Recap, turns):\n"
            "    return chain.invoke({'input': f'Extend the summary: {recap.text}', 'turns': turns})\n"
        ),
        # Re-summarized from the sources the running summary lists, not from its text.
        Valid(
            "from dataclasses import dataclass\nfrom typing import Optional\n\nSUMMARY_PROMPT = \"Summarise the conversation. Keep names and dates.\"\n\n@dataclass\nclass SummaryRecord:\n    summary_id: str\n    text: str\n\n"
            "class Summarizer:\n    current: Optional[SummaryRecord] = None\n\n"
            "    async def rebuild(self, store) -> SummaryRecord:\n"
            "        text = await self.summarize([store.get(i).text for i in self.current.source_ids])\n"
            "        self.current = SummaryRecord(\"s2\", text)\n        return self.current\n"
        ),
        # The summaries are left out of what is summarized.
        Valid(
            "def digest(buffer, model):\n    sources = [s for s in buffer.live() if s.kind != 'summary']\n"
            "    text = summarize(model, '\\n'.join(s.content for s in sources))\n"
            "    return Span(span_id=new_id(), content=text, kind='summary')\n",
        ),
        # The prompt read out of the settings is named `summary`; what is summarized are the sources.
        Valid(
            "async def summarize_from_sources(store, settings):\n"
            "    sources = [m for m in store.messages if not m.get('summary')]\n"
            "    return await generate_summary(sources, store.model, settings.prompts['summary'].text)\n",
        ),
    ]
    invalid = [
        # The running summary read with `.get`, through a prompt constant written over several lines.
        Invalid(
            "ROLL_PROMPT = (\n    \"Current summary:\\n{summary}\\n\\nNew turns:\\n{turns}\\n\"\n"
            "    \"Rewrite the summary to include the new turns.\"\n)\n\n"
            "def roll(state: dict, turns: str, llm) -> str:\n"
            "    prompt = ROLL_PROMPT.format(summary=state.get('running', ''), turns=turns)\n"
            "    state['running'] = llm.complete(prompt).strip()\n    return state['running']\n",
            line=8, column=24,
            message="`complete(...)` summarizes a summary (`state['running']` is overwritten with its own summary) and the chain is not recorded",
        ),
        # A summary kept on a state object that is not a span: its text is the summary.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass RollingState:\n    text: str = ''\n    upto: int = 0\n\n"
            "def roll(state: RollingState, new: list[str], llm) -> None:\n"
            "    state.text = llm.summarize('\\n\\n'.join([state.text, *new]))\n",
            line=9, column=18,
            message="`summarize(...)` summarizes a summary (`state.text` is overwritten with its own summary) and the chain is not recorded",
        ),
        # A history processor putting its summary of the older messages back before the recent ones:
        # the next pass summarizes the older messages again, the previous summary first among them.
        Invalid(
            "async def compact_history(messages, llm, keep: int = 6):\n"
            "    older, recent = messages[:-keep], messages[-keep:]\n"
            "    reply = await llm.ainvoke([SystemMessage(content='Summarize the conversation so far.'), *older])\n"
            "    return [SystemMessage(content=reply.content), *recent]\n",
            line=3, column=19,
            message="`ainvoke(...)` summarizes a summary (the summary is put back into `messages`, whose summarized "
            "part holds the previous one) and the chain is not recorded",
        ),
        Invalid(
            "class Reducer:\n    def reduce(self, summarizer, cut):\n        head = self.messages[:cut]\n"
            "        summary = summarizer.summarize(head)\n        self.messages = [summary] + self.messages[cut:]\n",
            line=4, column=19,
            message="`summarize(...)` summarizes a summary (the summary is put back into `self.messages`, whose "
            "summarized part holds the previous one) and the chain is not recorded",
        ),
        # Summaries selected from the store by their kind, folded into one digest.
        Invalid(
            "def merge_digests(store, session_id: str) -> str:\n"
            "    found = store.filter_documents({\"field\": \"meta.kind\", \"operator\": \"==\", \"value\": \"summary\"})\n"
            "    return summarize_text([d.content for d in found])\n",
            line=3, column=12,
            message="`summarize_text(...)` summarizes a summary (`found` holds an earlier summary) and the chain is not recorded",
        ),
        # LangChain's running summary: the chain made in `__init__`, its `{summary}` slot filled with the last one.
        Invalid(
            "from langchain_core.prompts import ChatPromptTemplate\n\n"
            "TURN_PROMPT = ChatPromptTemplate.from_messages(\n"
            "    [(\"human\", \"Summary so far:\\n{summary}\\n\\nNew turns:\\n{turns}\\n\\nWrite the updated summary.\")]\n)\n\n"
            "class ConversationSummarizer:\n    def __init__(self, llm) -> None:\n        self.turn_chain = TURN_PROMPT | llm\n\n"
            "    def roll(self, previous: str, turns: str) -> str:\n"
            "        return self.turn_chain.invoke({\"summary\": previous, \"turns\": turns})\n",
            line=12, column=16,
            message="`invoke(...)` summarizes a summary (`previous`) and the chain is not recorded",
        ),
        # The state holding the summary is rebuilt from a summary of its own text and the new turns.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass SummaryState:\n    text: str = ''\n    generation: int = 0\n\n"
            "class Rolling:\n    async def roll(self, new_turns):\n"
            "        material = '\\n'.join([self.state.text, *new_turns])\n"
            "        text = await summarize_text(self.client, material)\n"
            "        self.state = SummaryState(text=text, generation=self.state.generation + 1)\n",
            line=11, column=22, message="`summarize_text(...)` summarizes a summary (`self.state` is overwritten with its own summary) and the chain is not recorded",
        ),
        # A helper that hands its prompt to the model, asked to shorten the stored summary: the digest
        # is rewritten from itself.
        Invalid(
            "async def _complete(model, instruction, body):\n"
            "    reply = await model.ainvoke([SystemMessage(content=instruction), HumanMessage(content=body)])\n"
            "    return reply.content\n\n"
            "async def condense(store, ns, model):\n    item = await store.aget(ns, 'rolling')\n    value = dict(item.value)\n"
            "    value['text'] = await _complete(model, 'Shorten this summary to 100 words.', value['text'])\n"
            "    await store.aput(ns, 'rolling', value)\n",
            line=8, column=27, message="`_complete(...)` summarizes a summary (`value['text']`) and the chain is not recorded",
        ),
        # A rolling summary whose lineage names only the new turns: the earlier sources drop out of the chain.
        Invalid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass SummaryRecord:\n    summary_id: str\n    text: str\n"
            "    source_ids: list[str] = field(default_factory=list)\n    parent_summary_id: str | None = None\n\n"
            "class Summarizer:\n    def roll_up(self, turns):\n        prior = self.current.text\n"
            "        text = self.llm.invoke(f'Summarize. Summary so far: {prior}\\nNew turns: {turns}')\n"
            "        self.current = SummaryRecord(new_id(), text, source_ids=[t.id for t in turns])\n",
            line=13, column=16, message="`invoke(...)` summarizes a summary (`prior`) and the chain is not recorded",
        ),
        Invalid(  # the prompt chosen in `if`/`else`: the branch that extends the summary reaches the call
            "def summarize_conversation(state, model):\n"
            "    summary = state.get('summary', '')\n"
            "    if summary:\n"
            "        prompt = f'This is the summary so far: {summary}\\nExtend the summary with the new messages:'\n"
            "    else:\n"
            "        prompt = 'Create a summary of the conversation above:'\n"
            "    response = model.invoke(state['messages'] + [HumanMessage(content=prompt)])\n"
            "    return {'summary': response.content}\n",
            line=7, column=16, message="`invoke(...)` summarizes a summary (`prompt` holds an earlier summary) and the chain is not recorded",
        ),
        Invalid(  # the template's prose says which slot holds the earlier digest
            'BRIEF = "Write a short briefing digest.\\nEarlier digest: {before}\\nItems:\\n{items}"\n\n\n'
            "def next_briefing(llm, last, items):\n"
            "    return llm.complete(BRIEF.format(before=last.text, items='\\n'.join(items)))\n",
            line=5, column=12, message="`complete(...)` summarizes a summary (`last.text`) and the chain is not recorded",
        ),
        Invalid(  # an f-string labels the value it inserts as the previous summary
            "async def refresh(client, memo, turns):\n"
            "    body = '\\n'.join(t.text for t in turns)\n"
            "    return await client.ainvoke(f'Condense into one paragraph.\\nPrevious summary: {memo}\\nNew turns:\\n{body}')\n",
            line=3, column=18, message="`ainvoke(...)` summarizes a summary (`memo`) and the chain is not recorded",
        ),
        Invalid(  # a chain made on a prompt that extends the summary (LCEL `prompt | llm`)
            "PROMPT = ChatPromptTemplate.from_messages([\n"
            "    ('system', 'Extend the summary below with the new lines.'),\n"
            "    ('human', '{summary}\\n\\nNew lines:\\n{lines}'),\n"
            "])\n\n\n"
            "def fold(state, llm):\n"
            "    chain = PROMPT | llm\n"
            "    reply = chain.invoke({'summary': state['summary'], 'lines': state['messages'][-4:]})\n"
            "    return {'summary': reply.content}\n",
            line=9, column=13, message="`invoke(...)` summarizes a summary (`state['summary']`) and the chain is not recorded",
        ),
        Invalid(  # a generator component's reply, read out of its result, stored over the text it was given
            "class RollingNotes:\n"
            "    def update(self, turns):\n"
            "        prompt = 'Summarize the conversation.\\n' + self.notes + '\\n' + '\\n'.join(turns)\n"
            "        result = self.generator.run(prompt=prompt)\n"
            "        self.notes = result['replies'][0]\n",
            line=4, column=18, message="`run(...)` summarizes a summary (`self.notes` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(  # a chat model's message, stored back over the memo it condensed
            "class Memo:\n"
            "    async def refresh(self, llm, new_text):\n"
            "        msgs = [ChatMessage(role='system', content='Condense the notes into a short memo.'),\n"
            "                ChatMessage(role='user', content=self.memo_text + '\\n' + new_text)]\n"
            "        resp = await llm.achat(msgs)\n"
            "        self.memo_text = resp.message.content\n",
            line=5, column=22, message="`achat(...)` summarizes a summary (`self.memo_text` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(  # a state whose sibling field could hold the sources, not written by this node
            "from dataclasses import dataclass, field\n\n\n"
            "@dataclass\n"
            "class ThreadState:\n"
            "    turns: list[str] = field(default_factory=list)\n"
            "    summary: str = ''\n"
            "    summary_parents: list[str] = field(default_factory=list)\n\n\n"
            "async def fold_thread(state: ThreadState, llm) -> dict:\n"
            "    text = '\\n'.join(state.turns)\n"
            "    reply = await llm.ainvoke('Update the running summary with these turns.\\n' + state.summary + text)\n"
            "    return {'summary': reply.content}\n",
            line=13, column=19, message="`ainvoke(...)` summarizes a summary (`state.summary`) and the chain is not recorded",
        ),
        Invalid(  # the summary passed in lists its sources, but the shorter one built from it lists none
            "from dataclasses import dataclass, field\n\n\n"
            "@dataclass\n"
            "class Note:\n"
            "    note_id: str\n"
            "    text: str\n"
            "    parents: list[str] = field(default_factory=list)\n\n\n"
            "def shrink(model, summary: Note) -> Note:\n"
            "    shorter = model.invoke(f'Condense this note to three lines: {summary.text}')\n"
            "    return Note(note_id=uuid4().hex, text=shorter.content)\n",
            line=12, column=15, message="`invoke(...)` summarizes a summary (`summary`) and the chain is not recorded",
        ),
        Invalid(  # a store of summaries by key: the entry read back is an earlier summary
            "def refresh_topic(llm, topic, docs, digests: dict[str, str]) -> None:\n"
            "    earlier = digests.get(topic, '')\n"
            "    body = earlier + '\\n\\n' + '\\n'.join(d.text for d in docs)\n"
            "    out = llm.complete('Summarize for the topic page:\\n' + body)\n"
            "    digests[topic] = out.text\n",
            line=4, column=11, message="`complete(...)` summarizes a summary (`digests[topic]` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(  # the attribute overwritten, through a local, with a summary of itself
            "class Recap:\n"
            "    def add(self, turns):\n"
            "        prompt = RECAP_TEMPLATE.format(so_far=self.recap_text, turns='\\n'.join(turns))\n"
            "        result = self.chain.invoke({'input': prompt, 'task': 'summarize'})\n"
            "        self.recap_text = result\n",
            line=4, column=18, message="`invoke(...)` summarizes a summary (`self.recap_text` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(  # LangGraph's running summary, extended from itself
            "def summarize_conversation(state, model):\n"
            "    summary = state.get('summary', '')\n"
            "    prompt = f'This is the summary so far: {summary}\\nExtend the summary with the new messages:'\n"
            "    messages = state['messages'] + [HumanMessage(content=prompt)]\n"
            "    response = model.invoke(messages)\n"
            "    return {'summary': response.content}\n",
            line=5, column=16, message="`invoke(...)` summarizes a summary (`messages` holds an earlier summary) and the chain is not recorded",
        ),
        Invalid("def digest(text):\n    return summarize(summarize(text))\n", line=2, column=12, message="`summarize(...)` summarizes a summary (the output of a nested summarize call) and the chain is not recorded"),
        Invalid(
            'PROMPT = "Summarize these notes for a planning agent:\\n\\n{text}"\n\n\n'
            "def fold(llm, window, batch):\n"
            "    text = '\\n'.join(s.body for s in batch)\n"
            "    previous = window.running_summary\n"
            "    return llm.complete(PROMPT.format(text=previous.body + text))\n",
            line=7, column=12, message="`complete(...)` summarizes a summary (`previous` holds an earlier summary) and the chain is not recorded",
        ),
        Invalid(
            "class Memory:\n"
            "    def remember(self, messages):\n"
            "        self.summary = self.llm.summarize(self.summary, messages)\n",
            line=3, column=24, message="`summarize(...)` summarizes a summary (`self.summary` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(
            "def roll(turns):\n"
            "    summary = ''\n"
            "    for turn in turns:\n"
            "        summary = summarize(summary + turn.text)\n"
            "    return summary\n",
            line=4, column=19, message="`summarize(...)` summarizes a summary (`summary` holds an earlier summary) and the chain is not recorded",
        ),
        Invalid(
            "async def refresh(llm, chunks):\n"
            "    first = await llm.summarize(chunks)\n"
            "    prompt = f'Shorten this: {first}'\n"
            "    return await llm.condense(prompt)\n",
            line=4, column=18, message="`condense(...)` summarizes a summary (`prompt` holds an earlier summary) and the chain is not recorded",
        ),
        Invalid(
            "def update(existing_summary: str, new_lines: list[str]) -> str:\n"
            "    return generate_summary(existing_summary, new_lines)\n",
            line=2, column=12, message="`generate_summary(...)` summarizes a summary (`existing_summary`) and the chain is not recorded",
        ),
        Invalid(
            "class ConversationSummaryMemory:\n"
            "    def save_context(self, inputs, outputs):\n"
            "        self.buffer = self.predict_new_summary(self.chat_memory.messages[-2:], self.buffer)\n",
            line=3, column=23, message="`predict_new_summary(...)` summarizes a summary (`self.buffer` is overwritten with its own summary) and the chain is not recorded",
        ),
        Invalid(
            "def squeeze(history, budget):\n"
            "    while count_tokens(history) > budget:\n"
            "        history = compress_history(history)\n"
            "    return history\n",
            line=3, column=19, message="`compress_history(...)` summarizes a summary (`history` holds an earlier summary) and the chain is not recorded",
        ),
        # The record read back with the summary's id is the earlier summary; it is rewritten from itself.
        Invalid(
            "async def rolling_summary(store, summary_id, new, summarize):\n"
            "    current = store.get(summary_id)\n"
            "    blob = current['text'] + '\\n' + '\\n'.join(m['text'] for m in new)\n"
            "    return store.rewrite(summary_id, await summarize(blob))\n",
            line=4, column=44,
            message="`summarize(...)` summarizes a summary (`blob` holds an earlier summary) and the chain is not recorded",
        ),
        # The running summary is typed as a summary; the module's own helper does the model call.
        Invalid(
            "from dataclasses import dataclass\nfrom typing import Optional\n\nSUMMARY_PROMPT = \"Summarise the conversation. Keep names and dates.\"\n\n@dataclass\nclass SummaryRecord:\n    summary_id: str\n    text: str\n\n"
            "class Summarizer:\n    current: Optional[SummaryRecord] = None\n\n"
            "    async def _complete(self, body: str) -> str:\n"
            "        return (await self.llm.ainvoke([(\"system\", SUMMARY_PROMPT), (\"user\", body)])).text\n\n"
            "    async def roll_up(self, new_text: str) -> SummaryRecord:\n"
            "        rec = self.current\n"
            "        text = await self._complete(rec.text + \"\\n\" + new_text)\n"
            "        self.current = SummaryRecord(\"s2\", text)\n        return self.current\n",
            line=19, column=22,
            message="`_complete(...)` summarizes a summary (`rec.text`) and the chain is not recorded",
        ),
        # The summaries of the buffer, selected by their kind, merged into a new one with no sources.
        Invalid(
            "def merge_summaries(buffer, model):\n    prior = [s for s in buffer.live() if s.produced_by == 'summary']\n"
            "    text = summarize(model, '\\n'.join(s.content for s in prior))\n"
            "    return Span(span_id=new_id(), content=text, produced_by='summary')\n",
            line=3, column=12,
            message="`summarize(...)` summarizes a summary (`prior` holds an earlier summary) and the chain is not recorded",
        ),
        # A rolling summary in the session state, updated by a text generator the object was given.
        Invalid(
            "class RollingSummary:\n    KEY = 'rolling_summary'\n\n    def __init__(self, generate):\n"
            "        self._generate = generate\n\n    async def update(self, state, transcript):\n"
            "        previous = state.get(self.KEY, '')\n"
            "        prompt = f'Update the running summary.\\n\\nSummary so far:\\n{previous}\\n\\nNew turns:\\n{transcript}'\n"
            "        state[self.KEY] = await self._generate(prompt)\n",
            line=10, column=33,
            message="`_generate(...)` summarizes a summary (`state[self.KEY]` is overwritten with its own summary) and the chain is not recorded",
        ),
        # Each pass condenses the last pass's output, through a helper that runs the agent.
        Invalid(
            "def _ask(agent, prompt):\n    return agent.run(prompt).content\n\n"
            "def condense(agent, text, passes=3):\n    current = text\n    for _ in range(passes):\n"
            "        current = _ask(agent, f'Condense this into fewer words:\\n\\n{current}')\n    return current\n",
            line=7, column=19,
            message="`_ask(...)` summarizes a summary (`current` holds an earlier summary) and the chain is not recorded",
        ),
        # The previous summary fed back in, and the new one kept after a helper tags it.
        Invalid(
            "class RollingSummarizer:\n    def __init__(self, model):\n        self.model = model\n        self.current = None\n\n"
            "    async def refresh(self, new_messages):\n        inputs = ([self.current] if self.current else []) + list(new_messages)\n"
            "        summary = await generate_summary(inputs, self.model)\n"
            "        self.current = _tag_summary(summary, covers=len(new_messages))\n        return self.current\n",
            line=8, column=25,
            message="`generate_summary(...)` summarizes a summary (`self.current` is overwritten with its own summary) and the chain is not recorded",
        ),
        # A model method named for what it does (Langroid's `llm_response`), given the summary it replaces.
        Invalid(
            "class Memory:\n    def __init__(self, agent):\n        self.agent = agent\n        self.summary = ''\n\n"
            "    def update(self, turns):\n"
            "        self.summary = self.agent.llm_response(f'Update the summary: {self.summary}\\n{turns}').content\n",
            line=7, column=24,
            message="`llm_response(...)` summarizes a summary (`self.summary` is overwritten with its own summary) and the chain is not recorded",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return _pattern(vocabulary).search(source.lower()) is not None

    def __init__(self, context) -> None:  # type: ignore[no-untyped-def]
        super().__init__(context)
        self._stack: list[_Scope] = [_Scope({})]
        self._module_scope = self._stack[0]
        self._templates: dict[str, str] = {}  # module constants bound to a string: `TEMPLATE = "...{earlier}..."`
        self._finished: list[_Scope] = []
        # Parameter annotations of this module's functions, by function name.
        self._signatures: dict[str, dict[str, str | None]] = {}
        self._order = 0
        self._definitions: dict[str, list[cst.FunctionDef]] | None = None  # this module's functions and methods
        self._helpers: dict[str, bool] = {}  # `_summarizing_helper`, per name

    # --- scopes ----------------------------------------------------------------------------
    def visit_FunctionDef(self, node: cst.FunctionDef) -> None:
        super().visit_FunctionDef(node)
        self._stack.append(_Scope(dict(self.facts.params), function=node, aliases=ContainerAliases.of(node, self.context.analysis.memo)))
        self._signatures.setdefault(node.name.value, self._stack[-1].params)

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        self._finished.append(self._stack.pop())
        super().leave_FunctionDef(original_node)

    def leave_Module(self, original_node: cst.Module) -> None:
        for scope in [*self._finished, self._stack.pop()]:
            self._decide(scope)

    def visit_For(self, node: cst.For) -> None:
        self._stack[-1].loops.append(id(node))
        for name in _target_names(node.target):
            self._bind(name, node.iter, summarized=False)

    def leave_For(self, original_node: cst.For) -> None:
        self._stack[-1].loops.pop()

    def visit_If(self, node: cst.If) -> None:
        branches = self._stack[-1].branches
        if branches and branches[-1][0].orelse is node:
            branches[-1][1] = 1  # an `elif`: the branch after the body of the `if` it continues
        branches.append([node, 0])

    def leave_If(self, original_node: cst.If) -> None:
        self._stack[-1].branches.pop()

    def visit_Else(self, node: cst.Else) -> None:
        branches = self._stack[-1].branches
        if branches and branches[-1][0].orelse is node:  # not the `else` of a loop or a `try`
            branches[-1][1] = 1

    def visit_While(self, node: cst.While) -> None:
        self._stack[-1].loops.append(id(node))

    def leave_While(self, original_node: cst.While) -> None:
        self._stack[-1].loops.pop()

    # --- evidence of lineage ---------------------------------------------------------------
    def _is_lineage_name(self, name: str) -> bool:
        """`parents`, `source_ids`, `parent_summary_id`, `summary_chain`; not `chain_type`."""
        vocabulary = self.context.vocabulary
        if name in vocabulary.lineage_keywords:
            return True
        parts = name_parts(name)
        if not parts:
            return False
        if parts[-1] in vocabulary.lineage_keywords or parts[:2] == ["derived", "from"]:
            return True
        stems = {k.rstrip("s") for k in vocabulary.lineage_keywords} | set(vocabulary.lineage_keywords)
        return parts[-1] in ("id", "ids") and any(part in stems for part in parts[:-1])

    def _names_lineage(self, callee: str) -> bool:
        """`resummarize_with_chain`, `summarize_with_lineage`: a summarizer named for recording the chain
        after a `with` (its body, maybe in another module, is taken at its word)."""
        parts = name_parts(callee)
        return "with" in parts and self._is_lineage_name("_".join(parts[parts.index("with") + 1:]))

    def _is_log_name(self, name: str) -> bool:
        """`decision_log`, `self._audit`, `provenance_ledger`: a decision log, by name."""
        vocabulary = self.context.vocabulary
        if name in vocabulary.decision_log_names:
            return True
        generic = set(vocabulary.record_methods)
        words = {p for log in vocabulary.decision_log_names for p in name_parts(log)} - generic
        return bool(set(name_parts(name)) & words)

    def _records_lineage(self, call: cst.Call) -> bool:
        """A call that passes lineage, or records to a decision log or a chain."""
        return any(arg.keyword is not None and self._is_lineage_name(arg.keyword.value) for arg in call.args) or (
            self._records_to_log(call)
        )

    def _records_to_log(self, call: cst.Call) -> bool:
        """`self.decision_log.record(...)`, `chain.append(...)`, `track_lineage(...)`: a call recording to a
        decision log or a chain."""
        vocabulary = self.context.vocabulary
        func = call.func
        if isinstance(func, cst.Attribute) and func.attr.value in (*vocabulary.record_methods, "extend", "add"):
            receiver = func.value
            receiver_name = receiver.attr.value if isinstance(receiver, cst.Attribute) else (
                receiver.value if isinstance(receiver, cst.Name) else ""
            )
            if self._is_log_name(receiver_name) or self._is_lineage_name(receiver_name):
                return True
        parts = name_parts(callee_name(call) or "")
        recording = set(parts) & {*vocabulary.record_methods, "track", "add", "save"}
        return bool(recording) and any(
            self._is_log_name(part) or self._is_lineage_name(part) for part in parts if part not in recording
        )

    def visit_Call(self, node: cst.Call) -> None:
        scope = self._stack[-1]
        name = callee_name(node)
        if self._records_lineage(node):
            scope.tracking.append(node)
        elif name and name[0].isupper():
            scope.unlinked.add(name)
        self._collects_summaries(node)
        summarizes = self.context.analysis.is_summarize_call(node) or self._calls_summarizing_helper(node)
        if not summarizes and not names_model_call(name) and not self._calls_model_helper(node):
            return
        inputs = _Inputs()
        for arg in node.args:
            keyword = arg.keyword.value if arg.keyword is not None else None
            if keyword is not None and self._is_lineage_name(keyword):
                continue
            if keyword is not None and self.context.analysis.says_summary(keyword) and not _is_literal(arg.value):
                if inputs.summary is None:
                    inputs.summary, inputs.keyword = f"{keyword}=", keyword
            self._scan(arg.value, inputs)
        if inputs.summary is None:
            inputs.summary = self._given_summary(node)
        self._order += 1
        func = node.func
        receiver = None
        if isinstance(func, cst.Attribute):
            if isinstance(func.value, cst.Name):
                receiver = func.value.value
            elif isinstance(func.value, cst.Attribute) and isinstance(func.value.value, cst.Name) and func.value.value.value == "self":
                receiver = f"self.{func.value.attr.value}"  # a chain the object made (`self.chain = PROMPT | llm`)
        scope.calls.append(
            _Call(node, self._order, tuple(self._stack[-1].loops), inputs, prompted=not summarizes, receiver=receiver)
        )

    def _produces_summary(self, call: cst.Call) -> bool:
        """A summarize call, or a call of a model helper of this module given a prompt asking for a
        summary (`_ask(agent, f"Condense this: {text}")`)."""
        analysis = self.context.analysis
        return analysis.is_summarize_call(call) or (self._calls_model_helper(call) and analysis.asks_for_summary(call.args))

    def _calls_summarizing_helper(self, call: cst.Call) -> bool:
        """`self._complete(body)`, `_complete(body)`: a call of a function or method of this module that
        summarizes (`_summarizing_helper`), named for something else (a name that says summarizing is
        judged by its name: `zlib.compress` is not one)."""
        name = _own_callee(call)
        words = self.context.vocabulary.summarize_words
        return name is not None and not any(part in words for part in name_parts(name)) and self._summarizing_helper(name)

    def _given_summary(self, call: cst.Call) -> str | None:
        """`_complete(model, "Shorten this summary.", value["text"])`: the text a call gives a model with a
        prompt that calls it a summary (a literal, or a module constant, among the arguments)."""
        prompts = [self._prompt_text(a.value) for a in call.args]
        if not any(p and _GIVEN_SUMMARY.search(p) for p in prompts):
            return None
        code = self.context.module.code_for_node
        for arg, prompt in zip(call.args, prompts):
            value = arg.value
            if prompt or _is_literal(value) or (
                isinstance(value, cst.Name) and MODEL_RECEIVER_WORDS.intersection(name_parts(value.value))
            ):
                continue
            return code(value)
        return None

    def _prompt_text(self, value: cst.BaseExpression) -> str:
        """The prose of a string literal, an f-string's text parts, or a module constant's string."""
        if isinstance(value, cst.FormattedString):
            return " ".join(p.value for p in value.parts if isinstance(p, cst.FormattedStringText))
        if isinstance(value, cst.Name):
            return self._templates.get(value.value, "")
        return string_value(value) or ""

    def _calls_model_helper(self, call: cst.Call) -> bool:
        """`_complete(model, instruction, body)`: a call of a function of this module that gives one of its
        parameters to a model (`model.ainvoke([SystemMessage(content=instruction), ...])`); like a model
        call, it summarizes when the prompt it is given asks for a summary."""
        name = _own_callee(call)
        if name is None:
            return False
        self._summarizing_helper(name)  # reads the definitions once
        assert self._definitions is not None
        key = f"model {name}"
        found = self._helpers.get(key)
        if found is None:
            found = self._helpers[key] = any(self._gives_parameter_to_model(f) for f in self._definitions.get(name, ()))
        return found

    def _gives_parameter_to_model(self, function: cst.FunctionDef) -> bool:
        params = _params(function)
        return bool(params) and any(
            isinstance(call, cst.Call) and callee_name(call) in MODEL_CALLS and isinstance(call.func, cst.Attribute)
            and MODEL_RECEIVER_WORDS.intersection(name_parts((dotted_name(call.func.value) or "").split(".")[-1]))
            and any(isinstance(n, cst.Name) and n.value in params for a in call.args for n in traversal.descendants(a.value))
            for call in traversal.descendants(function.body)
        )

    def _summarizing_helper(self, name: str) -> bool:
        """A function or method of this module named `name` gives one of its parameters to a summarize call
        (`_complete(self, body)` calling `llm.ainvoke([SystemMessage(SUMMARY_PROMPT), HumanMessage(body)])`):
        a call of it summarizes its argument. Each definition is read once, when a call names it."""
        if self._definitions is None:
            self._definitions = {}
            for statement in self.context.module.body:
                bodies = [statement] if isinstance(statement, cst.FunctionDef) else (
                    statement.body.body if isinstance(statement, cst.ClassDef) else ()
                )
                for node in bodies:
                    if isinstance(node, cst.FunctionDef):
                        self._definitions.setdefault(node.name.value, []).append(node)
        found = self._helpers.get(name)
        if found is None:
            found = self._helpers[name] = any(self._gives_parameter_to_summary(f) for f in self._definitions.get(name, ()))
        return found

    def _gives_parameter_to_summary(self, function: cst.FunctionDef) -> bool:
        params = _params(function)
        is_summarize = self.context.analysis.is_summarize_call
        return bool(params) and any(
            isinstance(call, cst.Call) and is_summarize(call) and any(
                isinstance(n, cst.Name) and n.value in params for a in call.args for n in traversal.descendants(a.value)
            )
            for call in traversal.descendants(function.body)
        )

    def _collects_summaries(self, call: cst.Call) -> None:
        """`parts.append(summarize(c))`: the list now holds summaries."""
        func = call.func
        if (
            isinstance(func, cst.Attribute)
            and func.attr.value in ("append", "extend", "insert")
            and isinstance(func.value, cst.Name)
            and call.args
            and _summarize_value(call.args[-1].value, self.context.analysis.is_summarize_call) is not None
        ):
            self._bind(func.value.value, call.args[-1].value, summarized=True)

    def visit_Dict(self, node: cst.Dict) -> None:
        scope = self._stack[-1]
        for element in node.elements:
            key = string_value(getattr(element, "key", None))
            if key is not None and self._is_lineage_name(key):
                scope.tracking.append(node)

    # --- assignments -----------------------------------------------------------------------
    def leave_Assign(self, original_node: cst.Assign) -> None:
        for target in original_node.targets:
            self._assigned(target.target, original_node.value)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        if original_node.value is not None:
            self._assigned(original_node.target, original_node.value)

    def leave_NamedExpr(self, original_node: cst.NamedExpr) -> None:
        self._assigned(original_node.target, original_node.value)

    def leave_AugAssign(self, original_node: cst.AugAssign) -> None:
        self._assigned(original_node.target, original_node.value, augmented=True)

    def _assigned(self, target: cst.BaseExpression, value: cst.BaseExpression, augmented: bool = False) -> None:
        scope = self._stack[-1]
        if scope is self._module_scope and isinstance(target, cst.Name) and isinstance(value, (cst.SimpleString, cst.ConcatenatedString)):
            self._templates[target.value] = literal_text(value) or ""  # `PROMPT = ("..." "...")` too
        if isinstance(target, (cst.Attribute, cst.Subscript)):
            written = target.attr.value if isinstance(target, cst.Attribute) else string_key(target)
            if written and self._is_lineage_name(written):
                scope.tracking.append(target)
        call = _summarize_value(value, self._produces_summary)
        stored = call if call is not None else _summary_stored_in(value, self._produces_summary)
        held = self._held_call(scope, value)
        if stored is None:
            stored = held
        wrapped = False
        if stored is None and isinstance(value, cst.Call) and (
            (callee_name(value) or "")[:1].isupper()
            or (_own_callee(value) is not None and not _opaque(value) and callee_name(value) not in COPY_CALLS)
        ):
            # `self.state = SummaryState(text=text, ...)`, `self.current = _tag_summary(summary, covers=n)`,
            # `text`, `summary` the result of a summarize call here
            stored = next((c for c in (self._held_call(scope, a.value) for a in value.args) if c is not None), None)
            wrapped = True
        if stored is not None and isinstance(target, (cst.Attribute, cst.Subscript)):
            self._carried(stored, target, wrapped)
        elif isinstance(target, (cst.Attribute, cst.Subscript)):
            self._folded_back(value, target)
        names = _target_names(target)
        for name in names:
            self._bind(name, value, summarized=call is not None, augmented=augmented, call=held)

    def leave_Return(self, original_node: cst.Return) -> None:
        if self._stack[-1].function is not None and original_node.value is not None:
            self._folded_back(original_node.value, None)

    def _folded_back(self, value: cst.BaseExpression, target: cst.Attribute | cst.Subscript | None) -> None:
        """`self.messages = [summary_msg, *recent]`, or `return [head, *recent]` from a history processor
        given `messages` (`[head] + recent` too): a summary made from one part of a container put back
        into it before the rest. The next pass summarizes that part again, the earlier summary in it,
        unless the part it summarizes leaves summaries out (`[m for m in old if not m.is_summary]`)."""
        parts, rest = _list_parts(value)
        if not parts or not rest:
            return
        scope = self._stack[-1]
        call = next((c for c in (self._result_in(scope, p) for p in parts) if c is not None), None)
        recorded = next((c for c in scope.calls if c.node is call), None) if call is not None else None
        if recorded is None or recorded.carried or recorded.carried_in or recorded.folded:
            return
        read = self._reads(scope, recorded.inputs, recorded.order, set())
        rest_inputs = _Inputs()
        for expr in rest:
            self._scan(expr, rest_inputs)
        rest_read = self._reads(scope, rest_inputs, self._order + 1, set())
        code = self.context.module.code_for_node
        if target is not None:
            containers = [code(target)]
        else:  # the processor's own input: a parameter, or a field of `self`
            containers = sorted(p for p in scope.params if p not in ("self", "cls")) + sorted(
                t for t in read if t.startswith("self.") and re.fullmatch(r"self\.\w+", t)
            )
        container = next((c for c in containers if c in read and c in rest_read), None)
        if container is not None and not self._leaves_out_summaries(scope):
            recorded.folded = container

    def _result_in(self, scope: _Scope, expr: cst.BaseExpression) -> cst.Call | None:
        """The recorded call whose result `expr` is or is built from (`ModelRequest(parts=[UserPromptPart(
        f"Summary: {result.output}")])`, `result` bound to the call)."""
        held = self._held_call(scope, expr)
        if held is not None:
            return held
        inputs = _Inputs()
        self._scan(expr, inputs)
        for name in sorted(self._reads(scope, inputs, self._order + 1, set())):
            bindings = scope.bindings.get(name)
            if bindings and bindings[-1].call is not None:
                return bindings[-1].call
        return None

    def _leaves_out_summaries(self, scope: _Scope) -> bool:
        """The function filters summaries out somewhere (`if not m.is_summary` in a comprehension, a
        `filter(...)` naming one): what it summarizes is taken to be sources only."""
        says_summary = self.context.analysis.says_summary
        assert scope.function is not None
        for node in traversal.descendants(scope.function.body):
            tests = [node.test] if isinstance(node, cst.CompIf) else [
                a.value for a in node.args
            ] if isinstance(node, cst.Call) and callee_name(node) == "filter" else []
            for test in tests:
                if any(
                    isinstance(n, cst.Name) and says_summary(n.value) or isinstance(n, cst.Attribute) and says_summary(n.attr.value)
                    or isinstance(n, cst.SimpleString) and says_summary(string_value(n) or "")
                    for n in (test, *traversal.descendants(test))
                ):
                    return True
        return False

    def _held_call(self, scope: _Scope, value: cst.BaseExpression) -> cst.Call | None:
        """The summarize or model call of this scope whose result `value` is or holds: `llm.complete(p).text`,
        `await llm.achat(msgs)`, `reply.content` or `result["replies"][0]` where `result = generator.run(...)`."""
        while isinstance(value, (cst.Await, cst.Attribute, cst.Subscript)) or _text_method_of(value) is not None:
            if isinstance(value, cst.Call):
                value = _text_method_of(value)  # `llm.complete(prompt).strip()`
            else:
                value = value.expression if isinstance(value, cst.Await) else value.value
        if isinstance(value, cst.Name):
            bindings = scope.bindings.get(value.value)
            return bindings[-1].call if bindings else None
        if isinstance(value, cst.Call):
            for recorded in reversed(scope.calls):
                if recorded.node is value:
                    return value
        return None

    def _carried(self, call: cst.Call, target: cst.Attribute | cst.Subscript, wrapped: bool = False) -> None:
        """`self.summary = summarize(self.summary, ...)`: the stored summary feeds the next one. A store
        keyed by a value (`self.digests[section] = summary`) holds summaries: its input read any entry
        of it (`self.digests.get(section)`, through locals too) is an earlier summary."""
        code = self.context.module.code_for_node
        written = code(target)
        store = code(target.value) if isinstance(target, cst.Subscript) and string_key(target) is None else written
        scope = self._stack[-1]
        for recorded in reversed(scope.calls):
            if recorded.node is call:
                read = self._reads(scope, recorded.inputs, recorded.order, set())
                fields = {t[len(written) + 1:].split(".")[0] for t in read if t.startswith(written + ".")}
                if fields and all(self._is_lineage_name(f) for f in fields):
                    return  # `self.current.source_ids` read: the sources it lists, not its text
                if (written in read or store in read) and not self._is_span_rewrite(target):
                    if wrapped:
                        recorded.carried_in = written
                    else:
                        recorded.carried = written
                return

    def _reads(self, scope: _Scope, inputs: _Inputs, order: int, seen: set[str]) -> set[str]:
        """What the text read (`inputs`, at `order`) reads, through the locals bound before it."""
        read = inputs.texts | inputs.names
        for name in inputs.names - seen:
            for binding in scope.bindings.get(name, []):
                if binding.order < order:
                    read |= self._reads(scope, binding.inputs, binding.order, seen | {name})
        return read

    def _is_span_rewrite(self, target: cst.Attribute | cst.Subscript) -> bool:
        """`span.content = compress(span.content)`, `span["content"] = compress(span["content"])`: a rewrite
        of the span (SPL101's concern)."""
        if isinstance(target, cst.Subscript):
            return string_key(target) in self.context.vocabulary.content_fields
        if self.context.analysis.says_summary(target.attr.value):
            return False
        analysis = self.context.analysis
        known = analysis.known_class(target.value, self.facts)
        words = {w for p in name_parts(known.name) for w in (p, p + "s")} if known is not None else set()
        if known is not None and not known.is_span and not _LOOK_ALIKE_PARTS & words:
            return False  # `state.text` of a `RollingState`, not a span: the summary it keeps
        if known is not None:
            return True  # a span's content, or a payload's, a widget's, a setting's: not a summary kept
        return target.attr.value in self.context.vocabulary.content_fields or analysis.is_span_like(
            target.value, self.facts
        )

    def _bind(
        self, name: str, value: cst.BaseExpression, *, summarized: bool, augmented: bool = False,
        call: cst.Call | None = None,
    ) -> None:
        inputs = _Inputs()
        self._scan(value, inputs)
        if augmented:
            inputs.names.add(name)
        self._order += 1
        branches = tuple((id(statement), branch) for statement, branch in self._stack[-1].branches)
        binding = _Binding(self._order, tuple(self._stack[-1].loops), summarized, inputs, call, branches)
        self._stack[-1].bindings.setdefault(name, []).append(binding)

    # --- reading arguments -----------------------------------------------------------------
    def _scan(self, expr: cst.BaseExpression, inputs: _Inputs, whole: bool = True) -> None:
        """Collect what `expr` reads: names, attribute chains, summaries, nested summarize calls. `whole`:
        `expr` is read itself, not as the object of an attribute or item read."""
        analysis = self.context.analysis
        if isinstance(expr, cst.Name):
            inputs.names.add(expr.value)
            self._add_resolved(expr, inputs)
            # A local bound in this function is judged by what it was bound to (its bindings), not its name.
            if (analysis.says_summary(expr.value) and expr.value not in self._stack[-1].bindings) or (
                whole and self._typed_summary(expr)
            ):
                inputs.summary = inputs.summary or expr.value
        elif isinstance(expr, cst.Attribute):
            inputs.texts.add(self.context.module.code_for_node(expr))
            self._add_resolved(expr, inputs)
            if (analysis.says_summary(expr.attr.value) and not _configured(expr)) or (whole and self._typed_summary(expr)) or (
                expr.attr.value in self.context.vocabulary.content_fields and self._typed_summary(expr.value)
            ):
                inputs.summary = inputs.summary or self.context.module.code_for_node(expr)
            self._scan(expr.value, inputs, whole=False)
        elif isinstance(expr, cst.Subscript):
            inputs.texts.add(self.context.module.code_for_node(expr))
            self._add_resolved(expr, inputs)
            key = string_key(expr)
            if (key and analysis.says_summary(key) and not _from_payload(expr) and not _configured(expr)) or (
                self._summary_key(expr.slice[0].slice)
            ):
                inputs.summary = inputs.summary or self.context.module.code_for_node(expr)
            self._scan(expr.value, inputs, whole=False)
        elif isinstance(expr, cst.Call):
            self._scan_call(expr, inputs)
        elif isinstance(expr, cst.Await):
            self._scan(expr.expression, inputs)
        elif isinstance(expr, (cst.BinaryOperation, cst.BooleanOperation)):
            self._scan(expr.left, inputs)
            self._scan(expr.right, inputs)
        elif isinstance(expr, cst.IfExp):
            self._scan(expr.body, inputs)
            self._scan(expr.orelse, inputs)
        elif isinstance(expr, cst.SimpleString):
            inputs.asks = inputs.asks or literal_asks_for_summary(expr.value, self.context.vocabulary)
        elif isinstance(expr, cst.FormattedString):
            before = ""
            for part in expr.parts:
                if isinstance(part, cst.FormattedStringExpression):
                    self._scan(part.expression, inputs)
                    if "_" in earlier_summary_slots(before[-48:] + "{_}", self.context.vocabulary):  # `f"Previous summary: {text}"`
                        inputs.summary = inputs.summary or self.context.module.code_for_node(part.expression)
                    before = ""
                elif isinstance(part, cst.FormattedStringText):
                    inputs.asks = inputs.asks or literal_asks_for_summary(part.value, self.context.vocabulary)
                    before = part.value
        elif isinstance(expr, cst.ConcatenatedString):
            self._scan(expr.left, inputs)
            self._scan(expr.right, inputs)
        elif isinstance(expr, (cst.List, cst.Tuple, cst.Set)):
            for element in expr.elements:
                self._scan(element.value, inputs)
        elif isinstance(expr, cst.Dict):
            for element in expr.elements:
                if isinstance(element, cst.DictElement):
                    key = string_value(element.key)
                    if key is not None and analysis.says_summary(key) and not _is_literal(element.value):
                        inputs.summary = inputs.summary or self.context.module.code_for_node(element.value)
                self._scan(element.value, inputs)
        elif isinstance(expr, (cst.ListComp, cst.SetComp, cst.GeneratorExp)):
            self._scan(expr.elt, inputs)
            self._scan(expr.for_in.iter, inputs)
            if any(self._selects_summary(condition.test) for condition in expr.for_in.ifs):
                inputs.summary = inputs.summary or self.context.module.code_for_node(expr)
        elif isinstance(expr, cst.StarredElement):
            self._scan(expr.value, inputs)

    def _typed_summary(self, expr: cst.BaseExpression) -> bool:
        """`self.current` declared `Optional[SummaryRecord]`, `rec = self.current`: a value whose class of the
        tree is named as a summary is one, whatever the value's name (read whole or for its content, not
        for its `source_ids`)."""
        if isinstance(expr, cst.Name) and expr.value in ("self", "cls"):
            return False
        known = self.context.analysis.known_class(expr, self.facts)
        if known is None:
            return False
        parts = name_parts(known.name)  # `SummaryRecord`, `RunningSummary`; not `ChatSummaryMemoryBuffer`
        vocabulary = self.context.vocabulary
        return any(self.context.analysis.says_summary(p) for p in parts) and (
            parts[-1] in vocabulary.summary_words or parts[-1] in vocabulary.span_nouns or parts[-1] in _RECORD_NOUNS
        )

    def _summary_key(self, key: cst.CSTNode) -> bool:
        """`summary_id`, `self.summary_key`: a key naming a summary's id, so what it reads (`store.get(summary_id)`,
        `self.records[summary_key]`) is that summary."""
        value = getattr(key, "value", None)
        name = value.value if isinstance(value, cst.Name) else value.attr.value if isinstance(value, cst.Attribute) else None
        parts = name_parts(name) if name else []
        return len(parts) >= 2 and parts[-1] in ("id", "key") and self.context.analysis.says_summary("_".join(parts[:-1]))

    def _add_resolved(self, expr: cst.BaseExpression, inputs: _Inputs) -> None:
        """`prior.content` read where `prior = self.summary_span`: the read is of `self.summary_span.content`."""
        aliases = self._stack[-1].aliases
        if aliases is not None:
            resolved = aliases.resolve(expr)
            if resolved is not expr:
                inputs.texts.add(self.context.module.code_for_node(resolved))

    def _scan_call(self, call: cst.Call, inputs: _Inputs) -> None:
        analysis = self.context.analysis
        if analysis.is_summarize_call(call):
            inputs.nested = True
            return
        if _opaque(call):
            return
        func = call.func
        if isinstance(func, cst.Attribute):
            if func.attr.value in ("get", "pop") and call.args:
                key = string_value(call.args[0].value)
                if (key is not None and analysis.says_summary(key)) or self._summary_key(call.args[0]):
                    inputs.summary = inputs.summary or self.context.module.code_for_node(call)
                if key is not None:  # `state.get("running", "")` reads `state["running"]`
                    owner = self.context.module.code_for_node(func.value)
                    inputs.texts.update((f'{owner}["{key}"]', f"{owner}['{key}']"))
            elif func.attr.value == "format":  # `TEMPLATE.format(earlier=x)`, TEMPLATE labelling `{earlier}` a summary
                template = func.value.value if isinstance(func.value, cst.Name) else None
                template = self._templates.get(template) if template else string_value(func.value)
                slots = set(earlier_summary_slots(template or "", self.context.vocabulary))
                for arg in call.args:
                    if arg.keyword is not None and arg.keyword.value in slots and not _is_literal(arg.value):
                        inputs.summary = inputs.summary or self.context.module.code_for_node(arg.value)
            elif func.attr.value in MODEL_CALLS:  # `chain.invoke({"summary": previous, "turns": ...})`
                for arg in call.args:
                    if isinstance(arg.value, cst.Dict):
                        self._scan_slots(arg.value, inputs)
            elif self._selects_summaries(call):  # `store.filter_documents({"field": "meta.kind", "value": "summary"})`
                inputs.summary = inputs.summary or self.context.module.code_for_node(call)
            self._scan(func.value, inputs)
        for arg in call.args:
            self._scan(arg.value, inputs)

    def _selects_summaries(self, call: cst.Call) -> bool:
        """A read that asks for summaries by a word among its arguments (`filter={"kind": "summary"}`, a
        condition on `"summary"`, `search(("digests", user))`): what it returns are summaries."""
        return any(self._names_summaries(node) for arg in call.args for node in traversal.descendants(arg.value))

    def _names_summaries(self, node: cst.CSTNode, prose: bool = False) -> bool:
        """`node` is a one-word string saying summary (`"summary"`, `"summaries"`), or with `prose` naming
        one in prose (`"digest"`, `"recap"`)."""
        text = string_value(node) if isinstance(node, cst.SimpleString) else None
        return text is not None and _KEYWORD.fullmatch(text) is not None and (
            self.context.analysis.says_summary(text) or (prose and text.lower() in SUMMARY_PROSE_NOUNS)
        )

    def _selects_summary(self, condition: cst.BaseExpression) -> bool:
        """A comprehension's condition keeping the summaries: a kind equal to a word saying summary or
        naming one in prose (`s.produced_by == "summary"`, `m.metadata.get("kind") in ("digest", "recap")`)."""
        if isinstance(condition, cst.BooleanOperation):
            return self._selects_summary(condition.left) or self._selects_summary(condition.right)
        if not isinstance(condition, cst.Comparison):
            return False
        return any(
            isinstance(target.operator, (cst.Equal, cst.In)) and any(
                self._names_summaries(node, prose=True)
                for side in (condition.left, target.comparator) for node in traversal.descendants(side)
            )
            for target in condition.comparisons
        )

    def _scan_slots(self, slots: cst.Dict, inputs: _Inputs) -> None:
        """The variables a prompt template is filled with: one named for a summary (`{"summary": previous}`,
        LangChain's `{summary}` beside `{new_lines}`) is the earlier summary."""
        for element in slots.elements:
            if isinstance(element, cst.DictElement) and not _is_literal(element.value):
                key = string_value(element.key)
                if key is not None and self.context.analysis.says_summary(key):
                    inputs.summary = inputs.summary or self.context.module.code_for_node(element.value)

    # --- decision --------------------------------------------------------------------------
    def _decide(self, scope: _Scope) -> None:
        if not scope.calls or (scope.tracking and scope.function is None):
            return
        statements = enclosing_statements(scope.function, [*scope.tracking, *(c.node for c in scope.calls)]) if (
            scope.tracking
        ) else {}
        for call in scope.calls:
            if call.prompted and not self._asks(scope, call.inputs, call.order, set()) and not (
                call.receiver and self._receiver_asks(scope, call.receiver, call.order)
            ):
                continue  # a model call whose prompt (or the chain it is made on) does not ask for a summary
            if any(arg.keyword is not None and self._is_lineage_name(arg.keyword.value) for arg in call.node.args):
                continue
            if self._names_lineage(callee_name(call.node) or ""):
                continue  # `resummarize_with_chain(state, llm, latest)`: a helper named for keeping the chain
            reason = self._reason(scope, call)
            if reason is None:
                continue
            statement = statements.get(call.node)
            earlier = self._earlier_summary_reads(scope, call)
            covering = {statements[n] for n in scope.tracking if n in statements and self._links(n, earlier)}
            if covering and (statement is None or not flow.uncovered(scope.function, statement, covering.__contains__)):
                continue  # the link is recorded on every path through the call
            self.report(call.node, f"`{callee_name(call.node)}(...)` summarizes a summary ({reason}) and "
                        "the chain is not recorded")

    def _earlier_summary_reads(self, scope: _Scope, call: _Call) -> set[str] | None:
        """What the earlier summary a call summarizes is read from (`prior`, `self.current.text`,
        `self.current` for `prior = self.current.text`), through the locals bound before the call;
        None when the call does not name it (a nested summarize call)."""
        inputs = call.inputs
        names = {inputs.summary} if inputs.summary else {
            n for n in inputs.names if self._summary_at(scope, n, call.order, call.loops, set())
        }
        carried = call.carried or call.carried_in or call.folded
        if carried:  # and the locals it was read into before the call: `prev = self.current`
            names |= {carried} | {
                name for name, bindings in scope.bindings.items()
                if any(b.order < call.order and carried in self._reads(scope, b.inputs, b.order, {name}) for b in bindings)
            }
        if not names:
            return None
        read = set(names)
        for name in names:
            for binding in scope.bindings.get(name, []):
                if binding.order < call.order:
                    read |= self._reads(scope, binding.inputs, binding.order, {name})
        # the objects the reads are made of too: `state` for `state["summary"]`, `self.current` for `self.current.text`
        read |= {code[:m.start()] for code in read for m in re.finditer(r"[.\[]", code)}
        return read - {"self", "cls"}

    def _links(self, tracking: cst.CSTNode, earlier: set[str] | None) -> bool:
        """A statement recording lineage links the new summary to the earlier one: it writes a log or a
        lineage field, or passes lineage that reads the earlier summary (`source_ids=prev.source_ids + new`,
        `parent_summary_id=prev.summary_id`). Lineage naming only the new inputs
        (`source_ids=[m.id for m in new_turns]`) drops the chain back to the first sources."""
        if earlier is None or not isinstance(tracking, cst.Call) or self._records_to_log(tracking):
            return True
        lineage = [a.value for a in tracking.args if a.keyword is not None and self._is_lineage_name(a.keyword.value)]
        code = self.context.module.code_for_node
        return any(
            isinstance(node, (cst.Name, cst.Attribute)) and code(node) in earlier
            for value in lineage for node in (value, *traversal.descendants(value))
        )

    def _reason(self, scope: _Scope, call: _Call) -> str | None:
        inputs = call.inputs
        if inputs.nested:
            return "the output of a nested summarize call"
        if call.carried:
            return f"`{call.carried}` is overwritten with its own summary"
        if inputs.summary and not self._lineage_object(scope, inputs, call.node):
            return f"`{inputs.summary}`"
        if call.carried_in:
            return f"`{call.carried_in}` is overwritten with its own summary"
        if call.folded:
            return f"the summary is put back into `{call.folded}`, whose summarized part holds the previous one"
        for name in sorted(inputs.names):
            if self._summary_at(scope, name, call.order, call.loops, set()):
                return f"`{name}` holds an earlier summary"
        return None

    def _lineage_object(self, scope: _Scope, inputs: _Inputs, call: cst.Call | None) -> bool:
        """The summary is an object whose class records its sources (`summarized_message_ids`): a
        parameter so annotated, or passed by keyword to a function of this module so annotated."""
        assert inputs.summary is not None
        says_summary = self.context.analysis.says_summary
        if inputs.keyword is not None and call is not None:
            class_name = self._signatures.get(callee_name(call) or "", {}).get(inputs.keyword)
        else:
            root = re.split(r"[.\[(]", inputs.summary)[0]
            class_name = scope.params.get(root)
            if root != inputs.summary and not says_summary(root) and not says_summary(class_name or ""):
                return False  # `state["summary"]`: a field of a container, whose other fields this call does not write
        found = self.context.project.class_named(class_name)
        if found is None or found.name in scope.unlinked:
            return False  # the next summary is built of that class without its lineage
        return any(self._is_lineage_name(f) or _names_source_ids(f, self.context.analysis) for f in found.fields)

    def _receiver_asks(self, scope: _Scope, receiver: str, order: int) -> bool:
        """The chain a model call is made on asks for a summary: a local bound before the call, or an
        attribute the module's classes assign (`self.turn_chain = TURN_PROMPT | llm` in `__init__`)."""
        if not receiver.startswith("self."):
            return self._asks(scope, _Inputs(names={receiver}), order, set())
        found = self._helpers.get(f"chain {receiver}")
        if found is None:
            attr = receiver.partition(".")[2]
            found = False
            for node in traversal.descendants(self.context.module):
                if isinstance(node, cst.Assign) and any(
                    isinstance(t.target, cst.Attribute) and t.target.attr.value == attr
                    and isinstance(t.target.value, cst.Name) and t.target.value.value == "self" for t in node.targets
                ):
                    parts = list(traversal.descendants(node.value))
                    inputs = _Inputs(
                        names={n.value for n in parts if isinstance(n, cst.Name)},
                        asks=any(
                            isinstance(n, cst.SimpleString) and literal_asks_for_summary(n.value, self.context.vocabulary)
                            for n in parts
                        ),
                    )
                    if self._asks(self._module_scope, inputs, sys.maxsize, set()):
                        found = True
                        break
            self._helpers[f"chain {receiver}"] = found
        return found

    def _asks(self, scope: _Scope, inputs: _Inputs, order: int, seen: set[str]) -> bool:
        """The text read (`inputs`, at `order`) asks for a summary, in a string or through locals bound
        before (`prompt = "Extend the summary..."`; `messages = [*history, HumanMessage(content=prompt)]`)."""
        if inputs.asks:
            return True
        module = self._module_scope
        for name in inputs.names - seen:
            bindings = [b for b in scope.bindings.get(name, []) if b.order < order]
            if not bindings and scope is not module:  # a module constant: `SUMMARY_PROMPT = ChatPromptTemplate(...)`
                if any(self._asks(module, b.inputs, b.order, seen | {name}) for b in module.bindings.get(name, [])):
                    return True
            elif any(self._asks(scope, b.inputs, b.order, seen | {name}) for b in bindings):
                return True
        return False

    def _summary_at(self, scope: _Scope, name: str, order: int, loops: tuple[int, ...], seen: set[str]) -> bool:
        """Does local `name`, read at `order` inside `loops`, hold a summary (or text built from one)?"""
        if name in seen:
            return False
        seen = seen | {name}
        bindings = scope.bindings.get(name, [])
        before = [b for b in bindings if b.order < order]
        latest = before[-1] if before else None
        candidates = [latest] if latest else []
        for earlier in reversed(before[:-1]):  # `if ...: x = a` / `else: x = b`: either reaches the read
            if not all(_exclusive(earlier, other) for other in candidates):
                break
            candidates.append(earlier)
        same_iteration = latest is not None and bool(loops) and loops[-1] in latest.loops
        if loops and not same_iteration:
            candidates += [b for b in bindings if b.order >= order and set(b.loops) & set(loops)]
        return any(self._holds_summary(scope, b, seen) for b in candidates)

    def _holds_summary(self, scope: _Scope, binding: _Binding, seen: set[str]) -> bool:
        inputs = binding.inputs
        if binding.summarized or inputs.nested:
            return True
        if inputs.summary and not self._lineage_object(scope, inputs, None):
            return True
        return any(self._summary_at(scope, n, binding.order, binding.loops, seen) for n in inputs.names)


def _own_callee(call: cst.Call) -> str | None:
    """`_complete` for `self._complete(...)` or `_complete(...)`: the name of a call of a function or
    method this module may define; None for a call on another object."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value if isinstance(func.value, cst.Name) and func.value.value in ("self", "cls") else None
    return func.value if isinstance(func, cst.Name) else None


def _params(function: cst.FunctionDef) -> set[str]:
    """The names of a function's parameters other than `self` and `cls`."""
    params = function.params
    return {p.name.value for p in (*params.posonly_params, *params.params, *params.kwonly_params)} - {"self", "cls"}


def _exclusive(first: _Binding, second: _Binding) -> bool:
    """The two bindings sit in different branches of one `if` statement: no path runs both."""
    branches = dict(first.branches)
    return any(statement in branches and branches[statement] != branch for statement, branch in second.branches)


def _from_payload(expr: cst.BaseExpression) -> bool:
    """`params["values"]["summary"]`, `request.json["summary"]`: a field of a request or tool call, an input
    named `summary`, not the output of a summarize call."""
    root = root_name(expr)
    return root is not None and any(p in PAYLOAD_WORDS for p in name_parts(root))


def _opaque(call: cst.Call) -> bool:
    """`len(summary)`, `count_tokens(summary)`, `is_stale(summary)`: a call whose result says nothing of the text."""
    name = callee_name(call) or ""
    parts = name_parts(name)
    return name in _OPAQUE_CALLS or bool(parts and parts[0] in _OPAQUE_PREFIXES)


def _configured(expr: cst.BaseExpression) -> bool:
    """`settings.prompts["summary"]`, `self.config.summary_prompt`: a prompt or setting a person wrote, read
    out of a configuration, not a summary made before."""
    names: list[str] = []
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        if isinstance(expr, cst.Attribute):
            names.append(expr.attr.value)
        expr = expr.value
    if isinstance(expr, cst.Name):
        names.append(expr.value)
    return any(p in _CONFIGURED_PARTS for name in names for p in name_parts(name))


# Word parts of where a prompt or setting is read from (`settings.prompts`, `cfg.templates`).
_CONFIGURED_PARTS = CONFIG_WORDS | frozenset({"prompt", "prompts", "template", "templates"})


def _pattern(vocabulary: Vocabulary):  # type: ignore[no-untyped-def]
    return words_pattern([*vocabulary.summarize_words, *vocabulary.summary_words, *SUMMARY_PROSE_NOUNS])


def _names_source_ids(field_name: str, analysis) -> bool:  # type: ignore[no-untyped-def]
    """`summarized_message_ids`, `source_span_ids`: a field listing what a summary was made from."""
    parts = name_parts(field_name)
    return len(parts) > 1 and parts[-1] == "ids" and analysis.is_span_name("_".join(parts[:-1]))


# Methods of a text that return it reshaped: `summarize(x).strip()` is still the summary.
_TEXT_METHODS = frozenset({"strip", "lstrip", "rstrip", "lower", "upper", "removeprefix", "removesuffix", "replace"})


def _text_method_of(value: cst.BaseExpression) -> cst.BaseExpression | None:
    """`x` for `x.strip()` (and the other `_TEXT_METHODS`), else None."""
    if isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in _TEXT_METHODS:
        return value.func.value
    return None


def _summarize_value(value: cst.BaseExpression, is_summarize_call) -> cst.Call | None:  # type: ignore[no-untyped-def]
    """The summarize call whose result `value` is: `summarize(x)`, `await s.summarize(x)`, `summarize(x).text`,
    `summarize(x).strip()`."""
    while True:
        if isinstance(value, cst.Await):
            value = value.expression
        elif isinstance(value, cst.Attribute):
            value = value.value
        elif isinstance(value, cst.Call) and not is_summarize_call(value) and _text_method_of(value) is not None:
            value = _text_method_of(value)
        elif isinstance(value, cst.Call):
            return value if is_summarize_call(value) else None
        else:
            return None


def _summary_stored_in(value: cst.BaseExpression, is_summarize_call) -> cst.Call | None:  # type: ignore[no-untyped-def]
    """The summarize call whose result a new object holds: `Span(id=new_id(), content=summarize(x))`."""
    if isinstance(value, cst.Call) and (callee_name(value) or "")[:1].isupper():
        for arg in value.args:
            found = _summarize_value(arg.value, is_summarize_call)
            if found is not None:
                return found
    return None


def _list_parts(value: cst.BaseExpression) -> tuple[list[cst.BaseExpression], list[cst.BaseExpression]]:
    """The items a list literal lists and the collections it spreads: `[a, *rest]`, `[a] + rest`."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        left, right = _list_parts(value.left), _list_parts(value.right)
        return left[0] + right[0], left[1] + right[1]
    if isinstance(value, (cst.List, cst.Tuple)):
        items = [e.value for e in value.elements if not isinstance(e, cst.StarredElement)]
        return items, [e.value for e in value.elements if isinstance(e, cst.StarredElement)]
    return [], [value]


def _target_names(target: cst.BaseExpression) -> list[str]:
    if isinstance(target, cst.Name):
        return [target.value]
    if isinstance(target, (cst.Tuple, cst.List)):
        return [n for element in target.elements for n in _target_names(element.value)]
    if isinstance(target, cst.StarredElement):
        return _target_names(target.value)
    return []


def _is_literal(value: cst.BaseExpression) -> bool:
    return isinstance(value, (cst.SimpleString, cst.Integer, cst.Float, cst.ConcatenatedString)) or (
        isinstance(value, cst.Name) and value.value in ("None", "True", "False")
    )
