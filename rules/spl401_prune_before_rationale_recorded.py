"""SPL401: spans pruned from the context before the rationale is written to the decision log."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Iterator, Sequence

from spanlint.rules.analysis import THREAD_RUNNERS, callee_name, last_name, run_elsewhere, string_key, string_value
from spanlint.rules.base import Invalid, Valid
from spanlint.rules.evidence import (
    GuardedFunction,
    RemovalPrefilter,
    GuardedRule,
    chain_names,
    TRACING_MARKERS,
    has_word,
    field_names_in,
    is_decision_log,
    is_editing_callee,
    is_filter_of,
    is_log_name,
    is_log_type,
    is_record_call,
    is_span_container,
    mentions,
    recording_functions,
    access_root,
    same_expression,
    words_in,
)
from spanlint.rules.aliases import ContainerAliases
from spanlint.rules import traversal
from spanlint.rules.flow import enclosing_statements, reached_uncovered
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import (
    PLAIN_DELETES, REMOVING_METHODS, STORE_DELETE_METHODS, STORE_WORDS, is_store_delete, name_parts,
)
from spanlint.rules.prescan import Scope, alternation, last_name as ast_last_name
from spanlint.rules.project import HelperEffects
from runtime_guard.vocabulary import Vocabulary

# Words that make a function's name, a guard or a removal's argument a pruning policy, beyond the
# vocabulary's `prune_words`, `summarize_words` and `age_words`.
_POLICY_WORDS = (
    "len", "token", "tokens", "limit", "max", "size", "capacity", "window", "count", "score", "relevance",
    "importance", "priority", "old", "threshold", "exceed", "exceeds", "keep", "retain", "cap", "dedupe",
    "dedup", "enforce", "squeeze", "lru", "least",
)
# Owners whose items are not an agent's context, whatever their names.
# Name parts of work a store may hold beside spans: deleting one is housekeeping, not a prune.
_WORK_ITEM_PARTS = frozenset({"job", "jobs", "task", "tasks", "run", "runs", "schedule", "schedules", "lock", "locks"})
_NOT_CONTEXT_PARTS = frozenset({"cache", "lru", "memo", "pool", "queue", "stack", "heap", "frontier", "inbox", "outbox"})
# Span nouns too common in other code to name a span type on their own (`PtyProcessEntry`).
_WEAK_NOUNS = frozenset({"entry", "entries", "block", "blocks", "turn", "turns"})
# `other.append(c.pop())` moves an item to a container that outlives the call; it does not drop it.
_MOVING_METHODS = frozenset({"append", "appendleft", "insert", "extend", "put", "put_nowait", "add"})
_LIFECYCLE = frozenset({"__init__", "__post_init__", "__del__", "__exit__", "__aexit__", "close", "aclose", "setUp"})
# A removal the rule can report: `del`, a removing method, a filtering comprehension or `filter()`,
# or a slice (`self.spans = self.spans[-10:]`), possibly through a local written back later.
# Every alternative starts with a literal (`d(?<!\wd)el` is `\bdel`; `\[(?<=[\w)\]]\[)` is `[\w)\]]\[`), so the
# search skips to those characters instead of trying every position.
_PRESCAN = re.compile(
    r"d(?<!\wd)el\b|\.(?:%s)\(|f(?<!\wf)ilter\(|f(?<!\wf)or\b[\s\S]*?\bif\b|\[(?<=[\w)\]]\[)[^\]]*:"
    % alternation(REMOVING_METHODS | STORE_DELETE_METHODS)
)


_HELPER_CALLS: dict[tuple[str, ...], re.Pattern[str]] = {}


def _helper_call(vocabulary: Vocabulary) -> re.Pattern[str]:
    """A call of a function or method named for pruning (`store.drop(`, `prune_one(`)."""
    found = _HELPER_CALLS.get(vocabulary.prune_words)
    if found is None:
        found = _HELPER_CALLS[vocabulary.prune_words] = re.compile(
            r"(?:%s)\w*\s*\(" % alternation(vocabulary.prune_words), re.IGNORECASE
        )
    return found


# The text searches below start at a literal (`:`, `.append(`, `[`) and read the name before it
# afterwards: a pattern that starts with `\b(\w+)` is tried at every word of the file.
# `ctx: list[Span]`, `self.window: deque[Message] = ...`: a container declared to hold an element type.
_CONTAINER_ANNOTATION = re.compile(
    r":\s*(?:\w+\.)?(?:list|List|deque|Deque|MutableSequence|Sequence|dict|Dict|OrderedDict)\[([\w\s.,\[]*)\]"
)
# `ctx.append(span)`, `self.buffer.insert(0, message)`: a container given span-like items.
_APPEND_CALL = re.compile(r"\.(?:append|appendleft|insert)\((?:[^,()]*,\s*)?(\w+)\)")
# `self._spans[item.id] = item`: a mapping given span-like items.
_ITEM_STORE = re.compile(r"\[[^\]\n]+\]\s*=\s*(\w+)\s*$", re.MULTILINE)
_WORD_CHARACTER = re.compile(r"\w")
_NAME_JUST_BEFORE = re.compile(r"\b(\w+)\Z")
_NAME_BEFORE = re.compile(r"\b(\w+)\s*\Z")


def _declared_type(source: str, name: str) -> str | None:
    """The type of the first `name: Type` in `source` (the name a whole word)."""
    declaration = re.compile(re.escape(name) + r"\s*:\s*(\w+)")  # a literal start: a fast search
    match = declaration.search(source)
    while match is not None:
        start = match.start()
        if start == 0 or _WORD_CHARACTER.match(source, start - 1) is None:
            return match.group(1)
        match = declaration.search(source, start + 1)
    return None


def _named_matches(pattern: re.Pattern[str], source: str, before: re.Pattern[str]) -> list[tuple[str, str]]:
    """(the name `before` finds just ahead of a match, the match's group 1) for each match of `pattern`."""
    found = []
    for match in pattern.finditer(source):
        name = before.search(source, max(0, match.start() - 200), match.start())
        if name is not None:
            found.append((name.group(1), match.group(1)))
    return found


# The examples' buffer: a class whose removal primitive prunes what its callers name.
_WINDOW_WITH_DROP = (
    "class Window:\n"
    "    def __init__(self):\n"
    "        self._spans = {}\n"
    "\n"
    "    def drop(self, span_id):\n"
    "        self._spans.pop(span_id, None)\n"
    "\n\n"
)

# The examples' buffer holding its decision log, with a removal primitive its callers use.
_BUFFER_WITH_LOG = (
    "import time\n\n"
    "class DecisionLog:\n"
    "    def __init__(self):\n"
    "        self.entries = []\n\n"
    "    def record(self, **entry):\n"
    "        self.entries.append(entry)\n\n"
    "class ContextBuffer:\n"
    "    def __init__(self, log: DecisionLog | None = None):\n"
    "        self._spans = {}\n"
    "        self.log = log or DecisionLog()\n\n"
    "    def tombstones(self):\n"
    "        return [s for s in self._spans.values() if s.tombstoned_at is not None]\n\n"
    "    def drop(self, span_id):\n"
    "        return self._spans.pop(span_id, None)\n\n"
)


@dataclass
class _Function(GuardedFunction):
    """The events of one function: removals and records (nodes, put in order by `rules.flow`)."""

    params: frozenset[str]
    aliases: ContainerAliases
    records: list[cst.CSTNode] = field(default_factory=list)
    removals: list[cst.CSTNode] = field(default_factory=list)
    containers: dict[cst.CSTNode, cst.BaseExpression | str] = field(default_factory=dict)  # removal -> what it prunes
    moved: set[cst.CSTNode] = field(default_factory=set)  # calls whose result goes into another container
    loops: list[tuple[cst.BaseExpression, cst.BaseExpression]] = field(default_factory=list)  # (target, iter)
    for_nodes: list[cst.For] = field(default_factory=list)  # the enclosing `for` statements
    record_loops: dict[cst.CSTNode, tuple[cst.For, ...]] = field(default_factory=dict)  # record -> its enclosing `for`s
    removal_loops: dict[cst.CSTNode, tuple[cst.For, ...]] = field(default_factory=dict)  # removal -> its enclosing `for`s
    owned: set[str] = field(default_factory=set)  # locals holding this function's own values
    filtered: dict[str, cst.BaseExpression] = field(default_factory=dict)  # local -> container it filters
    built: set[str] = field(default_factory=set)  # locals bound to an object constructed here
    # Code of a container (resolved) -> what this function put into it: built locals, and their keys.
    added: dict[str, set[str]] = field(default_factory=dict)


class PrunePrefilter(RemovalPrefilter):
    """A removing method called on a name, attribute or item, `del x[...]`, a filtering rewrite or
    slice assigned to an attribute or item, a filtered local written back, a tombstone written
    into a content field or a tombstone flag set, a LangGraph `RemoveMessage(...)`, a `delete` method
    or a store's delete by id (`is_store_delete`) called, or a call of a function named for pruning (a helper of the project may prune what it is
    given)."""

    shape = "removal"
    # `delete`: a method of a store class of the project may prune (`store.delete(sid)`, decided by the rule)
    methods = REMOVING_METHODS | STORE_DELETE_METHODS | {"delete", "adelete"}

    def words(self) -> tuple[str, ...]:
        return ("RemoveMessage", *self.vocabulary.prune_words, *THREAD_RUNNERS)

    def removes(self, call: ast.Call, receiver: ast.expr) -> bool:
        return isinstance(receiver, (ast.Name, ast.Attribute, ast.Subscript))

    def assigns_removal(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        if isinstance(target, ast.Attribute) and target.attr in self.vocabulary.tombstone_flags:
            return isinstance(value, ast.Constant) and value.value is True  # `spans[sid].tombstoned = True`
        return self._is_tombstone_write(target, value)

    def expression(self, node: ast.AST, scope: Scope) -> None:
        super().expression(node, scope)
        name = ast_last_name(node)
        if scope.node is not None and (name == "RemoveMessage" or (name and has_word(name, self.vocabulary.prune_words))):
            self.mark(node)  # a helper named for pruning (`prune_one(...)`), wherever it is defined
        elif scope.node is not None and any(
            isinstance(a, ast.Attribute) and a.attr in self.vocabulary.record_methods for a in getattr(node, "args", ())
        ):
            self.mark(node)  # `asyncio.to_thread(self.log.record, ...)`: a method recording for its callers
        elif scope.node is not None and isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
            is_store_delete(node.func.attr, [k.arg for k in node.keywords if k.arg])
        ):
            self.mark(node)  # `memory_service.delete_memory(memory_id=m.id)`

    def _is_tombstone_write(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        """`span.content = "[pruned]"`, `turn["content"] = TOMBSTONE`."""
        key = target.slice if isinstance(target, ast.Subscript) else None
        field = target.attr if isinstance(target, ast.Attribute) else key.value if isinstance(key, ast.Constant) else None
        if field not in self.vocabulary.content_fields:
            return False
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return any(marker in value.value for marker in self.vocabulary.tombstone_markers)
        name = value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else ""
        return "tombstone" in self.parts(name)


def _iterates(iterable: cst.BaseExpression, params: frozenset[str]) -> bool:
    """`span_ids`, `list(span_ids)`: a loop over a parameter as it was given."""
    if isinstance(iterable, cst.Call) and callee_name(iterable) in ("list", "set", "tuple", "sorted") and len(iterable.args) == 1:
        iterable = iterable.args[0].value
    return isinstance(iterable, cst.Name) and iterable.value in params and iterable.value != "self"


def _removes_from_own_field(removal: cst.CSTNode) -> bool:
    """`del self._spans[k]`, `self._spans.pop(k)`: a removal from a field of `self` itself."""
    if isinstance(removal, cst.Del) and isinstance(removal.target, cst.Subscript):
        return _is_own_field(removal.target.value)
    return isinstance(removal, cst.Call) and isinstance(removal.func, cst.Attribute) and (
        removal.func.attr.value in REMOVING_METHODS and _is_own_field(removal.func.value)
    )


def _called_on_own_field(call: cst.CSTNode) -> bool:
    """`self.docstore.delete_document(k)`: a method of an object a field of `self` holds."""
    return isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and _is_own_field(call.func.value)


def _is_own_field(expr: cst.BaseExpression) -> bool:
    return isinstance(expr, cst.Attribute) and isinstance(expr.value, cst.Name) and expr.value.value == "self"


class PruneBeforeRationaleRecorded(GuardedRule[_Function]):
    code = "SPL401"
    name = "prune-before-rationale-recorded"
    summary = "Spans pruned before the rationale is recorded in the decision log"
    message = "`{container}` pruned before the rationale is recorded in a decision log"
    help = "Record why in the decision log before the removal"
    prefilter = PrunePrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds pruning passes that remove spans from a context container (`del ctx.spans[i]`,
`self.messages.pop(0)`, `.remove(span)`, `.clear()`, `ctx.spans = [s for s in ctx.spans if ...]`,
`ctx.messages[:] = ...`, a span's content replaced by a tombstone marker or its tombstone flag set,
a LangGraph `RemoveMessage(id=m.id)`, or `RemoveMessage(id=REMOVE_ALL_MESSAGES)` in a pass keeping a
slice of the messages, a framework store's delete by id (`index.delete_nodes(ids)`,
`docstore.delete_ref_doc(ref)`, Haystack's `store.delete_documents(ids)`), or a call of a project helper
that prunes what it is given without recording, including a method of the class an argument or a
field of `self` holds: `window.drop(sid)` with `window: ContextWindow`, `self.window.drop(sid)` with
`self.window = ContextWindow()`) when some path reaches the removal with no decision-log record
before it (a record in both branches of an `if` covers what follows, and so does a loop recording
each of the ids the removal is given; a record only after the removal, or only in another branch,
does not). A parameter or field typed with a class named as a log (`DecisionLog`, `ReviewLog`) is
a decision log. Containers are followed through local aliases
(`hist = self.messages; ...; self.messages = hist[-n:]`), tuple unpacking and walrus; a call of a
helper that records (summarised once per project) is a record, and so is an `append`/`record` to a
value the code names a log (`log.append("gc", spans=freed, rule=...)`; not a logger). Taking out what the same call put
in (`c.append(probe)` ... `c.pop()`) is not a prune.

A function is a pruning pass when its name says so (vocabulary `prune_words`: `prune`, `trim`,
`evict`, `compact`...), when the removal is guarded by a policy (a size, token, score or age test,
a condition on the span), when it truncates with a slice, or when it filters the container and
writes the result back. A method that removes the one item its caller names
(`def drop(self, seg_id): self._segments.pop(seg_id)`, or each of the ids it is given: `for sid in
span_ids: self._spans.pop(sid)`) in a class holding no decision log is a primitive, judged at its callers; so is one removing it from its class's own container (and its
backing store) in a class holding a log, when it records nothing itself and the tree calls it. A
class's method that nobody calls, or that removes through another object it holds
(`self.window.drop(span_id)`), is its API and should record. A store's delete is a pruning pass when the function is named or
guarded for one, deletes ids named for one (`for ref in expired`), or is given a decision log (a
parameter, or a field of its class); deleting what was tombstoned earlier, chosen by its tombstone
(`for t in buf.tombstones()`, `if s.deleted_at ...`), is garbage collection (SPL403), and a store's own API calling itself (`self.delete_nodes(ids)`) decides nothing. Plain `clear()`/`remove()`/`pop()` calls of a store's own delete API
(`def clear(self)`, `def delete_message(self, id)`), queue consumers and local copies (a pure
`trim_messages(messages)` that returns a new list) are not pruning passes: the caller decides.

## Why is this bad?
The rationale for a prune usually lives in the spans being removed. Once they are gone, nobody can
reconstruct why the agent forgot what it forgot; if the process dies between the removal and a
late record, the reason is lost for good.

## Example
```python
def evict(self, budget):
    while self.token_count() > budget:
        span = self.spans.pop(0)
        self.decision_log.record("evict", span.id, reason="over budget")
```

## Use instead
```python
def evict(self, budget):
    while self.token_count() > budget:
        self.decision_log.record("evict", self.spans[0].id, reason="over budget")
        self.spans.pop(0)
```

## Fix safety
No fix: the rationale is the author's to write.
"""
    valid = [
        # An entry appended to what the code calls its log, before the removal.
        Valid(
            "def drop_oldest(history: list[dict], log, keep: int = 40) -> None:\n    excess = len(history) - keep\n"
            "    if excess > 0:\n        log.append('truncate_history', reason=f'longer than {keep} turns', ids=[m['id'] for m in history[:excess]])\n"
            "        del history[:excess]\n"
        ),
        # A batch primitive removing the ids its caller names, one by one; the caller records first.
        Valid(
            "class ContextBuffer:\n    def __init__(self):\n        self._spans = {}\n\n"
            "    def drop(self, span_ids):\n        for sid in list(span_ids):\n            self._spans.pop(sid, None)\n\n"
            "def prune(buffer: ContextBuffer, decision_log, stale: list[str]) -> None:\n"
            "    decision_log.record(op='prune', span_ids=stale, rationale='superseded')\n    buffer.drop(stale)\n"
        ),
        # The buffer's own primitive, which its callers use: they record, through the log the buffer holds.
        Valid(
            _BUFFER_WITH_LOG
            + "def compact(buffer: ContextBuffer, stale: list[str]) -> None:\n"
            "    buffer.log.record(op='compact', span_ids=stale, rationale='stale')\n"
            "    for span_id in stale:\n"
            "        buffer.drop(span_id)\n"
        ),
        # Tombstones collected once nothing holds them: the rationale was recorded when they were
        # tombstoned; collecting them by age is SPL403's to judge.
        Valid(
            _BUFFER_WITH_LOG
            + "def sweep(buffer: ContextBuffer, holders: set[str], min_age: float) -> None:\n"
            "    now = time.time()\n"
            "    for t in buffer.tombstones():\n"
            "        if now - t.tombstoned_at < min_age or t.span_id in holders:\n"
            "            continue\n"
            "        buffer.drop(t.span_id)\n"
        ),
        Valid(
            "from langchain_core.messages import RemoveMessage\n\n"
            "def apply_retractions(graph, config, log: DecisionLog, retracted: list) -> None:\n"
            "    log.record(\"retraction\", [m.id for m in retracted], \"the user retracted them\")\n"
            "    graph.update_state(config, {\"messages\": [RemoveMessage(id=m.id) for m in retracted]})\n"
        ),
        # Recorded through a method of the class, which runs the log's record in a thread.
        Valid(
            "import asyncio\n\nclass ContextWindow:\n    def __init__(self, messages: list, log: DecisionLog) -> None:\n"
            "        self.messages, self.log = messages, log\n\n"
            "    async def _log(self, action: str, ids: list[str], why: str) -> None:\n"
            "        await asyncio.to_thread(self.log.record, action, ids, why)\n\n"
            "    async def evict(self, doomed: list) -> None:\n"
            "        await self._log(\"evict\", [m.id for m in doomed], \"rolled back\")\n"
            "        self.messages = [m for m in self.messages if m not in doomed]\n"
        ),
        # Each passage recorded in one loop, deleted in the next: every deletion has its record first.
        Valid(
            "def drop_superseded(client, agent_id: str, log: DecisionLog, victims: list) -> None:\n"
            "    for p in victims:\n        log.record(\"delete\", [p.id], \"superseded\")\n"
            "    for p in victims:\n        client.agents.passages.delete(p.id, agent_id=agent_id)\n"
        ),
        # Finished jobs kept in the same store as the memories: housekeeping, not a prune of spans.
        Valid(
            "def purge_finished_jobs(store, cutoff) -> None:\n"
            "    for job in store.search((\"jobs\",)):\n        if job.updated_at < cutoff:\n"
            "            store.delete(job.namespace, job.key)\n"
        ),
        # A vector store's own delete API, handing the ids on to its backend: not a pruning pass.
        Valid(
            "class UpstashStore:\n    def delete(self, ids: list[str] | None = None) -> None:\n"
            "        for batch in batches(ids, 1000):\n            self._index.delete(ids=batch)\n"
        ),
        Valid(
            "import asyncio\n\nasync def evict_expired(index, log: DecisionLog, stale: list[str]) -> None:\n"
            "    await asyncio.to_thread(log.record, \"evict\", stale, \"past retention\")\n"
            "    await index.vectors.adelete(ids=stale)\n"
        ),
        # Moved to an archive the object keeps: nothing is lost.
        Valid(
            "class Memory:\n    def trim(self, limit: int) -> None:\n        while len(self.messages) > limit:\n"
            "            self.archive.append(self.messages.pop(0))\n"
        ),
        Valid(  # each id is collected for removal only after its record, in the same pass
            "from haystack.document_stores.in_memory import InMemoryDocumentStore\n\n"
            "def prune_superseded(store: InMemoryDocumentStore, decision_log, docs):\n"
            "    doomed = []\n"
            "    for doc in docs:\n"
            "        decision_log.record('prune', [doc.id], 'superseded')\n"
            "        doomed.append(doc.id)\n"
            "    if doomed:\n"
            "        store.delete_documents(doomed)\n"
        ),
        Valid(  # the rationale goes to a log the class holds in a typed field, before the helper drops
            "class DecisionLog:\n"
            "    def record(self, *args):\n"
            "        pass\n"
            "\n\n"
            + _WINDOW_WITH_DROP
            + "class Pruner:\n"
            "    def __init__(self, log: DecisionLog):\n"
            "        self.log = log\n"
            "\n"
            "    def prune_stale(self, window: Window, stale_ids):\n"
            "        self.log.record('prune', stale_ids, 'stale')\n"
            "        for sid in stale_ids:\n"
            "            window.drop(sid)\n"
        ),
        Valid(
            "def evict(self, budget):\n    while self.token_count() > budget:\n"
            "        self.decision_log.record('evict', self.spans[0].id)\n        self.spans.pop(0)\n"
        ),
        Valid("class ChatHistory:\n    def clear(self):\n        self.messages.clear()\n"),
        Valid(
            "def parse(tokens):\n    stack = []\n    for token in tokens:\n        if token == ')':\n"
            "            stack.pop()\n        else:\n            stack.append(token)\n"
        ),
        Valid(
            "def trim_messages(messages, max_tokens):\n    messages = list(messages)\n"
            "    while count(messages) > max_tokens:\n        messages.pop(0)\n    return messages\n"
        ),
        Valid(
            "async def drain(self):\n    while self.pending_messages:\n"
            "        message = self.pending_messages.pop(0)\n        await self.send(message)\n"
        ),
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass Context:\n"
            "    spans: list = field(default_factory=list)\n\n    def prune(self, keep):\n"
            "        self.audit_log.append({'op': 'prune', 'dropped': [s.id for s in self.spans if s.id not in keep]})\n"
            "        self.spans = [s for s in self.spans if s.id in keep]\n"
        ),
        Valid(
            "def end_span(self, event_id):\n    span = self.active_spans.pop(event_id, None)\n"
            "    if span is not None:\n        span.end()\n"
        ),
        Valid(
            "class Window:\n    def _note(self, reason):\n        self.ledger.write(reason)\n\n"
            "    def trim(self, n):\n        self._note(f'trim {n}')\n        del self.nodes[:n]\n"
        ),
        Valid(
            "def trim(self, n):\n    if self.verbose:\n        self.decision_log.record('trim', n, dropped=self.spans[:n])\n"
            "    else:\n        self.decision_log.record('trim', n)\n    hist = self.spans\n    self.spans = hist[n:]\n"
        ),
        Valid(
            "def trim(self, budget):\n    probe = Span(id='probe', content='')\n    self.spans.append(probe)\n"
            "    fits = self.measure(self.spans) <= budget\n    self.spans.pop()\n    return fits\n"
        ),
        Valid(  # each id the delete is given is recorded first, in a log typed as one
            "class ReviewLog:\n    def note(self, *args):\n        pass\n\n\n"
            "def retract(index, node_ids, log: ReviewLog, why):\n    for nid in node_ids:\n"
            "        log.note('retract', nid, why)\n    index.delete_nodes(node_ids)\n"
        ),
        Valid(  # LangGraph: the whole history written back, rewritten; nothing pruned
            "from langgraph.graph.message import REMOVE_ALL_MESSAGES\n\n"
            "def normalise(state):\n    fixed = [clean(m) for m in state['messages']]\n"
            "    return {'messages': [RemoveMessage(id=REMOVE_ALL_MESSAGES), *fixed]}\n"
        ),
        Valid(  # a docstore's tombstones collected by age: SPL403's question
            "def collect(self, now):\n    for nid, deleted_at in list(self.graveyard.items()):\n"
            "        if now - deleted_at > self.ttl:\n            self.docstore.delete_document(nid)\n"
        ),
        Valid(
            "class Compactor:\n    def prune_one(self, spans, sid, decision_log):\n"
            "        decision_log.record('prune', sid)\n        del spans[sid]\n\n"
            "    def compact(self, ctx, stale):\n        for sid in stale:\n"
            "            self.prune_one(ctx.spans, sid, ctx.decision_log)\n"
        ),
        Valid(  # documents killed earlier, selected by their stamp in a store filter: SPL403's question
            "def purge_killed(store, cited, cutoff):\n"
            "    old = store.filter_documents(filters={'field': 'meta.killed_at', 'operator': '<', 'value': cutoff})\n"
            "    store.delete_documents([d.id for d in old if d.id not in cited])\n"
        ),
        # `drop` on a field typed `Any` whose name matches no class of the tree that defines `drop`: unknown.
        Valid(
            "from typing import Any\n"
            "\n"
            "\n"
            "class SessionStore:\n"
            "    def __init__(self):\n"
            "        self.sessions = {}\n"
            "\n"
            "    def drop(self, sid):\n"
            "        return self.sessions.pop(sid, None)\n"
            "\n"
            "\n"
            "class LogoutHandler:\n"
            "    cache: Any\n"
            "\n"
            "    def handle(self, sid: str) -> None:\n"
            "        self.cache.drop(sid)\n"
        ),
        # The record runs when `over` is not empty, before the loop that removes only then.
        Valid(
            "from dataclasses import dataclass\n"
            "\n"
            "\n"
            "@dataclass\n"
            "class Span:\n"
            "    span_id: str\n"
            "    content: str\n"
            "\n"
            "\n"
            "class Window:\n"
            "    def __init__(self, decision_log):\n"
            "        self.spans: dict[str, Span] = {}\n"
            "        self.decision_log = decision_log\n"
            "\n"
            "    def trim(self, budget: int) -> list[str]:\n"
            "        over = [sid for sid, s in self.spans.items() if len(s.content) > budget]\n"
            "        if over:\n"
            '            self.decision_log.record("trim", over, f"over budget {budget}")\n'
            "        for sid in over:\n"
            "            del self.spans[sid]\n"
            "        return over\n"
        ),
        # The memory service's delete, recorded first.
        Valid(
            "async def forget(memory_service, log, *, user_id, stale):\n"
            "    log.record(action='forget', span_ids=[m.id for m in stale], rationale='contradicted')\n"
            "    for memory in stale:\n        await memory_service.delete_memory(user_id=user_id, memory_id=memory.id)\n",
        ),
        # Each pruned message recorded in a loop over what the removal is then given.
        Valid(
            "def prune_by_relevance(store, log, ranked, keep):\n    low = ranked[keep:]\n    if not low:\n        return 0\n"
            "    for score, message in low:\n        log.record(message['tracking_id'], f'relevance {score:.3f}')\n"
            "    store.remove(m['tracking_id'] for _, m in low)\n    return len(low)\n",
        ),
    ]
    invalid = [
        Invalid(
            _BUFFER_WITH_LOG
            + "def compact(buffer: ContextBuffer, stale: list[str]) -> None:\n"
            "    for span_id in stale:\n"
            "        buffer.drop(span_id)\n"
            "    buffer.log.record(op='compact', span_ids=stale, rationale='stale')\n",
            line=23, column=9, message="`buffer._spans` pruned before the rationale is recorded in a decision log",
        ),
        # Messages removed through the graph's state by a pass given the decision log, recorded after.
        Invalid(
            "from langchain_core.messages import RemoveMessage\n\n"
            "def apply_retractions(graph, config, log: DecisionLog, retracted: list) -> None:\n"
            "    graph.update_state(config, {\"messages\": [RemoveMessage(id=m.id) for m in retracted]})\n"
            "    log.record(\"retraction\", [m.id for m in retracted], \"the user retracted them\")\n",
            line=4, column=46,
            message="`messages` pruned before the rationale is recorded in a decision log",
        ),
        # A LangGraph store's items deleted by key, the reason recorded after.
        Invalid(
            "async def forget_superseded(store, decisions: DecisionLog, ns: tuple, keys: list[str]) -> None:\n"
            "    for key in keys:\n        await store.adelete(ns, key)\n"
            "    await decisions.arecord(\"forget\", keys, \"superseded\")\n",
            line=3, column=15,
            message="`store` pruned before the rationale is recorded in a decision log",
        ),
        # Turns that hold their message: a span by its id and version, its content the message's.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    role: str\n    content: str\n\n"
            "@dataclass\nclass TurnSpan:\n    span_id: str\n    message: ChatMessage\n    version: int = 0\n\n"
            "class Transcript:\n    def __init__(self) -> None:\n        self._turns: dict[str, TurnSpan] = {}\n\n"
            "    def evict_oldest(self, keep: int) -> None:\n        while len(self._turns) > keep:\n"
            "            self._turns.pop(next(iter(self._turns)))\n",
            line=20, column=13,
            message="`self._turns` pruned before the rationale is recorded in a decision log",
        ),
        # A vector store's delete by ids, recorded afterwards (in a thread).
        Invalid(
            "import asyncio\n\nasync def evict_expired(index, log: DecisionLog, stale: list[str]) -> None:\n"
            "    await index.vectors.adelete(ids=stale)\n"
            "    await asyncio.to_thread(log.record, \"evict\", stale, \"past retention\")\n",
            line=4, column=11,
            message="`index.vectors` pruned before the rationale is recorded in a decision log",
        ),
        # Popped into a list of this call's: they leave the context all the same.
        Invalid(
            "class Memory:\n    def trim(self, limit: int) -> list:\n        dropped = []\n"
            "        while len(self.messages) > limit:\n            dropped.append(self.messages.pop(0))\n"
            "        self.decision_log.record(\"trim\", [m.id for m in dropped], \"over budget\")\n        return dropped\n",
            line=5, column=28,
            message="`self.messages` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # collected before its record: a failing record leaves ids already doomed unexplained
            "from haystack.document_stores.in_memory import InMemoryDocumentStore\n\n"
            "def prune_superseded(store: InMemoryDocumentStore, decision_log, docs, extra):\n"
            "    doomed = [extra.id]\n"
            "    for doc in docs:\n"
            "        decision_log.record('prune', [doc.id], 'superseded')\n"
            "        doomed.append(doc.id)\n"
            "    store.delete_documents(doomed)\n",
            line=8, column=5, message="`store` pruned before the rationale is recorded in a decision log",
        ),
        # The store's own `delete` removes the note; the reason is written only after the loop.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Note:\n    note_id: str\n    text: str\n    version: int = 1\n\n"
            "class NoteStore:\n    def __init__(self) -> None:\n        self._notes: dict[str, Note] = {}\n\n"
            "    def delete(self, note_id: str) -> None:\n        self._notes.pop(note_id, None)\n\n"
            "def drop_short_notes(store: NoteStore, log, notes: list[Note]) -> None:\n    dropped = []\n"
            "    for note in notes:\n        if len(note.text) < 12:\n            store.delete(note.note_id)\n"
            "            dropped.append(note.note_id)\n    if dropped:\n        log.record('drop', dropped, 'too short')\n",
            line=20, column=13, message="`store._notes` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # a method of the class a field of `self` holds prunes; the class holds a decision log
            _WINDOW_WITH_DROP
            + "class Agent:\n    def __init__(self):\n        self.window = Window()\n"
            "        self.decisions = []\n\n    def forget(self, span_id):\n        self.window.drop(span_id)\n",
            line=15, column=9, message="`self.window._spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # a document store's delete, the reason written only afterwards
            "def withdraw(store, doc_ids, audit_log, notice):\n    store.delete_documents(doc_ids)\n"
            "    audit_log.append(('withdraw', doc_ids, notice))\n",
            line=2, column=5, message="`store` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # ref docs deleted because they are stale, with no record at all
            "def refresh(index, refs):\n    stale = [r for r in refs if r.age > 30]\n    for ref in stale:\n"
            "        index.delete_ref_doc(ref.ref_doc_id, delete_from_docstore=True)\n",
            line=4, column=9, message="`index` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # LangGraph: every message removed, a tail kept
            "from langgraph.graph.message import REMOVE_ALL_MESSAGES\n\n"
            "def restart(state):\n    tail = state['messages'][-1:]\n"
            "    return {'messages': [RemoveMessage(id=REMOVE_ALL_MESSAGES), *tail]}\n",
            line=5, column=26, message="`messages` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(  # a method of the window's class prunes its spans; the rationale is recorded after
            _WINDOW_WITH_DROP
            + "def prune_stale(window: Window, stale_ids, log):\n"
            "    for sid in stale_ids:\n"
            "        window.drop(sid)\n"
            "    log.record('prune', stale_ids, 'stale')\n",
            line=11, column=9, message="`window._spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def evict(self, budget):\n    while self.token_count() > budget:\n        span = self.spans.pop(0)\n"
            "        self.decision_log.record('evict', span.id)\n",
            line=3,
            column=16,
            message="`self.spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def compact(ctx, keep):\n    ctx.spans[:] = [s for s in ctx.spans if s.id in keep]\n",
            line=2,
            column=5,
            message="`ctx.spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "class Memory:\n    def forget_stale(self, now):\n        for node in list(self.nodes):\n"
            "            if now - node.created_at > self.ttl:\n                self.nodes.remove(node)\n",
            line=5,
            column=17,
            message="`self.nodes` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "async def trim_window(buffer, limit):\n    del buffer.messages[:-limit]\n"
            "    await buffer.audit_log.append('trimmed')\n",
            line=2,
            column=5,
            message="`buffer.messages` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "from pydantic import BaseModel\n\nclass Span(BaseModel):\n    id: str\n    content: str\n\n"
            "def redact_pruned(span: Span):\n    span.content = '[pruned]'\n",
            line=8,
            column=5,
            message="`span` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def drop_tool_results(state):\n    for message in list(state['messages']):\n"
            "        if message.role == 'tool':\n            state['messages'].remove(message)\n",
            line=4,
            column=13,
            message="`state['messages']` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "class Buffer:\n    def add(self, chunk):\n        self.chunks.append(chunk)\n"
            "        if len(self.chunks) > self.capacity:\n            self.chunks.pop(0)\n",
            line=5,
            column=13,
            message="`self.chunks` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def prune(self, verbose=False):\n    if verbose:\n        self.decision_log.record('prune')\n"
            "    kept = [s for s in self.spans if s.score > 0.2]\n    self.spans = kept\n",
            line=5,
            column=5,
            message="`self.spans` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "def trim(self, n):\n    if self.verbose:\n        self.decision_log.record('trim', n)\n"
            "    hist = self.messages\n    self.messages = hist[n:]\n",
            line=5,
            column=5,
            message="`self.messages` pruned before the rationale is recorded in a decision log",
        ),
        Invalid(
            "from langchain_core.messages import RemoveMessage\n\ndef trim_history(state):\n"
            "    return {'messages': [RemoveMessage(id=m.id) for m in state['messages'][:-10]]}\n",
            line=4,
            column=26,
            message="`messages` pruned before the rationale is recorded in a decision log",
        ),
        # A tool the agent calls to forget a span: its store field is `Any`, the one store class of the tree drops.
        Invalid(
            "from dataclasses import dataclass\n"
            "from typing import Any\n"
            "\n"
            "\n"
            "@dataclass\n"
            "class Span:\n"
            "    span_id: str\n"
            "    content: str\n"
            "\n"
            "\n"
            "class SpanStore:\n"
            "    def __init__(self):\n"
            "        self.spans: dict[str, Span] = {}\n"
            "\n"
            "    def drop(self, span_id):\n"
            "        return self.spans.pop(span_id, None)\n"
            "\n"
            "\n"
            "class DecisionLog:\n"
            "    def __init__(self):\n"
            "        self.entries = []\n"
            "\n"
            "    def record(self, edit, span_ids, rationale):\n"
            "        self.entries.append((edit, span_ids, rationale))\n"
            "\n"
            "\n"
            "class ForgetSpanTool:\n"
            "    store: Any\n"
            "    log: Any\n"
            "\n"
            "    def _run(self, span_id: str, reason: str) -> str:\n"
            "        log: DecisionLog = self.log\n"
            "        if self.store.drop(span_id) is None:\n"
            '            return "no such span"\n'
            '        log.record("forget", [span_id], reason)\n'
            '        return "forgot"\n',
            line=33, column=12, message="`self.store.spans` pruned before the rationale is recorded in a decision log",
        ),
        # Fields set from typed parameters in one tuple assignment; the drop sits in a comprehension's filter.
        Invalid(
            "class SpanStore:\n"
            "    def __init__(self):\n"
            "        self.spans = {}\n"
            "\n"
            "    def drop(self, span_id):\n"
            "        return self.spans.pop(span_id, None)\n"
            "\n"
            "\n"
            "class Compactor:\n"
            "    def __init__(self, store: SpanStore, decisions):\n"
            "        self.store, self.decisions = store, decisions\n"
            "\n"
            "    def compact(self, over_budget: list[str]) -> list[str]:\n"
            "        removed = [sid for sid in over_budget if self.store.drop(sid)]\n"
            '        self.decisions.record("compact", removed, "over budget")\n'
            "        return removed\n",
            line=14, column=50, message="`self.store.spans` pruned before the rationale is recorded in a decision log",
        ),
        # A memory service's delete named for what it keeps, told the memory's id, before the record.
        Invalid(
            "async def forget_contradicted(memory_service, log, *, user_id, found):\n"
            "    contradicted = [m for m in found if m.custom_metadata.get('status') == 'contradicted']\n"
            "    for memory in contradicted:\n"
            "        await memory_service.delete_memory(user_id=user_id, memory_id=memory.id)\n"
            "    log.record(action='forget', span_ids=[m.id for m in contradicted], rationale='contradicted')\n",
            line=4, column=15,
            message="`memory_service` pruned before the rationale is recorded in a decision log",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return (
            _PRESCAN.search(source) is not None
            or any(marker in source for marker in (*vocabulary.tombstone_markers, "tombstone", "TOMBSTONE", "RemoveMessage"))
            or _helper_call(vocabulary).search(source) is not None  # `store.drop(sid)`: a project helper may prune
        )

    def __init__(self, context) -> None:
        super().__init__(context)
        self._tracing: bool | None = None
        self._recorders: frozenset[str] | None = None
        self._span_holders: dict[str, bool] | None = None

    # --- scopes --------------------------------------------------------------------------------
    def start_function(self, node: cst.FunctionDef) -> _Function:
        return _Function(frozenset(self.facts.params), ContainerAliases.of(node, self.context.analysis.memo))

    def visit_For(self, node: cst.For) -> None:
        super().visit_For(node)
        function = self.state
        if function is not None:
            function.loops.append((node.target, node.iter))
            function.for_nodes.append(node)
            if isinstance(node.target, cst.Name):
                function.owned.add(node.target.value)

    def leave_For(self, original_node: cst.For) -> None:
        super().leave_For(original_node)
        if self.state is not None:
            self.state.loops.pop()
            self.state.for_nodes.pop()

    # --- records ---------------------------------------------------------------------------------
    def visit_Call(self, node: cst.Call) -> None:
        function = self.state
        if function is None:
            return
        vocabulary = self.context.vocabulary
        if is_record_call(node, vocabulary, self.facts, self.context.analysis):
            self._record(node)
            return
        func = node.func
        if isinstance(func, cst.Attribute) and func.attr.value in _MOVING_METHODS:
            if not self._is_local_accumulator(func.value):  # `dropped.append(c.pop())` still drops it from `c`
                function.moved.update(a.value for a in node.args)
            self._note_added(func.value, node.args[-1].value if node.args else None, None)
        if isinstance(func, cst.Attribute) and func.attr.value in REMOVING_METHODS and node not in function.moved:
            if (
                self._is_context(func.value)
                and self._is_policy(node, func.value, method=func.attr.value)
                and not self._takes_back(func.value, node)
            ):
                self._removal(node, func.value)
                return
        if isinstance(func, cst.Attribute):
            keywords = [a.keyword.value for a in node.args if a.keyword is not None]
            by_name = is_store_delete(func.attr.value, keywords)
            on_store = not by_name and func.attr.value in PLAIN_DELETES and (
                self._names_store(func.value) and not self._deletes_work_items(node)
                and func.attr.value not in self.context.project.helpers  # a `delete` of the tree: judged by what it does
            )
            if (by_name or on_store) and self._prunes_store(node, func.value, named_policy=on_store):
                self._removal(node, func.value)
                return
        if callee_name(node) == "RemoveMessage" and self._removes_messages(node):
            self._removal(node, "messages")
            return
        name = callee_name(node)
        if name and not is_editing_callee(name, vocabulary) and any(
            is_decision_log(a.value, vocabulary, self.facts) for a in node.args
        ):
            self._record(node)  # `note_prune(ctx.decision_log, span, reason)`
            return
        helper = self.context.project.helpers.get(name or "")
        if (helper is not None and helper.records) or (name and name in self._recording_functions()) or self._own_method_records(node):
            self._record(node)
        elif helper is not None and helper.prunes:
            container = self._pruned_through(node, helper)
            if container is not None:
                self._removal(node, container)

    def _own_method_records(self, call: cst.Call) -> bool:
        """`await self._log(...)`, a method of this class whose body records to the decision log its object
        holds (`self.log: DecisionLog`, maybe run in a thread: `asyncio.to_thread(self.log.record, ...)`),
        which the name-based summaries of the project pass do not know for a log named `log`."""
        func = call.func
        facts = self.facts
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == "self"
                and facts is not None and facts.self_class):
            return False
        memo = self.context.analysis.memo.setdefault("recording methods", {})
        key = (facts.self_class, func.attr.value)
        if key not in memo:
            memo[key] = False
            for method in _methods_named(self.context.module, facts.self_class, func.attr.value):
                own = self.context.analysis.facts(method, facts.self_class)
                if any(isinstance(n, cst.Call) and _calls_record_method(n, self.context.vocabulary)
                       and is_record_call(n, self.context.vocabulary, own) for n in traversal.descendants(method.body)):
                    memo[key] = True
        return memo[key]

    def _record(self, node: cst.CSTNode) -> None:
        function = self.state
        function.records.append(node)
        if function.for_nodes:
            function.record_loops[node] = tuple(function.for_nodes)

    def _removal(self, node: cst.CSTNode, container: cst.BaseExpression | str) -> None:
        self.state.removals.append(node)
        self.state.containers[node] = container
        if self.state.for_nodes:
            self.state.removal_loops[node] = tuple(self.state.for_nodes)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self.state is not None and is_decision_log(node.target, self.context.vocabulary, self.facts):
            self._record(node)

    # --- removals ----------------------------------------------------------------------------------
    def visit_Del(self, node: cst.Del) -> None:
        if self.state is None:
            return
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            if (
                isinstance(target, cst.Subscript)
                and self._is_context(target.value)
                and self._is_policy(node, target.value)
                and not self._takes_back(target.value, target)
            ):
                self._removal(node, target.value)
                return

    def visit_Assign(self, node: cst.Assign) -> None:
        function = self.state
        if function is None:
            return
        for target in node.targets:
            written = target.target
            if isinstance(written, cst.Subscript) and is_decision_log(written.value, self.context.vocabulary, self.facts):
                self._record(node)
            elif self._removes(written, node.value):
                self._removal(node, written.value if _is_full_slice(written) else written)
            elif self._tombstones(written, node.value):
                owner = written.value
                self._removal(node, owner.value if isinstance(owner, cst.Subscript) and isinstance(written, cst.Attribute)
                              and written.attr.value in self.context.vocabulary.tombstone_flags else owner)
            elif isinstance(written, cst.Name):
                self._bind(function, written.value, node.value)
            elif isinstance(written, cst.Subscript) and len(written.slice) == 1 and isinstance(written.slice[0].slice, cst.Index):
                self._note_added(written.value, node.value, written.slice[0].slice.value)  # `c[probe.id] = probe`

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self.state is not None and node.value is not None and isinstance(node.target, cst.Name):
            self._bind(self.state, node.target.value, node.value)

    def _bind(self, function: _Function, name: str, value: cst.BaseExpression) -> None:
        function.filtered.pop(name, None)
        kept = is_filter_of(value)
        if kept is not None and _is_full_slice(value):
            kept = None
        if kept is not None and self._is_context(kept):
            function.filtered[name] = kept
        if isinstance(value, cst.Call) and (callee_name(value) or "")[:1].isupper():
            function.built.add(name)  # `probe = Span(...)`: an object constructed here
        function.owned.add(name)

    def _note_added(self, container: cst.BaseExpression, value: cst.BaseExpression | None, key: cst.BaseExpression | None) -> None:
        """`c.append(probe)`, `c[probe.id] = probe` with `probe` built here: the function's own item in `c`."""
        function = self.state
        if isinstance(value, cst.Name) and value.value in function.built:
            added = function.added.setdefault(self._code(container), set())
            added.add(value.value)
            if key is not None:
                added.add(self.context.module.code_for_node(key))

    def _names_store(self, receiver: cst.BaseExpression) -> bool:
        """`self._store`, `vector_index`, `client.agents.passages`: the last name says a store of spans
        (a store word, or a span noun in the plural)."""
        name = last_name(receiver) or ""
        parts = name_parts(name)
        return bool(parts) and (
            bool(STORE_WORDS.intersection(parts))
            or (parts[-1].endswith("s") and self.context.analysis.is_span_name(parts[-1][:-1]))
        )

    def _deletes_work_items(self, call: cst.Call) -> bool:
        """`store.delete(job.namespace, job.key)` in `for job in ...`: what a store of anything deletes is named a
        job, task or run (its key, or the loop that reaches it), not a span."""
        named = [*(w for a in call.args for w in words_in(a.value))]
        named += [w for target, iterable in self.state.loops for w in (*words_in(target), *words_in(iterable))]
        named += [string_value(n) or "" for target, iterable in self.state.loops for n in traversal.descendants(iterable)
                  if isinstance(n, cst.SimpleString)]
        return any(_WORK_ITEM_PARTS.intersection(name_parts(w)) for w in named)

    def _is_local_accumulator(self, receiver: cst.BaseExpression) -> bool:
        """`receiver` is a local this call started empty (`dropped = []`): what goes into it leaves the context."""
        return isinstance(receiver, cst.Name) and self.facts is not None and receiver.value in self.facts.accumulators

    def _takes_back(self, container: cst.BaseExpression, removal: cst.CSTNode) -> bool:
        """The removal takes out what this function put in: `c.pop()` after `c.append(probe)`,
        `c.remove(probe)`, `del c[probe.id]` after `c[probe.id] = probe`."""
        added = self.state.added.get(self._code(container))
        if not added:
            return False
        if isinstance(removal, cst.Call):
            if not removal.args:
                return callee_name(removal) == "pop"
            argument = removal.args[0].value
        elif isinstance(removal, cst.Subscript) and len(removal.slice) == 1 and isinstance(removal.slice[0].slice, cst.Index):
            argument = removal.slice[0].slice.value
        else:
            return False
        return self.context.module.code_for_node(argument) in added

    def _code(self, expr: cst.BaseExpression) -> str:
        return self.context.module.code_for_node(self.state.aliases.resolve(expr))

    def _removes(self, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`c[:] = filtered`, `self.spans = [s for s in self.spans if ...]`, `self.spans = kept`,
        `self.messages = hist[-n:]` where `hist` is `self.messages`."""
        function = self.state
        resolve = function.aliases.resolve
        if isinstance(target, cst.Subscript) and _is_full_slice(target):
            container = target.value
            return self._is_context(container) and (
                is_filter_of(value) is not None or (isinstance(value, cst.Name) and value.value in function.filtered)
            )
        if not isinstance(target, (cst.Attribute, cst.Subscript)) or not self._is_context(target):
            return False
        if isinstance(value, cst.Name):
            source = function.filtered.get(value.value)
            return source is not None and same_expression(resolve(source), resolve(target))
        kept = is_filter_of(value)
        return kept is not None and not _is_full_slice(value) and same_expression(resolve(kept), resolve(target))

    def _tombstones(self, target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`span.content = "[pruned]"`, `turn["content"] = "<tombstone>"`: content replaced by a tombstone
        marker; `spans[sid].tombstoned = True`: a span of the context flagged as removed."""
        vocabulary = self.context.vocabulary
        if isinstance(target, cst.Attribute) and target.attr.value in vocabulary.tombstone_flags:
            return (
                isinstance(value, cst.Name) and value.value == "True"
                and isinstance(target.value, cst.Subscript) and self._is_context(target.value.value)
                and self._is_policy(target, target.value.value)
            )
        if isinstance(target, cst.Attribute) and target.attr.value in vocabulary.content_fields:
            span = target.value
        elif isinstance(target, cst.Subscript) and string_key(target) in vocabulary.content_fields:
            span = target.value  # `turn["content"] = "<tombstone>"`
        else:
            return False
        if not self.context.analysis.is_span_like(span, self.facts):
            return False
        text = string_value(value)
        if text is not None:
            return any(marker in text for marker in vocabulary.tombstone_markers)
        if isinstance(value, (cst.Name, cst.Attribute)):
            return "tombstone" in name_parts(last_name(value))
        return False

    def _removes_messages(self, call: cst.Call) -> bool:
        """`RemoveMessage(id=m.id)` (LangGraph) for messages a pruning pass selects, or
        `RemoveMessage(id=REMOVE_ALL_MESSAGES)`, which replaces the whole history with what follows it, in a
        pass that keeps a slice of the messages (`*state["messages"][-2:]`), not one that writes them all back.
        A pass given a decision log (`apply_retractions(graph, config, log)`) is one: what it removes it decides."""
        ids = [a.value for a in call.args if a.keyword is None or a.keyword.value == "id"][:1]
        if not ids:
            return False
        removes_all = last_name(ids[0]) == "REMOVE_ALL_MESSAGES"
        if not removes_all and (not isinstance(ids[0], cst.Attribute) or ids[0].attr.value not in self.context.vocabulary.id_fields):
            return False
        assert self.function is not None
        if self.function.name.value in _LIFECYCLE:
            return False
        words = self._policy_words()
        return has_word(self.function.name.value, words) or any(
            not isinstance(g, (cst.Name, cst.Attribute)) and mentions(g, words) for g in self.state.guards
        ) or (removes_all and self._keeps_a_slice()) or (not removes_all and self._holds_log())

    def _collects_tombstones(self) -> bool:
        """The function deletes what was tombstoned earlier (a `tombstone` name, a `deleted` flag, a
        `deleted_at` stamp anywhere in it, a store's filter included: `{"field": "meta.deleted_at", ...}`):
        garbage collection, whose records were made at the tombstoning (SPL403). For store deletes;
        removals from a container ask `_selects_tombstones`, which wants the tombstone tested."""
        flags = self.context.vocabulary.tombstone_flags
        return any(
            "tombstone" in parts or bool(flags and has_word("_".join(parts[:1]), flags))
            for parts in map(name_parts, field_names_in(self.function.body))
        )

    def _selects_tombstones(self) -> bool:
        """The function decides what to remove by a tombstone (`for t in buf.tombstones()`, `if
        s.tombstoned_at`, a `deleted` flag tested): garbage collection of spans tombstoned earlier,
        whose records were made at the tombstoning (SPL403 judges it). Writing a tombstone is not it."""
        assert self.function is not None
        key = ("selects tombstones", self.function)
        memo = self.context.analysis.memo
        if key not in memo:
            flags = self.context.vocabulary.tombstone_flags
            tested = [
                node.test if isinstance(node, (cst.If, cst.While, cst.CompIf)) else node.iter
                for node in traversal.descendants(self.function.body)
                if isinstance(node, (cst.If, cst.While, cst.CompIf, cst.For, cst.CompFor))
            ]
            memo[key] = any(
                "tombstone" in parts or "tombstones" in parts or bool(flags and has_word("_".join(parts[:1]), flags))
                for test in tested for parts in map(name_parts, field_names_in(test))
            )
        return memo[key]

    def _keeps_a_slice(self) -> bool:
        """The function takes a bounded slice of a span container (`state["messages"][-2:]`)."""
        analysis, facts = self.context.analysis, self.facts
        stack: list[cst.CSTNode] = [self.function.body]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Subscript) and _slice_bounded(node) and is_span_container(node.value, analysis, facts):
                return True
            if not isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)):
                stack.extend(traversal.children(node))
        return False

    # --- what is a context container and a pruning policy ----------------------------------------
    def _is_context(self, expr: cst.BaseExpression) -> bool:
        """A span container that outlives the function: an attribute, a state key, a parameter, through aliases."""
        function = self.state
        expr = function.aliases.resolve(expr)
        if isinstance(expr, cst.Name):
            if expr.value in function.owned or expr.value not in function.params:
                return False
        elif not isinstance(expr, (cst.Attribute, cst.Subscript)):
            return False
        owners = [*chain_names(expr), (self.facts.self_class if self.facts else None) or ""]
        if any(_NOT_CONTEXT_PARTS.intersection(name_parts(name)) for name in owners):
            return False  # an HTTP cache's entries, a work queue's items
        if (
            not is_span_container(expr, self.context.analysis, self.facts) or self._only_a_buffer(expr)
            or self._holds_other_things(expr)
        ) and not self._holds_spans(expr):
            return False
        if {"span", "spans"}.intersection(name_parts(last_name(expr) or "")) and self._traces():
            return False  # an OpenTelemetry exporter's spans
        root = access_root(expr)
        return root is None or root not in function.owned

    def _traces(self) -> bool:
        """The file uses tracing (OpenTelemetry and the like), where `span` means a trace span."""
        if self._tracing is None:
            self._tracing = TRACING_MARKERS.search(self.context.source) is not None
        return self._tracing

    def _only_a_buffer(self, expr: cst.BaseExpression) -> bool:
        """`self._buffer`: named only by a container noun, it may hold text or bytes; the file must show spans in it."""
        names = chain_names(expr)
        analysis = self.context.analysis
        return (
            bool(names)
            and not analysis.is_span_name(names[-1])
            and analysis.known_class(expr, self.facts) is None
            and any(part in self.context.vocabulary.container_nouns for part in name_parts(names[-1]))
        )

    def _holds_spans(self, expr: cst.BaseExpression) -> bool:
        """A container the file declares as holding spans (`ctx: list[Span]`) or puts spans in."""
        names = chain_names(expr)
        return bool(names) and self._declared_holders().get(names[-1], False)

    def _holds_other_things(self, expr: cst.BaseExpression) -> bool:
        """A container the file declares as holding a class of the tree that is not a span (`list[Label]`)."""
        names = chain_names(expr)
        return bool(names) and self._declared_holders().get(names[-1]) is False

    def _declared_holders(self) -> dict[str, bool]:
        """Container names -> True when the file declares or fills them with spans, False when it
        declares or fills them only with a class of the tree that is not one."""
        if self._span_holders is not None:
            return self._span_holders
        analysis, project, source = self.context.analysis, self.context.project, self.context.source
        found: dict[str, bool] = {}
        for name, element in _named_matches(_CONTAINER_ANNOTATION, source, _NAME_BEFORE):
            element_type = re.findall(r"\w+", element)[-1:]
            if not element_type:
                continue
            known = project.class_named(element_type[0])
            if (known is not None and known.is_span) or (known is None and _names_a_span_type(element_type[0], analysis)):
                found[name] = True
            elif known is not None:
                found.setdefault(name, False)
        appended = _named_matches(_APPEND_CALL, source, _NAME_JUST_BEFORE)
        for name, item in appended:
            if analysis.is_span_name(item) or project.span_class(item):
                found[name] = True
        for name, item in appended + _named_matches(_ITEM_STORE, source, _NAME_JUST_BEFORE):
            declared = _declared_type(source, item)  # `def add(self, item: Span)`
            known = project.class_named(declared) if declared is not None else None
            if known is not None:
                found[name] = found.get(name, False) or known.is_span  # `item: HttpPayload`: not spans
        self._span_holders = found
        return found

    def _is_policy(self, removal: cst.CSTNode, container: cst.BaseExpression, method: str | None = None) -> bool:
        """The removal is a pruning decision: by the name of the function or of its class, a guard, or its
        own arguments."""
        assert self.function is not None
        if self.function.name.value in _LIFECYCLE or self._is_primitive(removal) or self._selects_tombstones():
            return False
        container = self.state.aliases.resolve(container)
        words = self._policy_words()
        own = {part for name in chain_names(container) for part in name_parts(name)}
        named = [self.function.name.value, *((self.facts.self_class,) if self.facts and self.facts.self_class else ())]
        if any(has_word("_".join(p for p in name_parts(n) if p not in own), words) for n in named):
            return True  # `evict`, `trim_window`, `ForgetSpanTool._run`; not `transcribe_turns` for `self._turns`
        if isinstance(removal, cst.Del) or method in ("pop", "popleft"):
            argument = removal.target if isinstance(removal, cst.Del) else removal  # type: ignore[union-attr]
            if _slice_bounded(argument) or (isinstance(argument, cst.CSTNode) and _arguments_mention(argument, words)):
                return True
        if isinstance(container, cst.Name):
            # A bare parameter may be the caller's work list (a stack of chunks): only a test that
            # judges the items of a loop over it makes the removal a pruning decision.
            judged = self._judged_items(container)
            return any(
                name in judged
                for guard in self.state.guards
                if not (isinstance(guard, cst.Comparison) and self._selects_by_id(guard))
                for name in words_in(guard)
            )
        return any(self._is_policy_guard(guard, container) for guard in self.state.guards)

    def _is_primitive(self, removal: cst.CSTNode) -> bool:
        """`def drop(self, span_id): self._spans.pop(span_id, None)`: a method removing the one item its
        caller names (the key is a parameter, outside any loop), of a class that holds no decision log,
        given none. The caller's pass decides what goes, and is judged at its call through this
        helper's summary."""
        function, facts = self.state, self.facts
        if facts is None or facts.self_class is None:
            return False
        # `for sid in span_ids: self._spans.pop(sid)`: the ids its caller names, one by one
        named = {t.value for t, iterable in function.loops if isinstance(t, cst.Name) and _iterates(iterable, function.params)}
        if len(named) != len(function.loops):
            return False
        if isinstance(removal, cst.Del):
            target = removal.target
            key = target.slice[0].slice if isinstance(target, cst.Subscript) and len(target.slice) == 1 else None
            key = key.value if isinstance(key, cst.Index) else None
        elif isinstance(removal, cst.Call) and removal.args:
            key = removal.args[0].value
        else:
            return False
        if not (isinstance(key, cst.Name) and (key.value in function.params or key.value in named) and key.value != "self"):
            return False
        # The class's own container (`self._spans.pop(span_id)`), in a method that leaves recording to its
        # callers (it records nothing and is given no logger): the container's primitive even when the
        # class holds a log. Through an object it holds (`self.window.drop(span_id)`), or recording on
        # some path, the method is an API of a class keeping a log, which should record first.
        if self._own_primitive(removal) and not any("log" in p for p in function.params):
            return not self._given_log()
        return not self._holds_log()

    def _own_primitive(self, removal: cst.CSTNode) -> bool:
        """The removal is of a method removing from its class's own container (`self._spans.pop(span_id)`,
        with its mirror in a backing store: `self.docstore.delete_document(span_id)`) that records
        nothing to a decision log, before or after, and that the tree calls: its callers decide, and
        are judged at their calls. One nobody calls is the class's API, which should record."""
        assert self.function is not None
        key = ("own primitive", self.function)
        memo = self.context.analysis.memo
        if key not in memo and not self.context.analysis.project.calls_method(self.function.name.value):
            memo[key] = False
        if key not in memo:
            vocabulary, analysis = self.context.vocabulary, self.context.analysis
            nodes = list(traversal.descendants(self.function.body))
            memo[key] = any(isinstance(n, (cst.Del, cst.Call)) and _removes_from_own_field(n) for n in nodes) and not any(
                isinstance(n, cst.Call) and (is_record_call(n, vocabulary, self.facts, analysis) or self._own_method_records(n))
                for n in nodes
            )
        return memo[key] and (_removes_from_own_field(removal) or _called_on_own_field(removal))

    def _given_log(self) -> bool:
        """The function is given a decision log (a parameter named or typed as one)."""
        facts, vocabulary = self.facts, self.context.vocabulary
        return facts is not None and any(
            is_log_name(name, vocabulary) or is_log_type(annotation or "", vocabulary) for name, annotation in facts.params.items()
        )

    def _holds_log(self) -> bool:
        """The function is given a decision log, or its class holds one (a parameter, field or local named or
        typed as one: `log: DecisionLog = self.log`)."""
        facts, vocabulary = self.facts, self.context.vocabulary
        if facts is None:
            return False
        owner = self.context.analysis.class_named(facts.self_class) if facts.self_class else None
        fields = owner.fields if owner is not None else frozenset()
        return any(
            is_log_name(name, vocabulary) or is_log_type(annotation or "", vocabulary)
            for name, annotation in [
                *facts.params.items(), *facts.types.items(), *((f, facts.self_field_types.get(f)) for f in fields)
            ]
        )

    def _prunes_store(self, call: cst.Call, store: cst.BaseExpression, named_policy: bool = False) -> bool:
        """`index.delete_nodes(stale_ids)`, `self.store.delete_documents(ids)`: a framework store's delete by
        id in a pruning pass of a store the function was given or its object holds (not `self.delete_nodes`,
        the store's own API calling itself). A pass is one named or guarded for pruning, deleting ids
        named for it (`stale_ids`, `for nid in expired`), or given a decision log to record the removal in.
        With `named_policy` (a plain `delete` of a store, which may be a re-index replacing an entry) only
        a pass named or guarded for pruning is one."""
        function = self.state
        store = function.aliases.resolve(store)
        root = access_root(store)
        if root is None or root in function.owned or (root == "self" and isinstance(store, cst.Name)):
            return False
        if root != "self" and root not in function.params:
            return False
        if any(_NOT_CONTEXT_PARTS.intersection(name_parts(name)) for name in chain_names(store)):
            return False
        assert self.function is not None
        if self.function.name.value in _LIFECYCLE or self._collects_tombstones():
            return False
        if self.function.name.value in STORE_DELETE_METHODS | PLAIN_DELETES:
            return False  # a store's own delete API handing the call on to its backend
        if self._is_primitive(call):
            return False  # the container's primitive deleting the one id its caller names from its backing store
        words = self._policy_words()
        own = {part for name in chain_names(store) for part in name_parts(name)}
        named = [_sync_part(p, words) for p in name_parts(self.function.name.value) if p not in own]
        if has_word("_".join(named), words):  # `evict_expired`, `aforget_superseded`
            return True
        if any(self._is_policy_guard(guard, store) for guard in function.guards):
            return True
        if named_policy:
            return False
        arguments = [a.value for a in call.args[:1]]
        if any(mentions(a, words) for a in arguments) or any(
            mentions(iterable, words)
            for target, iterable in function.loops
            for a in arguments
            if set(words_in(target)) & set(words_in(a))
        ):
            return True
        return self._holds_log()

    def _is_policy_guard(self, guard: cst.BaseExpression, container: cst.BaseExpression) -> bool:
        """A test that selects what to drop: it names a size, score or age, or judges the container's items.

        Not `while queue:`, `if x in c:`, `if c is not None:`, nor a test about something else.
        """
        if isinstance(guard, (cst.Name, cst.Attribute, cst.Subscript)):
            return False  # truthiness, or a `for` over a container
        if isinstance(guard, cst.Comparison) and (_is_emptiness_test(guard) or self._selects_by_id(guard)):
            return False
        own = set(chain_names(container))
        words = self._policy_words()
        judged = self._judged_items(container)
        for name in words_in(guard):
            if name in judged or (name not in own and has_word(name, words)):
                return True
        return False

    def _selects_by_id(self, test: cst.Comparison) -> bool:
        """`m.id == message_id`: the caller named the item; a delete, not a pruning policy."""
        if any(not isinstance(c.operator, (cst.Equal, cst.In, cst.Is)) for c in test.comparisons):
            return False
        ids = self.context.vocabulary.id_fields
        operands = [test.left, *(c.comparator for c in test.comparisons)]
        return any(isinstance(o, cst.Attribute) and o.attr.value in ids for o in operands) and not mentions(
            test, self._policy_words()
        )

    def _judged_items(self, container: cst.BaseExpression) -> set[str]:
        """Names of the loop variables iterating over `container` (or a copy of it)."""
        found: set[str] = set()
        for target, iterable in self.state.loops:
            while isinstance(iterable, cst.Call) and iterable.args and callee_name(iterable) in (
                "list", "tuple", "reversed", "enumerate", "sorted", "copy"
            ):
                iterable = iterable.args[0].value
            if isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute):
                iterable = iterable.func.value  # `c.items()`, `c.copy()`
            if same_expression(self.state.aliases.resolve(iterable), container):
                found.update(words_in(target))
        return found

    def _policy_words(self) -> tuple[str, ...]:
        vocabulary = self.context.vocabulary
        return (*vocabulary.prune_words, *vocabulary.summarize_words, *vocabulary.age_words, *_POLICY_WORDS)

    # --- verdict -----------------------------------------------------------------------------------
    def finish_function(self, function: _Function, node: cst.FunctionDef) -> None:
        if not function.removals:
            return
        statements = enclosing_statements(node, [*function.records, *function.removals])
        covering = {statements[r] for r in function.records if r in statements}
        for removal in function.removals:
            statement = statements.get(removal)
            loops = _loops_recording(node, function, removal) | _loops_after_guarded_record(node, function.records)
            if statement is None or not reached_uncovered(node, statement, (covering | loops).__contains__):
                continue
            covering.add(statement)  # a removal reached only after a reported one is not reported again
            self.report(removal, self.message.format(container=self._container_text(function, removal)))

    def _recording_functions(self) -> frozenset[str]:
        if self._recorders is None:
            self._recorders = recording_functions(self.context.source, self.context.vocabulary)
        return self._recorders

    def _pruned_through(self, call: cst.Call, helper: HelperEffects) -> cst.BaseExpression | None:
        """`self._drop(self.spans, sid)`, `compact_into(ctx)`: the context a helper prunes, given to it (or `self`'s)."""
        name = callee_name(call) or ""
        # A helper named for pruning (`_drop`, `prune_one`), or a method of the class a typed receiver
        # holds (`store.delete(sid)` with `store: NoteStore`); `x.clear()` may be any class's.
        named_for_pruning = has_word(name, self.context.vocabulary.prune_words) and not (
            name in REMOVING_METHODS or name in _MOVING_METHODS
        )
        params = list(helper.params)
        receiver = call.func.value if isinstance(call.func, cst.Attribute) else None
        if not named_for_pruning and (params[:1] != ["self"] or self.context.project.class_named(self._held_type(receiver)) is None):
            return None
        given: dict[str, cst.BaseExpression] = {}
        fields: frozenset[str] | None = None  # the fields of the receiver's class, for another object's method
        if params[:1] in (["self"], ["cls"]):
            if not (isinstance(receiver, cst.Name) and receiver.value in ("self", "cls")):
                # `window.drop(sid)` with `window: ContextWindow`, `self.window.drop(sid)` with
                # `self.window = ContextWindow()`: a method of the class the receiver holds
                held_type = self._held_type(receiver)
                held = self.context.project.class_named(held_type)
                if held is None and held_type in (None, "Any", "object") and receiver is not None:
                    # `self.store.drop(sid)` with `store: Any`: the one class of the tree named so that defines it
                    noun = name_parts(last_name(receiver) or "")[-1:]
                    held = self.context.project.class_defining(name, noun[0]) if noun else None
                if held is None:
                    return None  # a method of a class the call does not name
                fields = held.fields
            given[params[0]] = receiver
            params = params[1:]
        for position, arg in enumerate(call.args):
            if arg.keyword is not None:
                given[arg.keyword.value] = arg.value
            elif arg.star == "" and position < len(params):
                given[params[position]] = arg.value
        for chain in sorted(helper.prunes):
            root, *attributes = chain.split(".")
            container = given.get(root)
            if container is None:
                continue
            if fields is not None and root == helper.params[0] and attributes and attributes[0] not in fields:
                continue  # the receiver's class has no such field: the method of another class of that name
            for attribute in attributes:
                container = cst.Attribute(value=container, attr=cst.Name(attribute))
            if self._is_context(container) and self._is_policy(call, container):
                return container
        return None

    def _held_type(self, receiver: cst.BaseExpression | None) -> str | None:
        """The class a local (`window: ContextWindow`) or a field of `self` (`self.window = ContextWindow()`) holds."""
        facts = self.facts
        if facts is None:
            return None
        if isinstance(receiver, cst.Name):
            return facts.types.get(receiver.value)
        if isinstance(receiver, cst.Attribute) and isinstance(receiver.value, cst.Name) and receiver.value.value == "self":
            return facts.self_field_types.get(receiver.attr.value)
        return None

    def _container_text(self, function: _Function, node: cst.CSTNode) -> str:
        container = function.containers[node]
        return self.context.module.code_for_node(container) if isinstance(container, cst.CSTNode) else container


