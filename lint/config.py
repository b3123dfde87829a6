"""Configuration files: `.spanlint.yaml` or `[tool.spanlint]` in `pyproject.toml`.

Settings cascade: walking up from a linted file's directory, each key comes from the nearest
configuration file that sets it; a file with `root: true` ends the walk. `--config FILE` uses that
file alone, `--isolated` none. Path patterns (`exclude`, `per-file-ignores`) are relative to the
directory of the file that sets them.
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Mapping

from spanlint.settings import SelectorError, Settings, resolve_selector
from runtime_guard.vocabulary import Vocabulary

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib

YAML_NAME = ".spanlint.yaml"
PYPROJECT_NAME = "pyproject.toml"
SEVERITIES = ("error", "warn", "off")
# Far above any real configuration; parsing a huge YAML file would take minutes.
MAX_CONFIG_BYTES = 1_000_000
# Far above any real configuration too: values of a YAML file once its aliases are expanded (a
# "billion laughs" file of 305 bytes expands to 387 million), and levels of nesting.
MAX_YAML_VALUES = 100_000
MAX_YAML_DEPTH = 100
# An error message quotes at most this many characters of a value.
MAX_EXCERPT = 80


class ConfigError(Exception):
    """A configuration file is unreadable or invalid; the message names the file and the key."""


@dataclass(frozen=True)
class ConfigFile:
    """One configuration file's spanlint table, validated but not yet merged."""

    path: Path
    values: Mapping[str, Any]

    @property
    def is_root(self) -> bool:
        return bool(self.values.get("root", False))


def find_config_file(directory: Path) -> ConfigFile | None:
    """The configuration in `directory` itself: `.spanlint.yaml`, else a `pyproject.toml` with `[tool.spanlint]`."""
    yaml_path = directory / YAML_NAME
    if yaml_path.is_file():
        return load_config_file(yaml_path)
    pyproject = directory / PYPROJECT_NAME
    if pyproject.is_file():
        return load_config_file(pyproject)
    return None


def load_config_file(path: Path) -> ConfigFile | None:
    """Read and validate one configuration file; None for a `pyproject.toml` without `[tool.spanlint]`."""
    path = path.absolute()
    try:
        with path.open("rb") as file:
            data = file.read(MAX_CONFIG_BYTES + 1)
        if len(data) > MAX_CONFIG_BYTES:
            raise ConfigError(f"{path}: configuration file larger than {MAX_CONFIG_BYTES:,} bytes")
        text = data.decode("utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read configuration: {error}") from None
    if path.name == PYPROJECT_NAME:
        try:
            tool = tomllib.loads(text).get("tool", {})
        except tomllib.TOMLDecodeError as error:
            raise ConfigError(f"{path}: invalid TOML: {error}") from None
        except RecursionError:
            raise ConfigError(f"{path}: invalid TOML: nested too deeply") from None
        table = tool.get("spanlint") if isinstance(tool, dict) else None
        if table is None:
            return None
        where = f"{path} [tool.spanlint]"
    else:
        import yaml  # only YAML configurations need it (its import costs ~25 ms of every run)

        try:
            table = _load_yaml(text)
        except yaml.YAMLError as error:
            reason = excerpt(" ".join(str(error).split()), 4 * MAX_EXCERPT)
            raise ConfigError(f"{path}: invalid YAML (only plain YAML is accepted, no tags): {reason}") from None
        except RecursionError:
            raise ConfigError(f"{path}: invalid YAML: nested too deeply") from None
        except _TooLarge as error:
            raise ConfigError(f"{path}: invalid YAML: {error}") from None
        if table is None:
            table = {}
        where = str(path)
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: expected a mapping of settings, got {type(table).__name__}")
    return ConfigFile(path, _validate(table, path.parent, where))


class _TooLarge(Exception):
    """A YAML document over `MAX_YAML_VALUES` or `MAX_YAML_DEPTH`; the message says which."""


def _load_yaml(text: str) -> Any:
    """`yaml.safe_load(text)`, refusing a document too large once its aliases are expanded, or too
    deep, before building it."""
    import yaml

    loader = yaml.SafeLoader(text)
    try:
        node = loader.get_single_node()
        if node is None:
            return None
        values, depth = _expanded_size(node, {})
        if values > MAX_YAML_VALUES:
            raise _TooLarge(f"over {MAX_YAML_VALUES:,} values once its aliases are expanded")
        if depth > MAX_YAML_DEPTH:
            raise _TooLarge(f"nested too deeply (over {MAX_YAML_DEPTH} levels)")
        return loader.construct_document(node)
    finally:
        loader.dispose()


