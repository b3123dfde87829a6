"""Casebook: a support-desk research assistant built on Strands Agents."""

__version__ = "0.3.0"
