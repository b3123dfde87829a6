"""`# noqa` and `# spanlint: ignore[...]` comments: where they are and what they suppress."""

from __future__ import annotations

import io
import re
import tokenize
from dataclasses import dataclass, field

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
