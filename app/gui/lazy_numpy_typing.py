"""numpy's typing packages (``numpy._typing``, ``numpy.typing``) executed on first use, except the two names numpy's
and pyqtgraph's imports ask of them.

Inside ``import numpy``, ``numpy.linalg`` takes ``NDArray`` from ``numpy._typing`` for the annotations of its result
tuples, and ``import pyqtgraph`` imports ``numpy.typing`` for ``ArrayLike`` in the annotations of ``ImageItem``;
importing either package executes all of ``numpy._typing``'s modules, which build a few hundred ``typing`` unions,
literals and aliases for type checkers (callgrind, ``import numpy`` after the desktop app's start steps without its
docstrings: 178.6 -> 144.5 million instructions). Nothing StorPlan runs uses the others.

:func:`install` (called by :func:`app.gui.lazy_numpy_docs.defer_numpy_parts` at the main window's first paint,
before anything imports numpy) adds an import finder for those two packages: each is found as before (by the usual
finders, also in the frozen app) and put in ``sys.modules`` as a package whose ``__init__`` has not run
(:class:`LazyTypingPackage`). Asked for ``NDArray`` or ``ArrayLike``, it imports only ``numpy._typing._array_like``
(where both packages' own come from, with the three small modules that one imports) and hands out that same object;
asked for anything else, it runs its ``__init__`` in place by its own loader, after which it is the package a plain
import makes (the same objects: its ``__init__`` takes them from the modules already imported). When numpy was
imported before :func:`install`, nothing is deferred. First paint to first results drawn (bench_gui's start under
callgrind): 737 -> 701 million instructions.
"""

from __future__ import annotations

import importlib
import sys
import threading
import types
from typing import Any

SERVED: dict[str, dict[str, str]] = {
    "numpy._typing": {"NDArray": "numpy._typing._array_like", "ArrayLike": "numpy._typing._array_like"},
    "numpy.typing": {"NDArray": "numpy._typing._array_like", "ArrayLike": "numpy._typing._array_like"},
}
"""Per lazy package, the names it hands out from the module that defines them without running its ``__init__``
(the objects its ``__init__`` would bind: it imports them from there)."""

_LOCK = threading.RLock()


class LazyTypingPackage(types.ModuleType):
    """``numpy._typing`` or ``numpy.typing`` before its ``__init__`` ran: a :data:`SERVED` name comes from the module
    that defines it; any other missing name runs the ``__init__`` (once, under a lock), after which it is a plain
    package."""

    def __getattr__(self, name: str) -> Any:
        source = SERVED.get(self.__name__, {}).get(name)
        if source is not None:
            value = getattr(importlib.import_module(source), name)
            self.__dict__.setdefault(name, value)
            return self.__dict__[name]
        if name.startswith("__") and name.endswith("__") and name != "__all__":
            raise AttributeError(f"module {self.__name__!r} has no attribute {name!r}")  # a probe, not a use
        return getattr(load(self), name)


def load(module: types.ModuleType) -> types.ModuleType:
    """Run a :class:`LazyTypingPackage`'s ``__init__`` in place by its own loader (nothing for any other module);
    returns it. An error of its code propagates, and the package stays lazy."""
    with _LOCK:
        if type(module) is not LazyTypingPackage:
            return module
        module.__class__ = types.ModuleType
        try:
            module.__spec__.loader.exec_module(module)  # type: ignore[union-attr]
        except BaseException:
            module.__class__ = LazyTypingPackage
            raise
    return module


class _LazyLoader:
    """Creates the package by the real loader, as a :class:`LazyTypingPackage`, and runs nothing."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        module.__spec__.loader = self.loader  # type: ignore[union-attr]
        module.__loader__ = self.loader
        module.__class__ = LazyTypingPackage


class _TypingFinder:
    """A meta path finder (``find_spec``) for the :data:`SERVED` packages: each found through the other finders, its
    loader wrapped; removes itself once both are found."""

    def __init__(self) -> None:
        self.pending = set(SERVED)

    def find_spec(self, fullname: str, path: Any, target: types.ModuleType | None = None) -> Any:
        if fullname not in self.pending:
            return None
        from app.gui.lazy_qt_mirrors import found_with_loader

        return found_with_loader(self, fullname, path, target, _LazyLoader)


def install() -> bool:
    """Make ``numpy._typing`` and ``numpy.typing`` lazy at numpy's next import (see the module docstring). Returns
    True when the finder was added; False when numpy is imported already or the finder is in place."""
    if "numpy" in sys.modules or any(isinstance(f, _TypingFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _TypingFinder())
    return True
