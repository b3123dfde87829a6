"""Rule documentation pages (`docs/rules/SPLxxx.md`), generated from each rule's own metadata.

`python -m spanlint.docs` (or `spanlint docs --write docs/rules`) rewrites the pages; `--check` exits 1
when a page is out of date. The pages are committed: `tests/lint/test_docs.py` fails when they differ
from what the rules say.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from spanlint.rules import all_rules
from spanlint.rules.base import Rule

DOCS_DIR = Path(__file__).resolve().parent.parent / "docs" / "rules"
INDEX_NAME = "README.md"
_HEADER = "<!-- Generated from the rule's metadata by `python -m spanlint.docs`: do not edit. -->\n\n"


def rule_markdown(rule: type[Rule]) -> str:
    """A rule's documentation: title, summary, severity, fix, default, then its own `docs`."""
    fix = f"{rule.fix_applicability} fix available" if rule.fix_applicability else "no fix"
    enabled = "enabled by default" if rule.default_enabled else "off by default"
    return (
        f"# {rule.code} {rule.name}\n\n{rule.summary}.\n\n"
        f"Severity: {rule.severity}; {fix}; {enabled}.\n\n{rule.docs.strip()}\n"
    )


def pages() -> dict[str, str]:
    """Every documentation page by file name: one per rule and an index."""
    rules = all_rules()
    found = {f"{rule.code}.md": _HEADER + rule_markdown(rule) for rule in rules}
    rows = "".join(
        f"| [{r.code}]({r.code}.md) | {r.name} | {r.summary} | {r.severity} | {r.fix_applicability or '-'} |\n"
        for r in rules
    )
    found[INDEX_NAME] = (
        f"{_HEADER}# Rules\n\n| Code | Name | Summary | Severity | Fix |\n| --- | --- | --- | --- | --- |\n{rows}"
    )
    return found


def stale_pages(directory: Path) -> list[str]:
    """The pages in `directory` that are missing, out of date, or document no rule."""
    expected = pages()
    stale = [name for name, text in expected.items() if _read(directory / name) != text]
    stale += [p.name for p in sorted(directory.glob("SPL*.md")) if p.name not in expected]
    return sorted(stale)


def write_pages(directory: Path) -> list[str]:
    """Rewrite the pages in `directory` (removing pages of rules that no longer exist); return the changed names."""
    changed = stale_pages(directory)
    expected = pages()
    directory.mkdir(parents=True, exist_ok=True)
    for name in changed:
        if name in expected:
            (directory / name).write_text(expected[name], encoding="utf-8")
        else:
            (directory / name).unlink()
    return changed


def _read(path: Path) -> str | None:
    try:
        return path.read_text(encoding="utf-8")
    except OSError:
        return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m spanlint.docs", description=__doc__.splitlines()[0])
    parser.add_argument("directory", nargs="?", type=Path, default=DOCS_DIR)
    parser.add_argument("--check", action="store_true", help="exit 1 when a page is out of date; write nothing")
    args = parser.parse_args(argv)
    if args.check:
        stale = stale_pages(args.directory)
        for name in stale:
            print(f"{args.directory / name}: out of date (run `python -m spanlint.docs`)", file=sys.stderr)
        return 1 if stale else 0
    for name in write_pages(args.directory):
        print(f"wrote {args.directory / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
