"""pyqtgraph's Qt mirror modules filled on first use (app.gui.lazy_qt_mirrors): the same PySide6 objects as
before, pyqtgraph still draws, and its import no longer creates every Qt class."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types

import pytest

from app.gui import lazy_qt_mirrors

_PROBE = textwrap.dedent("""
    import json, sys
    import app.gui  # installs the finder, as every GUI start does
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    import pyqtgraph as pg
    from pyqtgraph import Qt as pgqt
    import PySide6.QtCore, PySide6.QtGui, PySide6.QtWidgets
    before = sorted(vars(pgqt.QtWidgets))  # what pyqtgraph's import put into the mirror
    unused = "QCalendarWidget"  # a Qt class no StorPlan chart uses
    was_there = unused in vars(pgqt.QtWidgets)
    fetched = getattr(pgqt.QtWidgets, unused) is PySide6.QtWidgets.QCalendarWidget
    kept = unused in vars(pgqt.QtWidgets)
    pairs = [(pgqt.QtCore, PySide6.QtCore), (pgqt.QtGui, PySide6.QtGui), (pgqt.QtWidgets, PySide6.QtWidgets)]
    different = [f"{src.__name__}.{name}" for mirror, src in pairs for name in dir(src)
                 if getattr(mirror, name) is not getattr(src, name) and not name.startswith("__")]
    try:
        pgqt.QtCore.NoSuchQtName
        missing = "no error"
    except AttributeError as exc:
        missing = str(exc)
    plot = pg.PlotWidget()
    item = plot.plot([0, 1, 2], [3, 1, 2])
    plot.resize(200, 150)
    plot.show()
    app.processEvents()
    grabbed = plot.grab()
    print(json.dumps({"before": len(before), "was_there": was_there, "fetched": fetched, "kept": kept,
                      "different": different, "missing": missing, "version": pgqt.VERSION_INFO,
                      "mirror_dir": "QPointF" in dir(pgqt.QtCore), "data": list(map(float, item.yData)),
                      "grab": [grabbed.width(), grabbed.height()],
                      "finders": [type(f).__name__ for f in sys.meta_path]}))
""")


def test_pyqtgraph_reads_the_same_qt_objects_fetched_on_first_use(tmp_path):
    """In a fresh process started as the app starts (app.gui imported first): pyqtgraph's import leaves a class
    no chart uses out of its mirror; asked for, it is PySide6's own class and stays; every PySide6 name reads the
    same object through the mirrors; an unknown name is an AttributeError naming the mirror; a PlotWidget draws;
    the finder is gone afterwards."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STORPLAN_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    assert probe["was_there"] is False and probe["fetched"] is True and probe["kept"] is True
    assert probe["different"] == []
    assert "pyqtgraph.Qt.QtCore" in probe["missing"] and "NoSuchQtName" in probe["missing"]
    assert probe["version"].startswith("PySide6 ")
    assert probe["mirror_dir"] is True
    assert probe["data"] == [3.0, 1.0, 2.0] and probe["grab"] == [200, 150]
    assert "_MirrorFinder" not in probe["finders"]
    import PySide6.QtWidgets

    # the copy left out most of the module: far fewer names in the mirror than PySide6 offers
    assert probe["before"] < len(dir(PySide6.QtWidgets)) // 2


def test_a_lazy_mirror_forwards_and_keeps_what_it_fetched(monkeypatch):
    source = types.ModuleType("storplan_test_source")
    source.Answer = object()
    monkeypatch.setitem(sys.modules, source.__name__, source)
    mirror = types.ModuleType("storplan_test_mirror")
    mirror.Own = 1
    lazy_qt_mirrors.make_lazy(mirror, source.__name__)
    assert "Answer" not in vars(mirror)
    assert mirror.Answer is source.Answer and vars(mirror)["Answer"] is source.Answer
    assert mirror.Own == 1
    assert {"Answer", "Own"} <= set(dir(mirror))
    with pytest.raises(AttributeError, match="storplan_test_mirror.*Missing"):
        mirror.Missing  # noqa: B018


def test_pyqtgraphs_copy_sets_nothing_into_a_lazy_mirror():
    """pyqtgraph's own ``_copy_attrs`` (the eager copy) finds every name present and copies none; read outside
    the copy, a name is fetched."""
    import pyqtgraph.Qt
    import PySide6.QtCore

    mirror = types.ModuleType("storplan_test_qtcore_mirror")
    lazy_qt_mirrors.make_lazy(mirror, "PySide6.QtCore")
    pyqtgraph.Qt._copy_attrs(PySide6.QtCore, mirror)
    assert set(vars(mirror)) <= {"__name__", "__doc__", "__package__", "__loader__", "__spec__", "__getattr__",
                                 "__dir__"}
    assert mirror.QPointF is PySide6.QtCore.QPointF


def test_a_mirror_of_another_binding_is_left_as_it_is(monkeypatch, tmp_path):
    """pyqtgraph told to use another Qt binding (its QT_LIB, from PYQTGRAPH_QT_LIB): the mirror is loaded as it
    would be without StorPlan (no forwarding to PySide6)."""
    import importlib.util

    source = tmp_path / "mirror_probe.py"
    source.write_text("LOADED = True\n")
    spec = importlib.util.spec_from_file_location("storplan_test_mirror_probe", source)
    assert spec is not None and spec.loader is not None
    for lib, lazy in (("PyQt6", False), ("PySide6", True)):
        monkeypatch.setitem(sys.modules, "pyqtgraph.Qt", types.SimpleNamespace(QT_LIB=lib))
        module = importlib.util.module_from_spec(spec)
        lazy_qt_mirrors._MirrorLoader(spec.loader, "PySide6.QtCore").exec_module(module)
        assert module.LOADED is True
        assert ("__getattr__" in vars(module)) is lazy
