"""Canvas items: passive drawings of nodes and links. They show the record and its problems; they never edit."""

from __future__ import annotations

import html
import math
import re

from PySide6.QtCore import QLineF, QPointF, QRectF, Qt
from PySide6.QtGui import (
    QBrush,
    QColor,
    QFont,
    QFontInfo,
    QFontMetricsF,
    QPainter,
    QPainterPath,
    QPalette,
    QPen,
    QPixmap,
)
from PySide6.QtWidgets import QApplication, QGraphicsItem, QGraphicsObject, QStyleOptionGraphicsItem, QWidget

from app.gui.icons import KIND_COLORS, kind_icon
from app.gui.plain_text import plain_tooltip
from models.catalog import Catalog
from models.present.labels import link_tag
from models.present.nodes import display_title, key_figures
from models.project.model import Link, NodeBase

NODE_W, NODE_H = 220.0, 64.0
HANDLE_R = 6.0

MEDIUM_COLORS = {"FC": "#3b82c4", "Ethernet": "#2a9d8f", "SAS": "#8a8a8a", "PCIe": "#8a8a8a"}


def card_fonts(base: QFont) -> tuple[QFont, QFont]:
    """The fonts a node card draws with, from the canvas' ``base`` font (the scene's): the bold title (at least
    9 pt) and the smaller font of the key-figure and model lines (half a point below the title)."""
    title = QFont(base)
    title.setBold(True)
    title.setPointSizeF(max(title.pointSizeF(), 9.0))
    small = QFont(base)
    small.setPointSizeF(title.pointSizeF() - 0.5)
    return title, small


def link_font(base: QFont) -> QFont:
    """The font of a link's label pill, from the canvas' ``base`` font: 1.5 pt smaller, at least 7 pt."""
    font = QFont(base)
    font.setPointSizeF(max(font.pointSizeF() - 1.5, 7.0))
    return font


def smallest_label_pixels(base: QFont) -> float:
    """The pixel height (at zoom 1) of the smallest text the canvas draws from ``base`` (a card's key-figure
    line or a link's label), as its QFontInfo gives it: presentation mode zooms the canvas so this reaches a
    readable size on screen."""
    return float(min(QFontInfo(font).pixelSize() for font in (*card_fonts(base), link_font(base))))


_BAYS = re.compile(r"\s*\(\d+\s*x\s[^()]*\)")


def card_model_name(name: str) -> str:
    """A shelf's catalog name as its card's third line: without the bay count in brackets ("NetApp NS224 (24 x
    NVMe)" -> "NetApp NS224"), which beside the card's own "12 x 3.84TB SSD" read as a contradiction (REVIEW54
    #16); the tooltip keeps the whole name."""
    short = _BAYS.sub("", name).strip()
    return short or name


