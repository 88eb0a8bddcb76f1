"""The version constant StorPlan prints (``storplan --version``, the About box) is the version pyproject.toml
declares, and the installed distribution's."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from importlib.metadata import version
from pathlib import Path

from app.version import __version__

ROOT = Path(__file__).resolve().parents[1]


def test_the_version_constant_is_pyproject_s_version():
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["version"]
    assert __version__ == declared


def test_the_version_constant_is_the_installed_distribution_s_version():
    installed = version("storplan")  # uv installs the project itself into its environment (README's commands)
    assert __version__ == installed


def test_storplan_version_prints_it_without_reading_package_metadata():
    """``storplan --version`` in a fresh interpreter: the line is the constant, and neither the package metadata
    reader nor multiprocessing (needed only by a frozen build's worker) was imported to print it."""
    probe = ("import sys\nfrom app.cli import main\ntry:\n    main(['--version'])\nexcept SystemExit:\n    pass\n"
             "print(sorted(m for m in ('importlib.metadata', 'multiprocessing', 'numpy', 'pydantic', 'PySide6') "
             "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60, cwd=ROOT)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert lines == [f"storplan {__version__}", "[]"]
