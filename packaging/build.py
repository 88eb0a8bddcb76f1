"""Build the one-folder StorPlan app with PyInstaller and print its size.

Usage: ``uv run python packaging/build.py [--dist DIR] [--work DIR]``. The app lands in ``DIR/storplan/``
(default ``dist/storplan``); run ``dist/storplan/storplan --version`` to check it.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def folder_size_bytes(path: Path) -> int:
    """Total size of the files under ``path`` (bytes)."""
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def build(dist: Path, work: Path) -> Path:
    """Run PyInstaller on packaging/storplan.spec; returns the app folder.

    Raises:
        SystemExit: PyInstaller failed (its own message is printed above).
    """
    import PyInstaller.__main__

    PyInstaller.__main__.run(
        [
            str(ROOT / "packaging" / "storplan.spec"),
            "--noconfirm",
            "--clean",
            "--log-level=WARN",
            "--distpath",
            str(dist),
            "--workpath",
            str(work),
        ]
    )
    return dist / "storplan"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--work", type=Path, default=ROOT / "build")
    args = parser.parse_args(argv)
    start = time.perf_counter()
    app = build(args.dist.resolve(), args.work.resolve())
    size = folder_size_bytes(app)
    exe = app / ("storplan.exe" if os.name == "nt" else "storplan")
    print(f"built {exe} in {time.perf_counter() - start:.0f} s; folder size {size / 1e6:.0f} MB ({size / 2**20:.0f} MiB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
