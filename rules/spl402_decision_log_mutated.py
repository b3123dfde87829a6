"""SPL402: the decision log changed other than by appending."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterable
from dataclasses import dataclass

from spanlint.rules.analysis import callee_name, dotted_name, string_value
from spanlint.rules.traversal import descendants
from spanlint.rules.base import FunctionStateRule, Invalid, Valid
from spanlint.rules.aliases import ContainerAliases
from spanlint.rules.evidence import (
    access_root,
    is_log_name,
    chain_names,
    has_word,
    is_decision_log,
    is_editing_callee,
    is_filter_of,
    same_expression,
)
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import BUILDERS, EDITING_METHODS, ENTRY_ATTRIBUTES, name_parts
from spanlint.rules.prescan import (
    ASSIGNMENTS, FUNCTIONS, Prefilter, Scope, assignment_targets, deleted, has_phrase, last_name, walk,
)
from runtime_guard.vocabulary import Vocabulary
_PREDICATES = frozenset({"is", "should", "can", "needs", "has", "get"})
# Parameters of a log class's methods saying each entry records why (`add(action, node_id, reason)`).
_RATIONALE_PARAMS = frozenset({"reason", "rationale", "why", "justification", "because"})
# Methods of a file path that replace or delete the file (and `os.remove(path)`, `os.unlink(path)`):
# the log a class keeps in it is rewritten.
_FILE_REWRITES = frozenset({"write_text", "write_bytes", "unlink", "truncate"})
_FILE_CALLS = _FILE_REWRITES | {"open", "remove"}  # what the pre-filter looks at in a log class
# Methods of a key-value store (LangGraph's `BaseStore`, a Redis or document client) that write an item
# under a key, and those that delete one: a log class writing its entries to a store keeps them there.
_STORE_PUTS = frozenset({"put", "aput", "set", "upsert", "aupsert", "insert", "insert_one"})
_STORE_DELETES = frozenset(
    {"delete", "adelete", "delete_one", "delete_many", "remove", "drop", "purge", "truncate", "clear"}
)
_INT_INDEX_NAMES = frozenset({"i", "j", "k", "n", "idx", "index", "pos", "position", "last", "first"})


class DecisionLogEditPrefilter(Prefilter):
    """Something that may be a decision log (`rules.evidence.is_decision_log`, loosened) assigned,
    deleted from or called on, or passed first to a call, in a function that does not build it.

    A method of a log-named class, or a function with a parameter annotated as a log, may name
    its log by any name: all of its expressions are looked at. A local bound to a log
    (`entries = self.audit_log.entries`, tuple unpacking, walrus) and an attribute the file binds
    to a log class (`self.book = DecisionLog()`) are logs too: statements are decided once all
    bindings are seen, and lines naming those names get their expressions looked at.
    """

    shape = "decision-log-edit"
    statements = (*ASSIGNMENTS, ast.Delete, ast.If, ast.While, ast.For)
    expressions = (ast.Call,)

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self.log_phrases = tuple(tuple(name_parts(n)) for n in self.vocabulary.decision_log_names if name_parts(n))
        self.log_starts = frozenset(phrase[0] for phrase in self.log_phrases)
        self.log_attributes: set[str] = set()  # `book` for `self.book = DecisionLog()`
        self.pending: list[tuple[ast.AST, Scope]] = []  # statements decided in `statements_done`

    def words(self) -> frozenset[str]:
        return self.log_starts

    def may_apply(self) -> bool:
        """Every mark starts from a name holding a decision-log phrase, whose first word the text holds,
        or from a class named as a log (`_names_log_class`)."""
        lowered = self.scan.lowered
        return any(start in lowered for start in self.log_starts) or _names_log_class(self.scan.source)

    def walks_whole(self, scope: Scope) -> bool:
        return self._log_class(scope) or self._has_log_params(scope)

    def statement(self, node: ast.AST, scope: Scope) -> None:
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and isinstance(node.value, ast.Call):
            if self._is_log_name(last_name(node.value)):
                self.log_attributes.update(
                    t.attr for t in assignment_targets(node) if isinstance(t, ast.Attribute)
                )
        if scope.node is None or scope.node.name in BUILDERS:
            return
        bindings = scope.notes.setdefault("bindings", [])
        if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
            for target in assignment_targets(node):
                bindings.extend(_bound_pairs(target, node.value))
        for test in (node.test,) if isinstance(node, (ast.If, ast.While)) else ():
            bindings.extend((n.target.id, n.value) for n in walk(test) if isinstance(n, ast.NamedExpr))
        if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
            bindings.append((node.target.id, node.iter))  # an entry of the log iterated
        if isinstance(node, (ast.Delete, ast.Assign, ast.AnnAssign, ast.AugAssign)):
            self.pending.append((node, scope))

    def statements_done(self, scopes: list[Scope]) -> None:
        for scope in scopes:
            aliases: set[str] = scope.notes.setdefault("aliases", set())
            bindings = scope.notes.get("bindings", [])
            while True:  # chains of aliases, bound in any order
                found = {name for name, value in bindings if name not in aliases and self._log_like(value, scope)}
                if not found:
                    break
                aliases |= found
            self.scan.extra_words |= aliases
        self.scan.extra_words |= self.log_attributes
        for node, scope in self.pending:
            if isinstance(node, ast.Delete):
                if any(isinstance(t, ast.Subscript) and self._log_like(t.value, scope) for t in deleted(node)):
                    self.mark(node)
            elif any(self._edits_log(target, scope) for target in assignment_targets(node)):
                self.mark(node)

    def expression(self, node: ast.AST, scope: Scope) -> None:
        if scope.node is None or scope.node.name in BUILDERS:
            return
        func = node.func
        if (isinstance(func, ast.Attribute) and self._log_like(func.value, scope)) or (
            node.args and self._log_like(node.args[0], scope)
        ) or (self._log_class(scope) and last_name(node) in (_FILE_CALLS | _STORE_PUTS | _STORE_DELETES)):
            self.mark(node)

    def _edits_log(self, target: ast.expr, scope: Scope) -> bool:
        if isinstance(target, ast.Subscript):
            return self._log_like(target.value, scope)
        if isinstance(target, ast.Attribute):
            return self._log_like(target, scope) or self._log_like(target.value, scope)
        return False

    def _log_like(self, expr: ast.expr, scope: Scope) -> bool:
        """An attribute/item chain that may be a decision log: it ends in a log name, or in an
        entries attribute of a log-named owner, of `self` in a log-named class or of a parameter;
        or it is a parameter, when one is annotated as a log."""
        names: list[str] = []  # last first
        node: ast.expr | None = expr
        while node is not None:
            if isinstance(node, ast.Attribute):
                names.append(node.attr)
                node = node.value
            elif isinstance(node, ast.Subscript):
                if isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
                    names.append(node.slice.value)
                node = node.value
            elif isinstance(node, ast.Name):
                names.append(node.id)
                node = None
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                node = node.func.value
            else:
                return False
        if not names:
            return False
        if self._is_log_name(names[0]) or names[-1] in scope.notes.get("aliases", ()) or (
            len(names) > 1 and names[0] in self.log_attributes
        ):
            return True
        if len(names) == 1:
            return self._has_log_params(scope)
        if names[0].lstrip("_") not in ENTRY_ATTRIBUTES:
            return False
        owner = names[1]
        if owner in self.log_attributes:
            return True
        if owner == "self":
            return self._log_class(scope)
        return self._is_log_name(owner) or (len(names) == 2 and self._has_log_params(scope))

    def _is_log_name(self, name: str) -> bool:
        parts = self.parts(name)
        return not self.log_starts.isdisjoint(parts) and has_phrase(parts, self.log_phrases)

    def _log_class(self, scope: Scope) -> bool:
        """A method of a class named like a decision log, or of a log recording reasons (`_reason_log`)."""
        owner = scope.owner
        if owner is None:
            return False
        found = scope.notes.get("log_class")
        if found is None:
            found = scope.notes["log_class"] = self._is_log_name(owner.name) or _reason_log(
                owner.name,
                (a.arg for f in owner.body if isinstance(f, FUNCTIONS) for a in (*f.args.args, *f.args.kwonlyargs)),
            )
        return found

    def _has_log_params(self, scope: Scope) -> bool:
        found = scope.notes.get("log_params")
        if found is None:
            assert scope.node is not None
            args = scope.node.args
            annotations = [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation]
            words = [
                word
                for annotation in annotations
                for node in walk(annotation)
                for word in (
                    [node.id] if isinstance(node, ast.Name) else [node.attr] if isinstance(node, ast.Attribute)
                    else re.findall(r"\w+", node.value) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    else []
                )
            ]
            found = scope.notes["log_params"] = any(self._is_log_name(w) for w in words)
        return found


class DecisionLogMutated(FunctionStateRule[set[str]]):
    code = "SPL402"
    name = "decision-log-mutated"
    summary = "Decision log edited other than by appending"
    message = "Decision log `{log}` mutated by {how}"
    help = "Append an entry that corrects it instead: a decision log is append-only"
    prefilter = DecisionLogEditPrefilter
    local_to_definitions = True
    docs = """
