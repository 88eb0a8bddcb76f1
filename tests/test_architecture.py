"""The model layer never imports the GUI: an import-linter contract (pyproject.toml) checked here."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_models_never_import_qt_or_app():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "models never imports the GUI KEPT" in result.stdout
