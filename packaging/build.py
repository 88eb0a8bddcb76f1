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


PACKAGE_OF = {"scipy.libs": "scipy", "numpy.libs": "numpy", "pillow.libs": "Pillow", "PIL": "Pillow",
              "shiboken6": "PySide6 (Qt)", "PySide6": "PySide6 (Qt)", "resources": "StorPlan resources"}
"""Top-level entries of the app's ``_internal`` folder that belong to a package under another name."""


def package_of(name: str) -> str:
    """The package a top-level entry of the app folder belongs to (a row of :func:`package_table`)."""
    if name in PACKAGE_OF:
        return PACKAGE_OF[name]
    if name.startswith(("libpython", "python3", "base_library.zip")):
        return "Python runtime"
    if name.endswith((".dist-info", ".egg-info")):
        return "package metadata"
    if name.startswith("lib") and (".so" in name or name.endswith((".dylib", ".dll"))):
        return "system libraries"
    if name.endswith((".dll", ".pyd", ".so")) or ".so." in name:
        return "other libraries"
    return name


def package_table(app: Path) -> list[tuple[str, int, int]]:
    """What the app folder holds by package: (package, bytes, files), largest first. The executable (the
    bootloader with every Python module, compressed) is its own row; links count where their target lives."""
    base = app / "_internal" if (app / "_internal").is_dir() else app
    rows: dict[str, list[int]] = {}
    entries = [(entry, package_of(entry.name)) for entry in base.iterdir()]
    entries += [(entry, f"{entry.name} (executable and Python modules)") for entry in app.iterdir()
                if base != app and entry.is_file()]
    for entry, package in entries:
        if entry.is_symlink():
            continue
        files = [entry] if entry.is_file() else [f for f in entry.rglob("*") if f.is_file() and not f.is_symlink()]
        row = rows.setdefault(package, [0, 0])
        row[0] += sum(f.stat().st_size for f in files)
        row[1] += len(files)
    return sorted(((name, size, count) for name, (size, count) in rows.items()), key=lambda row: -row[1])


def largest_files(app: Path, top: int = 10) -> list[tuple[str, int]]:
    """The ``top`` largest files of the app folder: (path relative to it, bytes), largest first."""
    files = [f for f in app.rglob("*") if f.is_file() and not f.is_symlink()]
    files.sort(key=lambda f: -f.stat().st_size)
    return [(str(f.relative_to(app)), f.stat().st_size) for f in files[:top]]


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
    print(f"built {exe} in {time.perf_counter() - start:.0f} s; folder size {size / 1e6:.0f} MB "
          f"({size / 2**20:.0f} MiB)")
    print(f"{'package':<44} {'MB':>7} {'files':>6}")
    for name, part, count in package_table(app):
        print(f"{name:<44} {part / 1e6:7.1f} {count:6d}")
    print("largest files:")
    for name, part in largest_files(app):
        print(f"  {part / 1e6:6.1f} MB  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
