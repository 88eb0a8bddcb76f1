"""The canvas view: zoom, pan, drops from the palette, keyboard, clipboard, and the connect flow.

It is the canvas's controller: it turns the user's gestures into document edits (each one undoable) and
reports refusals through :attr:`sig_status_message`.
"""

from __future__ import annotations

import json

from PySide6.QtCore import QMimeData, QPoint, Qt, Signal
from PySide6.QtGui import QCursor, QPainter
from PySide6.QtWidgets import QApplication, QGraphicsView, QMenu

from app.gui.canvas.interactions import ConnectInteraction, Interaction, PanInteraction
from app.gui.canvas.items import NODE_H, NODE_W
from app.gui.canvas.replication import replication_between_systems
from app.gui.canvas.scene import TopologyScene
from app.gui.document import ProjectDocument
from app.gui.icons import icon
from app.gui.palette import CATALOG_MIME, entry_id_from_mime
from models.project.model import Scenario
from models.project.names import node_names

ITEMS_MIME = "application/x-storplan-items"
"""Clipboard format of copied canvas items: JSON {"nodes": [...], "links": [...]}."""


class TopologyView(QGraphicsView):
    """The canvas: the project's topology scene, with interaction modes, palette drops and edit actions.

    Mouse events go to the active mode first; drops and the delete / copy / cut / paste actions change the
    project through the document (one undo step each). Keyboard: arrows move the selected items one grid step
    (Shift: five), Tab / Shift+Tab select the next / previous item in reading order (top to bottom, left to
    right), Enter opens the selection in the inspector, Escape cancels a connect drag, Space + drag pans.
    """

    sig_status_message = Signal(str)
    """A message for the status bar (a refused drop or connection, a hint)."""
    sig_inspect_requested = Signal()
    """The user pressed Enter on the canvas: show the selected item's properties and put the focus there."""

    def __init__(self, document: ProjectDocument, parent=None) -> None:
        self.topology_scene = TopologyScene(document)
        super().__init__(self.topology_scene, parent)
        self.topology_scene.setParent(self)
        self.document = document
        self.interaction: Interaction | None = None
        self.connect_mode = False
        self._space = False
        self.link_type_chooser = self._choose_link_type
        """Callable(link types, global pos) -> chosen link type id or None; tests may replace it."""
        self.setObjectName("topologyView")
        self.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
        self.setDragMode(QGraphicsView.DragMode.RubberBandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setViewportUpdateMode(QGraphicsView.ViewportUpdateMode.SmartViewportUpdate)
        self.setAcceptDrops(True)
        self.topology_scene.sig_items_moved.connect(document.move_nodes)
        self._was_empty = True
        self.topology_scene.changed.connect(self._repaint_empty_hint)

    # --- empty state --------------------------------------------------------------------------------------

    EMPTY_HINT = "Drag a controller from the catalog to start"
    EMPTY_DETAIL = "then add shelves, hosts and a switch, and connect them (drag from an item's right edge)"

    def _repaint_empty_hint(self, *_args) -> None:
        empty = not self.topology_scene.node_items
        if empty != self._was_empty:
            self._was_empty = empty
            self.viewport().update()

    def drawForeground(self, painter: QPainter, rect) -> None:  # noqa: N802
        """An empty canvas says how to begin."""
        super().drawForeground(painter, rect)
        if self.topology_scene.node_items:
            return
        from PySide6.QtCore import QRectF
        from PySide6.QtGui import QPalette

        painter.save()
        painter.resetTransform()
        area = QRectF(self.viewport().rect())
        color = self.palette().color(QPalette.ColorRole.PlaceholderText)
        font = painter.font()
        font.setPointSizeF(font.pointSizeF() * 1.35)
        font.setBold(True)
        painter.setFont(font)
        painter.setPen(color)
        line = painter.fontMetrics().height()
        painter.drawText(area.adjusted(0, 0, 0, -line), Qt.AlignmentFlag.AlignCenter, self.EMPTY_HINT)
        small = painter.font()
        small.setBold(False)
        small.setPointSizeF(small.pointSizeF() / 1.35)
        painter.setFont(small)
        painter.drawText(area.adjusted(0, line + 6, 0, 0), Qt.AlignmentFlag.AlignCenter, self.EMPTY_DETAIL)
        painter.restore()

    # --- zoom ---------------------------------------------------------------------------------------------

    def zoom(self, factor: float) -> None:
        """Scale the view by ``factor``, kept between 0.2x and 3x overall."""
        current = self.transform().m11()
        factor = max(0.2 / current, min(factor, 3.0 / current))
        self.topology_scene.thaw_links()  # links frozen for a drag were drawn at the old scale
        self.scale(factor, factor)

    def zoom_in(self) -> None:
        """Zoom in one step (x1.2)."""
        self.zoom(1.2)

    def zoom_out(self) -> None:
        """Zoom out one step (/1.2)."""
        self.zoom(1 / 1.2)

    def fit(self) -> None:
        """Fit every item in the view with a 40-unit margin, never zoomed in beyond 1.25x; an empty canvas resets."""
        self.fit_within(1.25)

    def fit_within(self, most: float, least: float = 0.0) -> None:
        """Fit every item in the view with a 40-unit margin, zoomed between ``least`` and ``most`` (presentation
        mode allows more than :meth:`fit`, so a small diagram's cards grow on a projector, and asks for at least
        the zoom at which the cards' text is readable); an empty canvas resets. A diagram larger than the view at
        ``least`` shows its top left part (where the reading order starts) and scrolls for the rest."""
        self.topology_scene.thaw_links()
        rect = self.topology_scene.itemsBoundingRect()
        if rect.isEmpty():
            self.resetTransform()
            self.centerOn(0, 0)
            return
        area = rect.adjusted(-40, -40, 40, 40)
        self.fitInView(area, Qt.AspectRatioMode.KeepAspectRatio)
        fitted = self.transform().m11()
        if fitted <= most and fitted >= least:
            return
        zoom = max(least, min(fitted, most))
        self.resetTransform()
        self.scale(zoom, zoom)
        port = self.viewport().rect()
        width, height = port.width() / zoom, port.height() / zoom  # scene units the viewport shows
        # an axis that does not fit starts at the diagram's edge with a narrow margin (room for its first card)
        x = area.center().x() if area.width() <= width else rect.left() - 6 + width / 2
        y = area.center().y() if area.height() <= height else rect.top() - 6 + height / 2
        self.centerOn(x, y)

    def wheelEvent(self, event) -> None:  # noqa: N802
        """Qt override: the wheel zooms (1.15x per notch) under the pointer; with Shift it scrolls."""
        if event.modifiers() & Qt.KeyboardModifier.ShiftModifier:
            return super().wheelEvent(event)
        steps = event.angleDelta().y() / 120
        if steps:
            self.zoom(1.15 ** steps)
        event.accept()

    # --- mouse: route to the interaction mode --------------------------------------------------------------

    def set_connect_mode(self, on: bool) -> None:
        """Connect mode on or off: while on, a drag from anywhere on an item starts a link (no rubber band)."""
        self.connect_mode = on
        self.setDragMode(QGraphicsView.DragMode.NoDrag if on else QGraphicsView.DragMode.RubberBandDrag)
        if on:
            self.sig_status_message.emit("Connect: drag from one item to another.")

    def start_connect(self, source_id: str) -> ConnectInteraction:
        """Begin a connect drag from an item (the view does this on a press on the item's handle)."""
        self.interaction = ConnectInteraction(self, self.topology_scene.node_items[source_id])
        return self.interaction

    def end_interaction(self, interaction: Interaction) -> None:
        """Forget ``interaction`` if it is the active mode (modes call this when they end)."""
        if self.interaction is interaction:
            self.interaction = None

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """Qt override: the active mode first; then middle button or Space + left drag pans.

        A press on an item's handle (or anywhere on it in connect mode) starts a connect drag; otherwise the
        press selects and moves items as usual.
        """
        if self.interaction is not None and self.interaction.mouse_press(event):
            return
        pos = self.mapToScene(event.position().toPoint())
        if event.button() == Qt.MouseButton.MiddleButton or (
            event.button() == Qt.MouseButton.LeftButton and self._space
        ):
            self.interaction = PanInteraction(self, event.position())
            event.accept()
            return
        if event.button() == Qt.MouseButton.LeftButton:
            item = self.topology_scene.node_at(pos)
            if item is not None and (self.connect_mode or item.is_on_handle(pos)):
                self.start_connect(item.node_id)
                event.accept()
                return
        super().mousePressEvent(event)

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        """Qt override: the active mode first, else the default (moving items, rubber band)."""
        if self.interaction is not None and self.interaction.mouse_move(event):
            return
        super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        """Qt override: the active mode first, else the default."""
        if self.interaction is not None and self.interaction.mouse_release(event):
            return
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event) -> None:  # noqa: N802
        """Qt override: holding Space readies panning; Escape cancels the active mode."""
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = True
            self.viewport().setCursor(Qt.CursorShape.OpenHandCursor)
            return
        if event.key() == Qt.Key.Key_Escape and self.interaction is not None:
            self.interaction.cancel()
            return
        steps = {Qt.Key.Key_Left: (-1, 0), Qt.Key.Key_Right: (1, 0), Qt.Key.Key_Up: (0, -1), Qt.Key.Key_Down: (0, 1)}
        if event.key() in steps and self.topology_scene.selected_node_ids():
            dx, dy = steps[event.key()]
            self.nudge_selection(dx, dy, 5 if event.modifiers() & Qt.KeyboardModifier.ShiftModifier else 1)
            event.accept()
            return
        if event.key() in (Qt.Key.Key_Return, Qt.Key.Key_Enter) and self.topology_scene.selectedItems():
            self.sig_inspect_requested.emit()
            event.accept()
            return
        super().keyPressEvent(event)

    # --- keyboard: move and cycle through the items ------------------------------------------------------

    def nudge_selection(self, dx: int, dy: int, steps: int = 1) -> None:
        """Move the selected items ``steps`` grid steps (one undoable move) in direction (dx, dy)."""
        scene = self.topology_scene
        grid = scene.grid
        positions = {}
        for node_id in scene.selected_node_ids():
            node = self.document.scenario.node(node_id)
            if node is not None:
                positions[node_id] = (node.x + dx * steps * grid, node.y + dy * steps * grid)
        if positions:
            self.document.move_nodes(positions)
            self.ensureVisible(scene.node_items[next(iter(positions))], 40, 40)

    def reading_order(self) -> list[str]:
        """Node ids top to bottom, then left to right (rows of half an item's height)."""
        nodes = self.document.scenario.nodes
        return [n.id for n in sorted(nodes, key=lambda n: (round(n.y / (NODE_H / 2)), n.x, n.id))]

    def select_next(self, forward: bool = True) -> str | None:
        """Select the item after (before) the selected one in :meth:`reading_order`, wrapping round; the first
        (last) when nothing is selected. Returns its id."""
        order = self.reading_order()
        if not order:
            return None
        selected = self.topology_scene.selected_node_ids()
        if selected and selected[0] in order:
            index = (order.index(selected[0]) + (1 if forward else -1)) % len(order)
        else:
            index = 0 if forward else len(order) - 1
        node_id = order[index]
        self.topology_scene.select_ids([node_id])
        self.ensureVisible(self.topology_scene.node_items[node_id], 40, 40)
        names = node_names(self.document.scenario.nodes, self.document.catalog)
        self.sig_status_message.emit(f"Selected {names.get(node_id, '')} ({index + 1} of {len(order)}); "
                                     "Enter: properties, arrows: move")
        return node_id

    def focusNextPrevChild(self, forward: bool) -> bool:  # noqa: N802
        """Qt override: Tab / Shift+Tab on the canvas select the next / previous item (Ctrl+Tab leaves it)."""
        if self.hasFocus() and self.document.scenario.nodes:
            self.select_next(forward)
            return True
        return super().focusNextPrevChild(forward)

    def keyReleaseEvent(self, event) -> None:  # noqa: N802
        """Qt override: releasing Space ends the panning readiness."""
        if event.key() == Qt.Key.Key_Space and not event.isAutoRepeat():
            self._space = False
            self.viewport().unsetCursor()
            return
        super().keyReleaseEvent(event)

    # --- connecting ----------------------------------------------------------------------------------------

    def request_connection(self, source: str, target: str, global_pos: QPoint | None = None) -> str | None:
        """Offer the link types that can join two items; refuse with the reason when none can.

        Returns the new link's type id, or None when nothing was connected.
        """
        choices, reason = self.document.link_choices(source, target)
        names = node_names(self.document.scenario.nodes, self.document.catalog)
        ends = f"{names.get(source, 'the removed item')} to {names.get(target, 'the removed item')}"
        if replication_between_systems(self.document.scenario, source, target):
            # two storage systems: a replication relationship, never a host link
            error = self.document.add_replication(source, target)
            self.sig_status_message.emit(f"Cannot replicate {ends}: {error}" if error else
                                         f"Replication {ends}: SnapMirror asynchronous; set its kind, schedule, "
                                         "RPO and network in the Inspector.")
            return None if error else "replication"
        if not choices:
            self.sig_status_message.emit(f"Cannot connect {ends}: {reason}")
            return None
        chosen = self.link_type_chooser(choices, global_pos or QCursor.pos())
        if not chosen:
            return None
        error = self.document.add_link(source, target, chosen)
        if error:
            self.sig_status_message.emit(f"Cannot connect {ends}: {error}")
            return None
        link_type = self.document.catalog.find(chosen)
        self.sig_status_message.emit(f"Connected {ends} over {link_type.name if link_type is not None else chosen}.")
        return chosen

    def _choose_link_type(self, choices, global_pos: QPoint) -> str | None:
        menu = QMenu(self)
        menu.setTitle("Link type")
        menu.addSection("Connect with")
        for link_type in choices:
            action = menu.addAction(icon("mdi6.vector-line"), link_type.name)
            action.setData(link_type.id)
        chosen = menu.exec(global_pos)
        return chosen.data() if chosen else None

    # --- drops from the palette ----------------------------------------------------------------------------

    def dragEnterEvent(self, event) -> None:  # noqa: N802
        """Qt override: accept drags that carry a catalog id (``CATALOG_MIME``)."""
        if event.mimeData().hasFormat(CATALOG_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dragMoveEvent(self, event) -> None:  # noqa: N802
        """Qt override: keep accepting drags that carry a catalog id."""
        if event.mimeData().hasFormat(CATALOG_MIME):
            event.acceptProposedAction()
        else:
            event.ignore()

    def dropEvent(self, event) -> None:  # noqa: N802
        """Qt override: drop a catalog record, as a part of the item under the pointer or a new item there.

        A new item is centred on the pointer (snapped). A refused drop shows why in the status bar; the new or
        changed item is selected.
        """
        entry_id = entry_id_from_mime(event.mimeData())
        if entry_id is None:
            event.ignore()
            return
        pos = self.mapToScene(event.position().toPoint())
        under = self.topology_scene.node_at(pos)
        x, y = self.topology_scene.snapped(pos.x() - NODE_W / 2, pos.y() - NODE_H / 2)
        before = {n.id for n in self.document.scenario.nodes}
        error = self.document.drop_entry(entry_id, x, y, under.node_id if under else None)
        if error:
            self.sig_status_message.emit(error)
            event.ignore()
            return
        event.acceptProposedAction()
        added = [n.id for n in self.document.scenario.nodes if n.id not in before]
        self.topology_scene.select_ids(added or ([under.node_id] if under else []))

    # --- edit actions --------------------------------------------------------------------------------------

    def delete_selection(self) -> None:
        """Delete the selected nodes and links (one undo step)."""
        ids = self.topology_scene.selected_node_ids() + self.topology_scene.selected_link_ids()
        self.document.remove_items(ids)

    def copy_selection(self) -> bool:
        """Copy the selected nodes and the links among them to the clipboard (``ITEMS_MIME`` JSON).

        Returns False when no node is selected.
        """
        ids = set(self.topology_scene.selected_node_ids())
        if not ids:
            return False
        scenario = self.document.scenario
        payload = {
            "nodes": [n.model_dump(mode="json") for n in scenario.nodes if n.id in ids],
            "links": [link.model_dump(mode="json") for link in scenario.links
                      if link.source in ids and link.target in ids],
        }
        mime = QMimeData()
        mime.setData(ITEMS_MIME, json.dumps(payload).encode())
        QApplication.clipboard().setMimeData(mime)
        return True

    def paste(self) -> list[str]:
        """Paste canvas items from the clipboard as copies with new ids and select them; returns their ids.

        Nothing ([]) when the clipboard holds no items; invalid items are refused with a status message.
        """
        mime = QApplication.clipboard().mimeData()
        if mime is None or not mime.hasFormat(ITEMS_MIME):
            return []
        try:
            payload = json.loads(bytes(mime.data(ITEMS_MIME)).decode())
            holder = Scenario(name="clipboard", nodes=payload["nodes"], links=payload["links"])
        except (ValueError, KeyError) as exc:
            self.sig_status_message.emit(f"Cannot paste: {exc}")
            return []
        new_ids = self.document.paste(list(holder.nodes), list(holder.links))
        self.topology_scene.select_ids(new_ids)
        return new_ids

    def cut_selection(self) -> None:
        """Copy the selection, then delete it (nothing when no node is selected)."""
        if self.copy_selection():
            self.delete_selection()
