"""Research-notes assistant built on CAMEL."""

__version__ = "0.3.1"
