"""The value types of generated programs: span classes (by kind, defined in the file, in another
module of the project, or imported from a framework), and look-alike classes that are not spans."""

from __future__ import annotations

from dataclasses import dataclass

from bench.programs.code import Code, line, lines

# What a kind of span calls for when its content is rewritten in place and nothing else is done.
KIND_CODES = {
    "versioned": ("SPL101",),  # id, content, version
    "hashed": ("SPL102",),  # id, content, stored content hash
    "both": ("SPL101", "SPL102"),  # id, content, version, stored hash
    "message": ("SPL103",),  # id, content; neither version nor hash
    "embedded": ("SPL104",),  # id, text, version (bumped), embedding left describing the old text
}


@dataclass(frozen=True)
class SpanType:
    kind: str
    name: str
    id: str
    content: str
    version: bool = False
    stored_hash: bool = False
    derived: tuple[str, ...] = ()  # fields describing the content, to reset on a rewrite
    origin: str = "same"  # same | other_module | framework | framework_subclass
    module: str = ""  # where a framework class is imported from
    copy: str = "replace"  # how a copy with changes is made: dataclasses.replace or model_copy
    setter: bool = False  # has a method that writes the content (set_content)
    mapping: bool = False  # a TypedDict: fields are items
    lookalike: bool = False  # not a span at all
    frozen: bool = False
    tombstones: bool = False  # has tombstoned / tombstoned_at fields

    def get(self, v: str, name: str) -> str:
        return f'{v}["{name}"]' if self.mapping else f"{v}.{name}"

    def read(self, v: str) -> str:
        return self.get(v, self.content)

    def ident(self, v: str) -> str:
        return self.get(v, self.id)

    def fix_after_write(self, v: str) -> Code | None:
        """What keeps holders right after an in-place rewrite; None when nothing can (no version,
        no hash: only a copy with a new id is safe)."""
        fixes: Code = []
        if self.version and self.kind != "embedded":
            fixes += line(self._bump(v))
        if self.stored_hash:
            fixes += line(self._set(v, "content_hash", f"digest({self.read(v)})"))
        for name in self.derived:
            fixes += line(self._set(v, name, "None"))
        return fixes or None

    def always_after_write(self, v: str) -> Code:
        """What every rewrite of this kind does anyway (an embedded chunk's version is bumped:
        the hazard left is the embedding)."""
        return line(self._bump(v)) if self.kind == "embedded" and self.version else []

    # A frozen dataclass is written through `object.__setattr__` (assigning a field raises
    # FrozenInstanceError), so its fixes are too: a twin that raises is not a safe program.
    def _set(self, v: str, name: str, value: str) -> str:
        return f'object.__setattr__({v}, "{name}", {value})' if self.frozen else f"{self.get(v, name)} = {value}"

    def _bump(self, v: str) -> str:
        return self._set(v, "version", f"{v}.version + 1") if self.frozen else f"{self.get(v, 'version')} += 1"

    def copy_expr(self, v: str, changes: dict[str, str]) -> str:
        if self.copy == "model_copy":
            inner = ", ".join(f'"{k}": {e}' for k, e in changes.items())
            return f"{v}.model_copy(update={{{inner}}})"
        if self.mapping:
            inner = ", ".join(f'"{k}": {e}' for k, e in changes.items())
            return f"{{**{v}, {inner}}}"
        return f"replace({v}, " + ", ".join(f"{k}={e}" for k, e in changes.items()) + ")"

    def copy_fixes(self, v: str, text: str) -> dict[str, str]:
        """The changes that make a copy under the same id safe (version, hash, derived fields)."""
        changes: dict[str, str] = {}
        if self.version:
            changes["version"] = f"{self.get(v, 'version')} + 1"
        if self.stored_hash:
            changes["content_hash"] = f"digest({text})"
        for name in self.derived:
            changes[name] = "None"
        return changes

    def new(self, ident: str, text: str) -> str:
        """A constructor call for a new object of this type (version 0, hash of `text`)."""
        if self.origin in ("framework", "framework_subclass"):
            return f"{self.name}(text={text}, id_={ident})" if self.kind == "embedded" else f"{self.name}(content={text}, id={ident})"
        args = [f"{self.id}={ident}", f"{self.content}={text}"]
        args += ["version=0"] if self.version and self.mapping else []
        args += [f"content_hash=digest({text})"] if self.stored_hash else []
        return f"{self.name}({', '.join(args)})"


def project_type(kind: str, name: str, origin: str, *, setter: bool, mapping: bool) -> SpanType:
    base = dict(kind=kind, name=name, origin=origin, setter=setter and not mapping, mapping=mapping)
    if kind == "versioned":
        return SpanType(id="span_id", content="content", version=True, **base)
    if kind == "hashed":
        return SpanType(id="span_id", content="content", stored_hash=True, **base)
    if kind == "both":
        return SpanType(id="span_id", content="content", version=True, stored_hash=True, **base)
    if kind == "message":
        return SpanType(id="id", content="content", **base)
    return SpanType(id="chunk_id", content="text", version=True, derived=("embedding",), **base)


