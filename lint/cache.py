"""The result cache: per-file summaries and findings kept between runs, like ruff's cache.

One SQLite database (`cache.db`) in the cache directory (default `.spanlint_cache/` at the project
root, which gets its own `.gitignore`). Three tables:

- `stats`: a file's `(mtime_ns, size)` and the content digest seen with them, so a warm run reads
  only the files whose stat changed (the run's one read of the file gives the digest);
- `summaries`: each file's `FileSummary` (the project pass), keyed on its content digest, the
  vocabulary and spanlint's code;
- `results`: each file's findings, keyed on its content digest, the effective settings, spanlint's
  code, the display path AND a digest of the merged `ProjectIndex`: a change to a span class in
  another file invalidates every result that could depend on it;
- `indexes`: the merged `ProjectIndex` by its digest (each class and helper as its own JSON, decoded
  when first read), so that a run that lints one changed file reads one entry, not every summary.

The index digest is computed from the digests of the files' index parts (`FileSummary.index_part`,
stored with each summary), in the order the index merges them: editing a function body changes a
file's summary but not its part, and leaves every other file's findings valid.

The cache is a hint, never an authority. Values are JSON (never pickle: a cache directory must not
be able to run code), decoded only into the dataclasses listed in `_TYPES`, whose fields must have
their declared types. Every row carries a checksum of its fields, path included (`_checked`), and a
results row must hold findings about the file it is for: a row that does not verify or decode is a
miss, and is rewritten. The cache directory and database must not be symbolic links; a database
without spanlint's `APPLICATION_ID` (nor an older spanlint's tables) is never altered. A damaged
database of spanlint's is replaced by the run that finds the damage; any other database error turns
the cache off for the run. SQLite's transactions make concurrent runs safe.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import hashlib
import json
import os
import sqlite3
import stat
import tempfile
import time
import types
import typing
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, MutableMapping

from spanlint.diagnostics import Diagnostic, Edit, FixSummary, Location
from spanlint.settings import Settings
from spanlint.source import Source
from spanlint.rules.project import ClassFacts, FileSummary, HelperEffects, MethodCalls, ProjectIndex
from runtime_guard.vocabulary import Vocabulary

CACHE_DIR_NAME = ".spanlint_cache"
DATABASE_NAME = "cache.db"
# A file modified this recently may change again within the same mtime tick: do not trust its stat.
RACY_NS = 2_000_000_000
_TYPES = {t.__name__: t for t in (Diagnostic, Edit, FixSummary, Location, FileSummary, ClassFacts, HelperEffects, MethodCalls)}
# A database of another layout (an older spanlint's) is emptied and made anew.
SCHEMA_VERSION = 5
# `PRAGMA application_id` of spanlint's databases ("SPLC"): a database without it is never altered.
APPLICATION_ID = 0x53504C43
_TABLES = ("stats", "summaries", "results", "indexes")
_SCHEMA = (
    *(f"DROP TABLE IF EXISTS {table}" for table in _TABLES),
    "CREATE TABLE stats (path TEXT PRIMARY KEY, mtime_ns INTEGER, size INTEGER, digest TEXT, checksum TEXT)",
    "CREATE TABLE summaries (path TEXT PRIMARY KEY, key TEXT, part TEXT, value TEXT, checksum TEXT)",
    "CREATE TABLE results (path TEXT, config TEXT, key TEXT, value TEXT, checksum TEXT, PRIMARY KEY (path, config))",
    "CREATE TABLE indexes (digest TEXT PRIMARY KEY, value TEXT, checksum TEXT, stored INTEGER)",
)
# The columns of each table in the databases of older spanlints (which set no application id).
_OLDER_LAYOUTS = {
    "stats": {("path", "mtime_ns", "size", "digest")},
    "summaries": {("path", "key", "value"), ("path", "key", "part", "value")},
    "results": {("path", "config", "key", "value")},
    "indexes": {("summaries", "digest"), ("digest", "value", "stored"), ("digest", "value", "checksum", "stored")},
}
# The first line of the `.gitignore` spanlint writes in its cache directory.
GITIGNORE_MARK = "# Created by spanlint automatically."
# The tables of a stored `ProjectIndex`: each maps a name to the JSON of its value.
_INDEX_TABLES = ("classes", "helpers", "alternatives", "builds", "makers", "typed_calls")
# The index's sets of names, stored as sorted lists.
_INDEX_SETS = ("built_calls", "other_calls", "metadata_ids")
# Merged indexes kept: the latest few (branches switched back and forth, concurrent runs).
KEPT_INDEXES = 4


def encode(value: Any) -> Any:
    """`value` as JSON data: dataclasses (public fields), sets sorted, tuples and dicts tagged."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        fields = {f.name: encode(getattr(value, f.name)) for f in dataclasses.fields(value) if not f.name.startswith("_")}
        return {"$": type(value).__name__, **fields}
    if isinstance(value, (set, frozenset)):
        return {"$set": sorted((encode(v) for v in value), key=_canonical)}
    if isinstance(value, tuple):
        return {"$tuple": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict) or hasattr(value, "items"):
        return {"$dict": sorted(([encode(k), encode(v)] for k, v in value.items()), key=_canonical)}
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    raise TypeError(f"cannot cache a {type(value).__name__}")


