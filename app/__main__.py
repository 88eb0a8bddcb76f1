"""``python -m app``: the same entry point as the ``storplan`` command (`app.cli.main`)."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())  # main() calls multiprocessing.freeze_support() first in a frozen build