PROJECT_NAMES = {
    "versioned": ("Span", "ContextSpan", "MemoryBlock"),
    "hashed": ("Span", "Passage", "Snippet"),
    "both": ("Span", "ContextSpan", "WorkingMemoryItem"),
    "message": ("ChatMessage", "Turn", "Message"),
    "embedded": ("RetrievedChunk", "Chunk", "IndexedPassage"),
}


def framework_type(kind: str, name: str, subclass: bool) -> SpanType:
    """LlamaIndex nodes (content-addressed hash property, embedding and offsets) and LangChain
    messages (id, content, nothing else), as the application imports them."""
    origin = "framework_subclass" if subclass else "framework"
    if kind == "embedded":
        return SpanType(kind=kind, name="SupportNode" if subclass else name, id="node_id", content="text",
                        derived=("embedding", "start_char_idx", "end_char_idx"), origin=origin,
                        module="llama_index.core.schema", copy="model_copy", setter=True)
    return SpanType(kind=kind, name="SupportMessage" if subclass else name, id="id", content="content",
                    origin=origin, module="langchain_core.messages", copy="model_copy")


FRAMEWORK_NAMES = {"embedded": ("TextNode", "Document"), "message": ("AIMessage", "ToolMessage", "HumanMessage", "BaseMessage")}

# Classes with an id and a text field that are not spans: a UI widget, a setting, an HTTP payload, an ORM row.
LOOKALIKES = {
    "Label": SpanType(kind="lookalike", name="Label", id="id", content="text", lookalike=True),
    "Setting": SpanType(kind="lookalike", name="Setting", id="id", content="value", lookalike=True),
    "HttpPayload": SpanType(kind="lookalike", name="HttpPayload", id="request_id", content="body", lookalike=True),
    "NoteRow": SpanType(kind="lookalike", name="NoteRow", id="id", content="content", lookalike=True, copy="none"),
}


def class_source(t: SpanType) -> Code:
    """The definition of a project class (nothing for a framework class)."""
    if t.origin == "framework":
        return []
    if t.origin == "framework_subclass":
        base = "TextNode" if t.kind == "embedded" else "AIMessage"
        return lines(f"class {t.name}({base}):", '    """Our node/message type: the framework\'s, plus a ticket reference."""',
                     "", "    ticket_id: str | None = None")
    if t.lookalike:
        return LOOKALIKE_SOURCE[t.name]
    if t.mapping:
        code = lines(f"class {t.name}(TypedDict):", f"    {t.id}: str", f"    {t.content}: str")
        code += lines("    version: int") if t.version else []
        code += lines("    content_hash: str") if t.stored_hash else []
        return code
    code = lines("@dataclass" + ("(frozen=True)" if t.frozen else ""), f"class {t.name}:", f"    {t.id}: str")
    code += lines('    role: str = "user"') if t.kind == "message" else []
    code += lines(f"    {t.content}: str = \"\"")
    code += lines("    tombstoned: bool = False", "    tombstoned_at: float = 0.0") if t.tombstones else []
    code += lines("    version: int = 0") if t.version else []
    code += lines('    content_hash: str = ""') if t.stored_hash else []
    code += lines("    embedding: list[float] | None = None") if "embedding" in t.derived else []
    if t.setter:
        code += lines("", "    def set_content(self, value: str) -> None:") + lines(f"        self.{t.content} = value", tag="setter-body")
    return code


LOOKALIKE_SOURCE = {
    "Label": lines("@dataclass", "class Label:", '    """A text widget of the settings screen."""', "", "    id: str",
                   '    text: str = ""', "    x: int = 0", "    y: int = 0"),
    "Setting": lines("@dataclass", "class Setting:", '    """A user preference as the settings API returns it."""', "",
                     "    id: str", '    value: str = ""'),
    "HttpPayload": lines("@dataclass", "class HttpPayload:", '    """A request body on its way to the billing API."""', "",
                         "    request_id: str", '    body: str = ""', "    headers: dict[str, str] = field(default_factory=dict)"),
    "NoteRow": lines("class NoteRow(Base):", '    """A row of the `notes` table (SQLAlchemy)."""', "", '    __tablename__ = "notes"',
                     "    id: Mapped[str] = mapped_column(primary_key=True)", "    content: Mapped[str] = mapped_column(Text)"),
}


def imports_for(t: SpanType) -> list[str]:
    """Import lines the module defining `t` needs."""
    if t.origin == "framework_subclass":
        return [f"from {t.module} import {'TextNode' if t.kind == 'embedded' else 'AIMessage'}"]
    if t.name == "NoteRow":
        return ["from sqlalchemy import Text", "from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column", "",
                "", "class Base(DeclarativeBase):", "    pass"]
    return []
