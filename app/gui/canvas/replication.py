"""A replication relationship on the canvas: a dash-dot line with an arrow from the protected system to its
destination, labelled with its kind and schedule, distinct from the host links (solid, coloured by medium).

The item is a :class:`~app.gui.canvas.items.LinkItem` (it follows its end items the same way, is selected and
deleted like a link, and its id is the relationship's); it draws only its own look. The scene keeps the items in
step with the document's relationships (:func:`sync_replication_items`).
"""

from __future__ import annotations

import math

from PySide6.QtCore import QPointF, Qt
from PySide6.QtGui import QColor, QFont, QFontMetricsF, QPainter, QPalette, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QApplication
from shiboken6 import isValid

from app.gui.canvas.items import LinkItem, NodeItem, label_pill, link_font
from app.gui.plain_text import plain_tooltip
from models.present.replication_label import relationship_label, schedule_text
from models.project.kinds import SYSTEM_KINDS
from models.project.replication import REPLICATION_KIND_LABELS, Replication

REPLICATION_COLOR = "#7b4fc9"
"""The relationship's line colour (a purple no link medium uses)."""

ARROW = 9.0
"""The arrowhead's length, scene units."""


class ReplicationItem(LinkItem):
    """One replication relationship between two node items (``link_id`` is the relationship's id)."""

    def __init__(self, rep: Replication, source: NodeItem, target: NodeItem) -> None:
        self.replication = rep
        super().__init__(rep, source, target, None, None)  # type: ignore[arg-type]

    def set_link(self, link, catalog=None, carried=None) -> None:
        """Show relationship ``link`` (a :class:`Replication`): label "<kind> · <schedule>", tooltip; re-route."""
        rep: Replication = link
        self.link = link
        self.replication = rep
        self.carried = None
        self.color = QColor(REPLICATION_COLOR)
        self.label = relationship_label(rep)
        scene = self.source.scene()
        self._font = link_font(QFont(scene.font()) if scene is not None else QApplication.font())
        metrics = QFontMetricsF(self._font)
        self._pill = (metrics.horizontalAdvance(self.label) + 10, metrics.height() + 2)
        rpo = f", RPO required {rep.rpo_minutes:g} min" if rep.rpo_minutes else ""
        self.setToolTip(plain_tooltip(f"{rep.label or REPLICATION_KIND_LABELS[rep.kind]}: {rep.source} to "
                                      f"{rep.target}{rpo}\n{rep.bandwidth_mbit_s:g} Mbit/s, "
                                      f"{rep.replication_share_pct:g}% for replication, {rep.rtt_ms:g} ms round trip"))
        self._look_cache = None
        self.adjust()

    def _look(self, scale: float) -> tuple[QPen, QPixmap]:
        """A dash-dot pen of the relationship's colour (red while it has problems) and the label pill, drawn once
        per scale as a link's (:meth:`LinkItem._look`)."""
        key = (self.isSelected(), bool(self._problems), round(scale, 2), QApplication.palette().cacheKey())
        if self._look_cache is not None and self._look_cache[0] == key:
            return self._look_cache[1], self._look_cache[2]
        palette = QApplication.palette()
        color = QColor("#d64545") if self._problems else self.color
        pen = QPen(palette.color(QPalette.ColorRole.Highlight) if self.isSelected() else color, 2.2)
        pen.setStyle(Qt.PenStyle.DashDotLine)
        pixmap = label_pill(self._pill, scale, self._font, self.label, color, Qt.PenStyle.DashLine)
        self._look_cache = (key, pen, pixmap)
        return pen, pixmap

    def paint(self, painter: QPainter, option, widget=None) -> None:
        """The line and label as a link's, then an arrowhead at the destination's end."""
        super().paint(painter, option, widget)
        line = self._line
        if line.length() < 1:
            return
        angle = math.atan2(line.dy(), line.dx())
        tip = line.p2()
        left = QPointF(tip.x() - ARROW * math.cos(angle - 0.4), tip.y() - ARROW * math.sin(angle - 0.4))
        right = QPointF(tip.x() - ARROW * math.cos(angle + 0.4), tip.y() - ARROW * math.sin(angle + 0.4))
        color = painter.pen().color()
        painter.setPen(QPen(color, 1))
        painter.setBrush(color)
        painter.drawPolygon(QPolygonF([tip, left, right]))


def replication_between_systems(scenario, source: str, target: str) -> bool:
    """True when both items are storage systems (``models.project.kinds.SYSTEM_KINDS``): a line drawn between them
    is a replication relationship, never a host link."""
    a, b = scenario.node(source), scenario.node(target)
    return a is not None and b is not None and a.kind in SYSTEM_KINDS and b.kind in SYSTEM_KINDS


def sync_replication_items(scene) -> None:
    """Make the scene's replication items match the document's relationships: new ones added, removed ones taken
    away, edited ones re-labelled (``scene``: the :class:`~app.gui.canvas.scene.TopologyScene`)."""
    items: dict[str, ReplicationItem] | None = getattr(scene, "replication_items", None)
    if items is None:
        items = scene.replication_items = {}
    wanted = {r.id: r for r in scene.document.scenario.replications}
    for rep_id in list(items):
        item = items[rep_id]
        if not isValid(item):  # the scene was cleared (rebuild): its items are gone already
            items.pop(rep_id)
            continue
        rep = wanted.get(rep_id)
        if (rep is None or rep.source != item.replication.source or rep.target != item.replication.target
                or item.scene() is not scene):
            items.pop(rep_id)
            scene.link_items.pop(rep_id, None)
            item.detach()
            if item.scene() is scene:
                scene.removeItem(item)
    for rep_id, rep in wanted.items():
        item = items.get(rep_id)
        if item is not None:
            if item.replication != rep:
                item.set_link(rep)
            continue
        source, target = scene.node_items.get(rep.source), scene.node_items.get(rep.target)
        if source is None or target is None:
            continue
        item = ReplicationItem(rep, source, target)
        items[rep_id] = item
        scene.link_items[rep_id] = item
        scene.addItem(item)


__all__ = ["REPLICATION_COLOR", "ReplicationItem", "replication_between_systems", "schedule_text",
           "sync_replication_items"]
