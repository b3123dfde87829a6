"""Stdlib-only pre-scans: can a file hold a candidate of a rule at all?

The project pass (`rules.project.summarize_source`) parses every file with the standard `ast`
module; the checks here run on that tree (or on the text) and record which candidate shapes a file
holds in `FileSummary.shapes`. A rule's `may_match_summary` skips a file without its shape, so
LibCST never parses it. Every check over-approximates what the rule's own visitor looks for: it
may let a file through that has no finding, never the reverse.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from bisect import bisect_left, bisect_right
from typing import Iterable, Iterator

from runtime_guard.vocabulary import Vocabulary

# The shape of an in-place content write (SPL101-SPL104, `rules.rewrites.content_writes`).
CONTENT_WRITE = "content-write"

MUTATING_METHODS = frozenset({"append", "extend", "insert", "pop", "remove", "clear", "sort", "reverse"})
# Calls whose result is a fresh object (a copy), not the span the argument names.
COPY_CALLS = frozenset({"copy", "deepcopy", "model_copy", "_replace", "replace", "evolve", "with_changes", "clone"})
CONSTRUCTORS = frozenset({"__init__", "__post_init__", "__new__", "__attrs_post_init__", "model_post_init"})
VALIDATOR_DECORATORS = frozenset(
    {"validator", "root_validator", "model_validator", "field_validator", "post_load", "pre_load"}
)

_LINE_BREAK = re.compile(r"\r\n?|\n")
_WORD_SPLIT = re.compile(r"_+|(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def name_parts(name: str) -> list[str]:
    """The lower-case word parts of a snake_case or CamelCase name (`TextNode` -> text, node)."""
    return [p.lower() for p in _WORD_SPLIT.split(name) if p]


FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


_PATTERNS: dict[Vocabulary, re.Pattern[str]] = {}


def _pattern(vocabulary: Vocabulary) -> re.Pattern[str]:
    found = _PATTERNS.get(vocabulary)
    if found is None:
        fields = "|".join(map(re.escape, vocabulary.content_fields))
        setters = "|".join(map(re.escape, vocabulary.content_setters))
        copies = "|".join(map(re.escape, COPY_CALLS))
        found = re.compile(
            rf"\.(?:{fields})\s*(?::[^=\n]*)?(?:[-+*/%|&^@]|//|<<|>>|\*\*)?=(?!=)"
            rf"|\.(?:{fields})\s*\[|\.(?:{fields})\.(?:{'|'.join(MUTATING_METHODS)})\("
            rf"|\.(?:{setters})\(|setattr\(|__setattr__\(|__dict__\s*\[|\b(?:{copies})\("
        )
        _PATTERNS[vocabulary] = found
    return found


def content_write_lines(source: str, functions: Iterable[FunctionNode], vocabulary: Vocabulary) -> list[int]:
    """The lines of the functions that hold, in their own bodies, a statement shaped like a content write.

    The shapes are those `rules.rewrites.content_writes` lists (a write to `x.<content field>`, to an
    item of it or of `x.__dict__`, a mutating method on it, a content setter, `setattr`, a copy
    stored under a key), in the functions it looks at (not constructors or validators), before any
    span-likeness test.
    """
    lines = match_lines(source, _pattern(vocabulary))
    if not lines:
        return []
    shapes = _WriteShapes(vocabulary)
    return [
        function.lineno
        for function in functions
        if spans_line(function, lines) and not _exempt(function) and shapes.any_in(function)
    ]


def match_lines(source: str, *patterns: re.Pattern[str]) -> list[int]:
    """The lines (sorted) on which a match of one of `patterns` starts.

    The parser NFKC-normalizes identifiers, so non-ASCII source is normalized first (which keeps
    its line breaks).
    """
    text = source if source.isascii() else unicodedata.normalize("NFKC", source)
    offsets = [match.start() for pattern in patterns for match in pattern.finditer(text)]
    if not offsets:
        return []
    line_starts = [0, *(match.end() for match in _LINE_BREAK.finditer(text))]
    return sorted({bisect_right(line_starts, offset) for offset in offsets})


def spans_line(node: ast.stmt, lines: list[int]) -> bool:
    """Some line of the statement `node` (its decorators included) is in `lines` (sorted)."""
    if not lines:
        return False
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    index = bisect_left(lines, first)
    return index < len(lines) and lines[index] <= (node.end_lineno or node.lineno)


def _exempt(function: FunctionNode) -> bool:
    """Constructors and validators: `content_writes` lists nothing in them."""
    if function.name in CONSTRUCTORS:
        return True
    for decorator in function.decorator_list:
        expr = decorator.func if isinstance(decorator, ast.Call) else decorator
        if _last_dotted_part(expr) in VALIDATOR_DECORATORS:
            return True
    return False


def _last_dotted_part(node: ast.expr) -> str | None:
    """`c` for `a.b.c` or `c` (a chain of names only), else None."""
    base = node
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name):
        return None
    return node.attr if isinstance(node, ast.Attribute) else node.id


def _own_nodes(function: FunctionNode) -> Iterator[ast.AST]:
    """The nodes of `function`'s body, not of the functions, classes and lambdas nested in it."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        pending.extend(ast.iter_child_nodes(node))


