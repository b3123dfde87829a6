"""The project-wide pass: which classes are spans and which functions bump, rehash or check.

It reads every file of the linted tree once with the standard `ast` module (several times faster
than a LibCST parse) and keeps only small, picklable summaries, so it can be cached per file and
merged cheaply. Rules ask `ProjectIndex`; they never re-derive these facts.
"""

from __future__ import annotations

import ast
import dataclasses
import re
import warnings
from bisect import bisect_right
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Iterable, Iterator, Mapping, MutableMapping

from spanlint.rules.names import (
    CONFIG_WORDS, COPY_CALLS, DIGEST_WORDS, METADATA_FIELDS, backing_content_fields, derived_endings, is_derived_field, name_parts,
)
from spanlint.rules.prune_effects import prune_effects, prune_lines
from spanlint.rules.prescan import (
    FunctionNode, alternation, block_fields, child_nodes, definition_nodes, definition_spans, definitions_holding,
    last_name, line_offsets, match_lines, own_nodes, own_statements, scan_shapes, spans_line, statement_parts, walk,
)
from runtime_guard.vocabulary import Vocabulary

if TYPE_CHECKING:
    from spanlint.rules.environment import FrameworkClasses

RECORD_DECORATORS = frozenset({"dataclass", "define", "frozen", "mutable", "attrs", "s", "dataclasses.dataclass"})
RECORD_BASES = frozenset({"BaseModel", "NamedTuple", "TypedDict", "Model", "Struct", "SQLModel", "Document"})
# Bases that give a class no fields or meaning of their own.
NEUTRAL_BASES = frozenset({"object", "ABC", "Generic", "Protocol"})
# Libraries whose classes give a class only its record kind (`pydantic.BaseModel`): not read from the environment.
RECORD_LIBRARIES = frozenset({
    "pydantic", "typing", "typing_extensions", "abc", "dataclasses", "attr", "attrs", "msgspec", "enum", "collections",
})
# Fields that place a widget on a screen: a class with two of them is a UI element, not a span.
LAYOUT_FIELDS = frozenset({"x", "y", "width", "height", "left", "top"})
# Last words of a class name that make it a screen element (`TicketPanel`, `StatusLabel`): not a span.
UI_NOUNS = frozenset({
    "widget", "panel", "pane", "label", "button", "window", "dialog", "modal", "toast", "banner", "tooltip",
    "badge", "tab", "screen", "view", "form", "menu", "toolbar", "sidebar", "card", "tile", "chip", "drawer",
    "bubble", "balloon", "popup", "popover",
})
# Last words of a class name that make it a database row (`TicketRow`): not a span.
ROW_NOUNS = frozenset({"row"})
# Last words of a class name that make it what crosses an API (`IngestRequest`, `WebhookPayload`) or a
# configuration (`AgentSettings`): not a span.
ENVELOPE_NOUNS = frozenset({"request", "payload"}) | CONFIG_WORDS
# Last words of a class name that make a class with an id and a text field something other than a span.
# Last words of a class name that make it an actor holding a conversation (`Agent`, `ChatAgent`): its
# messages are spans, it is not one.
ACTOR_NOUNS = frozenset({"agent", "agents"})
NOT_SPAN_NOUNS = UI_NOUNS | ROW_NOUNS | ENVELOPE_NOUNS | ACTOR_NOUNS
# Word parts of a class name, anywhere in it, that make a class with no span noun a screen element,
# configuration authored by a person or a unit of background work (`MenuItem`, `PromptPreset`,
# `ReplyTemplate`, `Job`): not a span.
SCREEN_OR_CONFIG_PARTS = UI_NOUNS | CONFIG_WORDS | frozenset({"preset", "profile", "template", "job", "jobs"})
# Fields that are a class's own identity when it declares no id field of the vocabulary's.
OWN_IDENTITY_FIELDS = ("uuid", "uid")
# Methods that make a class a container of other objects.
CONTAINER_METHODS = frozenset({"__iter__", "__getitem__", "get", "values"})
# Class-level calls that map a field to a database column or relation (SQLAlchemy, Flask-SQLAlchemy).
ORM_FIELD_CALLS = frozenset({"Column", "mapped_column", "relationship"})
# Calls that declare a record field and say in their arguments whether it has a default.
FIELD_SPECIFIERS = frozenset({"field", "Field", "ib", "attrib"})
# Syntax trees nested deeper than this are not linted: LibCST's native parser overflows its stack
# on some 5,000-deep expressions and takes the process down. Real code nests about 100 deep at most.
MAX_NESTING = 1000


@dataclass(frozen=True)
class ClassFacts:
    """What one class statement declares itself, before its bases are taken into account."""

    name: str
    declared: frozenset[str]
    properties: frozenset[str]
    bases: tuple[str, ...]
    is_record: bool
    path: str = ""
    methods: frozenset[str] = frozenset()
    # (field, class name of its annotation) for fields annotated with a plain class name.
    field_types: tuple[tuple[str, str], ...] = ()
    auto_versioned: bool = False  # an ORM bumps the version itself (SQLAlchemy `version_id_col`)
    table_row: bool = False  # an ORM maps it to a table (`__tablename__`, `Column(...)`, `table=True`)
    # (method, class name of its return annotation) for methods annotated with a plain class name.
    returns: tuple[tuple[str, str], ...] = ()
    numeric: frozenset[str] = frozenset()  # fields declared as one number or flag (`value: int`, `score: float | None`)
    # For each base, the absolute module it is imported from ("" when defined alongside or unknown):
    # how a base from an installed package (`TextNode`) is found (`ProjectIndex.frameworks`).
    base_modules: tuple[str, ...] = ()
    nullable: frozenset[str] = frozenset()  # fields annotated `Optional[...]`/`... | None` or defaulting to None
    # (method, the functions and methods whose results it returns) for methods annotated to return a
    # class that return a new object on every path (`ProjectIndex.returns_new`).
    new_returns: tuple[tuple[str, tuple[str, ...]], ...] = ()
    defaulted: frozenset[str] = frozenset()  # fields the class body gives a default (`version: int = 0`)
    annotated: tuple[str, ...] = ()  # the fields it annotates (`name: T`), in order: a record's positions
    # (class name, absolute module, name there) for the classes its `field_types` and `returns` name
    # that its module imports, or that a class of an installed package's module may define alongside:
    # how `AgentState.memory: Memory` is found in `letta.schemas.memory`.
    type_modules: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class SpanClass:
    """A class of the linted tree with the fields it declares or inherits, sorted by role."""

    name: str
    fields: frozenset[str]
    id_fields: tuple[str, ...]
    content_fields: tuple[str, ...]
    version_fields: tuple[str, ...]
    hash_fields: tuple[str, ...]
    hash_is_property: bool
    derived_fields: tuple[str, ...]
    is_record: bool
    path: str = ""
    content_setters: tuple[str, ...] = ()
    field_types: tuple[tuple[str, str], ...] = ()
    named_like_span: bool = False
    auto_versioned: bool = False
    strong_content: bool = False
    own_content: bool = False
    # Extends a class the tree does not define (a widget, an exception, an ORM base) other than a record base.
    foreign_base: bool = False
    table_row: bool = False
    returns: tuple[tuple[str, str], ...] = ()
    # The names of the classes it extends, directly or not, that the tree or the frameworks define.
    ancestors: frozenset[str] = frozenset()
    exempt: bool = False  # it or a class it extends is in `vocabulary.not_span_classes`
    nullable: frozenset[str] = frozenset()  # fields that may be set to None
    # It holds other objects (defines `__iter__`, `__getitem__`, `get` or `values`): what is read out
    # of it has the class its methods return, not its own.
    container: bool = False
    new_returns: tuple[tuple[str, tuple[str, ...]], ...] = ()  # `ClassFacts.new_returns`, inherited
    mapping: bool = False  # a `TypedDict`: its fields are items (`span["content"]`)
    defaulted: frozenset[str] = frozenset()  # `ClassFacts.defaulted`, inherited
    positions: tuple[str, ...] = ()  # a record's fields in the order positional arguments fill them
    # Its content is another object's: it exposes a content property or declares a field holding a
    # span-named class (`TurnSpan(span_id, message: ChatMessage, version, content_hash)`, `text` a property).
    holds_content: bool = False
    type_modules: tuple[tuple[str, str, str], ...] = ()  # `ClassFacts.type_modules`, inherited

    @property
    def is_span(self) -> bool:
        """A span declares an id and a content field (or a content setter method, or, with a version or
        hash, content it holds: `holds_content`), and is named with a
        span noun (`Message`, `TextNode`), carries a version or hash, is a record (dataclass, pydantic
        model...) whose content field is a strong one (`content`), or declares its own `id` and a
        content field other than `value` (`Note(id, text)`). Without a version or hash, a class named as
        a screen element, a database row, what crosses an API or a configuration (`MessageBubble`,
        `TicketPanel`, `TicketRow`, `IngestRequest`, `AgentSettings`) is not; without
        a span noun either, nor is one that extends a library class (a widget, an exception), maps a
        database table, is placed on a screen (two layout fields: `Label(id, text, x, y)`) or is named
        as a screen element, a configuration or a job anywhere in its name (`MenuItem`, `PromptPreset`,
        `Job`); nor is one
        the configuration exempts (`vocabulary.not_span_classes`)."""
        tracked = bool(self.version_fields or self.hash_fields)
        if self.exempt or not (self.id_fields and (self.content_fields or self.content_setters or (tracked and self.holds_content))):
            return False
        if tracked:
            return True
        if (parts := name_parts(self.name)) and parts[-1] in NOT_SPAN_NOUNS:
            return False  # `MessageBubble`, `MessageRequest`: the span noun only says what it shows or carries
        if self.named_like_span:
            return True
        if self.foreign_base or self.table_row or len(self.fields & LAYOUT_FIELDS) >= 2 or set(parts) & SCREEN_OR_CONFIG_PARTS:
            return False
        return (self.is_record and self.strong_content) or self.own_content

    def field_type(self, field_name: str) -> str | None:
        """The class name a field (or property) is annotated with, if any."""
        return next((t for f, t in self.field_types if f == field_name), None)

    def returns_new(self, method: str) -> tuple[str, ...] | None:
        """For a method that returns a new object on every path, the functions and methods whose
        results it returns (new when theirs are); None when it may return an object it did not build."""
        return dict(self.new_returns).get(method)

    def return_type(self, method: str) -> str | None:
        """The class name a method's return annotation names (`Msg` for `-> Msg | None`), if any."""
        return next((t for m, t in self.returns if m == method), None)

    def type_origin(self, type_name: str) -> tuple[str, str] | None:
        """(absolute module, name there) of a class its fields or methods are annotated with, when its
        own module says where that class comes from."""
        return next(((module, real) for t, module, real in self.type_modules if t == type_name), None)

    @property
    def version_field(self) -> str | None:
        return self.version_fields[0] if self.version_fields else None

    @property
    def stored_hash_field(self) -> str | None:
        return self.hash_fields[0] if self.hash_fields and not self.hash_is_property else None


