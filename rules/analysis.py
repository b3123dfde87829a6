"""The shared span analysis of one file: what is span-like, which class a value has, aliases.

Computed on first use by `FileContext.analysis` and shared by every rule. Facts about functions
are computed once per function and cached. Cross-file facts (span classes, helpers that bump or
rehash) come from `rules.project.ProjectIndex`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Union

import libcst as cst

from rules.project import ProjectIndex, SpanClass
from runtime_guard.vocabulary import Vocabulary

FunctionNode = Union[cst.FunctionDef, cst.Lambda]

# Trailing words that keep a name about its value: `summary_text` is still a summary.
_SUMMARY_HOLDERS = frozenset({"text", "str", "string", "content", "message", "msg", "buffer"})

_WORD_SPLIT = re.compile(r"_+|(?<=[a-z0-9])(?=[A-Z])")


def name_parts(name: str) -> list[str]:
    """The lower-case word parts of a snake_case or CamelCase name."""
    return [p.lower() for p in _WORD_SPLIT.split(name) if p]


def dotted_name(node: cst.CSTNode | None) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def callee_name(call: cst.Call) -> str | None:
    """The last name of a call's callee: `summarize` for `llm.summarize(...)`."""
    func = call.func
    if isinstance(func, cst.Attribute):
        return func.attr.value
    if isinstance(func, cst.Name):
        return func.value
    return None


@dataclass
class FunctionFacts:
    """What one function's body says about its local names."""

    node: cst.FunctionDef
    params: dict[str, str | None] = field(default_factory=dict)  # name -> annotated class name
    span_aliases: set[str] = field(default_factory=set)  # locals read out of span containers or loops
    classes: dict[str, str] = field(default_factory=dict)  # local -> class name it was built from
    built_here: set[str] = field(default_factory=set)  # locals constructed in this function
    self_class: str | None = None  # the enclosing class of a method


