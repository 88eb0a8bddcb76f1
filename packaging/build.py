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


def size_table(app: Path, top: int = 15) -> list[tuple[str, int]]:
    """The app folder's largest parts: (top-level entry of its ``_internal`` folder, or the folder itself,
    bytes), largest first, at most ``top`` rows plus an "other" row."""
    base = app / "_internal" if (app / "_internal").is_dir() else app
    sizes = []
    for entry in base.iterdir():
        if entry.is_symlink():  # a link to a library counted where it lives
            continue
        size = folder_size_bytes(entry) if entry.is_dir() else (entry.stat().st_size if entry.is_file() else 0)
        sizes.append((entry.name, size))
    sizes.sort(key=lambda item: -item[1])
    rest = sum(size for _, size in sizes[top:])
    return sizes[:top] + ([("other", rest)] if rest else [])


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
    print("largest parts:")
    for name, part in size_table(app):
        print(f"  {part / 1e6:8.1f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