@dataclass(frozen=True)
class HelperEffects:
    """What a function of the linted tree does to the parameters it is given (by position and name)."""

    params: tuple[str, ...]
    bumps: frozenset[str] = frozenset()
    rehashes: frozenset[str] = frozenset()
    checks: bool = False
    resets: frozenset[str] = frozenset()  # parameters whose derived fields (embedding, offsets...) it assigns
    # SPL401 (`rules.prune_effects`): it records to a decision log; the containers it prunes (`spans`, `self._spans`).
    records: bool = False
    prunes: frozenset[str] = frozenset()


# A call that builds an object of a class from another object's id and other values, some maybe
# computed from that object's content (`Quote(ref=s.span_id, text=s.content[a:b])`): (class name, the
# arguments given the id, the arguments given values computed from the content, the class the object's
# annotation names or "", the id field read); an argument is its keyword, or its position.
RecordBuild = tuple[str, tuple["str | int", ...], tuple["str | int", ...], str, str]


@dataclass(frozen=True)
class MethodCalls:
    """The methods a file calls (`x.m(...)`), by what the receiver is known to be: a local the calling
    function built itself (`r = ChatResponse(...)`; `r.append_text(t)`), a field of `self` declared
    with a class (`self._tts: TtsClient`), or anything else. A method every call of which, in the
    whole tree, is on an object its caller built changes no object anyone else holds
    (`ProjectIndex.called_only_on_built`)."""

    built: tuple[str, ...] = ()  # methods called on a local the calling function built
    typed: tuple[tuple[str, str], ...] = ()  # (method, class) of calls on a field of `self` declared with a class
    other: tuple[str, ...] = ()  # methods called on any other receiver (a parameter, `self`, a read...)

    def __bool__(self) -> bool:
        return bool(self.built or self.typed or self.other)


@dataclass
class FileSummary:
    """The project-wide facts one file contributes."""

    classes: dict[str, ClassFacts] = field(default_factory=dict)
    helpers: dict[str, HelperEffects] = field(default_factory=dict)
    # (reason, line, column) when the standard parser rejects the file.
    syntax_error: tuple[str, int, int] | None = None
    # The shapes the rules' pre-filters found in the file (`rules.prescan`), for `Rule.may_match_summary`.
    shapes: frozenset[str] = frozenset()
    # (first line, last line, column) of each function and method (`rules.prescan.definition_spans`),
    # and for each shape the indices of the definitions holding it: the parts of the file LibCST must
    # parse for rules that are `local_to_definitions`.
    definitions: tuple[tuple[int, int, int], ...] = ()
    shape_definitions: dict[str, frozenset[int]] = field(default_factory=dict)
    # (module, name) of each class-like name the file imports from an absolute module
    # (`from llama_index.core.schema import TextNode`), for `rules.environment.FrameworkClasses.preload`.
    imports: tuple[tuple[str, str], ...] = ()
    builds: tuple[RecordBuild, ...] = ()
    # (name, path, sources) of each module-level function that returns a new object (`new_object_sources`).
    makers: tuple[tuple[str, str, tuple[str, ...]], ...] = ()
    calls: MethodCalls = field(default_factory=MethodCalls)  # its method calls, by receiver
    metadata_ids: tuple[str, ...] = ()  # `metadata_id_keys`: the span ids it reads out of metadata mappings

    def index_part(self) -> "FileSummary | None":
        """What `ProjectIndex.add` reads of this summary (classes, helpers, builds, makers, calls,
        metadata ids); None when it adds nothing."""
        if not (self.classes or self.helpers or self.builds or self.makers or self.calls or self.metadata_ids):
            return None
        return FileSummary(
            classes=self.classes, helpers=self.helpers, builds=self.builds, makers=self.makers, calls=self.calls,
            metadata_ids=self.metadata_ids,
        )


