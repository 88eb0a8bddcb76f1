"""Interaction modes as objects: the view hands mouse events to the active mode (orange-canvas style).

A mode returns True from a handler when it consumed the event. Modes change nothing themselves: the connect
mode ends by asking the view to connect two items, the pan mode scrolls.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QLineF, QPointF, Qt
from PySide6.QtGui import QColor, QPen
from PySide6.QtWidgets import QGraphicsLineItem

from app.gui.canvas.items import NodeItem

if TYPE_CHECKING:
    from app.gui.canvas.view import TopologyView


class Interaction:
    """Base mode: consumes nothing."""

    def __init__(self, view: TopologyView) -> None:
        self.view = view

    def mouse_press(self, event) -> bool:
        """Handle a view mouse press (a QMouseEvent, viewport coordinates); True when consumed. Base: never."""
        return False

    def mouse_move(self, event) -> bool:
        """Handle a view mouse move; True when consumed. Base: never."""
        return False

    def mouse_release(self, event) -> bool:
        """Handle a view mouse release; True when consumed. Base: never."""
        return False

    def cancel(self) -> None:
        """End this mode: the view drops it and returns to plain selection."""
        self.view.end_interaction(self)


class ConnectInteraction(Interaction):
    """Drag a line from one item to another; on release over an item, the view asks which link type."""

    def __init__(self, view: TopologyView, source: NodeItem) -> None:
        super().__init__(view)
        self.source = source
        self.line = QGraphicsLineItem()
        pen = QPen(QColor(view.palette().highlight().color()), 2, Qt.PenStyle.DashLine)
        self.line.setPen(pen)
        self.line.setZValue(5)
        start = source.mapToScene(source.handle_center())
        self.line.setLine(QLineF(start, start))
        view.scene().addItem(self.line)
        view.viewport().setCursor(Qt.CursorShape.CrossCursor)

    def mouse_move(self, event) -> bool:
        """Follow the pointer with the line's free end; consumes the event."""
        self.move_to(self.view.mapToScene(event.position().toPoint()))
        return True

    def move_to(self, scene_pos: QPointF) -> None:
        """Put the line's free end at ``scene_pos`` (scene coordinates)."""
        line = self.line.line()
        line.setP2(scene_pos)
        self.line.setLine(line)

    def mouse_release(self, event) -> bool:
        """End the drag where the button was released (see `finish`); consumes the event."""
        self.finish(self.view.mapToScene(event.position().toPoint()), event.globalPosition().toPoint())
        return True

    def finish(self, scene_pos: QPointF, global_pos=None) -> None:
        """End the drag at ``scene_pos``: connect when it is over another item."""
        target = self.view.topology_scene.node_at(scene_pos)
        self.cancel()
        if target is None:
            self.view.sig_status_message.emit("Connect: release over another item to connect it.")
        elif target is not self.source:
            self.view.request_connection(self.source.node_id, target.node_id, global_pos)

    def cancel(self) -> None:
        """Remove the rubber line, restore the cursor and end the mode."""
        if self.line.scene() is not None:
            self.line.scene().removeItem(self.line)
        self.view.viewport().unsetCursor()
        super().cancel()


class PanInteraction(Interaction):
    """Middle-button drag or space + left drag scrolls the view."""

    def __init__(self, view: TopologyView, start: QPointF) -> None:
        super().__init__(view)
        self.last = start
        view.viewport().setCursor(Qt.CursorShape.ClosedHandCursor)

    def mouse_move(self, event) -> bool:
        """Scroll the view by the pointer's movement since the last event (pixels); consumes the event."""
        pos = event.position()
        delta = pos - self.last
        self.last = pos
        self.view.horizontalScrollBar().setValue(self.view.horizontalScrollBar().value() - int(delta.x()))
        self.view.verticalScrollBar().setValue(self.view.verticalScrollBar().value() - int(delta.y()))
        return True

    def mouse_release(self, event) -> bool:
        """Stop panning; consumes the event."""
        self.cancel()
        return True

    def cancel(self) -> None:
        """Restore the cursor and end the mode."""
        self.view.viewport().unsetCursor()
        super().cancel()
