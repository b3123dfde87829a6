"""The machinery of the rules' pre-filters: one stdlib-`ast` walk of a file runs them all.

A rule's pre-filter (a `Prefilter` subclass in the rule's own module, built from the names and
helpers the rule uses) decides whether the rule can have a finding in a file, and in which
functions and methods. The project pass (`rules.project.summarize_source`) parses every file with
the standard `ast` module; `scan_shapes` walks that tree once, calls every pre-filter's hooks and
returns, for each pre-filter's `shape`, the lines where it was found. A rule skips a file without
its shape (`Rule.may_match_summary`), so LibCST never parses it.

A pre-filter over-approximates its rule: it may let a file through that has no finding, never the
reverse (tests/rules/test_prefilters_are_sound.py runs every rule with and without its pre-filter).

The walk visits every statement; the expressions of a statement only when they span a line naming
one of the words some pre-filter needs (`Prefilter.words`, `Prefilter.attributes`), or when a
pre-filter asks for all of a function's expressions (`Prefilter.walks_whole`).
"""

from __future__ import annotations

import ast
import re
import unicodedata
from bisect import bisect_left, bisect_right
from collections import deque
from itertools import accumulate
from typing import Any, Callable, ClassVar, Iterable, Iterator

from runtime_guard.vocabulary import Vocabulary

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
ASSIGNMENTS = (ast.Assign, ast.AnnAssign, ast.AugAssign)
FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_BLOCK = (ast.stmt, ast.excepthandler, ast.match_case)
_LINE_BREAK = re.compile(r"\r\n?|\n")
_FILTER_WRAPPERS = frozenset({"list", "deque", "dict"})


class Scope:
    """A function being scanned (`node` None for the module), and what pre-filters noted about it."""

    def __init__(self, node: FunctionNode | None, owner: ast.ClassDef | None = None) -> None:
        self.node = node
        self.owner = owner  # the class of which it is a method
        self.notes: dict[str, Any] = {}  # each pre-filter's own facts, under keys it chooses


class Prefilter:
    """A rule's cheap test over the file's `ast` tree. A subclass sets `shape` and the node classes
    its hooks handle, and calls `self.mark(node)` where its rule may have a finding."""

    shape: ClassVar[str]
    # Shapes marked apart (`mark(node, shape)`) for the rule's `may_match_project` to judge; the
    # definitions holding any of `shapes()` are the ones LibCST parses for the rule.
    more_shapes: ClassVar[tuple[str, ...]] = ()
    statements: ClassVar[tuple[type[ast.AST], ...]] = ()  # `statement(node, scope)` is called for these
    expressions: ClassVar[tuple[type[ast.AST], ...]] = ()  # `expression(node, scope)` is called for these

    def __init__(self, scan: ShapeScan) -> None:
        self.scan = scan
        self.vocabulary = scan.vocabulary

    def may_apply(self) -> bool:
        """False when the file's text rules out every mark (it names none of the words a mark needs):
        the scan then skips this pre-filter."""
        return True

    def statement(self, node: ast.AST, scope: Scope) -> None:
        """One statement (or `except`/`case` block) of the file."""

    def expression(self, node: ast.AST, scope: Scope) -> None:
        """One expression node, on a line naming a word of some pre-filter."""

    def words(self) -> Iterable[str]:
        """Words (any case) whose presence anywhere in a name makes a line's expressions worth a look."""
        return ()

    def attributes(self) -> Iterable[str]:
        """Attribute names (`.pop`, `.text`) that make a line's expressions worth a look, read as
        attributes or as a mapping's string keys (`["text"]`)."""
        return ()

    def statements_done(self, scopes: list[Scope]) -> None:
        """Called after every statement, before any expression, with every function's scope."""

    def expressions_done(self, scopes: list[Scope]) -> None:
        """Called after every expression, with every function's scope."""

    def walks_whole(self, scope: Scope) -> bool:
        """True when every expression of the function needs a look, whatever its lines name."""
        return False

    @classmethod
    def shapes(cls) -> tuple[str, ...]:
        return (cls.shape, *cls.more_shapes)

    def mark(self, node: ast.AST, shape: str | None = None) -> None:
        """The rule may have a finding on `node`'s line (as `shape`, one of `more_shapes`, when given)."""
        self.scan.found.setdefault(shape or self.shape, []).append(node.lineno)

    def parts(self, name: str) -> list[str]:
        """`rules.names.name_parts(name)`, computed once per file."""
        return self.scan.parts(name)


