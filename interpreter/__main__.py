"""`python -m interpreter` is the `cairn` command."""
import sys

from .cli.main import cli

sys.exit(cli())
