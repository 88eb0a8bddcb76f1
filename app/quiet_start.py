"""The cyclic garbage collector at start-up: held while StorPlan imports its modules and builds its first window or
loads what a command needs, then the objects made so far frozen and the collector released.

Start-up makes tens of thousands of objects (modules, classes, the catalog, the first window's Qt wrappers) that
live as long as the process. With the collector running, each of them is walked by several young collections and a
generation-2 one while they are made (about 40 ms of CPU of every start, GUI or command, measured with
``gc.callbacks`` on the default example on two cores; ``benchmarks/bench_cli.py`` and ``bench_gui.py`` print the
starts). Holding it, then ``gc.freeze()`` (the objects alive move to a permanent generation no collection walks) and
releasing it, costs none of that, and later collections (an edit's results, an evaluation's temporary objects)
never walk the start-up objects again: the pauses of issue 27 stay away. Nothing else changes: reference counting
frees what it frees either way, and the collector runs as before once released.

Only the process's entry points hold (``storplan`` from the command line, the desktop app); a caller running
commands in its own process (the tests) never holds, and :func:`release` is then a no-op.
"""

from __future__ import annotations

import gc
import os
import sys
import types

_held = False

PLUGINS_SETTING = "PYDANTIC_DISABLE_PLUGINS"
"""pydantic's documented switch for its plugin discovery ("Pydantic plugins", docs.pydantic.dev, concepts/plugins):
with ``__all__`` it does not scan every installed package's entry points when it builds its first validator (about
4 ms of each start). StorPlan uses no pydantic plugin."""


BLAS_THREAD_SETTINGS = ("OPENBLAS_NUM_THREADS", "GOTO_NUM_THREADS", "OMP_NUM_THREADS")
"""The environment variables OpenBLAS (numpy's and scipy's linear algebra) reads, in this order, for the number of
threads it starts when it loads (OpenBLAS README, "Setting the number of threads using environment variables",
github.com/OpenMathLib/OpenBLAS). Without any of them it starts one per core, and on two cores that thread and its
start cost an ``evaluate --json`` about 60 ms of CPU and of wall time (``benchmarks/bench_cli.py``, measured
interleaved): StorPlan's linear algebra is a few products of vectors of a dozen values (no threads would help
them; OpenBLAS runs such small products on one thread anyway, so no number changes)."""


PLUGIN_LOADER = "pydantic.plugin._loader"
"""pydantic's plugin discovery module: imported when pydantic builds its first validator, it imports
``importlib.metadata`` (``from importlib.metadata import entry_points``) at its top, and with it ``email``, ``zipfile``,
``socket``, ``csv`` and more (about 15 ms of CPU of every start on two cores, measured in a fresh process), although
with plugins turned off (:data:`PLUGINS_SETTING`) it never calls it."""


class _DeferredMetadata:
    """``importlib.metadata`` as :data:`PLUGIN_LOADER` sees it while it is executed (:class:`_PluginLoaderFinder`):
    each name it takes is a function that imports the real ``importlib.metadata`` when first called and calls the
    real function of that name (pydantic calls ``entry_points`` only when plugins are turned on)."""

    def __init__(self) -> None:
        self.module = types.ModuleType("importlib.metadata")
        self.module.__getattr__ = self._forward  # type: ignore[method-assign]

    def _forward(self, name: str) -> object:
        if name.startswith("__"):
            raise AttributeError(name)

        def call_real(*args: object, **kwargs: object) -> object:
            import importlib

            real = importlib.import_module("importlib.metadata")
            return getattr(real, name)(*args, **kwargs)

        call_real.__name__ = call_real.__qualname__ = name
        return call_real


class _PluginLoaderLoader:
    """Executes :data:`PLUGIN_LOADER` with its own loader while ``importlib.metadata`` is a
    :class:`_DeferredMetadata` in ``sys.modules`` (only if nothing imported the real one yet), then takes it out."""

    def __init__(self, loader: object) -> None:
        self.loader = loader

    def create_module(self, spec: object) -> object:
        return self.loader.create_module(spec)

    def exec_module(self, module: types.ModuleType) -> None:
        deferred = None
        if "importlib.metadata" not in sys.modules:
            deferred = _DeferredMetadata().module
            sys.modules["importlib.metadata"] = deferred
        try:
            self.loader.exec_module(module)
        finally:
            if deferred is not None and sys.modules.get("importlib.metadata") is deferred:
                del sys.modules["importlib.metadata"]


class _PluginLoaderFinder:
    """A meta path finder (``find_spec``) for :data:`PLUGIN_LOADER` only: found by the other finders, loaded by a
    :class:`_PluginLoaderLoader`; removes itself once used."""

    def find_spec(self, fullname: str, path: object, target: types.ModuleType | None = None) -> object:
        if fullname != PLUGIN_LOADER:
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        for finder in list(sys.meta_path):
            spec: object = finder.find_spec(fullname, path, target) if hasattr(finder, "find_spec") else None
            if spec is not None:
                if spec.loader is not None and hasattr(spec.loader, "exec_module"):
                    spec.loader = _PluginLoaderLoader(spec.loader)
                return spec
        return None


def defer_plugin_metadata() -> bool:
    """Let pydantic's plugin discovery (:data:`PLUGIN_LOADER`) import ``importlib.metadata`` only when it looks for
    plugins (never with :data:`PLUGINS_SETTING` turning them off), not when it is imported: the names it takes from
    ``importlib.metadata`` then import the real module on their first call and behave as the real ones. Returns
    False when there is nothing to do (the loader or ``importlib.metadata`` imported already, or the finder in
    place)."""
    if PLUGIN_LOADER in sys.modules or "importlib.metadata" in sys.modules:
        return False
    if any(isinstance(finder, _PluginLoaderFinder) for finder in sys.meta_path):
        return False
    sys.meta_path.insert(0, _PluginLoaderFinder())
    return True


def single_threaded_blas() -> None:
    """Ask OpenBLAS for one thread (``OPENBLAS_NUM_THREADS=1``), unless the user's environment sets any of
    :data:`BLAS_THREAD_SETTINGS`. Only before numpy is first imported does it change anything."""
    if not any(os.environ.get(name) for name in BLAS_THREAD_SETTINGS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def hold() -> None:
    """Stop the cyclic collector until :func:`release` (at the start of a process, before its imports), skip
    pydantic's plugin discovery (:data:`PLUGINS_SETTING`, unless the user's environment sets it) and its import of
    ``importlib.metadata`` (:func:`defer_plugin_metadata`) and ask numpy's
    OpenBLAS for one thread (:func:`single_threaded_blas`). The collector is left alone when it is already off
    (someone else turned it off: they turn it back on)."""
    global _held
    os.environ.setdefault(PLUGINS_SETTING, "__all__")
    defer_plugin_metadata()
    single_threaded_blas()
    if gc.isenabled():
        gc.disable()
        _held = True


def release() -> None:
    """Freeze every object alive now (``gc.freeze``: they live as long as the process) and turn the collector
    back on, when :func:`hold` stopped it; else nothing."""
    global _held
    if _held:
        _held = False
        gc.freeze()
        gc.enable()


def holding() -> bool:
    """True between :func:`hold` and :func:`release` (the collector stopped by this module)."""
    return _held
