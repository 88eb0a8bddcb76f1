"""pyqtgraph's parts no chart uses run on first use (app.gui.lazy_pyqtgraph_parts): not executed by pyqtgraph's
import, the same objects as before once asked for, and pyqtgraph still draws."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import types

import pytest

from app.gui import lazy_pyqtgraph_parts

_PROBE = textwrap.dedent("""
    import json, sys
    from app.gui import prepare_process
    prepare_process()  # as every GUI start does: the finders installed, PySide6's source scan stopped
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    heavy = ("pyqtgraph.parametertree", "multiprocessing", "socket", "pydoc", "colorama")
    before = [name for name in heavy if name in sys.modules]
    import pyqtgraph as pg
    after_import = [name for name in heavy if name in sys.modules]
    kinds = {name: type(sys.modules[name]).__name__ for name in sorted(__import__(
        "app.gui.lazy_pyqtgraph_parts", fromlist=["_"]).DEFERRED)}
    finders = [type(f).__name__ for f in sys.meta_path]
    plot = pg.PlotWidget()
    item = plot.plot([0, 1, 2], [3, 1, 2])
    plot.resize(200, 150)
    plot.show()
    app.processEvents()
    grabbed = plot.grab()
    after_plot = [name for name in heavy if name in sys.modules]
    from pyqtgraph.widgets.ColorMapWidget import ColorMapWidget
    from pyqtgraph.widgets.RemoteGraphicsView import mp
    import pyqtgraph.multiprocess
    same = [pg.ColorMapWidget is ColorMapWidget, mp is pyqtgraph.multiprocess,
            pg.ColorMapParameter.__module__ == "pyqtgraph.widgets.ColorMapWidget",
            pg.DataFilterWidget.__name__ == "DataFilterWidget", pg.ScatterPlotWidget.__name__ == "ScatterPlotWidget",
            hasattr(pyqtgraph.multiprocess, "QtProcess")]
    widget = pg.ScatterPlotWidget()
    deferred = __import__("app.gui.lazy_pyqtgraph_parts", fromlist=["_"]).DEFERRED
    names_kept = all(getattr(pg, name) is getattr(sys.modules[module], name)
                     for module, names in deferred.items() for name in names)
    public = sorted(name for name in dir(pg) if not name.startswith("_"))
    import pyqtgraph.util.cprint
    cprint_works = callable(pyqtgraph.util.cprint.cprint) and "colorama" in sys.modules
    try:
        pg.NoSuchName
        missing = "no error"
    except AttributeError as exc:
        missing = str(exc)
    print(json.dumps({"before": before, "after_import": after_import, "after_plot": after_plot, "kinds": kinds,
                      "finders": finders, "data": list(map(float, item.yData)),
                      "grab": [grabbed.width(), grabbed.height()], "same": same, "missing": missing,
                      "all_kinds": sorted({type(sys.modules[n]).__name__ for n in kinds}),
                      "widget": type(widget).__name__, "names_kept": names_kept, "public": public,
                      "cprint": cprint_works}))
""")

_PLAIN = textwrap.dedent("""
    import json, sys
    from PySide6.QtWidgets import QApplication
    app = QApplication(sys.argv[:1])
    import pyqtgraph as pg  # app.gui not imported: nothing deferred
    print(json.dumps(sorted(name for name in dir(pg) if not name.startswith("_"))))
""")


def test_pyqtgraph_imports_without_its_unused_parts_and_they_work_when_asked_for(tmp_path):
    """In a fresh process started as the app starts: pyqtgraph's import leaves the deferred parts unexecuted (no
    parametertree, multiprocessing, socket, pydoc or colorama), a PlotWidget draws without them; asked for, through
    the package or their own modules, they are the real classes and modules, and the package offers the same names
    as a plain import of pyqtgraph; the finder is gone."""
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen", "STORPLAN_HOME": str(tmp_path / "home")}
    done = subprocess.run([sys.executable, "-c", _PROBE], capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    probe = json.loads(done.stdout.strip().splitlines()[-1])
    plain = subprocess.run([sys.executable, "-c", _PLAIN], capture_output=True, text=True, env=env, timeout=120)
    assert plain.returncode == 0, plain.stderr[-2000:]
    plain_public = json.loads(plain.stdout.strip().splitlines()[-1])
    assert probe["before"] == [] and probe["after_import"] == [] and probe["after_plot"] == []
    assert set(probe["kinds"].values()) == {"DeferredModule"}
    assert "_DeferredFinder" not in probe["finders"]
    assert probe["data"] == [3.0, 1.0, 2.0] and probe["grab"] == [200, 150]
    assert probe["same"] == [True] * 6
    assert probe["all_kinds"] == ["module"]
    assert probe["widget"] == "ScatterPlotWidget"
    assert "pyqtgraph" in probe["missing"] and "NoSuchName" in probe["missing"]
    # every name pyqtgraph's import binds is there once asked for (the deferred ones: their modules' own objects)
    assert probe["names_kept"] is True and probe["cprint"] is True
    assert probe["public"] == plain_public and "ColorBarItem" in plain_public


def test_a_deferred_module_runs_once_on_first_use(tmp_path, monkeypatch):
    """The loader creates the module unexecuted; the first attribute it lacks executes it by its own loader, the
    import system's probes (``__path__``, ``__wrapped__``) do not; an error of its code leaves it deferred."""
    import importlib.util

    source = tmp_path / "deferred_probe.py"
    source.write_text("import sys\nRUNS = sys.modules[__name__].__dict__.get('RUNS', 0) + 1\nVALUE = 42\n")
    spec = importlib.util.spec_from_file_location("storplan_test_deferred_probe", source)
    assert spec is not None and spec.loader is not None
    spec.loader = lazy_pyqtgraph_parts._DeferredLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, spec.name, module)
    spec.loader.exec_module(module)
    assert type(module) is lazy_pyqtgraph_parts.DeferredModule and "VALUE" not in vars(module)
    for probe in ("__path__", "__wrapped__"):
        assert not hasattr(module, probe)
    assert "VALUE" not in vars(module)
    assert module.VALUE == 42 and module.RUNS == 1 and type(module) is types.ModuleType
    assert lazy_pyqtgraph_parts.load(module).RUNS == 1  # never twice

    broken = tmp_path / "deferred_broken.py"
    broken.write_text("raise RuntimeError('broken part')\n")
    spec = importlib.util.spec_from_file_location("storplan_test_deferred_broken", broken)
    assert spec is not None and spec.loader is not None
    spec.loader = lazy_pyqtgraph_parts._DeferredLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    with pytest.raises(RuntimeError, match="broken part"):
        module.ANYTHING  # noqa: B018
    assert type(module) is lazy_pyqtgraph_parts.DeferredModule


def test_nothing_is_deferred_outside_pyqtgraphs_import(monkeypatch):
    """The finder answers only for the deferred modules, and only while pyqtgraph's package is being imported."""
    finder = lazy_pyqtgraph_parts._DeferredFinder()
    monkeypatch.delitem(sys.modules, "pyqtgraph", raising=False)
    assert finder.find_spec("pyqtgraph.multiprocess", None) is None
    package = types.ModuleType("pyqtgraph")
    package.__spec__ = types.SimpleNamespace(_initializing=False)
    monkeypatch.setitem(sys.modules, "pyqtgraph", package)
    assert finder.find_spec("pyqtgraph.multiprocess", None) is None
    package.__spec__ = types.SimpleNamespace(_initializing=True)
    assert finder.find_spec("json", None) is None
    assert finder.pending == set(lazy_pyqtgraph_parts.DEFERRED)
