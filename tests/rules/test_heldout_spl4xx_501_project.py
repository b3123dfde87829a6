"""Held-out SPL401/SPL501 cases whose check or record helper lives in another module of the linted tree."""

from __future__ import annotations

from spanlint import Settings, check_source
from spanlint.rules.project import ProjectIndex, summarize_source
from runtime_guard.vocabulary import DEFAULT_VOCABULARY

HELPERS = '''
class StaleArtifact(Exception):
    pass


def ensure_fresh(artifact, span):
    if artifact.version != span.version or artifact.content_hash != span.content_hash:
        raise StaleArtifact(span.id)


def within_bounds(artifact, span):
    return 0 <= artifact.start <= artifact.end <= len(span.content)


def note_prune(decision_log, span, reason):
    decision_log.append({"op": "prune", "span": span.id, "reason": reason})
'''

CONSUMERS = '''
from helpers import ensure_fresh, within_bounds, note_prune


def cite_checked(span, citation):
    ensure_fresh(citation, span)
    return span.content[citation.start:citation.end]


def cite_bounds_only(span, citation):
    if not within_bounds(citation, span):
        return ""
    return span.content[citation.start:citation.end]


def prune_noted(ctx, index, reason):
    note_prune(ctx.decision_log, ctx.spans[index], reason)
    del ctx.spans[index]


def prune_unnoted(ctx, index):
    del ctx.spans[index]
'''

CODES = ("SPL401", "SPL501")


def _findings(project: ProjectIndex | None) -> set[tuple[int, str]]:
    found = check_source(CONSUMERS, "consumers.py", Settings(select=CODES), project=project)
    return {(d.location.line, d.code) for d in found}


def _project() -> ProjectIndex:
    summaries = [
        summarize_source(src, DEFAULT_VOCABULARY, path)
        for src, path in ((HELPERS, "helpers.py"), (CONSUMERS, "consumers.py"))
    ]
    return ProjectIndex.merge(DEFAULT_VOCABULARY, summaries)


def test_helpers_from_another_module() -> None:
    assert _findings(_project()) == {
        (13, "SPL501"),  # the bounds helper compares no version or hash
        (22, "SPL401"),  # nothing recorded before the removal
    }
