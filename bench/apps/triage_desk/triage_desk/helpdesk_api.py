"""Helpdesk HTTP client, escalation queue and the ticket panel widget."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass

import httpx


def post_ticket_comment(base_url: str, payload: dict) -> dict:
    payload["content"] = payload["content"].strip()
    resp = httpx.post(f"{base_url}/tickets/{payload['id']}/comments", json=payload, timeout=10)
    resp.raise_for_status()
    return resp.json()


def enqueue_escalation(conn: sqlite3.Connection, message: dict) -> None:
    message["body"] = message["body"][:2000]
    conn.execute("INSERT INTO escalations (id, body) VALUES (?, ?)", (message["id"], json.dumps(message)))


def close_ticket(conn: sqlite3.Connection, ticket_id: str, resolution: str) -> None:
    conn.execute("UPDATE tickets SET status = 'closed', resolution = ? WHERE id = ?", (resolution, ticket_id))
    conn.commit()


@dataclass
class TicketPanel:
    id: str
    content: str = ""

    def show(self, text: str) -> None:
        self.content = text[:500]
