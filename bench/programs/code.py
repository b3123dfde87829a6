"""Lines of generated code that carry tags, and the program they end up in.

A tag marks a line whose number a label needs (the statement a finding must be reported on); the
line numbers are known only once the file is assembled, so code is built as `Line`s and numbered
at the end.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Line:
    indent: int
    text: str
    tag: str | None = None


Code = list[Line]


def line(text: str, tag: str | None = None) -> Code:
    return [Line(0, text, tag)]


def lines(*texts: str, tag: str | None = None) -> Code:
    return [Line(0, t, tag) for t in texts]


def block(header: str, body: Code, tag: str | None = None) -> Code:
    """`header:` with `body` indented under it (`pass` when empty)."""
    return [Line(0, header, tag)] + indent(body or line("pass"))


def indent(code: Code, by: int = 1) -> Code:
    return [Line(c.indent + by, c.text, c.tag) for c in code]


HIT = "hit"  # the tag of the lines a finding must be reported on


def retag(code: Code, tag: str | None) -> Code:
    """The same code with the HIT lines tagged `tag` instead (None: untagged); other tags stay."""
    return [Line(c.indent, c.text, tag if c.tag == HIT else c.tag) for c in code]


@dataclass(frozen=True)
class Label:
    """A finding the hazard calls for: `code` reported in `path` on a line in `start..end`."""

    code: str
    path: str
    start: int
    end: int


@dataclass
class Program:
    """A small generated project: its files, the findings its hazards call for, and where each
    dimension of the product put it."""

    name: str
    files: dict[str, str]
    labels: list[Label]
    dims: dict[str, str]
    dont_care: list[Label] = field(default_factory=list)  # lines where any finding is neither right nor wrong


def render(code: Code) -> tuple[str, dict[str, tuple[int, int]]]:
    """The file text of `code` and, for each tag, the first and last line it marks."""
    out: list[str] = []
    where: dict[str, tuple[int, int]] = {}
    for number, c in enumerate(code, start=1):
        out.append("    " * c.indent + c.text if c.text else "")
        if c.tag:
            first, _ = where.get(c.tag, (number, number))
            where[c.tag] = (first, number)
    return "\n".join(out) + "\n", where
