"""oai_desk: a support desk assistant built on the OpenAI Agents SDK."""

__version__ = "0.1.0"
