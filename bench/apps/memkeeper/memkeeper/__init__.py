"""memkeeper: local memory store mirroring Letta core/archival memory."""