def _calls_record_method(call: cst.Call, vocabulary: Vocabulary) -> bool:
    """`log.record(...)`, or `asyncio.to_thread(log.record, ...)`: a record method by name (not any method of
    a log-named object, such as a token ledger's `total`)."""
    call = run_elsewhere(call) or call
    return isinstance(call.func, cst.Attribute) and call.func.attr.value in vocabulary.record_methods


def _methods_named(module: cst.Module, class_name: str, method: str) -> Iterator[cst.FunctionDef]:
    """The definitions of `method` in the module's top-level classes named `class_name`."""
    for statement in module.body:
        if isinstance(statement, cst.ClassDef) and statement.name.value == class_name:
            for item in statement.body.body:
                if isinstance(item, cst.FunctionDef) and item.name.value == method:
                    yield item


def _sync_part(part: str, words: Sequence[str]) -> str:
    """`forget` for the `aforget` of an async variant (`aforget_superseded`, as `adelete` is `delete`'s)."""
    return part[1:] if part.startswith("a") and part[1:] in words else part


def _loops_recording(node: cst.FunctionDef, function: _Function, removal: cst.CSTNode) -> set[cst.CSTNode]:
    """`for sid in ids: log.record(sid)` before `store.delete_nodes(ids)` (or `store.remove(m.id for m in
    ids)`): a loop recording each of the ids the removal is given covers it (when it runs no time, nothing is removed); so does a loop that
    collects the ids it removes, each after its record (`_collected_after`), and a loop over what a
    later loop removes one by one (`for p in victims: log.record(p.id)`, then `for p in victims: delete(p.id)`)."""
    if not (isinstance(removal, cst.Call) and removal.args and function.record_loops):
        return set()
    resolve = function.aliases.resolve
    removed = removal.args[0].value
    if isinstance(removed, (cst.GeneratorExp, cst.ListComp, cst.SetComp)) and not removed.for_in.inner_for_in:
        removed = removed.for_in.iter  # `store.remove(m.id for _, m in low)` removes what `low` holds
    removed = resolve(removed)
    enclosing = function.removal_loops.get(removal, ())
    removing = [resolve(loop.iter) for loop in enclosing]
    found = set()
    for record, loops in function.record_loops.items():
        for loop in loops:
            recorded = resolve(loop.iter)
            if same_expression(recorded, removed) or (
                loop not in enclosing and any(same_expression(recorded, r) for r in removing)  # a loop of its own, before
            ) or (
                isinstance(removed, cst.Name) and _collected_after(node, loop, record, removed.value)
            ):
                found.add(loop)
    return found


