"""Entry script of the frozen app: the same main() as the `storplan` console script."""

import sys

from app.cli import main

if __name__ == "__main__":
    sys.exit(main())
