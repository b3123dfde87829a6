"""Spans kept in SQL tables: the tables a module creates and the statements it runs on them.

A team's own buffer is often persisted with `sqlite3` (or any DB-API driver): a `CREATE TABLE` in a
string of the module says which columns a table has, and `conn.execute("UPDATE spans SET content = ?
...")` rewrites a span as surely as `span.content = ...` does. A table is a span table when it has an
id column, a content column and a version or hash column (the vocabulary's names, as for classes);
a `tickets` table without a version or hash is a row store, not spans.
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from spanlint.rules import traversal
from spanlint.rules.analysis import literal_text
from spanlint.rules.base import FileContext
from spanlint.rules.libcst_backend import cst
from spanlint.rules.names import name_parts
from spanlint.rules.prescan import FunctionNode, own_nodes
from runtime_guard.vocabulary import Vocabulary

EXECUTE_METHODS = frozenset({"execute", "executemany", "aexecute"})
_CREATE = re.compile(r"\bCREATE\s+TABLE\s+(?:IF\s+NOT\s+EXISTS\s+)?[\"`\[]?(\w+)[\"`\]]?\s*\(", re.IGNORECASE)
_UPDATE = re.compile(r"^\s*UPDATE\s+(?:OR\s+\w+\s+)?[\"`\[]?(\w+)[\"`\]]?\s+SET\s+(.*?)(?:\s+WHERE\s+(.*))?;?\s*$", re.IGNORECASE | re.DOTALL)
_DELETE = re.compile(r"^\s*DELETE\s+FROM\s+[\"`\[]?(\w+)[\"`\]]?(?:\s+WHERE\s+(.*))?;?\s*$", re.IGNORECASE | re.DOTALL)
_CONSTRAINTS = frozenset({"primary", "foreign", "unique", "check", "constraint", "key", "index"})
# A statement that may rewrite or delete (a cheap text test before the module's strings are read).
SQL_WRITE = re.compile(r"\b(?:UPDATE\s+\w+\s+SET|DELETE\s+FROM)\b", re.IGNORECASE)
SQL_TABLE = re.compile(r"\bCREATE\s+TABLE\b", re.IGNORECASE)


@dataclass(frozen=True)
class SpanTable:
    """A table holding spans: its name and its columns by role."""

    name: str
    columns: tuple[str, ...]
    id_columns: tuple[str, ...]
    content_columns: tuple[str, ...]
    version_columns: tuple[str, ...]
    hash_columns: tuple[str, ...]
    tombstone_columns: tuple[str, ...]


@dataclass(frozen=True)
class SqlWrite:
    """`UPDATE <table> SET ...` run by a call: the columns it sets (by name, lower case)."""

    call: cst.Call
    table: SpanTable
    sets: frozenset[str]
    where: str


@dataclass(frozen=True)
class SqlDelete:
    call: cst.Call
    table: SpanTable
    where: str


def statement_text(call: cst.Call) -> str | None:
    """The SQL text `conn.execute(<literal>, ...)` runs, when the first argument is a string literal
    (implicitly concatenated, or an f-string: its placeholders read as `?`)."""
    func = call.func
    if not (isinstance(func, cst.Attribute) and func.attr.value in EXECUTE_METHODS and call.args):
        return None
    return literal_text(call.args[0].value)


def module_tables(source: str, vocabulary: Vocabulary) -> dict[str, SpanTable]:
    """The span tables the module's string literals create, by lower-case name (read from the whole
    source: a rule may see only some of the module's definitions)."""
    if not SQL_TABLE.search(source):
        return {}
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return {}
    found: dict[str, SpanTable] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and SQL_TABLE.search(node.value):
            for table in tables_in(node.value, vocabulary):
                found.setdefault(table.name, table)
    return found


def tables_in(sql: str, vocabulary: Vocabulary) -> list[SpanTable]:
    """The span tables `CREATE TABLE` statements in `sql` define."""
    tables = []
    for match in _CREATE.finditer(sql):
        body = _parenthesized(sql, match.end() - 1)
        if body is None:
            continue
        columns = tuple(
            first.lower() for part in _top_level_split(body)
            if (first := (part.split() or [""])[0].strip("\"`[]")) and first.lower() not in _CONSTRAINTS
        )
        table = span_table(match.group(1).lower(), columns, vocabulary)
        if table is not None:
            tables.append(table)
    return tables


def span_table(name: str, columns: tuple[str, ...], vocabulary: Vocabulary) -> SpanTable | None:
    """The table `name` with `columns` as a span table, or None when it is not one."""
    ids, contents, versions, hashes = _roles(name, columns, vocabulary)
    if not (ids and contents and (versions or hashes)):
        return None
    flags = set(vocabulary.tombstone_flags)
    tombstones = tuple(c for c in columns if "tombstone" in c or c in flags or (c.endswith("_at") and c[:-3] in flags))
    return SpanTable(name, columns, ids, contents, versions, hashes, tombstones)