class ShapeScan:
    """One walk of one file's tree for every pre-filter."""

    def __init__(self, source: str, vocabulary: Vocabulary, prefilters: Iterable[type[Prefilter]]) -> None:
        from spanlint.rules.names import name_parts

        self.source = source
        self.vocabulary = vocabulary
        self.found: dict[str, list[int]] = {}
        self._name_parts = name_parts
        self._parts: dict[str, list[str]] = {}
        self._lowered: str | None = None
        self.prefilters = [p for p in (prefilter(self) for prefilter in prefilters) if p.may_apply()]
        self._statement_hooks = _hooks(self.prefilters, "statements", "statement")
        self._expression_hooks = _hooks(self.prefilters, "expressions", "expression")
        self.extra_words: set[str] = set()  # whole words pre-filters add while scanning (aliases)

    @property
    def lowered(self) -> str:
        """The source lower-cased, identifiers normalized as the parser does (NFKC)."""
        if self._lowered is None:
            text = self.source if self.source.isascii() else unicodedata.normalize("NFKC", self.source)
            self._lowered = text.lower()
        return self._lowered

    def parts(self, name: str) -> list[str]:
        found = self._parts.get(name)
        if found is None:
            found = self._parts[name] = self._name_parts(name)
        return found

    def scan(self, tree: ast.Module) -> dict[str, list[int]]:
        """The lines of each shape the pre-filters mark in `tree`. A scan is used once."""
        try:
            return self._scan(tree)
        finally:
            # The hooks are bound methods of pre-filters, which point back at this scan: without this,
            # the cycle keeps the file's tree alive until the next full garbage collection.
            self._statement_hooks = self._expression_hooks = {}
            self.prefilters = []

    def _scan(self, tree: ast.Module) -> dict[str, list[int]]:
        statements: list[tuple[ast.AST, Scope]] = []
        scopes: list[Scope] = []
        owners: dict[int, ast.ClassDef] = {}
        hooks = self._statement_hooks
        pending: list[tuple[ast.AST, Scope]] = [(tree, Scope(None))]
        while pending:
            node, scope = pending.pop()
            if node is not tree:
                statements.append((node, scope))
                for hook in hooks.get(type(node), ()):
                    hook(node, scope)
            inner = scope
            if isinstance(node, FUNCTIONS):
                inner = Scope(node, owners.get(id(node)))
                scopes.append(inner)
            elif isinstance(node, ast.ClassDef):
                owners.update((id(item), node) for item in node.body)
            fields = _BLOCK_FIELDS.get(type(node))
            for name in fields if fields is not None else block_fields(type(node)):
                pending.extend((item, inner) for item in getattr(node, name))
        for prefilter in self.prefilters:
            prefilter.statements_done(scopes)
        if not self._expression_hooks:
            return self.found
        lines = self._word_lines()
        whole = {id(s) for s in scopes if any(p.walks_whole(s) for p in self.prefilters)}
        if lines or whole:
            for node, scope in statements:
                if id(scope) in whole:
                    self._expressions(node, scope, None)
                    continue
                first = node.lineno if not isinstance(node, ast.match_case) else node.pattern.lineno
                first = min([first, *(d.lineno for d in getattr(node, "decorator_list", ()))])
                index = bisect_left(lines, first)
                if index < len(lines) and lines[index] <= (getattr(node, "end_lineno", None) or node.body[-1].end_lineno):
                    self._expressions(node, scope, lines)
        for prefilter in self.prefilters:
            prefilter.expressions_done(scopes)
        return self.found

    def _word_lines(self) -> list[int]:
        """Sorted line numbers naming a word some pre-filter's expressions need.

        The search runs on the lower-cased text (lower-casing keeps the line breaks), so it finds a
        superset of the lines naming a word in any case.
        """
        patterns = [_words_pattern(self.vocabulary, tuple(type(p) for p in self.prefilters), self.prefilters)]
        if self.extra_words:
            words = alternation((w.lower() for w in self.extra_words), whole_word_start=True)
            patterns.append(re.compile(r"(?:%s)\b" % words))
        return match_lines(self.lowered, *patterns)

    def _expressions(self, statement: ast.AST, scope: Scope, lines: list[int] | None) -> None:
        """Walk the expressions of `statement` (not its nested blocks) that span one of `lines` (all
        of them when `lines` is None)."""
        parts = statement_parts(statement)
        while parts:
            part = parts.pop()
            first = getattr(part, "lineno", None)
            if first is None:  # arguments, withitem, operators: look at their children
                _push_children(part, parts.append)
                continue
            if lines is None:
                self._walk(part, scope)
                continue
            index = bisect_left(lines, first)
            if index < len(lines) and lines[index] <= (part.end_lineno or first):
                self._walk(part, scope)

    def _walk(self, expression: ast.AST, scope: Scope) -> None:
        hooks = self._expression_hooks
        pending = [expression]
        while pending:
            node = pending.pop()
            for hook in hooks.get(type(node), ()):
                hook(node, scope)
            _push_children(node, pending.append)


