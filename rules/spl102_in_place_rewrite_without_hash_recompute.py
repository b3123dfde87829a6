"""SPL102: span content rewritten in place without recomputing its stored hash."""

from __future__ import annotations

import re

from spanlint.rules.base import Fix, Invalid, Valid
from spanlint.rules.libcst_backend import cst
from spanlint.rules.rewrites import ContentWrite, RewriteRule, copy_sets, insert_after
from spanlint.rules.sql import SqlWrite, left_unset


class InPlaceRewriteWithoutHashRecompute(RewriteRule):
    code = "SPL102"
    name = "in-place-rewrite-without-hash-recompute"
    summary = "Span content rewritten in place without recomputing its stored hash"
    message = "Span content rewritten in place without recomputing its stored hash"
    # The fix exists only when `vocabulary.digest_function` is configured (tests/rules/test_spl102_fix.py),
    # so the rule does not advertise one by default.
    fix_applicability = None
    docs = """
## What it does
Finds functions that rewrite a span's content in place (the same write forms as SPL101) when the
span stores a content hash — its class declares a hash field that is not a computed `@property`, or
the function reads one on that span — and the function does not reassign the hash, call a rehash
method (`span.rehash()`) or pass the span to a rehashing helper of the linted tree on every path
through the write. Also an SQL `UPDATE` of a span table's content column that does not set its hash
column (`UPDATE items SET body = ? WHERE pos = ?` on a table with `item_id`, `item_hash`, `body`).

## Why is this bad?
The stored hash now describes text the span no longer holds. Consumers that check
`(span_id, version, content_hash)` before reusing a derived artifact accept a stale one, and a
deduplicating store treats the rewritten span as unchanged.

## Example
```python
@dataclass
class Span:
    id: str
    content: str
    version: int
    content_hash: str

def normalize(span: Span) -> None:
    span.content = " ".join(span.content.split())
    span.version += 1
```

## Use instead
```python
def normalize(span: Span) -> None:
    span.content = " ".join(span.content.split())
    span.version += 1
    span.content_hash = digest(span.content)
```
or make the hash a computed `@property`.

## Fix safety
Offered only when the configuration names the digest function (`vocabulary.digest_function`, e.g.
`myproj.spans.digest`): the fix inserts `<span>.<hash field> = digest(<span>.<content field>)` after
the write and imports the function if needed. It is unsafe: the project's hash may cover more than
the content field.
"""
    valid = [
        # The new content under a new id: copy-on-rewrite in the table.
        Valid(
            "class Session:\n    def __init__(self, conn):\n        self._conn = conn\n        self._conn.execute(\n"
            "        \"CREATE TABLE IF NOT EXISTS items (pos INTEGER PRIMARY KEY, item_id TEXT, item_hash TEXT, body TEXT)\"\n        )\n\n"
            "    def replace(self, pos: int, body: str) -> None:\n"
            "        self._conn.execute(\"UPDATE items SET item_id = ?, item_hash = ?, body = ? WHERE pos = ?\", (new_id(), digest(body), body, pos))\n"
        ),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Turn:\n    turn_id: str\n    text: str\n    version: int = 1\n    body_sha256: str = \"\"\n\ndef strip(turn: Turn) -> None:\n    turn.text = turn.text.strip()\n    turn.version += 1\n    turn.body_sha256 = sha256(turn.text)\n"),
        Valid("def normalize(span):\n    span.content = span.content.strip()\n    span.content_hash = digest(span.content)\n    return span.content_hash\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef redact(span: Span):\n    span.content = scrub(span.content)\n    span.version += 1\n    span.rehash()\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef rehash(span):\n    span.content_hash = digest(span.content)\n\nasync def compact(spans: list[Span], llm):\n    for span in spans:\n        span.content = await llm.compact(span.content)\n        span.version += 1\n        rehash(span)\n"),
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n\n"
            "    @property\n    def content_hash(self):\n        return digest(self.content)\n\n"
            "def redact(span: Span):\n    span.content = scrub(span.content)\n    span.version += 1\n"
        ),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef redact(span: Span, log):\n    try:\n        span.content = scrub(span.content)\n    finally:\n        span.version += 1\n        span.content_hash = digest(span.content)\n"),
        Valid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef prune(span: Span):\n    span.content = '[pruned]'\n"),
        Valid("import hashlib\n\ndef checksum(entry, blob):\n    entry.body = blob\n    entry.etag = hashlib.md5(blob).hexdigest()\n"),
        # The wrapped message rewritten, the span's version and hash brought up to date.
        Valid(
            "from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    role: str\n    content: str\n\n"
            "@dataclass\nclass TurnSpan:\n    span_id: str\n    message: ChatMessage\n    version: int = 0\n    content_hash: str = ''\n\n"
            "def normalize(span: TurnSpan) -> None:\n    span.message.content = span.message.content.strip()\n"
            "    span.version += 1\n    span.content_hash = digest(span.message.content)\n"
        ),
    ]
    invalid = [
        # A dict span updated in one call: the version moves, the stored digest does not.
        Invalid(
            "from typing import Any\n\nSpan = dict[str, Any]\n\n"
            "def make_span(text: str) -> Span:\n    return {\"id\": new_id(), \"text\": text, \"rev\": 0, \"sha\": sha_of(text)}\n\n"
            "def normalize(span: Span) -> None:\n    span.update(text=span[\"text\"].strip(), rev=span[\"rev\"] + 1)\n",
            line=9, column=5, message="`span[\"text\"]` rewritten in place without recomputing `span[\"sha\"]`",
        ),
        Invalid(
            "class Session:\n    def __init__(self, conn):\n        self._conn = conn\n        self._conn.execute(\n"
            "        \"CREATE TABLE IF NOT EXISTS items (pos INTEGER PRIMARY KEY, item_id TEXT, item_hash TEXT, body TEXT)\"\n        )\n\n"
            "    def scrub(self, pos: int, body: str) -> None:\n"
            "        self._conn.execute(\"UPDATE items SET body = ? WHERE pos = ?\", (body, pos))\n",
            line=9, column=9, message="`items.body` rewritten in place without recomputing `items.item_hash`",
        ),
        # The version and hash live in the document's metadata: the fix bumps one and leaves the other.
        Invalid(
            "from pydantic import BaseModel\n\nclass Document(BaseModel):\n    id: str | None = None\n"
            "    page_content: str\n    metadata: dict = {}\n\n"
            "def correct(doc: Document, text: str) -> None:\n    doc.page_content = text\n"
            "    doc.metadata['version'] = doc.metadata.get('version', 0) + 1\n\n"
            "def is_current(doc: Document, digest: str) -> bool:\n    return doc.metadata.get('content_hash') == digest\n",
            line=9, column=5, message="`doc.page_content` rewritten in place without recomputing the hash in its metadata",
        ),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Turn:\n    turn_id: str\n    text: str\n    version: int = 1\n    sha: str = \"\"\n\ndef strip(turn: Turn) -> None:\n    turn.text = turn.text.strip()\n    turn.version += 1\n", line=11, column=5, message="`turn.text` rewritten in place without recomputing `turn.sha`"),
        # known only by its name: the one class of the module whose content it writes (`Snippet`) stores a hash
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass Snippet:\n    span_id: str\n    content: str\n    content_hash: str\n\ndef redact(span):\n    span.content = scrub(span.content)\n",
            line=10,
            column=5,
            message="`span.content` rewritten in place without recomputing `span.content_hash`",
        ),
        Invalid("def normalize(span):\n    span.content = span.content.strip()\n    return span.content_hash\n", line=2, column=5, message="`span.content` rewritten in place without recomputing `span.content_hash`"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef redact(span: Span):\n    span.content = scrub(span.content)\n    span.version += 1\n", line=11, column=5, message="`span.content` rewritten in place without recomputing `span.content_hash`"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\nclass Buffer:\n    def edit(self, span_id, text, strict):\n        s = self._spans[span_id]\n        s.content = text\n        s.version += 1\n        if strict:\n            s.content_hash = digest(text)\n", line=13, column=9, message="`s.content` rewritten in place without recomputing `s.content_hash`"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\nasync def compact(spans: list[Span], llm):\n    for span in spans:\n        span.content = await llm.compact(span.content)\n        span.version += 1\n", line=12, column=9, message="`span.content` rewritten in place without recomputing `span.content_hash`"),
        Invalid("from dataclasses import dataclass\n\n@dataclass\nclass Span:\n    span_id: str\n    content: str\n    version: int\n    content_hash: str\n\ndef store(buf, span: Span, text):\n    buf[span.span_id] = replace(span, content=text, version=span.version + 1)\n", line=11, column=5, message="`span.content` replaced by a copy under the same id without a new `content_hash`", help="Recompute `content_hash` in the copy, or give the copy a new id"),
        Invalid("from pydantic import BaseModel\n\nclass Chunk(BaseModel):\n    id: str\n    text: str\n    digest: str\n\n    def append(self, more: str) -> None:\n        self.text += more\n", line=9, column=9, message="`self.text` rewritten in place without recomputing `self.digest`", help="Recompute `self.digest` after the write, or copy the span under a new id"),
        # The span keeps its content in the message it wraps; the message is rewritten through an alias.
        Invalid(
            "from dataclasses import dataclass\n\n@dataclass\nclass ChatMessage:\n    role: str\n    content: str\n\n"
            "@dataclass\nclass TurnSpan:\n    span_id: str\n    message: ChatMessage\n    version: int = 0\n    content_hash: str = ''\n\n"
            "def normalize(span: TurnSpan) -> None:\n    msg = span.message\n    msg.content = ' '.join(msg.content.split())\n    span.version += 1\n",
            line=17, column=5, message="`span.message` rewritten in place without recomputing `span.content_hash`",
        ),
    ]

    def check_sql(self, write: SqlWrite, column: str) -> None:
        table = write.table
        stored = left_unset(write, table.hash_columns)
        if stored is None:
            return
        self.report(
            write.call, f"`{table.name}.{column}` rewritten in place without recomputing `{table.name}.{stored}`",
            help=f"Set `{stored}` to the new content's digest in the same `UPDATE`, or write the new content under a new id",
        )

    def check(self, write: ContentWrite) -> None:
        span_class = write.span_class
        if self.check_in_metadata(write, "hash", "without recomputing the hash", "without a new hash", "Recompute the hash"):
            return  # `doc.metadata[HASH_KEY]`
        if span_class is not None:
            hash_field = span_class.stored_hash_field
        else:
            hash_field = self.reads_field(write, self.vocabulary.hash_fields)
        if hash_field is None:
            return
        hashes = span_class.hash_fields if span_class is not None else self.vocabulary.hash_fields
        if write.copy is not None:
            if not copy_sets(write, hashes):
                self.report(
                    write.statement, f"{write.describe()} replaced by a copy under the same id without a new `{hash_field}`",
                    help=f"Recompute `{hash_field}` in the copy, or give the copy a new id",
                )
            return
        if self.covered(write, hashes, self.vocabulary.rehash_methods, "rehashes"):
            return
        self.report(
            write.statement,
            f"{write.describe()} rewritten in place without recomputing `{write.access(hash_field)}`",
            help=f"Recompute `{write.access(hash_field)}` after the write, or copy the span under a new id",
            fix=self._fix(write, hash_field),
        )

    def _fix(self, write: ContentWrite, hash_field: str) -> Fix | None:
        digest = self.vocabulary.digest_function
        content_field = write.field or (write.span_class.content_fields[0] if write.span_class and write.span_class.content_fields else None)
        if not digest or "." not in digest or content_field is None:
            return None
        module_name, function_name = digest.rsplit(".", 1)
        rehash = cst.Assign(
            targets=[cst.AssignTarget(write.field_target(hash_field))],
            value=cst.Call(func=cst.Name(function_name), args=[cst.Arg(write.field_target(content_field))]),
        )
        replacements = dict(insert_after(write, rehash))
        module = self.context.module
        if _is_module(self.context.path, module_name):
            # the digest function's own module: it must define it, and never imports itself
            if not _defines(self.context.source, function_name):
                return None
        elif not _imports(module, module_name, function_name):
            anchor = _import_anchor(module)
            statement = cst.parse_statement(f"from {module_name} import {function_name}\n")
            if anchor is None or anchor in replacements:
                return None
            moved = statement.with_changes(leading_lines=anchor.leading_lines)
            replacements[anchor] = cst.FlattenSentinel([moved, anchor.with_changes(leading_lines=())])
        return Fix(f"Recompute `{write.access(hash_field)}` with `{function_name}`", "unsafe", replacements)


