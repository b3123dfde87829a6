"""`python -m lint`: the `spanlint` command."""

from lint.cli import main

main()
