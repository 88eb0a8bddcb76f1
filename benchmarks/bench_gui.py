"""GUI timings: launch to first painted window, and an edit to updated results.

Run: ``QT_QPA_PLATFORM=offscreen uv run python benchmarks/bench_gui.py`` (or under xvfb-run).
Targets on 2 cores: first paint < 2 s, edit -> results < 100 ms.
"""

from __future__ import annotations

import os
import sys
import time

T0 = time.perf_counter()
os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QEvent, QObject, QStandardPaths, QTimer  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


class _FirstPaint(QObject):
    def __init__(self) -> None:
        super().__init__()
        self.at: float | None = None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802
        if event.type() == QEvent.Type.Paint and self.at is None:
            self.at = time.perf_counter()
        return False


def main() -> int:
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("StorPlan-bench")
    app = QApplication(sys.argv[:1])
    from app.gui.startup import MainWindow, initial_project

    project, path = initial_project(None)
    window = MainWindow(project, path)
    window.ask_unsaved = lambda: None
    probe = _FirstPaint()
    window.view.viewport().installEventFilter(probe)
    window.show()
    deadline = time.perf_counter() + 10
    while probe.at is None and time.perf_counter() < deadline:
        app.processEvents()
    first_paint = (probe.at or time.perf_counter()) - T0
    window.worker.force_sync()

    nodes = [n for n in window.document.scenario.nodes if n.kind == "shelf"]
    times = []
    for i in range(10):
        done: list[float] = []
        window.worker.sig_evaluation_finished.connect(lambda _o, d=done: d.append(time.perf_counter()))
        start = time.perf_counter()
        if nodes:
            window.document.set_node_field(nodes[0].id, "drive_count", 12 + i)
        else:
            window.document.set_setting("curve_points", 100 + i)
        while not done and time.perf_counter() - start < 10:
            app.processEvents()
        window.worker.sig_evaluation_finished.disconnect()
        times.append((done[0] if done else time.perf_counter()) - start)
    times.sort()
    median = times[len(times) // 2]
    engine = window.worker.last_outcome.elapsed_s if window.worker.last_outcome else float("nan")
    print(f"launch to first painted window: {first_paint * 1000:.0f} ms (target < 2000 ms)")
    print(f"edit to updated results: median {median * 1000:.0f} ms, worst {times[-1] * 1000:.0f} ms "
          f"(engine {engine * 1000:.0f} ms, debounce {window.worker._timer.interval()} ms; target < 100 ms)")
    window.document.undo_stack.setClean()
    window.close()
    QTimer.singleShot(0, app.quit)
    return 0


if __name__ == "__main__":
    sys.exit(main())
