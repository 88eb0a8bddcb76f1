"""The scene mirrors the document's active scenario: one item per node and link, kept in step by signals.

Items are passive. The only intent the scene itself reports is "these items were dragged to new positions"
(on mouse release, so one drag is one undo step); the view forwards it to the document.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QPointF, QRectF, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QPainter, QPalette, QPen, QPixmap, QTransform
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsScene

from app.gui.canvas.items import LinkItem, NodeItem
from app.gui.canvas.replication import sync_replication_items
from app.gui.document import ProjectDocument
from models.present.labels import carried_protocols


class TopologyScene(QGraphicsScene):
    """Node and link items for the active scenario of ``document``."""

    sig_items_moved = Signal(dict)
    """The user dragged items: {node id: (x, y)} of those whose position differs from the model."""

    def __init__(self, document: ProjectDocument, parent=None) -> None:
        super().__init__(parent)
        self.document = document
        self.node_items: dict[str, NodeItem] = {}
        self.link_items: dict[str, LinkItem] = {}
        self.grid = 20
        self.snap_to_grid = True
        self._problems: tuple = ()
        self._carried: dict[str, str] = {}
        """Link id -> the protocol the workloads run over it (its label names it: "NFS 10G")."""
        self._frozen: tuple | None = None
        """(still links, scene area, pixmap of them, scene point of its top left) while a drag is under way."""
        self.setSceneRect(QRectF(-2000, -2000, 6000, 4000))
        self._label_timer = QTimer(self)
        self._label_timer.setSingleShot(True)
        self._label_timer.setInterval(0)
        self._label_timer.timeout.connect(self.place_labels)
        document.sig_node_added.connect(self._add_node)
        document.sig_node_removed.connect(self._remove_node)
        document.sig_node_changed.connect(self._change_node)
        document.sig_link_added.connect(self._add_link)
        document.sig_link_removed.connect(self._remove_link)
        document.sig_link_changed.connect(self._change_link)
        document.sig_workloads_changed.connect(self._relabel_links)
        document.sig_replications_changed.connect(lambda: sync_replication_items(self))
        document.sig_scenario_switched.connect(self.rebuild)
        document.sig_project_replaced.connect(self.rebuild)
        self.rebuild()

    # link labels

    def schedule_label_placement(self) -> None:
        """Re-place the link labels once the current change is done (coalesced: one pass per event-loop turn)."""
        self._label_timer.start()

    LABEL_CELL = 120.0
    """Grid cell (scene units) of the spatial hash used to find what a label would cover."""

    def place_labels(self) -> None:
        """Put each link's label at the first of ``LinkItem.LABEL_POSITIONS`` that covers no other node and no
        label placed before it; failing that, the first that covers no other node; failing that, the middle.
        Spatial hashes of the node boxes and the placed labels keep this linear in the number of links; boxes are
        plain (left, top, right, bottom) tuples (a 1,000-link canvas re-places its labels after each drag)."""
        self._label_timer.stop()
        cell = self.LABEL_CELL

        def cells(left: float, top: float, right: float, bottom: float):
            return [(cx, cy) for cx in range(int(left // cell), int(right // cell) + 1)
                    for cy in range(int(top // cell), int(bottom // cell) + 1)]

        def overlaps(a, b) -> bool:  # as QRectF.intersects: a shared edge is no overlap
            return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]

        nodes: dict[tuple[int, int], list] = {}
        for item in self.node_items.values():
            r = item.sceneBoundingRect()
            box = (r.left(), r.top(), r.right(), r.bottom())
            for c in cells(*box):
                nodes.setdefault(c, []).append((item, box))
        labels: dict[tuple[int, int], list[tuple]] = {}
        for link in self.link_items.values():
            (x1, y1), (x2, y2) = link.line_ends()
            w, h = link.pill_size()
            half_w, half_h = w / 2 + 3, h / 2 + 2  # a little air around each pill
            ends = (link.source, link.target)
            chosen = clear_of_nodes = None
            for t in LinkItem.LABEL_POSITIONS:
                x, y = x1 + (x2 - x1) * t, y1 + (y2 - y1) * t
                rect = (x - half_w, y - half_h, x + half_w, y + half_h)
                where = cells(*rect)
                if any(overlaps(box, rect) for c in where for item, box in nodes.get(c, ()) if item not in ends):
                    continue
                if clear_of_nodes is None:
                    clear_of_nodes = t
                if not any(overlaps(other, rect) for c in where for other in labels.get(c, ())):
                    chosen = t
                    break
            # no spot free of both: keep clear of nodes at least (a label over a label is still readable
            # in part; one over a node hides the node's text)
            chosen = chosen if chosen is not None else (clear_of_nodes if clear_of_nodes is not None else 0.5)
            link.set_label_position(chosen)
            x, y = x1 + (x2 - x1) * chosen, y1 + (y2 - y1) * chosen
            rect = (x - half_w, y - half_h, x + half_w, y + half_h)
            for c in cells(*rect):
                labels.setdefault(c, []).append(rect)

    # mirror the model

    def rebuild(self) -> None:
        """Rebuild: one item per node and link of the active scenario, problem badges and link labels placed."""
        self._frozen = None
        self.clear()
        self.node_items.clear()
        self.link_items.clear()
        self._carried = carried_protocols(self.document.scenario, self.document.catalog)
        for node in self.document.scenario.nodes:
            self._add_node(node.id)
        for link in self.document.scenario.links:
            self._add_link(link.id)
        sync_replication_items(self)  # replication relationships: links of their own look
        self.set_problems(self._problems)
        self.place_labels()

    def _add_node(self, node_id: str) -> None:
        node = self.document.scenario.node(node_id)
        item = NodeItem(node, self.document.catalog)
        self.node_items[node_id] = item
        self.addItem(item)

    def _remove_node(self, node_id: str) -> None:
        item = self.node_items.pop(node_id, None)
        if item is not None:
            for link in list(item.links):
                self._remove_link(link.link_id)
            self.removeItem(item)
            self.schedule_label_placement()

    def _change_node(self, node_id: str) -> None:
        item = self.node_items.get(node_id)
        if item is not None:
            before = item.pos()
            item.set_node(self.document.scenario.node(node_id), self.document.catalog)
            if item.pos() != before:  # boxes have one size: only a move can change where labels fit
                self.schedule_label_placement()

    def _link(self, link_id: str):
        return next((candidate for candidate in self.document.scenario.links if candidate.id == link_id), None)

    def _add_link(self, link_id: str) -> None:
        link = self._link(link_id)
        source, target = self.node_items.get(link.source), self.node_items.get(link.target)
        if source is None or target is None:
            return
        item = LinkItem(link, source, target, self.document.catalog, self._carried.get(link_id))
        self.link_items[link_id] = item
        self.addItem(item)
        self.schedule_label_placement()

    def _remove_link(self, link_id: str) -> None:
        item = self.link_items.pop(link_id, None)
        if item is not None:
            self.thaw_links()
            item.detach()
            self.removeItem(item)

    def _change_link(self, link_id: str) -> None:
        item = self.link_items.get(link_id)
        if item is not None:
            item.set_link(self._link(link_id), self.document.catalog, self._carried.get(link_id))

    def _relabel_links(self) -> None:
        """The workloads changed: links whose carried protocol changed get their new label."""
        carried = carried_protocols(self.document.scenario, self.document.catalog)
        if carried == self._carried:
            return
        self._carried = carried
        for link_id, item in self.link_items.items():
            if item.carried != carried.get(link_id):
                item.set_link(item.link, self.document.catalog, carried.get(link_id))
        self.schedule_label_placement()

    def set_problems(self, problems) -> None:
        """Badge items with their problems (Problem.node_id names a node, link or workload)."""
        self._problems = tuple(problems)
        by_id: dict[str, list] = {}
        for problem in self._problems:
            by_id.setdefault(problem.node_id, []).append(problem)
        for node_id, item in self.node_items.items():
            item.set_problems(by_id.get(node_id, []))
        for link_id, item in self.link_items.items():
            item.set_problems(by_id.get(link_id, []))

    def set_snap(self, enabled: bool, grid: int | None = None) -> None:
        """Turn snapping to the grid on or off; ``grid`` (scene units) changes the spacing when given."""
        self.snap_to_grid = enabled
        self.grid = grid or self.grid

    # selection helpers

    def selected_node_ids(self) -> list[str]:
        """The ids of the selected nodes."""
        return [i.node_id for i in self.selectedItems() if isinstance(i, NodeItem)]

    def selected_link_ids(self) -> list[str]:
        """The ids of the selected links."""
        return [i.link_id for i in self.selectedItems() if isinstance(i, LinkItem)]

    def select_ids(self, ids) -> None:
        """Select exactly the nodes and links whose ids are in ``ids`` (unknown ids are ignored)."""
        ids = set(ids)
        self.clearSelection()
        for item_id, item in (*self.node_items.items(), *self.link_items.items()):
            if item_id in ids:
                item.setSelected(True)

    def node_at(self, scene_pos: QPointF) -> NodeItem | None:
        """The topmost node item at ``scene_pos`` (scene coordinates), or None."""
        for item in self.items(scene_pos):
            if isinstance(item, NodeItem):
                return item
        return None

    def snapped(self, x: float, y: float) -> tuple[float, float]:
        """A position on the grid (when snapping is on)."""
        if not self.snap_to_grid:
            return (x, y)
        return (round(x / self.grid) * self.grid, round(y / self.grid) * self.grid)

    # dragging: the links that do not move are drawn once, into the background

    FREEZE_MIN_LINKS = 64
    """Below this many still links a drag repaints them live (cheap enough); above, they are frozen."""

    def _freeze_still_links(self) -> None:
        """At the press that may start a drag: draw the links that will not move (no end among the selected
        nodes) once into a pixmap shown as part of the background, and stop painting them one by one until the
        release. A frame of the drag then repaints the moving items and blits that pixmap, however many links
        cross the view (a star of 999 links from one controller crosses all of it)."""
        self.thaw_links()
        views = self.views()
        if not views:
            return
        moving = {item for item in self.selectedItems() if isinstance(item, NodeItem)}
        live = {link for node in moving for link in node.links}
        still = [link for link in self.link_items.values() if link not in live and not link.isSelected()]
        if len(still) < self.FREEZE_MIN_LINKS:
            return
        view = views[0]
        # the viewport and a quarter more each side, in whole device pixels, drawn 1:1 (no resampling)
        port = view.viewport().rect()
        device = port.adjusted(-port.width() // 4, -port.height() // 4, port.width() // 4, port.height() // 4)
        ratio = view.devicePixelRatioF()
        pixmap = QPixmap(max(1, round(device.width() * ratio)), max(1, round(device.height() * ratio)))
        pixmap.setDevicePixelRatio(ratio)
        pixmap.fill(Qt.GlobalColor.transparent)
        painter = QPainter(pixmap)
        painter.setRenderHints(view.renderHints())
        painter.setTransform(view.viewportTransform() * QTransform.fromTranslate(-device.left(), -device.top()))
        area = view.mapToScene(device).boundingRect()
        for link in still:
            if link.boundingRect().intersects(area):
                painter.save()
                link.paint(painter, None)
                painter.restore()
            link.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, True)
        painter.end()
        self._frozen = (still, area, pixmap, view.mapToScene(device.topLeft()))
        self.invalidate(area, QGraphicsScene.SceneLayer.BackgroundLayer)

    def thaw_links(self) -> None:
        """Paint the links frozen for a drag live again (at the release, or when the view is zoomed meanwhile)."""
        if self._frozen is None:
            return
        still, area = self._frozen[:2]
        self._frozen = None
        for link in still:
            link.setFlag(QGraphicsItem.GraphicsItemFlag.ItemHasNoContents, False)
        self.invalidate(area, QGraphicsScene.SceneLayer.BackgroundLayer)
        self.update(area)

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """Qt override: a left press on an item (a drag may follow) freezes the links that will not move."""
        super().mousePressEvent(event)
        grabber = self.mouseGrabberItem()
        if event.button() == Qt.MouseButton.LeftButton and isinstance(grabber, NodeItem):
            self._freeze_still_links()

    # intent: a drag ended

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        """Qt override: after a drag, emit ``sig_items_moved`` with the (snapped) positions of the moved nodes.

        Items only show the drag; the view connects the signal to the document's move (one undo step).
        """
        self.thaw_links()
        super().mouseReleaseEvent(event)
        moved = {}
        nodes = {n.id: n for n in self.document.scenario.nodes}  # one pass, not a scan per item
        for node_id, item in self.node_items.items():
            node = nodes.get(node_id)
            if node is not None and (abs(item.x() - node.x) > 0.01 or abs(item.y() - node.y) > 0.01):
                moved[node_id] = self.snapped(item.x(), item.y())
        if moved:
            self.sig_items_moved.emit(moved)

    def drawBackground(self, painter: QPainter, rect: QRectF) -> None:  # noqa: N802
        """Qt override: the base colour with a dot grid every two grid steps (no dots when zoomed far out)."""
        palette = QApplication.palette()
        painter.fillRect(rect, palette.color(QPalette.ColorRole.Base))
        dot = QColor(palette.color(QPalette.ColorRole.Text))
        dot.setAlphaF(0.16)
        step = self.grid * 2
        left = int(rect.left()) - int(rect.left()) % step
        top = int(rect.top()) - int(rect.top()) % step
        if rect.width() / step > 300:
            self._draw_frozen(painter)
            return
        painter.setPen(QPen(dot, 1.5))
        points = [QPointF(x, y) for x in range(left, int(rect.right()) + 1, step)
                  for y in range(top, int(rect.bottom()) + 1, step)]
        painter.drawPoints(points)
        self._draw_frozen(painter)

    def _draw_frozen(self, painter: QPainter) -> None:
        """The links that stay still during a drag: their pixmap, blitted 1:1 at its place on the viewport."""
        if self._frozen is None:
            return
        pixmap, origin = self._frozen[2], self._frozen[3]
        at = painter.transform().map(origin)
        painter.save()
        painter.resetTransform()
        painter.drawPixmap(QPoint(round(at.x()), round(at.y())), pixmap)
        painter.restore()