class NodeItem(QGraphicsObject):
    """One node: icon, label, key figures, a problem badge and a connect handle on its right edge."""

    def __init__(self, node: NodeBase, catalog: Catalog) -> None:
        super().__init__()
        self.node_id = node.id
        self.links: list[LinkItem] = []
        self._problems: list = []
        self._hover = False
        self._adjusted_at = QPointF()
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsMovable | QGraphicsItem.GraphicsItemFlag.ItemIsSelectable
                      | QGraphicsItem.GraphicsItemFlag.ItemSendsGeometryChanges)
        self.setAcceptHoverEvents(True)
        self.setZValue(1)
        # Drawn once into a pixmap and blitted while other items move (a 200-node canvas stays smooth to drag).
        self.setCacheMode(QGraphicsItem.CacheMode.DeviceCoordinateCache)
        # Links follow through QGraphicsObject's own signals: overriding itemChange in PySide6 trips a
        # reference-count bug on bool / None values (a fatal "bool_dealloc" at exit).
        self.xChanged.connect(self._moved)
        self.yChanged.connect(self._moved)
        self.set_node(node, catalog)

    # state from the model

    def set_node(self, node: NodeBase, catalog: Catalog) -> None:
        """Show ``node`` with its record from ``catalog``: title, key figures, model line, tooltip, icon, position."""
        self.node = node
        record = catalog.find(node.catalog_id)
        self.full_title = node.label or (record.name if record else node.catalog_id)
        self.title = display_title(node, self.full_title)
        self.subtitle = key_figures(node, catalog)
        # third line: the catalog model when the title is the user's own label (never the internal id)
        self.model_line = ((card_model_name(record.name) if node.kind == "shelf" else record.name)
                           if record is not None and node.label and record.name != node.label else "")
        self.model_full = record.name if record is not None and self.model_line else ""
        """the whole catalog name the third line shortens (in the tooltip)"""
        self.details = ""
        if node.kind == "host" and node.adapter:
            adapter = catalog.find(node.adapter)
            if adapter is not None:
                self.details = (f"<br>{node.adapters_per_host} x {html.escape(adapter.name)} per host "
                                f"({adapter.ports * node.adapters_per_host} ports each)")
        self.color = QColor(KIND_COLORS.get(node.kind, "#888888"))
        self.icon = kind_icon(node.kind, KIND_COLORS.get(node.kind))
        self._set_tooltip()
        if self.pos() != QPointF(node.x, node.y):
            self.setPos(node.x, node.y)
        self.update()

    def set_problems(self, problems: list) -> None:
        """Show ``problems`` (``Problem`` records about this node): the count badge and the messages in the tooltip."""
        problems = list(problems)
        if problems == self._problems:  # a new evaluation with the same findings: no repaint (1,000 items)
            return
        self._problems = problems
        self._set_tooltip()
        self.update()

    def _set_tooltip(self) -> None:
        """Rich-text tooltip: title, id, key figures, the adapter line and the problems, user text escaped."""
        model = f"<br>{html.escape(self.model_full)}" if self.model_full else ""
        tip = (f"<b>{html.escape(self.full_title)}</b>{model}<br>{html.escape(self.node.id)} · "
               f"{html.escape(self.node.catalog_id)}<br>{html.escape(self.subtitle)}{self.details}")
        if self._problems:
            tip += "<hr>" + "<br>".join(("⛔ " if p.severity == "error" else "⚠ ") + html.escape(p.message)
                                        for p in self._problems)
        self.setToolTip(tip)

    @property
    def problems(self) -> list:
        """The problems last given to `set_problems`."""
        return self._problems

    # geometry

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt's name
        """Qt override: the body plus room for the problem badge and the connect handle (item coordinates)."""
        return QRectF(-4, -12, NODE_W + 16, NODE_H + 16)

    def shape(self) -> QPainterPath:
        """Qt override: the rounded body and the connect handle, for hit tests and selection."""
        path = QPainterPath()
        path.setFillRule(Qt.FillRule.WindingFill)  # the handle overlaps the body: keep both filled
        path.addRoundedRect(QRectF(0, 0, NODE_W, NODE_H), 8, 8)
        path.addEllipse(self.handle_center(), HANDLE_R + 3, HANDLE_R + 3)
        return path

    def handle_center(self) -> QPointF:
        """The connect handle's centre, middle of the right edge (item coordinates)."""
        return QPointF(NODE_W, NODE_H / 2)

    def is_on_handle(self, scene_pos: QPointF) -> bool:
        """True when ``scene_pos`` (scene coordinates) is on the connect handle (a few pixels of slack)."""
        return QLineF(self.mapFromScene(scene_pos), self.handle_center()).length() <= HANDLE_R + 4

    def center(self) -> QPointF:
        """The body's centre in scene coordinates (where links aim)."""
        return self.mapToScene(QPointF(NODE_W / 2, NODE_H / 2))

    def _moved(self) -> None:
        pos = self.pos()
        if pos == self._adjusted_at:  # xChanged and yChanged of one move: follow once
            return
        self._adjusted_at = pos
        for link in self.links:
            link.adjust()

    def hoverEnterEvent(self, event) -> None:  # noqa: N802
        """Qt override: show the connect handle while the pointer is over the item."""
        self._hover = True
        self.update()
        super().hoverEnterEvent(event)

    def hoverLeaveEvent(self, event) -> None:  # noqa: N802
        """Qt override: hide the connect handle again (unless selected)."""
        self._hover = False
        self.update()
        super().hoverLeaveEvent(event)

    # drawing

    def paint(self, painter: QPainter, option: QStyleOptionGraphicsItem, widget: QWidget | None = None) -> None:
        """Qt override: draw the body, kind strip, icon, three text lines, the handle and the problem badge."""
        palette = QApplication.palette()
        base, text = palette.color(QPalette.ColorRole.Base), palette.color(QPalette.ColorRole.Text)
        dark = base.lightness() < 128
        body = QRectF(0, 0, NODE_W, NODE_H)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        selected = self.isSelected()
        border = palette.color(QPalette.ColorRole.Highlight) if selected else self.color.darker(110 if dark else 120)
        painter.setPen(QPen(border, 2.4 if selected else 1.2))
        fill = base.lighter(135) if dark else base
        painter.setBrush(fill)
        painter.drawRoundedRect(body, 8, 8)
        # kind strip
        strip = QPainterPath()
        strip.addRoundedRect(QRectF(0, 0, 8, NODE_H), 4, 4)
        painter.fillPath(strip, self.color)
        # icon
        self.icon.paint(painter, QRectF(14, NODE_H / 2 - 14, 28, 28).toRect())
        # text
        # the scene's font (a cached item's painter starts with the application's; presentation mode keeps the
        # cards' font while the application's grows)
        scene = self.scene()
        title_font, small_font = card_fonts(QFont(scene.font()) if scene is not None else QFont(painter.font()))
        text_left, text_w = 50.0, NODE_W - 50 - 12
        painter.setPen(text)
        painter.setFont(title_font)
        metrics = QFontMetricsF(title_font)
        painter.drawText(QRectF(text_left, 8, text_w, metrics.height()), Qt.AlignmentFlag.AlignLeft,
                         metrics.elidedText(self.title, Qt.TextElideMode.ElideRight, text_w))
        painter.setFont(small_font)
        metrics = QFontMetricsF(small_font)
        muted = QColor(text)
        muted.setAlphaF(0.75)
        painter.setPen(muted)
        painter.drawText(QRectF(text_left, 8 + metrics.height() + 4, text_w, metrics.height()),
                         Qt.AlignmentFlag.AlignLeft,
                         metrics.elidedText(self.subtitle, Qt.TextElideMode.ElideRight, text_w))
        muted.setAlphaF(0.5)
        painter.setPen(muted)
        painter.drawText(QRectF(text_left, NODE_H - metrics.height() - 6, text_w, metrics.height()),
                         Qt.AlignmentFlag.AlignLeft,
                         metrics.elidedText(self.model_line, Qt.TextElideMode.ElideRight, text_w))
        # connect handle
        if self._hover or selected:
            painter.setPen(QPen(border, 1.2))
            painter.setBrush(palette.color(QPalette.ColorRole.Highlight))
            painter.drawEllipse(self.handle_center(), HANDLE_R, HANDLE_R)
        # problem badge
        if self._problems:
            errors = sum(p.severity == "error" for p in self._problems)
            badge = QColor("#d64545" if errors else "#d99a1e")
            centre = QPointF(NODE_W - 4, 0)
            painter.setPen(QPen(fill, 2))
            painter.setBrush(badge)
            painter.drawEllipse(centre, 10, 10)
            painter.setPen(QColor("white"))
            painter.setFont(small_font)
            painter.drawText(QRectF(centre.x() - 10, centre.y() - 10, 20, 20), Qt.AlignmentFlag.AlignCenter,
                             str(len(self._problems)) if len(self._problems) < 10 else "9+")