class SpanAnalysis:
    """Questions rules ask about spans in one module."""

    def __init__(self, module: cst.Module, vocabulary: Vocabulary, project: ProjectIndex) -> None:
        self.module = module
        self.vocabulary = vocabulary
        self.project = project
        self._nouns = frozenset(vocabulary.span_nouns)
        self._facts: dict[cst.FunctionDef, FunctionFacts] = {}
        self._name_cache: dict[str, bool] = {}
        self._compression_names: frozenset[str] | None = None

    # --- names -----------------------------------------------------------------------------
    def is_span_name(self, name: str) -> bool:
        """True when a word part of `name` is a span noun or its plural (`task_span`, `nodes`)."""
        cached = self._name_cache.get(name)
        if cached is None:
            cached = any(
                part in self._nouns or (part.endswith("s") and part[:-1] in self._nouns)
                or (part.endswith("es") and part[:-2] in self._nouns)
                for part in name_parts(name)
            )
            self._name_cache[name] = cached
        return cached

    # --- functions -------------------------------------------------------------------------
    def facts(self, function: cst.FunctionDef, self_class: str | None = None) -> FunctionFacts:
        """Facts of `function`, computed once. `self_class` names the class of a method."""
        found = self._facts.get(function)
        if found is None:
            found = FunctionFacts(function, self_class=self_class)
            for param in _all_params(function.params):
                found.params[param.name.value] = _annotation_class(param.annotation)
            function.body.visit(_LocalFactsCollector(self, found))
            self._facts[function] = found
        return found

    # --- values ----------------------------------------------------------------------------
    def class_of(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> SpanClass | None:
        """The span class of `expr`'s value when the tree says which it is."""
        if isinstance(expr, cst.Name) and facts is not None:
            name = expr.value
            if name == "self" and facts.self_class:
                return self.project.span_class(facts.self_class)
            class_name = facts.classes.get(name) or facts.params.get(name)
            return self.project.span_class(class_name)
        return None

    def is_span_like(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """True when `expr` evaluates to a span by its name, its class, or where it was read from."""
        if self.class_of(expr, facts) is not None:
            return True
        if isinstance(expr, cst.Name):
            if expr.value == "self":
                return False
            if facts is not None and expr.value in facts.span_aliases:
                return True
            return self.is_span_name(expr.value)
        if isinstance(expr, cst.Attribute):
            return self.is_span_name(expr.attr.value)
        return self.is_span_read(expr, facts)

    def is_span_container(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """True for a collection of spans: a plural span-like name (`self._spans`, `nodes`)."""
        name = None
        if isinstance(expr, cst.Name):
            name = expr.value
        elif isinstance(expr, cst.Attribute):
            name = expr.attr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("values", "copy"):
            return self.is_span_container(expr.func.value, facts)
        if name is None:
            return False
        return self.is_span_name(name) and name_parts(name)[-1].endswith("s")

    def is_span_read(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """`container[k]` or `container.get(k)` on a span container."""
        if isinstance(expr, cst.Subscript):
            return self.is_span_container(expr.value, facts)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("get", "pop"):
            return self.is_span_container(expr.func.value, facts)
        return False

    # --- summaries -------------------------------------------------------------------------
    def is_summarize_call(self, call: cst.Call) -> bool:
        """True when `call` produces a summary: `llm.summarize(...)`, `compress_history(...)`,
        `predict_new_summary(...)`; not `zlib.compress(...)`, `Summarizer(...)`, `should_summarize(...)`
        or `_format_summary(...)`."""
        name = callee_name(call)
        if not name or name[0].isupper():
            return False
        vocabulary = self.vocabulary
        dotted = dotted_name(call.func)
        if dotted and any(part in vocabulary.not_summarize_modules for part in dotted.split(".")[:-1]):
            return False
        if isinstance(call.func, cst.Name) and name in self._compression_imports():
            return False
        parts = name_parts(name)
        if not parts or parts[0] in vocabulary.not_summarize_prefixes:
            return False
        words = vocabulary.summarize_words
        for index, part in enumerate(parts):
            stem = part[1:] if part.startswith("a") and part[1:] in words else part
            if stem in words or (index == len(parts) - 1 and stem.endswith("r") and stem[:-1] in words):
                return True
        if parts[-1] in vocabulary.summary_words:
            return any(part in vocabulary.summary_verbs for part in parts[:-1])
        return False

    def _compression_imports(self) -> frozenset[str]:
        """Names bound at module level by `from zlib import compress` and the like."""
        if self._compression_names is None:
            found: set[str] = set()
            for statement in self.module.body:
                if not isinstance(statement, cst.SimpleStatementLine):
                    continue
                for small in statement.body:
                    if (
                        isinstance(small, cst.ImportFrom)
                        and small.module is not None
                        and (dotted_name(small.module) or "").split(".")[0] in self.vocabulary.not_summarize_modules
                        and not isinstance(small.names, cst.ImportStar)
                    ):
                        for alias in small.names:
                            bound = alias.asname.name if alias.asname is not None else alias.name
                            if isinstance(bound, cst.Name):
                                found.add(bound.value)
            self._compression_names = frozenset(found)
        return self._compression_names

    def says_summary(self, name: str) -> bool:
        """True when `name` names a summary: `summary`, `existing_summary`, `chunk_summaries`,
        `summary_text`; not `summary_prompt` or `max_summary_tokens`."""
        parts = name_parts(name)
        words = self.vocabulary.summary_words
        while parts and parts[-1] in _SUMMARY_HOLDERS:
            parts = parts[:-1]
        return bool(parts) and parts[-1] in words


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            found.append(star)
    return found


def _annotation_class(annotation: cst.Annotation | None) -> str | None:
    """`Span` for annotations `Span`, `"Span"`, `Optional[Span]`, `Span | None`, `mod.Span`."""
    if annotation is None:
        return None
    node = annotation.annotation
    if isinstance(node, cst.SimpleString):
        text = node.evaluated_value if isinstance(node.evaluated_value, str) else ""
        return text.split(".")[-1].split("[")[0].strip() or None
    if isinstance(node, cst.BinaryOperation):
        node = node.left
    if isinstance(node, cst.Subscript) and dotted_name(node.value) in ("Optional", "typing.Optional"):
        element = node.slice[0].slice
        node = element.value if isinstance(element, cst.Index) else node
    name = dotted_name(node)
    return name.split(".")[-1] if name else None


class _LocalFactsCollector(cst.CSTVisitor):
    """Collects aliases and constructed locals of one function body (not nested functions)."""

    def __init__(self, analysis: SpanAnalysis, facts: FunctionFacts) -> None:
        super().__init__()
        self.analysis = analysis
        self.facts = facts

    def visit_FunctionDef(self, node: cst.FunctionDef) -> bool:
        return False

    def visit_ClassDef(self, node: cst.ClassDef) -> bool:
        return False

    def visit_Assign(self, node: cst.Assign) -> None:
        for target in node.targets:
            if isinstance(target.target, cst.Name):
                self._bind(target.target.value, node.value)

    def visit_AnnAssign(self, node: cst.AnnAssign) -> None:
        if isinstance(node.target, cst.Name):
            annotated = _annotation_class(node.annotation)
            if annotated and self.analysis.project.span_class(annotated):
                self.facts.classes[node.target.value] = annotated
            if node.value is not None:
                self._bind(node.target.value, node.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None and isinstance(node.asname.name, cst.Name):
            self._bind(node.asname.name.value, node.item)

    def _bind_loop(self, target: cst.BaseAssignTargetExpression, iterable: cst.BaseExpression) -> None:
        if isinstance(iterable, cst.Call) and callee_name(iterable) == "enumerate" and iterable.args:
            iterable = iterable.args[0].value
            if isinstance(target, cst.Tuple) and len(target.elements) == 2:
                target = target.elements[1].value  # type: ignore[assignment]
        elif isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value == "items":
            if isinstance(target, cst.Tuple) and len(target.elements) == 2:
                target = target.elements[1].value  # type: ignore[assignment]
            iterable = iterable.func.value
        if isinstance(target, cst.Name) and self.analysis.is_span_container(iterable, self.facts):
            self.facts.span_aliases.add(target.value)

    def _bind(self, name: str, value: cst.BaseExpression) -> None:
        if isinstance(value, cst.Await):
            value = value.expression
        if isinstance(value, cst.Call):
            called = dotted_name(value.func)
            class_name = called.split(".")[-1] if called else None
            if class_name and self.analysis.project.class_named(class_name) is not None:
                self.facts.built_here.add(name)
                if self.analysis.project.span_class(class_name):
                    self.facts.classes[name] = class_name
                return
        if self.analysis.is_span_read(value, self.facts):
            self.facts.span_aliases.add(name)
        elif isinstance(value, cst.Name) and (value.value in self.facts.span_aliases):
            self.facts.span_aliases.add(name)
        elif isinstance(value, cst.Name) and value.value in self.facts.classes:
            self.facts.classes[name] = self.facts.classes[value.value]
