"""In-place content writes on spans, shared by SPL101-SPL104.

`content_writes(context, facts)` lists, once per function and for every rule, the statements that
rewrite a span-like object's content while it keeps its id: attribute (augmented) assignment,
`setattr`/`object.__setattr__`, `__dict__[...]`, item assignment or deletion and mutating methods
on list-valued content, content setter methods, and copies with new content stored back under the
same id. Exempt: constructors (`__init__`, `__post_init__`, `__new__`, validators), objects built
or copied in the function, tombstone writes (a prune, not a rewrite), and a method's writes to
`self` or what it holds when no one else holds `self` (`SpanAnalysis.self_unheld`: the tree calls
the method only on objects their callers built, or its class is a private builder).

`RewriteRule` is the base of those rules: it calls `check(write)` for each write of each function.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass
from typing import Iterable

from spanlint.rules import flow, sql
from spanlint.rules.aliases import ContainerAliases
from spanlint.rules.analysis import FunctionFacts, SpanAnalysis, callee_name, dotted_name, root_name, string_key, string_value
from spanlint.rules.base import FileContext, ScopedRule
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import (
    CONSTRUCTORS, COPY_CALLS, IN_PLACE_METHODS, METADATA_FIELDS, VALIDATOR_DECORATORS, content_write_fields, derived_family,
    name_parts, tracking_words,
)
from spanlint.rules.prescan import FunctionNode, Prefilter, Scope, last_dotted_part, last_name, match_lines, own_nodes, spans_line
from spanlint.rules.project import SpanClass
from spanlint.rules import traversal
from runtime_guard.vocabulary import Vocabulary


@dataclass(frozen=True)
class ContentWrite:
    """One in-place rewrite of a span's content."""

    statement: cst.BaseSmallStatement  # where it is reported and where the flow analysis anchors it
    line: cst.SimpleStatementLine | cst.SimpleStatementSuite  # the line holding `statement`
    owner: cst.BaseExpression  # the span written
    owner_code: str
    field: str | None  # the content field; None for a setter method on a class with no known field
    span_class: SpanClass | None  # the owner's class, when the tree says which
    # for a copy stored back under the same id: the copying call (or `{**span, "content": ...}`)
    copy: cst.Call | cst.Dict | None = None
    item: bool = False  # the span is a mapping (`TypedDict`) and its fields are items: `span["content"]`

    def describe(self) -> str:
        return f"`{self.access(self.field)}`" if self.field else f"`{self.owner_code}`'s content"

    def access(self, field: str) -> str:
        """The code reading `field` of the written span: `s.version`, or `s["version"]` for a mapping."""
        return f'{self.owner_code}["{field}"]' if self.item else f"{self.owner_code}.{field}"

    def field_target(self, field: str) -> cst.BaseAssignTargetExpression:
        """`owner.<field>` (or `owner["<field>"]`) as an assignment target."""
        if self.item:
            index = cst.SubscriptElement(cst.Index(cst.SimpleString(f'"{field}"')))
            return cst.Subscript(value=self.owner.deep_clone(), slice=[index])
        return cst.Attribute(value=self.owner.deep_clone(), attr=cst.Name(field))

    def rewritten(self) -> str:
        """`<what> rewritten in place`, or `<what> replaced by a copy under the same id`."""
        how = "replaced by a copy under the same id" if self.copy is not None else "rewritten in place"
        return f"{self.describe()} {how}"


def content_writes(context: FileContext, facts: FunctionFacts) -> list[ContentWrite]:
    """The content writes of one function (not of the functions nested in it), computed once."""
    analysis = context.analysis
    key = ("content_writes", facts.node)
    found = analysis.memo.get(key)
    if found is None:
        found = [] if _exempt_function(facts.node) else _WriteCollector(analysis, facts).collect()
        analysis.memo[key] = found
    return found


def _exempt_function(function: cst.FunctionDef) -> bool:
    if function.name.value in CONSTRUCTORS:
        return True
    for decorator in function.decorators:
        expr = decorator.decorator
        if isinstance(expr, cst.Call):
            expr = expr.func
        name = dotted_name(expr) or ""
        if name.split(".")[-1] in VALIDATOR_DECORATORS:
            return True
    return False