def _hooks(prefilters: list[Prefilter], classes: str, method: str) -> dict[type, list[Callable[[Any, Scope], None]]]:
    found: dict[type, list[Callable[[Any, Scope], None]]] = {}
    for prefilter in prefilters:
        for kind in getattr(prefilter, classes):
            found.setdefault(kind, []).append(getattr(prefilter, method))
    return found


_WORDS: dict[tuple[Vocabulary, tuple[type[Prefilter], ...]], re.Pattern[str]] = {}


def _words_pattern(vocabulary: Vocabulary, kinds: tuple[type[Prefilter], ...], prefilters: list[Prefilter]) -> re.Pattern[str]:
    """Lower-case words the pre-filters' expressions need: their `words` anywhere in a name, their
    `attributes` as whole attribute names or string keys."""
    found = _WORDS.get((vocabulary, kinds))
    if found is None:
        anywhere = {w.lower() for p in prefilters for w in p.words()}
        anywhere = {w for w in anywhere if not any(o != w and o in w for o in anywhere)}  # `cache` covers `cached`
        whole = {w.lower() for p in prefilters for w in p.attributes()}
        alternatives = [
            alternation(anywhere) if anywhere else "",
            r"\.\s*(?:%s)\b" % alternation(whole) if whole else "",
            r"\[\s*[\"'](?:%s)[\"']" % alternation(whole) if whole else "",
        ]
        found = _WORDS[(vocabulary, kinds)] = re.compile("|".join(a for a in alternatives if a) or "(?!)")
    return found


def scan_shapes(tree: ast.Module, source: str, vocabulary: Vocabulary) -> dict[str, list[int]]:
    """For each shape of the registered rules' pre-filters that `tree` holds, the lines it is on."""
    from spanlint.rules import all_prefilters

    return ShapeScan(source, vocabulary, all_prefilters()).scan(tree)


# --- helpers for pre-filters --------------------------------------------------------------------

def match_lines(source: str, *patterns: re.Pattern[str]) -> list[int]:
    """The lines (sorted) on which a match of one of `patterns` starts.

    After a match, the search goes on at the next line: a line is reported once, however many
    matches it holds. The parser NFKC-normalizes identifiers, so non-ASCII source is normalized
    first (which keeps its line breaks).
    """
    text = source if source.isascii() else unicodedata.normalize("NFKC", source)
    starts: list[int] = []
    for pattern in patterns:
        match = pattern.search(text)
        while match is not None:
            starts.append(match.start())
            line_end = _LINE_BREAK.search(text, match.start())
            match = pattern.search(text, line_end.end()) if line_end is not None else None
    if not starts:
        return []
    if "\r" not in text:  # count the line feeds before each start, in one pass over the text
        starts.sort()
        lines, line, previous = [], 1, 0
        for start in starts:
            line += text.count("\n", previous, start)
            previous = start
            if not lines or lines[-1] != line:
                lines.append(line)
        return lines
    starts_of_lines = line_offsets(text)
    return sorted({bisect_right(starts_of_lines, offset) for offset in starts})


