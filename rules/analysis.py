"""The shared span analysis of one file: what is span-like, which class a value has, aliases.

Computed on first use by `FileContext.analysis` and shared by every rule. Facts about functions
are computed once per function and cached. Cross-file facts (span classes, helpers that bump or
rehash) come from `rules.project.ProjectIndex`.

Span-likeness, strongest evidence first:
- the value's class is known from the tree (annotation, constructor, `self` of a method, annotated
  field of a known class, element of an annotated collection): it is a span iff the class is a span
  class (`SpanClass.is_span`: an id and a content field, plus a span noun, a version or hash, or a
  field other than `value` as content of a record or of a class with its own `id`). Any other class
  of the tree is *not* a span, whatever the name;
- the value was read out of a span container (`self._spans[k]`, `buffer.get(k)`, a loop over
  `nodes`), directly or through a local alias;
- its name has a span noun as a word part (`task_span`, `node`).
The last two are gated (`is_span_like(expr, facts, field)`): never in a module importing a
look-alike library (ast, xml, tkinter, email...), and, for a weak noun (`node`, `message`, `block`,
`entry`) written through a weak content field (`value`, `text`, `body`), only when the module shows
span context (a span class of the tree, a span id field, the word `span`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import (
    COPY_CALLS, METADATA_FIELDS, MODEL_CALLS, MODEL_RECEIVER_WORDS, is_derived_field, literal_asks_for_summary, name_parts,
    names_model_call,
)
from spanlint.rules.prescan import alternation
from spanlint.rules.project import (
    BUILTIN_TYPES, COLLECTION_TYPES, WRAPPER_TYPES, ProjectIndex, SpanClass, metadata_key_field,
)
from spanlint.rules import traversal
from runtime_guard.vocabulary import Vocabulary

_CAPWORD = re.compile(r"[A-Z](?<!\w[A-Z])\w*")  # `\b[A-Z]\w*`, starting with a character class: a faster search
_FROM_IMPORT = re.compile(r"^[ \t]*from\s+([\w.]+)\s+import\s+(\([^)]*\)|[^\n]+)", re.MULTILINE)
_IMPORTED = re.compile(r"^\s*(?:from\s+([\w.]+)\s+import|import\s+([\w., ]+))", re.MULTILINE)
# What a local was read out of by key (`self._rows.get(sid)`, `notes[note_id]`): the mapping's code.
_READ_MAPPING = re.compile(r"([\w.]+)(?:\.(?:get|pop)\(|\[)")
_LOOKUP_THROUGH_SELF = re.compile(r"self(?:\.\w+)+\s*\(\s*[^)\s]")  # `self.buffer.get(span_id)`: a call given a key
# Word parts of a root name that mark an API payload (request/response data), not a span buffer.
PAYLOAD_WORDS = frozenset({"response", "responses", "completion", "request", "payload", "data", "json", "raw", "kwargs", "params", "body"})
FACTORY_PREFIXES = ("from_", "parse", "model_validate", "construct", "create", "build", "new", "make", "copy")
# What a converting function builds its object from (`message_from_dict`, `from_json`): the result is new.
_SERIALIZED_FORMS = frozenset({"dict", "dicts", "json", "yaml", "str", "string", "text", "bytes", "dump", "row", "record", "proto"})
# The class of the messages a LangGraph state holds (`MessagesState`, `add_messages`): LangChain's.
GRAPH_MESSAGE_CLASS = ("langchain_core.messages", "BaseMessage")
# Trailing words that keep a name about its value: `summary_text` is still a summary.
# `SpanAnalysis.memo` keys of the guesses by name (`SpanAnalysis.guessed_classes`).
_NAMES_BY_NOUN, _GUESSED, _GUESSED_ONE, _DECLARING = "names by noun", "guessed", "guessed one", "declaring"
_MODULE_FACTS = "module facts"
# Span nouns spelled two ways: a value named `msg` may be a `ChatMessage`, a `message` an agentscope `Msg`.
_NOUN_SPELLINGS = {"msg": "message"}
_SUMMARY_HOLDERS = frozenset({"text", "str", "string", "content", "message", "msg", "buffer"})


def dotted_name(node: cst.CSTNode | None) -> str | None:
    """`a.b.c` for a Name/Attribute chain, else None."""
    if isinstance(node, cst.Name):
        return node.value
    if isinstance(node, cst.Attribute):
        base = dotted_name(node.value)
        return f"{base}.{node.attr.value}" if base else None
    return None


def last_name(expr: cst.CSTNode) -> str | None:
    """`c` for `a.b.c` or `c`; None for other shapes."""
    if isinstance(expr, cst.Attribute):
        return expr.attr.value
    if isinstance(expr, cst.Name):
        return expr.value
    return None


def callee_name(call: cst.Call) -> str | None:
    """The last name of a call's callee: `summarize` for `llm.summarize(...)`."""
    return last_name(call.func)


def root_name(expr: cst.BaseExpression) -> str | None:
    """`n` for `n`, `n.node`, `n.node[0]`, `n.get(k)`; None for other shapes."""
    while True:
        if isinstance(expr, cst.Name):
            return expr.value
        if isinstance(expr, (cst.Attribute, cst.Subscript)):
            expr = expr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            expr = expr.func.value
        else:
            return None


def string_value(node: cst.CSTNode | None) -> str | None:
    """The text of a plain string literal (`"key"`), else None."""
    if isinstance(node, cst.SimpleString):
        value = node.evaluated_value
        return value if isinstance(value, str) else None
    return None


def literal_text(node: cst.BaseExpression) -> str | None:
    """The text of a string literal, also implicitly concatenated (`"a" "b"`) or an f-string (its
    placeholders read as `?`)."""
    if isinstance(node, cst.SimpleString):
        return string_value(node)
    if isinstance(node, cst.ConcatenatedString):
        left, right = literal_text(node.left), literal_text(node.right)
        return left + right if left is not None and right is not None else None
    if isinstance(node, cst.FormattedString):
        return "".join(p.value if isinstance(p, cst.FormattedStringText) else "?" for p in node.parts)
    return None


def string_key(node: cst.Subscript) -> str | None:
    """The key of `x["key"]`, else None."""
    if len(node.slice) != 1 or not isinstance(node.slice[0].slice, cst.Index):
        return None
    return string_value(node.slice[0].slice.value)


def metadata_read(expr: cst.BaseExpression) -> tuple[cst.BaseExpression, str] | None:
    """For `msg.meta[MESSAGE_ID_KEY]` or `msg.meta.get("message_id")`, a read of a key of an object's
    metadata mapping: the object and the field the key is (`meta[MESSAGE_ID_KEY]`, as
    `ProjectIndex.metadata_ids` and `SpanClass.id_fields` name a span id kept there)."""
    if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in ("get", "setdefault"):
        mapping, key = expr.func.value, expr.args[0].value if expr.args else None
    elif isinstance(expr, cst.Subscript) and len(expr.slice) == 1 and isinstance(expr.slice[0].slice, cst.Index):
        mapping, key = expr.value, expr.slice[0].slice.value
    else:
        return None
    if not (isinstance(mapping, cst.Attribute) and mapping.attr.value in METADATA_FIELDS):
        return None
    if isinstance(key, cst.Name):
        return mapping.value, metadata_key_field(mapping.attr.value, key.value, literal=False)
    if (text := string_value(key)) is not None:
        return mapping.value, metadata_key_field(mapping.attr.value, text, literal=True)
    return None


