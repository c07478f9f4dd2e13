"""`python -m interpreter` is the `cairn` command."""
import sys

from .cli.main import main

sys.exit(main())
