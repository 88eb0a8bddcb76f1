"""pyqtgraph's parts that StorPlan never uses, executed on first use instead of at pyqtgraph's import.

``import pyqtgraph`` runs its package ``__init__``, which imports every widget it offers. Four of its modules pull
in most of what the first chart does not need: ``pyqtgraph.widgets.ColorMapWidget``, ``DataFilterWidget`` and
``ScatterPlotWidget`` (each built on ``pyqtgraph.parametertree``, with ``pydoc`` and its interactive parameters
behind it), and ``pyqtgraph.multiprocess`` (``multiprocessing``, ``socket``, ``subprocess``; imported by
``RemoteGraphicsView``, which uses it only when a remote view is made). Together about 13% of the import's work
(callgrind: 460 -> 399 million instructions for ``import pyqtgraph`` after numpy and a ``QApplication``; 15-30 ms of
CPU on two cores), paid between the first window and the first chart. No StorPlan chart uses any of them. Since
2026-11-30 also the 26 item and widget modules that no chart draws and that none of the modules a chart runs imports
(``ColorBarItem``, ``DateAxisItem``, ``GraphicsLayoutWidget``, ``TableWidget``, ...; found by running every result
view with every module of pyqtgraph's ``__init__`` deferred and listing those never executed), and
``pyqtgraph.util.cprint`` (colorama's coloured terminal output for pyqtgraph's debug printing): 396 -> 367 million
instructions for the same import (callgrind, -7%).

:func:`install` (called when :mod:`app.gui` is imported, before anything imports pyqtgraph) adds an import finder
for those modules, active only while pyqtgraph's package is being imported: each is found as before (by the
usual finders, also in the frozen app) and put in ``sys.modules`` as a module that is not executed yet; the first
attribute asked of it executes it there, by its own loader (as ``importlib.util.LazyLoader`` does), and every
importer then sees the module as it always was. The one read that does not execute it is the star import
(``from .widgets.ColorMapWidget import *``) of pyqtgraph's own ``__init__``: it binds nothing, and the names it
would have bound (:data:`DEFERRED`) are fetched from the module, executed then, the first time ``pyqtgraph.<name>``
is read (a PEP 562 ``__getattr__`` on the package). ``RemoteGraphicsView`` keeps the not-yet-executed
``multiprocess`` module until a remote view asks it for a process. The finder removes itself once they are all
found; when pyqtgraph was imported before :func:`install` (or another pyqtgraph imports none of them) nothing is
deferred.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

DEFERRED: dict[str, tuple[str, ...]] = {
    "pyqtgraph.widgets.ColorMapWidget": ("ColorMapWidget", "ColorMapParameter"),
    "pyqtgraph.widgets.DataFilterWidget": ("DataFilterWidget",),
    "pyqtgraph.widgets.ScatterPlotWidget": ("ScatterPlotWidget",),
    "pyqtgraph.multiprocess": (),
    # no chart draws these items and widgets, and none of the modules a chart runs imports them
    "pyqtgraph.graphicsItems.BoxplotItem": ("BoxplotItem",),
    "pyqtgraph.graphicsItems.ColorBarItem": ("ColorBarItem",),
    "pyqtgraph.graphicsItems.CurvePoint": ("CurvePoint", "CurveArrow"),
    "pyqtgraph.graphicsItems.DateAxisItem": ("DateAxisItem",),
    "pyqtgraph.graphicsItems.GradientLegend": ("GradientLegend",),
    "pyqtgraph.graphicsItems.GraphItem": ("GraphItem",),
    "pyqtgraph.graphicsItems.GraphicsLayout": ("GraphicsLayout",),
    "pyqtgraph.graphicsItems.GridItem": ("GridItem",),
    "pyqtgraph.graphicsItems.IsocurveItem": ("IsocurveItem",),
    "pyqtgraph.graphicsItems.PColorMeshItem": ("PColorMeshItem",),
    "pyqtgraph.graphicsItems.ScaleBar": ("ScaleBar",),
    "pyqtgraph.graphicsItems.TargetItem": ("TargetItem", "TargetLabel"),
    "pyqtgraph.widgets.BusyCursor": ("BusyCursor",),
    "pyqtgraph.widgets.CheckTable": ("CheckTable",),
    "pyqtgraph.widgets.ComboBox": ("ComboBox",),
    "pyqtgraph.widgets.DataTreeWidget": ("DataTreeWidget",),
    "pyqtgraph.widgets.DiffTreeWidget": ("DiffTreeWidget",),
    "pyqtgraph.widgets.FeedbackButton": ("FeedbackButton",),
    "pyqtgraph.widgets.GraphicsLayoutWidget": ("GraphicsLayoutWidget",),
    "pyqtgraph.widgets.JoystickButton": ("JoystickButton",),
    "pyqtgraph.widgets.LayoutWidget": ("LayoutWidget",),
    "pyqtgraph.widgets.ProgressDialog": ("ProgressDialog",),
    "pyqtgraph.widgets.RawImageWidget": ("RawImageWidget", "RawImageGLWidget"),
    "pyqtgraph.widgets.TableWidget": ("TableWidget",),
    "pyqtgraph.widgets.ValueLabel": ("ValueLabel",),
    "pyqtgraph.widgets.VerticalLabel": ("VerticalLabel",),
    # coloured terminal output (with colorama) for pyqtgraph's debug printing, which imports it as a module
    "pyqtgraph.util.cprint": (),
}
"""The deferred modules -> the names pyqtgraph's ``__init__`` star-imports from each (their ``__all__``; none for a
module it does not star-import)."""

_LOCK = threading.RLock()

_PROBES = frozenset({"__path__", "__wrapped__"})
"""Names the import system (``__path__``: is it a package? a package's is in its dict) and PySide6's check of each
new module (``inspect.unwrap``: ``__wrapped__``) ask of a module, which the deferred modules do not define: answered
as missing without executing the module."""


def _pyqtgraph_initialising() -> bool:
    """True while the ``pyqtgraph`` package's ``__init__`` runs (its import not finished)."""
    package = sys.modules.get("pyqtgraph")
    return package is not None and bool(getattr(getattr(package, "__spec__", None), "_initializing", False))


def _from_pyqtgraph_init(frame: types.FrameType | None) -> bool:
    """True when ``frame`` is the module code of pyqtgraph's package ``__init__`` (its star imports)."""
    return (frame is not None and frame.f_code.co_name == "<module>"
            and frame.f_globals.get("__name__") == "pyqtgraph")


class DeferredModule(types.ModuleType):
    """A module found and created but not executed yet: the first attribute it lacks executes it (once, under a
    lock), after which it is a plain module. pyqtgraph's star import of it finds an empty ``__all__``. (As with
    ``importlib.util.LazyLoader`` in Python 3.11, another thread reading it while it executes may find it
    incomplete: pyqtgraph, like Qt's widgets, is used from the GUI thread only.)"""

    def __getattr__(self, name: str) -> Any:
        if name == "__all__" and _from_pyqtgraph_init(sys._getframe(1)):
            return []  # pyqtgraph's ``from .x import *``: nothing bound now; ``pyqtgraph.<name>`` fetches it later
        if name in _PROBES:  # asked of every module imported (not a package; not a wrapper): none of them has it
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")
        load(self)
        return getattr(self, name)


def load(module: types.ModuleType) -> types.ModuleType:
    """Execute a :class:`DeferredModule` in place by its own loader (nothing for any other module); returns it.
    An error of its code propagates, and the module stays deferred."""
    with _LOCK:
        if type(module) is not DeferredModule:
            return module
        spec = module.__spec__
        module.__class__ = types.ModuleType
        try:
            spec.loader.exec_module(module)  # type: ignore[union-attr]
        except BaseException:
            module.__class__ = DeferredModule
            raise
    return module


def _package_getattr(name: str) -> Any:
    """``pyqtgraph.<name>`` for a name its ``__init__`` star-imports from a deferred module: that module executed,
    the name kept in the package as the star import would have put it."""
    for module_name, names in DEFERRED.items():
        if name in names and module_name in sys.modules:
            value = getattr(load(sys.modules[module_name]), name)
            package = sys.modules["pyqtgraph"]
            package.__dict__.setdefault(name, value)
            return package.__dict__[name]
    raise AttributeError(f"module 'pyqtgraph' has no attribute {name!r}")


class _DeferredLoader:
    """Creates the module by the real loader, as a :class:`DeferredModule`, and executes nothing."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> types.ModuleType | None:
        return None  # the default module object (its class changed in exec_module)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__spec__.loader = self.loader  # type: ignore[union-attr]
        module.__loader__ = self.loader
        module.__class__ = DeferredModule
        package = sys.modules.get("pyqtgraph")
        if package is not None and "__getattr__" not in package.__dict__:
            package.__getattr__ = _package_getattr  # type: ignore[attr-defined]


class _DeferredFinder:
    """A meta path finder (``find_spec``) for the :data:`DEFERRED` modules while pyqtgraph's package is being
    imported: each found through the other finders, its loader wrapped; removes itself when all are found."""

    def __init__(self) -> None:
        self.pending = set(DEFERRED)

    def find_spec(self, fullname: str, path: Any, target: types.ModuleType | None = None) -> Any:
        if fullname not in self.pending or not _pyqtgraph_initialising():
            return None
        from app.gui.lazy_qt_mirrors import found_with_loader

        return found_with_loader(self, fullname, path, target, _DeferredLoader)


def install() -> bool:
    """Defer the :data:`DEFERRED` modules at the next import of pyqtgraph (see the module docstring).

    Returns True when the finder was added; False when pyqtgraph is imported already or the finder is in place.
    """
    if "pyqtgraph" in sys.modules or any(isinstance(f, _DeferredFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _DeferredFinder())
    return True