def _roles(
    table: str, columns: tuple[str, ...], vocabulary: Vocabulary
) -> tuple[tuple[str, ...], tuple[str, ...], tuple[str, ...], tuple[str, ...]]:
    nouns = {p.rstrip("s") for p in name_parts(table)} | set(name_parts(table))
    ids = tuple(
        c for c in columns
        if c in vocabulary.id_fields or (c.endswith("_id") and len(c) > 3 and any(n.startswith(c[:-3]) for n in nouns))
    )
    contents = tuple(c for c in columns if c in vocabulary.content_fields)
    versions = tuple(c for c in columns if c in vocabulary.version_fields)
    hash_words = {name_parts(f)[-1] for f in vocabulary.hash_fields}
    hashes = tuple(c for c in columns if c in vocabulary.hash_fields or (name_parts(c) or [""])[-1] in hash_words)
    return ids, contents, versions, hashes


def sql_write(call: cst.Call, tables: dict[str, SpanTable]) -> SqlWrite | SqlDelete | None:
    """The span-table statement `call` runs, if any."""
    text = statement_text(call)
    if not text:
        return None
    if (update := _UPDATE.match(text)) is not None:
        table = tables.get(update.group(1).lower())
        if table is None:
            return None
        sets = frozenset(
            part.split("=", 1)[0].strip().strip("\"`[]").lower() for part in _top_level_split(update.group(2)) if "=" in part
        )
        return SqlWrite(call, table, sets, update.group(3) or "")
    if (delete := _DELETE.match(text)) is not None:
        table = tables.get(delete.group(1).lower())
        return SqlDelete(call, table, delete.group(2) or "") if table is not None else None
    return None


def rewrites_content(write: SqlWrite) -> str | None:
    """The content column an `UPDATE` sets while keeping the id (it sets no id column), else None."""
    if write.sets & set(write.table.id_columns):
        return None  # a new id for the new content: copy-on-rewrite
    return next((c for c in write.table.content_columns if c in write.sets), None)


def left_unset(write: SqlWrite, columns: tuple[str, ...]) -> str | None:
    """The first of a span table's `columns` (its version, or its hash) when the `UPDATE` sets none of them."""
    return columns[0] if columns and not write.sets & set(columns) else None


def _parenthesized(text: str, start: int) -> str | None:
    """The text inside the parenthesis opened at `start`."""
    depth = 0
    for i in range(start, len(text)):
        if text[i] == "(":
            depth += 1
        elif text[i] == ")":
            depth -= 1
            if depth == 0:
                return text[start + 1:i]
    return None


def _top_level_split(text: str) -> list[str]:
    """`text` split at the commas outside parentheses and quotes."""
    parts, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            quote = "" if char == quote else quote
        elif char in "'\"":
            quote = char
        elif char == "(":
            depth += 1
        elif char == ")":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(char)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def runs_sql_write(function: FunctionNode) -> bool:
    """The function's own body calls `execute` with a literal `UPDATE ... SET` or `DELETE FROM` (a
    pre-filter's test on the `ast` tree)."""
    for node in own_nodes(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in EXECUTE_METHODS and node.args:
            text = ast_literal(node.args[0])
            if text and SQL_WRITE.search(text):
                return True
    return False


def ast_literal(node: ast.expr) -> str | None:
    """`literal_text` on the `ast` tree."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "?" for v in node.values)
    return None


def file_tables(context: FileContext) -> dict[str, SpanTable]:
    """`module_tables` of the linted file (computed once per file)."""
    memo = context.analysis.memo
    tables = memo.get(("sql tables",))
    if tables is None:
        tables = memo[("sql tables",)] = module_tables(context.analysis.source, context.vocabulary)
    return tables


def function_statements(context: FileContext, function: cst.FunctionDef) -> list[SqlWrite | SqlDelete]:
    """The span-table statements the function's own body runs (computed once per function)."""
    memo = context.analysis.memo
    key = ("sql statements", function)
    found = memo.get(key)
    if found is None:
        tables = file_tables(context)
        found = memo[key] = [
            statement for node in _own_nodes(function.body)
            if isinstance(node, cst.Call) and (statement := sql_write(node, tables)) is not None
        ] if tables else []
    return found


def _own_nodes(body: cst.CSTNode) -> list[cst.CSTNode]:
    """The nodes of a function's body, not of the functions and classes nested in it."""
    found: list[cst.CSTNode] = []
    pending = [body]
    while pending:
        node = pending.pop()
        found.append(node)
        pending.extend(c for c in traversal.children(node) if not isinstance(c, (cst.FunctionDef, cst.ClassDef, cst.Lambda)))
    return found


_LIVENESS = re.compile(r"\bNOT\s+EXISTS\b|\bNOT\s+IN\s*\(\s*SELECT\b|\bhold|\bref_?count|\breferenc", re.IGNORECASE)


def collects_by_age(delete: SqlDelete) -> str | None:
    """The tombstone column a `DELETE FROM <span table>` selects by comparing it with a time (`WHERE
    tombstoned_at < ?`), when nothing in it asks what still holds the rows (`NOT EXISTS (SELECT ...
    FROM holders ...)`); else None."""
    if _LIVENESS.search(delete.where):
        return None
    for column in delete.table.tombstone_columns:
        if re.search(rf"\b{re.escape(column)}\s*(?:<|<=|>|>=)|(?:<|<=|>|>=)\s*{re.escape(column)}\b", delete.where, re.IGNORECASE):
            return column
    return None