@dataclass
class ProjectIndex:
    """Classes and helper effects of the whole linted tree, keyed by unqualified name."""

    vocabulary: Vocabulary
    classes: MutableMapping[str, ClassFacts] = field(default_factory=dict)
    helpers: MutableMapping[str, HelperEffects] = field(default_factory=dict)
    # Classes whose name the tree defines more than once, every definition (first is `classes[name]`).
    alternatives: MutableMapping[str, list[ClassFacts]] = field(default_factory=dict)
    # For each class name, the calls of the tree that build one from another object's id and content.
    builds: MutableMapping[str, list[RecordBuild]] = field(default_factory=dict)
    # For each module-level function name, (path, sources) of its definitions that return a new object.
    makers: MutableMapping[str, list[tuple[str, tuple[str, ...]]]] = field(default_factory=dict)
    # The tree's method calls (`MethodCalls`), merged: methods called on an object the caller built, the
    # classes of the typed fields of `self` each method is called on, methods called on anything else.
    built_calls: set[str] = field(default_factory=set)
    typed_calls: MutableMapping[str, set[str]] = field(default_factory=dict)
    other_calls: set[str] = field(default_factory=set)
    # Where the tree keeps the ids of spans whose class declares none: keys of their metadata mappings
    # (`meta[MESSAGE_ID_KEY]`, `metadata["message_id"]`: `metadata_id_keys`).
    metadata_ids: set[str] = field(default_factory=set)
    # Classes of installed packages, else bundled facts (`rules.environment.FrameworkClasses`): the
    # classes the tree imports or extends but does not define. Not stored with the index.
    frameworks: "FrameworkClasses | None" = field(default=None, repr=False)
    _resolved: dict[tuple[str, str], SpanClass | None] = field(default_factory=dict, repr=False)
    _span_nouns: dict[str, bool] = field(default_factory=dict, repr=False)  # `names_span_class`, per word
    _by_last_part: dict[str, list[str]] | None = field(default=None, repr=False)  # class names by last word part
    _definers: dict[tuple[str, str], str | None] = field(default_factory=dict, repr=False)  # `class_defining`

    @classmethod
    def merge(cls, vocabulary: Vocabulary, summaries: Iterable[FileSummary]) -> "ProjectIndex":
        index = cls(vocabulary)
        for summary in summaries:
            index.add(summary)
        return index

    def add(self, summary: FileSummary) -> None:
        """Add one file's facts; on a name defined twice, the first definition seen wins."""
        for name, facts in summary.classes.items():
            first = self.classes.setdefault(name, facts)
            if first is not facts:
                self.alternatives.setdefault(name, [first]).append(facts)
        for name, helper in summary.helpers.items():
            add_helper(self.helpers, name, helper)
        for build in summary.builds:
            self.builds.setdefault(build[0], []).append(build)
        for name, path, sources in summary.makers:
            self.makers.setdefault(name, []).append((path, sources))
        calls = summary.calls
        self.built_calls.update(calls.built)
        self.other_calls.update(calls.other)
        for method, class_name in calls.typed:
            self.typed_calls.setdefault(method, set()).add(class_name)
        self.metadata_ids.update(summary.metadata_ids)
        self._resolved.clear()
        self._span_nouns.clear()
        self._by_last_part = None
        self._definers.clear()

    def names_span_class(self, word: str) -> bool:
        """A span class of the tree has `word` as the last part of its name (`record` for `MemoryRecord`):
        `record_id` in another record then names one of its spans' ids."""
        found = self._span_nouns.get(word)
        if found is None:
            if self._by_last_part is None:
                self._by_last_part = {}
                for name in self.classes:
                    parts = name_parts(name)
                    if parts:
                        self._by_last_part.setdefault(parts[-1], []).append(name)
            found = self._span_nouns[word] = any(
                (c := self.class_named(name)) is not None and c.is_span for name in self._by_last_part.get(word, ())
            )
        return found

    def class_defining(self, method: str, noun: str) -> SpanClass | None:
        """The one class of the tree that defines `method` and has `noun` in its name (`SpanStore` for
        `drop` called on `self.store`, a field typed `Any`), if exactly one does."""
        key = (method, noun)
        if key not in self._definers:
            found = [
                name for name, facts in self.classes.items()
                if method in facts.methods and noun in name_parts(name)
            ]
            self._definers[key] = found[0] if len(found) == 1 else None
        return self.class_named(self._definers[key])

    def class_named(self, name: str | None, origin: str | None = None, module: str | None = None) -> SpanClass | None:
        """The class named `name` with its inherited fields, if the tree defines it, else if `module`
        (the absolute module it is imported from) or an installed framework class already read does.

        When the tree defines the name several times, `origin` (the path, without `.py`, of the
        module it is imported from or defined in, e.g. `pkg/schemas/block`) picks the definition.
        """
        if not name:
            return None
        facts = self._definition(name, origin)
        if facts is None or (module and not _defined_in(facts, module.replace(".", "/"))):
            facts = self._framework_class(name, module) or facts
        if facts is None:
            return None
        key = (facts.name, facts.path)  # a framework class imported under another name keeps its own
        if key not in self._resolved:
            self._resolved[key] = self._resolve(facts.name, facts)
        return self._resolved[key]

    def _framework_class(self, name: str, module: str | None, imported: bool = True) -> ClassFacts | None:
        if self.frameworks is None or name in NEUTRAL_BASES or (module or "").split(".")[0] in RECORD_LIBRARIES:
            return None
        return self.frameworks.class_facts(module, name, imported) if module else self.frameworks.read_class(name)

    def subclass_declaring(self, base: SpanClass, field_name: str) -> SpanClass | None:
        """For a value declared as a framework class that lacks the content field written to it
        (`NodeWithScore.node: BaseNode`, `.text`), the subclass read from the same framework that
        declares it (`TextNode`); the one nearest `base` when several do."""
        if self.frameworks is None:
            return None
        found = [
            known for name in sorted(self.frameworks.read)
            if (known := self.class_named(name)) is not None and base.name in known.ancestors
            and field_name in known.content_fields
        ]
        return min(found, key=lambda c: len(c.ancestors), default=None)

    def returns_new(self, name: str, owner: SpanClass | None, origin: str, _seen: frozenset[str] = frozenset()) -> bool:
        """A call of `name` returns a new object on every path: a method of `owner` (inherited or its
        own), else a module-level function of the module at `origin` (`pkg/mod`), whose every return
        builds one or returns what such a function or method returns (`new_object_sources`)."""
        if name in _seen:
            return False
        sources = owner.returns_new(name) if owner is not None else None
        if sources is not None and owner is not None:
            origin = _module_path(owner.path)  # what it calls by plain name is defined beside it
        else:
            sources = next((made for path, made in self.makers.get(name, ()) if _path_is(path, origin)), None)
            owner = None
        if sources is None:
            return False
        seen = _seen | {name}
        return all(self.returns_new(source, owner, origin, seen) for source in sources)

    def calls_method(self, method: str) -> bool:
        """Some code of the tree calls a method named `method` (`x.method(`)."""
        return method in self.built_calls or method in self.other_calls or method in self.typed_calls

    def called_only_on_built(self, method: str, owner: SpanClass) -> bool:
        """The tree calls `method` of `owner`, and every call is on an object the caller built itself
        (`MethodCalls.built`): none on another receiver (`self`, a parameter, an object read out of a
        container) that may be an `owner`; a call on a field declared with an unrelated class
        (`self._tts_client.append_text(...)` on a `TtsClient`) is not a call of `owner`'s method.
        A method the tree never calls (public API) is called on objects others hold."""
        if method not in self.built_calls or method in self.other_calls:
            return False
        for class_name in self.typed_calls.get(method, ()):
            known = self.class_named(class_name)
            if class_name == owner.name or class_name in owner.ancestors or (known is not None and owner.name in known.ancestors):
                return False
        return True

    def is_private_builder(self, owner: SpanClass) -> bool:
        """`owner` is a private class (`_AccTextBlock`: no code outside its package builds or takes one)
        with a method of its own that builds a new object of another class out of it (`build() ->
        TextBlock`, `ClassFacts.new_returns`): an accumulator whose instances only the code that
        builds them holds; its product is what others hold."""
        if not owner.name.startswith("_"):
            return False
        own = next((c for c in (self.classes.get(owner.name), *self.alternatives.get(owner.name, ())) if c is not None and c.path == owner.path), None)
        returns = dict(own.returns) if own is not None else {}
        return own is not None and any(returns.get(method) not in (None, owner.name) for method, _ in own.new_returns)

    def span_class(self, name: str | None, origin: str | None = None) -> SpanClass | None:
        """The class named `name` if it is a span class (declares or inherits an id and a content field)."""
        found = self.class_named(name, origin)
        return found if found is not None and found.is_span else None

    def _definition(self, name: str, origin: str | None) -> ClassFacts | None:
        facts = self.classes.get(name)
        if facts is None or origin is None or name not in self.alternatives:
            return facts
        stems = [
            (c, "/" + _module_path(c.path).lstrip("/"))
            for c in self.alternatives[name]
        ]
        wanted = "/" + origin.lstrip("/")
        for candidate, stem in stems:
            if stem.endswith(wanted):
                return candidate
        # `from pkg.agent import Agent` where `pkg/agent/__init__.py` re-exports it from a module inside.
        inside = [candidate for candidate, stem in stems if wanted + "/" in stem]
        return inside[0] if len(inside) == 1 else facts

    def _resolve(self, name: str, facts: ClassFacts) -> SpanClass | None:
        declared: set[str] = set()
        properties: set[str] = set()
        methods: set[str] = set()
        nullable: set[str] = set()
        defaulted: set[str] = set()
        field_types: dict[str, str] = {}
        returns: dict[str, str] = {}
        new_returns: dict[str, tuple[str, ...]] = {}
        type_modules: dict[str, tuple[str, str, str]] = {}
        numeric: set[str] = set()
        is_record = auto_versioned = foreign_base = table_row = mapping = False
        seen: set[str] = set()
        overridden: set[str] = set()  # methods of the classes read so far, nearest first
        chain: list[ClassFacts] = []
        pending = [facts]
        while pending:
            current = pending.pop()
            if current.name in seen:
                continue
            seen.add(current.name)
            chain.append(current)
            declared |= current.declared
            properties |= current.properties - current.declared
            methods |= current.methods
            nullable |= current.nullable
            defaulted |= current.defaulted
            auto_versioned = auto_versioned or current.auto_versioned
            table_row = table_row or current.table_row
            for field_name, type_name in current.field_types:
                field_types.setdefault(field_name, type_name)
            for method, type_name in current.returns:
                returns.setdefault(method, type_name)
            for origin in current.type_modules:
                type_modules.setdefault(origin[0], origin)
            for method, made_by in current.new_returns:
                if method not in overridden:  # an override returning something else hides the base's
                    new_returns.setdefault(method, made_by)
            overridden |= current.methods
            numeric |= current.numeric
            is_record = is_record or current.is_record
            mapping = mapping or "TypedDict" in current.bases
            modules = current.base_modules or ("",) * len(current.bases)
            for base, module in zip(current.bases, modules):
                parent = self.classes.get(base)
                if parent is None or parent.name in seen:
                    parent = self._framework_class(base, module, imported=self.classes.get(current.name) is current)
                if parent is not None:
                    pending.append(parent)
                elif base not in RECORD_BASES and base not in NEUTRAL_BASES:
                    foreign_base = True
        properties -= declared
        vocabulary = self.vocabulary
        fields_ = declared | properties
        # A field declared as a number or flag (`value: int`, a score) holds no text: it is not content.
        textual = declared - numeric
        hash_fields = tuple(f for f in vocabulary.hash_fields if f in fields_) + _own_hash_fields(textual, vocabulary)
        own_text = any(f in textual for f in vocabulary.class_content_fields)
        tracked = bool(hash_fields) or any(f in fields_ for f in vocabulary.version_fields)
        # An id named after what the class is, its name's last word (`Note.note_id`, `ScratchNote.note_id`).
        named_id = _own_id_fields((name_parts(name) or [""])[-1], fields_, vocabulary, tracked=True) if own_text else ()
        id_fields = tuple(f for f in vocabulary.id_fields if f in fields_) + (
            _own_id_fields(name, fields_, vocabulary, tracked=tracked) or named_id
        )
        if not id_fields:  # an identity it declares itself under its usual name (CAMEL's `MemoryRecord.uuid`)
            id_fields = tuple(f for f in OWN_IDENTITY_FIELDS if f in facts.declared)[:1]
        in_metadata = not id_fields
        if in_metadata:  # its id lives in its metadata (Haystack's `ChatMessage.meta`)
            id_fields = tuple(sorted(k for k in self.metadata_ids if k.partition("[")[0] in fields_))[:1]
        # Behind a content property (Haystack's `ChatMessage.text`), `_content` is content too. A class
        # whose id is in its metadata and that declares no content field keeps its content behind the
        # property (Semantic Kernel's `ChatMessageContent.content`); a wrapper's properties
        # (`NodeWithScore.text`, `.node_id`) are its span's.
        content_properties = tuple(f for f in vocabulary.content_fields if f in properties)
        backing = tuple(f for f in backing_content_fields(vocabulary) if f in textual) if content_properties else ()
        if in_metadata and not backing and not any(f in textual for f in vocabulary.content_fields):
            backing = content_properties
        return SpanClass(
            name=name,
            fields=frozenset(fields_),
            id_fields=id_fields,
            content_fields=tuple(f for f in vocabulary.content_fields if f in textual) + backing,
            version_fields=tuple(f for f in vocabulary.version_fields if f in fields_),
            hash_fields=hash_fields,
            hash_is_property=bool(hash_fields) and all(f in properties for f in hash_fields),
            derived_fields=tuple(f for f in vocabulary.derived_fields if f in fields_)
            + tuple(sorted(f for f in fields_ if f not in vocabulary.derived_fields and is_derived_field(f, vocabulary))),
            is_record=is_record,
            path=facts.path,
            content_setters=tuple(m for m in vocabulary.content_setters if m in methods),
            field_types=tuple(sorted(field_types.items())),
            auto_versioned=auto_versioned,
            foreign_base=foreign_base,
            table_row=table_row,
            returns=tuple(sorted(returns.items())),
            ancestors=frozenset(seen - {name}),
            exempt=bool(seen & set(vocabulary.not_span_classes)),
            nullable=frozenset(nullable),
            container=bool(methods & CONTAINER_METHODS),
            new_returns=tuple(sorted(new_returns.items())),
            mapping=mapping,
            type_modules=tuple(sorted(type_modules.values())),
            defaulted=frozenset(defaulted),
            positions=tuple(dict.fromkeys(f for current in reversed(chain) for f in current.annotated)),
            strong_content=any(f in textual for f in vocabulary.strong_content_fields),
            # text of its own under an id of its own (`Note(id, body)`, `Note(note_id, body)`)
            own_content=own_text and (any(f in fields_ for f in _own_id_names(vocabulary)) or bool(named_id)),
            named_like_span=any(
                part in vocabulary.span_nouns or part.rstrip("s") in vocabulary.span_nouns for part in name_parts(name)
            ),
            holds_content=bool(content_properties) or any(
                (parts := name_parts(field_types.get(f, ""))) and parts[-1] in vocabulary.span_nouns for f in declared
            ),
        )