def _expanded_size(node: Any, known: dict[int, tuple[int, int]]) -> tuple[int, int]:
    """How many values the YAML `node` stands for with every alias expanded, and its depth; each
    node is visited once (an alias is the node it names, shared)."""
    found = known.get(id(node))
    if found is None:
        children = node.value if isinstance(node.value, list) else []
        values, depth = 1, 1
        for child in children:
            for part in child if isinstance(child, tuple) else (child,):  # a mapping's (key, value)
                part_values, part_depth = _expanded_size(part, known)
                values, depth = values + part_values, max(depth, part_depth + 1)
        found = known[id(node)] = (values, depth)
    return found


def excerpt(text: str, limit: int = MAX_EXCERPT) -> str:
    """`text`, cut to `limit` characters (an error message never quotes more)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _validate(table: Mapping[str, Any], base: Path, where: str) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for key, raw in table.items():
        check = _CHECKS.get(key)
        if check is None:
            known = ", ".join(sorted(_CHECKS))
            raise ConfigError(f"{where}: unknown key {excerpt(repr(key))} (known keys: {known})")
        try:
            values[key] = check(raw, base)
        except (TypeError, ValueError, KeyError) as error:
            message = error.args[0] if error.args else str(error)
            raise ConfigError(f"{where}: key {key!r}: {excerpt(str(message), 4 * MAX_EXCERPT)}") from None
    return values


def _bool(value: Any, base: Path) -> bool:
    if not isinstance(value, bool):
        raise TypeError(f"expected true or false, got {type(value).__name__}")
    return value


def _strings(value: Any) -> tuple[str, ...]:
    if isinstance(value, str) or not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise TypeError("expected a list of strings")
    return tuple(value)


def _selectors(value: Any, base: Path) -> tuple[str, ...]:
    selectors = _strings(value)
    for selector in selectors:
        _check_selector(selector)
    return selectors


def _check_selector(selector: str) -> None:
    try:
        resolve_selector(selector)
    except SelectorError as error:
        raise ValueError(str(error)) from None


def _exclude(value: Any, base: Path) -> tuple[str, ...]:
    return tuple(anchor_pattern(p, base) for p in _strings(value))


def _per_file_ignores(value: Any, base: Path) -> dict[str, tuple[str, ...]]:
    if not isinstance(value, dict):
        raise TypeError("expected a mapping of path patterns to lists of rule selectors")
    result = {}
    for pattern, selectors in value.items():
        if not isinstance(pattern, str):
            raise TypeError(f"pattern {excerpt(repr(pattern))}: expected a string")
        result[f"{base.as_posix()}/{pattern.lstrip('/')}"] = _selectors(selectors, base)
    return result


def _severity(value: Any, base: Path) -> dict[str, str]:
    if not isinstance(value, dict):
        raise TypeError("expected a mapping of rule selectors to error, warn or off")
    result = {}
    for selector, level in value.items():
        if level is False:  # YAML 1.1 reads an unquoted `off` as false
            level = "off"
        if not isinstance(selector, str):
            raise TypeError(f"{excerpt(repr(selector))}: expected a rule selector")
        if level not in SEVERITIES:
            raise ValueError(f"{excerpt(selector)}: expected one of error, warn, off, got {excerpt(repr(level))}")
        _check_selector(selector)
        for rule in resolve_selector(selector):
            result[rule.code] = level
    return result


def _max_file_bytes(value: Any, base: Path) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise TypeError("expected a positive integer")
    return value


def _vocabulary(value: Any, base: Path) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise TypeError("expected a mapping of vocabulary fields to lists of names")
    try:
        Vocabulary.from_mapping(value)
    except KeyError as error:
        raise KeyError(f"unknown vocabulary field {error.args[0]!r}") from None
    return dict(value)


def _python(value: Any, base: Path) -> str:
    """A path relative to the configuration file's directory; a bare name (`python3`) is looked up on PATH."""
    if not isinstance(value, str) or not value.strip():
        raise TypeError("expected the path of a Python interpreter")
    value = os.path.expanduser(value)
    return value if os.sep not in value and "/" not in value else os.path.normpath(os.path.join(base, value))


