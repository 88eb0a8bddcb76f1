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


def single_threaded_blas() -> None:
    """Ask OpenBLAS for one thread (``OPENBLAS_NUM_THREADS=1``), unless the user's environment sets any of
    :data:`BLAS_THREAD_SETTINGS`. Only before numpy is first imported does it change anything."""
    if not any(os.environ.get(name) for name in BLAS_THREAD_SETTINGS):
        os.environ["OPENBLAS_NUM_THREADS"] = "1"


def hold() -> None:
    """Stop the cyclic collector until :func:`release` (at the start of a process, before its imports), skip
    pydantic's plugin discovery (:data:`PLUGINS_SETTING`, unless the user's environment sets it) and ask numpy's
    OpenBLAS for one thread (:func:`single_threaded_blas`). The collector is left alone when it is already off
    (someone else turned it off: they turn it back on)."""
    global _held
    os.environ.setdefault(PLUGINS_SETTING, "__all__")
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