## What it does
Finds code that changes a decision log other than by appending to it: `pop`, `remove`, `clear`,
`insert`, `sort`, `reverse`, `del log[i]`, item or slice assignment, reassigning its entries, or
handing it to a prune, compact or summarize call, editing an entry (`log[-1]["reason"] = ...`, or
through the loop variable of `for row in log:`). A decision log is any name whose word parts
match the vocabulary's `decision_log_names` (`decision_log`, `audit_log.entries`, `self._ledger`),
and, inside a class named as a log (`...Log`) whose methods take a reason (`class CurationLog` with
`add(self, action, node_id, reason)`), the list of entries it keeps. In a log class that appends its
entries to a file (`open(self.path, "a")`), rewriting or deleting that file (`self.path.write_text(...)`,
`open(self.path, "w")`, `self.path.unlink()`) edits the log too; so, in a log class that puts its
entries in a key-value store (`self._store.aput(ns, entry_id, entry)`, LangGraph's `BaseStore`), does
deleting from that store or putting under a key the method was given, outside a method that adds.

## Why is this bad?
The decision log is the evidence of why spans were pruned or rewritten. Editing it after the
fact destroys that evidence: a later reviewer sees a history that never happened.

## Example
```python
def compact_history(self):
    self.decision_log.entries = self.decision_log.entries[-100:]
```

## Use instead
Keep the log append-only; archive or roll it over to a new log instead of editing it.
```python
def compact_history(self):
    self.archive.store(self.decision_log)
    self.decision_log = DecisionLog(previous=self.decision_log.id)
```

## Fix safety
No fix: what to keep is a policy decision.
"""
    valid = [
        Valid("def prune(self, span):\n    self.decision_log.append(('prune', span.id))\n"),
        Valid(
            "import logging\nlog = logging.getLogger(__name__)\n\n"
            "def drop(items):\n    log.info('dropping %d', len(items))\n    items.pop()\n"
        ),
        Valid(
            "class Ledger:\n    def __init__(self):\n        self.decision_log = []\n"
            "        self.decision_log.insert(0, 'genesis')\n"
        ),
        Valid(
            "def describe(node):\n    provenance = {}\n    provenance['source'] = node.source\n"
            "    provenance.pop('tmp', None)\n    return provenance\n"
        ),
        Valid(
            "async def review(self, decisions):\n    for decision in list(decisions):\n"
            "        await self.audit_log.record(decision)\n"
        ),
        Valid(
            "from dataclasses import dataclass, field\n\n@dataclass\nclass Audit:\n"
            "    entries: list = field(default_factory=list)\n\n    def add(self, entry):\n"
            "        self.entries.append(entry)\n"
        ),
        Valid("def filesystem_sync(fs):\n    fs.journal_file.truncate(0)\n    fs.journal_path.unlink()\n"),
        Valid("def render(audit_log):\n    return sorted(audit_log.entries, key=lambda e: e.at)\n"),
        Valid("def record(self, span, reason):\n    self.decisions[span.id] = reason\n"),
        Valid(  # a log that records reasons, only appended to and read into new lists
            "class ReviewLog:\n"
            "    def __init__(self):\n"
            "        self.entries = []\n\n"
            "    def note(self, item_id, verdict, rationale):\n"
            "        self.entries.append({'item': item_id, 'verdict': verdict, 'why': rationale})\n\n"
            "    def about(self, item_id):\n"
            "        return [e for e in self.entries if e['item'] == item_id]\n\n"
            "    def anonymized(self):\n"
            "        out = []\n"
            "        for entry in self.entries:\n"
            "            copy = dict(entry)\n"
            "            copy['who'] = None\n"
            "            out.append(copy)\n"
            "        return out\n"
        ),
        Valid(  # a chat transcript named a log, with no reasons in it: trimming it is not editing a decision log
            "class ChatLog:\n"
            "    def __init__(self):\n"
            "        self.lines = []\n\n"
            "    def add(self, role, text):\n"
            "        self.lines.append((role, text))\n\n"
            "    def trim(self, keep):\n"
            "        self.lines = self.lines[-keep:]\n"
        ),
        Valid(  # the journal's file created empty when the journal is made
            "class EditJournal:\n"
            "    def __init__(self, path):\n"
            "        self.path = path\n"
            "        open(self.path, 'w').close()\n\n"
            "    def add(self, line):\n"
            "        with open(self.path, 'a') as fh:\n"
            "            fh.write(line)\n"
        ),
        Valid(  # a file-backed journal appended to; the file it exports to is another one
            "from pathlib import Path\n\n\n"
            "class EditJournal:\n"
            "    def __init__(self, path, export_path):\n"
            "        self.path, self.export_path = Path(path), Path(export_path)\n\n"
            "    def add(self, line):\n"
            "        with open(self.path, 'a') as fh:\n"
            "            fh.write(line + '\\n')\n\n"
            "    def export(self):\n"
            "        lines = self.path.read_text().splitlines()\n"
            "        self.export_path.write_text('\\n'.join(lines[-100:]))\n"
        ),
        # A store-backed log that only adds entries, under ids it makes or is given by the recorder.
        Valid(
            "import uuid\n\nclass DecisionLog:\n    def __init__(self, store, ns):\n        self._store, self._ns = store, ns\n\n"
            "    async def record(self, op, rationale):\n        entry_id = uuid.uuid4().hex\n"
            "        await self._store.aput(self._ns, entry_id, {\"op\": op, \"rationale\": rationale})\n        return entry_id\n\n"
            "    async def record_many(self, decisions):\n        for entry_id, d in decisions.items():\n"
            "            await self._store.aput(self._ns, entry_id, d)\n"
        ),
    ]
    invalid = [
        Invalid("def undo(self):\n    self.decision_log.pop()\n", line=2, column=5, message="Decision log `self.decision_log` mutated by `.pop()`"),
        Invalid("def forget(audit_log, i):\n    del audit_log.entries[i]\n", line=2, column=5, message="Decision log `audit_log.entries` mutated by `del`"),
        Invalid(
            "class Agent:\n    def compact(self):\n"
            "        self.decision_log.entries = self.decision_log.entries[-100:]\n",
            line=3,
            column=9,
            message="Decision log `self.decision_log.entries` mutated by reassigning its entries",
        ),
        Invalid("async def tidy(self):\n    await self.store.save()\n    self.ledger.sort(key=lambda e: e.at)\n", line=3, column=5, message="Decision log `self.ledger` mutated by `.sort()`"),
        Invalid("def rewrite(journal, entry):\n    journal[0] = entry\n", line=2, column=5, message="Decision log `journal` mutated by item assignment"),
        Invalid(  # an entry taken out by its sequence number (a position: `seq: int`) and edited
            "class DecisionLog:\n"
            "    def amend(self, seq: int, rationale: str) -> None:\n"
            "        entry = self._entries[seq]\n"
            "        entry.rationale = rationale\n",
            line=4, column=9, message="Decision log `self._entries` mutated by editing an entry",
        ),
        Invalid(
            "from pydantic import BaseModel\n\nclass Memory(BaseModel):\n    decisions: list[str] = []\n\n"
            "    def shrink(self):\n        self.decisions = prune(self.decisions, keep=10)\n",
            line=7,
            column=9,
            message="Decision log `self.decisions` mutated by rewriting it",
        ),
        Invalid("class AuditLog:\n    def rotate(self):\n        self.entries.clear()\n", line=3, column=9, message="Decision log `self.entries` mutated by `.clear()`"),
        Invalid(
            "def reorder(self, entry):\n    self.provenance.insert(0, entry)\n", line=2, column=5, 
        message="Decision log `self.provenance` mutated by `.insert()`"),
        Invalid("def squash(self):\n    summarize(self.audit_log)\n", line=2, column=5, message="Decision log `self.audit_log` mutated by `summarize()`"),
        Invalid(  # a log recording reasons under another name: an entry rewritten through the loop variable
            "class ReviewLog:\n"
            "    def __init__(self):\n"
            "        self.entries = []\n\n"
            "    def note(self, item_id, verdict, rationale):\n"
            "        self.entries.append({'item': item_id, 'verdict': verdict, 'why': rationale})\n\n"
            "    def overturn(self, item_id):\n"
            "        for entry in self.entries:\n"
            "            if entry['item'] == item_id:\n"
            "                entry['verdict'] = 'accepted'\n",
            line=11, column=17, message="Decision log `self.entries` mutated by editing an entry",
        ),
        Invalid(  # the same kind of log emptied
            "class EvictionLog:\n"
            "    def record(self, span_id: str, why: str) -> None:\n"
            "        self._records.append((span_id, why))\n\n"
            "    def reset(self) -> None:\n"
            "        self._records = []\n",
            line=6, column=9, message="Decision log `self._records` mutated by reassigning its entries",
        ),
        Invalid(  # a journal kept in a file, rewritten with only its newest lines
            "class EditJournal:\n"
            "    def add(self, line):\n"
            "        with open(self.file_path, 'a') as fh:\n"
            "            fh.write(line + '\\n')\n\n"
            "    def prune_old(self, keep):\n"
            "        with open(self.file_path) as fh:\n"
            "            kept = fh.readlines()[-keep:]\n"
            "        with open(self.file_path, mode='w') as fh:\n"
            "            fh.writelines(kept)\n",
            line=9, column=14, message="Decision log `self.file_path` mutated by rewriting its file",
        ),
        Invalid(  # the same journal deleted
            "class EditJournal:\n"
            "    def add(self, line):\n"
            "        with self.path.open('a', encoding='utf-8') as fh:\n"
            "            fh.write(line)\n\n"
            "    def reset(self):\n"
            "        self.path.unlink(missing_ok=True)\n",
            line=7, column=9, message="Decision log `self.path` mutated by rewriting its file",
        ),
        Invalid(  # a log recording reasons, kept in a file that is deleted
            "import os\n\n\n"
            "class EvictionLog:\n"
            "    def record(self, span_id, why):\n"
            "        with open(self.log_file, 'a') as out:\n"
            "            out.write(f'{span_id}\\t{why}\\n')\n\n"
            "    def rotate(self):\n"
            "        os.remove(self.log_file)\n",
            line=10, column=9, message="Decision log `self.log_file` mutated by rewriting its file",
        ),
        # A log kept in a key-value store (LangGraph's `BaseStore`): an entry written over, old entries deleted.
        Invalid(
            "import uuid\n\nclass DecisionLog:\n    def __init__(self, store, ns):\n        self._store, self._ns = store, ns\n\n"
            "    async def record(self, op, rationale):\n        entry_id = uuid.uuid4().hex\n"
            "        await self._store.aput(self._ns, entry_id, {\"op\": op, \"rationale\": rationale})\n        return entry_id\n\n"
            "    async def annotate(self, entry_id, note):\n        item = await self._store.aget(self._ns, entry_id)\n"
            "        await self._store.aput(self._ns, entry_id, {**item.value, \"note\": note})\n",
            line=14, column=15, message="Decision log `self._store` mutated by `.aput()` over an existing entry",
        ),
        Invalid(
            "import uuid\n\nclass DecisionLog:\n    def __init__(self, store, ns):\n        self._store, self._ns = store, ns\n\n"
            "    async def record(self, op, rationale):\n        entry_id = uuid.uuid4().hex\n"
            "        await self._store.aput(self._ns, entry_id, {\"op\": op, \"rationale\": rationale})\n        return entry_id\n\n"
            "    async def rotate(self, keep):\n        items = await self._store.asearch(self._ns)\n"
            "        for it in items[:-keep]:\n            await self._store.adelete(self._ns, it.key)\n",
            line=15, column=19, message="Decision log `self._store` mutated by `.adelete()` on its store",
        ),
    ]

    @classmethod
    def may_match(cls, source: str, vocabulary: Vocabulary) -> bool:
        return _log_text(vocabulary).search(source) is not None or _names_log_class(source)

    def __init__(self, context) -> None:
        super().__init__(context)
        self._covered: set[cst.CSTNode] = set()  # calls whose mutation is already reported at their statement
        self._discarded: set[cst.CSTNode] = set()  # calls that are whole statements
        self._aliases: list[ContainerAliases] = []  # of the enclosing functions, innermost last
        self._classes: list[_LogClass] = []  # the enclosing classes, innermost last
        self._entries: list[dict[str, cst.BaseExpression]] = []  # `row` of `for row in log`, per function

    def visit_ClassDef(self, node: cst.ClassDef) -> None:
        super().visit_ClassDef(node)
        self._classes.append(_LogClass.of(node, self.context.vocabulary))

    def leave_ClassDef(self, original_node: cst.ClassDef) -> None:
        self._classes.pop()
        super().leave_ClassDef(original_node)

    def _own_class(self) -> _LogClass | None:
        """The class of which the current function is a method."""
        facts = self.facts
        if facts is None or not self._classes or self._classes[-1].name != facts.self_class:
            return None
        return self._classes[-1]

    def start_function(self, node: cst.FunctionDef) -> set[str]:
        self._aliases.append(ContainerAliases.of(node, self.context.analysis.memo))
        self._entries.append({})
        return set()  # the function's own locals: names bound to something other than a log

    def finish_function(self, state: set[str], node: cst.FunctionDef) -> None:
        self._aliases.pop()
        self._entries.pop()

    # --- what counts as the log ----------------------------------------------------------------
    def _log(self, expr: cst.BaseExpression) -> bool:
        """`expr` is a decision log that outlives this function (not a local being built here)."""
        if self.function is None or self.function.name.value in BUILDERS:
            return False
        expr = self._aliases[-1].resolve(expr)
        if not (
            is_decision_log(expr, self.context.vocabulary, self.facts) or self._of_log_class(expr)
            or self._own_entries(expr)
        ):
            return False
        root = access_root(expr)
        return root is None or root not in self.state

    def _own_entries(self, expr: cst.BaseExpression) -> bool:
        """`self._rows` in a method of a log recording reasons (`_reason_log`)."""
        if not self._classes or not self._classes[-1].reasons:
            return False
        names = chain_names(expr)
        return len(names) == 2 and names[0] == "self" and names[1].lstrip("_") in ENTRY_ATTRIBUTES and (
            self._own_class() is not None
        )

    def _of_log_class(self, expr: cst.BaseExpression) -> bool:
        """`self.book` (or `self.book.entries`) where the tree says `book` holds a `DecisionLog`."""
        while isinstance(expr, cst.Subscript):
            expr = expr.value
        if isinstance(expr, cst.Attribute) and expr.attr.value.lstrip("_") in ENTRY_ATTRIBUTES:
            expr = expr.value
        known = self.context.analysis.known_class(expr, self.facts)
        return known is not None and is_log_name(known.name, self.context.vocabulary)

    # --- bindings --------------------------------------------------------------------------------
    def visit_Assign(self, node: cst.Assign) -> None:
        if self.function is None:
            return
        for target in node.targets:
            self._bind(target.target, node.value)
            self._check_write(node, target.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self.function is not None and node.value is not None:
            self._bind(node.target, node.value)
            self._check_write(node, node.target, node.value)

    def visit_For(self, node: cst.For) -> None:
        if self.function is None:
            return
        self._bind(node.target, None)
        if isinstance(node.target, cst.Name):
            entries = self._entries[-1]
            if is_filter_of(node.iter) is None and self._log(node.iter):
                entries[node.target.value] = node.iter  # `for row in self._rows:` each row is an entry
            else:
                entries.pop(node.target.value, None)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if self.function is not None and node.asname is not None:
            self._bind(node.asname.name, None)

    def _bind(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        """A local bound to anything but an existing log is the function's own (being built)."""
        if isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._bind(element.value, None)
            return
        if isinstance(target, cst.Name):
            aliases_log = value is not None and is_filter_of(value) is None and self._log(value)
            if not aliases_log:
                self.state.add(target.value)
            entries = self._entries[-1]
            if (
                isinstance(value, cst.Subscript) and _positional(value, self._int_params()) and not isinstance(value.slice[0].slice, cst.Slice)
                and self._log(value.value)
            ):
                entries[target.value] = value.value  # `entry = self._entries[seq]`: an entry of the log
            elif value is not None:
                entries.pop(target.value, None)

    # --- mutations ---------------------------------------------------------------------------------
    def _check_write(self, node: cst.CSTNode, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        entry = target.value if isinstance(target, (cst.Subscript, cst.Attribute)) else None
        iterated = self._entries[-1].get(entry.value) if isinstance(entry, cst.Name) else None
        if iterated is not None:
            self._flag(node, iterated, "editing an entry")  # `for row in log: row["editor"] = ...`
        elif isinstance(entry, cst.Subscript) and _positional(entry, self._int_params()) and self._log(entry.value):
            self._flag(node, entry.value, "editing an entry")  # `log[-1]["reason"] = ...`, `log[i].reason = ...`
        elif isinstance(target, cst.Subscript):
            if _positional(target, self._int_params()) and self._log(target.value):
                self._flag(node, target.value, "item assignment")
        elif isinstance(target, cst.Attribute) and not _appends(target, value):
            if target.attr.value.lstrip("_") in ENTRY_ATTRIBUTES and (self._log(target.value) or self._log(target)):
                self._flag(node, target, "reassigning its entries")
            elif self._log(target) and self._rewrites(target, value):
                self._flag(node, target, "rewriting it")
                self._covered.add(value)

    def _int_params(self) -> frozenset[str]:
        """The function's parameters declared as integers (`seq: int`): positions when they index a log."""
        facts = self.facts
        return frozenset(name for name, annotated in facts.params.items() if annotated == "int") if facts else frozenset()

    def _rewrites(self, log: cst.BaseExpression, value: cst.BaseExpression) -> bool:
        """`log = [e for e in log if ...]`, `log = log[-10:]`, `log = []`, `log = prune(log)`."""
        if isinstance(value, (cst.List, cst.Dict)) and not value.elements:
            return True
        kept = is_filter_of(value)
        if kept is not None:
            return same_expression(kept, log)
        if isinstance(value, cst.Call):
            return any(same_expression(a.value, log) for a in value.args) and self._editing_call(value)
        return False

    def visit_Del(self, node: cst.Del) -> None:
        targets = [e.value for e in node.target.elements] if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            if isinstance(target, cst.Subscript) and self._log(target.value):
                self._flag(node, target.value, "`del`")
                return

    def visit_Expr(self, node: cst.Expr) -> None:
        value = node.value.expression if isinstance(node.value, cst.Await) else node.value
        if isinstance(value, cst.Call):
            self._discarded.add(value)

    def visit_Call(self, node: cst.Call) -> None:
        if self.function is None or node in self._covered:
            return
        func = node.func
        in_place = node in self._discarded  # a result nobody keeps: the call works on its argument
        if isinstance(func, cst.Attribute) and self._log(func.value):
            method = func.attr.value
            if method in EDITING_METHODS or self._prunes(method) or (in_place and self._summarizes(method)):
                self._flag(node, func.value, f"`.{method}()`")
                return
        if in_place and node.args and self._log(node.args[0].value) and self._editing_call(node):
            self._flag(node, node.args[0].value, f"`{callee_name(node)}()`")
            return
        stored = self._stored_file(node)
        if stored is not None:
            self._flag(node, stored, "rewriting its file")
            return
        how = self._store_edit(node)
        if how is not None:
            self._flag(node, func.value, how)

    def _store_edit(self, call: cst.Call) -> str | None:
        """In a log class that puts its entries in a store at `self.<attr>` (`_LogClass.stores`): a delete
        from that store, or a put under a key the method was given (an existing entry's id) in a method
        other than one that adds (`record(entry_id, ...)`), not under one it made (`uuid4().hex`)."""
        own = self._own_class()
        func = call.func
        if own is None or not own.stores or self.function is None or self.function.name.value in BUILDERS:
            return None
        if not (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute)
            and isinstance(func.value.value, cst.Name) and func.value.value.value == "self"
            and func.value.attr.value in own.stores
        ):
            return None
        method = func.attr.value
        if method in _STORE_DELETES:
            return f"`.{method}()` on its store"
        adding = name_parts(self.function.name.value)[:1] in (["add"], ["note"], *([m] for m in self.context.vocabulary.record_methods))
        params = set(self.facts.params) - {"self"} if self.facts is not None else set()
        if method in _STORE_PUTS and not adding and any(isinstance(a.value, cst.Name) and a.value.value in params for a in call.args[:2]):
            return f"`.{method}()` over an existing entry"
        return None

    def _stored_file(self, call: cst.Call) -> cst.BaseExpression | None:
        """`self.path.write_text(...)`, `open(self.path, "w")` in a log class that appends to the file at
        `self.path` (`_LogClass.files`): the file written is the log."""
        if not self._classes or not self._classes[-1].files:
            return None
        own = self._own_class()
        if own is None or self.function is None or self.function.name.value in BUILDERS:
            return None
        func = call.func
        if dotted_name(func) in ("os.remove", "os.unlink") and call.args:
            path = call.args[0].value
        elif isinstance(func, cst.Attribute) and (
            func.attr.value in _FILE_REWRITES or (func.attr.value == "open" and "w" in (_mode(call, 0) or ""))
        ):
            path = func.value
        elif callee_name(call) == "open" and call.args and "w" in (_mode(call, 1) or ""):
            path = call.args[0].value
        else:
            return None
        names = chain_names(path)
        return path if len(names) == 2 and names[0] == "self" and names[1] in own.files else None

    def _editing_call(self, call: cst.Call) -> bool:
        name = callee_name(call)
        return bool(name) and is_editing_callee(name, self.context.vocabulary)  # type: ignore[arg-type]

    def _prunes(self, name: str) -> bool:
        return has_word(name, self.context.vocabulary.prune_words) and name_parts(name)[0] not in _PREDICATES

    def _summarizes(self, name: str) -> bool:
        return has_word(name, self.context.vocabulary.summarize_words)

    def _flag(self, node: cst.CSTNode, log: cst.BaseExpression, how: str) -> None:
        shown = ".".join(chain_names(log)) or self.context.module.code_for_node(log)
        self.report(node, self.message.format(log=shown, how=how))


@dataclass(frozen=True)
class _LogClass:
    """What a class's own methods say about it being a decision log."""

    name: str
    reasons: bool = False  # it records reasons (`_reason_log`)
    files: frozenset[str] = frozenset()  # attributes of `self` naming the file it appends entries to
    stores: frozenset[str] = frozenset()  # attributes of `self` holding the store it puts entries in

    @classmethod
    def of(cls, node: cst.ClassDef, vocabulary: Vocabulary) -> "_LogClass":
        name = node.name.value
        named = is_log_name(name, vocabulary)
        if not (named or name.endswith("Log")):
            return cls(name)
        methods = [m for m in node.body.body if isinstance(m, cst.FunctionDef)]
        reasons = _reason_log(name, (p.name.value for m in methods for p in (*m.params.params, *m.params.kwonly_params)))
        files = frozenset(
            names[1]
            for m in methods
            for call in descendants(m)
            if isinstance(call, cst.Call)
            for names in [_appended_file(call)]
            if names
        ) if named or reasons else frozenset()
        stores = frozenset(
            call.func.value.attr.value
            for m in methods
            for call in descendants(m)
            if isinstance(call, cst.Call) and isinstance(call.func, cst.Attribute) and call.func.attr.value in _STORE_PUTS
            and isinstance(call.func.value, cst.Attribute) and isinstance(call.func.value.value, cst.Name)
            and call.func.value.value.value == "self"
        ) if named or reasons else frozenset()
        return cls(name, reasons, files, stores)


def _appended_file(call: cst.Call) -> list[str]:
    """`["self", "path"]` for `self.path.open("a")` and `open(self.path, "a")`."""
    func = call.func
    if isinstance(func, cst.Attribute) and func.attr.value == "open" and _mode(call, 0) == "a":
        names = chain_names(func.value)
    elif callee_name(call) == "open" and call.args and _mode(call, 1) == "a":
        names = chain_names(call.args[0].value)
    else:
        return []
    return names if len(names) == 2 and names[0] == "self" else []


def _mode(call: cst.Call, position: int) -> str | None:
    """The mode an `open` call passes (`"a"`, `"w"`), by position or keyword; None when not a literal."""
    for index, arg in enumerate(call.args):
        if (arg.keyword is not None and arg.keyword.value == "mode") or (arg.keyword is None and index == position):
            mode = string_value(arg.value)
            return mode.replace("b", "").replace("t", "").replace("+", "") if mode is not None else None
    return None


def _reason_log(class_name: str, params: Iterable[str]) -> bool:
    """A class named as a log (`CurationLog`, `ReviewLog`: what `_names_log_class` finds in the text) whose
    methods take a reason (`add(action, node_id, reason)`): its entries say why, a decision log by another name."""
    return class_name.endswith("Log") and not _RATIONALE_PARAMS.isdisjoint(params)


def _bound_pairs(target: ast.expr, value: ast.expr) -> list[tuple[str, ast.expr]]:
    """(name, value) for `x = v` and each element of `a, b = u, v`."""
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, (ast.Tuple, ast.List)) and len(value.elts) == len(target.elts):
        return [pair for t, v in zip(target.elts, value.elts) for pair in _bound_pairs(t, v)]
    return []