def label_pill(size: tuple[float, float], scale: float, font: QFont, label: str, color: QColor,
               border: Qt.PenStyle = Qt.PenStyle.SolidLine) -> QPixmap:
    """A link's label as a rounded pill (``size``: its width and height in scene pixels) drawn at the view's
    ``scale``: a ``border``-styled outline in ``color``, the window colour inside, the label centred in the text
    colour (a host link's and a replication link's, ``app.gui.canvas.replication``)."""
    palette = QApplication.palette()
    w, h = size
    pixmap = QPixmap(max(1, math.ceil((w + 2) * scale)), max(1, math.ceil((h + 2) * scale)))
    pixmap.setDevicePixelRatio(scale)
    pixmap.fill(Qt.GlobalColor.transparent)
    pill = QPainter(pixmap)
    pill.setRenderHints(QPainter.RenderHint.Antialiasing | QPainter.RenderHint.TextAntialiasing)
    pill.setFont(font)
    rect = QRectF(1, 1, w, h)
    pill.setPen(QPen(color, 1, border))
    pill.setBrush(QBrush(palette.color(QPalette.ColorRole.Window)))
    pill.drawRoundedRect(rect, h / 2, h / 2)
    pill.setPen(palette.color(QPalette.ColorRole.Text))
    pill.drawText(rect, Qt.AlignmentFlag.AlignCenter, label)
    pill.end()
    return pixmap


