"""triage_desk: an IT-support triage agent."""

__all__ = ["agent", "spans", "compaction", "summary"]
