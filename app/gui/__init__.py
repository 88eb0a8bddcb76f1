"""The StorPlan desktop application. ``run_gui`` is the one front door the CLI calls."""

from __future__ import annotations

import os
import sys

from app.gui import lazy_numpy_docs, lazy_pyqtgraph_parts, lazy_qt_mirrors

lazy_qt_mirrors.install()  # before anything imports pyqtgraph: its Qt mirrors filled on first use (~120 ms less)
lazy_pyqtgraph_parts.install()  # before anything imports pyqtgraph: four modules no chart uses run on first use

NO_DISPLAY = "storplan: no display available; headless commands: storplan evaluate, validate, report, examples, catalog"


def display_available() -> bool:
    """False on Linux (and other X11 systems) with no display server and no offscreen platform requested."""
    if sys.platform in ("win32", "darwin"):
        return True
    platform = os.environ.get("QT_QPA_PLATFORM", "")
    if platform.split(":")[0] in ("offscreen", "minimal", "vnc", "eglfs", "linuxfb"):
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def preload_models() -> None:
    """Import the Qt-free project model, catalog and store, before PySide6 when called first.

    PySide6 hooks every import that follows its own and reads the imported module's source (its ``__feature__``
    check): the few hundred modules of pydantic and the records, imported first, skip that and start about
    0.1-0.2 s sooner on two cores. Harmless when PySide6 is already imported (tests). The engines
    (``models.evaluate``) are not imported here: the first window shows none of their results, and the first run
    imports them after its paint (the scan is stopped by then, :func:`skip_feature_scan`).
    """
    import models.catalog
    import models.project.model
    import models.store  # noqa: F401


def skip_feature_scan() -> bool:
    """Stop PySide6 reading the source of every module imported after it. Returns True when it was stopped.

    Once ``PySide6.QtCore`` is imported, PySide6 calls ``PySide6.support.feature.feature_imported`` after each new
    import; that reads the module's whole source (``inspect.getsource``) to learn whether it mentions PySide6, so
    that a module saying ``from __feature__ import snake_case`` (or ``true_property``) gets its own view of the Qt
    classes. StorPlan selects no such feature anywhere, so each module is recorded as one that does not switch
    features (-1, PySide6's own mark for a module that does not use it) without its source being read: the
    hundreds of modules of numpy, pyqtgraph and the engines that the first results import after PySide6 cost about
    50 ms less CPU on two cores (``benchmarks/bench_gui.py``; the slow scan is described in napari issue 8584).
    A module that does select a feature still works as before: ``from __feature__ import ...`` goes through
    ``feature_import``, which sets its own mark. Nothing is changed (False) when PySide6's module is not there or
    not as expected (another PySide6 version)."""
    feature = sys.modules.get("PySide6.support.feature")
    marks = getattr(feature, "pyside_feature_dict", None)
    if feature is None or not isinstance(marks, dict) or not callable(getattr(feature, "feature_imported", None)):
        return False

    def feature_imported(module: object) -> None:
        name = getattr(module, "__name__", None)
        if isinstance(name, str) and name not in marks:
            marks[name] = -1

    feature.feature_imported = feature_imported
    return True


def fast_enum_class_attributes() -> bool:
    """Drop Python 3.11's ``enum.EnumType.__getattr__``, as Python 3.12 did ("Remove ``EnumMeta.__getattr__``, which
    is no longer needed for enum attribute access", What's New In Python 3.12, "Removed", gh-95083,
    docs.python.org/3/whatsnew/3.12.html). Returns True when it was dropped.

    Since 3.11 every member is in its enum class's own namespace (``_proto_member.__set_name__`` sets it there, a
    property redirect where a member's name clashes with one), so the hook only ever answered names that normal
    lookup misses, with the same ``AttributeError``. Its mere presence made every attribute lookup on every enum
    class go through CPython's slow path for a Python ``__getattr__`` (``slot_tp_getattr_hook``: a bound
    ``__getattribute__`` made and called each time), and building an enum class looks up dozens of its class
    attributes per member: the ~310 Qt enum classes PySide6 builds before the first window (~4,300 members) cost
    66 million instructions more with it (``valgrind --tool=callgrind``, start to first paint, 3.6 % of it; no enum
    class of PySide6's Qt modules, pyqtgraph's or StorPlan's has a member outside its namespace). Nothing is done
    (False) where the hook is gone already (3.12 and later) or where an enum's member is not in its namespace (an
    enum module unlike 3.11's)."""
    import enum

    if "__getattr__" not in vars(enum.EnumType):
        return False
    probe = enum.Enum("probe", ["member"])
    if "member" not in vars(probe):  # members looked up through the hook: keep it
        return False
    del enum.EnumType.__getattr__
    return True


def freeze_start_up() -> None:
    """Move every object alive now (modules, catalog, Qt wrappers, the first window) out of the cyclic collector's
    reach (``gc.freeze``): they live as long as the process, and each generation-2 collection would walk them
    again (130-165 ms pauses in the edit loop, issue 27). Results made later are collected as before. The collector
    held since the start (:func:`app.quiet_start.hold`, by :func:`run_gui`) runs again from here (called by
    :func:`release_after_first_results`)."""
    import gc

    from app import quiet_start

    if quiet_start.holding():
        quiet_start.release()  # freezes, then turns the collector back on
    else:
        gc.freeze()