@dataclass
class FunctionFacts:
    """What one function's body says about its local names."""

    node: cst.FunctionDef
    params: dict[str, str | None] = field(default_factory=dict)  # name -> annotated class name
    span_aliases: set[str] = field(default_factory=set)  # locals read out of span containers or loops
    classes: dict[str, str] = field(default_factory=dict)  # local -> span class it was built from / annotated
    built_here: set[str] = field(default_factory=set)  # locals constructed (or copied) in this function
    self_class: str | None = None  # the enclosing class of a method
    # The classes the enclosing class's fields are declared or assigned with (`self.log = log`, `log: DecisionLog`).
    self_field_types: dict[str, str] = field(default_factory=dict)
    types: dict[str, str] = field(default_factory=dict)  # local -> any class of the tree it holds
    alias_sources: dict[str, str] = field(default_factory=dict)  # alias -> code of what it was read from
    # Locals that are not spans whatever their name: params annotated with a look-alike library type,
    # values read out of API payloads (`data["messages"]`, `response.choices[0].message`).
    not_spans: set[str] = field(default_factory=set)
    builtins: set[str] = field(default_factory=set)  # locals declared as text, bytes or numbers (`chunk: bytes`)
    built_collections: set[str] = field(default_factory=set)  # locals holding objects built here
    accumulators: set[str] = field(default_factory=set)  # locals starting as an empty list or dict
    mixed_collections: set[str] = field(default_factory=set)  # locals that receive values not built here
    collected: dict[str, set[str]] = field(default_factory=dict)  # local -> the locals appended to it ("" for others)

    loop_sources: dict[str, str] = field(default_factory=dict)  # loop variable -> the local it iterates
    aliases: dict[str, str] = field(default_factory=dict)  # local -> the local it was bound to (`y = x`)
    # local -> the key it was read with (`sid` for `x = spans[sid]`, `for sid, x in spans.items()`)
    read_keys: dict[str, str] = field(default_factory=dict)
    id_of: dict[str, str] = field(default_factory=dict)  # local -> the local whose id it holds (`k = x.span_id`)
    copies: dict[str, cst.Call] = field(default_factory=dict)  # local -> the copying call it was bound to
    # Locals holding a deep copy made here or anything read out of one (`for m in deepcopy(msgs)`,
    # `m.content[0]`): new objects all the way down.
    deep: set[str] = field(default_factory=set)
    narrowed: dict[str, str] = field(default_factory=dict)  # code of `x` in `isinstance(x, C)` -> C, a class of the tree
    # param -> the classes of the tree a generic annotation is parametrised with (`RunContextWrapper[Deps]`)
    type_args: dict[str, tuple[str, ...]] = field(default_factory=dict)

    def holds_built(self, name: str | None) -> bool:
        """`name` is a collection of objects built in this function."""
        return name in self.built_collections or (name in self.accumulators and name not in self.mixed_collections)

    def is_built(self, name: str) -> bool:
        """`name` (or the collection it indexes or iterates) holds objects built in this function."""
        return name in self.built_here or self.holds_built(name) or self.holds_built(self.loop_sources.get(name))


