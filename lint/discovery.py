"""Which files a run lints: walk directories, honour `.gitignore` files and `exclude` patterns.

A file named on the command line is linted even when excluded, unless `force_exclude` is set (as in
ruff). Directories are walked depth-first; a directory that is ignored or excluded is not entered,
and a FIFO, socket or device named `*.py` found by walking is skipped.

`.gitignore` patterns are matched with RE2 (pathspec's `re2` backend), which never backtracks:
`*a*a*a*a*b` costs the same as `*.pyc` on any name. Without RE2 (`google-re2` not installed),
Python's regular expressions backtrack, exponentially in the number of `*` of a path segment, and a
pattern with more than `MAX_STARS_WITHOUT_RE2` in one segment is skipped with a warning.
"""

from __future__ import annotations

import os
import re
import stat
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterable, Iterator

from spanlint.config import YAML_NAME, ConfigError, load_config_file
from spanlint.settings import Settings

if TYPE_CHECKING:
    import pathspec

PYTHON_SUFFIXES = (".py", ".pyi")
# Never linted when found by walking a directory: version control, environments, caches, builds.
DEFAULT_EXCLUDE = (
    ".git", ".hg", ".svn", ".bzr", ".venv", "venv", ".tox", ".nox", ".eggs", "__pycache__", "__pypackages__",
    "node_modules", "site-packages", ".mypy_cache", ".pytest_cache", ".ruff_cache", ".spanlint_cache",
    "build", "dist", ".ci-venv",
)
PROJECT_MARKERS = (".git", "pyproject.toml")
# Without RE2, the most `*` one path segment of a `.gitignore` pattern may have (3 cost seconds per
# name of 255 characters).
MAX_STARS_WITHOUT_RE2 = 2
_SEGMENT_STARS = re.compile(r"[^/]*")


@dataclass(frozen=True)
class _Ignore:
    """The patterns of one `.gitignore`, relative to its directory."""

    directory: Path
    spec: pathspec.PathSpec

    def verdict(self, path: Path, is_dir: bool) -> bool | None:
        """True: ignored; False: re-included by a negation; None: no pattern matched."""
        relative = path.relative_to(self.directory).as_posix() + ("/" if is_dir else "")
        return self.spec.check_file(relative).include


class GitIgnore:
    """The `.gitignore` files that apply below a directory: nested files, negations, deeper wins."""

    def __init__(self, warnings: list[str] | None = None) -> None:
        self._warnings = warnings if warnings is not None else []
        self._cache: dict[Path, _Ignore | None] = {}
        self._roots: dict[Path, Path | None] = {}
        self._chains: dict[Path, tuple[_Ignore, ...]] = {}

    def _load(self, directory: Path) -> _Ignore | None:
        if directory not in self._cache:
            file = directory / ".gitignore"
            ignore = None
            if file.is_file():
                try:
                    lines = file.read_text(encoding="utf-8", errors="replace").splitlines()
                except OSError:
                    lines = []
                ignore = _Ignore(directory, self._spec(file, lines))
            self._cache[directory] = ignore
        return self._cache[directory]

    def _spec(self, file: Path, lines: list[str]) -> pathspec.GitIgnoreSpec:
        import pathspec  # here: a run over a tree without `.gitignore` files never needs it (~15 ms)

        if _has_re2():
            return pathspec.GitIgnoreSpec.from_lines(lines, backend="re2")
        kept = []
        for number, line in enumerate(lines, 1):
            stars = max(segment.count("*") for segment in _SEGMENT_STARS.findall(line.replace("**", "")))
            if stars > MAX_STARS_WITHOUT_RE2:
                self._warnings.append(
                    f"{file}:{number}: pattern {line.strip()[:80]!r} skipped: over {MAX_STARS_WITHOUT_RE2} `*` in one "
                    "path segment could take exponential time to match (install google-re2 to use it)"
                )
            else:
                kept.append(line)
        return pathspec.GitIgnoreSpec.from_lines(kept, backend="simple")

    def _repository_root(self, directory: Path) -> Path | None:
        """The nearest directory at or above `directory` holding `.git`, if any."""
        if directory not in self._roots:
            if (directory / ".git").exists():
                self._roots[directory] = directory
            else:
                parent = directory.parent
                self._roots[directory] = None if parent == directory else self._repository_root(parent)
        return self._roots[directory]

    def applying(self, directory: Path) -> tuple[_Ignore, ...]:
        """The `.gitignore` files that apply in `directory`, nearest first: those of it and its
        ancestors up to the git repository root; outside a repository, its own only."""
        if directory not in self._chains:
            own = self._load(directory)
            root = self._repository_root(directory)
            above = self.applying(directory.parent) if root is not None and root != directory else ()
            self._chains[directory] = ((own,) if own is not None else ()) + above
        return self._chains[directory]


