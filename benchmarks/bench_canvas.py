"""Canvas smoothness with a 200-node topology: time per mouse-move step while dragging 20 selected items, and
the release (one undoable Move command, the scene following the model).

Run: ``QT_QPA_PLATFORM=offscreen uv run python benchmarks/bench_canvas.py``. Target: a move step under 16 ms
(60 frames per second) on these 2-core machines; the topology is the worst case for redraws, a star of 199
links from one controller, so every moved link's region crosses most others.
"""

from __future__ import annotations

import os
import statistics
import sys
import time

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")

from PySide6.QtCore import QCoreApplication, QPoint, QStandardPaths, Qt  # noqa: E402
from PySide6.QtTest import QTest  # noqa: E402
from PySide6.QtWidgets import QApplication  # noqa: E402


def big_project(n_shelves: int = 199):
    """One controller with ``n_shelves`` DS2246 shelves linked to it (200 nodes)."""
    from models.project.model import ControllerNode, Link, Project, Scenario, ShelfNode

    nodes = [ControllerNode(id="ctrl", catalog_id="netapp-aff8080a-ex", x=0, y=0, adp="root-data")]
    links = []
    for i in range(n_shelves):
        nodes.append(ShelfNode(id=f"s{i}", catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd",
                               drive_count=24, x=300 + 220 * (i % 10), y=120 * (i // 10)))
        links.append(Link(id=f"l{i}", source="ctrl", target=f"s{i}", link_type="sas-6g", ports=4))
    return Project(scenarios=[Scenario(name="Base", nodes=nodes, links=links)])


def main() -> int:
    QStandardPaths.setTestModeEnabled(True)
    QCoreApplication.setOrganizationName("StorPlan-bench")
    app = QApplication(sys.argv[:1])
    from app.gui.main_window import MainWindow

    window = MainWindow(big_project())
    window.ask_unsaved = lambda: None
    window.resize(1600, 1000)
    window.show()
    window.worker.force_sync()
    app.processEvents()
    selected = [f"s{i}" for i in range(20)]
    window.scene.select_ids(selected)
    view = window.view
    item = window.scene.node_items["s0"]
    view.resetTransform()
    view.centerOn(item)
    app.processEvents()
    start = view.mapFromScene(item.sceneBoundingRect().center()) - QPoint(40, 0)
    viewport = view.viewport()
    QTest.mousePress(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start)
    steps = []
    for k in range(1, 61):
        t = time.perf_counter()
        QTest.mouseMove(viewport, start + QPoint(3 * k, 2 * k))
        app.processEvents()
        steps.append(time.perf_counter() - t)
    t = time.perf_counter()
    QTest.mouseRelease(viewport, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier, start + QPoint(180, 120))
    app.processEvents()
    release = time.perf_counter() - t
    moved = window.document.scenario.node("s0")
    print(f"200-node topology, dragging 20 selected items ({window.document.undo_stack.count()} undo step(s)):")
    print(f"  move step: median {statistics.median(steps) * 1000:.1f} ms, worst {max(steps) * 1000:.1f} ms "
          "(target < 16 ms)")
    print(f"  release (Move command + scene update): {release * 1000:.1f} ms; s0 now at ({moved.x:.0f}, {moved.y:.0f})")
    window.document.undo_stack.setClean()
    window.worker.shutdown()
    window.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