class SpanAnalysis:
    """Questions rules ask about spans in one module."""

    def __init__(
        self, module: cst.Module, vocabulary: Vocabulary, project: ProjectIndex, path: str = "", source: str | None = None
    ) -> None:
        self.module = module
        self.path = path
        self._source = source
        self.vocabulary = vocabulary
        self.project = project
        self._nouns = frozenset(vocabulary.span_nouns)
        self._strong_nouns = frozenset(vocabulary.strong_span_nouns)
        self._facts: dict[cst.FunctionDef, FunctionFacts] = {}
        self._name_cache: dict[str, bool] = {}
        self._module_flags: tuple[bool, bool] | None = None
        self._constants: dict[str, str] | None = None
        self._origins: dict[str, str] | None = None
        # name -> (absolute module, name there) of `from module import name [as alias]`, set with `_origins`
        self._imported: dict[str, tuple[str, str]] = {}
        # Per-file results other shared helpers compute once for several rules (e.g. content writes).
        self.memo: dict[Any, Any] = {}
        self._compression_names: frozenset[str] | None = None
        self._prompt_names: frozenset[str] | None = None

    # --- module ----------------------------------------------------------------------------
    def class_named(self, name: str | None) -> SpanClass | None:
        """`ProjectIndex.class_named`, choosing among same-named classes the one this module imports or defines."""
        if not name:
            return None
        origin = self._origin(name)
        module, real = self._imported.get(name, (None, name))
        if origin is not None and "::" in origin:
            origin, real = origin.split("::")
        elif name not in self.project.classes and module is None:
            return self.project.class_named(name) if self.project.frameworks is not None else None
        return self.project.class_named(real, origin, module)

    def span_class(self, name: str | None) -> SpanClass | None:
        found = self.class_named(name)
        return found if found is not None and found.is_span else None

    @property
    def source(self) -> str:
        """The module's source text."""
        if self._source is None:
            self._source = self.module.code
        return self._source

    def guessed_classes(self, expr: cst.BaseExpression) -> tuple[SpanClass, ...]:
        """For a value known only by its name (`block`), the classes of the tree this module imports or
        defines whose name shares its span noun (`Block as BlockModel`, `PydanticBlock`)."""
        return self._guessed(expr, _GUESSED)

    def guessed_class(self, expr: cst.BaseExpression, field: str | None = None) -> SpanClass | None:
        """The class a value known only by its name (`passage`) is taken to have: the span class
        `guessed_classes` finds for it when it comes to one (of several, those whose content is
        `field`: `node.text` with `TextNode` and `NodeWithScore` imported; then the class the others
        extend: `TextNode` and the app's `SupportNode(TextNode)`); for a bare name (a parameter, a local:
        not `n.node`, a field of something) no span class of the module shares the noun of, the one class
        this module imports or defines that declares `field` as its content (any content setter for a
        setter call, `field` None), span or not (`Snippet`, a `Setting`, an `HttpPayload`)."""
        return self._guessed(expr, _GUESSED_ONE, field)

    def _guessed(self, expr: cst.BaseExpression, kind: str, field: str | None = None) -> Any:
        """`guessed_classes` (`kind` _GUESSED) or the one class made of it, computed once per set of
        nouns (and field, and bare name or not): rules ask about every write, and a generated module has thousands."""
        name = last_name(expr)
        nouns = frozenset({self._guess_noun(p) for p in name_parts(name)} - {None}) if name is not None else frozenset()
        bare = isinstance(expr, cst.Name)
        key = (kind, field, nouns, bare)
        if key in self.memo:
            return self.memo[key]
        if kind == _GUESSED_ONE:
            spans = {c.name: c for c in self.guessed_classes(expr) if c.is_span}
            named = bool(spans)
            if len(spans) > 1 and field is not None:
                spans = {n: c for n, c in spans.items() if field in c.content_fields}
            if len(spans) > 1:
                spans = {n: c for n, c in spans.items() if not c.ancestors & spans.keys()}
            found: Any = next(iter(spans.values())) if len(spans) == 1 else None
            if not named and nouns and bare:
                found = self._declaring(field)
        elif nouns:
            by_noun, names = self._names_by_noun()
            matching = sorted({index for noun in nouns for index in by_noun.get(noun, ())})
            found = tuple(known for i in matching if (known := self.class_named(names[i])) is not None)
        else:
            found = ()
        self.memo[key] = found
        return found

    def _declaring(self, field: str | None) -> SpanClass | None:
        """The one class this module imports or defines whose content is `field` (with a content
        setter, `field` None), else None."""
        key = (_DECLARING, field)
        if key not in self.memo:
            self._origin("")
            assert self._origins is not None
            found = {
                known.name: known for local in self._origins if local[:1].isupper() and (known := self.class_named(local)) is not None
                and (field in known.content_fields if field is not None else known.content_setters)
            }
            self.memo[key] = next(iter(found.values())) if len(found) == 1 else None
        return self.memo[key]

    def _names_by_noun(self) -> tuple[dict[str, list[int]], list[str]]:
        """The names this module imports or defines (`_origin`), and the positions among them of those
        whose word parts have each span noun."""
        found = self.memo.get(_NAMES_BY_NOUN)
        if found is None:
            self._origin("")
            assert self._origins is not None
            names = list(self._origins)
            by_noun: dict[str, list[int]] = {}
            for index, local in enumerate(names):
                for noun in {self._guess_noun(p) for p in name_parts(local)} - {None}:
                    by_noun.setdefault(noun, []).append(index)
            found = self.memo[_NAMES_BY_NOUN] = (by_noun, names)
        return found

    @property
    def _own_module(self) -> str:
        """This module as `_origin` names a module (`pkg/schemas/block`)."""
        return self.path.replace("\\", "/").removesuffix(".py")

    def _origin(self, name: str) -> str | None:
        """Where this module takes `name` from: a path (`pkg/schemas/block`), or `path::Real` for
        `from pkg.schemas.block import Real as name`."""
        if self._origins is None:
            self._origins = {}
            code = self.source
            for match in _FROM_IMPORT.finditer(code):
                origin = self._absolute_module(match.group(1))
                absolute = None if match.group(1).startswith(".") else match.group(1)
                for imported in match.group(2).replace("(", " ").split(","):
                    real, _, alias = imported.strip().partition(" as ")
                    if absolute and real.strip()[:1].isupper():
                        self._imported.setdefault(alias.strip() or real.strip(), (absolute, real.strip()))
                    if alias.strip():
                        self._origins.setdefault(alias.strip(), f"{origin}::{real.strip()}")
                    else:
                        self._origins.setdefault(real.strip(), origin)
            for defined in re.findall(r"^class\s+(\w+)", code, re.MULTILINE):
                self._origins[defined] = self._own_module
        return self._origins.get(name)

    def _absolute_module(self, module: str) -> str:
        """`pkg/schemas/block` for `pkg.schemas.block`; a relative `...agent` taken from this file's
        package (`<root>/pkg/app/middleware/x.py` -> `<root>/pkg/agent`), so that same-named modules of
        other packages do not match."""
        dots = len(module) - len(module.lstrip("."))
        name = module[dots:].replace(".", "/")
        if not dots or not self.path:
            return name
        package = self.path.replace("\\", "/").rsplit("/", 1)[0] if "/" in self.path.replace("\\", "/") else ""
        for _ in range(dots - 1):
            package = package.rsplit("/", 1)[0] if "/" in package else ""
        return "/".join(p for p in (package, name) if p)

    @property
    def is_lookalike_module(self) -> bool:
        """The module imports a library whose nodes/messages/elements look like spans (ast, xml...)."""
        return self._flags()[0]

    @property
    def has_span_context(self) -> bool:
        """The module names a span class of the tree, a span id field, or the word `span`."""
        return self._flags()[1]

    def _flags(self) -> tuple[bool, bool]:
        if self._module_flags is None:
            code = self.source
            lookalikes = set(self.vocabulary.lookalike_modules)
            imported = set()
            for match in _IMPORTED.finditer(code):
                names = match.group(1) or match.group(2)
                imported.update(n.strip().split(".")[0] for n in names.split(","))
            lookalike = bool(imported & lookalikes)
            words = [w for w in self.vocabulary.id_fields if "_" in w.strip("_")]
            words += list(self._strong_nouns)
            capwords = set(_CAPWORD.findall(code))
            context = (
                bool(re.search(r"(?:%s)s?\b" % alternation(words, whole_word_start=True), code))
                or bool(capwords & set(self.vocabulary.span_class_names))
                # the names the file uses only: resolving every class of the project costs ~60 ms
                or any(self.project.span_class(word) is not None for word in capwords)
            )
            self._module_flags = (lookalike, context)
        return self._module_flags

    def constant_value(self, name: str) -> str | None:
        """The string a module- or class-level constant `name` is bound to, if any."""
        if self._constants is None:
            self._constants = {}
            bodies = [self.module.body]
            bodies += [s.body.body for s in self.module.body if isinstance(s, cst.ClassDef)]
            for body in bodies:
                for statement in body:
                    if not isinstance(statement, cst.SimpleStatementLine):
                        continue
                    for small in statement.body:
                        text = string_value(small.value) if isinstance(small, (cst.Assign, cst.AnnAssign)) else None
                        if text is not None:
                            targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                            for target in targets:
                                if isinstance(target, cst.Name):
                                    self._constants[target.value] = text
        return self._constants.get(name)

    def is_tombstone(self, value: cst.BaseExpression) -> bool:
        """`value` writes a tombstone marker (`"[pruned]"`, or a constant bound to one): a prune, not a rewrite."""
        markers = self.vocabulary.tombstone_markers
        if isinstance(value, (cst.Name, cst.Attribute)):
            name = last_name(value)
            constant = self.constant_value(name)
            if constant is not None:
                return any(m in constant for m in markers)
        if isinstance(value, (cst.SimpleString, cst.FormattedString, cst.ConcatenatedString)):
            code = self.module.code_for_node(value)
            return any(m in code for m in markers)
        return False

    # --- names -----------------------------------------------------------------------------
    def is_span_name(self, name: str) -> bool:
        """True when a word part of `name` is a span noun or its plural (`task_span`, `nodes`)."""
        cached = self._name_cache.get(name)
        if cached is None:
            cached = any(self._noun_of(part) is not None for part in name_parts(name))
            self._name_cache[name] = cached
        return cached

    def _noun_of(self, part: str) -> str | None:
        for candidate in (part, part[:-1] if part.endswith("s") else "", part[:-2] if part.endswith("es") else ""):
            if candidate in self._nouns:
                return candidate
        return None

    def _guess_noun(self, part: str) -> str | None:
        """The span noun of a name part for matching values with classes: `msg` and `message` are one."""
        noun = self._noun_of(part)
        return _NOUN_SPELLINGS.get(noun, noun) if noun is not None else None

    def _has_strong_noun(self, text: str) -> bool:
        parts = [p for word in re.findall(r"\w+", text) for p in name_parts(word)]
        return any(self._noun_of(p) in self._strong_nouns for p in parts)

    # --- functions -------------------------------------------------------------------------
    def facts(
        self, function: cst.FunctionDef, self_class: str | None = None,
        enclosing: Callable[[], FunctionFacts] | None = None,
    ) -> FunctionFacts:
        """Facts of `function`, computed once. `self_class` names the class of a method; `enclosing`
        gives the facts of the function it is nested in (asked only when they are computed), whose
        names it reads unless it binds them."""
        found = self._facts.get(function)
        if found is None:
            found = FunctionFacts(function, self_class=self_class)
            outer = enclosing() if enclosing is not None else self.module_facts()
            _inherit(found, outer, {p.name.value for p in _all_params(function.params)})
            owner = self.class_named(self_class) if self_class else None
            if owner is not None:
                found.self_field_types = dict(owner.field_types)
            found.built_here.update(_request_values(function))
            for param in _all_params(function.params):
                found.params[param.name.value] = _annotation_class(param.annotation)
                self._declare(found, param.name.value, param.annotation)
            traversal.visit(function.body, _LocalFactsCollector(self, found))
            self._facts[function] = found
        return found

    def _declare(self, found: FunctionFacts, name: str, annotation: cst.Annotation | None) -> None:
        """What `name: annotation` (a parameter, a module's global) says of the value of `name`."""
        annotated = _annotation_class(annotation)
        arguments = tuple(a for a in _type_arguments(annotation) if self.class_named(a) is not None)
        if arguments:
            found.type_args[name] = arguments
        if annotated and self.class_named(annotated) is not None:
            found.types[name] = annotated
            if self.span_class(annotated):
                found.classes[name] = annotated
        elif annotated in BUILTIN_TYPES:
            found.builtins.add(name)
        elif annotation is not None:
            written = self.module.code_for_node(annotation.annotation)
            if written.split(".")[0].strip("\"'") in self.vocabulary.lookalike_modules:
                found.not_spans.add(name)

    def module_facts(self) -> FunctionFacts:
        """What the module's annotated globals say of their values (`NOTES: dict[str, Note] = {}`): the
        outermost scope every function of the module reads."""
        found = self.memo.get(_MODULE_FACTS)
        if found is None:
            # a stand-in function for the module (made here: LibCST is loaded only for a file a rule may match)
            scope = cst.FunctionDef(cst.Name("module_scope"), cst.Parameters(), cst.IndentedBlock([]))
            found = self.memo[_MODULE_FACTS] = FunctionFacts(scope)
            for line in self.module.body:
                if isinstance(line, cst.SimpleStatementLine):
                    for small in line.body:
                        if isinstance(small, cst.AnnAssign) and isinstance(small.target, cst.Name):
                            self._declare(found, small.target.value, small.annotation)
        return found

    # --- values ----------------------------------------------------------------------------
    def is_graph_state_spans(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """`state["messages"]` in a graph node function: a span-container key (a plural span noun) read
        from a parameter named `state` (`agent_state`) or annotated with a state class (`MessagesState`,
        a `TypedDict` named `...State`). Not an API payload, though keyed by a string."""
        if facts is None or not isinstance(expr, cst.Subscript) or not isinstance(expr.value, cst.Name):
            return False
        root = expr.value.value
        key = string_key(expr)
        if root not in facts.params or key is None or not self.is_span_name(key) or not name_parts(key)[-1].endswith("s"):
            return False
        annotated = facts.params[root] or ""
        return name_parts(root)[-1] == "state" or annotated.endswith("State")

    def _read_from_graph_state(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """`expr` is, or is read out of, a graph state's span container (`state["messages"][-1]`)."""
        while isinstance(expr, (cst.Subscript, cst.Attribute, cst.Call)):
            if self.is_graph_state_spans(expr, facts):
                return True
            expr = expr.func if isinstance(expr, cst.Call) else expr.value
        return False

    def is_payload(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """`data["messages"]`, `response.choices[0].message`: a value read out of an API payload, not a
        graph state's messages."""
        return _is_payload(expr) and not self._read_from_graph_state(expr, facts)

    def known_class(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> SpanClass | None:
        """The class of the tree (span or not) that `expr`'s value has, when the code says which.

        For a collection whose annotation names its elements (`list[Span]`), that element class.
        """
        if facts is not None and facts.narrowed:
            narrowed = facts.narrowed.get(expr.value if isinstance(expr, cst.Name) else self.module.code_for_node(expr))
            if narrowed is not None:
                return self.class_named(narrowed)
        if isinstance(expr, cst.Name):
            if facts is None:
                return None
            if expr.value == "self" and facts.self_class:
                return self.class_named(facts.self_class)
            return self.class_named(facts.types.get(expr.value))
        if isinstance(expr, cst.Attribute):
            owner = self.known_class(expr.value, facts)
            if owner is None:
                owner = self._type_argument_holding(expr.value, expr.attr.value, facts)
            return self.member_class(owner, owner.field_type(expr.attr.value)) if owner is not None else None
        if isinstance(expr, cst.Subscript):
            if self.is_graph_state_spans(expr, facts):
                module, name = GRAPH_MESSAGE_CLASS
                return self.project.class_named(name, None, module)
            return self.element_class(expr.value, facts, "__getitem__")
        if isinstance(expr, cst.BooleanOperation) and isinstance(expr.operator, cst.Or) and isinstance(
            expr.right, (cst.List, cst.Tuple, cst.Dict)
        ) and not expr.right.elements:
            return self.known_class(expr.left, facts)  # `run_output.messages or []`
        if isinstance(expr, cst.Await):
            return self.known_class(expr.expression, facts)
        if isinstance(expr, cst.Call) and callee_name(expr) == "next" and expr.args and isinstance(
            expr.args[0].value, cst.GeneratorExp
        ):
            return self.known_class(expr.args[0].value.elt, facts)  # `next(o for o in xs if ...)`
        if isinstance(expr, (cst.List, cst.Tuple, cst.Set)) and expr.elements:
            # a literal collection: its elements' class, when they all have the same one
            classes = {self.known_class(e.value, facts) for e in expr.elements if not isinstance(e, cst.StarredElement)}
            return classes.pop() if len(classes) == 1 else None
        if isinstance(expr, cst.Call) and (run := run_elsewhere(expr)) is not None:
            return self.known_class(run, facts)  # `await asyncio.to_thread(store.filter_documents, f)`
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute):
            method = expr.func.attr.value
            if method in ("get", "pop", "values", "copy"):
                return self.element_class(expr.func.value, facts, method)
            receiver = expr.func.value
            if isinstance(receiver, cst.Call) and callee_name(receiver) == "super" and facts is not None:
                owner = self.class_named(facts.self_class)  # its methods' return types include the inherited ones
            else:
                owner = self.known_class(receiver, facts)
            return self.member_class(owner, owner.return_type(method)) if owner is not None else None
        if isinstance(expr, cst.Call) and callee_name(expr) in ("list", "reversed", "sorted", "tuple") and expr.args:
            return self.known_class(expr.args[0].value, facts)
        kept = filtered_source(expr)
        if kept is not expr:
            return self.known_class(kept, facts)
        return None

    def _type_argument_holding(
        self, expr: cst.BaseExpression, field_name: str, facts: FunctionFacts | None
    ) -> SpanClass | None:
        """For `ctx.context` in `ctx.context.store`, `ctx` annotated with a generic class of unknown
        fields parametrised with classes of the tree (`RunContextWrapper[DeskContext]`,
        `RunContext[Deps]`): the one of those that declares `store`, the value the wrapper carries."""
        if facts is None or not isinstance(expr, cst.Attribute) or not isinstance(expr.value, cst.Name):
            return None
        holders = [
            c for c in (self.class_named(a) for a in facts.type_args.get(expr.value.value, ()))
            if c is not None and field_name in c.fields
        ]
        return holders[0] if len(holders) == 1 else None

    def reads_self(self, root: str, facts: FunctionFacts, _depth: int = 0) -> bool:
        """The local `root` is `self`, or was read out of it (`for block in self.content`, `b = self.blocks[-1]`)
        or out of a local list of such objects (`merged.append(block)`, then `merged[-1]`). Not a span
        looked up through a call given a key (`self.buffer.get(span_id)`, `self._find(sid)`): that is
        fetched from a store, which others can reach by the key."""
        if root == "self":
            return True
        source = facts.alias_sources.get(root, "")
        if re.match(r"self\b(?!\s*\()", source) and not _LOOKUP_THROUGH_SELF.match(source):
            return True
        held = re.match(r"\w+", source)
        collected = facts.collected.get(held.group()) if held is not None and held.group() in facts.accumulators else None
        return bool(collected) and _depth < 3 and all(c and self.reads_self(c, facts, _depth + 1) for c in collected)

    def self_unheld(self, facts: FunctionFacts) -> bool:
        """In a method, no one but its caller holds the object `self` is when it runs: the tree calls the
        method only on objects the caller built (`ProjectIndex.called_only_on_built`), or its class is
        a private builder whose instances only their builders hold (`ProjectIndex.is_private_builder`)."""
        key = ("self unheld", facts.node)
        found = self.memo.get(key)
        if found is None:
            owner = self.class_named(facts.self_class)
            found = self.memo[key] = owner is not None and (
                self.project.called_only_on_built(facts.node.name.value, owner) or self.project.is_private_builder(owner)
            )
        return found

    def returns_new(self, call: cst.Call, facts: FunctionFacts | None) -> bool:
        """`call` returns a new object: a model's reply (`self.model.invoke(...)`, `llm.complete(...)`),
        or what a function or method of the tree returns when each of its returns builds one
        (`ProjectIndex.returns_new`: `self._to_message(chunk)` returning `AIMessageChunk(...)`)."""
        name = callee_name(call)
        if not name:
            return False
        func = call.func
        if not isinstance(func, cst.Attribute):
            return self.project.returns_new(name, None, self._origin(name) or self._own_module)
        receiver = func.value
        if name in MODEL_CALLS and any(
            part in MODEL_RECEIVER_WORDS for segment in (dotted_name(receiver) or "").split(".") for part in name_parts(segment)
        ):
            return True
        if isinstance(receiver, cst.Call) and callee_name(receiver) == "super":
            own = self.project.classes.get(facts.self_class) if facts is not None and facts.self_class else None
            owner = self.class_named(own.bases[0]) if own is not None and own.bases else None
        else:
            owner = self.known_class(receiver, facts)
        return owner is not None and self.project.returns_new(name, owner, "")

    def holder_of(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> tuple[cst.BaseExpression, SpanClass, str] | None:
        """For `span.message`, where `span`'s class has an id and no content field of its own but keeps its
        content in that message-like field (`TurnSpan(span_id, message: ChatMessage, version, ...)`, CAMEL's
        `MemoryRecord(uuid, message: BaseMessage, extra_info)`): the span, its class and the field. Not a
        wrapper of a span that tracks nothing itself (`NodeWithScore.node`)."""
        if not isinstance(expr, cst.Attribute):
            return None
        holder, field = expr.value, expr.attr.value
        known = self.known_class(holder, facts)
        if known is None or known.content_fields or not known.id_fields:
            return None
        held = known.field_type(field)
        parts = name_parts(held) if held else []
        if not parts or not self.is_span_name(parts[-1]):
            return None
        inner = self.member_class(known, held)
        if inner is not None and inner.is_span and not (known.version_fields or known.hash_fields):
            return None  # `n.node` of a `NodeWithScore`: a span of its own, which the holder does not track
        return holder, known, field

    def element_class(self, expr: cst.BaseExpression, facts: FunctionFacts | None, method: str = "__iter__") -> SpanClass | None:
        """The class of what is read out of `expr` by `method` (`__iter__` for a loop, `__getitem__` for
        `expr[k]`, `get`...), when the code says which.

        A collection declared with its elements' class (`list[Span]`) is known by that class; a
        container class of the tree (`ContextBuffer` with `get`, `__iter__`) gives what its method
        returns (annotated, or the typed field it returns), else nothing: what comes out of a known
        container that is not a span is unknown, not known not to be a span."""
        owner = self.known_class(expr, facts)
        if owner is None or owner.is_span or not owner.container:
            return owner
        returned = owner.return_type(method) or (owner.return_type("__iter__") if method in ("values", "__getitem__") else None)
        if returned is None and method in ("get", "pop"):
            returned = owner.return_type("__getitem__")
        return self.member_class(owner, returned)

    def member_class(self, owner: SpanClass, type_name: str | None) -> SpanClass | None:
        """The class `type_name` (the annotation of one of `owner`'s fields or methods) names: where
        `owner`'s own module imports it from (`AgentState.memory: Memory`, `Memory.get_block() ->
        Block` in an installed package), else as this module knows the name."""
        if not type_name:
            return None
        origin = owner.type_origin(type_name)
        if origin is not None and type_name not in self._imported and type_name not in self.project.classes:
            found = self.project.class_named(origin[1], None, origin[0])
            if found is not None:
                return found
        return self.class_named(type_name)

    def declares_builtin(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """`expr`'s value (or its elements) is declared as text, bytes or a number (`chunks: deque[bytes]`,
        a field `value: int`): known not to be a span, whatever its name."""
        if isinstance(expr, cst.Name):
            return facts is not None and expr.value in facts.builtins
        if isinstance(expr, cst.Attribute):
            owner = self.known_class(expr.value, facts)
            return owner is not None and owner.field_type(expr.attr.value) in BUILTIN_TYPES
        if isinstance(expr, cst.Subscript):
            return self.declares_builtin(expr.value, facts)
        if isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
            "get", "pop", "popleft", "values", "copy"
        ):
            return self.declares_builtin(expr.func.value, facts)
        return False

    def dict_record(self, expr: cst.BaseExpression, facts: FunctionFacts | None, content: str) -> SpanClass | None:
        """The record a plain dict is, when its keys say it is a versioned text record: `rec` read out of
        a mapping (`rec = self._rows.get(sid)`, `record = notes.get(note_id)`) with the content key
        `content` and a version or hash key, read or written on it in this function or given to the dict
        literals this module stores in that mapping (`self._rows[s.span_id] = {"content": ..., "version": ...}`)."""
        if not isinstance(expr, cst.Name) or facts is None or content not in self.vocabulary.content_fields:
            return None
        source = facts.alias_sources.get(expr.value)
        mapping = _READ_MAPPING.match(source or "")
        if mapping is None or expr.value in facts.not_spans or self.is_payload(expr, facts):
            return None
        keys = self._keys_used(facts.node, expr.value) | self._stored_keys().get(mapping.group(1), frozenset())
        vocabulary = self.vocabulary
        versions = tuple(k for k in vocabulary.version_fields if k in keys)
        hashes = tuple(k for k in vocabulary.hash_fields if k in keys)
        if not (versions or hashes):
            return None
        return SpanClass(
            name="dict", fields=frozenset(keys | {content}), id_fields=tuple(k for k in vocabulary.id_fields if k in keys) or ("key",),
            content_fields=(content,), version_fields=versions, hash_fields=hashes, hash_is_property=False,
            derived_fields=tuple(k for k in sorted(keys) if is_derived_field(k, vocabulary)), is_record=True, mapping=True,
        )

    def _keys_used(self, function: cst.FunctionDef, name: str) -> frozenset[str]:
        """The string keys read or written on the local `name` in `function` (`name["version"]`, `name.get("hash")`)."""
        memo_key = ("keys used", function, name)
        if memo_key not in self.memo:
            keys: set[str] = set()
            for node in traversal.descendants(function.body):
                if isinstance(node, cst.Subscript) and isinstance(node.value, cst.Name) and node.value.value == name:
                    key = string_key(node)
                elif (isinstance(node, cst.Call) and isinstance(node.func, cst.Attribute) and node.func.attr.value == "get"
                      and isinstance(node.func.value, cst.Name) and node.func.value.value == name and node.args):
                    key = string_value(node.args[0].value)
                else:
                    continue
                if key:
                    keys.add(key)
            self.memo[memo_key] = frozenset(keys)
        return self.memo[memo_key]

    def _stored_keys(self) -> dict[str, frozenset[str]]:
        """For each mapping this module stores dict literals in (`self._rows[k] = {...}`, `notes[k] = {...}`),
        by its code, the literals' string keys."""
        if "stored keys" not in self.memo:
            found: dict[str, set[str]] = {}
            # The whole file's text: the module the rules visit may hold only the definitions they need.
            for node in ast.walk(ast.parse(self.source)):
                if isinstance(node, ast.Assign) and isinstance(node.value, ast.Dict):
                    keys = {k.value for k in node.value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)}
                    for target in node.targets:
                        if isinstance(target, ast.Subscript) and isinstance(target.value, (ast.Name, ast.Attribute)):
                            found.setdefault(ast.unparse(target.value), set()).update(keys)
            self.memo["stored keys"] = {mapping: frozenset(keys) for mapping, keys in found.items()}
        return self.memo["stored keys"]

    def class_of(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> SpanClass | None:
        """The span class of `expr`'s value when the tree says which."""
        found = self.known_class(expr, facts)
        return found if found is not None and found.is_span else None

    def is_span_like(
        self, expr: cst.BaseExpression, facts: FunctionFacts | None, field_name: str | None = None,
        *, content: str | None = None,
    ) -> bool:
        """True when `expr` evaluates to a span by its class, where it was read from, or its name.

        `field_name`, the content field about to be written, tightens the name-based evidence: a weak
        noun with a weak field needs span context in the module. `content`, the content field written
        or read: a value whose class the code does not say is not a span when `guessed_class` takes
        it for a class that is not (`span.value` in a module whose one class with a `value` is a `Setting`).
        """
        known = self.known_class(expr, facts)
        if known is None and content is not None:
            known = self.guessed_class(expr, content)
            known = known if known is not None and not known.is_span else None
        if known is not None:
            return known.is_span
        if self.declares_builtin(expr, facts):
            return False
        root = root_name(expr)
        if root == "self" or self.is_lookalike_module or (facts is not None and root in facts.not_spans) or (
            not isinstance(expr, cst.Name) and self.is_payload(expr, facts)
        ):
            return False
        evidence = self._evidence(expr, facts)
        if evidence is None:
            return False
        if field_name is None or field_name in self.vocabulary.strong_content_fields:
            return True
        return self._has_strong_noun(evidence) or self.has_span_context

    def _evidence(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> str | None:
        """The names that make `expr` span-like (its own name, or what it was read from), or None."""
        if isinstance(expr, cst.Name):
            if any(p in PAYLOAD_WORDS for p in name_parts(expr.value)):
                return None
            if facts is not None and expr.value in facts.span_aliases:
                return f"{expr.value} {facts.alias_sources.get(expr.value, '')}"
            if self.is_span_name(expr.value):
                return expr.value
            origin = facts.aliases.get(expr.value) if facts is not None else None
            return self._evidence(cst.Name(origin), facts) if origin and origin != expr.value else None
        if isinstance(expr, cst.Attribute):
            return expr.attr.value if self.is_span_name(expr.attr.value) else None
        if self.is_span_read(expr, facts):
            return self.module.code_for_node(expr)
        return None

    def is_span_container(self, expr: cst.BaseExpression, facts: FunctionFacts | None) -> bool:
        """True for a collection of spans: a plural span-like name (`self._spans`, `nodes`), a buffer,
        or a collection annotated with a span class."""
        known = self.known_class(expr, facts)
        if known is not None:
            return known.is_span
        if self.declares_builtin(expr, facts):
            return False
        name = None
        if isinstance(expr, cst.Name):
            name = expr.value
        elif isinstance(expr, cst.Attribute):
            name = expr.attr.value
        elif isinstance(expr, cst.Call) and isinstance(expr.func, cst.Attribute) and expr.func.attr.value in (
            "values", "copy", "items"
        ):
            return self.is_span_container(expr.func.value, facts)
        elif isinstance(expr, cst.Call) and callee_name(expr) in ("list", "reversed", "sorted", "tuple") and expr.args:
            return self.is_span_container(expr.args[0].value, facts)
        elif filtered_source(expr) is not expr:
            return self.is_span_container(filtered_source(expr), facts)
        if name is None:
            return False
        parts = name_parts(name)
        if any(p in self.vocabulary.container_nouns for p in parts):
            return True
        return self.is_span_name(name) and parts[-1].endswith("s")

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
        return names_model_call(name) and self.asks_for_summary(call.args)

    def asks_for_summary(self, args: Sequence[cst.Arg]) -> bool:
        """A prompt argument asks for a summary: a string in it says so (`f"Summarize: {text}"`,
        `HumanMessage(content="Condense ...")`), or it uses a module constant whose value does
        (`SUMMARY_PROMPT.format(text=...)`)."""
        prompts = self._summary_prompts()
        for arg in args:
            for node in traversal.descendants(arg.value):
                if isinstance(node, (cst.SimpleString, cst.FormattedStringText)) and literal_asks_for_summary(
                    node.value, self.vocabulary
                ):
                    return True
                if isinstance(node, cst.Name) and node.value in prompts:
                    return True
        return False

    def _summary_prompts(self) -> frozenset[str]:
        """Names bound at module level to a value holding text that asks for a summary."""
        if self._prompt_names is None:
            found: set[str] = set()
            for statement in self.module.body:
                for small in statement.body if isinstance(statement, cst.SimpleStatementLine) else ():
                    if isinstance(small, (cst.Assign, cst.AnnAssign)) and small.value is not None and any(
                        isinstance(node, (cst.SimpleString, cst.FormattedStringText))
                        and literal_asks_for_summary(node.value, self.vocabulary)
                        for node in traversal.descendants(small.value)
                    ):
                        targets = [t.target for t in small.targets] if isinstance(small, cst.Assign) else [small.target]
                        found.update(t.value for t in targets if isinstance(t, cst.Name))
            self._prompt_names = frozenset(found)
        return self._prompt_names

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


# The decorators that make a function a web route handler: `@app.post("/feedback")`, `@router.get(...)`,
# `@bp.route(...)` (FastAPI, Starlette, Flask, Quart, Sanic, aiohttp), `@get("/")` (Litestar).
_ROUTE_DECORATORS = frozenset({"get", "post", "put", "patch", "delete", "head", "options", "route", "api_route", "websocket"})
# Defaults that inject a shared object into a handler instead of a value parsed from the request.
_INJECTED = frozenset({"Depends", "Security", "Provide", "Inject"})


def _request_values(function: cst.FunctionDef) -> set[str]:
    """The parameters of a web route handler that the framework parses from the request it handles
    (its body, path and query values): new objects for each call, so writing one rewrites no span
    anyone holds. Not those injected with `Depends(...)` (a buffer shared between requests)."""
    for decorator in function.decorators:
        call = decorator.decorator
        if not (isinstance(call, cst.Call) and callee_name(call) in _ROUTE_DECORATORS and call.args):
            continue
        path = string_value(call.args[0].value) if call.args[0].keyword is None else None
        if path is not None and path.startswith("/"):
            return {
                param.name.value for param in _all_params(function.params)
                if not (isinstance(param.default, cst.Call) and callee_name(param.default) in _INJECTED)
            }
    return set()


# Calls that run a function given as an argument in a thread and return its result, by the
# position of that argument: `asyncio.to_thread(f, ...)`, `anyio.to_thread.run_sync(f, ...)`,
# `loop.run_in_executor(None, f, ...)`.
THREAD_RUNNERS = {"to_thread": 0, "run_sync": 0, "run_in_executor": 1}


def run_elsewhere(call: cst.Call) -> cst.Call | None:
    """`f(a, b)` for `asyncio.to_thread(f, a, b)` (and the other `THREAD_RUNNERS`), else None."""
    at = THREAD_RUNNERS.get(callee_name(call) or "")
    if at is None or len(call.args) <= at or any(a.keyword is not None or a.star for a in call.args[: at + 1]):
        return None
    return cst.Call(func=call.args[at].value, args=call.args[at + 1:])


def _inherit(inner: FunctionFacts, outer: FunctionFacts, params: set[str]) -> None:
    """What a nested function knows of the names of the function enclosing it (a closure reads
    them): their classes and where they were read from, for the names it does not take as parameters."""
    for mine, theirs in (
        (inner.types, outer.types), (inner.classes, outer.classes), (inner.type_args, outer.type_args),
        (inner.alias_sources, outer.alias_sources),
    ):
        mine.update((k, v) for k, v in theirs.items() if k not in params)
    for mine_set, theirs_set in ((inner.span_aliases, outer.span_aliases), (inner.builtins, outer.builtins), (inner.not_spans, outer.not_spans)):
        mine_set.update(theirs_set - params)
    if "self" not in params and inner.self_class is None:
        inner.self_class, inner.self_field_types = outer.self_class, dict(outer.self_field_types)


def _all_params(params: cst.Parameters) -> list[cst.Param]:
    found = [*params.posonly_params, *params.params, *params.kwonly_params]
    for star in (params.star_arg, params.star_kwarg):
        if isinstance(star, cst.Param):
            found.append(star)
    return found


def _annotation_class(annotation: cst.Annotation | None) -> str | None:
    """The class an annotation names (`Span` for `Span`, `"Span"`, `Optional[Span]`, `Span | None`,
    `mod.Span`); for a collection (`list[Span]`, `dict[str, Span]`) the class of its elements."""
    if annotation is None:
        return None
    node: cst.BaseExpression = annotation.annotation
    for _ in range(4):
        if isinstance(node, cst.SimpleString):
            text = string_value(node) or ""
            try:
                node = cst.parse_expression(text)
            except cst.ParserSyntaxError:
                return None
        if isinstance(node, cst.BinaryOperation):
            node = node.left
        elif isinstance(node, cst.Subscript) and (dotted_name(node.value) or "").split(".")[-1] in COLLECTION_TYPES | WRAPPER_TYPES:
            wrapper = (dotted_name(node.value) or "").split(".")[-1] in WRAPPER_TYPES
            element = node.slice[0 if wrapper else -1].slice
            if not isinstance(element, cst.Index):
                return None
            node = element.value
        else:
            break
    name = dotted_name(node)
    last = name.split(".")[-1] if name else None
    return last if last and last not in COLLECTION_TYPES else None


def _type_arguments(annotation: cst.Annotation | None) -> tuple[str, ...]:
    """The classes a generic annotation other than a collection is parametrised with: `Deps` for
    `RunContext[Deps]`, `"RunContext[Deps]"`, `RunContext[Deps] | None`."""
    if annotation is None:
        return ()
    node: cst.BaseExpression = annotation.annotation
    if isinstance(node, cst.SimpleString):
        try:
            node = cst.parse_expression(string_value(node) or "")
        except cst.ParserSyntaxError:
            return ()
    if isinstance(node, cst.BinaryOperation):
        node = node.left
    if not isinstance(node, cst.Subscript) or (dotted_name(node.value) or "").split(".")[-1] in COLLECTION_TYPES | WRAPPER_TYPES:
        return ()
    names = (dotted_name(e.slice.value) if isinstance(e.slice, cst.Index) else None for e in node.slice)
    return tuple(n.split(".")[-1] for n in names if n)


def _is_payload(expr: cst.BaseExpression) -> bool:
    """`data["messages"]`, `response.choices[0].message`: a value read out of an API payload."""
    keyed = False
    while isinstance(expr, (cst.Attribute, cst.Subscript)):
        if isinstance(expr, cst.Subscript) and isinstance(expr.value, cst.Name):
            index = expr.slice[0].slice
            keyed = isinstance(index, cst.Index) and isinstance(index.value, cst.SimpleString)
        expr = expr.value
    if not isinstance(expr, cst.Name):
        return False
    return keyed or any(p in PAYLOAD_WORDS for p in name_parts(expr.value))


def _converts(function_name: str) -> bool:
    """`message_from_dict`, `from_json`, `messages_from_dict`: a function building objects from a serialized form."""
    parts = name_parts(function_name)
    return any(part == "from" and parts[i + 1:i + 2] and parts[i + 1] in _SERIALIZED_FORMS for i, part in enumerate(parts))


def _copies_deeply(call: cst.Call) -> bool:
    """`deepcopy(x)`, `copy.deepcopy(x)`, `x.model_copy(deep=True)`."""
    name = callee_name(call)
    if name == "deepcopy":
        return True
    return name in ("model_copy", "copy") and any(
        a.keyword is not None and a.keyword.value == "deep" and isinstance(a.value, cst.Name) and a.value.value == "True"
        for a in call.args
    )


def _builds_elements(value: cst.ListComp | cst.List | cst.GeneratorExp) -> bool:
    """A list literal or comprehension whose elements are all fresh objects (calls)."""
    if isinstance(value, cst.List):
        return bool(value.elements) and all(isinstance(e.value, cst.Call) for e in value.elements)
    return isinstance(value.elt, cst.Call)


class _LocalFactsCollector(traversal.FunctionBodyVisitor):
    """Collects aliases and constructed locals of one function body (not nested functions).

    A local bound to another (`y = x`, `y, k = x, x.id`, `(y := x)`, `y = next(o for o in [x] if o)`,
    a loop over `[x]`) is the same object: it gets every fact of `x`. Bindings are taken when their
    statement is left, so a comprehension inside the value is bound first."""

    def __init__(self, analysis: SpanAnalysis, facts: FunctionFacts) -> None:
        super().__init__()
        self.analysis = analysis
        self.facts = facts

    def leave_Assign(self, original_node: cst.Assign) -> None:
        for target in original_node.targets:
            self._bind_target(target.target, original_node.value)

    def _bind_target(self, target: cst.BaseExpression, value: cst.BaseExpression) -> None:
        if isinstance(target, cst.Name):
            self._bind(target.value, value)
        elif isinstance(target, (cst.Tuple, cst.List)) and isinstance(value, (cst.Tuple, cst.List)) and len(
            target.elements
        ) == len(value.elements):
            for left, right in zip(target.elements, value.elements):
                if not isinstance(left, cst.StarredElement) and not isinstance(right, cst.StarredElement):
                    self._bind_target(left.value, right.value)

    def leave_AnnAssign(self, original_node: cst.AnnAssign) -> None:
        node = original_node
        if isinstance(node.target, cst.Name):
            if node.value is not None:
                self._bind(node.target.value, node.value)
            annotated = _annotation_class(node.annotation)
            if annotated and self.analysis.class_named(annotated) is not None:
                self.facts.types[node.target.value] = annotated
                if self.analysis.span_class(annotated):
                    self.facts.classes[node.target.value] = annotated
            elif annotated in BUILTIN_TYPES:
                self.facts.builtins.add(node.target.value)

    def visit_Call(self, node: cst.Call) -> None:
        """`isinstance(x, C)` narrows `x` to a class of the tree; `found.append(x)`: `found` holds objects
        built here only while every appended value is a call."""
        func = node.func
        if isinstance(func, cst.Name) and func.value == "isinstance" and len(node.args) == 2:
            checked = dotted_name(node.args[1].value)
            if checked and self.analysis.class_named(checked.split(".")[-1]) is not None:
                self.facts.narrowed[self.analysis.module.code_for_node(node.args[0].value)] = checked.split(".")[-1]
        if (
            isinstance(func, cst.Attribute) and isinstance(func.value, cst.Name)
            and func.attr.value in ("append", "extend", "insert") and node.args
        ):
            value = node.args[-1].value
            self.facts.collected.setdefault(func.value.value, set()).add(
                value.value if isinstance(value, cst.Name) and func.attr.value != "extend" else ""
            )
            if not isinstance(value, (cst.Call, cst.ListComp, cst.List)):
                self.facts.mixed_collections.add(func.value.value)

    def leave_NamedExpr(self, original_node: cst.NamedExpr) -> None:
        if isinstance(original_node.target, cst.Name):
            self._bind(original_node.target.value, original_node.value)

    def visit_For(self, node: cst.For) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_CompFor(self, node: cst.CompFor) -> None:
        self._bind_loop(node.target, node.iter)

    def visit_WithItem(self, node: cst.WithItem) -> None:
        if node.asname is not None and isinstance(node.asname.name, cst.Name):
            self._bind(node.asname.name.value, node.item)

    def _bind_loop(self, target: cst.BaseAssignTargetExpression, iterable: cst.BaseExpression) -> None:
        key: cst.BaseExpression | None = None
        if isinstance(iterable, cst.Call) and callee_name(iterable) == "enumerate" and iterable.args:
            iterable = iterable.args[0].value
            if isinstance(target, cst.Tuple) and len(target.elements) == 2:
                key, target = target.elements[0].value, target.elements[1].value  # type: ignore[assignment]
        elif isinstance(iterable, cst.Call) and isinstance(iterable.func, cst.Attribute) and iterable.func.attr.value == "items":
            if isinstance(target, cst.Tuple) and len(target.elements) == 2:
                key, target = target.elements[0].value, target.elements[1].value  # type: ignore[assignment]
            iterable = iterable.func.value
        if not isinstance(target, cst.Name):
            return
        kept_as = _kept_instances_of(iterable)  # `for m in (o for o in msgs if isinstance(o, ToolMessage))`
        iterable = filtered_source(iterable)  # `for x in [o for o in spans if o.content]`: the spans
        name = target.value
        facts = self.facts
        if kept_as is not None and self.analysis.class_named(kept_as) is not None:
            facts.alias_sources[name] = self.analysis.module.code_for_node(iterable)
            self._typed(name, kept_as)
            return
        if isinstance(iterable, (cst.List, cst.Tuple)) and len(iterable.elements) == 1 and isinstance(
            iterable.elements[0].value, cst.Name
        ):
            self._alias(name, iterable.elements[0].value.value)  # `for o in [x]`: `o` is `x`
            return
        if isinstance(iterable, cst.Name):
            facts.loop_sources[name] = iterable.value
        if self._reads_deep_copy(iterable):
            facts.built_here.add(name)
            facts.deep.add(name)
        known = self.analysis.element_class(iterable, facts)
        if known is None and self.analysis.is_payload(iterable, facts):
            facts.not_spans.add(name)
            return
        facts.alias_sources[name] = self.analysis.module.code_for_node(iterable)
        if isinstance(key, cst.Name):
            facts.read_keys[name] = key.value
        if known is not None:
            self._typed(name, known.name)
        elif self.analysis.is_span_container(iterable, facts):
            facts.span_aliases.add(name)

    def _reads_deep_copy(self, value: cst.BaseExpression) -> bool:
        """`value` is a deep copy made here, or read out of one (`copied.content[0]`, a comprehension
        over `copied.content`)."""
        if isinstance(value, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
            return self._reads_deep_copy(value.for_in.iter)
        if isinstance(value, cst.Call) and _copies_deeply(value):
            return True
        if isinstance(value, cst.Call) and callee_name(value) in ("list", "reversed", "sorted", "tuple", "enumerate") and value.args:
            return self._reads_deep_copy(value.args[0].value)
        root = root_name(value)
        return root is not None and root in self.facts.deep

    def _typed(self, name: str, class_name: str) -> None:
        known = self.analysis.class_named(class_name)
        if known is not None:
            self.facts.types[name] = class_name
            if known.is_span:
                self.facts.classes[name] = class_name

    def _alias(self, name: str, source: str) -> None:
        """`name` is bound to the object `source` holds: it gets every fact of `source`."""
        facts = self.facts
        root = facts.aliases.get(source, source)
        if root == name:
            return
        facts.aliases[name] = root
        for names in (facts.span_aliases, facts.built_here, facts.not_spans, facts.builtins, facts.built_collections, facts.deep):
            if source in names:
                names.add(name)
        for table in (facts.types, facts.classes, facts.alias_sources, facts.loop_sources, facts.read_keys, facts.id_of):
            if source in table:
                table[name] = table[source]
        if source in facts.narrowed:
            self._typed(name, facts.narrowed[source])  # `if isinstance(block, TextBlock): text_block = block`
        elif source in facts.params and source not in facts.types:
            annotated = facts.params[source]
            if annotated:
                self._typed(name, annotated)

    def _bind(self, name: str, value: cst.BaseExpression) -> None:
        value = _one_value(value)
        facts = self.facts
        source = _alias_source(value)
        if source is not None:
            self._alias(name, source)
            return
        if isinstance(value, cst.Attribute) and isinstance(value.value, cst.Name) and value.attr.value in self.analysis.vocabulary.id_fields:
            facts.id_of[name] = facts.aliases.get(value.value.value, value.value.value)  # `key = span.span_id`
        if isinstance(value, (cst.List, cst.Dict)) and not value.elements:
            facts.accumulators.add(name)
            return
        if isinstance(value, cst.DictComp) and _keeps_elements(value):
            # `by_id = {m.id: m for m in messages}`: `by_id[k]` is one of `messages`
            known = self.analysis.element_class(value.for_in.iter, facts)
            if known is not None:
                self._typed(name, known.name)
            return
        if isinstance(value, (cst.ListComp, cst.List, cst.GeneratorExp)) and _builds_elements(value):
            facts.built_collections.add(name)
            return
        if self._reads_deep_copy(value):
            facts.built_here.add(name)
            facts.built_collections.add(name)
            facts.deep.add(name)
            if not isinstance(value, cst.Call):
                return
        if self.analysis.is_payload(value, facts) and self.analysis.known_class(value, facts) is None:
            facts.not_spans.add(name)
            return
        if isinstance(value, cst.Call):
            called = dotted_name(value.func) or ""
            last = callee_name(value) or ""
            if self.analysis.class_named(last) is not None:
                facts.built_here.add(name)
                self._typed(name, last)
                return
            maker = dotted_name(value.func.value) if isinstance(value.func, cst.Attribute) else None
            if maker and self.analysis.class_named(maker) is not None:
                # `Cls.from_json(...)` builds an object; `Cls.read(...)` loads one: both have class `Cls`.
                self._typed(name, maker)
                if last.startswith(FACTORY_PREFIXES):
                    facts.built_here.add(name)
                return
            if self.analysis.returns_new(value, facts):
                facts.built_here.add(name)  # and its class, from the return annotation, below
            elif last[:1].isupper() or last in COPY_CALLS or called == "cls" or _converts(last) or (
                isinstance(value.func, cst.Call) and callee_name(value.func) == "type"
            ):
                facts.built_here.add(name)
                if last in COPY_CALLS:
                    facts.copies[name] = value
                    copied = self.analysis.known_class(value.func.value if isinstance(value.func, cst.Attribute) else (
                        value.args[0].value if value.args else value.func), facts)
                    if copied is not None:
                        self._typed(name, copied.name)
                return
        code = self.analysis.module.code_for_node
        if isinstance(value, cst.Subscript) or (
            isinstance(value, cst.Call) and isinstance(value.func, cst.Attribute) and value.func.attr.value in ("get", "pop")
        ):
            facts.alias_sources[name] = code(value)
            read_key = value.slice[0].slice if isinstance(value, cst.Subscript) else (value.args[0] if value.args else None)
            key_value = getattr(read_key, "value", None)
            if isinstance(key_value, cst.Name):
                facts.read_keys[name] = key_value.value
        # Calls: `c.get(k)`, `c.pop(k)`, and methods of a class of the tree with a return annotation.
        known = self.analysis.known_class(value, facts) if not isinstance(value, cst.Call) or isinstance(
            value.func, cst.Attribute
        ) else None
        if known is not None:
            facts.types[name] = known.name
            if known.is_span:
                facts.classes[name] = known.name
        elif self.analysis.is_span_read(value, facts):
            facts.span_aliases.add(name)


def filtered_source(expr: cst.BaseExpression) -> cst.BaseExpression:
    """`xs` for `[o for o in xs if ...]` (or a generator or set of the same shape, nested): a
    comprehension keeping some of the objects of `xs` themselves; else `expr`."""
    while isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp)):
        loop = expr.for_in
        if loop.inner_for_in is not None or not isinstance(expr.elt, cst.Name) or not isinstance(loop.target, cst.Name):
            break
        if expr.elt.value != loop.target.value:
            break
        expr = loop.iter
    return expr


def _kept_instances_of(expr: cst.BaseExpression) -> str | None:
    """`ToolMessage` for `[o for o in xs if isinstance(o, ToolMessage)]` (or a generator of that shape):
    the one class a filtering comprehension keeps."""
    if not isinstance(expr, (cst.ListComp, cst.GeneratorExp, cst.SetComp)) or len(expr.for_in.ifs) != 1:
        return None
    test = expr.for_in.ifs[0].test
    if not (isinstance(test, cst.Call) and callee_name(test) == "isinstance" and len(test.args) == 2):
        return None
    subject, kind = test.args[0].value, test.args[1].value
    if not (isinstance(subject, cst.Name) and isinstance(expr.elt, cst.Name) and subject.value == expr.elt.value):
        return None
    return last_name(kind)


def _one_value(value: cst.BaseExpression) -> cst.BaseExpression:
    """The object `value` evaluates to when it is not nothing: `x` for `await x`, `x if c else None`,
    `None if c else x`."""
    while True:
        if isinstance(value, cst.Await):
            value = value.expression
        elif isinstance(value, cst.IfExp) and _is_none(value.orelse):
            value = value.body
        elif isinstance(value, cst.IfExp) and _is_none(value.body):
            value = value.orelse
        else:
            return value


def _is_none(value: cst.BaseExpression) -> bool:
    return isinstance(value, cst.Name) and value.value == "None"


def _keeps_elements(comp: cst.DictComp) -> bool:
    """`{key: o for o in xs ...}`: a mapping whose values are the objects of `xs` themselves."""
    loop = comp.for_in
    return (
        loop.inner_for_in is None and isinstance(loop.target, cst.Name) and isinstance(comp.value, cst.Name)
        and comp.value.value == loop.target.value
    )


def _alias_source(value: cst.BaseExpression) -> str | None:
    """The local `value` evaluates to the object of: `x` for `x`, `(y := x)`, `next(o for o in [x] if ...)`
    (the comprehension's `o` is bound to `x` by its loop)."""
    if isinstance(value, cst.Name) and value.value not in ("None", "True", "False"):
        return value.value
    if isinstance(value, cst.NamedExpr) and isinstance(value.target, cst.Name):
        return value.target.value
    if (
        isinstance(value, cst.Call) and callee_name(value) == "next" and value.args
        and isinstance(value.args[0].value, cst.GeneratorExp) and isinstance(value.args[0].value.elt, cst.Name)
    ):
        return value.args[0].value.elt.value
    return None