def line_offsets(text: str | bytes) -> list[int]:
    """The offset in `text` at which each of the parser's lines starts (a line ends at `\\r\\n`, `\\r` or
    `\\n`, not at the other breaks of `str.splitlines`); bytes give byte offsets."""
    if isinstance(text, bytes):
        if b"\r" in text:
            return [0, *(match.end() for match in _BYTES_LINE_BREAK.finditer(text))]
        return [0, *accumulate(map(_PLUS_ONE, map(len, text.split(b"\n")[:-1])))]
    if "\r" in text:
        return [0, *(match.end() for match in _LINE_BREAK.finditer(text))]
    return [0, *accumulate(map(_PLUS_ONE, map(len, text.split("\n")[:-1])))]


_BYTES_LINE_BREAK = re.compile(rb"\r\n?|\n")
_PLUS_ONE = (1).__add__


def alternation(words: Iterable[str], whole_word_start: bool = False) -> str:
    r"""A regular expression matching any of `words`, as a tree of their common prefixes
    (`c(?:ache|ull)`): the search tries each branch of a position's first character only. Wrap it
    in a group to follow it with a quantifier.

    With `whole_word_start`, a match must not follow a word character (`(?<!\w)` before the
    words): each branch checks it after its first character (`c(?<!\wc)ache`), so the pattern still
    starts with a literal, which the search skips to (a leading look-behind makes it try every
    position: ~2x slower on source text).
    """
    tree: dict[str, dict] = {}
    for word in words:
        node = tree
        for character in word:
            node = node.setdefault(character, {})
        node[""] = {}
    return _branches(tree, whole_word_start) or "(?!)"


def _branches(node: dict[str, dict], whole_word_start: bool = False) -> str:
    """`alternation`'s pattern of a prefix tree (a module function: a recursive closure would be a
    reference cycle, kept until a garbage collection, on every call). `whole_word_start` applies to the
    top level only."""
    options = [
        re.escape(character) + (rf"(?<!\w{re.escape(character)})" if whole_word_start else "")
        + _branches(node[character])
        for character in sorted(node) if character
    ]
    if not options:
        return ""
    if len(options) == 1 and "" not in node:
        return options[0]
    group = options[0] if len(options) == 1 and len(options[0]) == 1 else "(?:" + "|".join(options) + ")"
    return group + "?" if "" in node else group


def spans_line(node: ast.stmt, lines: list[int]) -> bool:
    """Some line of the statement `node` (its decorators included) is in `lines` (sorted)."""
    if not lines:
        return False
    first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", ()))])
    index = bisect_left(lines, first)
    return index < len(lines) and lines[index] <= (node.end_lineno or node.lineno)


def own_nodes(function: FunctionNode) -> Iterator[ast.AST]:
    """The nodes of `function`'s body, not of the functions, classes and lambdas nested in it (nor
    the expression contexts, as `walk`)."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        _push_children(node, pending.append)


def walk(node: ast.AST) -> Iterator[ast.AST]:
    """`ast.walk(node)` (breadth first, the same order) without the expression contexts (`Load`,
    `Store`, `Del`), which no pre-filter or summary looks at: about a third of the nodes, and the
    walk is about twice as fast."""
    pending = deque([node])
    push = pending.append
    while pending:
        node = pending.popleft()
        _push_children(node, push)
        yield node


def child_nodes(node: ast.AST) -> list[ast.AST]:
    """`ast.iter_child_nodes(node)` (in order) without the expression contexts, as a list."""
    found: list[ast.AST] = []
    _push_children(node, found.append)
    return found


_CHILD_FIELDS: dict[type, tuple[str, ...]] = {}


def _push_children(node: ast.AST, push: Callable[[ast.AST], object]) -> None:
    """Call `push` on each child node of `node`, in field order, expression contexts left out."""
    kind = type(node)
    fields = _CHILD_FIELDS.get(kind)
    if fields is None:
        fields = _CHILD_FIELDS[kind] = tuple(name for name in kind._fields if name != "ctx")
    for name in fields:
        value = getattr(node, name, None)
        if isinstance(value, ast.AST):
            push(value)
        elif isinstance(value, list):
            for item in value:
                if isinstance(item, ast.AST):
                    push(item)


def own_statements(function: FunctionNode) -> Iterator[ast.AST]:
    """The statements (and `except`/`case` blocks) of `function`'s body, not of the functions and
    classes nested in it: `own_nodes` without the expressions."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, _SCOPES):
            continue
        yield node
        fields = _BLOCK_FIELDS.get(type(node))
        for name in fields if fields is not None else block_fields(type(node)):
            pending.extend(getattr(node, name))


