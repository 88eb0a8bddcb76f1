"""Vector drawings for the report: topology diagram, capacity waterfall, latency-vs-IOPS chart.

Every drawing only places and labels numbers taken from the project and the engines' result objects.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Drawing, Group, Line, Polygon, Rect, String
from reportlab.graphics.widgets.markers import makeMarker
from reportlab.lib import colors
from reportlab.lib.utils import simpleSplit
from reportlab.pdfbase.pdfmetrics import stringWidth

from app.report.fonts import BOLD, REGULAR
from models.catalog import Catalog
from models.formatting import finite, fmt_capacity, fmt_iops, fmt_ms
from models.present import WaterfallBar, link_label, model_name, node_figures, node_names
from models.present.charts import BAND_WORDS, BandOutline, band_legend, band_outline, latency_axes, slo_off_chart_text
from models.present.replication_label import topology_label
from models.project.kinds import NODE_KINDS, kind_heading
from models.project.model import Scenario
from models.topology import slower_switch
from models.units import CapacityUnit

INK = colors.HexColor("#1F2933")
MUTED = colors.HexColor("#6B7785")
GRID = colors.HexColor("#D5DAE0")
BLUE = colors.HexColor("#0072B2")
ORANGE = colors.HexColor("#E69F00")
GREEN = colors.HexColor("#009E73")
RED = colors.HexColor("#D55E00")
PURPLE = colors.HexColor("#8C6BB1")
SKY = colors.HexColor("#56B4E9")

KIND_COLOURS = {
    "host": colors.HexColor("#56B4E9"),
    "switch": colors.HexColor("#8C6BB1"),
    "controller": colors.HexColor("#0072B2"),
    "hci_cluster": colors.HexColor("#009E73"),
    "cloud_vm": colors.HexColor("#E69F00"),
    "managed_service": colors.HexColor("#CC79A7"),
    "shelf": colors.HexColor("#7F7F7F"),
}
LINK_LABEL_SIZE = 6.8


def _cap(value: float | None, unit: CapacityUnit | str) -> str:
    """A capacity in the chosen large unit throughout (TB or TiB, never GB/GiB beside it)."""
    return fmt_capacity(value, unit, fixed=True)


def _drawing(width: float, height: float) -> Drawing:
    """A drawing whose renderer starts in the embedded font (reportlab's default would add Helvetica)."""
    drawing = Drawing(width, height)
    drawing.initialFontName = REGULAR
    drawing.initialFontSize = 8
    return drawing


def _layer(kind: str) -> int:
    """A node kind's column in the topology drawing: the kind table's layout column (an unknown kind: 2)."""
    row = NODE_KINDS.get(kind)
    return row.layout_column if row is not None else 2


# ---------------------------------------------------------------------------------------------------------------
# Topology


@dataclass(frozen=True)
class _Box:
    """One box of the topology drawing: a node, or (in the overview of a large design) a group of alike nodes."""

    id: str
    kind: str
    label: str
    figures: tuple[str, ...]
    x: float
    y: float


MIN_LABELLED_SCALE = 0.55
"""Below this scale a labelled diagram is unreadable: the report draws the grouped overview instead."""


def topology_drawing(scenario: Scenario, catalog: Catalog, unit: CapacityUnit, width: float, max_height: float):
    """The scenario's nodes (boxes with name and key figures) and links (lines with type and port count).

    Columns follow the I/O path (hosts, switches, storage, shelves); within a column, nodes keep their canvas
    order. The drawing is scaled down (never up) to fit ``width`` x ``max_height`` points. When that would shrink
    it below :data:`MIN_LABELLED_SCALE` (hundreds of nodes), it shows an overview instead: one box per kind and
    model with its count, one line per pair of boxes and link type with the ports added up.

    Returns (drawing, overview): overview is True when the grouped overview was drawn.
    """
    if not scenario.nodes:
        drawing = _drawing(width, 40)
        drawing.add(String(0, 20, "The scenario has no nodes.", fontName=REGULAR, fontSize=9, fillColor=MUTED))
        return drawing, False
    names = node_names(scenario.nodes, catalog)
    boxes = [_Box(n.id, n.kind, names[n.id], tuple(node_figures(n, catalog, unit)), n.x, n.y) for n in scenario.nodes]
    links = [(link.source, link.target,
              link_label(catalog, link.link_type, link.ports, _runs_at(scenario, catalog, link)))
             for link in scenario.links]
    replications = [(r.source, r.target, topology_label(r)) for r in scenario.replications]
    drawing = _layout(boxes, links, width, max_height, MIN_LABELLED_SCALE, replications)
    overview = drawing is None
    if overview:
        boxes, links, group_of = _overview(scenario, catalog)
        grouped = {(group_of[a], group_of[b], text): None for a, b, text in replications
                   if a in group_of and b in group_of and group_of[a] != group_of[b]}
        drawing = _layout(boxes, links, width, max_height, replications=list(grouped))
    return drawing, overview


def _runs_at(scenario: Scenario, catalog: Catalog, link) -> float | None:
    """The speed, Gb/s, ``link`` runs at when a slower switch holds it back (``models.topology.slower_switch``: the
    figures count that speed), else None."""
    slower = slower_switch(scenario, catalog, link)
    return slower.gbps if slower is not None else None


def _overview(scenario: Scenario, catalog: Catalog
              ) -> tuple[list[_Box], list[tuple[str, str, str]], dict[str, str]]:
    """Boxes of alike nodes (same kind and catalog model) with their count; links between them by type, ports
    added up; and each node's box id ({node id: box id})."""
    group_of: dict[str, str] = {}
    members: dict[str, list] = {}
    for node in scenario.nodes:
        key = f"{node.kind}|{node.catalog_id}"
        group_of[node.id] = key
        members.setdefault(key, []).append(node)
    boxes = []
    for key, nodes in members.items():
        first = nodes[0]
        label = f"{len(nodes):,} × {model_name(catalog, first.catalog_id, short=True)}"
        boxes.append(_Box(key, first.kind, label, (), min(n.x for n in nodes), min(n.y for n in nodes)))
    ports: dict[tuple[str, str, str], int] = {}
    for link in scenario.links:
        a, b = group_of.get(link.source), group_of.get(link.target)
        if a is None or b is None or a == b:
            continue
        key = (a, b, link.link_type, _runs_at(scenario, catalog, link))
        ports[key] = ports.get(key, 0) + link.ports
    links = [(a, b, link_label(catalog, lt, count, runs)) for (a, b, lt, runs), count in ports.items()]
    return boxes, links, group_of


def _layout(nodes: list[_Box], links: list[tuple[str, str, str]], width: float, max_height: float,
            min_scale: float = 0.0, replications: Sequence[tuple[str, str, str]] = ()):
    """The drawing of these boxes and links, scaled down to fit; None when it would be scaled below
    ``min_scale``. ``replications``: (source box id, destination box id, label) of each replication relationship,
    drawn as a labelled dash-dot arrow in the canvas's replication colour (:func:`_replication_arrows`); its
    destination is placed right under its source when both are in one column."""
    layers = sorted({_layer(n.kind) for n in nodes})
    columns = [_beside_sources(sorted((n for n in nodes if _layer(n.kind) == layer), key=lambda n: (n.x, n.y)),
                               replications)
               for layer in layers]
    ncols = len(columns)
    box_w = 112.0 if ncols <= 3 else 96.0
    gap_x = 84.0 if ncols <= 3 else 66.0
    # a link's type is written above its line and the port count below, on the longer horizontal segment of the
    # connector (78% of the gap): widen the gap so the widest type fits there without touching a box
    widest = max([stringWidth(text.rsplit(" ×", 1)[0], REGULAR, LINK_LABEL_SIZE) for _, _, text in links] or [0.0])
    gap_x = max(gap_x, (widest + 10.0) / 0.78)
    label_size, detail_size, pad, line_h = 8.0, 7.0, 5.0, 9.0

    layouts: dict[str, tuple[float, float, float, float, list[tuple[str, str, float]]]] = {}
    column_heights = []
    rep_lines = {(a, b): _label_lines(text, box_w - _REP_INSET - 6) for a, b, text in replications}
    gaps = _column_gaps(columns, rep_lines)
    for column in columns:
        blocks = []
        for node in column:
            text: list[tuple[str, str, float]] = []
            for line in simpleSplit(node.label, BOLD, label_size, box_w - 2 * pad):
                text.append((line, BOLD, label_size))
            for figure in node.figures:
                for line in simpleSplit(figure, REGULAR, detail_size, box_w - 2 * pad):
                    text.append((line, REGULAR, detail_size))
            blocks.append((node, text, len(text) * line_h + 2 * pad + 4))
        column_heights.append(sum(b[2] for b in blocks) + sum(gaps[n.id] for n in column[:-1]))
        layouts_col = blocks
        for node, text, height in layouts_col:
            layouts[node.id] = (0, 0, box_w, height, text)
    natural_h = max(column_heights) + 24  # room for the kind captions
    natural_w = ncols * box_w + (ncols - 1) * gap_x
    scale = min(1.0, width / natural_w, max_height / natural_h)
    if scale < min_scale:
        return None

    for ci, column in enumerate(columns):
        x = ci * (box_w + gap_x)
        total = column_heights[ci]
        top = natural_h - 12 - (natural_h - 24 - total) / 2
        for node in column:
            _, _, w, h, text = layouts[node.id]
            layouts[node.id] = (x, top - h, w, h, text)
            top -= h + gaps[node.id]

    group = Group()
    index = {n.id: ci for ci, column in enumerate(columns) for n in column}
    # fan-out / fan-in per node and direction decides where the shared "spine" of an elbow connector goes
    fan: dict[tuple[str, int], int] = {}
    for source, target, _ in links:
        if source in index and target in index and index[source] != index[target]:
            a, b = sorted((source, target), key=lambda i: index[i])
            fan[(a, index[b])] = fan.get((a, index[b]), 0) + 1
            fan[(b, index[a])] = fan.get((b, index[a]), 0) + 1
    labels = []
    for source, target, text in links:
        if source not in layouts or target not in layouts:
            continue
        a, b = source, target
        if index[a] > index[b]:
            a, b = b, a
        ax, ay, aw, ah, _ = layouts[a]
        bx, by, bw, bh, _ = layouts[b]
        if index[a] == index[b]:  # same column: connect bottom of the upper box to top of the lower one
            if ay < by:
                (ax, ay, aw, ah), (bx, by, bw, bh) = (bx, by, bw, bh), (ax, ay, aw, ah)
            x1, y1, x2, y2 = ax + aw / 2, ay, bx + bw / 2, by + bh
            group.add(Line(x1, y1, x2, y2, strokeColor=MUTED, strokeWidth=1.1))
            labels.append((x1 + 4, (y1 + y2) / 2, "start", text))
            continue
        x1, y1, x2, y2 = ax + aw, ay + ah / 2, bx, by + bh / 2
        fan_out = fan.get((a, index[b]), 1)
        fan_in = fan.get((b, index[a]), 1)
        if fan_in > fan_out:  # many sources into one target: spine near the target, label on the source side
            xm = x2 - 0.22 * gap_x
            labels.append(((x1 + xm) / 2, y1, "middle", text))
        else:
            xm = x1 + 0.22 * gap_x
            labels.append(((xm + x2) / 2, y2, "middle", text))
        for seg in ((x1, y1, xm, y1), (xm, y1, xm, y2), (xm, y2, x2, y2)):
            if seg[:2] != seg[2:]:
                group.add(Line(*seg, strokeColor=MUTED, strokeWidth=1.1))
    for lx, ly, anchor, text in labels:
        kind, _, count = text.rpartition(" ×")
        kind, count = (kind, f"×{count}") if kind else (text, "")
        if anchor == "middle":  # on a horizontal segment: type above the line, port count below
            group.add(String(lx, ly + 2.2, kind, fontName=REGULAR, fontSize=LINK_LABEL_SIZE, fillColor=INK,
                             textAnchor="middle"))
            if count:
                group.add(String(lx, ly - 7.4, count, fontName=REGULAR, fontSize=LINK_LABEL_SIZE, fillColor=INK,
                                 textAnchor="middle"))
        else:  # beside a vertical line
            group.add(String(lx, ly - 2.0, f"{kind} {count}".strip(), fontName=REGULAR, fontSize=LINK_LABEL_SIZE,
                             fillColor=INK))

    _replication_arrows(group, layouts, rep_lines)
    for ci, column in enumerate(columns):
        kinds = sorted({kind_heading(n.kind) for n in column})
        if len(column) > 1 and len({n.kind for n in column}) == 1:
            kinds = [kind_heading(column[0].kind, plural=True)]
        caption = " / ".join(kinds)
        group.add(
            String(ci * (box_w + gap_x) + box_w / 2, natural_h - 8, caption, fontName=BOLD, fontSize=7.5,
                   fillColor=MUTED, textAnchor="middle")
        )
    for node in nodes:
        x, y, w, h, text = layouts[node.id]
        colour = KIND_COLOURS.get(node.kind, MUTED)
        group.add(Rect(x, y, w, h, rx=3, ry=3, fillColor=colors.Color(colour.red, colour.green, colour.blue, 0.10),
                       strokeColor=colour, strokeWidth=1.0))
        group.add(Rect(x, y + h - 3, w, 3, fillColor=colour, strokeColor=None))
        ty = y + h - pad - 3 - 7.5
        for line, font, size in text:
            group.add(String(x + pad, ty, line, fontName=font, fontSize=size, fillColor=INK))
            ty -= line_h

    group.scale(scale, scale)
    drawing = _drawing(width, natural_h * scale)
    group.translate((width / scale - natural_w) / 2, 0)
    drawing.add(group)
    return drawing


REPLICATION_COLOUR = colors.HexColor("#7b4fc9")
"""A replication relationship's line (the canvas's colour, ``app.gui.canvas.replication.REPLICATION_COLOR``)."""
_REP_INSET = 12.0
"""How far in from its boxes' left edge a replication arrow runs between a source and the destination under it."""
_REP_DASH = [4.0, 2.0, 1.0, 2.0]
"""Dash-dot, as the canvas draws a replication relationship."""


def replication_note(scenario: Scenario, overview: bool) -> str:
    """The topology text's sentence on replication arrows (with a leading space), "" for a scenario without a
    replication relationship; ``overview``: the grouped overview was drawn, where a relationship inside one box
    is not drawn."""
    if not scenario.replications:
        return ""
    return (" A dash-dot arrow is a replication relationship, from the protected system to its destination, "
            "labelled with its kind, schedule and the recovery point objective required"
            + (" (one between two items drawn as one box is not drawn: Protection and DR lists every relationship)"
               if overview else "") + ".")


def _beside_sources(column: list[_Box], replications: Sequence[tuple[str, str, str]]) -> list[_Box]:
    """The column's boxes in their order, each replication destination moved right under its source when both are
    in the column (so the relationship's arrow is short and crosses no other box)."""
    order = list(column)
    ids = {n.id for n in order}
    moved: set[str] = set()
    for source, target, _ in replications:
        if source not in ids or target not in ids or source == target or target in moved:
            continue
        box = next(n for n in order if n.id == target)
        order.remove(box)
        order.insert(next(i for i, n in enumerate(order) if n.id == source) + 1, box)
        moved.add(target)
    return order


def _label_lines(text: str, width: float) -> list[str]:
    """A replication label in lines of at most ``width`` points at the link label size, broken between its
    " · " parts (a part wider than a line at its spaces)."""
    lines: list[str] = []
    for part in text.split(" · "):
        joined = f"{lines[-1]} · {part}" if lines else part
        if lines and stringWidth(joined, REGULAR, LINK_LABEL_SIZE) <= width:
            lines[-1] = joined
        else:
            lines += simpleSplit(part, REGULAR, LINK_LABEL_SIZE, width)
    return lines


def _column_gaps(columns: list[list[_Box]], rep_lines: dict[tuple[str, str], list[str]]) -> dict[str, float]:
    """The space under each box before the next in its column, points: 14, or room for the label of a
    replication relationship between the two."""
    gaps: dict[str, float] = {}
    for column in columns:
        for upper, lower in zip(column, column[1:] + [None], strict=True):
            lines = [] if lower is None else (rep_lines.get((upper.id, lower.id)) or rep_lines.get((lower.id, upper.id))
                                              or [])
            gaps[upper.id] = max(14.0, len(lines) * (LINK_LABEL_SIZE + 1.4) + 12.0)
    return gaps


def _replication_arrows(group: Group, layouts: dict, rep_lines: dict[tuple[str, str], list[str]]) -> None:
    """Each replication relationship as a dash-dot arrow from its source box to its destination box with its
    label beside it: down (or up) near the left edge when one box is under the other, else straight between the
    boxes' nearest edges with the label at its middle. Drawn over the links, under the boxes."""
    for (source, target), lines in rep_lines.items():
        if source not in layouts or target not in layouts or source == target:
            continue
        sx, sy, sw, sh, _ = layouts[source]
        tx, ty, tw, th, _ = layouts[target]
        if abs(sx - tx) < 1e-6:  # one column: from one box's edge to the other's, near the left
            x1 = x2 = sx + _REP_INSET
            y1, y2 = (sy, ty + th) if sy > ty else (sy + sh, ty)
            lx, anchor = x1 + 5.0, "start"
        else:
            left = sx < tx
            x1, y1 = (sx + sw, sy + sh / 2) if left else (sx, sy + sh / 2)
            x2, y2 = (tx, ty + th / 2) if left else (tx + tw, ty + th / 2)
            lx, anchor = (x1 + x2) / 2, "middle"
        group.add(Line(x1, y1, x2, y2, strokeColor=REPLICATION_COLOUR, strokeWidth=1.3, strokeDashArray=_REP_DASH))
        angle = math.atan2(y2 - y1, x2 - x1)
        head = [(x2 - 6.0 * math.cos(angle + d), y2 - 6.0 * math.sin(angle + d)) for d in (-0.4, 0.4)]
        group.add(Polygon([x2, y2, *head[0], *head[1]], fillColor=REPLICATION_COLOUR, strokeColor=None))
        leading = LINK_LABEL_SIZE + 1.4
        top = (y1 + y2) / 2 + (len(lines) * leading) / 2 - LINK_LABEL_SIZE
        for i, line in enumerate(lines):
            group.add(String(lx, top - i * leading, line, fontName=REGULAR, fontSize=LINK_LABEL_SIZE,
                             fillColor=REPLICATION_COLOUR, textAnchor=anchor))


# ---------------------------------------------------------------------------------------------------------------
# Capacity waterfall


def waterfall_drawing(bars: Sequence[WaterfallBar], unit: CapacityUnit, width: float, memo: dict | None = None):
    """A horizontal waterfall: one bar per ``models.present.WaterfallBar``, in order.

    A ``total`` is a bar from zero, a ``drop`` or ``gain`` a floating bar from before to after, a ``flat`` step (it
    changes nothing) a tick; a total with a P10-P90 ``band`` (the effective capacity's) gets an outlined box from
    P10 to P90 across its bar. ``memo``: drawings already made (by what they show), so systems with equal waterfalls
    share one drawing object; None makes a new one.
    """
    rows = [(b.label, b.before, b.after, b.kind, getattr(b, "band", None)) for b in bars]
    return _memoised(memo, ("waterfall", tuple(rows), unit, width), lambda: _waterfall(rows, unit, width))


WATERFALL_CUT_RATIO = 1.5
"""The copies' bars (after the effective total: Snapshot and FlexClone copies and the total with them) that reach more
than this times the largest of the other bars are cut at the axis' end, a break mark on them, so the deductions on
the way to usable are not specks on an axis scaled to the copies (review 57 #18: 300 TiB for a 25 TiB system)."""


def waterfall_axis_top(rows: Sequence[tuple]) -> tuple[float, bool]:
    """The waterfall's axis end, bytes (before rounding to a tick), and whether bars are cut at it: the largest bar
    up to the effective total (the last total before the copies' steps) when the copies' bars reach more than
    :data:`WATERFALL_CUT_RATIO` times it, else the largest bar. ``rows``: (label, before, after, kind, band)."""
    def high(r: tuple) -> float:
        values = [v for v in (r[1], r[2]) if finite(v)] + ([r[4][1]] if r[4] is not None and finite(r[4][1]) else [])
        return max(values, default=0.0)

    totals = [i for i, r in enumerate(rows) if r[3] == "total"]
    every = max((high(r) for r in rows), default=0.0)
    if len(totals) < 2 or totals[-1] != len(rows) - 1:
        return every, False
    # the copies' part: the steps after the second-last total (the effective one) and the last total
    core = max((high(r) for r in rows[:totals[-2] + 1]), default=0.0)
    if core > 0 and every > WATERFALL_CUT_RATIO * core:
        return core, True
    return every, False


def _memoised(memo: dict | None, key: tuple, build):
    """``memo[key]``, built by ``build()`` the first time; a new drawing every time when ``memo`` is None."""
    if memo is None:
        return build()
    if key not in memo:
        memo[key] = build()
    return memo[key]


def _waterfall(rows: list[tuple], unit: CapacityUnit, width: float) -> Drawing:
    label_w, value_w, bar_h, row_h = 150.0, 78.0, 11.0, 17.0
    widest = max([stringWidth(str(r[0]), REGULAR, 7.5) for r in rows] or [0.0])
    label_w = min(max(label_w, widest + 12.0), 0.38 * width)  # long step names are not cut where room allows
    plot_w = width - label_w - value_w
    large = CapacityUnit(unit).large_bytes  # ticks at round numbers of the display unit
    axis_end, cut = waterfall_axis_top(rows)
    top = _nice_max((axis_end or 1.0) / large) * large
    height = row_h * len(rows) + 18
    drawing = _drawing(width, height)
    for i in range(5):
        gx = label_w + plot_w * i / 4
        drawing.add(Line(gx, 14, gx, height, strokeColor=GRID, strokeWidth=0.5))
        drawing.add(String(gx, 4, _cap(top * i / 4, unit) if i else "0", fontName=REGULAR, fontSize=6.5,
                           fillColor=MUTED, textAnchor="middle"))
    for i, (name, start, end, kind, band) in enumerate(rows):
        y = height - (i + 1) * row_h
        drawing.add(String(label_w - 6, y + 2.5, _clip(name, REGULAR, 7.5, label_w - 10), fontName=REGULAR,
                           fontSize=7.5, fillColor=INK, textAnchor="end"))
        if not (finite(start) and finite(end)):
            drawing.add(String(label_w + 2, y + 2.5, "n/a", fontName=REGULAR, fontSize=7.5, fillColor=MUTED))
            continue
        lo, hi = (0.0, end) if kind == "total" else (min(start, end), max(start, end))
        colour = {"total": BLUE, "drop": RED, "gain": GREEN}.get(kind, MUTED)
        if kind == "flat":  # a step that changes nothing: a thin tick at the running value
            xf = label_w + plot_w * min(end, top) / top
            drawing.add(Rect(xf - 0.6, y, 1.2, bar_h, fillColor=MUTED, strokeColor=None))
            drawing.add(String(width - 2, y + 2.5, _cap(end, unit), fontName=REGULAR, fontSize=7.5,
                               fillColor=MUTED, textAnchor="end"))
            continue
        x0 = label_w + plot_w * min(lo, top) / top
        w = max(plot_w * (min(hi, top) - min(lo, top)) / top, 0.8)
        drawing.add(Rect(x0, y, w, bar_h, fillColor=colour, strokeColor=None))
        if cut and hi > top:  # a bar beyond the axis: cut at its end, a break mark (two white slashes) near it
            for dx in (-9.0, -5.5):
                bx = label_w + plot_w + dx
                drawing.add(Line(bx - 1.8, y - 1.0, bx + 1.8, y + bar_h + 1.0, strokeColor=colors.white,
                                 strokeWidth=1.4))
        if band is not None and finite(band[0]) and finite(band[1]):  # the P10-P90 band: an outlined box
            bx0, bx1 = (label_w + plot_w * min(v, top) / top for v in band)
            drawing.add(Rect(bx0, y + bar_h * 0.3, max(bx1 - bx0, 0.8), bar_h * 0.4, fillColor=None, strokeColor=INK,
                             strokeWidth=0.8))
        if i + 1 < len(rows) and kind != "total":  # connector to the next bar
            xe = label_w + plot_w * min(end, top) / top
            drawing.add(Line(xe, y, xe, y - (row_h - bar_h), strokeColor=MUTED, strokeWidth=0.5,
                             strokeDashArray=[1.5, 1.5]))
        drawing.add(String(width - 2, y + 2.5, _cap(end, unit), fontName=BOLD if kind == "total" else REGULAR,
                           fontSize=7.5, fillColor=INK, textAnchor="end"))
    return drawing


def _clip(text: str, font: str, size: float, width: float) -> str:
    if stringWidth(text, font, size) <= width:
        return text
    while text and stringWidth(text + "…", font, size) > width:
        text = text[:-1]
    return text + "…"


# ---------------------------------------------------------------------------------------------------------------
# Latency vs IOPS


def _nice_max(value: float) -> float:
    if not finite(value) or value <= 0:
        return 1.0
    import math

    exp = 10 ** math.floor(math.log10(value))
    for step in (1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if step * exp >= value:
            return step * exp
    return 10 * exp


def _style_axes(plot: LinePlot) -> None:
    """The report charts' axes: small regular labels in ink, muted axis lines, a light grid."""
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName = REGULAR
        axis.labels.fontSize = 7
        axis.labels.fillColor = INK
        axis.strokeColor = MUTED
        axis.visibleGrid = True
        axis.gridStrokeColor = GRID
        axis.gridStrokeWidth = 0.4


P99_COLOUR = colors.HexColor("#7FA7D9")
"""The p99 line's colour: the mean's blue, lighter (the GUI draws it the same way)."""


def latency_chart(wp, width: float, height: float = 210.0, memo: dict | None = None):
    """The latency-vs-IOPS curve of one workload (the mean, and the 99th percentile where computed), with the SLO
    line, the operating point and saturation.

    ``memo``: drawings already made (by every figure they show), so workloads with equal curves, targets and SLOs
    share one drawing object; None makes a new one."""
    key = ("latency", width, height, *_latency_key(wp))
    return _memoised(memo, key, lambda: _latency_chart(wp, width, height))


def _latency_key(wp) -> tuple:
    """Everything of a workload's performance that its latency chart shows: workloads with equal keys have equal
    charts (and equal answers from :func:`latency_chart_p99_above`)."""
    return (wp.slo_ms, wp.slo_statistic, wp.max_iops_at_slo_band_p10, wp.saturation_iops_band_p10, wp.saturation_iops,
            wp.latency_at_target_ms, wp.target_iops, wp.max_iops_at_slo,
            wp.max_iops_at_slo_point,
            tuple((p.iops, p.latency_ms, p.latency_band_p10_ms, p.latency_band_p90_ms, p.latency_p99_ms)
                  for p in wp.curve),
            tuple((p.iops, p.latency_ms, p.latency_band_p10_ms, p.latency_band_p90_ms, p.latency_p99_ms)
                  for p in wp.open_curve))


def _operating_point(wp) -> tuple[float | None, float | None]:
    """(latency in ms, IOPS) at the workload's target, or (None, None) where it has none."""
    op_latency = wp.latency_at_target_ms if (finite(wp.target_iops) and finite(wp.latency_at_target_ms)) else None
    return op_latency, (wp.target_iops if op_latency is not None else None)


def _latency_y_axis(wp, curve: list[tuple[float, float]]):
    """(``latency_axes``, the SLO when it is left above the chart else None, the latency axis's top in ms)."""
    slo = wp.slo_ms if finite(wp.slo_ms) else None
    op_latency, _ = _operating_point(wp)
    lat_cap = max(3 * (slo or 0), 1.6 * (op_latency or 0), curve[0][1] * 3)
    y_top = min(max(c[1] for c in curve), lat_cap)
    # an SLO far above every latency the chart must show (models.present.charts.latency_axes, as on screen) is
    # marked at the top edge (an arrow and its figure) instead of stretching the axis until the curve looks flat
    axes = latency_axes([wp])
    slo_above = slo if slo is not None and axes.slo_off_chart_ms is not None else None
    if slo_above is not None:
        y_max = _nice_max(max(axes.latency_high_ms, (op_latency or 0) * 1.15))
    else:
        y_max = _nice_max(max(y_top, (slo or 0) * 1.25, (op_latency or 0) * 1.15) * 1.05)
    return axes, slo_above, y_max


def _clipped(points: list[tuple[float, float]], y_max: float) -> list[tuple[float, float]]:
    """The points up to the top of the chart, the last segment cut at it."""
    out: list[tuple[float, float]] = []
    for i, (x, y) in enumerate(points):
        if y <= y_max:
            out.append((x, y))
            continue
        if out:
            x0, y0 = points[i - 1]
            out.append((x0 + (x - x0) * (y_max - y0) / (y - y0), y_max))
        break
    return out


def _p99_points(wp) -> list[tuple[float, float]]:
    """(IOPS, p99 latency in ms) along the ramp and the open model, up to its first saturated point."""
    p99: list[tuple[float, float]] = []
    for p in (*wp.curve, *wp.open_curve):
        if p.latency_p99_ms is None or not finite(p.iops):
            break
        p99.append((p.iops, p.latency_p99_ms))
    return p99


def latency_chart_p99_above(wp, memo: dict | None = None) -> bool:
    """True when the workload has a 99th-percentile curve but ``latency_chart`` cannot draw it: the whole line is
    above the latency axis (kept to the mean curve when the SLO is far above it, e.g. spinning192's 50 ms SLO over
    a 1.3-1.8 ms mean with a 3-4 ms p99). The caption then says so instead of describing a line that is not
    there. False when the line is drawn, or the workload has no p99 figures or no curve.

    ``memo``: answers already given (the ``latency_chart`` memo will do), one per equal chart."""
    if memo is not None:
        key = ("p99 above", *_latency_key(wp))
        if key not in memo:
            memo[key] = latency_chart_p99_above(wp)
        return memo[key]
    curve = [(p.iops, p.latency_ms) for p in wp.curve if finite(p.iops) and finite(p.latency_ms)]
    p99 = _p99_points(wp)
    if not curve or len(p99) < 2:
        return False
    return len(_clipped(p99, _latency_y_axis(wp, curve)[2])) <= 1


BAND_LEGEND = BAND_WORDS
"""The latency chart legend's words for the uncertainty band (``band_legend`` adds where it ends)."""


def _band_outline(wp, y_max: float) -> BandOutline:
    """The uncertainty band as the latency chart draws it (``models.present.charts.band_outline``, the screen's
    rule), its upper edge cut at the chart's top ``y_max`` where the SLO is not on the mean."""
    return band_outline(wp, top_ms=y_max)


def latency_chart_band(wp) -> BandOutline:
    """The uncertainty band ``latency_chart`` draws for ``wp`` (its caption describes this); an empty outline for a
    workload without a curve."""
    curve = [(p.iops, p.latency_ms) for p in wp.curve if finite(p.iops) and finite(p.latency_ms)]
    if not curve:
        return BandOutline()
    return _band_outline(wp, _latency_y_axis(wp, curve)[2])


def _latency_chart(wp, width: float, height: float) -> Drawing:
    drawing = _drawing(width, height)
    curve = [(p.iops, p.latency_ms) for p in wp.curve if finite(p.iops) and finite(p.latency_ms)]
    if not curve:
        drawing.add(String(0, height / 2, "No curve: the workload has no predicted points.", fontName=REGULAR,
                           fontSize=9, fillColor=MUTED))
        return drawing
    slo = wp.slo_ms if finite(wp.slo_ms) else None
    sat = wp.saturation_iops if finite(wp.saturation_iops) and wp.saturation_iops > 0 else None
    op_latency, op_iops = _operating_point(wp)
    slo_iops = wp.max_iops_at_slo if finite(wp.max_iops_at_slo) else None

    extension = [(p.iops, p.latency_ms) for p in wp.open_curve
                 if finite(p.iops) and finite(p.latency_ms)]
    if extension:
        extension = [curve[-1], *extension]  # the open model continues from the ramp's last point
    x_data = max([c[0] for c in curve + extension] + [op_iops or 0, slo_iops or 0])
    sat_shown = sat is not None and sat <= 1.6 * x_data
    x_max = _nice_max(max(x_data, sat if sat_shown else 0) * 1.05)
    axes, slo_above, y_max = _latency_y_axis(wp, curve)

    def clipped(points):
        return _clipped(points, y_max)

    shown = clipped(curve)
    shown_extension = clipped(extension) if extension else []
    p99 = _p99_points(wp)
    shown_p99 = clipped(p99)

    # the band as on screen (models.present.charts.band_outline): on a mean SLO it ends where its pessimistic
    # edge meets the SLO (it filled the chart from there to the top, read as "saturated from 609K": REVIEW54 #7)
    outline = _band_outline(wp, y_max)
    band = list(zip(outline.iops, outline.p10_ms, outline.p90_ms))
    has_band = outline.drawn
    legend = [(BLUE, "predicted latency", "line")]
    if has_band or outline.end == "not met":
        legend.append((BLUE, band_legend(BAND_LEGEND, wp, outline), "band"))
    if len(shown_extension) > 1:
        legend.append((BLUE, "open model (offered IOPS)", "dashdot"))
    if len(shown_p99) > 1:
        legend.append((P99_COLOUR, "99th percentile of I/O latency", "line"))
    elif len(p99) > 1:  # the p99 is wholly above an axis kept to the mean curve (an SLO far above it)
        legend.append((P99_COLOUR, "99th percentile of I/O latency (above the chart)", "line"))
    if slo is not None:
        legend.append((RED, f"SLO {fmt_ms(slo)}" + (" (p99)" if wp.slo_statistic == "p99" else "")
                       + (" (above the chart)" if slo_above is not None else ""), "dash"))
    if slo_iops is not None:
        legend.append((GREEN, f"max at SLO: {fmt_iops(slo_iops)}", "Diamond"))
    if op_iops is not None and op_latency is not None:
        legend.append((ORANGE, f"target {fmt_iops(op_iops)} @ {fmt_ms(op_latency)}", "FilledCircle"))
    if sat is not None:
        legend.append((MUTED, f"saturation {fmt_iops(sat)}" + ("" if sat_shown else " (beyond the chart)"),
                       "dash"))
    # the legend wraps onto more rows when it is wider than the chart; the plot moves up to make room
    rows: list[list] = [[]]
    x = 46.0
    for item in legend:
        item_w = 24 + stringWidth(item[1], REGULAR, 6.8)
        if rows[-1] and x + item_w - 7 > width:
            rows.append([])
            x = 46.0
        rows[-1].append(item)
        x += item_w
    lift = 10.0 * (len(rows) - 1)

    plot = LinePlot()
    plot.x, plot.y = 46, 46 + lift
    plot.width, plot.height = width - 60, height - 62 - lift
    data = [shown]
    styles = [(BLUE, 1.6, None, None)]
    if len(shown_extension) > 1:
        data.append(shown_extension)
        styles.append((BLUE, 1.2, [5, 2, 1, 2], None))
    if len(shown_p99) > 1:
        data.append(shown_p99)
        styles.append((P99_COLOUR, 1.2, None, None))
    if slo is not None and slo_above is None:
        data.append([(0, slo), (x_max, slo)])
        styles.append((RED, 1.0, [4, 3], None))
    if sat_shown:
        data.append([(sat, 0), (sat, y_max)])
        styles.append((MUTED, 0.8, [2, 2], None))
    slo_point = wp.max_iops_at_slo_point
    if slo_point is not None:
        data.append([(slo_point[0], min(slo_point[1], y_max))])
        styles.append((GREEN, 0, None, "Diamond"))
    if op_iops is not None and op_latency is not None and op_latency <= y_max:
        data.append([(op_iops, op_latency)])
        styles.append((ORANGE, 0, None, "FilledCircle"))
    plot.data = data
    for i, (colour, stroke, dash, marker) in enumerate(styles):
        plot.lines[i].strokeColor = colour
        plot.lines[i].strokeWidth = stroke
        if dash:
            plot.lines[i].strokeDashArray = dash
        if marker:
            plot.lines[i].symbol = makeMarker(marker, size=7, fillColor=colour, strokeColor=colors.white,
                                              strokeWidth=0.6)
    _style_axes(plot)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, x_max
    plot.xValueAxis.valueStep = x_max / 5
    plot.xValueAxis.labelTextFormat = lambda v: fmt_iops(v) if v else "0"
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax = 0, y_max
    plot.yValueAxis.valueStep = y_max / 5
    plot.yValueAxis.labelTextFormat = lambda v: f"{v:g}"
    drawing.add(plot)
    if has_band:  # the band as a translucent polygon: P10 edge forward, P90 edge back, clipped to the chart
        def to_xy(x, y):
            return plot.x + plot.width * min(x, x_max) / x_max, plot.y + plot.height * min(max(y, 0.0), y_max) / y_max
        outline = [to_xy(x, lo) for x, lo, _ in band if x <= x_max] + \
            [to_xy(x, hi) for x, _, hi in reversed(band) if x <= x_max]
        if len(outline) >= 4:
            drawing.add(Polygon([c for xy in outline for c in xy], fillColor=BLUE, fillOpacity=0.15,
                                strokeColor=None, strokeWidth=0))
    drawing.add(String(plot.x + plot.width / 2, 24 + lift, "IOPS", fontName=REGULAR, fontSize=7.5, fillColor=MUTED,
                       textAnchor="middle"))
    if slo_above is not None:  # the SLO marked at the top edge: a red arrow up and its figure in words
        top, left = plot.y + plot.height, plot.x + 6
        drawing.add(Line(left, top - 12, left, top - 2, strokeColor=RED, strokeWidth=1.0, strokeDashArray=[2, 1.5]))
        drawing.add(Polygon([left - 3, top - 3, left + 3, top - 3, left, top + 2], fillColor=RED, strokeColor=None,
                            strokeWidth=0))
        note = slo_off_chart_text(axes, "the predicted latency's")  # on a white ground: a line or the band
        # may pass behind it
        drawing.add(Rect(left + 4, top - 11.5, stringWidth(note, REGULAR, 6.8) + 4, 9, fillColor=colors.white,
                         fillOpacity=0.85, strokeColor=None, strokeWidth=0))
        drawing.add(String(left + 6, top - 9, note, fontName=REGULAR, fontSize=6.8, fillColor=RED))
    ylabel = String(0, 0, "latency (ms)", fontName=REGULAR, fontSize=7.5, fillColor=MUTED, textAnchor="middle")
    label_group = Group(ylabel)
    label_group.translate(10, plot.y + plot.height / 2)
    label_group.rotate(90)
    drawing.add(label_group)

    dashes = {"line": None, "dash": [3, 2], "dashdot": [5, 2, 1, 2]}
    for r, row in enumerate(rows):
        x, y = plot.x, 6 + lift - 10.0 * r
        for colour, text, kind in row:
            if kind == "band":
                drawing.add(Rect(x, y - 3, 14, 6, fillColor=colour, fillOpacity=0.15, strokeColor=None))
            elif kind in dashes:
                drawing.add(Line(x, y, x + 14, y, strokeColor=colour, strokeWidth=1.4, strokeDashArray=dashes[kind]))
            else:
                marker = makeMarker(kind, size=6, fillColor=colour, strokeColor=colour)
                marker.x, marker.y = x + 7, y
                drawing.add(marker)
            drawing.add(String(x + 17, y - 2.5, text, fontName=REGULAR, fontSize=6.8, fillColor=INK))
            x += 24 + stringWidth(text, REGULAR, 6.8)
    return drawing


RUNWAY_TOP_PCT = 150.0
"""The runway chart's top, in percent of a resource's limit."""


def runway_leaves_top(series) -> bool:
    """True when a runway series (``models.present.resilience.runway_series``: (name, [(month, percent), ...]))
    rises above the runway chart's top (``RUNWAY_TOP_PCT``), so the chart ends its line there with an arrow."""
    return any(v > RUNWAY_TOP_PCT for _, pts in series for _, v in pts)


RUNWAY_LEGEND_ROWS = 5
"""Rows the runway chart's legend takes at most (the plot keeps 60 of its 170 points' height); more lines than
fit are counted on the last row, not named (their months until they run out are in the lines under the chart)."""


def runway_alike(series) -> list:
    """Runway series (name, [(month, percent), ...]) with the lines that are the same point for point drawn once:
    the first one's name says how many more it stands for ("OLTP 1 and 199 more alike: target / max IOPS at
    SLO"), in the order of the first of each. A project of many equal workloads otherwise draws hundreds of equal
    lines on top of one another and as many legend entries, more than the chart holds."""
    groups: dict[tuple, list] = {}
    for name, pts in series:
        groups.setdefault(tuple(pts), [name, pts, 0])[2] += 1
    merged = []
    for name, pts, count in groups.values():
        if count > 1:
            head, sep, tail = name.partition(": ")
            name = f"{head} and {count - 1} more alike{sep}{tail}"
        merged.append((name, pts))
    return merged


def runway_chart(series, width: float, height: float = 170.0):
    """The runway: each resource's use as a percent of its limit over the months (``models.present.resilience
    .runway_series``), with the 100% line where it runs out; a line rising above 150% ends at the top edge, an
    arrow up where it leaves. Lines alike are drawn once (:func:`runway_alike`). The legend wraps onto more rows
    (the plot made shorter) when its names do not fit one row, up to :data:`RUNWAY_LEGEND_ROWS`, the last saying
    how many more lines there are."""
    series = runway_alike(series)
    drawing = _drawing(width, height)
    palette = [BLUE, ORANGE, GREEN, RED, MUTED]
    rows: list[list[tuple[int, str]]] = [[]]  # the legend's entries, row by row
    used = 0.0
    for i, (name, _pts) in enumerate(series):
        step = 24 + stringWidth(name, REGULAR, 6.8)
        if rows[-1] and used + step > width - 46:
            rows.append([])
            used = 0.0
        rows[-1].append((i, name))
        used += step
    more = 0  # lines beyond the legend's last row: counted, not named
    if len(rows) > RUNWAY_LEGEND_ROWS:
        rows = rows[:RUNWAY_LEGEND_ROWS - 1]
        more = len(series) - sum(len(row) for row in rows)
        rows.append([])
    lift = 10.0 * (len(rows) - 1)
    plot = LinePlot()
    plot.x, plot.y = 46, 44 + lift
    plot.width, plot.height = width - 60, height - 60 - lift
    months = max((pts[-1][0] for _, pts in series), default=60)
    # a line above the top ends where it leaves the chart, an arrow there (clipped flat at 150% it read as a
    # use that stops growing)
    shown = [_clipped(list(pts), RUNWAY_TOP_PCT) or [(pts[0][0], RUNWAY_TOP_PCT)] for _, pts in series]
    exits = [(i, line[-1][0]) for i, ((_, pts), line) in enumerate(zip(series, shown, strict=True))
             if max(v for _, v in pts) > RUNWAY_TOP_PCT]
    data = shown + [[(0, 100.0), (months, 100.0)]]
    plot.data = data
    for i in range(len(series)):
        plot.lines[i].strokeColor = palette[i % len(palette)]
        plot.lines[i].strokeWidth = 1.5
    plot.lines[len(series)].strokeColor = RED
    plot.lines[len(series)].strokeDashArray = [4, 3]
    plot.lines[len(series)].strokeWidth = 0.8
    _style_axes(plot)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax, plot.xValueAxis.valueStep = 0, months, 12
    plot.yValueAxis.valueMin, plot.yValueAxis.valueMax, plot.yValueAxis.valueStep = 0, RUNWAY_TOP_PCT, 25
    plot.yValueAxis.labelTextFormat = lambda v: f"{v:.0f}%"
    drawing.add(plot)
    drawing.add(String(plot.x + plot.width / 2, 20 + lift, "months from now", fontName=REGULAR, fontSize=7.5,
                       fillColor=MUTED, textAnchor="middle"))
    for i, month in exits:  # an arrow up where the line leaves the top
        ax, ay = plot.x + plot.width * min(month, months) / months, plot.y + plot.height
        drawing.add(Polygon([ax - 3.5, ay, ax + 3.5, ay, ax, ay + 6], fillColor=palette[i % len(palette)],
                            strokeColor=None, strokeWidth=0))
    for r, row in enumerate(rows):
        x, y = plot.x, 6 + lift - 10.0 * r
        for i, name in row:
            colour = palette[i % len(palette)]
            drawing.add(Line(x, y, x + 14, y, strokeColor=colour, strokeWidth=1.4))
            drawing.add(String(x + 17, y - 2.5, name, fontName=REGULAR, fontSize=6.8, fillColor=INK))
            x += 24 + stringWidth(name, REGULAR, 6.8)
    if more:
        drawing.add(String(plot.x, 6 + lift - 10.0 * (len(rows) - 1) - 2.5,
                           f"and {more} more line{'' if more == 1 else 's'}, in the colours in turn", fontName=REGULAR,
                           fontSize=6.8, fillColor=INK))
    return drawing
