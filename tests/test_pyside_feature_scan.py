"""PySide6 reads the source of every module imported after it (its ``__feature__`` check) unless the start-up stops
it (:func:`app.gui.skip_feature_scan`, issue 27); Qt keeps working for modules imported after that."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

_PROBE = textwrap.dedent("""
    import inspect, json, sys
    import PySide6.QtCore
    read = []
    real = inspect.getsource
    inspect.getsource = lambda obj, *a, **k: (read.append(getattr(obj, "__name__", "?")), real(obj, *a, **k))[1]
    import colorsys  # imported after PySide6, before the scan is stopped: its source is read
    from app.gui import skip_feature_scan
    before = list(read)
    stopped = skip_feature_scan()
    read.clear()
    import wave  # after: not read
    sys.path.insert(0, sys.argv[1])
    import probe_uses_qt  # a module of ours using Qt, imported after
    from PySide6.QtWidgets import QApplication
    app = QApplication([])
    marks = sys.modules["PySide6.support.feature"].pyside_feature_dict
    print(json.dumps({"before": before, "stopped": stopped, "after": read, "wave": marks.get("wave"),
                      "colorsys": marks.get("colorsys"), "label": probe_uses_qt.label_text(),
                      "aligned": probe_uses_qt.aligned()}))
""")

_QT_MODULE = textwrap.dedent("""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QLabel


    def label_text():
        label = QLabel("StorPlan")
        label.setAlignment(Qt.AlignmentFlag.AlignRight)
        return label.text()


    def aligned():
        return bool(QLabel("x").alignment() & Qt.AlignmentFlag.AlignLeft)
""")


def test_modules_imported_after_the_scan_is_stopped_are_not_read_and_qt_still_works(tmp_path):
    (tmp_path / "probe_uses_qt.py").write_text(_QT_MODULE, encoding="utf-8")
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", _PROBE, str(tmp_path)], capture_output=True, text=True, timeout=60,
                          env=env)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert "colorsys" in probe["before"]  # what PySide6 does by itself: the check this skips is real
    assert probe["colorsys"] == -1  # colorsys does not mention PySide6
    assert probe["stopped"] is True
    assert probe["after"] == []  # neither wave nor our Qt module was read
    assert probe["wave"] == -1
    assert probe["label"] == "StorPlan" and probe["aligned"] is True


def test_nothing_changes_without_pyside6_s_feature_module(monkeypatch):
    from app.gui import skip_feature_scan

    monkeypatch.setitem(sys.modules, "PySide6.support.feature", None)
    assert skip_feature_scan() is False
