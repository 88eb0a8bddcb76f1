"""Hostile and damaged project files opened in the window: the same reproducers as the command line's
(``tests/test_cli_hostile.py``) each give one message box naming the file and the problem, within 2 s, and leave
both the file and the window's project as they were."""

from __future__ import annotations

import hashlib
import sys
import time
from pathlib import Path

import pytest

from app.gui import plain_text

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from test_cli_hostile import HOSTILE


@pytest.mark.parametrize("case", list(HOSTILE))
def test_hostile_file_gets_a_dialog_naming_the_problem(case, window, tmp_path, monkeypatch):
    make, words = HOSTILE[case]
    path = make(tmp_path)
    before_file = hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns
    window.document.drop_entry("netapp-aff8080a-ex", 0, 0)
    before_project, title = window.document.project, window.windowTitle()
    shown: list[tuple[str, str]] = []
    monkeypatch.setattr(plain_text, "show_warning", lambda parent, heading, text: shown.append((heading, text)))
    start = time.monotonic()
    assert not window.load(path, wait=True)
    elapsed = time.monotonic() - start
    assert len(shown) == 1, shown
    heading, text = shown[0]
    assert heading == "Cannot open project"
    assert path.name in text
    for word in words:
        assert word in text, text
    assert "Traceback" not in text
    assert elapsed < 2.0, f"took {elapsed:.2f} s"
    assert window.document.project is before_project and window.windowTitle() == title
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before_file
