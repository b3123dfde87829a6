"""sqlite persistence for spans, embeddings, holders, sessions and the job table."""

from __future__ import annotations

import array
import json
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator, Optional, Sequence

from tessera.records import Span, SpanKey, content_digest

SCHEMA = """
CREATE TABLE IF NOT EXISTS spans (
    span_id       TEXT PRIMARY KEY,
    content       TEXT NOT NULL,
    role          TEXT NOT NULL DEFAULT 'user',
    version       INTEGER NOT NULL DEFAULT 0,
    content_hash  TEXT NOT NULL,
    produced_by   TEXT NOT NULL DEFAULT 'ingest',
    parents       TEXT NOT NULL DEFAULT '[]',
    created_at    REAL NOT NULL,
    tombstoned_at REAL
);
CREATE TABLE IF NOT EXISTS embeddings (
    span_id      TEXT NOT NULL,
    version      INTEGER NOT NULL,
    content_hash TEXT NOT NULL,
    model        TEXT NOT NULL,
    vector       BLOB NOT NULL,
    created_at   REAL NOT NULL,
    PRIMARY KEY (span_id, version, content_hash, model)
);
CREATE TABLE IF NOT EXISTS holders (
    holder_id TEXT NOT NULL,
    span_id   TEXT NOT NULL,
    kind      TEXT NOT NULL,
    PRIMARY KEY (holder_id, span_id)
);
CREATE TABLE IF NOT EXISTS sessions (
    id         TEXT PRIMARY KEY,
    title      TEXT NOT NULL DEFAULT '',
    updated_at REAL NOT NULL
);
CREATE TABLE IF NOT EXISTS jobs (
    job_id      TEXT PRIMARY KEY,
    kind        TEXT NOT NULL,
    state       TEXT NOT NULL,
    payload     TEXT NOT NULL DEFAULT '{}',
    finished_at REAL
);
CREATE INDEX IF NOT EXISTS spans_tomb ON spans (tombstoned_at);
"""


class ConcurrentRewrite(RuntimeError):
    pass


class SpanStore:
    def __init__(self, path: str | Path) -> None:
        self._conn = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._conn.row_factory = sqlite3.Row
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.executescript(SCHEMA)

    @contextmanager
    def tx(self) -> Iterator[sqlite3.Connection]:
        self._conn.execute("BEGIN IMMEDIATE")
        try:
            yield self._conn
        except BaseException:
            self._conn.execute("ROLLBACK")
            raise
        else:
            self._conn.execute("COMMIT")

    @staticmethod
    def _row_to_span(row: sqlite3.Row) -> Span:
        return Span(
            span_id=row["span_id"],
            content=row["content"],
            role=row["role"],
            version=row["version"],
            content_hash=row["content_hash"],
            produced_by=row["produced_by"],
            parents=tuple(json.loads(row["parents"])),
            created_at=row["created_at"],
            tombstoned_at=row["tombstoned_at"],
        )

    def save(self, span: Span) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO spans (span_id, content, role, version, content_hash,"
                " produced_by, parents, created_at, tombstoned_at) VALUES (?,?,?,?,?,?,?,?,?)",
                (
                    span.span_id,
                    span.content,
                    span.role,
                    span.version,
                    span.content_hash,
                    span.produced_by,
                    json.dumps(list(span.parents)),
                    span.created_at,
                    span.tombstoned_at,
                ),
            )

    def load(self, span_id: str) -> Optional[Span]:
        row = self._conn.execute("SELECT * FROM spans WHERE span_id = ?", (span_id,)).fetchone()
        return self._row_to_span(row) if row else None

    def load_many(self, span_ids: Sequence[str]) -> list[Span]:
        marks = ",".join("?" * len(span_ids))
        rows = self._conn.execute(f"SELECT * FROM spans WHERE span_id IN ({marks})", tuple(span_ids))
        return [self._row_to_span(r) for r in rows]

    def rewrite(self, span_id: str, content: str, *, expected_version: int, op: str) -> int:
        with self.tx() as c:
            cur = c.execute(
                "UPDATE spans SET content = ?, content_hash = ?, version = version + 1,"
                " produced_by = ? WHERE span_id = ? AND version = ?",
                (content, content_digest(content), f"rewrite:{op}", span_id, expected_version),
            )
            if cur.rowcount != 1:
                raise ConcurrentRewrite(f"{span_id} moved past version {expected_version}")
        return expected_version + 1

    def set_content(self, span_id: str, content: str) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE spans SET content = ?, content_hash = ? WHERE span_id = ?",
                (content, content_digest(content), span_id),
            )

    def tombstone(self, span_id: str, at: Optional[float] = None) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE spans SET tombstoned_at = ? WHERE span_id = ? AND tombstoned_at IS NULL",
                (at or time.time(), span_id),
            )

    def delete(self, span_id: str) -> None:
        with self.tx() as c:
            c.execute("DELETE FROM spans WHERE span_id = ?", (span_id,))

    def vacuum_tombstones(self, older_than_s: float = 7 * 86_400) -> int:
        cutoff = time.time() - older_than_s
        with self.tx() as c:
            cur = c.execute(
                "DELETE FROM spans WHERE tombstoned_at IS NOT NULL AND tombstoned_at < ?",
                (cutoff,),
            )
            return cur.rowcount

    # -- embeddings -------------------------------------------------------------

    def put_embedding(self, key: SpanKey, model: str, vector: Sequence[float]) -> None:
        blob = array.array("f", vector).tobytes()
        with self.tx() as c:
            c.execute(
                "INSERT OR REPLACE INTO embeddings (span_id, version, content_hash, model, vector,"
                " created_at) VALUES (?,?,?,?,?,?)",
                (key.span_id, key.version, key.content_hash, model, blob, time.time()),
            )

    def get_embedding(self, key: SpanKey, model: str) -> Optional[list[float]]:
        row = self._conn.execute(
            "SELECT vector FROM embeddings WHERE span_id = ? AND version = ? AND content_hash = ?"
            " AND model = ?",
            (key.span_id, key.version, key.content_hash, model),
        ).fetchone()
        if row is None:
            return None
        return array.array("f", row["vector"]).tolist()

    # -- holders ----------------------------------------------------------------

    def hold(self, holder_id: str, span_id: str, kind: str) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT OR IGNORE INTO holders (holder_id, span_id, kind) VALUES (?,?,?)",
                (holder_id, span_id, kind),
            )

    def release(self, holder_id: str) -> None:
        with self.tx() as c:
            c.execute("DELETE FROM holders WHERE holder_id = ?", (holder_id,))

    # -- sessions / jobs --------------------------------------------------------

    def rename_session(self, session_id: str, title: str) -> None:
        with self.tx() as c:
            c.execute(
                "UPDATE sessions SET title = ?, updated_at = ? WHERE id = ?",
                (title.strip()[:200], time.time(), session_id),
            )

    def enqueue_job(self, job_id: str, kind: str, payload: dict) -> None:
        with self.tx() as c:
            c.execute(
                "INSERT INTO jobs (job_id, kind, state, payload) VALUES (?,?,'queued',?)",
                (job_id, kind, json.dumps(payload)),
            )

    def purge_jobs(self, older_than_s: float = 3 * 86_400) -> int:
        cutoff = time.time() - older_than_s
        with self.tx() as c:
            cur = c.execute(
                "DELETE FROM jobs WHERE state IN ('done', 'failed') AND finished_at < ?",
                (cutoff,),
            )
            return cur.rowcount

    def close(self) -> None:
        self._conn.close()