def _defined_in(facts: ClassFacts, origin: str) -> bool:
    """The class's file is the module at `origin` (`pkg/schemas/block`)."""
    return _path_is(facts.path, origin)


def _path_is(path: str, origin: str) -> bool:
    """The file at `path` is the module at `origin` (`pkg/schemas/block`)."""
    stem = _module_path(path)
    return stem == origin or stem.endswith("/" + origin)


def _module_path(path: str) -> str:
    """`pkg/schemas/block` for `pkg/schemas/block.py` (or `.../block/__init__.py`)."""
    return path.replace("\\", "/").removesuffix(".py").removesuffix("/__init__")


def summarize_source(source: str, vocabulary: Vocabulary, path: str = "") -> FileSummary:
    """The project-wide facts of one file; an unparsable file contributes only its syntax error."""
    try:
        with warnings.catch_warnings():  # the linted code's SyntaxWarnings are not spanlint's to print
            warnings.simplefilter("ignore")
            tree = ast.parse(source)
    except SyntaxError as error:
        return FileSummary(syntax_error=(f"syntax error: {error.msg}", error.lineno or 1, error.offset or 1))
    except (ValueError, RecursionError, MemoryError) as error:
        reason = "nesting too deep to parse" if not isinstance(error, ValueError) else str(error)
        return FileSummary(syntax_error=(reason, 1, 1))
    depth = nesting_depth(tree, source, MAX_NESTING)
    if depth > MAX_NESTING:
        reason = f"nesting too deep: the syntax tree is {depth:,} levels deep, over the limit of {MAX_NESTING:,}"
        return FileSummary(syntax_error=(reason, 1, 1))
    summary = FileSummary()
    imported = module_imports(tree.body)
    summary.imports = tuple(sorted(
        (module, real) for module, real in imported.values() if real[:1].isupper()
    ))
    helper_lines = _helper_word_lines(source, vocabulary)
    id_lines = id_read_lines(source, vocabulary)
    builds: list[RecordBuild] = []
    removal_lines = prune_lines(source, vocabulary)
    binding_lines = expression_binding_lines(source)
    for node in _definitions(tree):
        if isinstance(node, ast.ClassDef):
            summary.classes.setdefault(node.name, class_facts(node, path, imported, binding_lines=binding_lines))
            continue
        effects = _helper_effects(node, vocabulary) if spans_line(node, helper_lines) else None
        if spans_line(node, removal_lines):
            effects = _with_prune_effects(node, vocabulary, effects)
        if effects is not None:
            add_helper(summary.helpers, node.name, effects)
        if spans_line(node, id_lines):
            builds.extend(_record_builds(node, vocabulary, id_lines))
    for name, facts in _mapping_aliases(tree, path).items():
        summary.classes.setdefault(name, facts)
    summary.builds = tuple(builds)
    summary.metadata_ids = metadata_id_keys(source, vocabulary)
    summary.makers = tuple(
        (node.name, path, made_by) for node in tree.body
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.returns is not None
        and _annotated_class(node.returns) not in (None, *BUILTIN_TYPES)
        and (made_by := new_object_sources(node, binding_lines)) is not None
    )
    found = scan_shapes(tree, source, vocabulary)
    summary.shapes = frozenset(found)
    summary.definitions = definition_spans(tree)
    summary.calls = method_calls(tree, source, summary, imported)
    summary.shape_definitions = {
        shape: definitions_holding(summary.definitions, lines) for shape, lines in found.items()
    }
    return summary


_MAPPING_TYPES = frozenset({"dict", "Dict", "Mapping", "MutableMapping"})


def _mapping_aliases(tree: ast.Module, path: str) -> dict[str, ClassFacts]:
    """Records kept as plain dicts under a name of their own (`Span = dict[str, Any]`, `Span: TypeAlias =
    ...`, `type Span = ...`), read as a `TypedDict` whose keys are those of the dict literals the module's
    functions annotated to return one build (`def make_span(...) -> Span: return {"id": ..., "text": ...}`)."""
    aliases: set[str] = set()
    for statement in tree.body:
        target = value = None
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
            target, value = statement.targets[0].id, statement.value
        elif isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and last_name(statement.annotation) == "TypeAlias":
            target, value = statement.target.id, statement.value
        elif type(statement).__name__ == "TypeAlias":  # `type Span = dict[str, Any]` (Python 3.12)
            target, value = getattr(statement.name, "id", None), statement.value  # type: ignore[attr-defined]
        if target and target[:1].isupper() and isinstance(value, ast.Subscript) and last_name(value.value) in _MAPPING_TYPES:
            aliases.add(target)
    if not aliases:
        return {}
    keys: dict[str, set[str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) or node.returns is None:
            continue
        alias = _annotated_class(node.returns)
        if alias not in aliases:
            continue
        literals = {t.id: n.value for n in own_statements(node) if isinstance(n, ast.Assign) and isinstance(n.value, ast.Dict)
                    for t in n.targets if isinstance(t, ast.Name)}
        for returned in own_statements(node):
            if isinstance(returned, ast.Return) and returned.value is not None:
                value = literals.get(returned.value.id) if isinstance(returned.value, ast.Name) else returned.value
                if isinstance(value, ast.Dict):
                    keys.setdefault(alias, set()).update(
                        k.value for k in value.keys if isinstance(k, ast.Constant) and isinstance(k.value, str)
                    )
    return {
        alias: ClassFacts(alias, frozenset(found), frozenset(), ("TypedDict",), True, path, annotated=tuple(sorted(found)))
        for alias, found in keys.items() if found
    }


_DEFINITIONS = (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
# `x.m(`: a call of the method `m` (starting with a literal character, for a fast search).
_METHOD_CALL = re.compile(r"\.\s*([A-Za-z_]\w*)\s*\(")
_CALLED_AFTER_DOT = re.compile(r"\s*([A-Za-z_]\w*)\s*\(")  # `m(` after `x.`
# A value that may build an object (a constructor call, a copy: `= ChatResponse(`, `= m.model_copy(`),
# and what must stand before it on its line for a local to be bound to it (`delta`, `delta: Reply`).
_BUILDING_VALUE = re.compile(rf"=[ \t]*(?:await[ \t]+)?(?:[\w.]+\.)?(?:_*[A-Z]\w*|{alternation(COPY_CALLS)})\s*\(")
_BOUND_LOCAL = re.compile(r"[ \t]*([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?")
# the target of a `for` header (`f(?<!\wf)or`: `\bfor` starting with a literal, for a fast search)
_LOOP_TARGET = re.compile(r"f(?<!\wf)or[ \t]+([\w \t,()\[\]*]+?)[ \t]+in\b")


def method_calls(
    tree: ast.Module, source: str, summary: FileSummary, imported: Mapping[str, tuple[str, str]]
) -> MethodCalls:
    """The file's method calls by receiver (`MethodCalls`), counted on the text: every `.m(` is a call
    of `m`; those on a local that every binding in its function builds (`built_locals`) and those on
    a field of `self` that a class of the file declares with a class (defined in the file or imported
    from a module, not `Any` or a type variable; `module_imports` gives `imported`) are taken out of
    the rest."""
    called = Counter(_METHOD_CALL.findall(source))
    if not called:
        return MethodCalls()
    typed: Counter[str] = Counter()
    typed_calls: set[tuple[str, str]] = set()
    fields: dict[str, str | None] = {}
    if summary.classes:
        known = {*summary.classes, *(
            local for local, (module, _) in imported.items() if module.split(".")[0] not in RECORD_LIBRARIES
        ), *(
            alias.asname or alias.name for statement in tree.body if isinstance(statement, ast.ImportFrom) and statement.level
            for alias in statement.names
        )}
        for facts in summary.classes.values():
            for field_name, class_name in facts.field_types:
                typed_as = class_name if class_name in known else None
                fields[field_name] = typed_as if fields.get(field_name, typed_as) == typed_as else None
    for field_name, class_name in fields.items():
        for method in _methods_called_on(f"self.{field_name}", source, 0, len(source)) if class_name else ():
            typed[method] += 1
            typed_calls.add((method, class_name))
    built = _calls_on_built_locals(tree, source, summary.definitions)
    other = called - built - typed if built or typed else called
    return MethodCalls(tuple(sorted(built)), tuple(sorted(typed_calls)), tuple(sorted(other)))


def _calls_on_built_locals(tree: ast.Module, source: str, spans: tuple[tuple[int, int, int], ...]) -> Counter[str]:
    """How often each method is called (`x.m(`) on a local `x` its function built (`built_locals`), in
    the functions and methods of `spans` (`definition_spans`) holding a line that may build one."""
    found: Counter[str] = Counter()
    matches = list(_BUILDING_VALUE.finditer(source))
    if not matches or not spans:
        return found
    line_starts = line_offsets(source)
    firsts = [first for first, _, _ in spans]
    candidates: dict[int, set[str]] = {}
    for match in matches:
        line = bisect_right(line_starts, match.start())
        bound = _BOUND_LOCAL.fullmatch(source, line_starts[line - 1], match.start())
        index = bisect_right(firsts, line) - 1
        if bound is not None and index >= 0 and line <= spans[index][1]:
            candidates.setdefault(index, set()).add(bound.group(1))
    nodes: list[FunctionNode] = []
    for index, names in candidates.items():
        first, last, _ = spans[index]
        start, end = line_starts[first - 1], line_starts[last] if last < len(line_starts) else len(source)
        calls = {name: methods for name in names if (methods := _methods_called_on(name, source, start, end))}
        if not calls:
            continue
        nodes = nodes or list(definition_nodes(tree))
        for receiver in built_locals(nodes[index], calls, source[start:end]):
            found.update(calls[receiver])
    return found


def _methods_called_on(name: str, source: str, start: int, end: int) -> list[str]:
    """The methods called on `name` (a local, or `self.field`: `name.m(`) in `source[start:end]`, each
    call once (`name .m(`, rare, is left out: taken as a call on another object)."""
    found = []
    dotted = f"{name}."
    at = source.find(dotted, start, end)
    while at >= 0:
        before = source[at - 1] if at else ""
        if not (before.isalnum() or before in "_."):
            call = _CALLED_AFTER_DOT.match(source, at + len(dotted), end)
            if call is not None:
                found.append(call.group(1))
        at = source.find(dotted, at + 1, end)
    return found
_ID_READS: dict[Vocabulary, re.Pattern[str]] = {}


def id_read_pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    """A read of an id field (`.span_id`, `["id"]`, or any `<noun>_id`, which may be a project span
    class's own: `.seg_id`)."""
    pattern = _ID_READS.get(vocabulary)
    if pattern is None:
        fields = alternation(vocabulary.id_fields)
        pattern = _ID_READS[vocabulary] = re.compile(rf"\.(?:{fields}|\w+_id)(?!\w)|\[[\"'](?:{fields}|\w+_id)[\"']\]")
    return pattern


def id_read_lines(source: str, vocabulary: Vocabulary) -> list[int]:
    """The lines reading an id field (`id_read_pattern`): every `RecordBuild` holds one."""
    return match_lines(source, id_read_pattern(vocabulary))


# A key read out of a metadata mapping: `.meta[KEY]`, `.metadata.get("message_id"`, `.meta.setdefault(KEY`.
_METADATA_READ = re.compile(
    rf"\.({alternation(METADATA_FIELDS)})\s*(?:\[\s*|\.(?:get|setdefault|pop)\(\s*)(?:([A-Z][A-Z0-9_]*)\b|([\"'])([\w-]+)\3)"
)
# Trailing words of a constant naming a key rather than what it holds (`MESSAGE_ID_KEY`).
_KEY_WORDS = frozenset({"key", "field", "name"})


def metadata_id_keys(source: str, vocabulary: Vocabulary) -> tuple[str, ...]:
    """The span ids the file reads out of metadata mappings, as the mapping and key it reads
    (`meta[MESSAGE_ID_KEY]`, `metadata["message_id"]`): keys that are id fields of the vocabulary, or
    `<noun>_id` of a span noun, spelled out or as a constant's name."""
    if not any(f in source for f in METADATA_FIELDS):
        return ()
    found: set[str] = set()
    for read in _METADATA_READ.finditer(source):
        mapping, constant, quote, literal = read.groups()
        parts = name_parts(constant or literal)
        while constant and len(parts) > 1 and parts[-1] in _KEY_WORDS:
            parts = parts[:-1]
        if "_".join(parts) in vocabulary.id_fields or (
            len(parts) > 1 and parts[-1] == "id" and any(p in vocabulary.span_nouns for p in parts)
        ):
            found.add(metadata_key_field(mapping, constant or literal, literal=not constant))
    return tuple(sorted(found))


def metadata_key_field(mapping: str, key: str, literal: bool) -> str:
    """The field name of a value kept under `key` (a constant's name, or a string's text: `literal`) in the
    metadata mapping `mapping`: `meta[MESSAGE_ID_KEY]`, `metadata["message_id"]`, whatever quotes the code used."""
    return f'{mapping}["{key}"]' if literal else f"{mapping}[{key}]"


def _record_builds(
    function: ast.FunctionDef | ast.AsyncFunctionDef, vocabulary: Vocabulary, id_lines: list[int]
) -> Iterator[RecordBuild]:
    """The calls of `function` (not of functions nested in it) that build an object of a class from another
    object's id and other values; only statements spanning one of `id_lines` (`id_read_lines`) are read."""
    annotations = {
        a.arg: _annotated_class(a.annotation) or "" for a in (*function.args.posonlyargs, *function.args.args,
                                                             *function.args.kwonlyargs) if a.annotation is not None
    }
    ids, contents = frozenset(vocabulary.id_fields), frozenset(vocabulary.class_content_fields)
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)) or (
            isinstance(node, ast.stmt) and not spans_line(node, id_lines)
        ):
            continue
        pending.extend(child_nodes(node))
        if not isinstance(node, ast.Call) or not last_name(node.func)[:1].isupper():
            continue
        arguments = [*enumerate(node.args), *((k.arg, k.value) for k in node.keywords if k.arg)]
        if len(arguments) < 2:
            continue
        reads = {(read, _read_field(value)) for _, value in arguments if (read := _id_read(value, ids)) is not None}
        for owner, id_field in reads:
            given_id = tuple(key for key, value in arguments if _id_read(value, ids) == owner)
            computed = tuple(key for key, value in arguments if _computes_from(value, owner, contents))
            yield last_name(node.func), given_id, computed, annotations.get(owner, ""), id_field


