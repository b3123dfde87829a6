"""Random span programs for the pre-filter soundness test: span classes, aliases (assignment,
walrus, loops, content locals), control flow and every write, cache, slice, summary, prune and
decision-log form the rules look for, mixed with look-alikes."""

from __future__ import annotations

import random

HEADER = '''import time
from dataclasses import dataclass, field
from functools import lru_cache


@dataclass
class Span:
    id: str
    content: str
    version: int = 0
    content_hash: str = ""
    embedding: list = field(default_factory=list)


@dataclass
class Citation:
    span_id: str
    start: int
    end: int


class DecisionLog:
    def __init__(self):
        self.entries = []

    def record(self, action, reason):
        self.entries.append((action, reason))


_EMBEDDING_CACHE = {}
'''

_NAMES = ["span", "s", "node", "chunk", "item", "msg"]


def _alias(rng: random.Random, source: str) -> tuple[str, str]:
    """A statement binding an alias of `source`, and the alias's name (or `source` itself)."""
    name = rng.choice(_NAMES)
    form = rng.randrange(4)
    if form == 0:
        return f"{name} = {source}", name
    if form == 1:
        return f"if ({name} := {source}) is None:\n    return None", name
    if form == 2:
        return f"text = {source}.content", source
    return "pass", source


def _action(rng: random.Random, span: str) -> str:
    forms = [
        f"{span}.content = {span}.content.strip()",
        f"{span}.content += ' (edited)'",
        f"setattr({span}, 'content', 'x')",
        f"{span}.__dict__['content'] = 'x'",
        f"{span}.content = {span}.content[:100]\n{span}.version += 1",
        f"{span}.content = 'new'\n{span}.content_hash = str(hash({span}.content))",
        f"{span}.content = '[pruned]'",
        f"_EMBEDDING_CACHE[{span}.id] = embed({span}.content)",
        f"cache.setdefault({span}.id, len({span}.content))",
        f"quote = {span}.content[citation.start:citation.end]",
        "start, end = citation.start, citation.end\nquote = text[start:end]",
        f"if (body := {span}.content):\n    quote = body[citation.start:citation.end]",
        f"if citation.version == {span}.version:\n    quote = {span}.content[citation.start:citation.end]",
        "summary = summarize(previous_summary)",
        f"summary = llm.summarize({span}.content)",
        "self.spans.pop(0)",
        "del self.spans[0]",
        "self.spans = [x for x in self.spans if x.score > 0.5]",
        "self.decision_log.record('prune', 'budget')\nself.spans.pop(0)",
        "self.decision_log.entries.pop()",
        "self.decision_log.entries.sort()",
        "del self.audit_log[0]",
        f"if time.time() - {span}.created_at > 3600:\n    self.tombstones.pop({span}.id)",
        f"{span}.content.append('x')",
        f"total = len({span}.content)",
    ]
    return rng.choice(forms)


def _block(rng: random.Random, body: list[str], depth: int) -> list[str]:
    """`body` wrapped in a random control-flow statement."""
    inner = [("    " + line) for text in body for line in text.split("\n")]
    form = rng.randrange(6) if depth < 2 else 0
    if form == 1:
        return ["if flag:", *inner]
    if form == 2:
        return ["for other in spans:", *inner]
    if form == 3:
        return ["try:", *inner, "except ValueError:", "    pass"]
    if form == 4:
        return ["while flag:", *inner, "    break"]
    if form == 5:
        return ["with lock:", *inner]
    return [line for text in body for line in text.split("\n")]


def _function(rng: random.Random, index: int) -> tuple[bool, list[str]]:
    """(whether it is a method, its lines)."""
    method = rng.random() < 0.5
    param = rng.choice(_NAMES)
    params = ["self", param] if method else [param]
    params += ["citation", "cache", "spans", "flag", "lock", "llm", "previous_summary"]
    decorator = ["@lru_cache(maxsize=None)"] if rng.random() < 0.1 else []
    statements: list[str] = []
    current = param
    for _ in range(rng.randint(1, 4)):
        binding, current = _alias(rng, current) if rng.random() < 0.4 else ("pass", current)
        statements.append(binding)
        statements += _block(rng, [_action(rng, current)], rng.randrange(3))
    name = rng.choice(["update", "compress", "prune", "cite", "gc_tombstones", "summarize_all", "refresh"])
    body = [("    " + line) for text in statements for line in text.split("\n")]
    return method, [*decorator, f"def {name}_{index}({', '.join(params)}):", *body, "    return None"]


def span_program(seed: int) -> str:
    """One program: the header, then functions and methods built from `seed`."""
    rng = random.Random(seed)
    functions = [_function(rng, i) for i in range(rng.randint(1, 4))]
    methods = [lines for is_method, lines in functions if is_method]
    plain = [lines for is_method, lines in functions if not is_method]
    lines = [HEADER]
    for function in plain:
        lines += [*function, ""]
    if methods:
        lines.append(f"class {rng.choice(['ContextBuffer', 'Buffer', 'AuditLog', 'Store'])}:")
        for function in methods:
            lines += [("    " + line) for line in function] + [""]
    return "\n".join(lines) + "\n"
