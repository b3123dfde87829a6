"""Tools the agent can call."""

from __future__ import annotations

import httpx
from langchain_core.tools import tool

HELPDESK = "https://helpdesk.example.com/api/v2"


@tool
def lookup_order(order_id: str) -> str:
    """Look up an order's status by id."""
    r = httpx.get(f"{HELPDESK}/orders/{order_id}", timeout=10)
    r.raise_for_status()
    order = r.json()
    return f"Order {order['id']}: {order['status']} (shipped {order.get('shipped_at', 'n/a')})"


@tool
def escalate(ticket_id: str, note: str) -> str:
    """Escalate a ticket to a human agent with a note."""
    ticket = httpx.get(f"{HELPDESK}/tickets/{ticket_id}", timeout=10).json()
    ticket["body"] = ticket["body"] + "\n\n[escalated] " + note
    ticket["version"] = ticket.get("version", 0)
    httpx.put(f"{HELPDESK}/tickets/{ticket_id}", json=ticket, timeout=10)
    return f"Ticket {ticket_id} escalated."


TOOLS = [lookup_order, escalate]