def _field_read(value: ast.expr, fields: frozenset[str]) -> str | None:
    """`x` for `x.<field>` or `x["<field>"]` with one of `fields`."""
    if isinstance(value, ast.Attribute) and value.attr in fields and isinstance(value.value, ast.Name):
        return value.value.id
    if (
        isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name) and isinstance(value.slice, ast.Constant)
        and value.slice.value in fields
    ):
        return value.value.id
    return None


def _id_read(value: ast.expr, ids: frozenset[str]) -> str | None:
    """`x` for `x.<id field>`, or `x.<noun>_id` (the own id field of a project span class, `Segment.seg_id`,
    which only the project index can tell: `RecordBuild`'s users check it)."""
    found = _field_read(value, ids)
    if found is None and isinstance(field_ := _read_field(value), str) and field_.endswith("_id"):
        found = _field_read(value, frozenset({field_}))
    return found


def _read_field(value: ast.expr) -> str:
    """`f` for `x.f` or `x["f"]`."""
    if isinstance(value, ast.Attribute):
        return value.attr
    return value.slice.value if isinstance(value, ast.Subscript) and isinstance(value.slice, ast.Constant) else ""


def _computes_from(value: ast.expr, owner: str, contents: frozenset[str]) -> bool:
    """`value` computes something from `owner`'s content (`embed(x.text)`, `x.text[a:b]`), other than
    the content itself."""
    if _field_read(value, contents) is not None:
        return False
    return any(_field_read(n, contents) == owner for n in walk(value) if isinstance(n, (ast.Attribute, ast.Subscript)))


def _definitions(tree: ast.Module) -> Iterator[ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef]:
    """Every class and function statement of `tree` in `ast.walk` order (breadth first).

    Statements nest only in statements, `except` handlers and `case` blocks, so the walk skips
    every expression: the same definitions in the same order, for a fraction of the nodes.
    """
    queue: deque[ast.AST] = deque([tree])
    while queue:
        node = queue.popleft()
        if isinstance(node, _DEFINITIONS):
            yield node
        for name in block_fields(type(node)):
            queue.extend(getattr(node, name))


_HELPER_WORDS: dict[Vocabulary, tuple[re.Pattern[str], tuple[str, ...], re.Pattern[str]]] = {}


def _helper_word_lines(source: str, vocabulary: Vocabulary) -> list[int]:
    """The lines (sorted) naming a version, hash or derived field or a bump or rehash method as a whole
    word, or a name ending in a one-word derived field (`token_offsets`).

    Every statement that makes a function a helper (`_helper_effects`) names one of these as an
    identifier, so a function whose lines name none needs no walk. The name endings are searched only
    in a text that holds one (a substring test), so common letters do not slow the search down.
    """
    found = _HELPER_WORDS.get(vocabulary)
    if found is None:
        words = {
            *vocabulary.version_fields, *vocabulary.hash_fields, *vocabulary.derived_fields,
            *vocabulary.bump_methods, *vocabulary.rehash_methods,
        }
        endings = tuple("_" + e for e in derived_endings(vocabulary))
        found = _HELPER_WORDS[vocabulary] = (
            re.compile(rf"(?:{alternation(words, whole_word_start=True)})(?!\w)"),
            endings,
            re.compile(rf"_(?:{alternation(derived_endings(vocabulary))})(?!\w)"),
        )
    pattern, endings, ending_pattern = found
    if any(e in source for e in endings):
        return match_lines(source, pattern, ending_pattern)
    return match_lines(source, pattern)


def nesting_depth(tree: ast.Module, source: str, limit: int = 0) -> int:
    """How many levels deep `tree` nests, measured without recursion, so any depth is measured.

    With a `limit`, only statements that could nest deeper than it are measured and the result is
    exact only when over the limit: each level of nesting inside one statement takes at least one
    byte of that statement's own text (an operator, a bracket, a dot), so a statement adds at most
    its length to its block depth, and most need no walk.
    """
    text = source.encode("utf-8", "surrogatepass")
    # A statement's own text is at most its lines times the longest line: for most statements that
    # bound is under the limit already, so the exact offsets (`line_starts`) are rarely needed.
    longest_line = max(map(len, text.split(b"\n"))) + 1
    line_starts: list[int] = []

    def offset(node: ast.AST, end: bool = False) -> int:
        if not line_starts:
            line_starts.extend(line_offsets(text))
        node = getattr(node, "pattern", node)  # a `case` block starts at its pattern
        line, column = (node.end_lineno, node.end_col_offset) if end else (node.lineno, node.col_offset)
        return line_starts[line - 1] + column if line and line - 1 < len(line_starts) else len(text)

    def line(node: ast.AST) -> int:
        return getattr(node, "pattern", node).lineno

    deepest = 0
    pending: list[tuple[ast.AST, int]] = [(tree, 1)]
    while pending:
        node, depth = pending.pop()
        blocks: list[ast.AST] = []
        for name in block_fields(type(node)):
            blocks += getattr(node, name)
        for child in blocks:
            pending.append((child, depth + 1))
        deepest = max(deepest, depth)  # a statement is at its depth; its expressions may go deeper
        is_block = node is not tree
        if is_block:  # the statement's own text, by lines first (cheap), then exactly
            decorators = getattr(node, "decorator_list", None)
            first = min(line(node), *(d.lineno for d in decorators)) if decorators else line(node)
            last = line(blocks[0]) if blocks else node.end_lineno or len(text)
            if depth + (last - first + 1) * longest_line + 2 <= max(deepest, limit):
                continue
        parts = _expression_parts(node)
        if not parts:
            continue
        start = min([offset(node), *(offset(d) for d in getattr(node, "decorator_list", ()))]) if is_block else 0
        end = offset(blocks[0]) if blocks else offset(node, end=True) if is_block else len(text)
        if depth + (end - start) + 2 <= max(deepest, limit):
            continue
        deepest = max(deepest, depth + _expression_depth(parts))
    return deepest


