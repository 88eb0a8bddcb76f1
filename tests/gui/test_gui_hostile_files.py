"""Hostile and damaged project files opened in the window: the same reproducers as the command line's
(``tests/test_cli_hostile.py``) each give one message box naming the file and the problem (refused from what the file
holds, never by the read's time budget), and leave both the file and the window's project as they were."""

from __future__ import annotations

import hashlib
import sys
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
    from models.store import files

    rows_read: list[str] = []
    real_read_project = files.codec.read_project
    monkeypatch.setattr(files.codec, "read_project",
                        lambda *a, **k: rows_read.append(case) or real_read_project(*a, **k))
    assert not window.load(path, wait=True)
    # the rows of a .storplan are read only when a row is what is refused (the schema and header come first)
    assert rows_read == ([case] if case == "x = inf in a .storplan row" else []), rows_read
    assert len(shown) == 1, shown
    heading, text = shown[0]
    assert heading == "Cannot open project"
    assert path.name in text
    for word in words:
        assert word in text, text
    assert "Traceback" not in text
    assert "could not be read within" not in text, "refused by the read's time budget, not from what the file holds"
    assert window.document.project is before_project and window.windowTitle() == title
    assert (hashlib.sha256(path.read_bytes()).hexdigest(), path.stat().st_mtime_ns) == before_file
