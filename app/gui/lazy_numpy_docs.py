"""numpy's docstrings attached once the first results are drawn, instead of at numpy's import.

``import numpy`` executes ``numpy._core._add_newdocs`` and ``numpy._core._add_newdocs_scalars``: modules that only
attach documentation (and the ``__text_signature__`` line at its head) to the objects numpy defines in C, each text
cleaned by ``inspect.cleandoc`` in Python. That is about a quarter of numpy's import (callgrind, ``import numpy``
after the desktop app's start steps: 235 -> 179 million instructions without them), paid between the first window
and the first results, and nothing StorPlan computes or shows reads a docstring.

:func:`install` (called by :func:`defer_numpy_parts` at the main window's first paint, before anything
imports numpy) adds an import finder for those two modules: each is found as before (by the usual finders, also in
the frozen app) and put in ``sys.modules`` without being executed; :func:`attach` executes them, by their own
loaders, in the modules numpy holds: :func:`app.gui.release_after_first_results` calls it on the event-loop turn
after the first results are delivered (a zero timer: after the paint they asked for), or after the collector's
release that comes without them. From then on numpy's objects carry their documentation exactly as after a plain
import (``tests/gui/test_lazy_numpy_docs.py`` compares over a thousand), and a later first import of numpy executes
them at once. While held, numpy's C objects have no docstring: one read then gets None (and numpy's ``dtype`` and
boolean scalar type keep None after :func:`attach`, as numpy's ``add_docstring`` will not replace a type's
``__doc__`` once read); nothing StorPlan runs before the first results reads one. When numpy was imported before
:func:`install`, nothing is deferred.
"""

from __future__ import annotations

import sys
import threading
import types
from typing import Any

DEFERRED = ("numpy._core._add_newdocs", "numpy._core._add_newdocs_scalars")
"""numpy's documentation modules, in the order numpy's ``numpy._core`` imports them."""

_held: list[tuple[types.ModuleType, Any]] = []
"""(module, its real loader) of each deferred module found and not executed yet, in import order."""
_lock = threading.Lock()
_attached = False
"""True once :func:`attach` ran: a documentation module imported later is executed at once."""


class _HeldLoader:
    """Keeps the module unexecuted until :func:`attach` (executes it at once after that)."""

    def __init__(self, loader: Any) -> None:
        self.loader = loader

    def create_module(self, spec: Any) -> types.ModuleType | None:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        with _lock:
            if not _attached:
                _held.append((module, self.loader))
                return
        self.loader.exec_module(module)


class _DocsFinder:
    """A meta path finder (``find_spec``) for the :data:`DEFERRED` modules: each found through the other finders,
    its loader wrapped; removes itself when both are found."""

    def __init__(self) -> None:
        self.pending = set(DEFERRED)

    def find_spec(self, fullname: str, path: Any, target: types.ModuleType | None = None) -> Any:
        if fullname not in self.pending:
            return None
        from app.gui.lazy_qt_mirrors import found_with_loader

        return found_with_loader(self, fullname, path, target, _HeldLoader)


def install() -> bool:
    """Defer numpy's documentation modules at its next import (see the module docstring). Returns True when the
    finder was added; False when numpy is imported already or the finder is in place."""
    if "numpy" in sys.modules or any(isinstance(f, _DocsFinder) for f in sys.meta_path):
        return False
    sys.meta_path.insert(0, _DocsFinder())
    return True


def attach() -> int:
    """Execute the documentation modules held so far (numpy's objects get their docstrings) and stop holding any:
    returns how many were executed. Idempotent; the finder leaves ``sys.meta_path``."""
    global _attached
    with _lock:
        _attached = True
        held, _held[:] = list(_held), []
    for finder in [f for f in sys.meta_path if isinstance(f, _DocsFinder)]:
        sys.meta_path.remove(finder)
    for module, loader in held:
        loader.exec_module(module)
    return len(held)


def defer_numpy_parts() -> None:
    """numpy's documentation modules held until the first results are drawn (this module) and its typing packages
    run on first use (:mod:`app.gui.lazy_numpy_typing`), for its next import (nothing when numpy is imported
    already). Called by the main window at its canvas's first paint, just before the first evaluation and the result
    views import numpy: installed at the start, their import finders were asked about each of the few hundred
    modules the first window imports (7 million instructions before the first paint, callgrind)."""
    from app.gui import lazy_numpy_typing

    install()
    lazy_numpy_typing.install()
