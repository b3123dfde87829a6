"""Baselines: record today's findings so that only new ones are reported.

A finding is recorded by its path (relative to the baseline file's directory), its rule code and its
fingerprint, a digest of the code it spans (never a line number), so code that moves stays
suppressed. Each fingerprint keeps a count: a new finding identical to a recorded one, elsewhere in
the same file, is reported once the recorded ones are used up. The file is JSON, sorted and stable.
"""

from __future__ import annotations

import json
import os
from collections import Counter
from dataclasses import replace
from pathlib import Path

from spanlint.diagnostics import Diagnostic

BASELINE_VERSION = 1

Key = tuple[str, str, str]


class BaselineError(Exception):
    """A baseline file that cannot be read; the message names it."""


def _key(diagnostic: Diagnostic, base: Path) -> Key:
    absolute = Path(os.path.abspath(diagnostic.path))
    try:
        relative = absolute.relative_to(base).as_posix()
    except ValueError:
        relative = absolute.as_posix()
    return (relative, diagnostic.code, replace(diagnostic, path=relative).fingerprint)


def _base(baseline: Path) -> Path:
    return Path(os.path.abspath(baseline)).parent


def write_baseline(baseline: Path, diagnostics: list[Diagnostic]) -> int:
    """Record `diagnostics` in `baseline`; return how many were recorded."""
    counts = Counter(_key(d, _base(baseline)) for d in diagnostics)
    findings = [
        {"path": path, "code": code, "fingerprint": fingerprint, "count": count}
        for (path, code, fingerprint), count in sorted(counts.items())
    ]
    document = {"version": BASELINE_VERSION, "findings": findings}
    baseline.parent.mkdir(parents=True, exist_ok=True)
    baseline.write_text(json.dumps(document, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    return len(diagnostics)


def read_baseline(baseline: Path) -> Counter[Key]:
    """The recorded findings of `baseline`, counted; raise `BaselineError` for a file that is not one."""
    try:
        document = json.loads(baseline.read_text(encoding="utf-8"))
        if document.get("version") != BASELINE_VERSION:
            raise ValueError(f"unsupported baseline version {document.get('version')!r}")
        return Counter(
            {(f["path"], f["code"], f["fingerprint"]): int(f["count"]) for f in document["findings"]}
        )
    except OSError as error:
        raise BaselineError(f"{baseline}: cannot read baseline: {error.strerror or error}") from None
    except (ValueError, TypeError, KeyError, AttributeError) as error:
        raise BaselineError(f"{baseline}: not a spanlint baseline: {error}") from None


def new_findings(baseline: Path, diagnostics: list[Diagnostic]) -> tuple[list[Diagnostic], int]:
    """The findings `baseline` does not record, and how many it suppressed."""
    remaining = read_baseline(baseline)
    base = _base(baseline)
    kept = []
    for diagnostic in diagnostics:
        key = _key(diagnostic, base)
        if remaining[key] > 0:
            remaining[key] -= 1
        else:
            kept.append(diagnostic)
    return kept, len(diagnostics) - len(kept)