def _collected_after(function: cst.FunctionDef, loop: cst.For, record: cst.CSTNode, name: str) -> bool:
    """`doomed = []; for doc in docs: log.record(doc.id); doomed.append(doc.id)`: the list `name`, which the
    function starts empty, is filled only in `loop`, after `record` in the same pass."""
    everywhere = _Additions(name, record)
    traversal.visit(function, everywhere)
    inside = _Additions(name, record)
    traversal.visit(loop.body, inside)
    if not everywhere.starts_empty or len(inside.order) < 2 or inside.order[0] is not record:
        return False
    return len(everywhere.order) == len(inside.order)


class _Additions(traversal.Visitor):
    """In source order, `record` and the calls adding to the list `name` (`name.append(x)`); whether `name`
    is bound to an empty list (`name = []`)."""

    def __init__(self, name: str, record: cst.CSTNode) -> None:
        self.name, self.record = name, record
        self.order: list[cst.CSTNode] = []
        self.starts_empty = False

    def visit_Assign(self, node: cst.Assign) -> None:
        if any(isinstance(t.target, cst.Name) and t.target.value == self.name for t in node.targets):
            self.starts_empty = isinstance(node.value, cst.List) and not node.value.elements

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        if node is self.record or (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name) and func.value.value == self.name
            and func.attr.value in ("append", "extend", "insert")
        ):
            self.order.append(node)