def decode(text: str) -> Any:
    """The value `encode` made the JSON `text` from; raises ValueError for data it did not make."""
    return json.loads(text, object_hook=_decode_object)


def _decode_object(data: dict[str, Any]) -> Any:
    """One JSON object of `encode`'s, its members already decoded (`json.loads` works bottom-up)."""
    if "$set" in data:
        return frozenset(data["$set"])
    if "$tuple" in data:
        return tuple(data["$tuple"])
    if "$dict" in data:
        return {key: value for key, value in data["$dict"]}
    kind = _TYPES.get(data.pop("$", None))
    if kind is None:
        raise ValueError("not a value spanlint cached")
    value = kind(**data)
    for name, hint in _field_types(kind).items():
        if not _conforms(getattr(value, name), hint):
            raise ValueError(f"not a {kind.__name__}: {name} is a {type(getattr(value, name)).__name__}")
    return value


@lru_cache(maxsize=None)
def _field_types(kind: type) -> dict[str, Any]:
    """The declared types of a cached dataclass's public fields."""
    hints = typing.get_type_hints(kind)
    return {f.name: hints[f.name] for f in dataclasses.fields(kind) if not f.name.startswith("_")}


def _conforms(value: Any, hint: Any) -> bool:
    """Whether `value`, decoded from the cache, has the declared type `hint` (the shapes `encode` makes)."""
    origin, arguments = typing.get_origin(hint), typing.get_args(hint)
    if hint is Any:
        return True
    if hint is type(None):
        return value is None
    if origin is typing.Literal:
        return value in arguments
    if origin is typing.Union or origin is types.UnionType:
        return any(_conforms(value, argument) for argument in arguments)
    if origin is tuple:
        if not isinstance(value, tuple):
            return False
        if len(arguments) == 2 and arguments[1] is Ellipsis:
            return all(_conforms(item, arguments[0]) for item in value)
        return len(value) == len(arguments) and all(map(_conforms, value, arguments))
    if origin in (frozenset, set, list):
        return isinstance(value, frozenset if origin is not list else list) and all(_conforms(v, arguments[0]) for v in value)
    if origin in (dict, collections.abc.Mapping, collections.abc.MutableMapping):
        key, item = arguments
        return isinstance(value, dict) and all(_conforms(k, key) and _conforms(v, item) for k, v in value.items())
    if hint is int:
        return isinstance(value, int) and not isinstance(value, bool)
    if hint is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, origin or hint)


def _decoded(text: Any) -> Any:
    """`decode(text)`, or None for anything it does not decode (a garbled entry is a miss)."""
    try:
        return decode(text) if isinstance(text, str) else None
    except (ValueError, TypeError, KeyError, RecursionError):
        return None


def _checked(*fields: str | int) -> tuple[str | int, ...]:
    """A row of `fields` followed by its checksum."""
    return (*fields, _key(*map(str, fields)))


def _verifies(*row: Any) -> bool:
    """Whether a row of `_checked`'s (its fields, then the checksum) is intact: types and checksum."""
    *fields, checksum = row
    return all(isinstance(f, (str, int)) for f in fields) and _key(*map(str, fields)) == checksum


def _canonical(value: Any) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def digest(value: Any) -> str:
    """A digest of any value `encode` accepts, the same in every process."""
    return hashlib.sha256(_canonical(encode(value)).encode("utf-8", "surrogatepass")).hexdigest()