def _expression_parts(statement: ast.AST) -> list[ast.AST]:
    """The child nodes of `statement` that are not its blocks (its expressions, `arguments`...)."""
    parts: list[ast.AST] = []
    for name in statement._fields:
        value = getattr(statement, name)
        if isinstance(value, ast.AST):
            parts.append(value)
        elif isinstance(value, list) and name not in block_fields(type(statement)):
            parts.extend(item for item in value if isinstance(item, ast.AST))
    return parts


def _expression_depth(parts: list[ast.AST]) -> int:
    deepest = 0
    pending = [(part, 1) for part in parts]
    while pending:
        node, depth = pending.pop()
        deepest = max(deepest, depth)
        pending.extend((child, depth + 1) for child in ast.iter_child_nodes(node))
    return deepest


COLLECTION_TYPES = frozenset({
    "Optional", "List", "list", "Sequence", "MutableSequence", "Iterable", "Iterator", "Dict", "dict",
    "Mapping", "MutableMapping", "OrderedDict", "Deque", "deque", "Set", "set", "Tuple", "tuple",
})
# Annotation wrappers whose first argument is the type: `Annotated[Span, ...]`, `Mapped[Span]`.
WRAPPER_TYPES = frozenset({"Annotated", "SerializeAsAny", "Final", "ClassVar", "Required", "NotRequired", "Mapped", "Type"})
# Builtin types an annotation may name: a value (or the elements of a collection) declared with one
# is text, bytes, a number or a flag, never a span, whatever its name.
NUMERIC_TYPES = frozenset({"int", "float", "bool", "complex"})
BUILTIN_TYPES = NUMERIC_TYPES | {"str", "bytes", "bytearray", "memoryview"}


def _annotated_class(node: ast.expr) -> str | None:
    """The class an annotation names: `Span` for `Span`, `"Span"`, `Optional[Span]`, `Span | None`,
    `mod.Span`; for a collection (`list[Span]`, `dict[str, Span]`) the class of its elements."""
    for _ in range(4):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            try:
                node = ast.parse(node.value, mode="eval").body
            except SyntaxError:
                return None
        if isinstance(node, ast.BinOp):
            node = node.left
        elif isinstance(node, ast.Subscript) and last_name(node.value) in COLLECTION_TYPES | WRAPPER_TYPES:
            inner = node.slice
            first = last_name(node.value) in WRAPPER_TYPES
            node = inner.elts[0 if first else -1] if isinstance(inner, ast.Tuple) and inner.elts else inner
        else:
            break
    name = last_name(node)
    if name in BUILTIN_TYPES:
        return name
    return name if name.lstrip("_")[:1].isupper() and name not in COLLECTION_TYPES else None


def _names_a_number(node: ast.expr) -> bool:
    """`int`, `float | None`, `Optional[bool]`: one number or flag (not a collection of them)."""
    if isinstance(node, ast.BinOp):
        return _names_a_number(node.left) and (isinstance(node.right, ast.Constant) or _names_a_number(node.right))
    if isinstance(node, ast.Subscript) and last_name(node.value) == "Optional":
        return _names_a_number(node.slice)
    return isinstance(node, ast.Name) and node.id in NUMERIC_TYPES


def module_imports(body: list[ast.stmt], package: str = "") -> dict[str, tuple[str, str]]:
    """What the module-level imports of `body` bind (also under `if`/`try`): local name -> (absolute
    module, imported name), the name "" for a module (`import a.b as m`). Relative imports resolve
    against `package` (a module of an installed package); without one they are left out (the tree's own)."""
    found: dict[str, tuple[str, str]] = {}
    pending = list(body)
    while pending:
        statement = pending.pop(0)
        if isinstance(statement, (ast.If, ast.Try)):
            pending[:0] = [*statement.body, *getattr(statement, "handlers", ()), *statement.orelse, *getattr(statement, "finalbody", ())]
        elif isinstance(statement, ast.ExceptHandler):
            pending[:0] = statement.body
        elif isinstance(statement, ast.ImportFrom):
            module = absolute_module(statement, package)
            if module is None:
                continue
            for alias in statement.names:
                if alias.name != "*":
                    found.setdefault(alias.asname or alias.name, (module, alias.name))
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                bound = alias.asname or alias.name.split(".")[0]
                found.setdefault(bound, (alias.name if alias.asname else bound, ""))
    return found


def absolute_module(statement: ast.ImportFrom, package: str) -> str | None:
    """The module `from ... import` names; a relative one against `package`, None without one."""
    if not statement.level:
        return statement.module
    if not package:
        return None
    parts = package.split(".")
    if statement.level - 1 >= len(parts):
        return None
    base = ".".join(parts[: len(parts) - (statement.level - 1)])
    return f"{base}.{statement.module}" if statement.module else base


def class_facts(
    node: ast.ClassDef, path: str, imported: Mapping[str, tuple[str, str]] = {}, here: str = "",
    binding_lines: list[int] | None = None,
) -> ClassFacts:
    """What the class statement `node` declares; `imported` (`module_imports`) says where its bases
    come from, `here` is the module of a class of an installed package (its own bases' module),
    `binding_lines` the file's `expression_binding_lines` when known."""
    declared: set[str] = set()
    properties: set[str] = set()
    methods: set[str] = set()
    nullable: set[str] = set()
    defaulted: set[str] = set()
    in_order: list[str] = []
    field_types: dict[str, str] = {}
    returns: dict[str, str] = {}
    new_returns: dict[str, tuple[str, ...]] = {}
    numeric: set[str] = set()
    auto_versioned = False
    table_row = any(k.arg == "table" and isinstance(k.value, ast.Constant) and k.value.value is True for k in node.keywords)
    for statement in node.body:
        if isinstance(statement, (ast.Assign, ast.AnnAssign)) and statement.value is not None:
            auto_versioned = auto_versioned or any(
                isinstance(n, ast.Constant) and n.value == "version_id_col" for n in walk(statement.value)
            )
            table_row = table_row or (
                isinstance(statement.value, ast.Call) and last_name(statement.value) in ORM_FIELD_CALLS
            )
        if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
            declared.add(statement.target.id)
            if _allows_none(statement.annotation, statement.value):
                nullable.add(statement.target.id)
            if _has_default(statement.value):
                defaulted.add(statement.target.id)
            if not _is_classvar(statement.annotation):
                in_order.append(statement.target.id)
            annotated = _annotated_class(statement.annotation)
            if annotated:
                field_types[statement.target.id] = annotated
            if _names_a_number(statement.annotation):
                numeric.add(statement.target.id)
        elif isinstance(statement, ast.Assign):
            declared.update(t.id for t in statement.targets if isinstance(t, ast.Name))
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            methods.add(statement.name)
            returned = _annotated_class(statement.returns) if statement.returns is not None else None
            is_property = any(last_name(d) in ("property", "cached_property") for d in statement.decorator_list)
            if returned:
                (field_types if is_property else returns).setdefault(statement.name, returned)
                made_by = None if is_property or returned in BUILTIN_TYPES else new_object_sources(statement, binding_lines)
                if made_by is not None:
                    new_returns.setdefault(statement.name, made_by)
            if is_property:
                properties.add(statement.name)
            elif statement.name in ("__init__", "__post_init__"):
                attributes, typed = _init_attributes(statement)
                declared.update(attributes)
                for attr, cls in typed:
                    field_types.setdefault(attr, cls)
    held = {name: cls for name, cls in field_types.items() if cls not in BUILTIN_TYPES}
    for statement in node.body if held else ():
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and statement.name not in returns:
            inferred = _returned_field_class(statement, held)
            if inferred:
                returns[statement.name] = inferred
    table_row = table_row or "__tablename__" in declared
    bases = [b.value if isinstance(b, ast.Subscript) else b for b in node.bases]
    base_names = tuple(last_name(b) for b in bases)
    base_modules = tuple(_base_module(b, imported, here) for b in bases)
    is_record = bool(
        set(base_names) & RECORD_BASES
        or {last_name(d) for d in node.decorator_list} & RECORD_DECORATORS
    )
    return ClassFacts(
        node.name, frozenset(declared), frozenset(properties), base_names, is_record, path,
        frozenset(methods), tuple(sorted(field_types.items())), auto_versioned, table_row,
        tuple(sorted(returns.items())), frozenset(numeric), base_modules if any(base_modules) else (), frozenset(nullable),
        tuple(sorted(new_returns.items())), frozenset(defaulted), tuple(in_order),
        _type_modules({*field_types.values(), *returns.values()}, imported, here),
    )


def _type_modules(
    type_names: set[str], imported: Mapping[str, tuple[str, str]], here: str
) -> tuple[tuple[str, str, str], ...]:
    """`ClassFacts.type_modules` of the class names a class's annotations use."""
    found = []
    for name in sorted(type_names - BUILTIN_TYPES):
        if name in imported and imported[name][1]:
            found.append((name, *imported[name]))
        elif here:
            found.append((name, here, name))
    return tuple(found)