# The fields in which statements hold their blocks (statements, `except` and `case` blocks).
_BLOCK_LIST_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_BLOCK_FIELDS: dict[type, tuple[str, ...]] = {}


def statement_parts(statement: ast.AST) -> list[ast.AST]:
    """The child nodes of a statement (or `except`/`case` block) that are not its blocks: its
    expressions, `arguments`, `withitem`s..., in field order."""
    parts: list[ast.AST] = []
    for name in statement._fields:
        value = getattr(statement, name)
        for child in value if isinstance(value, list) else (value,):
            if isinstance(child, ast.AST) and not isinstance(child, _BLOCK):
                parts.append(child)
    return parts


def block_fields(kind: type) -> tuple[str, ...]:
    """The fields of the statement (or module, `except`, `case`) class `kind` that hold its blocks,
    in field order."""
    found = _BLOCK_FIELDS.get(kind)
    if found is None:
        found = _BLOCK_FIELDS[kind] = tuple(name for name in kind._fields if name in _BLOCK_LIST_FIELDS)
    return found


def last_name(node: ast.expr) -> str:
    """`c` for `a.b.c`, `c`, `c(...)` or `a.c(...)`; "" for other shapes."""
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def last_dotted_part(node: ast.expr) -> str | None:
    """`c` for `a.b.c` or `c` (a chain of names only), else None."""
    base = node
    while isinstance(base, ast.Attribute):
        base = base.value
    if not isinstance(base, ast.Name):
        return None
    return node.attr if isinstance(node, ast.Attribute) else node.id


def has_phrase(parts: list[str], phrases: tuple[tuple[str, ...], ...]) -> bool:
    """One of `phrases` (word-part tuples) appears as consecutive parts of `parts`."""
    for phrase in phrases:
        size = len(phrase)
        if any(tuple(parts[i : i + size]) == phrase for i in range(len(parts) - size + 1)):
            return True
    return False


def assignment_targets(node: ast.Assign | ast.AnnAssign | ast.AugAssign) -> list[ast.expr]:
    return node.targets if isinstance(node, ast.Assign) else [node.target]


def deleted(node: ast.Delete) -> list[ast.expr]:
    """The targets of `del`, tuples and lists unpacked one level."""
    return [e for t in node.targets for e in (t.elts if isinstance(t, (ast.Tuple, ast.List)) else [t])]


def is_filter(value: ast.expr) -> bool:
    """A filtering rewrite: a comprehension, `filter(...)`, a slice (possibly in `list(...)`)."""
    if isinstance(value, ast.Call) and last_name(value) in _FILTER_WRAPPERS and value.args:
        value = value.args[0]
    if isinstance(value, (ast.ListComp, ast.DictComp, ast.SetComp, ast.GeneratorExp)):
        return True
    if isinstance(value, ast.Call) and last_name(value) == "filter":
        return True
    return isinstance(value, ast.Subscript) and has_slice(value)


def has_slice(node: ast.Subscript) -> bool:
    inner = node.slice
    return isinstance(inner, ast.Slice) or (isinstance(inner, ast.Tuple) and any(isinstance(e, ast.Slice) for e in inner.elts))


# --- definitions: the parts of a file LibCST may skip ---------------------------------------------

# Line breaks `str.splitlines` knows beyond Python's own: a file holding one is never cut (the line
# numbers of fix edits, which `str.splitlines` counts, would no longer match the parser's).
_OTHER_LINE_BREAKS = re.compile("[\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029]")
_LINE_BREAK_SPLIT = re.compile(r"(\r\n|\r|\n)")


def definition_nodes(tree: ast.Module) -> Iterator[FunctionNode]:
    """Each function of the module and method of its classes, in source order."""
    for statement in tree.body:
        members = statement.body if isinstance(statement, ast.ClassDef) else [statement]
        for node in members:
            if isinstance(node, FUNCTIONS):
                yield node


def definition_spans(tree: ast.Module) -> tuple[tuple[int, int, int], ...]:
    """(first line, last line, column) of each of `definition_nodes`; the first line is that of the
    first decorator."""
    return tuple(
        (min([node.lineno, *(d.lineno for d in node.decorator_list)]), node.end_lineno or node.lineno, node.col_offset)
        for node in definition_nodes(tree)
    )


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
