"""``python -m app``: the same entry point as the ``storplan`` command (`app.cli.main`)."""

import sys

from app.cli import main

sys.exit(main())