FIRST_RESULTS_WAIT_MS = 5000
"""The collector held since the start is released at the latest this long after the first window is shown, when no
first results came (an empty project, a slow evaluation)."""


def release_after_first_results(window) -> None:
    """Release the collector held since the start (:func:`app.quiet_start.hold`; :func:`freeze_start_up`) once
    ``window``'s first evaluation is shown (its worker's first finished signal, after the window's own slots have
    drawn it), or after :data:`FIRST_RESULTS_WAIT_MS`: the engines, numpy and the result views that the first
    results import are made without collections walking them (about 30 ms of CPU before the first results on two
    cores, measured by ``benchmarks/bench_gui.py``). numpy's docstrings, held since its import
    (:mod:`app.gui.lazy_numpy_docs`), are attached on the event-loop turn after (once the results have painted)."""
    from PySide6.QtCore import QTimer

    state = {"done": False}

    def release(*_args) -> None:
        if state["done"]:
            return
        state["done"] = True
        try:
            window.worker.sig_evaluation_finished.disconnect(release)
        except (RuntimeError, TypeError):  # already gone with the window
            pass
        freeze_start_up()
        # numpy's docstrings, held since its import: on the next event-loop turn, after the paint the first results
        # asked for (a zero timer runs after it, as the hidden panels are built)
        QTimer.singleShot(0, lazy_numpy_docs.attach)

    window.worker.sig_evaluation_finished.connect(release)
    QTimer.singleShot(FIRST_RESULTS_WAIT_MS, release)


def prepare_process() -> None:
    """The desktop app's process steps before its ``QApplication``, in their order (called by :func:`run_gui`, and
    by ``benchmarks/bench_gui.py`` so that it times the start the app makes): the cyclic collector held until the
    first results are drawn (:func:`app.quiet_start.hold`; :func:`release_after_first_results`), the dataclasses
    method cache installed (:func:`app.method_cache.install`, the ``"app"`` cache), the Qt-free models imported
    before PySide6 (:func:`preload_models`), then PySide6's ``QtCore`` imported (the support modules shiboken6
    compiles from source at every start taken from the method cache instead:
    :func:`app.method_cache.cached_shiboken_compiles`) and its per-module source scan stopped
    (:func:`skip_feature_scan`); first of all, enum classes get Python 3.12's attribute lookup
    (:func:`fast_enum_class_attributes`: PySide6 builds hundreds of them). Raises nothing of its own; an import error
    of PySide6 passes through."""
    from app import method_cache, quiet_start

    fast_enum_class_attributes()  # before pydantic's and PySide6's enum classes are built
    quiet_start.hold()  # no collection while the first window and results are built (release_after_first_results)
    method_cache.install("app")  # dataclasses' methods from the code an earlier start compiled
    preload_models()
    with method_cache.cached_shiboken_compiles():  # shiboken6's support modules: their code from the cache
        import PySide6.QtCore  # noqa: F401  (its import installs the feature scan that the next line stops)

    skip_feature_scan()  # the modules imported from here on are not read again by PySide6


def run_gui(path: str | None = None, example: str | None = None) -> int:
    """Open the main window (on the project file ``path``, or the bundled ``example`` file as a new unsaved
    project, else the default example) and run until it closes.

    Returns the exit code: 0 normally, 2 when there is no display (one line on stderr instead of a Qt abort).
    """
    if not display_available():
        print(NO_DISPLAY, file=sys.stderr)
        return 2
    from app.gui.platform_check import platform_problem

    problem = platform_problem()  # Qt would abort naming the wrong cause
    if problem:
        print(problem, file=sys.stderr)
        return 2
    prepare_process()
    from PySide6.QtCore import QCoreApplication
    from PySide6.QtWidgets import QApplication

    QCoreApplication.setOrganizationName("StorPlan")
    QCoreApplication.setApplicationName("StorPlan")
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationDisplayName("StorPlan")

    from app.gui import themes
    from app.gui.startup import open_main_window, schedule_smoke_check

    if themes.current() != "system":  # the theme chosen last time (View -> Theme)
        themes.apply(themes.current(), app)

    # A file on the command line goes through File -> Open's code (lock, read-only offer, pinned catalog); a bad
    # one is reported in a message box and the window starts empty. Then recovery of a crashed session is offered.
    window = open_main_window(path, example=example)
    window.show()
    release_after_first_results(window)  # the collector runs again once the first results are drawn
    smoke_ms = os.environ.get("STORPLAN_SMOKE_QUIT_MS")
    if smoke_ms:  # smoke test of a build: one evaluation in the worker process, report the window and quit
        schedule_smoke_check(window, app, int(smoke_ms), os.environ.get("STORPLAN_SMOKE_CALIBRATE"))
    return app.exec()