class _WriteShapes:
    def __init__(self, vocabulary: Vocabulary) -> None:
        self.fields = frozenset(vocabulary.content_fields)
        self.setters = frozenset(vocabulary.content_setters)

    def any_in(self, function: FunctionNode) -> bool:
        return any(self._is_write(node) for node in _own_nodes(function))

    def _is_write(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Assign):
            return any(
                self._is_target(target) or (
                    isinstance(target, ast.Subscript) and isinstance(node.value, ast.Call)
                    and _callee_name(node.value) in COPY_CALLS
                )
                for target in node.targets
            )
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
                    or (func.attr in MUTATING_METHODS and self._is_content(func.value))
                )
        return False

    def _is_target(self, target: ast.expr) -> bool:
        if isinstance(target, ast.Subscript):
            container = target.value
            return isinstance(container, ast.Attribute) and (
                container.attr in self.fields or container.attr == "__dict__"
            )
        return self._is_content(target)

    def _is_content(self, node: ast.expr) -> bool:
        return isinstance(node, ast.Attribute) and node.attr in self.fields


def _callee_name(call: ast.Call) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


# --- SPL201-SPL501: the shapes their findings need, at the level of each rule's specification -----

CACHE_KEYED_ON_ID = "cache-keyed-on-id"  # SPL201: a cache-named mapping read or written under an id
ID_OR_DERIVED_RECORD = "id-or-derived-record"  # SPL202: a record class declaring an id-ish or derived-ish field
SUMMARIZE_CALL = "summarize-call"  # SPL301: a call named like summarizing
REMOVAL = "removal"  # SPL401: a removal from a container, or a tombstone write, in a function
DECISION_LOG_EDIT = "decision-log-edit"  # SPL402: something named like a decision log edited in a function
DROP = "drop"  # SPL403: a removal in a function (the rule's text pre-scan asks for a tombstone)
CONTENT_SLICE = "content-slice"  # SPL501: span content indexed with bounds read from an object

