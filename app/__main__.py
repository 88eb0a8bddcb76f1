"""``python -m app``: the same entry point as the ``storplan`` command (`app.cli.main`)."""

import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen build's worker process starts here
    sys.exit(main())
