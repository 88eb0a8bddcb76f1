"""``python -m app`` and the ``storplan`` console script: the same entry point (`app.cli.main`), with the cyclic
collector held (``app.quiet_start.hold``, which ``app.cli.main`` does first too) before the command line's modules
are imported: their import made the collector walk what was imported before it (callgrind of ``storplan evaluate
--json`` of the default example: 1,132 -> 1,123 million instructions)."""

import sys


def main() -> int:
    """``app.cli.main()`` on this process's command line, the collector held first (not in a frozen build: its entry
    script runs the evaluation's worker process before anything else, ``packaging/storplan_main.py``)."""
    if not getattr(sys, "frozen", False):
        from app import quiet_start

        quiet_start.hold()
    from app.cli import main as cli_main

    return cli_main()


if __name__ == "__main__":
    sys.exit(main())  # main() calls multiprocessing.freeze_support() first in a frozen build