class LinkItem(QGraphicsObject):
    """A link between two node items, labelled with its type and port count."""

    def __init__(self, link: Link, source: NodeItem, target: NodeItem, catalog: Catalog,
                 carried: str | None = None) -> None:
        super().__init__()
        self.link_id = link.id
        self.source, self.target = source, target
        source.links.append(self)
        target.links.append(self)
        self.setFlags(QGraphicsItem.GraphicsItemFlag.ItemIsSelectable)
        self.setZValue(0)  # below nodes: a link passing another item goes behind it
        self._line = QLineF()
        self._bounds = QRectF()
        self._label_t = 0.5
        self._problems: list = []
        self._look_cache: tuple | None = None
        # exposedRect in paint: a link crossing the repainted area blits its label only when the label is in it
        self.setFlag(QGraphicsItem.GraphicsItemFlag.ItemUsesExtendedStyleOption)
        self.set_link(link, catalog, carried)

    def set_link(self, link: Link, catalog: Catalog, carried: str | None = None) -> None:
        """Show ``link``: colour by the link type's medium, label "<type> xN" for N > 1 ports (the type named by
        the protocol ``carried`` over it when its type carries several), tooltip; re-route it."""
        self.link = link
        self.carried = carried
        record = catalog.find(link.link_type)
        self.color = QColor(MEDIUM_COLORS.get(getattr(record, "medium", ""), "#888888"))
        self.label = link_tag(catalog, link.link_type, carried) + (f" ×{link.ports}" if link.ports > 1 else "")
        # label font and pill size, measured once (paint runs for every link on every frame of a drag); from the
        # canvas' font as the cards' (presentation mode keeps it while the application's grows)
        scene = self.source.scene()
        self._font = link_font(QFont(scene.font()) if scene is not None else QApplication.font())
        metrics = QFontMetricsF(self._font)
        self._pill = (metrics.horizontalAdvance(self.label) + 10, metrics.height() + 2)
        self.setToolTip(plain_tooltip(f"{record.name if record else link.link_type} × {link.ports} port(s)\n{link.id}"))
        self._look_cache = None
        self.adjust()

    def set_problems(self, problems: list) -> None:
        """Show ``problems`` about this link: drawn red and dashed while there are any."""
        problems = list(problems)
        if problems == self._problems:
            return
        self._problems = problems
        self._look_cache = None
        self.update()

    def detach(self) -> None:
        """Remove this link from its end items' link lists (before it leaves the scene)."""
        for end in (self.source, self.target):
            if self in end.links:
                end.links.remove(self)

    LABEL_POSITIONS = (0.5,) + tuple(t for k in range(1, 9) for t in (0.5 - 0.05 * k, 0.5 + 0.05 * k))
    """Where along the link its label may sit (fraction of the way from source to target), in order of
    preference: the middle, else the nearest spot not covered by another node or another link's label."""

    def adjust(self) -> None:
        """Follow the end items (the label keeps its fraction of the way: it is re-placed by the scene once the
        layout settles, not on every step of a drag)."""
        self.prepareGeometryChange()
        a, b = self.source.center(), self.target.center()
        self._line = QLineF(self._clip(a, b, self.source), self._clip(b, a, self.target))
        self._bounds = QRectF(self._line.p1(), self._line.p2()).normalized().adjusted(-60, -20, 60, 20)
        self.update()

    def set_label_position(self, t: float) -> None:
        """Put the label at fraction ``t`` of the way from source to target."""
        if t != self._label_t:
            self._label_t = t
            self.update()

    def line_ends(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The drawn line's ends (scene coordinates: where it leaves the source and the target box)."""
        return (self._line.x1(), self._line.y1()), (self._line.x2(), self._line.y2())

    def pill_size(self) -> tuple[float, float]:
        """The label pill's width and height (scene units)."""
        return self._pill

    def label_position(self) -> float:
        """Where the label sits: the fraction of the way from source to target."""
        return self._label_t

    def label_rect(self, t: float | None = None) -> QRectF:
        """The label pill's rectangle (scene coordinates) at ``t`` along the link (default: where it is)."""
        point = self._line.pointAt(self._label_t if t is None else t)
        w, h = self._pill
        return QRectF(point.x() - w / 2, point.y() - h / 2, w, h)

    @staticmethod
    def _clip(inside: QPointF, outside: QPointF, item: NodeItem) -> QPointF:
        """Where the segment leaves the item's box."""
        dx, dy = outside.x() - inside.x(), outside.y() - inside.y()
        if dx == 0 and dy == 0:
            return inside
        tx = (NODE_W / 2) / abs(dx) if dx else math.inf
        ty = (NODE_H / 2) / abs(dy) if dy else math.inf
        t = min(tx, ty, 1.0)
        return QPointF(inside.x() + dx * t, inside.y() + dy * t)

    def boundingRect(self) -> QRectF:  # noqa: N802
        """Qt override: the line's box with room for the label pill (item coordinates), computed once per move
        (:meth:`adjust`), asked many times a frame."""
        return self._bounds

    def mousePressEvent(self, event) -> None:  # noqa: N802
        """A press where the link crosses another item goes to that item (a link never steals a node's click)."""
        scene = self.scene()
        if scene is not None and any(isinstance(i, NodeItem) for i in scene.items(event.scenePos())):
            event.ignore()
            return
        super().mousePressEvent(event)

    def shape(self) -> QPainterPath:
        """Qt override: a 10-unit-wide stroke along the line, for hit tests and selection."""
        path = QPainterPath(self._line.p1())
        path.lineTo(self._line.p2())
        from PySide6.QtGui import QPainterPathStroker

        stroker = QPainterPathStroker()
        stroker.setWidth(10)
        return stroker.createStroke(path)

    def _look(self, scale: float) -> tuple[QPen, QPixmap]:
        """The line's pen and the label pill drawn once into a pixmap at ``scale`` device pixels per scene unit
        (a drag repaints hundreds of links a frame: each draws one line and blits one pixmap)."""
        key = (self.isSelected(), bool(self._problems), round(scale, 2), QApplication.palette().cacheKey())
        if self._look_cache is not None and self._look_cache[0] == key:
            return self._look_cache[1], self._look_cache[2]
        palette = QApplication.palette()
        color = QColor("#d64545") if self._problems else self.color
        width = 1.6 + min(self.link.ports, 8) * 0.35
        pen = QPen(palette.color(QPalette.ColorRole.Highlight) if self.isSelected() else color, width)
        if self._problems:
            pen.setStyle(Qt.PenStyle.DashLine)
        pixmap = label_pill(self._pill, scale, self._font, self.label, color)
        self._look_cache = (key, pen, pixmap)
        return pen, pixmap

    def paint(self, painter: QPainter, option, widget=None) -> None:
        """Qt override: draw the line (red and dashed with problems, thicker with more ports) and blit its label
        pill where the repainted area (``option.exposedRect``; all of it when ``option`` is None) shows it."""
        transform = painter.worldTransform()
        device = painter.device()
        scale = math.hypot(transform.m11(), transform.m12()) * (device.devicePixelRatioF() if device else 1.0)
        pen, pixmap = self._look(scale)
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(pen)
        painter.drawLine(self._line)
        # the label on its pill, in the middle unless another node or label covers that spot
        pill = self.label_rect()
        exposed = option.exposedRect if option is not None else None
        if exposed is None or exposed.intersects(pill):
            painter.drawPixmap(QPointF(pill.left() - 1, pill.top() - 1), pixmap)
