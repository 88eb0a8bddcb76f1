import multiprocessing
import sys

from app.cli import main

if __name__ == "__main__":
    multiprocessing.freeze_support()  # a frozen build's worker process starts here
    sys.exit(main())
