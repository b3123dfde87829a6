"""Assembling a generated project: where each class goes (the operator's module, another module of
the package, a framework), the operator class around the method under test, the labels."""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from bench.programs.code import HIT, Code, Label, Program, block, line, lines, render
from bench.programs.types import SpanType, class_source, imports_for

OPS = "app/ops.py"
# Lines where a finding is neither right nor wrong (tag: code, "*" for any): the body of a setter
# or of a removal helper (the hazard is at the call), and an id-keyed offsets map read where its
# write is not in the program (SPL201 there is defensible; the hazard asked for is SPL501).
DONT_CARE = {"setter-body": "*", "helper-body": "*", "offsets-read": "SPL201"}
MODELS = "app/models.py"

OPS_HEADER = [
    "import copy", "import hashlib", "import logging", "import threading", "import time", "import uuid",
    "from dataclasses import dataclass, field, replace", "from typing import Iterable, Iterator, NamedTuple, TypedDict",
]
MODELS_HEADER = ["from dataclasses import dataclass, field", "from typing import NamedTuple, TypedDict"]


@dataclass
class Build:
    """A project under construction. Classes go to the operator's module or to `app/models.py`
    (`split`); framework classes are imported."""

    rng: random.Random
    split: bool
    relative_import: bool
    classes: list[tuple[str, Code]] = field(default_factory=list)  # (name, definition) of project classes
    class_imports: list[str] = field(default_factory=list)  # what those definitions import
    framework: list[str] = field(default_factory=list)  # import lines of the operator's module
    init: Code = field(default_factory=list)
    methods: list[Code] = field(default_factory=list)
    helpers: Code = field(default_factory=list)

    def add_type(self, t: SpanType) -> None:
        if t.origin == "framework":
            self.framework.append(f"from {t.module} import {t.name}")
            return
        if any(name == t.name for name, _ in self.classes):
            return
        self.class_imports += imports_for(t)
        self.classes.append((t.name, class_source(t)))

    def add_class(self, name: str, code: Code, *imports: str) -> None:
        if not any(n == name for n, _ in self.classes):
            self.class_imports += list(imports)
            self.classes.append((name, code))

    def attr(self, text: str) -> None:
        if all(c.text != text for c in self.init):
            self.init += line(text)


def decision_log_class() -> Code:
    return lines("@dataclass", "class DecisionLog:", '    """Why each edit of the context was made; append-only."""', "",
                 "    entries: list[dict] = field(default_factory=list)", "",
                 "    def record(self, **entry: object) -> None:", "        self.entries.append(dict(entry))")


def holder_class(t: SpanType, name: str, annotate_get: bool) -> Code:
    """A buffer of spans by id, with the accessors real buffers have."""
    get = f"    def get(self, sid: str) -> {t.name}:" if annotate_get else "    def get(self, sid):"
    return lines(f"class {name}:", '    """The spans the agent currently sees, by id."""', "",
                 "    def __init__(self) -> None:", f"        self.spans: dict[str, {t.name}] = {{}}",
                 f"        self.messages: list[{t.name}] = []", "",
                 f"    def add(self, item: {t.name}) -> None:", f"        self.spans[{t.ident('item')}] = item", "",
                 get, "        return self.spans[sid]", "",
                 f"    def __iter__(self) -> Iterator[{t.name}]:", "        return iter(self.spans.values())")


def assemble(b: Build, role: str, signature: str, body: Code, codes: tuple[str, ...], hazard: bool,
             dims: dict[str, str], name: str) -> Program:
    """The files of the project and its labels: every code of `codes` on the HIT lines (when
    `hazard`), wherever they ended up."""
    classes: Code = []
    for _, code in b.classes:
        classes += code + lines("", "")
    ops: Code = lines('"""Operators that edit the support agent\'s context."""', "", "from __future__ import annotations", "")
    ops += lines(*OPS_HEADER) + lines(*sorted(set(b.framework)))
    names = [n for n, _ in b.classes]
    files: dict[str, Code] = {}
    if b.split and names:
        source = ".models" if b.relative_import else "app.models"
        ops += line(f"from {source} import {', '.join(names)}")
        models = lines('"""The data types of the support agent."""', "", "from __future__ import annotations", "")
        models += lines(*MODELS_HEADER) + lines(*_dedupe(b.class_imports)) + lines("", "")
        files[MODELS] = models + classes
        files["app/__init__.py"] = []
        classes = []
    else:
        ops += lines(*_dedupe(b.class_imports))
    ops += lines("", "logger = logging.getLogger(__name__)", "", "")
    ops += classes
    ops += lines("def digest(text: str) -> str:", '    return hashlib.sha256(text.encode("utf-8")).hexdigest()', "", "",
                 "def new_id() -> str:", "    return uuid.uuid4().hex", "", "")
    ops += b.helpers
    init = lines("self.patterns: list[str] = list(patterns)", "self.retries = 3", "self.strict = True", "self.dry_run = False",
                 "self.track_versions = True", 'self.mode = "strict"', "self.edits = 0", "self.keep = 20",
                 "self._lock = threading.Lock()") + b.init
    cls = block(f"class {role}:", block("def __init__(self, patterns: Iterable[str] = ()) -> None:", init) + line("")
                + sum((m + line("") for m in b.methods), [])
                + lines("def ready(self, attempt: int) -> bool:", "    return attempt < self.retries", "",
                        "def applies(self, pattern: str) -> bool:", "    return bool(pattern)", "")
                + block(signature, body))
    files[OPS] = ops + cls
    labels: list[Label] = []
    ignored: list[Label] = []
    out: dict[str, str] = {}
    for path, code in files.items():
        text, where = render(code)
        out[path] = text
        if hazard and HIT in where:
            labels += [Label(c, path, *where[HIT]) for c in codes]
        ignored += [Label(code, path, *where[tag]) for tag, code in DONT_CARE.items() if tag in where]
    return Program(name, out, labels, dims, ignored)


def _dedupe(items: list[str]) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen or item == "":
            seen.append(item)
    return seen


