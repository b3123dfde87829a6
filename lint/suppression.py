"""`# noqa` and `# spanlint: ignore[...]` comments: where they are and what they suppress."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field
from typing import Callable

from spanlint.diagnostics import Diagnostic

_NOQA = re.compile(r"#\s*noqa(?::\s*(?P<codes>[\w\-]+(?:\s*,\s*[\w\-]+)*))?", re.IGNORECASE)
_IGNORE = re.compile(r"#\s*spanlint:\s*ignore(?:\[(?P<codes>[^\]]*)\])?", re.IGNORECASE)


@dataclass
class Suppression:
    """One suppression comment. `selectors` is empty for a bare one (suppresses everything)."""

    line: int
    column: int
    end_column: int
    own_line: bool
    selectors: tuple[str, ...]
    text: str
    used: set[str] = field(default_factory=set)

    @property
    def is_noqa(self) -> bool:
        return self.text.lstrip("#").lstrip().lower().startswith("noqa")

    @property
    def applies_to_line(self) -> int:
        """A comment alone on its line covers the next line; a trailing one covers its own."""
        return self.line + 1 if self.own_line else self.line


def find_suppressions(source: str) -> list[Suppression]:
    """Every suppression comment in `source` (comments only, never text inside strings)."""
    if "noqa" not in source.lower() and "spanlint:" not in source.lower():
        return []
    found: list[Suppression] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return []
    lines = source.splitlines()
    for token in tokens:
        if token.type != tokenize.COMMENT:
            continue
        match = _IGNORE.search(token.string) or _NOQA.search(token.string)
        if match is None:
            continue
        line, column = token.start
        codes = match.group("codes") or ""
        selectors = tuple(c.strip() for c in codes.split(",") if c.strip())
        before = lines[line - 1][:column] if line - 1 < len(lines) else ""
        found.append(
            Suppression(
                line=line,
                column=column + 1 + match.start(),
                end_column=column + 1 + match.end(),
                own_line=not before.strip(),
                selectors=selectors,
                text=match.group(0),
            )
        )
    return found


_OUR_CODE = re.compile(r"^SPL\d{3}$", re.IGNORECASE)


@dataclass(frozen=True)
class UnusedSuppression:
    """What is wrong with one of spanlint's suppressions, and the comment text that fixes it."""

    suppression: Suppression
    unused: tuple[str, ...]
    unknown: tuple[str, ...]
    replacement: str  # the directive that should stand instead; "" to remove it

    @property
    def message(self) -> str:
        parts = []
        if self.unused:
            parts.append("unused: " + ", ".join(f"`{s}`" for s in self.unused))
        if self.unknown:
            parts.append("unknown: " + ", ".join(f"`{s}`" for s in self.unknown))
        if not parts:
            return "Unused blanket `# spanlint: ignore`"
        return f"Unused suppression ({'; '.join(parts)})"


def unused_suppressions(
    suppressions: list[Suppression], find_code: Callable[[str], str | None], enabled: set[str]
) -> list[UnusedSuppression]:
    """spanlint's own suppressions that suppressed nothing or name no rule.

    `# spanlint: ignore` comments are ours; of `# noqa` comments only the SPL codes and rule names
    in them are (a bare `# noqa` and other tools' codes are left alone). `find_code` maps a selector
    to a rule code, None when it names no rule. A code counts as unused only if its rule is in
    `enabled` (it ran on the file): a suppression for a rule switched off here is left alone.
    """
    found = []
    for suppression in suppressions:
        if suppression.is_noqa:
            ours = [s for s in suppression.selectors if _OUR_CODE.match(s) or find_code(s)]
        else:
            ours = list(suppression.selectors)
        if suppression.is_noqa and not ours:
            continue
        if not ours:  # a blanket `# spanlint: ignore`
            if not suppression.used:
                found.append(UnusedSuppression(suppression, (), (), ""))
            continue
        unknown = tuple(s for s in ours if find_code(s) is None)
        unused = tuple(
            s for s in ours
            if s not in unknown and find_code(s) in enabled and find_code(s) not in suppression.used
        )
        if not unknown and not unused:
            continue
        kept = [s for s in suppression.selectors if s not in unknown and s not in unused]
        found.append(UnusedSuppression(suppression, unused, unknown, _directive(suppression, kept)))
    return found


def _directive(suppression: Suppression, selectors: list[str]) -> str:
    if not selectors:
        return ""
    if suppression.is_noqa:
        return "# noqa: " + ", ".join(selectors)
    return "# spanlint: ignore[" + ", ".join(selectors) + "]"


def apply_suppressions(suppressions: list[Suppression], diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    """The diagnostics no suppression covers; marks each suppression with the codes it suppressed."""
    if not diagnostics or not suppressions:
        return diagnostics
    by_line: dict[int, list[Suppression]] = {}
    for suppression in suppressions:
        by_line.setdefault(suppression.applies_to_line, []).append(suppression)
    kept = []
    for diagnostic in diagnostics:
        covering = by_line.get(diagnostic.location.line, [])
        matched = next((s for s in covering if _suppresses(s.selectors, diagnostic)), None)
        if matched is None:
            kept.append(diagnostic)
        else:
            matched.used.add(diagnostic.code)
    return kept


def _suppresses(selectors: tuple[str, ...], diagnostic: Diagnostic) -> bool:
    return not selectors or any(s.upper() == diagnostic.code or s.lower() == diagnostic.name for s in selectors)
