"""A project file whose field breaks a limit is refused with the limit in words, as the GUI's field refusals say it:
``workload 'w' > name: At most 200 characters``, not pydantic's ``String should have at most 200 characters``."""

from __future__ import annotations

import subprocess
import sys

import pytest

from models.project import load
from models.project.textformat import ProjectFormatError
from models.resources import examples_dir

EXAMPLE = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"


def _broken(tmp_path, old: str, new: str):
    text = EXAMPLE.read_text(encoding="utf-8")
    assert old in text
    path = tmp_path / "broken.toml"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def test_a_name_too_long_reads_at_most_200_characters(tmp_path):
    path = _broken(tmp_path, 'name = "SLOB 75% SELECT / 25% UPDATE (Oracle)"', f'name = "{"x" * 300}"')
    with pytest.raises(ProjectFormatError) as info:
        load(path)
    text = str(info.value)
    assert "name: At most 200 characters" in text
    assert "String should" not in text
    out = subprocess.run([sys.executable, "-m", "app.cli", "evaluate", str(path)], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode != 0
    assert "At most 200 characters" in out.stderr and "String should" not in out.stderr


def test_an_empty_name_reads_cannot_be_empty(tmp_path):
    path = _broken(tmp_path, 'name = "SLOB 75% SELECT / 25% UPDATE (Oracle)"', 'name = ""')
    with pytest.raises(ProjectFormatError) as info:
        load(path)
    assert "name: Cannot be empty" in str(info.value)