def _is_module(path: str, module_name: str) -> bool:
    """The file at `path` is the module `module_name` (`pkg/spans.py` or `pkg/spans/__init__.py` for `spans`)."""
    parts = path.replace("\\", "/").removesuffix(".py").removesuffix(".pyi").split("/")
    if parts[-1] == "__init__":
        parts = parts[:-1]
    wanted = module_name.split(".")
    return parts[-len(wanted):] == wanted


def _defines(source: str, name: str) -> bool:
    """The module's text binds `name` at its top level (a function, class or assignment)."""
    return re.search(rf"^(?:(?:async[ \t]+)?def|class)[ \t]+{re.escape(name)}\b|^{re.escape(name)}[ \t]*[:=]", source, re.MULTILINE) is not None


def _imports(module: cst.Module, module_name: str, function_name: str) -> bool:
    """`module` already imports `function_name` from `module_name` (or defines it)."""
    for statement in module.body:
        if isinstance(statement, cst.FunctionDef) and statement.name.value == function_name:
            return True
        if not isinstance(statement, cst.SimpleStatementLine):
            continue
        for small in statement.body:
            if isinstance(small, cst.ImportFrom) and small.module is not None and not isinstance(small.names, cst.ImportStar):
                source = module.code_for_node(small.module)
                if source == module_name and any(
                    isinstance(alias.name, cst.Name) and alias.name.value == function_name and alias.asname is None
                    for alias in small.names
                ):
                    return True
    return False


def _import_anchor(module: cst.Module) -> cst.BaseStatement | None:
    """The statement a new import goes before: the first after the docstring and `__future__` imports."""
    for index, statement in enumerate(module.body):
        if isinstance(statement, cst.SimpleStatementLine):
            small = statement.body[0]
            if index == 0 and isinstance(small, cst.Expr) and isinstance(small.value, (cst.SimpleString, cst.ConcatenatedString)):
                continue
            if isinstance(small, cst.ImportFrom) and small.module is not None and module.code_for_node(small.module) == "__future__":
                continue
        return statement
    return None
