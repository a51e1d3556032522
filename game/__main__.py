"""`python -m game` reaches the same entry point as the `tessera` console script."""

import sys

from game.cli import main

sys.exit(main())