class _WriteCollector(traversal.FunctionBodyVisitor):
    def __init__(self, analysis: SpanAnalysis, facts: FunctionFacts) -> None:
        super().__init__()
        self.analysis = analysis
        self.facts = facts
        self.vocabulary = analysis.vocabulary
        self.content_fields = frozenset(content_write_fields(analysis.vocabulary))
        self.writes: list[ContentWrite] = []
        self._line: cst.SimpleStatementLine | cst.SimpleStatementSuite | None = None
        self._small: cst.BaseSmallStatement | None = None
        self._bound: dict[str, cst.BaseExpression] = {}  # local -> what it was last bound to
        # locals built here and then handed to what outlives the call (`self.window.append(reply)`):
        # from there on, others hold them, and a content write is an in-place rewrite
        self._published: set[str] = set()
        # locals started empty that collect copies of spans (`updates.append(m.model_copy(update=...))`)
        self._collected: dict[str, list[cst.Call]] = {}
        self._elements: dict[str, cst.BaseExpression] = {}  # loop variable -> what the loop runs over

    def collect(self) -> list[ContentWrite]:
        traversal.visit(self.facts.node.body, self)
        return self.writes

    # --- statements ------------------------------------------------------------------------
    def visit_SimpleStatementLine(self, node: cst.SimpleStatementLine) -> None:
        self._line = node

    def visit_SimpleStatementSuite(self, node: cst.SimpleStatementSuite) -> None:
        self._line = node

    def on_visit(self, node: cst.CSTNode) -> bool:
        if isinstance(node, cst.BaseSmallStatement):
            self._small = node
        return super().on_visit(node)

    def visit_For(self, node: cst.For) -> None:
        target, iterable = node.target, node.iter
        if isinstance(iterable, cst.Call) and callee_name(iterable) == "enumerate" and iterable.args:
            iterable = iterable.args[0].value
            if isinstance(target, cst.Tuple) and len(target.elements) == 2:
                target = target.elements[1].value
        if isinstance(target, cst.Name):
            self._elements[target.value] = iterable

    # --- write forms -----------------------------------------------------------------------
    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._target(node.target, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if node.value is not None:
            self._target(node.target, node.value)

    def visit_Del(self, node: cst.Del) -> None:
        targets = node.target.elements if isinstance(node.target, cst.Tuple) else [node.target]
        for target in targets:
            expr = target.value if isinstance(target, cst.Element) else target
            if isinstance(expr, cst.Subscript):
                self._target(expr, None)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        self._publish(node)
        self._collect_copy(node)
        self._copy_put_back(node)
        self._copies_updated(node)
        called = dotted_name(func) or ""
        args = node.args
        if (called == "setattr" or called.endswith(".__setattr__")) and len(args) >= 3:
            field = string_value(args[1].value)
            if field in self.content_fields:
                self._add(args[0].value, field, args[2].value)
            return
        if not isinstance(func, cst.Attribute):
            self._rebuilt(node)
            return
        method = func.attr.value
        if method in IN_PLACE_METHODS and isinstance(func.value, cst.Attribute) and func.value.attr.value in self.content_fields:
            value = args[0].value if args else None
            self._add(func.value.value, func.value.attr.value, value)
        elif method == "update" and (field := next((k for k in _updated_keys(node) if k in self.content_fields), None)):
            known = self.analysis.known_class(func.value, self.facts)
            if known is not None and known.is_span and known.mapping:  # `span.update(text=cleaned)` on a mapping span
                self._add(func.value, field, _updated_keys(node)[field], item=True)
        elif method in self.vocabulary.content_setters:
            owner = func.value
            known = self.analysis.class_of(owner, self.facts)
            field = known.content_fields[0] if known is not None and known.content_fields else None
            self._add(owner, field, args[0].value if args else None, setter=True)

    def _add_record(self, owner: cst.BaseExpression, field: str, value: cst.BaseExpression | None) -> None:
        """A content item of a plain dict record (`SpanAnalysis.dict_record`) written in place."""
        record = self.analysis.dict_record(owner, self.facts, field)
        if record is None or self._small is None or self._line is None or self.facts.is_built(owner.value):
            return
        if value is not None and self.analysis.is_tombstone(value):
            return
        self.writes.append(ContentWrite(
            self._small, self._line, owner, self.analysis.module.code_for_node(owner), field, record, None, True,
        ))

    def _held_in(self, owner: cst.BaseExpression) -> tuple[cst.BaseExpression, SpanClass, str] | None:
        """`span.message` (or `msg` bound to it), where `span`'s class keeps its content in a message-like
        field (`TurnSpan(span_id, message: ChatMessage, version, content_hash)`) and tracks it with a
        version or hash, or has metadata that may (CAMEL's `MemoryRecord(uuid, message, extra_info)`): the
        span, its class and that field."""
        if isinstance(owner, cst.Name) and isinstance(self._bound.get(owner.value), cst.Attribute):
            owner = self._bound[owner.value]
        held = self.analysis.holder_of(owner, self.facts)
        if held is None:
            return None
        known = held[1]
        return held if known.version_fields or known.hash_fields or not known.fields.isdisjoint(METADATA_FIELDS) else None

    def _part_of(self, owner: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
        """For a part of a span's content (`part` in `for part in msg.content`, `msg.content[0]`, or a
        local bound to it), the span and its content field: writing the part rewrites the span
        (Letta's `TextContent` parts, LangChain content blocks, LlamaIndex `blocks`)."""
        whole: cst.BaseExpression | None = None
        if isinstance(owner, cst.Name):
            whole = self._elements.get(owner.value)
            bound = self._bound.get(owner.value)
            if whole is None and isinstance(bound, cst.Subscript):
                whole = bound.value
        elif isinstance(owner, cst.Subscript):
            whole = owner.value
        if not isinstance(whole, cst.Attribute) or whole.attr.value not in self.content_fields:
            return None
        if self.analysis.class_of(owner, self.facts) is not None:
            return None  # a span kept in another's content (`self.messages[i]`): its own writes are its own
        known = self.analysis.class_of(whole.value, self.facts)
        field = whole.attr.value
        return (whole.value, field) if known is not None and field in known.content_fields else None

    def _publish(self, call: cst.Call) -> None:
        """`self.window.append(reply)`, `history.add(msg)` on a parameter: a built local given to a container
        the caller or the object holds."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _PUBLISHING_METHODS):
            return
        root = root_name(func.value)
        if root is None or not (root == "self" or root in self.facts.params):
            return
        self._published.update(
            a.value.value for a in call.args if isinstance(a.value, cst.Name) and self.facts.is_built(a.value.value)
        )

    def _target(self, target: cst.BaseExpression, value: cst.BaseExpression | None) -> None:
        if isinstance(target, cst.Attribute) and target.attr.value in self.content_fields:
            self._add(target.value, target.attr.value, value)
        elif isinstance(target, cst.Subscript):
            container = target.value
            if isinstance(container, cst.Attribute) and container.attr.value in self.content_fields:
                self._add(container.value, container.attr.value, value)
            elif isinstance(container, cst.Attribute) and container.attr.value == "__dict__":
                field = string_value(target.slice[0].slice.value) if isinstance(target.slice[0].slice, cst.Index) else None
                if field in self.content_fields:
                    self._add(container.value, field, value)
            elif string_key(target) in self.content_fields and self._part_of(container) is not None:
                self._add(container, string_key(target), value)  # `block["text"] = x`, a part of `msg.content`
            elif string_key(target) in self.content_fields:
                known = self.analysis.known_class(container, self.facts)
                if known is None:  # known only by its name (`def redact(self, span)`: `span["content"] = ...`)
                    known = self.analysis.guessed_class(container, string_key(target))
                if known is not None and known.is_span and known.mapping:  # `span["content"] = ...` on a TypedDict span
                    self._add(container, string_key(target), value, item=True)
                elif known is None:  # `rec = self._rows.get(sid); rec["content"] = x`, its keys naming a version
                    self._add_record(container, string_key(target), value)

    def _stored_copy(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`store[s.span_id] = replace(s, content=x)` (or a local bound to that copy stored so): a copy
        with new content stored under the id of the span it copies. A copy given a new id is new."""
        if not isinstance(target, cst.Subscript):
            return
        if isinstance(value, cst.Name) and value.value in self.facts.copies:
            value = self.facts.copies[value.value]  # `m2 = m.model_copy(update=...)`; `msgs[i] = m2`
        if not isinstance(value, (cst.Call, cst.Dict)):
            return
        kept = self._keeps_id(value)
        if kept is None:
            return
        copied, field = kept
        key = target.slice[0].slice
        if isinstance(key, cst.Index) and self._same_id(copied, target, key.value):
            self._add(copied, field, _new_fields(value)[field], copy=value, item=isinstance(value, cst.Dict))

    def _keeps_id(self, copy: cst.Call | cst.Dict) -> tuple[cst.BaseExpression, str] | None:
        """For a copy with new content that sets no id (`m.model_copy(update={"content": x})`): the object
        copied and the content field set; None for another copy, or one given a new id."""
        copied = _copied_object(copy)
        if copied is None:
            return None
        fields = _new_fields(copy)
        field = next((f for f in fields if f in self.content_fields), None)
        known = self.analysis.known_class(copied, self.facts)
        ids = known.id_fields if known is not None and known.id_fields else self.vocabulary.id_fields
        return None if field is None or any(f in fields for f in ids) else (copied, field)

    def _copy_put_back(self, call: cst.Call) -> None:
        """`self._buffer.add(span.model_copy(update={"content": short}))`: a copy with new content and the
        same id handed to a keyed store the function was given or its object holds, which files it
        under that id in place of the span."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value in _KEYED_STORING_METHODS and len(call.args) == 1):
            return
        root = root_name(func.value)
        if root is None or not (root == "self" and not isinstance(func.value, cst.Name) or root in self.facts.params):
            return  # a store held by the object (`self._buffer`) or given to the function
        value = call.args[0].value
        if isinstance(value, cst.Name) and value.value in self.facts.copies:
            value = self.facts.copies[value.value]
        if not isinstance(value, cst.Call):
            return
        kept = self._keeps_id(value)
        if kept is not None:
            copied, field = kept
            self._add(copied, field, _new_fields(value)[field], copy=value)

    def _copies_updated(self, call: cst.Call) -> None:
        """`store.chunks.update({cid: replace(c, text=t) for cid, c in long.items()})`: copies with new content
        put back, each under the key of the object it copies (its key in what the comprehension iterates)."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "update" and len(call.args) == 1):
            return
        comp = call.args[0].value
        if not (isinstance(comp, cst.DictComp) and isinstance(comp.value, cst.Call) and comp.for_in.inner_for_in is None):
            return
        target, iterable = comp.for_in.target, comp.for_in.iter
        if not (isinstance(target, cst.Tuple) and len(target.elements) == 2 and isinstance(iterable, cst.Call)
                and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value == "items"):
            return
        key, item = (e.value for e in target.elements)
        kept = self._keeps_id(comp.value)
        if kept is None or not (isinstance(key, cst.Name) and isinstance(comp.key, cst.Name) and comp.key.value == key.value):
            return
        copied, field = kept
        if isinstance(copied, cst.Name) and isinstance(item, cst.Name) and copied.value == item.value:
            self._add(copied, field, _new_fields(comp.value)[field], copy=comp.value)

    def _collect_copy(self, call: cst.Call) -> None:
        """`updates.append(msg.model_copy(update={"content": clean}))` into a list the function started empty."""
        func = call.func
        if not (isinstance(func, cst.Attribute) and func.attr.value == "append" and isinstance(func.value, cst.Name)
                and func.value.value in self.facts.accumulators and len(call.args) == 1):
            return
        value = call.args[0].value
        if isinstance(value, cst.Name) and value.value in self.facts.copies:
            value = self.facts.copies[value.value]
        if isinstance(value, cst.Call) and _copied_object(value) is not None:
            self._collected.setdefault(func.value.value, []).append(value)

    def _messages_update(self, value: cst.BaseExpression) -> None:
        """`return {"messages": updates}` from a graph node: the state's reducer (`add_messages`) merges the
        messages by id, so a copy with new content under the same id replaces the original in place."""
        if isinstance(value, cst.IfExp):
            value = value.body  # `{"messages": updates} if updates else {}`
        if not isinstance(value, cst.Dict):
            return
        for element in value.elements:
            key = string_value(element.key) if isinstance(element, cst.DictElement) else None
            if key is None or not key.endswith("s") or not self.analysis.is_span_name(key[:-1]):
                continue
            if isinstance(element.value, cst.Name):
                for copy in self._collected.get(element.value.value, ()):
                    if (kept := self._keeps_id(copy)) is not None:
                        copied, field = kept
                        self._add(copied, field, _new_fields(copy)[field], copy=copy)

    def visit_Return(self, node: cst.Return) -> None:
        """`return replace(seg, body=shorten(seg.body))`: a copy of a span the function was given, its new
        content computed from the span's own (clipped, compressed, normalised), under the same id, handed
        back to the caller in its place. Judged only for a class that tracks its content (a version or a
        hash field): that copy is told apart by those fields, or by nothing. A copy carrying other text
        (`preview(turn, draft)`) may be a view of it."""
        value = node.value
        if value is not None:
            self._messages_update(value)
        if isinstance(value, cst.Name) and value.value in self.facts.copies:
            value = self.facts.copies[value.value]  # `out = replace(s, ...)`; `return out`
        if not isinstance(value, cst.Call):
            return
        copied = _copied_object(value)
        if not isinstance(copied, cst.Name) or copied.value not in self.facts.params or copied.value in ("self", "cls"):
            return
        fields = _new_fields(value)
        field = next((f for f in fields if f in self.content_fields), None)
        known = self.analysis.class_of(copied, self.facts)
        if field is None or known is None or not (known.version_fields or known.hash_fields):
            return
        if not any(f in fields for f in (known.id_fields or self.vocabulary.id_fields)) and self._reads_content(
            fields[field], copied.value, field, 3
        ):
            self._add(copied, field, fields[field], copy=value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._target(target.target, node.value)
            self._stored_copy(target.target, node.value)
            self._rebound_copy(target.target, node.value)
            if isinstance(target.target, cst.Name):
                self._bound[target.target.value] = node.value

    def _rebuilt(self, call: cst.Call) -> None:
        """`ToolMessage(content=mask(m.content), tool_call_id=m.tool_call_id, id=m.id)`: a new object of a
        span class built with the id of a span the function received and content computed from that
        span's own, handed on: a copy under the same id (a reducer or store merging by id swaps the
        content under it). Content carried over as it is (`HumanMessage(content=m.content, id=m.id)`)
        is a conversion, not a rewrite."""
        source = rebuilt_source(call, self.vocabulary)
        built = self.analysis.span_class(callee_name(call))
        if source is None or built is None or source.value in ("self", "cls") or self.facts.is_built(source.value):
            return
        fields = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
        field = next((f for f in fields if f in built.content_fields), None)
        if field is None:
            return
        if any(f in fields and root_name(fields[f]) != source.value for f in built.id_fields):
            return  # an id of its own as well (`PassageRecord(passage_id=pid, span_id=span.span_id, ...)`): a new object
        value = fields[field]
        carried = _uncopied(value)
        if isinstance(carried, cst.Attribute) and isinstance(carried.value, cst.Name) and carried.value.value == source.value:
            return
        if any(self._reads_content(value, source.value, f, 3) for f in self.content_fields):
            self._add(source, field, value, copy=call)

    def _rebound_copy(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        """`for d in documents: d = replace(d, content=d.content[:n]); out.append(d)`: a received span
        (a parameter, or a loop variable over one) replaced, under its own name, by a copy under the same
        id whose content is computed from its own, then collected into what the function hands on. Judged,
        as a returned copy is, only for a class that tracks its content or derives fields from it."""
        if not (isinstance(target, cst.Name) and isinstance(value, cst.Call)):
            return
        copied = _copied_object(value)
        name = target.value
        facts = self.facts
        if not isinstance(copied, cst.Name) or copied.value != name or name in ("self", "cls"):
            return
        if name not in facts.params and facts.loop_sources.get(name) not in facts.params:
            return
        if not any(name in collected for collected in facts.collected.values()):
            return
        fields = _new_fields(value)
        field = next((f for f in fields if f in self.content_fields), None)
        known = self.analysis.class_of(copied, facts)
        if field is None or known is None or not (known.version_fields or known.hash_fields or known.derived_fields):
            return
        if not any(f in fields for f in (known.id_fields or self.vocabulary.id_fields)) and self._reads_content(
            fields[field], name, field, 3
        ):
            self._add(copied, field, fields[field], copy=value, rebound=True)

    def _reads_content(self, value: cst.BaseExpression, span: str, field: str, depth: int) -> bool:
        """`value` reads `span.<field>`, itself or through the locals it names (`lines = t.text.split()`)."""
        stack: list[cst.CSTNode] = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, cst.Attribute) and node.attr.value == field and isinstance(node.value, cst.Name) \
                    and node.value.value == span:
                return True
            if isinstance(node, cst.Name) and depth > 0 and node.value in self._bound:
                if self._reads_content(self._bound[node.value], span, field, depth - 1):
                    return True
            stack.extend(traversal.children(node))
        return False

    def _same_id(self, copied: cst.BaseExpression, target: cst.Subscript, key: cst.BaseExpression) -> bool:
        """`target` (`store[key]`) is where the span `copied` was read from, or `key` is its id: the key
        it was read with (`x = spans[sid]` ... `spans[sid]`), `x.span_id`, or a local holding it."""
        code = self.analysis.module.code_for_node
        facts = self.facts
        owner_code = code(copied)
        if code(target) == owner_code or facts.alias_sources.get(owner_code) == code(target):
            return True
        same = {owner_code}
        if isinstance(copied, cst.Name):
            root = facts.aliases.get(copied.value, copied.value)
            same |= {root} | {name for name, source in facts.aliases.items() if source == root}
        key_code = code(key)
        if isinstance(key, cst.Name) and (facts.id_of.get(key.value) in same or any(facts.read_keys.get(o) == key.value for o in same)):
            return True
        return any(key_code in (f"{o}.{f}", f'{o}["{f}"]') for o in same for f in self.vocabulary.id_fields)

    def _add(
        self,
        owner: cst.BaseExpression,
        field: str | None,
        value: cst.BaseExpression | None,
        *,
        setter: bool = False,
        copy: cst.Call | None = None,
        item: bool = False,
        rebound: bool = False,
    ) -> None:
        """`rebound`: `owner` is a received span that the copy is being bound over (so it now counts as built)."""
        if self._small is None or self._line is None:
            return
        part = self._part_of(owner)
        if part is not None:  # `part.text = x` for a part of `msg.content`: the message's content changes
            self._add(*part, value, setter=setter, copy=copy, rebound=rebound)
            return
        analysis, facts = self.analysis, self.facts
        root = root_name(owner)
        built = facts.is_built(root) and not rebound and root not in self._published
        if root is None or built or (analysis.reads_self(root, facts) and analysis.self_unheld(facts)):
            return
        if value is not None and analysis.is_tombstone(value):
            return
        if value is not None and field is not None and _takes_out_only_built(value, owner, field, facts, analysis):
            return
        held = self._held_in(owner)
        if held is not None:  # `span.message.content = x`: the content of the span that holds the message
            holder, holder_class, holder_field = held
            self.writes.append(ContentWrite(
                self._small, self._line, holder, analysis.module.code_for_node(holder), holder_field, holder_class,
            ))
            return
        gate_field = field if not setter else None
        if not analysis.is_span_like(owner, facts, gate_field, content=field):
            return
        span_class = analysis.class_of(owner, facts)
        if span_class is None and analysis.known_class(owner, facts) is None:
            span_class = analysis.guessed_class(owner, field)
        if span_class is None and field is not None and field.startswith("_"):
            return  # `x._content`: content only of a class known to keep it there
        if span_class is not None and field is not None and not setter and field not in span_class.content_fields:
            span_class = analysis.project.subclass_declaring(span_class, field)
            if span_class is None:
                return  # a known span class whose content lives elsewhere: this attribute is not its content
        self.writes.append(
            ContentWrite(
                self._small, self._line, owner, analysis.module.code_for_node(owner), field, span_class, copy, item
            )
        )


# Methods that hand an object to a container: `window.append(msg)`, `history.add(msg)`, `queue.put(msg)`.
_PUBLISHING_METHODS = frozenset({"append", "appendleft", "add", "add_message", "add_messages", "insert", "put", "put_nowait"})
# Methods of a store that file what they are given under its id (`buffer.add(span)`, `store.upsert(doc)`).
_KEYED_STORING_METHODS = frozenset({"add", "put", "upsert", "store", "save", "replace", "set", "update_span", "write"})


def _takes_out_only_built(
    value: cst.BaseExpression, owner: cst.BaseExpression, field: str, facts: FunctionFacts, analysis: SpanAnalysis
) -> bool:
    """`msg.content = [b for b in msg.content if b.id != hint.id]`, `hint` built in this function: the write
    takes out only what this call put in, so the content is back to what holders saw before the call."""
    if not isinstance(value, cst.ListComp):
        return False
    loop = value.for_in
    if not isinstance(loop.target, cst.Name) or loop.inner_for_in is not None or len(loop.ifs) != 1:
        return False
    code = analysis.module.code_for_node
    if code(loop.iter) != f"{code(owner)}.{field}":
        return False
    test = loop.ifs[0].test
    if not isinstance(test, cst.Comparison) or len(test.comparisons) != 1:
        return False
    if not isinstance(test.comparisons[0].operator, (cst.NotEqual, cst.IsNot)):
        return False
    item = loop.target.value
    left, right = test.left, test.comparisons[0].comparator
    if root_name(right) == item:
        left, right = right, left
    if root_name(left) != item or root_name(right) in (None, item):
        return False
    same_attribute = (
        isinstance(left, cst.Attribute) and isinstance(right, cst.Attribute) and isinstance(right.value, cst.Name)
        and isinstance(left.value, cst.Name) and left.attr.value == right.attr.value
    )
    same_object = isinstance(left, cst.Name) and isinstance(right, cst.Name)
    return (same_attribute or same_object) and root_name(right) in facts.built_here


def _updated_keys(call: cst.Call) -> dict[str, cst.BaseExpression]:
    """The keys `m.update(text=t, rev=r)` or `m.update({"text": t})` sets, with their values."""
    found = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if call.args and call.args[0].keyword is None and isinstance(call.args[0].value, cst.Dict):
        found.update(
            (key, e.value) for e in call.args[0].value.elements
            if isinstance(e, cst.DictElement) and (key := string_value(e.key)) is not None
        )
    return found


def rebuilt_source(call: cst.Call, vocabulary: Vocabulary) -> cst.Name | None:
    """`m` for a constructor call given `m`'s id and a content field (`Msg(content=x, id=m.id)`): the
    shape of a span rebuilt under its own id, before any class test."""
    keywords = {a.keyword.value: a.value for a in call.args if a.keyword is not None}
    if not isinstance(call.func, cst.Name) or not any(f in keywords for f in vocabulary.content_fields):
        return None
    for name in vocabulary.id_fields:
        value = keywords.get(name)
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.attr.value in vocabulary.id_fields:
            return value.value
    return None


def _copied_object(call: cst.Call | cst.Dict) -> cst.BaseExpression | None:
    """`s` for `replace(s, ...)`, `dataclasses.replace(s, ...)`, `s.model_copy(...)`, `s._replace(...)`,
    `{**s, ...}`."""
    if isinstance(call, cst.Dict):
        starred = [e.value for e in call.elements if isinstance(e, cst.StarredDictElement)]
        return starred[0] if len(starred) == 1 else None
    name = callee_name(call)
    if name not in COPY_CALLS:
        return None
    if isinstance(call.func, cst.Attribute) and name in ("model_copy", "_replace", "copy", "evolve", "with_changes", "clone"):
        if name != "evolve":
            return call.func.value
    if name in ("replace", "evolve") and call.args and call.args[0].keyword is None:
        if isinstance(call.func, cst.Name) or dotted_name(call.func) in ("dataclasses.replace", "attrs.evolve", "attr.evolve"):
            return call.args[0].value
    return None


def _new_fields(call: cst.Call | cst.Dict) -> dict[str, cst.BaseExpression]:
    """The fields a copying call sets: keyword arguments, or the keys of `update={...}` (of `{**s, ...}`)."""
    found: dict[str, cst.BaseExpression] = {}
    if isinstance(call, cst.Dict):
        for element in call.elements:
            key = string_value(element.key) if isinstance(element, cst.DictElement) else None
            if key:
                found[key] = element.value
        return found
    for arg in call.args:
        if arg.keyword is None:
            continue
        if arg.keyword.value == "update" and isinstance(arg.value, cst.Dict):
            for element in arg.value.elements:
                if isinstance(element, cst.DictElement):
                    key = string_value(element.key)
                    if key:
                        found[key] = element.value
        else:
            found[arg.keyword.value] = arg.value
    return found


def copy_sets(write: ContentWrite, fields: Iterable[str]) -> bool:
    """The copying call of `write` also sets one of `fields` (a new version or hash) to something other
    than the copied span's own (`id=m.id`, `version=s.version` carry the old one over)."""
    if write.copy is None:
        return False
    fields = tuple(fields)
    new = _new_fields(write.copy)
    return any(f in new and not _carried(new[f], write.owner_code, fields) for f in fields)


def _carried(value: cst.BaseExpression, owner_code: str, fields: tuple[str, ...]) -> bool:
    """`value` is the span's own `owner.<one of fields>`, read as it is."""
    return (
        isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.value.value == owner_code
        and value.attr.value in fields
    )


class Effects:
    """Recognises statements that bump, rehash, re-key or reset an object, for the flow analysis."""

    def __init__(self, context: FileContext) -> None:
        self.context = context
        self.project = context.project
        self.vocabulary = context.vocabulary

    def statement_does(self, small: cst.BaseSmallStatement, owner_code: str, fields: Iterable[str], methods: Iterable[str], effect: str) -> bool:
        """`small` assigns `owner.<one of fields>`, calls `owner.<one of methods>()`, or calls a helper of
        the tree whose `effect` ("bumps"/"rehashes") covers the parameter it passes `owner` to."""
        finder = _EffectFinder(self, owner_code, frozenset(fields), frozenset(methods), effect)
        traversal.visit(small, finder)
        return finder.found


class _EffectFinder(traversal.Visitor):
    def __init__(self, effects: Effects, owner_code: str, fields: frozenset[str], methods: frozenset[str], effect: str) -> None:
        super().__init__()
        self.effects = effects
        self.code = effects.context.module.code_for_node
        self.owner_code = owner_code
        self.fields = fields
        self.methods = methods
        self.effect = effect
        self.found = False

    def _is_owner(self, expr: cst.BaseExpression) -> bool:
        return self.code(expr) == self.owner_code

    def _assigned(self, target: cst.BaseExpression) -> None:
        if isinstance(target, cst.Attribute) and target.attr.value in self.fields and self._is_owner(target.value):
            self.found = True
        elif isinstance(target, cst.Subscript) and string_key(target) in self.fields and self._is_owner(target.value):
            self.found = True  # `span["version"] += 1` on a mapping span
        elif isinstance(target, (cst.Tuple, cst.List)):
            for element in target.elements:
                self._assigned(element.value)

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            self._assigned(target.target)

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        self._assigned(node.target)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        self._assigned(node.target)

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        called = dotted_name(func) or ""
        if (called == "setattr" or called.endswith(".__setattr__")) and len(node.args) >= 2:
            if string_value(node.args[1].value) in self.fields and self._is_owner(node.args[0].value):
                self.found = True
            return
        if (
            isinstance(func, cst.Attribute) and func.attr.value == "clear" and isinstance(func.value, cst.Attribute)
            and func.value.attr.value in self.fields and self._is_owner(func.value.value)
        ):
            self.found = True  # `snippet.offsets.clear()`
            return
        if isinstance(func, cst.Attribute) and func.attr.value == "update" and self._is_owner(func.value) and (
            self.fields & set(_updated_keys(node))
        ):
            self.found = True  # `span.update(text=t, rev=span["rev"] + 1)` on a mapping span
            return
        name = callee_name(node)
        helper = self.effects.project.helpers.get(name or "")
        affected = getattr(helper, self.effect, frozenset()) if helper is not None else frozenset()
        if isinstance(func, cst.Attribute) and self._is_owner(func.value):
            if name in self.methods or (helper is not None and helper.params[:1] == ("self",) and "self" in affected):
                self.found = True
            return
        if not affected or helper is None:
            return
        params = [p for p in helper.params if p not in ("self", "cls")]
        for position, arg in enumerate(node.args):
            if arg.keyword is not None:
                param = arg.keyword.value
            elif position < len(params):
                param = params[position]
            else:
                continue
            if param in affected and self._is_owner(arg.value):
                self.found = True


# The node classes `ContentWritePrefilter._is_write` can accept.
_WRITE_NODES = frozenset({ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Delete, ast.Call})


class ContentWritePrefilter(Prefilter):
    """A function (not a constructor or validator) holding, in its own body, a statement shaped like
    one of the writes `content_writes` lists, before any span-likeness test. Only the functions
    whose lines match a text pattern of those shapes are walked."""

    shape = "content-write"

    def __init__(self, scan) -> None:  # type: ignore[no-untyped-def]
        super().__init__(scan)
        self.fields = frozenset(content_write_fields(self.vocabulary))
        self.setters = frozenset(self.vocabulary.content_setters)
        self.ids = frozenset(self.vocabulary.id_fields)

    def statements_done(self, scopes: list[Scope]) -> None:
        if sql.SQL_TABLE.search(self.scan.source) and sql.SQL_WRITE.search(self.scan.source):  # the rarer first
            for scope in scopes:  # `conn.execute("UPDATE spans SET content = ? ...")`
                if scope.node is not None and sql.runs_sql_write(scope.node):
                    self.mark(scope.node)
        lines = match_lines(self.scan.source, _write_pattern(self.vocabulary))
        if not lines:
            return
        for scope in scopes:
            function = scope.node
            if spans_line(function, lines) and not _exempt_definition(function) and self._any_in(function):
                self.mark(function)

    def _any_in(self, function: FunctionNode) -> bool:
        """A write in `function`'s own body, or a copy with new content and an item assignment or a
        return (where the copy may be stored back, `msgs[i] = m.model_copy(update=...)`, or handed
        back, `return replace(s, content=x)`; or through a local)."""
        new_content_copy = item_assignment = False
        for node in own_nodes(function):
            if type(node) in _WRITE_NODES and self._is_write(node):
                return True
            if isinstance(node, ast.Assign):
                item_assignment = item_assignment or any(isinstance(t, ast.Subscript) for t in node.targets)
            elif isinstance(node, ast.Return):
                item_assignment = item_assignment or isinstance(node.value, (ast.Call, ast.Name, ast.Dict, ast.IfExp))
            elif isinstance(node, (ast.Call, ast.Dict)) and not new_content_copy:
                new_content_copy = self._new_content_copy(node)
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in _KEYED_STORING_METHODS
                or (node.func.attr == "update" and node.args and isinstance(node.args[0], ast.DictComp))
            ):  # `buffer.add(copy)` files it under its id, as `store[id] = copy` and `store.update({k: copy ...})` do
                item_assignment = True
        return new_content_copy and item_assignment

    def _is_write(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Assign):
            return any(self._is_target(target) for target in node.targets)
        if isinstance(node, ast.AugAssign) or (isinstance(node, ast.AnnAssign) and node.value is not None):
            return self._is_target(node.target)
        if isinstance(node, ast.Delete):
            targets = [e for t in node.targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
            return any(isinstance(t, ast.Subscript) and self._is_target(t) for t in targets)
        if isinstance(node, ast.Call):
            func = node.func
            if isinstance(func, ast.Name):
                return func.id == "setattr"
            if isinstance(func, ast.Attribute):
                return (
                    func.attr == "__setattr__" or func.attr in self.setters
                    or (func.attr in IN_PLACE_METHODS and self._is_content(func.value))
                    or (func.attr == "update" and self._updates_content(node))
                )
        return False

    def _updates_content(self, call: ast.Call) -> bool:
        """`span.update(text=t)`, `span.update({"text": t})`: `_updated_keys`' shape."""
        keys = {k.arg for k in call.keywords if k.arg}
        if call.args and isinstance(call.args[0], ast.Dict):
            keys |= {k.value for k in call.args[0].keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
        return not self.fields.isdisjoint(keys)

    def _new_content_copy(self, value: ast.expr) -> bool:
        """A copy that sets a content field: `replace(s, content=x)`, `m.model_copy(update={"content": x})`,
        `{**s, "content": x}` (what `_new_fields` reads on the LibCST tree)."""
        if isinstance(value, ast.Dict):
            return None in value.keys and self._names_content(value.keys)
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Name) and self._rebuilt(value):
            return True
        if not (isinstance(value, ast.Call) and last_name(value) in COPY_CALLS):
            return False
        return any(
            keyword.arg in self.fields
            or (keyword.arg == "update" and isinstance(keyword.value, ast.Dict) and self._names_content(keyword.value.keys))
            for keyword in value.keywords
        )

    def _rebuilt(self, call: ast.Call) -> bool:
        """`rebuilt_source`'s shape on the `ast` tree: `Msg(content=x, id=m.id)`."""
        keywords = {k.arg: k.value for k in call.keywords if k.arg}
        return not self.fields.isdisjoint(keywords) and any(
            isinstance(v, ast.Attribute) and isinstance(v.value, ast.Name) and v.attr in self.ids
            for k, v in keywords.items() if k in self.ids
        )

    def _names_content(self, keys: list[ast.expr | None]) -> bool:
        return any(isinstance(key, ast.Constant) and key.value in self.fields for key in keys)

    def _is_target(self, target: ast.expr) -> bool:
        if isinstance(target, ast.Subscript):
            container = target.value
            key = target.slice
            return (isinstance(container, ast.Attribute) and (
                container.attr in self.fields or container.attr == "__dict__"
            )) or (isinstance(key, ast.Constant) and key.value in self.fields)
        return self._is_content(target)

    def _is_content(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in self.fields


# Methods returning an unchanged copy of their object when given nothing (or only `deep=`).
_PLAIN_COPIES = frozenset({"copy", "model_copy", "clone", "deepcopy"})


def _uncopied(value: cst.BaseExpression) -> cst.BaseExpression:
    """What `str(x)`, `deepcopy(x)` or `x.model_copy(deep=True)` makes a copy of, unchanged: `x`."""
    if isinstance(value, cst.Call):
        func = value.func
        if isinstance(func, cst.Attribute) and func.attr.value in _PLAIN_COPIES and all(
            a.keyword is not None and a.keyword.value == "deep" for a in value.args
        ):
            return func.value
        if callee_name(value) in ("str", "copy", "deepcopy") and len(value.args) == 1:
            return value.args[0].value
    return value


def _exempt_definition(function: FunctionNode) -> bool:
    """`_exempt_function` on the standard `ast` tree."""
    if function.name in CONSTRUCTORS:
        return True
    for decorator in function.decorator_list:
        expr = decorator.func if isinstance(decorator, ast.Call) else decorator
        if last_dotted_part(expr) in VALIDATOR_DECORATORS:
            return True
    return False


_PATTERNS: dict[Vocabulary, re.Pattern[str]] = {}


def _write_pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    """Text that every write `content_writes` lists holds on one of its lines, or, for a copy stored
    back, the copying call or a content key (`"content":`) of `{**s, ...}` / `update={...}`.

    Every alternative starts with a literal character (no group or class first), so the search
    tests a position's first character against those before trying any alternative.
    """
    found = _PATTERNS.get(vocabulary)
    if found is None:
        fields = "|".join(map(re.escape, content_write_fields(vocabulary)))
        setters = "|".join(map(re.escape, vocabulary.content_setters))
        ids = "(?:" + "|".join(map(re.escape, vocabulary.id_fields)) + ")"
        assigned = r"(?:[-+*/%|&^@]|//|<<|>>|\*\*)?=(?!=)"
        found = re.compile("|".join([
            rf"\.(?:{fields})(?:\s*(?::[^=\n]*)?{assigned}|\s*\[|\.(?:{'|'.join(IN_PLACE_METHODS)})\()",
            rf"\.(?:{setters})\(", r"setattr\(", r"__setattr__\(", r"__dict__\s*\[",
            *(rf"{re.escape(call)}\s*\(" for call in COPY_CALLS),
            rf"{ids}\s*=\s*\w+\.(?:{ids})\b",  # a span rebuilt under its own id (`Msg(..., id=m.id)`)
            rf"\.update\([^)\n]*\b(?:{fields})\s*=",  # a mapping span updated (`span.update(text=t)`)
            *(rf"{quote}(?:{fields}){quote}\s*(?:\]\s*{assigned}|:)" for quote in "\"'"),
        ]))
        _PATTERNS[vocabulary] = found
    return found


class RewriteRule(ScopedRule):
    """Base of the rules about in-place content writes: `check(write)` is called for each write.

    The batched traversal only marks functions holding a statement shaped like a content write
    (cheap, syntactic); the full analysis runs when such a function is left.
    """

    prefilter = ContentWritePrefilter
    local_to_definitions = True

    def leave_FunctionDef(self, original_node: cst.FunctionDef) -> None:
        if original_node in self._candidates():
            for write in content_writes(self.context, self.facts):
                self.check(write)
            for statement in sql.function_statements(self.context, original_node):
                if isinstance(statement, sql.SqlWrite) and (column := sql.rewrites_content(statement)) is not None:
                    self.check_sql(statement, column)
        super().leave_FunctionDef(original_node)

    def check(self, write: ContentWrite) -> None:
        raise NotImplementedError

    def check_sql(self, write: sql.SqlWrite, column: str) -> None:
        """`UPDATE <span table> SET <column> = ...` keeping the row's id (`rules.sql`)."""

    def _candidates(self) -> set[cst.FunctionDef]:
        return self.context.analysis.memo.setdefault("rewrite_candidates", set())

    def _mark(self) -> None:
        function = self.function
        if function is not None:
            self._candidates().add(function)

    def _is_content(self, target: cst.BaseExpression) -> bool:
        if isinstance(target, cst.Subscript):
            if string_key(target) in self.vocabulary.content_fields:
                return True
            target = target.value
            if isinstance(target, cst.Attribute) and target.attr.value == "__dict__":
                return True
        return isinstance(target, cst.Attribute) and target.attr.value in content_write_fields(self.vocabulary)

    def _copy_shape(self, shape: int) -> None:
        """Note a copy with new content (`shape` 0) or an item assignment or a return (1) in the function:
        with both, the copy may be stored back or handed back under its id (`msgs[i] = m.model_copy(update=...)`,
        `return replace(s, content=x)`, or via a local)."""
        function = self.function
        if function is None:
            return
        seen = self.context.analysis.memo.setdefault("rewrite_copy_shapes", {}).setdefault(function, [False, False])
        seen[shape] = True
        if seen[0] and seen[1]:
            self._mark()

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if self._is_content(target.target):
                self._mark()
            elif isinstance(target.target, cst.Subscript):
                self._copy_shape(1)

    def visit_Return(self, node: cst.Return) -> None:
        if isinstance(node.value, (cst.Call, cst.Name, cst.Dict, cst.IfExp)):
            self._copy_shape(1)

    def visit_Dict(self, node: cst.Dict) -> None:
        if any(isinstance(e, cst.StarredDictElement) for e in node.elements) and self._sets_content(node):
            self._copy_shape(0)

    def _sets_content(self, copy: cst.Call | cst.Dict) -> bool:
        return any(field in self.vocabulary.content_fields for field in _new_fields(copy))

    def visit_AugAssign(self, node: cst.AugAssign) -> None:
        if self._is_content(node.target):
            self._mark()

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if self._is_content(node.target):
            self._mark()

    def visit_Del(self, node: cst.Del) -> None:
        self._mark()

    def visit_Call(self, node: cst.Call) -> None:
        if (callee_name(node) in COPY_CALLS and self._sets_content(node)) or rebuilt_source(node, self.vocabulary) is not None:
            self._copy_shape(0)
        if isinstance(node.func, cst.Attribute) and (node.func.attr.value in _KEYED_STORING_METHODS or (
            node.func.attr.value == "update" and node.args and isinstance(node.args[0].value, cst.DictComp)
        )):
            self._copy_shape(1)  # `self._buffer.add(span.model_copy(update=...))`, `store.update({k: copy ...})`
        func = node.func
        if isinstance(func, cst.Name):
            if func.value == "setattr":
                self._mark()
        elif isinstance(func, cst.Attribute):
            method = func.attr.value
            if method == "__setattr__" or method in self.vocabulary.content_setters or (
                method in IN_PLACE_METHODS and self._is_content(func.value)
            ):
                self._mark()
            elif method in sql.EXECUTE_METHODS and (text := sql.statement_text(node)) and sql.SQL_WRITE.search(text):
                self._mark()  # `conn.execute("UPDATE spans SET content = ? ...")`
            elif method == "update" and any(k in content_write_fields(self.vocabulary) for k in _updated_keys(node)):
                self._mark()  # `span.update(text=cleaned)`

    # --- shared questions ------------------------------------------------------------------
    def function_code(self) -> str:
        assert self.function is not None
        key = ("function_code", self.function)
        memo = self.context.analysis.memo
        if key not in memo:
            memo[key] = self.context.module.code_for_node(self.function)
        return memo[key]

    def reads_field(self, write: ContentWrite, fields: Iterable[str]) -> str | None:
        """The first of `fields` the function reads or writes on the written object (`s.version`), if any."""
        code = self.function_code()
        for field in fields:
            if re.search(rf"{re.escape(write.owner_code)}(?:\.{re.escape(field)}\b|\[[\"']{re.escape(field)}[\"']\])", code):
                return field
        return None

    def covered(self, write: ContentWrite, fields: Iterable[str], methods: Iterable[str], effect: str) -> bool:
        """Every path through the write assigns `owner.<fields>` (or re-keys it), calls one of `methods`
        on it, or passes it to a helper with `effect`."""
        assert self.function is not None
        keys = tuple(fields) + tuple(self.vocabulary.id_fields)
        effects = Effects(self.context)

        def covers(small: cst.BaseSmallStatement) -> bool:
            return effects.statement_does(small, write.owner_code, keys, methods, effect)

        return not flow.uncovered(self.function, write.statement, covers)

    def metadata_kinds(self) -> frozenset[str]:
        """What this file keeps under the keys of spans' metadata mappings: "version" and/or "hash", read
        from the lines naming a metadata mapping (`doc.metadata[VERSION_KEY]`, `meta.get("span_sha")`,
        `metadata={**doc.metadata, HASH_KEY: h}`). The file's text, not its tree: the definitions a rule
        is given may be only some of the file's."""
        key = ("metadata kinds",)
        memo = self.context.analysis.memo
        if key not in memo:
            kinds: set[str] = set()
            source = self.context.source
            if any(f in source for f in METADATA_FIELDS):
                for line in source.splitlines():
                    if any(f in line for f in METADATA_FIELDS):
                        for found in _METADATA_KEY.finditer(line):
                            constant = found.group(1) or found.group(2)
                            kinds.add(self._key_kind(cst.Name(constant) if constant else found.group(3)))
            memo[key] = frozenset(kinds - {""})
        return memo[key]

    def _key_kind(self, key: cst.BaseExpression | str) -> str:
        """"version" or "hash" for a metadata key naming one (`"span_version"`, `HASH_KEY`, a constant
        whose string does, a keyword), else ""."""
        text = key if isinstance(key, str) else string_value(key)
        if text is None and isinstance(key, cst.Name):
            text = self.context.analysis.constant_value(key.value) or key.value
        parts = set(name_parts(text or ""))
        versions, tracking = self._tracking_parts()
        if parts & versions:
            return "version"
        return "hash" if parts & tracking else ""

    def _tracking_parts(self) -> tuple[frozenset[str], frozenset[str]]:
        """The last word parts of version fields, and of every field tracking content (`tracking_words`)."""
        key = ("tracking parts",)
        memo = self.context.analysis.memo
        if key not in memo:
            versions = frozenset(name_parts(f)[-1] for f in self.vocabulary.version_fields)
            memo[key] = (versions, tracking_words(self.vocabulary))
        return memo[key]

    def tracks_in_metadata(self, span_class: SpanClass, kind: str | None = None) -> bool:
        """`span_class` has a metadata field and the file keeps a `kind` ("version" or "hash"; None: either)
        under its metadata keys (`doc.metadata[VERSION_KEY]`)."""
        kinds = self.metadata_kinds()
        return (kind in kinds if kind is not None else bool(kinds)) and not span_class.fields.isdisjoint(METADATA_FIELDS)

    def check_in_metadata(self, write: ContentWrite, kind: str, in_place: str, copied: str, advice: str) -> bool:
        """For a span whose class has no field of `kind` ("version" or "hash") but a metadata field, in a file
        that keeps one in spans' metadata: report the write unless it updates it (`in_place` or `copied` says what is
        missing, `advice` what to do), and return True; else False, the rule's own check applies."""
        span_class = write.span_class
        if span_class is None or not self.tracks_in_metadata(span_class, kind):
            return False
        if span_class.version_fields if kind == "version" else span_class.hash_fields:
            return False
        if not self.tracked_in_metadata(write, kind):
            how = copied if write.copy is not None else in_place
            self.report(
                write.statement, f"{write.rewritten()} {how} in its metadata",
                help=f"{advice} in `{write.owner_code}`'s metadata, or give the span a new id",
            )
        return True

    def tracked_in_metadata(self, write: ContentWrite, kind: str) -> bool:
        """Every path through the write stores a new `kind` ("version" or "hash") under a key of the span's
        metadata (`doc.metadata[VERSION_KEY] = ...`, `msg.metadata.update(span_sha=...)`); for a copy,
        the metadata it is given holds one (`Document(id=doc.id, ..., metadata={**doc.metadata, HASH_KEY: h})`,
        or a local given the key before)."""
        assert self.function is not None
        module_code = self.context.module.code_for_node
        aliases = ContainerAliases.of(self.function, self.context.analysis.memo)

        def code(node: cst.BaseExpression) -> str:  # `meta = doc.metadata; meta[VERSION_KEY] = v` sets `doc.metadata`'s
            return module_code(aliases.resolve(node))

        def sets(node: cst.CSTNode, small: cst.BaseSmallStatement | None, owner: str) -> bool:
            if isinstance(node, cst.Subscript) and len(node.slice) == 1 and code(node.value) == owner:
                element = node.slice[0].slice
                return isinstance(element, cst.Index) and self._key_kind(element.value) == kind and (
                    small is None or _assigned_in(small, node)
                )
            if isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "update" and (
                code(node.func.value) == owner
            ):
                return any(
                    (a.keyword is not None and self._key_kind(a.keyword.value) == kind)
                    or (isinstance(a.value, cst.Dict) and _dict_sets(a.value, kind, self._key_kind))
                    for a in node.args
                )
            return False

        if write.copy is not None:  # the metadata it is given, by keyword or in `update={...}`
            fields = _new_fields(write.copy) if isinstance(write.copy, cst.Call) else {}
            given = next((fields[f] for f in METADATA_FIELDS if f in fields), None)
            if isinstance(given, cst.Dict):
                return _dict_sets(given, kind, self._key_kind)
            if isinstance(given, cst.Name):  # `meta = dict(doc.metadata); meta[VERSION_KEY] += 1; Document(..., metadata=meta)`
                return any(
                    sets(n, None, given.value) or (  # `kwargs = {**msg.additional_kwargs, VERSION_KEY: v + 1}`
                        isinstance(n, cst.Assign) and isinstance(n.value, cst.Dict) and _dict_sets(n.value, kind, self._key_kind)
                        and any(isinstance(t.target, cst.Name) and t.target.value == given.value for t in n.targets)
                    )
                    for n in traversal.descendants(self.function.body)
                )
            return False
        owners = {f"{write.owner_code}.{f}" for f in METADATA_FIELDS}

        def covers(small: cst.BaseSmallStatement) -> bool:
            return any(sets(n, small, o) for n in traversal.descendants(small) for o in owners)

        return not flow.uncovered(self.function, write.statement, covers)

    def derived_left(self, write: ContentWrite) -> tuple[str, ...]:
        """The fields derived from the content (embedding, offsets...) of the written span's class, when
        they still describe the old text: the copy sets none of them, or no path-covering statement
        resets or reassigns one (itself or through a helper of the tree that resets them) or re-keys
        the span. Recomputing one of a family is taken as recomputing the family (`end_char_idx` after a
        cut: `derived_family`); recomputing a token count leaves the sentence offsets stale."""
        span_class = write.span_class
        if span_class is None or not span_class.derived_fields:
            return ()
        key = ("derived_left", write.statement)
        memo = self.context.analysis.memo
        if key not in memo:
            families: dict[str, list[str]] = {}
            for name in span_class.derived_fields:
                families.setdefault(derived_family(name), []).append(name)
            left: list[str] = []
            for fields in families.values():
                done = copy_sets(write, fields) if write.copy is not None else self.covered(write, fields, (), "resets")
                if not done:
                    left += fields
            memo[key] = tuple(f for f in span_class.derived_fields if f in left)
        return memo[key]

    @property
    def vocabulary(self) -> Vocabulary:
        return self.context.vocabulary


# A key of a mapping on a line: a constant's name (`[VERSION_KEY]`, `.get(SPAN_SHA`, `HASH_KEY:`) or a
# quoted string (`["version"]`, `.get("content_hash"`, `"version":`).
_METADATA_KEY = re.compile(
    r"(?:\[\s*|\.(?:get|setdefault|pop)\(\s*)([A-Z][A-Z0-9_]*)\b|([A-Z][A-Z0-9_]*)\s*:"
    r"|(?:\[\s*|\.(?:get|setdefault|pop)\(\s*|[{,]\s*)[\"']([\w-]+)[\"']"
)


def _dict_sets(literal: cst.Dict, kind: str, key_kind) -> bool:  # type: ignore[no-untyped-def]
    """A dict literal with a key of `kind` (`{**doc.metadata, VERSION_KEY: v + 1}`)."""
    return any(isinstance(e, cst.DictElement) and key_kind(e.key) == kind for e in literal.elements)


def _assigned_in(small: cst.BaseSmallStatement, target: cst.BaseExpression) -> bool:
    """`target` is what `small` assigns (`x = ...`, `x += ...`, `x: T = ...`)."""
    if isinstance(small, cst.Assign):
        return any(t.target is target for t in small.targets)
    return isinstance(small, (cst.AugAssign, cst.AnnAssign)) and small.target is target


def insert_after(write: ContentWrite, statement: cst.BaseSmallStatement) -> dict[cst.CSTNode, cst.CSTNode | cst.FlattenSentinel]:
    """A replacement that puts `statement` where it runs whenever the write does: right after the
    write, on its line when later statements of the line could end the block (`...; return`); before
    it when the write is part of a `return` or `raise` (`return turn.messages.pop()`)."""
    line = write.line
    body = list(line.body)
    index = next(i for i, s in enumerate(body) if s is write.statement)
    before = isinstance(write.statement, (cst.Return, cst.Raise))
    semicolon = cst.Semicolon(whitespace_before=cst.SimpleWhitespace(""), whitespace_after=cst.SimpleWhitespace(" "))
    if isinstance(line, cst.SimpleStatementSuite) or before or index < len(body) - 1:
        if before:
            body.insert(index, statement.with_changes(semicolon=semicolon))
        elif index == len(body) - 1:
            body[index:] = [body[index].with_changes(semicolon=semicolon), statement]
        else:
            body.insert(index + 1, statement.with_changes(semicolon=semicolon))
        if isinstance(line, cst.SimpleStatementLine) and before and index == 0 and len(body) == 2:
            # `return x.pop()` alone on its line: the statement goes on a line of its own before it
            added = cst.SimpleStatementLine(body=[statement], leading_lines=line.leading_lines)
            return {line: cst.FlattenSentinel([added, line.with_changes(leading_lines=())])}
        return {line: line.with_changes(body=body)}
    return {line: cst.FlattenSentinel([line, cst.SimpleStatementLine(body=[statement])])}