# Supersets of the name sets the rules use; tests/rules/test_prescan_is_sound.py checks they stay so.
REMOVAL_METHODS = frozenset({"pop", "popleft", "popitem", "remove", "clear", "discard", "delete", "purge", "evict"})
LOG_MUTATING_METHODS = frozenset({*REMOVAL_METHODS, "insert", "sort", "reverse", "rotate"})
CACHE_METHODS = frozenset({"get", "set", "put", "setdefault", "pop", "update"})
LOG_ENTRY_ATTRIBUTES = frozenset({"entries", "records", "events", "items", "rows", "lines", "history"})
RECORD_FACTORIES = frozenset({"namedtuple", "NamedTuple", "TypedDict", "make_dataclass"})
LOG_BUILDERS = frozenset({"__init__", "__post_init__", "__new__", "__attrs_post_init__", "setUp", "model_post_init"})
_ID_PARTS = frozenset({"id", "ids", "uid", "uuid"})
# Word parts of the fields SPL202 calls derived beyond the vocabulary's: positions and token counts.
_DERIVED_FIELD_PARTS = frozenset({"start", "end", "token", "tokens"})
_BLOCK = (ast.stmt, ast.excepthandler, ast.match_case)
_FILTER_WRAPPERS = frozenset({"list", "deque", "dict"})


def rule_shapes(tree: ast.Module, source: str, vocabulary: Vocabulary) -> dict[str, list[int]]:
    """The shapes of SPL201-SPL501 candidates that `tree` holds, each with the lines it is found on
    (every occurrence, so that `definitions_holding` can tell which definitions hold it).

    Statements are all visited; the expressions of a statement only when they span a line naming
    one of the words an expression-level shape needs (a cache word, a summarize word, a removing
    method, a decision-log word, a content field or an alias of one).
    """
    return _ShapeScan(source, vocabulary).scan(tree)


def _has_phrase(parts: list[str], phrases: tuple[tuple[str, ...], ...]) -> bool:
    """One of `phrases` (word-part tuples) appears as consecutive parts of `parts`."""
    for phrase in phrases:
        size = len(phrase)
        if any(tuple(parts[i : i + size]) == phrase for i in range(len(parts) - size + 1)):
            return True
    return False


class _Function:
    """What the scan knows about one function while visiting its statements."""

    def __init__(self, node: FunctionNode | None, log_class: bool = False) -> None:
        self.node = node
        self.log_class = log_class  # a method of a class named like a decision log
        self.reads_log = False  # may name its decision log by any name (see `_ShapeScan.scan`)
        self.filters = False  # a local bound to a filtering rewrite
        self.writeback = False  # an attribute or item assigned a bare name
        self._log_params: bool | None = None
        self._read_bound: set[str] | None = None