def part_digest(summary: FileSummary) -> str:
    """The digest of the summary's index part; "" when it adds nothing to the index."""
    part = summary.index_part()
    return "" if part is None else _key(_canonical(encode(part)))


def _key(*parts: str) -> str:
    """A digest of strings (cheaper than `digest` for the per-file keys of a warm run)."""
    return hashlib.sha256("\0".join(parts).encode("utf-8", "surrogatepass")).hexdigest()


@lru_cache(maxsize=1)
def code_fingerprint() -> str:
    """A digest of spanlint's own code (engine, rules, vocabulary): any change to it empties the cache."""
    import runtime_guard.vocabulary
    import spanlint
    import spanlint.rules

    hasher = hashlib.sha256()
    files = [Path(runtime_guard.vocabulary.__file__)]
    for package in (spanlint, spanlint.rules):
        files.extend(sorted(Path(package.__file__).parent.glob("*.py")))
    for file in files:
        hasher.update(file.name.encode() + b"\0" + file.read_bytes() + b"\0")
    return hasher.hexdigest()


@dataclasses.dataclass(frozen=True)
class FileState:
    """A file's content digest and the stat it had when hashed."""

    digest: str
    mtime_ns: int
    size: int


class Cache:
    """Per-file summaries and findings in `directory`; `Cache(None)`, or a directory that cannot be used,
    is a disabled cache: it misses every lookup and stores nothing. `close()` stores the run's entries."""

    def __init__(self, directory: Path | None) -> None:
        self.directory = directory
        self._db: sqlite3.Connection | None = None
        self._states: dict[str, FileState | None] = {}
        self._by_path: dict[str, dict[str, tuple]] = {}
        self._stats: list[tuple[str, int, int, str]] = []
        self._summaries: list[tuple[str, str, str, str]] = []
        self._results: list[tuple[str, str, str, str]] = []
        self._indexes: list[tuple[str, str, str, int]] = []
        # Digests of vocabularies and settings with the code fingerprint, by object identity (the
        # resolver shares one Settings per set of configuration files): encoding them for every file is costly.
        self._digests: dict[int, tuple[object, str]] = {}
        # One line each: why the cache was not used, or was replaced.
        self.warnings: list[str] = []
        # Files whose summary the cache held; a miss on their findings may be damage (`close` checks).
        self._summary_hits: set[str] = set()
        self._suspect = False
        if directory is not None:
            self._db = _connect(directory, self.warnings)

    @property
    def enabled(self) -> bool:
        return self._db is not None

    def state(self, path: str, read: Callable[[], Source | None]) -> FileState | None:
        """The file's current digest: from the stat table when its stat is unchanged (the file is not
        read), else that of the `Source` that `read` returns (None: the file cannot be read)."""
        if path in self._states:
            return self._states[path]
        found = None
        try:
            before = os.stat(path)
        except OSError:
            before = None
        if before is not None and stat.S_ISREG(before.st_mode):
            row = self._rows_by_path("SELECT path, mtime_ns, size, digest, checksum FROM stats").get(path)
            if row is not None and (row[0], row[1]) == (before.st_mtime_ns, before.st_size) and _verifies(path, *row):
                found = FileState(row[2], row[0], row[1])
            else:
                source = read()
                if source is not None and source.stat is not None:
                    found = FileState(source.digest, *source.stat)
                    if time.time_ns() - found.mtime_ns > RACY_NS:
                        self._stats.append(_checked(path, found.mtime_ns, found.size, found.digest))
        self._states[path] = found
        return found

    def summary(self, path: str, vocabulary: Vocabulary) -> FileSummary | None:
        """The cached project summary of the file, if its content and the vocabulary are unchanged."""
        key = self._summary_key(path, vocabulary)
        row = self._query("SELECT key, part, value, checksum FROM summaries WHERE path = ?", (path,))
        if key is None or row is None or row[0] != key or not _verifies(path, *row):
            return None
        value = _decoded(row[2])
        return value if isinstance(value, FileSummary) else None

    def summary_part(self, path: str, vocabulary: Vocabulary, read: Callable[[], Source | None]) -> str | None:
        """The index-part digest (`part_digest`) of the file's cached summary, without decoding the
        summary; None when the cache does not hold the file's current summary. `read` reads the file
        if its digest is needed (see `state`): the first question a run asks about a file."""
        if self.enabled:
            self.state(path, read)
        key = self._summary_key(path, vocabulary)
        row = None if key is None else self._rows_by_path("SELECT path, key, part FROM summaries").get(path)
        # the checksum is verified when the summary is read (`summary`): a wrong part is only a wrong digest
        if row is not None and row[0] == key and isinstance(row[1], str):
            self._summary_hits.add(path)
            return row[1]
        return None

    def put_summary(self, path: str, vocabulary: Vocabulary, summary: FileSummary) -> str:
        """Store the file's summary; return its index-part digest ("" when the cache is off)."""
        if not self.enabled:
            return ""
        part = part_digest(summary)
        key = self._summary_key(path, vocabulary)
        if key is not None and self._unchanged(path):
            self._summaries.append(_checked(path, key, part, _canonical(encode(summary))))
        return part

    def results(self, path: str, display: str, settings: Settings, index: str, prescan: bool) -> list[Diagnostic] | None:
        """The cached findings of the file, if it, its settings and the project index are unchanged: a
        row that does not verify, or holds anything but findings about `display`, is a miss."""
        key = self._results_key(path, index)
        config = self._config(display, settings, prescan)
        row = self._query("SELECT key, value, checksum FROM results WHERE path = ? AND config = ?", (path, config))
        if key is None or row is None or row[0] != key or not _verifies(path, config, *row):
            # an unchanged file without its findings: new settings or index, or a damaged table
            self._suspect = self._suspect or path in self._summary_hits
            return None
        value = _decoded(row[1])
        if not isinstance(value, list) or not all(isinstance(d, Diagnostic) and d.path == display for d in value):
            return None
        return value

    def put_results(
        self, path: str, display: str, settings: Settings, index: str, prescan: bool, found: list[Diagnostic]
    ) -> None:
        key = self._results_key(path, index)
        if key is not None and self._unchanged(path):
            config = self._config(display, settings, prescan)
            self._results.append(_checked(path, config, key, _canonical(encode(found))))

    def index_digest(self, vocabulary: Vocabulary, parts: Iterable[str]) -> str:
        """The digest of the index merged with `vocabulary` from summaries whose index parts have the
        digests `parts`, in merge order ("" when the cache is off: it is not needed)."""
        if not self.enabled:
            return ""
        return _key(self._with_code(vocabulary), *(part for part in parts if part))

    def index(self, digest: str, vocabulary: Vocabulary) -> ProjectIndex | None:
        """The index stored under `digest` by `put_index`. Its classes and helpers are decoded one by
        one when first read: a run that lints one file reads a few of the project's thousands."""
        row = self._query("SELECT value, checksum FROM indexes WHERE digest = ?", (digest,))
        if row is None or not _verifies(*row):
            return None  # none, or damaged since it was written
        try:
            tables = json.loads(row[0])
            mappings = {name: _Decoding(tables[name]) for name in _INDEX_TABLES}
            sets = {name: tables[name] for name in _INDEX_SETS}
            if not all(isinstance(names, list) and all(isinstance(n, str) for n in names) for names in sets.values()):
                return None
            sets = {name: set(names) for name, names in sets.items()}
        except (ValueError, TypeError, KeyError, RecursionError):
            return None
        return ProjectIndex(vocabulary, **mappings, **sets)

    def has_index(self, digest: str) -> bool:
        """Whether an index is stored under `digest` (without reading it)."""
        return self._query("SELECT 1 FROM indexes WHERE digest = ?", (digest,)) is not None

    def put_index(self, digest: str, index: ProjectIndex) -> None:
        if self.enabled:
            tables = {
                name: {key: _canonical(encode(value)) for key, value in getattr(index, name).items()}
                for name in _INDEX_TABLES
            }
            tables.update({name: sorted(getattr(index, name)) for name in _INDEX_SETS})
            value = json.dumps(tables, sort_keys=True)
            self._indexes.append((digest, *_checked(value), time.time_ns()))

    def close(self) -> None:
        """Store what this run computed, in one transaction, and close the database."""
        if self._db is None:
            return
        try:
            if self._suspect and self._db is not None and not _intact(self._db):
                self._replace()
            for attempt in range(2):
                try:
                    self._store()
                    break
                except sqlite3.Error as error:
                    # another run holds the lock for too long, or the disk is full: the cache is
                    # optional; a damaged database is replaced, and the entries stored in the new one
                    if attempt == 1 or not _is_damage(error):
                        break
                    self._replace()
                    if self._db is None:
                        break
        finally:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _store(self) -> None:
        assert self._db is not None
        with self._db:
            self._db.executemany("INSERT OR REPLACE INTO stats VALUES (?, ?, ?, ?, ?)", self._stats)
            self._db.executemany("INSERT OR REPLACE INTO summaries VALUES (?, ?, ?, ?, ?)", self._summaries)
            self._db.executemany("INSERT OR REPLACE INTO results VALUES (?, ?, ?, ?, ?)", self._results)
            if self._indexes:
                self._db.executemany("INSERT OR REPLACE INTO indexes VALUES (?, ?, ?, ?)", self._indexes)
                self._db.execute(
                    "DELETE FROM indexes WHERE digest NOT IN (SELECT digest FROM indexes ORDER BY stored DESC LIMIT ?)",
                    (KEPT_INDEXES,),
                )

    def __enter__(self) -> "Cache":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _summary_key(self, path: str, vocabulary: Vocabulary) -> str | None:
        state = self._states.get(path)  # found by `summary_part`
        return None if state is None else _key(state.digest, path, self._with_code(vocabulary))

    def _results_key(self, path: str, index: str) -> str | None:
        state = self._states.get(path)
        return None if state is None else _key(state.digest, index)

    def _config(self, display: str, settings: Settings, prescan: bool) -> str:
        return _key(display, self._with_code(settings), str(prescan))

    def _with_code(self, value: Vocabulary | Settings) -> str:
        """The digest of `value` and of spanlint's code, computed once per object."""
        found = self._digests.get(id(value))
        if found is None or found[0] is not value:
            found = self._digests[id(value)] = (value, digest((code_fingerprint(), value)))
        return found[1]

    def _unchanged(self, path: str) -> bool:
        """Whether the file still has the stat it had when hashed (else what was computed may not match it)."""
        state = self._states.get(path)
        try:
            return state is not None and _stat_key(os.stat(path)) == (state.mtime_ns, state.size)
        except OSError:
            return False

    def _rows_by_path(self, sql: str) -> dict[str, tuple]:
        """The rows of `sql` (`SELECT path, ...`) by path, read once per run: a run asks for every
        project file's row, and a query per file costs about ten times as much."""
        found = self._by_path.get(sql)
        if found is None:
            found = self._by_path[sql] = {row[0]: row[1:] for row in self._query(sql, every=True)}
        return found

    def _query(self, sql: str, parameters: tuple = (), *, every: bool = False) -> Any:
        """The first row `sql` finds (None if none), or with `every` all of them."""
        if self._db is not None:
            try:
                cursor = self._db.execute(sql, parameters)
                return cursor.fetchall() if every else cursor.fetchone()
            except sqlite3.Error as error:
                if _is_damage(error):
                    self._replace()  # every lookup misses from now on: what this run computes is stored
                else:
                    self._db.close()
                    self._db = None
        return [] if every else None

    def _replace(self) -> None:
        """Delete the damaged database (spanlint's own: `_connect` checked) and start a new one; what
        this run computed is stored in it, the rest on the next run."""
        assert self._db is not None and self.directory is not None
        self._db.close()
        self._db = None
        self._by_path.clear()
        path = self.directory / DATABASE_NAME
        try:
            for suffix in ("", "-journal", "-wal", "-shm"):
                if _is_regular(Path(f"{path}{suffix}")):
                    os.unlink(f"{path}{suffix}")
        except OSError:
            return
        self.warnings.append(f"{path}: the cache database was damaged; it was replaced")
        self._db = _connect(self.directory, self.warnings)