_CHECKS: dict[str, Callable[[Any, Path], Any]] = {
    "root": _bool,
    "select": _selectors,
    "extend-select": _selectors,
    "ignore": _selectors,
    "exclude": _exclude,
    "per-file-ignores": _per_file_ignores,
    "severity": _severity,
    "max-file-bytes": _max_file_bytes,
    "vocabulary": _vocabulary,
    "python": _python,
}


def anchor_pattern(pattern: str, base: Path) -> str:
    """A gitignore-style `pattern` written relative to `base`, made relative to the filesystem root.

    As in `.gitignore`, a pattern with a slash before its end is anchored at `base`; one without
    matches at any depth below it.
    """
    negated = pattern.startswith("!")
    body = pattern[1:] if negated else pattern
    prefix = base.absolute().as_posix().strip("/")
    prefix = f"/{prefix}" if prefix else ""
    anchored = "/" in body.rstrip("/")
    joined = f"{prefix}/{body.lstrip('/')}" if anchored else f"{prefix}/**/{body}"
    return ("!" if negated else "") + joined


def settings_from_files(files: list[ConfigFile], base: Settings | None = None) -> Settings:
    """Merge configuration files, nearest first: each key comes from the first file that sets it."""
    values: dict[str, Any] = {}
    for config in files:
        for key, value in config.values.items():
            values.setdefault(key, value)
    settings = base or Settings()
    changes: dict[str, Any] = {"config_files": tuple(str(f.path) for f in files)}
    for key, value in values.items():
        if key == "root":
            continue
        if key == "vocabulary":
            changes["vocabulary"] = Vocabulary.from_mapping(value)
        else:
            changes[key.replace("-", "_")] = value
    return replace(settings, **changes)


class ConfigResolver:
    """The effective `Settings` of any path, from the configuration files above it (cached per directory).

    `overrides` applies the command line's options on top of whatever the files say.
    """

    def __init__(
        self,
        config_file: Path | None = None,
        isolated: bool = False,
        overrides: Callable[[Settings], Settings] = lambda s: s,
    ) -> None:
        self._overrides = overrides
        self._fixed: Settings | None = None
        if isolated:
            self._fixed = overrides(Settings())
        elif config_file is not None:
            if not config_file.is_file():
                raise ConfigError(f"{config_file}: configuration file not found")
            loaded = load_config_file(config_file)
            if loaded is None:
                raise ConfigError(f"{config_file}: no [tool.spanlint] table")
            self._fixed = overrides(settings_from_files([loaded]))
        self._by_files: dict[tuple[str, ...], Settings] = {}
        self._directory_settings = lru_cache(maxsize=None)(self._settings_for_directory)
        self._directory_files = lru_cache(maxsize=None)(self._files_for_directory)

    @classmethod
    def fixed(cls, settings: Settings) -> "ConfigResolver":
        """A resolver that gives every path the same `settings` (no configuration files)."""
        resolver = cls(isolated=True)
        resolver._fixed = settings
        return resolver

    def settings_for(self, path: Path) -> Settings:
        """The settings that apply to the file (or directory) at `path`."""
        if self._fixed is not None:
            return self._fixed
        absolute = os.path.abspath(path)
        return self._directory_settings(absolute if os.path.isdir(absolute) else os.path.dirname(absolute))

    def settings_for_file(self, path: Path) -> Settings:
        """The settings of the file at `path`: those of its directory (without asking the file system
        whether `path` is a directory, as `settings_for` must)."""
        if self._fixed is not None:
            return self._fixed
        return self._directory_settings(os.path.dirname(os.path.abspath(path)))

    def _settings_for_directory(self, directory: str) -> Settings:
        """One `Settings` object per set of configuration files: directories that share their files
        share it (the cache digests each settings object once)."""
        files = self._directory_files(Path(directory))
        key = tuple(str(f.path) for f in files)
        found = self._by_files.get(key)
        if found is None:
            found = self._by_files[key] = self._overrides(settings_from_files(list(files)))
        return found

    def _files_for_directory(self, directory: Path) -> tuple[ConfigFile, ...]:
        """The configuration files that apply in `directory`, nearest first."""
        here = find_config_file(directory)
        if here is not None and here.is_root:
            return (here,)
        parent = directory.parent
        above = () if parent == directory else self._directory_files(parent)
        return ((here,) if here is not None else ()) + above
