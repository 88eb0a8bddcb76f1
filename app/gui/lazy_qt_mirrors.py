"""pyqtgraph's Qt mirror modules filled name by name on first use, instead of with every Qt class at its import.

pyqtgraph keeps its own "mirror" modules ``pyqtgraph.Qt.QtCore``, ``QtGui`` and ``QtWidgets`` (empty packages) and,
as ``pyqtgraph.Qt`` is imported, copies every name of ``PySide6.QtCore``, ``QtGui`` and ``QtWidgets`` into them
(its ``_copy_attrs``: ``for o in dir(src): if not hasattr(dst, o): setattr(dst, o, getattr(src, o))``).
PySide6 (6.7 and later) creates its Qt classes and their enums lazily, on first access; the copy asks for all of
them, about 1,500 classes and 600 Python enums: roughly two thirds of pyqtgraph's import (~120 ms CPU on two cores),
paid between the first window and the first chart. StorPlan's charts use a few dozen.

:func:`install` (called when :mod:`app.gui` is imported, before anything imports pyqtgraph) adds an import finder
for those three mirror modules only: each is loaded as before (found and executed by the usual finders, also in
the frozen app), then given a module ``__getattr__`` (PEP 562) that fetches a missing name from the PySide6 module
of the same name and keeps it, and a ``__dir__`` that lists both. During the copy, the mirror answers
``_copy_attrs``'s ``hasattr`` as present without fetching the class (the one caller recognised by its code
object), so the copy sets nothing and each name arrives on first use. Every name pyqtgraph (or anyone) reads
through a mirror is the PySide6 object itself, as before; pyqtgraph's own assignments to the mirrors (its Qt5
shims) are kept as they were. The finder removes itself once the three mirrors are loaded. With another pyqtgraph
whose import does not go this way, the mirrors still forward, and the copy simply fetches everything as before;
when pyqtgraph was told to use another Qt binding (``PYQTGRAPH_QT_LIB``), its mirrors are left as they are.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # annotations only: importlib.abc would import importlib.resources (~15 ms) before the first paint
    import importlib.machinery

MIRRORS = {
    "pyqtgraph.Qt.QtCore": "PySide6.QtCore",
    "pyqtgraph.Qt.QtGui": "PySide6.QtGui",
    "pyqtgraph.Qt.QtWidgets": "PySide6.QtWidgets",
}
"""pyqtgraph's mirror module -> the PySide6 module it mirrors."""

_PRESENT = object()
"""What a mirror answers ``_copy_attrs``'s ``hasattr`` with (discarded by ``hasattr``)."""


def _in_pyqtgraph_copy(frame: types.FrameType | None) -> bool:
    """True when ``frame`` runs pyqtgraph's ``pyqtgraph.Qt._copy_attrs`` (the eager copy of every Qt name)."""
    copy = getattr(sys.modules.get("pyqtgraph.Qt"), "_copy_attrs", None)
    return frame is not None and copy is not None and frame.f_code is getattr(copy, "__code__", None)


def make_lazy(mirror: types.ModuleType, source_name: str) -> None:
    """Give ``mirror`` a PEP 562 ``__getattr__`` / ``__dir__`` forwarding to the module ``source_name``.

    A name the mirror lacks is imported from the source module on first access and stored in the mirror; a name
    the source lacks raises ``AttributeError`` naming the mirror, as a plain module would.
    """
    lock = threading.Lock()

    def __getattr__(name: str) -> Any:  # noqa: N807 - the module attribute hook's own name
        if _in_pyqtgraph_copy(sys._getframe(1)):
            return _PRESENT  # the copy would create every Qt class: the name comes on first use instead
        source = sys.modules.get(source_name) or __import__(source_name, fromlist=["_"])
        try:
            value = getattr(source, name)
        except AttributeError:
            raise AttributeError(f"module {mirror.__name__!r} has no attribute {name!r}") from None
        with lock:
            mirror.__dict__.setdefault(name, value)
        return mirror.__dict__[name]

    def __dir__() -> list[str]:  # noqa: N807
        source = sys.modules.get(source_name)
        return sorted(set(mirror.__dict__) | set(dir(source) if source is not None else ()))

    mirror.__getattr__ = __getattr__  # type: ignore[method-assign]
    mirror.__dir__ = __dir__  # type: ignore[method-assign]


class _MirrorLoader:
    """Loads a mirror with its own loader, then makes it lazy (:func:`make_lazy`). (The import system's loader
    protocol: ``create_module`` and ``exec_module``; not derived from ``importlib.abc.Loader``, which would
    import ``importlib.resources`` at start.)"""

    def __init__(self, loader: Any, source_name: str) -> None:
        self.loader = loader
        self.source_name = source_name

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        self.loader.exec_module(module)
        # pyqtgraph has chosen its binding by now (its QT_LIB, set before the mirrors are imported): only a
        # PySide6 mirror forwards to PySide6; with another binding (PYQTGRAPH_QT_LIB) the mirror stays as it was
        if getattr(sys.modules.get("pyqtgraph.Qt"), "QT_LIB", None) == self.source_name.split(".")[0]:
            make_lazy(module, self.source_name)


class _MirrorFinder:
    """A meta path finder (``find_spec``): finds the three mirrors through the other finders and wraps their
    loader; removes itself when done."""

    def __init__(self) -> None:
        self.pending = set(MIRRORS)

    def find_spec(self, fullname: str, path: Any, target: types.ModuleType | None = None) -> Any:
        if fullname not in self.pending:
            return None
        return found_with_loader(self, fullname, path, target, lambda loader: _MirrorLoader(loader, MIRRORS[fullname]))


def found_with_loader(finder: Any, fullname: str, path: Any, target: types.ModuleType | None,
                      wrap: Any) -> Any:
    """The import hooks' common step (this module's and :mod:`app.gui.lazy_pyqtgraph_parts`' finders): ``fullname``
    taken off ``finder.pending`` (a set of module names; ``finder`` leaves ``sys.meta_path`` once it is empty), then
    found by the other meta path finders as Python would find it, its loader replaced by ``wrap(loader)`` when it
    executes modules (``exec_module``). Returns that spec, or None when no finder knows the name."""
    finder.pending.discard(fullname)
    if not finder.pending and finder in sys.meta_path:
        sys.meta_path.remove(finder)
    for other in list(sys.meta_path):
        if other is finder or not hasattr(other, "find_spec"):
            continue
        spec = other.find_spec(fullname, path, target)
        if spec is not None:
            if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                spec.loader = wrap(spec.loader)
            return spec
    return None


def install() -> bool:
    """Make pyqtgraph's Qt mirrors lazy for the next import of pyqtgraph (see the module docstring).

    Returns True when the finder was added; False when pyqtgraph's Qt layer is already imported (nothing to do:
    its mirrors are filled) or the finder is in place already.
    """
    if "pyqtgraph.Qt" in sys.modules or any(isinstance(f, _MirrorFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _MirrorFinder())
    return True
