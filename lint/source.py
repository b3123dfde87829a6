"""Reading a file: its bytes (regular files only, within the size limit) and their text as Python
source (PEP 263 encoding cookie, BOM, else UTF-8)."""

from __future__ import annotations

import codecs
import errno
import io
import os
import stat
import tokenize

from spanlint.settings import Settings


class SourceError(Exception):
    """A file's bytes cannot be turned into Python source; the message is the reason."""


def decode_source(data: bytes) -> str:
    """Decode `data` as Python source (PEP 263 cookie, BOM, else UTF-8); raise `SourceError`."""
    if data.startswith((codecs.BOM_UTF32_LE, codecs.BOM_UTF32_BE, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        raise SourceError(
            "file is UTF-16 or UTF-32 (byte order mark): Python source must be UTF-8 or an ASCII-compatible encoding"
        )
    if b"\0" in data:
        raise SourceError("file contains NUL bytes (binary file?)")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
        text = data.decode(encoding)
    except (SyntaxError, LookupError, UnicodeDecodeError) as error:
        raise SourceError(f"cannot decode file: {error}") from None
    return text[1:] if text.startswith("\ufeff") else text


def read_source(data: bytes, settings: Settings) -> str:
    """The source text of a file's bytes; raise `SourceError` for one spanlint cannot lint."""
    _check_size(len(data), settings.max_file_bytes)
    return decode_source(data)


def read_file(path: str, max_bytes: int) -> bytes:
    """The bytes of the regular file at `path`; raise `SourceError` for anything else.

    A FIFO, device or directory is refused without reading it (opening never blocks), and a file
    over `max_bytes` without loading it.
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
            return file.read()
        except OSError as error:
            raise SourceError(f"cannot read file: {error.strerror or error}") from None


def _check_size(size: int, max_bytes: int) -> None:
    if size > max_bytes:
        raise SourceError(f"file too large: {size:,} bytes, over the limit of {max_bytes:,} (max-file-bytes)")


def _file_kind(mode: int) -> str:
    kinds = {stat.S_ISDIR: "directory", stat.S_ISFIFO: "FIFO", stat.S_ISSOCK: "socket",
             stat.S_ISCHR: "character device", stat.S_ISBLK: "block device"}
    return next((kind for is_kind, kind in kinds.items() if is_kind(mode)), "unknown file type")