def _loops_after_guarded_record(function: cst.FunctionDef, records: list[cst.CSTNode]) -> set[cst.CSTNode]:
    """`if ids: log.record(...)` and after it `for sid in ids: store.drop(sid)`: the loop removes nothing
    unless `ids` held, and then the record was made first."""
    if not records:
        return set()
    wanted = set(map(id, records))
    tested: set[str] = set()  # names whose truth guards a record, in an `if` already left
    found: set[cst.CSTNode] = set()

    def holds_record(node: cst.CSTNode) -> bool:
        return id(node) in wanted or any(holds_record(child) for child in traversal.children(node))

    def walk(node: cst.CSTNode) -> None:
        if isinstance(node, (cst.FunctionDef, cst.ClassDef, cst.Lambda)) and node is not function:
            return
        if isinstance(node, cst.For) and isinstance(node.iter, cst.Name) and node.iter.value in tested:
            found.add(node)
        for child in traversal.children(node):
            walk(child)
        if isinstance(node, cst.If) and isinstance(node.test, cst.Name) and holds_record(node.body):
            tested.add(node.test.value)

    walk(function)
    return found


def _names_a_span_type(type_name: str, analysis) -> bool:
    """`Span`, `Message`, `BaseMessage`, `TextNode`: a short type name ending in a span noun."""
    parts = name_parts(type_name)
    return 0 < len(parts) <= 2 and analysis.is_span_name(parts[-1]) and parts[-1] not in _WEAK_NOUNS


def _is_full_slice(node: cst.BaseExpression) -> bool:
    """`x[:]`."""
    return (
        isinstance(node, cst.Subscript)
        and len(node.slice) == 1
        and isinstance(node.slice[0].slice, cst.Slice)
        and node.slice[0].slice.lower is None
        and node.slice[0].slice.upper is None
    )


def _slice_bounded(node: cst.CSTNode) -> bool:
    """`x[:-10]`, `x[a:b]`: a truncation, not a clear."""
    return isinstance(node, cst.Subscript) and any(isinstance(e.slice, cst.Slice) for e in node.slice) and not _is_full_slice(node)


def _arguments_mention(node: cst.CSTNode, words: tuple[str, ...]) -> bool:
    if isinstance(node, cst.Call):
        return any(mentions(a.value, words) for a in node.args[:1])
    if isinstance(node, cst.Subscript):
        return any(mentions(e.slice, words) for e in node.slice)
    return False


def _is_emptiness_test(test: cst.Comparison) -> bool:
    """`len(c) > 0`, `len(c) != 0`, `c != []`."""
    right = test.comparisons[-1].comparator
    return isinstance(right, cst.Integer) and right.value == "0" or isinstance(right, (cst.List, cst.Tuple)) and not right.elements