# The forms a returned value that may be new takes (`new_object_sources`).
_MAY_BE_NEW = (ast.Call, ast.Name, ast.Constant, ast.IfExp, ast.Await)


def new_object_sources(
    function: ast.FunctionDef | ast.AsyncFunctionDef, binding_lines: list[int] | None = None
) -> tuple[str, ...] | None:
    """For a function that returns a new object on every path, the names of the functions and methods
    (called on `self`, `cls` or `super()`) whose results it returns: new when theirs are; None when
    some path may return an object it was given or read (`return msgs[0]`, `return message`, a generator).

    New: a constructor call (`Msg(...)`, `cls(...)`, `type(self)(...)`), a copy (`deepcopy(m)`,
    `m.model_copy()`), a local every binding of which is new, `None`. `binding_lines`: the file's
    `expression_binding_lines`, when known (see `_local_bindings`)."""
    returned = [n.value for n in own_statements(function) if isinstance(n, ast.Return) and n.value is not None]
    # what can be new (below), judged first by its form: most functions return something else
    if not returned or not all(isinstance(value, _MAY_BE_NEW) for value in returned):
        return None
    if all(isinstance(value, ast.Constant) for value in returned):
        return None
    judge = _Returns(function, binding_lines=binding_lines)
    if not all(judge.new(value, 0) for value in returned):
        return None
    return tuple(sorted(judge.sources)) if judge.bindings() is not None else None


def built_locals(function: ast.FunctionDef | ast.AsyncFunctionDef, names: Iterable[str], text: str) -> set[str]:
    """Those of `names` that are locals of `function` every binding of which builds a new object
    itself (a constructor call, a copy: `new_object_sources` without results of other functions).

    Only the statements are read (`own_statements`): a name that the function's text `text` binds in a
    loop or comprehension target (`for x in`, `for i, x in`) or with `:=` is not judged."""
    bound_in_expressions = {name for target in _LOOP_TARGET.findall(text) for name in re.findall(r"\w+", target)}
    bound_in_expressions.update(_walrus_targets(text))
    names = [name for name in names if name not in bound_in_expressions]
    if not names:
        return set()
    values: dict[str, list[ast.expr | None]] = {}
    for node in own_statements(function):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Name):
                    values.setdefault(target.id, []).append(node.value)
                else:
                    _store_names(target, values)
        elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
            values.setdefault(node.target.id, []).append(node.value)
        elif isinstance(node, (ast.AugAssign, ast.For, ast.AsyncFor)):
            _store_names(node.target, values)
        elif isinstance(node, (ast.With, ast.AsyncWith)):
            for item in node.items:
                _store_names(item.optional_vars, values)
        elif isinstance(node, ast.ExceptHandler) and node.name:
            values.setdefault(node.name, []).append(None)
        elif isinstance(node, (ast.Import, ast.ImportFrom, ast.Global, ast.Nonlocal)):
            for bound in node.names:
                local = bound if isinstance(bound, str) else (bound.asname or bound.name.split(".")[0])
                values.setdefault(local, []).append(None)
    judge = _Returns(function, values)
    found = set()
    for name in names:
        judge.sources = set()
        if judge.new(ast.Name(name), 0) and not judge.sources:
            found.add(name)
    return found


def _walrus_targets(text: str) -> Iterator[str]:
    """The names `text` binds with `:=` (what `(\\w+)\\s*:=` finds, searched from each `:=` back: that
    pattern would try every position)."""
    at = text.find(":=")
    while at >= 0:
        end = at
        while end and text[end - 1].isspace():  # `\\s`
            end -= 1
        start = end
        while start and (text[start - 1].isalnum() or text[start - 1] == "_"):  # `\\w`
            start -= 1
        if start < end:
            yield text[start:end]
        at = text.find(":=", at + 2)


def _store_names(target: ast.expr | None, values: dict[str, list[ast.expr | None]]) -> None:
    """The names `target` binds (`a, b = ...`, `for a in ...`), to values not known; `a.x = ...` and
    `a[k] = ...` bind nothing."""
    for bound in walk(target) if target is not None else ():
        if isinstance(bound, ast.Name) and isinstance(bound.ctx, ast.Store):
            values.setdefault(bound.id, []).append(None)


class _Returns:
    """Whether values a function returns are new (`new_object_sources`); the names of the functions
    whose results they are, in `sources`. (A class, not a recursive closure: a closure that calls
    itself is a reference cycle, which would keep the file's tree alive until a garbage collection.)"""

    def __init__(
        self, function: ast.FunctionDef | ast.AsyncFunctionDef, bindings: dict[str, list[ast.expr | None]] | None = None,
        binding_lines: list[int] | None = None,
    ) -> None:
        """`bindings`: the function's locals and their values, when already known (`built_locals`);
        `binding_lines`: see `_local_bindings`."""
        self.function = function
        self.binding_lines = binding_lines
        args = function.args
        self.params = {
            a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg) if a is not None
        }
        self.sources: set[str] = set()
        self._bindings: list[dict[str, list[ast.expr | None]] | None] = [bindings] if bindings is not None else []

    def bindings(self) -> dict[str, list[ast.expr | None]] | None:
        """The function's locals and their values (`_local_bindings`), walked on first use: the
        returned forms are judged first, and most are not new."""
        if not self._bindings:
            self._bindings.append(_local_bindings(self.function, self.binding_lines))
        return self._bindings[0]

    def new(self, value: ast.expr | None, depth: int) -> bool:
        if isinstance(value, ast.Await):
            value = value.value
        if isinstance(value, ast.IfExp):
            return self.new(value.body, depth) and self.new(value.orelse, depth)
        if isinstance(value, ast.Constant):
            return value.value is None
        if isinstance(value, ast.Name):
            if value.id in self.params or depth >= 4:
                return False
            values = (self.bindings() or {}).get(value.id)
            return bool(values) and all(self.new(v, depth + 1) for v in values)
        if not isinstance(value, ast.Call):
            return False
        called = last_name(value.func)
        func = value.func
        if isinstance(func, ast.Call) and last_name(func.func) == "type" or called in COPY_CALLS or called == "cls":
            return True
        if called.lstrip("_")[:1].isupper():
            return True
        receiver = func.value if isinstance(func, ast.Attribute) else None
        if isinstance(func, ast.Name) or (
            isinstance(receiver, ast.Name) and receiver.id in ("self", "cls")
        ) or (isinstance(receiver, ast.Call) and last_name(receiver.func) == "super"):
            self.sources.add(called)
            return True
        return False


def _local_bindings(
    function: ast.FunctionDef | ast.AsyncFunctionDef, binding_lines: list[int] | None = None
) -> dict[str, list[ast.expr | None]] | None:
    """Each local of `function` -> the values bound to it (None: bound by a loop, `with`, unpacking...);
    None for a generator.

    Bindings in expressions (`:=`, comprehension targets) and `yield` each name their keyword in
    their text: with `binding_lines` (`expression_binding_lines` of the file), only the expressions
    of statements spanning such a line are walked, the rest of the body statement by statement."""
    bindings: dict[str, list[ast.expr | None]] = {}
    nodes = own_nodes(function) if binding_lines is None else _binding_nodes(function, binding_lines)
    for node in nodes:
        if isinstance(node, (ast.Yield, ast.YieldFrom)):
            return None
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.NamedExpr)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    bindings.setdefault(target.id, []).append(node.value)
                else:  # unpacked (`a, b = ...`); `a.x = ...` and `a[k] = ...` bind nothing
                    _store_names(target, bindings)
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension, ast.withitem, ast.AugAssign)):
            _store_names(node.optional_vars if isinstance(node, ast.withitem) else node.target, bindings)
    return bindings


# A keyword that an expression binding a name (`:=`, a comprehension's `for`) or a `yield` holds.
_EXPRESSION_BINDING = re.compile(r"yield|:=|for\b")


def expression_binding_lines(source: str) -> list[int]:
    """The lines of `source` that may hold a `yield` or an expression binding a name (`_local_bindings`)."""
    return match_lines(source, _EXPRESSION_BINDING)


def _binding_nodes(function: ast.FunctionDef | ast.AsyncFunctionDef, binding_lines: list[int]) -> Iterator[ast.AST]:
    """The nodes of `own_nodes(function)` that may bind a local or yield: every statement (and the
    items of a `with`), and the expression nodes of the statements spanning one of `binding_lines`."""
    for statement in own_statements(function):
        yield statement
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            yield from statement.items
        if not isinstance(statement, ast.match_case) and not spans_line(statement, binding_lines):
            continue  # (a `case` block has no line of its own: its pattern and guard are always walked)
        pending = statement_parts(statement)
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Lambda):
                continue
            yield node
            pending.extend(child_nodes(node))


def _returned_field_class(method: ast.FunctionDef | ast.AsyncFunctionDef, field_types: Mapping[str, str]) -> str | None:
    """For a method without a return annotation that returns what one of its class's fields holds
    (`return self.spans[sid]`, `self.spans.get(k)`, `iter(self.spans.values())`, `yield from self.spans`),
    that field's (element) class; `field_types` holds the fields typed with a class not built in."""
    for node in walk(method):
        value = node.value if isinstance(node, (ast.Return, ast.YieldFrom)) else None
        while value is not None:
            if isinstance(value, ast.Call) and last_name(value.func) in ("iter", "list", "reversed", "sorted", "tuple") and value.args:
                value = value.args[0]
            elif isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr in ("get", "pop", "values", "copy"):
                value = value.func.value
            elif isinstance(value, ast.Subscript):
                value = value.value
            else:
                break
        if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.value.id == "self":
            found = field_types.get(value.attr)
            if found:
                return found
    return None


