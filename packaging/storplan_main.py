"""Entry script of the frozen app: the same main() as the `storplan` console script."""

import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    # The evaluation's worker process is this executable started again: freeze_support() runs it as the worker
    # (and returns at once in the app itself). It must come before anything else reads the command line.
    multiprocessing.freeze_support()
    sys.exit(main())