def _ignored(path: Path, is_dir: bool, ignores: tuple[_Ignore, ...]) -> bool:
    """Whether git would ignore `path` by `ignores`, the `.gitignore` files that apply in its directory."""
    for ignore in ignores:
        verdict = ignore.verdict(path, is_dir)
        if verdict is not None:
            return verdict
    return False


@lru_cache(maxsize=1)
def _has_re2() -> bool:
    try:
        import re2  # noqa: F401
    except ImportError:
        return False
    return True


def discover(
    paths: Iterable[Path],
    settings_for: Callable[[Path], Settings],
    *,
    force_exclude: bool = False,
    warnings: list[str] | None = None,
    skip_invalid_config: bool = False,
) -> list[Path]:
    """The Python files to lint under `paths`, absolute, each once, sorted; `warnings` receives a
    line about each `.gitignore` pattern skipped. With `skip_invalid_config` (the walk that only
    gathers the project's other files), a directory below a named one whose configuration is invalid
    is left out with a warning instead of stopping the run."""
    gitignore = GitIgnore(warnings)
    found: set[Path] = set()
    if skip_invalid_config:
        settings_for = _tolerant(settings_for, warnings if warnings is not None else [])
    for given in paths:
        path = Path(os.path.abspath(given))
        if path.is_dir():
            found.update(_walk(path, settings_for, gitignore))
        elif not force_exclude or not _skipped(
            path, False, settings_for(path), gitignore.applying(path.parent), default_excludes=False
        ):
            found.add(path)
    return sorted(found, key=lambda path: path.parts)  # the order of `sorted(found)`, 3 times faster


def _tolerant(settings_for: Callable[[Path], Settings], warnings: list[str]) -> Callable[[Path], Settings]:
    """`settings_for`, except that a path whose configuration is invalid gets settings excluding it."""
    skip = Settings(exclude=("*",))

    def settings(path: Path) -> Settings:
        try:
            return settings_for(path)
        except ConfigError as error:
            warnings.append(f"{path}: left out of the project index: {error}")
            return skip

    return settings


def is_force_excluded(path: Path, settings_for: Callable[[Path], Settings]) -> bool:
    """Whether `--force-exclude` drops an explicitly named file (or stdin's `--stdin-filename`)."""
    absolute = Path(os.path.abspath(path))
    return _skipped(
        absolute, False, settings_for(absolute), GitIgnore().applying(absolute.parent), default_excludes=False
    )


def _skipped(path: Path, is_dir: bool, settings: Settings, ignores: tuple[_Ignore, ...], default_excludes: bool) -> bool:
    """Whether walking skips `path`, by `settings` (those of `path` itself) and `ignores` (the
    `.gitignore` files that apply in its directory)."""
    if default_excludes and path.name in DEFAULT_EXCLUDE:
        return True
    if settings.is_excluded(str(path), is_dir):
        return True
    return _ignored(path, is_dir, ignores)


def _walk(root: Path, settings_for: Callable[[Path], Settings], gitignore: GitIgnore) -> Iterator[Path]:
    """The Python files below `root` that are neither excluded nor ignored (in no particular order).
    Symbolic links to directories are not followed."""
    directories = [root]
    while directories:
        here = directories.pop()
        try:
            entries = list(os.scandir(here))
        except OSError:
            continue  # unreadable: skipped, as os.walk does
        settings = settings_for(here)  # a file's settings are its directory's
        ignores = gitignore.applying(here)
        for entry in entries:
            if entry.is_dir(follow_symlinks=False):
                path = here / entry.name
                if not _skipped(path, True, settings_for(path), ignores, True):
                    directories.append(path)
            elif entry.name.endswith(PYTHON_SUFFIXES) and _may_be_source(entry):
                path = here / entry.name
                if not _skipped(path, False, settings, ignores, False):
                    yield path


def _may_be_source(entry: os.DirEntry[str]) -> bool:
    """Not a FIFO, socket or device (never source code; reading a FIFO would block), nor a link to
    one or to a directory. A symbolic link that cannot be followed is kept: linting it reports why
    it cannot be read."""
    if not entry.is_symlink():
        return entry.is_file()  # no stat: the directory listing says what it is
    try:
        return stat.S_ISREG(os.stat(entry.path).st_mode)
    except OSError:
        return True


def project_root(paths: Iterable[Path]) -> Path:
    """The root of the project the paths belong to.

    The nearest ancestor of their common directory that holds `.git`, `pyproject.toml` or a
    `.spanlint.yaml` with `root: true`; else that common directory.
    """
    absolute = [Path(os.path.abspath(p)) for p in paths] or [Path.cwd()]
    common = Path(os.path.commonpath([str(p if p.is_dir() else p.parent) for p in absolute]))
    for candidate in (common, *common.parents):
        if any((candidate / marker).exists() for marker in PROJECT_MARKERS):
            return candidate
        config = candidate / YAML_NAME
        if config.is_file():
            loaded = load_config_file(config)
            if loaded is not None and loaded.is_root:
                return candidate
    return common
