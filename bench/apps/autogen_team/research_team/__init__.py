"""Research-assistant team built on AutoGen AgentChat.

A researcher, a critic and a writer share a note store. Notes are the unit of
evidence: they are embedded, cited by character offset, compacted, summarized
and eventually garbage-collected once tombstoned.
"""

__version__ = "0.3.0"
