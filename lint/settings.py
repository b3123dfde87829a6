"""Effective settings of a lint run and the rule selection they imply."""

from __future__ import annotations

import fnmatch
import os
from dataclasses import dataclass, field
from functools import cached_property
from typing import TYPE_CHECKING, Literal, Mapping

from spanlint.rules import all_rules
from spanlint.rules.base import Rule
from runtime_guard.vocabulary import DEFAULT_VOCABULARY, Vocabulary

if TYPE_CHECKING:
    import pathspec

SeverityOverride = Literal["error", "warn", "off"]


class SelectorError(ValueError):
    """A selector names no rule."""


@dataclass(frozen=True)
class Settings:
    """Everything that decides which findings a file gets.

    `exclude` holds gitignore-style patterns and `per_file_ignores` keys are glob patterns, both
    matched against absolute paths (a pattern without a leading slash matches at any depth); the
    configuration loader anchors them at the directory of the file that sets them.
    `config_files` names the files these settings came from, nearest first.
    """

    select: tuple[str, ...] = ()
    extend_select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    exclude: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    severity: Mapping[str, SeverityOverride] = field(default_factory=dict)
    vocabulary: Vocabulary = DEFAULT_VOCABULARY
    # LibCST needs ~300 MB of memory per MB of source: the default keeps a worker near 300 MB.
    max_file_bytes: int = 1_000_000
    config_files: tuple[str, ...] = ()
    # The interpreter whose installed packages define the framework classes the code imports
    # (`rules.environment`); None: `$VIRTUAL_ENV`'s, else the one running spanlint.
    python: str | None = None

    def rules_for(self, path: str) -> tuple[type[Rule], ...]:
        """The rules that run on `path`, ordered by code."""
        chosen = resolve_selection(self.select, self.extend_select, self.ignore)
        absolute = _absolute(path)
        for pattern, selectors in self.per_file_ignores.items():
            if _path_matches(absolute, pattern):
                dropped = {r.code for s in selectors for r in resolve_selector(s)}
                chosen = tuple(r for r in chosen if r.code not in dropped)
        return tuple(r for r in chosen if self.severity_of(r) != "off")

    def severity_of(self, rule: type[Rule]) -> SeverityOverride:
        return self.severity.get(rule.code, rule.severity)

    def is_excluded(self, path: str, is_dir: bool = False) -> bool:
        """Whether `path` matches the `exclude` patterns."""
        if not self.exclude:
            return False
        relative = _absolute(path).lstrip("/")
        return self._exclude_spec.match_file(relative + "/" if is_dir else relative)

    @cached_property
    def _exclude_spec(self) -> pathspec.PathSpec:
        import pathspec  # here: most runs configure no `exclude`

        return pathspec.GitIgnoreSpec.from_lines(self.exclude)  # RE2 where installed: never backtracks

    def __getstate__(self) -> dict:
        """The fields without the compiled `exclude` patterns (RE2's cannot be pickled): a worker
        process compiles them again."""
        return {key: value for key, value in self.__dict__.items() if key != "_exclude_spec"}


def resolve_selector(selector: str) -> tuple[type[Rule], ...]:
    """Rules named by a code, a code prefix (`SPL1`), `ALL` or a kebab name; raises `SelectorError`."""
    wanted = selector.strip()
    upper = wanted.upper()
    matched = tuple(
        r for r in all_rules() if upper == "ALL" or r.code.startswith(upper) or r.name == wanted.lower()
    )
    if not matched:
        raise SelectorError(f"unknown rule selector: {selector!r}")
    return matched


def resolve_selection(
    select: tuple[str, ...], extend_select: tuple[str, ...], ignore: tuple[str, ...]
) -> tuple[type[Rule], ...]:
    """Default-enabled rules (or `select`), plus `extend_select`, minus `ignore`.

    The rule reporting files that could not be linted (SPL000) is always selected unless ignored.
    """
    if select:
        chosen = {r for s in select for r in resolve_selector(s)}
        chosen |= {r for r in all_rules() if r.file_pass == "unlintable"}
    else:
        chosen = {r for r in all_rules() if r.default_enabled}
    chosen |= {r for s in extend_select for r in resolve_selector(s)}
    chosen -= {r for s in ignore for r in resolve_selector(s)}
    return tuple(sorted(chosen, key=lambda r: r.code))


def _absolute(path: str) -> str:
    if path.startswith("<") or path == "-":
        return path
    return os.path.abspath(path).replace("\\", "/")


def _path_matches(path: str, pattern: str) -> bool:
    normalized = path.replace("\\", "/")
    return fnmatch.fnmatch(normalized, pattern) or fnmatch.fnmatch(normalized, f"*/{pattern}")