def _positional(target: cst.Subscript, int_names: frozenset[str] = frozenset()) -> bool:
    """`log[0]`, `log[-1]`, `log[i]`, `log[a:b]`, `log[seq]` with `seq` among `int_names`: a position,
    not a new key."""
    for element in target.slice:
        if isinstance(element.slice, cst.Slice):
            return True
        key = element.slice.value
        if isinstance(key, cst.UnaryOperation):
            key = key.expression
        if isinstance(key, cst.Integer):
            return True
        if isinstance(key, cst.Name) and (
            key.value in _INT_INDEX_NAMES or key.value in int_names or key.value.endswith(("_idx", "_index"))
        ):
            return True
    return False


def _appends(target: cst.BaseExpression, value: cst.BaseExpression) -> bool:
    """`log = log + [e]`, `log = [*log, e]`: appending by reassignment."""
    if isinstance(value, cst.BinaryOperation) and isinstance(value.operator, cst.Add):
        return same_expression(value.left, target)
    if isinstance(value, cst.List) and value.elements:
        first = value.elements[0]
        return isinstance(first, cst.StarredElement) and same_expression(first.value, target)
    return False


_LOG_TEXT: dict[tuple[str, ...], re.Pattern[str]] = {}
_LOG_CLASS = re.compile(r"\bclass\s+\w*Log\b")


def _names_log_class(source: str) -> bool:
    """The text defines a class `_reason_log` may take for a log (`class CurationLog:`, `class EditLog(Base):`)."""
    return "Log" in source and ("Log:" in source or "Log(" in source) and _LOG_CLASS.search(source) is not None


def _log_text(vocabulary: Vocabulary) -> re.Pattern[str]:
    """Matches the first word part of every decision-log name (case-insensitive)."""
    words = tuple(sorted({name_parts(w)[0] for w in vocabulary.decision_log_names if name_parts(w)}))
    pattern = _LOG_TEXT.get(words)
    if pattern is None:
        pattern = _LOG_TEXT[words] = re.compile("|".join(re.escape(w) for w in words) or "(?!)", re.IGNORECASE)
    return pattern
