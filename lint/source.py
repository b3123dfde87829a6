"""Reading a file: its bytes (regular files only, within the size limit) and their text as Python
source (PEP 263 encoding cookie, BOM, else UTF-8).

A run reads each file it needs once (`SourceStore`): the cache's content digest, the project pass,
the lint pass, fixes and the code frames of the report all take that one `Source`, which a process
pool's workers receive with their work (as its bytes: each process decodes the text when it first
needs it, with the encoding the file declares).
"""

from __future__ import annotations

import codecs
import errno
import hashlib
import io
import os
import stat
import tokenize
from functools import cached_property

from spanlint.settings import Settings


class SourceError(Exception):
    """A file's bytes cannot be turned into Python source; the message is the reason."""


def _declared_encoding(data: bytes) -> str:
    """The encoding Python source `data` declares (PEP 263 cookie, BOM, else UTF-8); raise `SyntaxError`
    or `LookupError` for a cookie that names none."""
    return tokenize.detect_encoding(io.BytesIO(data).readline)[0]


def decode_source(data: bytes) -> str:
    """Decode `data` as Python source (PEP 263 cookie, BOM, else UTF-8); raise `SourceError`."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SourceError(
            "file is UTF-16 or UTF-32 (byte order mark): Python source must be UTF-8 or an ASCII-compatible encoding"
        )
    if b"\0" in data:
        raise SourceError("file contains NUL bytes (binary file?)")
    try:
        text = data.decode(_declared_encoding(data))
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise SourceError(f"cannot decode file: {error}") from None
    return text[1:] if text.startswith("\ufeff") else text


class Source:
    """One file's content as read once: its bytes, their digest and the text they decode to (with the
    declared encoding). `stat` is the file's (mtime_ns, size) when it did not change
    while it was read, else None (stdin: None)."""

    def __init__(self, data: bytes, stat: tuple[int, int] | None = None) -> None:
        self.data = data
        self.stat = stat

    def __reduce__(self) -> tuple[type, tuple[bytes, tuple[int, int] | None]]:
        # Sent to a worker process as its bytes: decoding there costs what unpickling a text would.
        return (Source, (self.data, self.stat))

    @classmethod
    def read(cls, path: str, max_bytes: int) -> "Source":
        """The file at `path` (see `read_file`); raise `SourceError`."""
        stat: list[tuple[int, int] | None] = []
        data = read_file(path, max_bytes, stat)
        return cls(data, stat[0])

    @cached_property
    def digest(self) -> str:
        return hashlib.sha256(self.data).hexdigest()

    @cached_property
    def text(self) -> str:
        """The decoded text; raise `SourceError` (see `decode_source`)."""
        return decode_source(self.data)

    def encode(self, text: str) -> bytes:
        """`text` as this file would hold it: in its declared encoding, after its byte-order mark if it
        has one; raise `UnicodeEncodeError`."""
        bom = codecs.BOM_UTF8 if self.data.startswith(codecs.BOM_UTF8) else b""
        return bom + text.encode(_declared_encoding(self.data).removesuffix("-sig"))

    def lintable_text(self, settings: Settings) -> str:
        """The text; raise `SourceError` for a source spanlint cannot lint (too large, undecodable)."""
        _check_size(len(self.data), settings.max_file_bytes)
        return self.text


# The bytes of files a run holds at once for the passes still to come (`SourceStore`). A project larger
# than this has its remaining files read by each pass that needs them, as if there were no store.
HELD_BYTES_LIMIT = 256 * 2**20


class SourceStore:
    """The files a run has read, by path, so that each is read from disk once: the cache hashes it, the
    project pass summarizes it and the lint pass lints it from the same `Source`.

    Sources are held until `release`d, up to `HELD_BYTES_LIMIT` bytes in all: once that many are held,
    a file that is not held is read by whoever needs it (`read`), and not held again.
    """

    def __init__(self) -> None:
        self._limit = HELD_BYTES_LIMIT
        self._held: dict[str, Source] = {}
        self._size = 0
        self._unreadable: set[str] = set()  # tried once: the pass that lints such a file reports why

    def read(self, path: str, max_bytes: int) -> Source | None:
        """The file's `Source`: the one held, else read now (and held while there is room); None when
        it cannot be read."""
        source = self._held.get(path)
        if source is None and path not in self._unreadable:
            try:
                source = Source.read(path, max_bytes)
            except SourceError:
                self._unreadable.add(path)
                return None
            if self._size < self._limit:
                self._held[path] = source
                self._size += len(source.data)
        return source

    def read_if_room(self, path: str, max_bytes: int) -> Source | None:
        """The held `Source`, else the file read now if there is room to hold it; None when the store
        is full (the pass that needs the file reads it) or the file cannot be read."""
        if path in self._held or self._size < self._limit:
            return self.read(path, max_bytes)
        return None

    def held(self, path: str) -> Source | None:
        return self._held.get(path)

    def release(self, path: str) -> None:
        """No pass needs the file any more: stop holding it."""
        source = self._held.pop(path, None)
        if source is not None:
            self._size -= len(source.data)


def read_file(path: str, max_bytes: int, stat_out: list[tuple[int, int] | None] | None = None) -> bytes:
    """The bytes of the regular file at `path`; raise `SourceError` for anything else.

    A FIFO, device or directory is refused without reading it (opening never blocks), and a file
    over `max_bytes` without loading it. `stat_out` receives the file's (mtime_ns, size), or None when
    it changed while it was read.
    """
    try:
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except OSError as error:
        reason = "broken symbolic link" if os.path.islink(path) and error.errno == errno.ENOENT else error.strerror
        raise SourceError(f"cannot read file: {reason or error}") from None
    with open(descriptor, "rb", closefd=True) as file:
        mode = os.fstat(descriptor)
        if not stat.S_ISREG(mode.st_mode):
            raise SourceError(f"not a regular file ({_file_kind(mode.st_mode)})")
        _check_size(mode.st_size, max_bytes)
        try:
            data = file.read()
        except OSError as error:
            raise SourceError(f"cannot read file: {error.strerror or error}") from None
        if stat_out is not None:
            after = os.fstat(descriptor)
            before = (mode.st_mtime_ns, mode.st_size)
            stat_out.append(before if (after.st_mtime_ns, after.st_size) == before == (before[0], len(data)) else None)
        return data


def _check_size(size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise SourceError(f"file too large: {size:,} bytes, over the limit of {max_bytes:,} (max-file-bytes)")


def _file_kind(mode: int) -> str:
    kinds = {stat.S_ISDIR: "directory", stat.S_ISFIFO: "FIFO", stat.S_ISSOCK: "socket",
             stat.S_ISCHR: "character device", stat.S_ISBLK: "block device"}
    return next((kind for is_kind, kind in kinds.items() if is_kind(mode)), "unknown file type")
