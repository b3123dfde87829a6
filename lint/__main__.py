"""`python -m spanlint`: the `spanlint` command."""

from spanlint.cli import script

script()