class _ShapeScan:
    def __init__(self, source: str, vocabulary: Vocabulary) -> None:
        self.source = source
        self.vocabulary = vocabulary
        self.found: dict[str, list[int]] = {}
        self.cache_words = frozenset(vocabulary.cache_words)
        self.id_fields = frozenset(vocabulary.id_fields)
        self.content_fields = frozenset(vocabulary.content_fields)
        self.cache_decorators = frozenset(vocabulary.cache_decorators)
        self.summarize_words = frozenset(vocabulary.summarize_words)
        self.summary_words = frozenset(vocabulary.summary_words)
        self.log_phrases = tuple(tuple(name_parts(n)) for n in vocabulary.decision_log_names if name_parts(n))
        self.log_starts = frozenset(phrase[0] for phrase in self.log_phrases)
        self.derived_parts = frozenset(
            {*vocabulary.derived_words, *(p for f in vocabulary.derived_fields for p in name_parts(f)), *_DERIVED_FIELD_PARTS}
        )
        self.aliases: set[str] = set()  # locals holding span content (`text = span.content`)
        self._alias_links: list[tuple[str, str]] = []
        self._parts: dict[str, list[str]] = {}

    # --- driver ------------------------------------------------------------------------------
    def scan(self, tree: ast.Module) -> dict[str, list[int]]:
        statements: list[tuple[ast.AST, _Function]] = []
        pending: list[tuple[ast.AST, _Function]] = [(tree, _Function(None))]
        functions: list[_Function] = []
        log_methods: set[int] = set()
        while pending:
            node, function = pending.pop()
            if node is not tree:
                statements.append((node, function))
                self._statement(node, function)
            inner = function
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                inner = _Function(node, id(node) in log_methods)
                functions.append(inner)
            elif isinstance(node, ast.ClassDef) and self._is_log_name(node.name):
                log_methods.update(id(item) for item in node.body)
            for name in node._fields:
                value = getattr(node, name)
                if isinstance(value, list):
                    pending.extend((item, inner) for item in value if isinstance(item, _BLOCK))
        for function in functions:
            if function.filters and function.writeback:
                self._mark(function.node, REMOVAL, DROP)
        self._close_aliases()
        lines = self._word_lines()
        if self._names_logs():
            for function in functions:
                # A method of a log class or a function taking a log reads its log under any name.
                function.reads_log = function.log_class or self._has_log_params(function)
        if lines or any(f.reads_log for f in functions):
            for node, function in statements:
                if function.reads_log:
                    self._expressions(node, function, None)
                    continue
                first = node.lineno if not isinstance(node, ast.match_case) else node.pattern.lineno
                first = min([first, *(d.lineno for d in getattr(node, "decorator_list", ()))])
                index = bisect_left(lines, first)
                if index < len(lines) and lines[index] <= (getattr(node, "end_lineno", None) or node.body[-1].end_lineno):
                    self._expressions(node, function, lines)
        return self.found

    def _names_logs(self) -> bool:
        """The source names a decision-log word anywhere (in any case)."""
        lowered = self.source.lower()
        return any(start in lowered for start in self.log_starts)

    def _word_lines(self) -> list[int]:
        """Sorted line numbers naming a word some expression-level shape needs.

        The search runs on the lower-cased text (lower-casing keeps the line breaks), so it finds a
        superset of the lines naming a word in any case.
        """
        patterns = [_expression_words(self.vocabulary)]
        if self.aliases:
            patterns.append(re.compile(r"\b(?:%s)\b" % "|".join(sorted(re.escape(a.lower()) for a in self.aliases))))
        return match_lines(self.source.lower(), *patterns)

    # --- statements ----------------------------------------------------------------------------
    def _statement(self, node: ast.AST, function: _Function) -> None:
        if isinstance(node, ast.ClassDef):
            if self._record_with_id_or_derived(node):
                self._mark(node, ID_OR_DERIVED_RECORD)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if self._memoized_on_id(node):
                self._mark(node, CACHE_KEYED_ON_ID)
            if self._summarizes(node.name):
                self._mark(node, SUMMARIZE_CALL)  # SPL301 reads the signatures of the summarizers it calls
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            if node.value is not None:
                self._assignment(targets, node.value, function)
            if function.node is not None and function.node.name not in LOG_BUILDERS:
                for target in targets:
                    if self._edits_log(target, function):
                        self._mark(node, DECISION_LOG_EDIT)
        elif isinstance(node, ast.Delete) and function.node is not None:
            targets = [e for t in node.targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]
            if len(targets) > 1 or any(isinstance(t, ast.Subscript) for t in targets):
                self._mark(node, DROP)
            if any(isinstance(t, ast.Subscript) for t in targets):
                self._mark(node, REMOVAL)
                if function.node.name not in LOG_BUILDERS and any(
                    isinstance(t, ast.Subscript) and self._log_like(t.value, function) for t in targets
                ):
                    self._mark(node, DECISION_LOG_EDIT)
        elif isinstance(node, (ast.For, ast.AsyncFor)) and function.node is not None:
            if isinstance(node.target, ast.Name) and self._is_content(node.iter):
                self.aliases.add(node.target.id)

    def _assignment(self, targets: list[ast.expr], value: ast.expr, function: _Function) -> None:
        if isinstance(value, ast.DictComp) and self._key_names_id(value.key, any_name=False):
            self._mark(value, CACHE_KEYED_ON_ID)
        if isinstance(value, ast.Call) and _callee_name(value) in RECORD_FACTORIES:
            self._mark(value, ID_OR_DERIVED_RECORD)
        if function.node is None:
            return
        filtering = _is_filter(value)
        for target in targets:
            if isinstance(target, ast.Name):
                function.filters = function.filters or filtering
                if self._is_content(value):
                    self.aliases.add(target.id)
                elif isinstance(value, ast.Name):
                    self._alias_links.append((value.id, target.id))
            elif isinstance(target, (ast.Attribute, ast.Subscript)):
                if filtering or (isinstance(target, ast.Subscript) and _has_slice(target)):
                    self._mark(value, REMOVAL, DROP)
                elif isinstance(value, ast.Name):
                    function.writeback = True
                if self._is_tombstone_write(target, value):
                    self._mark(value, REMOVAL)

    def _is_tombstone_write(self, target: ast.Attribute | ast.Subscript, value: ast.expr) -> bool:
        """`span.content = "[pruned]"`, `turn["content"] = TOMBSTONE`."""
        key = target.slice if isinstance(target, ast.Subscript) else None
        field = target.attr if isinstance(target, ast.Attribute) else key.value if isinstance(key, ast.Constant) else None
        if field not in self.content_fields:
            return False
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            return any(marker in value.value for marker in self.vocabulary.tombstone_markers)
        name = value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else ""
        return "tombstone" in self._name_parts(name)

    def _close_aliases(self) -> None:
        """Aliases of aliases (`text = span.content; t = text`)."""
        grew = bool(self.aliases)
        while grew:
            grew = False
            for source, target in self._alias_links:
                if source in self.aliases and target not in self.aliases:
                    self.aliases.add(target)
                    grew = True

    # --- expressions ---------------------------------------------------------------------------
    def _expressions(self, statement: ast.AST, function: _Function, lines: list[int] | None) -> None:
        """Walk the expressions of `statement` (not its nested blocks) that span one of `lines` (all
        of them when `lines` is None)."""
        parts: list[ast.AST] = []
        for name in statement._fields:
            value = getattr(statement, name)
            for child in value if isinstance(value, list) else (value,):
                if isinstance(child, ast.AST) and not isinstance(child, _BLOCK):
                    parts.append(child)
        while parts:
            part = parts.pop()
            first = getattr(part, "lineno", None)
            if first is None:  # arguments, withitem, operators: look at their children
                parts.extend(ast.iter_child_nodes(part))
                continue
            if lines is None:
                self._walk(part, function)
                continue
            index = bisect_left(lines, first)
            if index < len(lines) and lines[index] <= (part.end_lineno or first):
                self._walk(part, function)

    def _walk(self, expression: ast.AST, function: _Function) -> None:
        in_function = function.node is not None
        pending = [expression]
        while pending:
            node = pending.pop()
            if isinstance(node, ast.Call):
                self._call(node, function, in_function)
            elif isinstance(node, ast.Subscript):
                if self._is_cache(node.value) and self._key_names_id(node.slice):
                    self._mark(node, CACHE_KEYED_ON_ID)
                if in_function and self._is_content(node.value):
                    if self._bounds_read(node.slice, function):
                        self._mark(node, CONTENT_SLICE)
            elif isinstance(node, ast.Compare):
                if any(isinstance(op, (ast.In, ast.NotIn)) for op in node.ops) and any(
                    self._is_cache(c) for c in node.comparators
                ) and self._key_names_id(node.left):
                    self._mark(node, CACHE_KEYED_ON_ID)
            pending.extend(ast.iter_child_nodes(node))

    def _call(self, node: ast.Call, function: _Function, in_function: bool) -> None:
        func = node.func
        name = _callee_name(node)
        if name and self._summarizes(name):
            self._mark(node, SUMMARIZE_CALL)
        if isinstance(func, ast.Attribute):
            if (
                func.attr in CACHE_METHODS and node.args
                and self._is_cache(func.value)
                and (isinstance(node.args[0], ast.DictComp) or self._key_names_id(node.args[0]))
            ):
                self._mark(node, CACHE_KEYED_ON_ID)
            if in_function and func.attr in REMOVAL_METHODS:
                if node.args or func.attr in ("popitem", "clear"):
                    self._mark(node, DROP)
                if isinstance(func.value, (ast.Name, ast.Attribute, ast.Subscript)):
                    self._mark(node, REMOVAL)
        if (
            in_function and function.node.name not in LOG_BUILDERS
            and (
                (isinstance(func, ast.Attribute) and self._log_like(func.value, function))
                or (node.args and self._log_like(node.args[0], function))
            )
        ):
            self._mark(node, DECISION_LOG_EDIT)

    def _mark(self, node: ast.AST, *shapes: str) -> None:
        """`node`'s line holds each of `shapes`."""
        for shape in shapes:
            self.found.setdefault(shape, []).append(node.lineno)

    # --- predicates ----------------------------------------------------------------------------
    def _name_parts(self, name: str) -> list[str]:
        found = self._parts.get(name)
        if found is None:
            found = self._parts[name] = name_parts(name)
        return found

    def _names_id(self, name: str) -> bool:
        parts = self._name_parts(name)
        return name in self.id_fields or (bool(parts) and parts[-1] in _ID_PARTS)

    def _key_names_id(self, key: ast.expr, any_name: bool = True) -> bool:
        """A key that may be a span id: an id-ish attribute or string key, or (`any_name`) a name,
        which may hold an id; tuples, f-strings and conversions (`str(...)`) by their parts."""
        if isinstance(key, ast.Tuple):
            return any(self._key_names_id(e, any_name) for e in key.elts)
        if isinstance(key, ast.JoinedStr):
            return any(isinstance(v, ast.FormattedValue) and self._key_names_id(v.value, any_name) for v in key.values)
        if isinstance(key, ast.Name):
            return any_name or self._names_id(key.id)
        if isinstance(key, ast.Attribute):
            return self._names_id(key.attr)
        if isinstance(key, ast.Subscript):
            inner = key.slice
            return isinstance(inner, ast.Constant) and isinstance(inner.value, str) and self._names_id(inner.value)
        if isinstance(key, ast.Call):
            return bool(key.args) and self._key_names_id(key.args[0], any_name)
        return False

    def _is_cache(self, mapping: ast.expr) -> bool:
        while isinstance(mapping, ast.Subscript):
            mapping = mapping.value
        name = mapping.attr if isinstance(mapping, ast.Attribute) else mapping.id if isinstance(mapping, ast.Name) else None
        return name is not None and not self.cache_words.isdisjoint(self._name_parts(name))

    def _memoized_on_id(self, node: FunctionNode) -> bool:
        """`@lru_cache` (or another cache decorator) on a function taking an id-ish parameter."""
        if not any(_last_dotted_part(d.func if isinstance(d, ast.Call) else d) in self.cache_decorators
                   for d in node.decorator_list):
            return False
        args = node.args
        return any(self._name_parts(a.arg)[-1:] and self._name_parts(a.arg)[-1] in _ID_PARTS
                   for a in (*args.posonlyargs, *args.args, *args.kwonlyargs))

    def _record_with_id_or_derived(self, node: ast.ClassDef) -> bool:
        """A class that may be a record (decorated, or with a base that may be one) declaring a
        field named like a span id or like something derived from span content."""
        if not (node.decorator_list or node.bases):
            return False
        for statement in node.body:
            names: list[str] = []
            if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name):
                names = [statement.target.id]
            elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Call):
                names = [t.id for t in statement.targets if isinstance(t, ast.Name)]
            for name in names:
                parts = self._name_parts(name)
                if (len(parts) >= 2 and parts[-1] in _ID_PARTS) or not self.derived_parts.isdisjoint(parts):
                    return True
                if name in self.vocabulary.derived_fields:
                    return True
        return False

    def _summarizes(self, name: str) -> bool:
        """A name with a summarize word (`summarize`, `asummarize`, `summarizer`) or a summary word."""
        words = self.summarize_words
        for part in self._name_parts(name):
            stem = part[1:] if part.startswith("a") and part[1:] in words else part
            if stem in words or (stem.endswith("r") and stem[:-1] in words) or part in self.summary_words:
                return True
        return False

    def _is_content(self, expr: ast.expr) -> bool:
        if isinstance(expr, ast.Attribute):
            return expr.attr in self.content_fields
        return isinstance(expr, ast.Name) and expr.id in self.aliases

    def _bounds_read(self, bounds: ast.expr, function: _Function) -> bool:
        """Bounds that read an attribute or item, or a local the function binds from such a read."""
        names = set()
        for node in ast.walk(bounds):
            if isinstance(node, (ast.Attribute, ast.Subscript)):
                return True
            if isinstance(node, ast.Name):
                names.add(node.id)
        return bool(names) and not names.isdisjoint(self._read_bound(function))

    def _read_bound(self, function: _Function) -> set[str]:
        """Names `function` binds (assignment, `for`, comprehension) from an attribute or item read."""
        if function._read_bound is None:
            found: set[str] = set()
            assert function.node is not None
            for node in ast.walk(function.node):
                if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
                    targets, value = (node.targets if isinstance(node, ast.Assign) else [node.target]), node.value
                elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
                    targets, value = [node.target], node.iter
                else:
                    continue
                if value is not None and any(isinstance(n, (ast.Attribute, ast.Subscript)) for n in ast.walk(value)):
                    found.update(n.id for t in targets for n in ast.walk(t) if isinstance(n, ast.Name))
            function._read_bound = found
        return function._read_bound

    def _edits_log(self, target: ast.expr, function: _Function) -> bool:
        if isinstance(target, ast.Subscript):
            return self._log_like(target.value, function)
        if isinstance(target, ast.Attribute):
            return self._log_like(target, function) or self._log_like(target.value, function)
        return False

    def _log_like(self, expr: ast.expr, function: _Function) -> bool:
        """An attribute/item chain that may be a decision log (`rules.evidence.is_decision_log`):
        it ends in a log name, or in an entries attribute of a log-named owner, of `self` in a
        log-named class or of a parameter; or it is a parameter, when one is annotated as a log."""
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
        if self._is_log_name(names[0]):
            return True
        if len(names) == 1:
            return self._has_log_params(function)
        if names[0].lstrip("_") not in LOG_ENTRY_ATTRIBUTES:
            return False
        owner = names[1]
        if owner == "self":
            return function.log_class
        return self._is_log_name(owner) or (len(names) == 2 and self._has_log_params(function))

    def _is_log_name(self, name: str) -> bool:
        parts = self._name_parts(name)
        return not self.log_starts.isdisjoint(parts) and _has_phrase(parts, self.log_phrases)

    def _has_log_params(self, function: _Function) -> bool:
        if function._log_params is None:
            assert function.node is not None
            args = function.node.args
            annotations = [a.annotation for a in (*args.posonlyargs, *args.args, *args.kwonlyargs) if a.annotation]
            words = [
                word
                for annotation in annotations
                for node in ast.walk(annotation)
                for word in (
                    [node.id] if isinstance(node, ast.Name) else [node.attr] if isinstance(node, ast.Attribute)
                    else re.findall(r"\w+", node.value) if isinstance(node, ast.Constant) and isinstance(node.value, str)
                    else []
                )
            ]
            function._log_params = any(self._is_log_name(w) for w in words)
        return function._log_params