def _constructed_class(value: ast.expr, params: Mapping[str, str | None]) -> str | None:
    """The class `value` builds or holds in a constructor: `Cls(...)`, an annotated parameter, the
    first of those in `param or Cls()`."""
    if isinstance(value, ast.BoolOp):
        return next((c for c in (_constructed_class(v, params) for v in value.values) if c), None)
    if isinstance(value, ast.Name):
        return params.get(value.id)
    if isinstance(value, ast.Call):
        name = last_name(value.func)
        return name if name.lstrip("_")[:1].isupper() else None
    return None


def _init_attributes(init: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[set[str], list[tuple[str, str]]]:
    """The attributes a constructor sets on `self`, and (attribute, class) for those it types:
    `self.x: Cls = ...`, then `self.x = Cls(...)`, `self.x = param` (an annotated parameter) and
    `self.x = param or Cls()`, in that order of precedence."""
    args = [*init.args.posonlyargs, *init.args.args, *init.args.kwonlyargs]
    params = {a.arg: _annotated_class(a.annotation) for a in args if a.annotation is not None}

    attributes: set[str] = set()
    annotated: list[tuple[str, str]] = []
    assigned: list[tuple[str, str]] = []
    for node in walk(init):
        pairs: list[tuple[ast.expr, ast.expr | None]] = []  # (target, the value it is given, when known)
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if isinstance(target, ast.Tuple) and isinstance(node.value, ast.Tuple) and len(target.elts) == len(node.value.elts):
                    pairs += zip(target.elts, node.value.elts)  # `self.store, self.log = store, log`
                elif isinstance(target, ast.Tuple):
                    pairs += [(t, None) for t in target.elts]
                else:
                    pairs.append((target, node.value if len(node.targets) == 1 else None))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)):
            pairs = [(node.target, None)]
        for target, value in pairs:
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                attributes.add(target.attr)
                cls = _constructed_class(value, params) if value is not None else None
                if cls:
                    assigned.append((target.attr, cls))
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Attribute):
            cls = _annotated_class(node.annotation)
            if cls and isinstance(node.target.value, ast.Name) and node.target.value.id == "self":
                annotated.append((node.target.attr, cls))
    return attributes, annotated + assigned


def _allows_none(annotation: ast.expr, value: ast.expr | None) -> bool:
    """A field annotated `Optional[X]`, `X | None` or `Union[X, None]` (also inside `Annotated[...]`),
    or given the default None (`= None`, `= Field(None)`, `= Field(default=None)`)."""
    node = annotation
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        try:
            node = ast.parse(node.value, mode="eval").body
        except SyntaxError:
            return False
    while isinstance(node, ast.Subscript) and last_name(node.value) in WRAPPER_TYPES:
        node = node.slice.elts[0] if isinstance(node.slice, ast.Tuple) and node.slice.elts else node.slice
    if isinstance(node, ast.Subscript) and last_name(node.value) in ("Optional", "Union"):
        members = node.slice.elts if isinstance(node.slice, ast.Tuple) else [node.slice]
        if last_name(node.value) == "Optional" or any(_is_none(m) for m in members):
            return True
    while isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitOr):
        if _is_none(node.right) or _is_none(node.left):
            return True
        node = node.left
    if isinstance(value, ast.Call):
        return any(_is_none(d) for d in [*value.args[:1], *(k.value for k in value.keywords if k.arg == "default")])
    return value is not None and _is_none(value)


def _has_default(value: ast.expr | None) -> bool:
    """A field's value in a class body gives it a default: a value other than a field specifier
    (`field(...)`, `Field(...)`, `attr.ib(...)`) that names none (`default=`, `default_factory=`, a
    first argument other than `...`)."""
    if value is None:
        return False
    if not (isinstance(value, ast.Call) and last_name(value.func) in FIELD_SPECIFIERS):
        return True
    if any(k.arg in ("default", "default_factory", "factory") for k in value.keywords):
        return True
    return bool(value.args) and not (isinstance(value.args[0], ast.Constant) and value.args[0].value is Ellipsis)


def _is_classvar(annotation: ast.expr) -> bool:
    """`ClassVar` or `ClassVar[...]`: a class attribute, not a field."""
    return last_name(annotation.value if isinstance(annotation, ast.Subscript) else annotation) == "ClassVar"


def _is_none(node: ast.expr) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _base_module(base: ast.expr, imported: Mapping[str, tuple[str, str]], here: str) -> str:
    """The absolute module a base class comes from: `m` for a base imported `from m import B`, `a.b`
    for `mod.B` after `import a.b as mod`, else `here`."""
    if isinstance(base, ast.Name) and base.id in imported and imported[base.id][1]:
        return imported[base.id][0]
    if isinstance(base, ast.Attribute) and isinstance(base.value, ast.Name) and base.value.id in imported:
        module, name = imported[base.value.id]
        return f"{module}.{name}" if name else module
    return here


def _helper_effects(function: ast.FunctionDef | ast.AsyncFunctionDef, vocabulary: Vocabulary) -> HelperEffects | None:
    args = function.args
    params = tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))
    if not params:
        return None
    param_set = set(params)
    bumps: set[str] = set()
    rehashes: set[str] = set()
    resets: set[str] = set()
    checks = False
    for node in walk(function):
        if isinstance(node, (ast.Assign, ast.AugAssign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                owner, attr = _param_attribute(target, param_set)
                if owner is None:
                    continue
                if attr in vocabulary.version_fields:
                    bumps.add(owner)
                elif attr in vocabulary.hash_fields:
                    rehashes.add(owner)
                elif is_derived_field(attr, vocabulary):
                    resets.add(owner)
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner, attr = _param_attribute(node.func, param_set)
            if owner is not None and attr in vocabulary.bump_methods:
                bumps.add(owner)
            elif owner is not None and attr in vocabulary.rehash_methods:
                rehashes.add(owner)
        elif isinstance(node, ast.Compare) and _compares_version_or_hash(node, vocabulary):
            checks = True
    if not (bumps or rehashes or checks or resets):
        return None
    return HelperEffects(params, frozenset(bumps), frozenset(rehashes), checks, frozenset(resets))


def add_helper(helpers: MutableMapping[str, HelperEffects], name: str, effects: HelperEffects) -> None:
    """On a name defined twice, the first definition with version/hash effects gives those, and the
    first with prune effects (`records`, `prunes`) gives these."""
    first = helpers.get(name)
    if first is None:
        helpers[name] = effects
        return
    prunes_first = first.records or bool(first.prunes)
    if not _rewrite_effects(first) and _rewrite_effects(effects):
        first = dataclasses.replace(effects, records=first.records, prunes=first.prunes) if prunes_first else effects
    if not prunes_first and (effects.records or effects.prunes):
        first = dataclasses.replace(first, records=effects.records, prunes=effects.prunes)
    helpers[name] = first


def _rewrite_effects(effects: HelperEffects) -> bool:
    return bool(effects.bumps or effects.rehashes or effects.checks or effects.resets)


def _with_prune_effects(
    function: ast.FunctionDef | ast.AsyncFunctionDef, vocabulary: Vocabulary, effects: HelperEffects | None
) -> HelperEffects | None:
    records, prunes = prune_effects(function, vocabulary)
    if not (records or prunes):
        return effects
    if effects is None:
        args = function.args
        effects = HelperEffects(tuple(a.arg for a in (*args.posonlyargs, *args.args, *args.kwonlyargs)))
    return dataclasses.replace(effects, records=records, prunes=prunes)


def _param_attribute(node: ast.expr, params: set[str]) -> tuple[str | None, str]:
    """(`p`, `attr`) for `p.attr` or `p.x.attr` where `p` is a parameter; else (None, "")."""
    if not isinstance(node, ast.Attribute):
        return None, ""
    base = node.value
    while isinstance(base, ast.Attribute):
        base = base.value
    if isinstance(base, ast.Name) and base.id in params:
        return base.id, node.attr
    return None, ""


def _compares_version_or_hash(node: ast.Compare, vocabulary: Vocabulary) -> bool:
    """`art.version != span.version`, also as part of a tuple: `(s.span_id, s.version) == (self.span_id, self.version)`."""
    watched = set(vocabulary.version_fields) | set(vocabulary.hash_fields)
    operands = [node.left, *node.comparators]
    operands += [e for o in operands if isinstance(o, (ast.Tuple, ast.List)) for e in o.elts]
    return any(isinstance(o, ast.Attribute) and o.attr in watched for o in operands)


def _own_id_names(vocabulary: Vocabulary) -> tuple[str, ...]:
    """The id fields that name no other span (`id`, `id_`; not `message_id`, `span_id`)."""
    return tuple(f for f in vocabulary.id_fields if not set(name_parts(f)) & set(vocabulary.span_nouns))


def _own_hash_fields(declared: set[str], vocabulary: Vocabulary) -> tuple[str, ...]:
    """Declared fields named as a digest of the content that the vocabulary does not list: the last word a
    hash word or a digest's name (`sha`, `body_digest`, `content_sha256`, `text_md5`)."""
    words = {name_parts(f)[-1] for f in vocabulary.hash_fields} | DIGEST_WORDS
    return tuple(sorted(
        f for f in declared if f not in vocabulary.hash_fields and (parts := name_parts(f)) and parts[-1] in words
    ))


def _own_id_fields(class_name: str, fields_: set[str], vocabulary: Vocabulary, tracked: bool = False) -> tuple[str, ...]:
    """`<noun>_id` fields of a class named after that span noun, the noun maybe shortened to three
    letters or more (`Passage.passage_id`, `ChatTurn.turn_id`, `Segment.seg_id`); in a class whose
    content is `tracked` by a version or hash, of any noun of its name (`Note.note_id`)."""
    parts = set(name_parts(class_name))
    nouns = parts if tracked else set(vocabulary.span_nouns) & parts
    return tuple(sorted(
        f for f in fields_
        if f.endswith("_id") and f not in vocabulary.id_fields and len(f) >= 6 and any(noun.startswith(f[:-3]) for noun in nouns)
    ))