class _Decoding(MutableMapping[str, Any]):
    """A mapping whose values are JSON (`encode`'s) until first read, then decoded once."""

    def __init__(self, encoded: dict[str, str]) -> None:
        if not all(isinstance(value, str) for value in encoded.values()):
            raise TypeError("not an encoded table")
        self._encoded = encoded
        self._decoded: dict[str, Any] = {}

    def __getitem__(self, key: str) -> Any:
        if key not in self._decoded:
            self._decoded[key] = decode(self._encoded[key])
        return self._decoded[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self._encoded[key] = _canonical(encode(value))
        self._decoded[key] = value

    def __delitem__(self, key: str) -> None:
        del self._encoded[key]
        self._decoded.pop(key, None)

    def __iter__(self) -> Iterator[str]:
        return iter(self._encoded)

    def __len__(self) -> int:
        return len(self._encoded)

    def __contains__(self, key: object) -> bool:
        return key in self._encoded


def _stat_key(stat: os.stat_result) -> tuple[int, int]:
    return (stat.st_mtime_ns, stat.st_size)


def _connect(directory: Path, warnings: list[str]) -> sqlite3.Connection | None:
    """The cache database in `directory`, made when missing; None, with a warning for a reason the
    user should know, when it cannot be used. Neither the directory nor the database may be a
    symbolic link, and a database spanlint did not make is never altered."""
    try:
        if os.path.islink(directory):
            warnings.append(f"{directory}: the cache directory is a symbolic link: the cache is not used")
            return None
        directory.mkdir(parents=True, exist_ok=True)
        if not stat.S_ISDIR(os.lstat(directory).st_mode):
            return None
        _write_gitignore(directory)
    except OSError:
        return None
    path = directory / DATABASE_NAME
    for attempt in range(2):
        if os.path.lexists(path) and not _is_regular(path):
            warnings.append(f"{path}: not a regular file (a symbolic link?): the cache is not used")
            return None
        try:
            db = sqlite3.connect(path, timeout=30, isolation_level="DEFERRED")
        except sqlite3.Error:
            return None
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID and not _is_spanlints(db):
                db.close()
                warnings.append(f"{path}: not a spanlint cache database: the cache is not used (--cache-dir chooses another place)")
                return None
            if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
                _make_schema(db)
            return db
        except sqlite3.DatabaseError as error:
            db.close()
            # Not a database (truncated or overwritten): start a new one, once, if it is in spanlint's
            # own directory (the `.gitignore` it writes says so).
            if attempt == 0 and _is_damage(error) and _is_own_directory(directory):
                try:
                    path.unlink()
                except OSError:
                    return None
                warnings.append(f"{path}: the cache database was damaged; it was replaced")
            else:
                return None
        except sqlite3.Error:
            db.close()
            return None
    return None


def _is_spanlints(db: sqlite3.Connection) -> bool:
    """A database without spanlint's application id is spanlint's when it is empty (just made) or
    has an older spanlint's tables, and only those."""
    tables = [row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
    return all(
        tuple(column[1] for column in db.execute(f'PRAGMA table_info("{table}")')) in _OLDER_LAYOUTS.get(table, ())
        for table in tables
    )


def _intact(db: sqlite3.Connection) -> bool:
    """SQLite's quick check of every page (damage inside a table can make lookups miss without an error)."""
    try:
        return db.execute("PRAGMA quick_check").fetchall() == [("ok",)]
    except sqlite3.DatabaseError as error:
        return not _is_damage(error)


def _is_damage(error: sqlite3.Error) -> bool:
    """Whether `error` says the database file is damaged (not busy, locked or out of space)."""
    code = getattr(error, "sqlite_errorcode", None)
    if code is not None:
        return code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)
    return type(error) is sqlite3.DatabaseError  # Python 3.10: no error codes


def _is_regular(path: Path) -> bool:
    try:
        return stat.S_ISREG(os.lstat(path).st_mode)
    except OSError:
        return False


def _is_own_directory(directory: Path) -> bool:
    try:
        with open(directory / ".gitignore", encoding="utf-8", errors="replace") as file:
            return _is_regular(directory / ".gitignore") and file.readline().rstrip("\n") == GITIGNORE_MARK
    except OSError:
        return False


def _make_schema(db: sqlite3.Connection) -> None:
    """Empty the database and create the tables, unless a concurrent run has just done so."""
    db.execute("BEGIN IMMEDIATE")
    try:
        if db.execute("PRAGMA user_version").fetchone()[0] != SCHEMA_VERSION:
            for statement in _SCHEMA:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
        db.execute("COMMIT")
    except BaseException:
        db.execute("ROLLBACK")
        raise


def _write_gitignore(directory: Path) -> None:
    target = directory / ".gitignore"
    if os.path.lexists(target):
        return
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=".gitignore.")
    os.chmod(temporary, 0o644)
    with os.fdopen(handle, "w") as stream:
        stream.write(f"{GITIGNORE_MARK}\n*\n")
    os.replace(temporary, target)