_EXPRESSION_WORDS: dict[Vocabulary, re.Pattern[str]] = {}


def _expression_words(vocabulary: Vocabulary) -> re.Pattern[str]:
    """Lower-case words of expression-level shapes: cache, summarize, summary and decision-log
    words anywhere in a name; removing methods and content fields as whole attribute names."""
    found = _EXPRESSION_WORDS.get(vocabulary)
    if found is None:
        anywhere = {w.lower() for w in (*vocabulary.cache_words, *vocabulary.summarize_words, *vocabulary.summary_words)}
        anywhere |= {name_parts(n)[0] for n in vocabulary.decision_log_names if name_parts(n)}
        anywhere = {w for w in anywhere if not any(o != w and o in w for o in anywhere)}  # `cache` covers `cached`
        whole = {w.lower() for w in (*LOG_MUTATING_METHODS, *vocabulary.content_fields)}  # `.pop`, `.text`
        alternatives = [
            "|".join(map(re.escape, sorted(anywhere))),
            r"\.\s*(?:%s)\b" % "|".join(map(re.escape, sorted(whole))) if whole else "",
        ]
        found = _EXPRESSION_WORDS[vocabulary] = re.compile("|".join(a for a in alternatives if a) or "(?!)")
    return found


def _is_filter(value: ast.expr) -> bool:
    """A filtering rewrite: a comprehension, `filter(...)`, a slice (possibly in `list(...)`)."""
    if isinstance(value, ast.Call) and _callee_name(value) in _FILTER_WRAPPERS and value.args:
        value = value.args[0]
    if isinstance(value, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
        return True
    if isinstance(value, ast.Call) and _callee_name(value) == "filter":
        return True
    return isinstance(value, ast.Subscript) and _has_slice(value)


def _has_slice(node: ast.Subscript) -> bool:
    inner = node.slice
    return isinstance(inner, ast.Slice) or (isinstance(inner, ast.Tuple) and any(isinstance(e, ast.Slice) for e in inner.elts))


# --- definitions: the parts of a file LibCST may skip ---------------------------------------------

# Line breaks `str.splitlines` knows beyond Python's own: a file holding one is never cut (the line
# numbers of fix edits, which `str.splitlines` counts, would no longer match the parser's).
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE_BREAK_SPLIT = re.compile(r"(\r\n|\r|\n)")


def definition_spans(tree: ast.Module) -> tuple[tuple[int, int, int], ...]:
    """(first line, last line, column) of each function of the module and method of its classes, in
    source order; the first line is that of the first decorator."""
    spans = []
    for statement in tree.body:
        members = statement.body if isinstance(statement, ast.ClassDef) else [statement]
        for node in members:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
                spans.append((first, node.end_lineno or node.lineno, node.col_offset))
    return tuple(spans)


def definitions_holding(spans: tuple[tuple[int, int, int], ...], lines: Iterable[int]) -> frozenset[int]:
    """The indices of the spans (sorted, disjoint) that contain one of `lines`."""
    firsts = [first for first, _, _ in spans]
    found = set()
    for line in lines:
        index = bisect_right(firsts, line) - 1
        if index >= 0 and line <= spans[index][1]:
            found.add(index)
    return frozenset(found)


def cut_to_definitions(source: str, spans: tuple[tuple[int, int, int], ...], keep: frozenset[int]) -> str:
    """`source` with each definition not in `keep` replaced by `pass` on its first line and blank lines.

    Every other line is kept as it is, so the line and column of any node of a kept definition, and
    the statements outside definitions (imports, constants, class headers and fields), are the
    same in the cut source as in `source`.
    """
    if len(keep) == len(spans) or _OTHER_LINE_BREAKS.search(source):
        return source
    parts = _LINE_BREAK_SPLIT.split(source)  # line, break, line, break, ..., last line
    for index, (first, last, column) in enumerate(spans):
        if index in keep:
            continue
        line = parts[2 * (first - 1)]
        parts[2 * (first - 1)] = line[:column] + "pass"
        for number in range(first + 1, last + 1):
            parts[2 * (number - 1)] = ""
    return "".join(parts)
