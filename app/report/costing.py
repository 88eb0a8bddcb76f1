"""The report's "Cost and footprint" section: energy, carbon and the total cost of ownership over the horizon, with
a chart of cumulative cost per option (``models.costing``: the figures and rows; this module lays them out)."""

from __future__ import annotations

from collections.abc import Callable

from reportlab.graphics.charts.lineplots import LinePlot
from reportlab.graphics.shapes import Circle, Drawing, Line, Polygon, Rect, String
from reportlab.pdfbase.pdfmetrics import stringWidth

from app.report import graphics as g
from app.report.fonts import REGULAR
from models.costing import Tco
from models.present.cost import (
    NO_BREAK_EVENS,
    cloud_price_lines,
    cost_notes,
    cost_series,
    design_apart,
    design_line_texts,
    figure_rows,
    footprint_rows,
    mark_months,
    series_dash,
    series_marker,
    table_rows,
    uncharted_words,
)

DASH_ARRAYS: dict[str, list[float] | None] = {"solid": None, "dash": [4.0, 2.0], "dot": [1.2, 1.6],
                                              "dashdot": [4.0, 1.6, 1.2, 1.6]}
"""``models.present.cost.series_dash``'s styles as reportlab dash arrays (points on, off, ...)."""


def cost_chart(series: list[tuple[str, tuple[float, ...]]], currency: str, width: float,
               height: float = 180.0, design_first: bool = True) -> Drawing:
    """Cumulative cost per option over months 0..horizon (``models.costing.present.cost_series``), the design
    first (solid blue, thick; ``design_first`` False: the series are cloud options only, every line thin), with a
    legend under the plot."""
    thick = 0 if design_first else -1
    palette = [g.BLUE, g.ORANGE, g.GREEN, g.RED, g.PURPLE, g.SKY]
    legend: list[list[tuple[int, str, float]]] = [[]]  # rows of (series index, label, x)
    x = 58.0
    for i, (name, _values) in enumerate(series):
        label = name  # whole, on a row of its own when it is long; cut only where it is wider than the chart
        room = width - 58 - 24
        while stringWidth(label, REGULAR, 6.8) > room and len(label) > 1:
            label = label[:-2] + "…"
        advance = 24 + stringWidth(label, REGULAR, 6.8)
        if x + advance > width and legend[-1]:
            legend.append([])
            x = 58.0
        legend[-1].append((i, label, x))
        x += advance
    bottom = 40 + 11 * len(legend)
    drawing = Drawing(width, height + 11 * len(legend))
    drawing.initialFontName, drawing.initialFontSize = REGULAR, 8  # the embedded font (no Helvetica added)
    plot = LinePlot()
    plot.x, plot.y = 58, bottom
    plot.width, plot.height = width - 70, height - 52
    months = max(len(values) - 1 for _, values in series)
    plot.data = [[(m, v) for m, v in enumerate(values)] for _, values in series]
    for i in range(len(series)):
        plot.lines[i].strokeColor = palette[i % len(palette)]
        plot.lines[i].strokeWidth = 2.2 if i == thick else 1.2
        plot.lines[i].strokeDashArray = DASH_ARRAYS[series_dash(i, design_first)]  # options that run alike
    top = max((max(values) for _, values in series), default=1.0) or 1.0
    step = _nice_step(top)
    plot.xValueAxis.valueMin, plot.xValueAxis.valueMax = 0, months
    plot.xValueAxis.valueStep = 12 if months >= 24 else 6 if months >= 12 else 1
    plot.yValueAxis.valueMin, plot.yValueAxis.valueStep = 0, step
    plot.yValueAxis.valueMax = step * (int(top / step) + 1)
    plot.yValueAxis.labelTextFormat = _axis_label
    for axis in (plot.xValueAxis, plot.yValueAxis):
        axis.labels.fontName, axis.labels.fontSize = REGULAR, 7
        axis.strokeColor = g.MUTED
    plot.yValueAxis.visibleGrid = True
    plot.yValueAxis.gridStrokeColor = g.GRID
    drawing.add(plot)
    for i, (_name, values) in enumerate(series):  # marks staggered along each line: lines that run alike show both
        for m in mark_months(i, len(series), len(values) - 1) if months else ():
            x = plot.x + plot.width * m / months
            y = plot.y + plot.height * values[m] / plot.yValueAxis.valueMax
            drawing.add(_marker(series_marker(i, design_first), x, y, 2.6, palette[i % len(palette)]))
    drawing.add(String(plot.x + plot.width / 2, bottom - 22, f"months from the start (cumulative cost, {currency})",
                       fontName=REGULAR, fontSize=7.5, fillColor=g.MUTED, textAnchor="middle"))
    for row, items in enumerate(legend):
        y = bottom - 36 - 11 * row
        for i, label, lx in items:
            colour = palette[i % len(palette)]
            drawing.add(Line(lx, y + 2.5, lx + 14, y + 2.5, strokeColor=colour, strokeWidth=2.2 if i == thick else 1.4,
                             strokeDashArray=DASH_ARRAYS[series_dash(i, design_first)]))
            drawing.add(_marker(series_marker(i, design_first), lx + 14, y + 2.5, 2.4, colour))
            drawing.add(String(lx + 17, y, label, fontName=REGULAR, fontSize=6.8, fillColor=g.INK))
    return drawing


def _marker(kind: str, x: float, y: float, r: float, colour):
    """A cost line's end mark (``models.present.cost.series_marker``) centred on (x, y), ``r`` points across half."""
    if kind == "circle":
        return Circle(x, y, r, fillColor=colour, strokeColor=None)
    if kind == "square":
        return Rect(x - r * 0.85, y - r * 0.85, r * 1.7, r * 1.7, fillColor=colour, strokeColor=None)
    if kind == "triangle":
        return Polygon([x - r, y + r * 0.8, x + r, y + r * 0.8, x, y - r], fillColor=colour, strokeColor=None)
    return Polygon([x, y + r, x + r, y, x, y - r, x - r, y], fillColor=colour, strokeColor=None)


def _axis_label(value: float) -> str:
    """An axis amount: "0" at the origin, as written under a thousand ("500"), in thousands from one thousand
    ("250k", "2.5k") or, from one million, millions ("20M", "2.5M"). (The origin read "0k", and an axis of a few
    hundred "0k", "0k", "1k".)"""
    if abs(value) >= 1e6:
        return f"{value / 1e6:,.1f}".removesuffix(".0") + "M"
    if abs(value) >= 1000:
        return f"{value / 1000:,.1f}".removesuffix(".0") + "k"
    return f"{value:,.0f}"


def _nice_step(top: float) -> float:
    """A round axis step giving four to eight steps up to ``top``."""
    step = 10 ** max(len(f"{int(top):d}") - 1, 0)
    while top / step > 8:
        step *= 2 if str(step)[0] == "1" else 2.5 if str(step)[0] == "2" else 2
    return float(step)


def cost_section(builder, kit: tuple[Callable, Callable, Callable, Callable]) -> list:
    """The "Cost and footprint" section of ``builder`` (an ``app.report.document.ReportBuilder``): the running-cost
    inputs with their sources, power, energy and carbon, the chart of cumulative cost, the total per option with the
    break-even month, and the notes. ``kit``: the document's (escape, heading, paragraph, table) helpers."""
    _e, _heading, _para, _table = kit
    s, w = builder.s, builder.width
    tco: Tco = builder.tco()
    horizon = tco.inputs.horizon_months
    story: list = [builder.section_break(), _heading("Cost and footprint", s)]
    story.append(builder.p(_e(
        f"What the design costs to own and run over {horizon} months, and what it emits, against the managed cloud "
        "file services and a single-node Cloud Volumes ONTAP system in each cloud holding the same data as it "
        f"grows. Amounts in {tco.currency}; every input is listed with "
        "its source, and a default or assumption is marked as such.")))
    story.append(_para("Power, energy and carbon", s.h2))
    story.append(_table([["Figure", "Value"]] + [[_e(a), _e(b)] for a, b in footprint_rows(tco)], [w * 0.35, w * 0.65],
                        s))
    story.append(_para("Total cost of ownership", s.h2))
    apart = design_apart(tco)  # a design whose hardware is not priced: not charted or ranked
    series = cost_series(tco)
    drawn = series[1:] if apart else series
    if drawn:  # none: a design apart and no option that is an alternative (the sentence below says why)
        story.append(cost_chart(drawn, tco.currency, w, design_first=not apart))
    own = ("the design (thick line) pays its hardware at the start, then support, power and space each month; "
           if tco.design.deployment == "on-prem" else
           "the design (thick line) pays each month for what it provisions; ")
    short = "" if tco.design.complete or apart else f" The design's line leaves out {'; '.join(tco.design.missing)}."
    uncharted = uncharted_words(tco)
    story.append(_para(_e(f"No chart: {uncharted[0].lower()}{uncharted[1:]}." if not drawn else
                          f"Cumulative cost per option: {'' if apart else own}a cloud service pays each month for "
                          f"what it provisions to hold the data and carry the workloads' I/O as they grow (the first "
                          f"four options of the table are drawn: those that carry the I/O longest, from the cheapest)."
                          f"{short}" + (f" {uncharted}." if uncharted else "")), s.caption))
    if apart:
        story.append(builder.p(_e(apart + "."), s.small))
    if tco.scope:  # a DR copy or a second site the cloud options do not have (models.present.cost.comparison_scope)
        story.append(builder.p(_e(tco.scope + "."), s.small))
    options = table_rows(tco)  # a design apart is not ranked; an option not drawn is marked "(not charted)"
    # no break-even against an option that cannot carry the I/O: its cell blank, the notes say why (review 54)
    options = [(a, b, "" if c in NO_BREAK_EVENS else c) for a, b, c in options]
    if any(c for _, _, c in options):
        rows = [["Option", f"Total over {horizon} months", "This design breaks even"]]
        rows += [[_e(a), _e(b), _e(c)] for a, b, c in options]
        story.append(_table(rows, [w * 0.5, w * 0.28, w * 0.22], s))
    else:  # a cloud design: no break-even to show
        rows = [["Option", f"Total over {horizon} months"]] + [[_e(a), _e(b)] for a, b, _ in options]
        story.append(_table(rows, [w * 0.62, w * 0.38], s))
    lines = design_line_texts(tco, builder.scenario, builder.catalog)
    story += [builder.p("• " + _e(text), s.small) for text in lines]
    on_site = tco.design.deployment != "cloud"  # a cloud design uses no power, space or support inputs
    if on_site:
        story.append(_para("Inputs", s.h2))
        story.append(_table([["Input", "Value and source"]] + [[_e(a), _e(b)] for a, b in figure_rows(tco)],
                            [w * 0.22, w * 0.78], s))
    embodied = [["Item", "kg CO2e", "Basis"]] + [
        [_e(x.item), f"{x.kg:,.0f}", _e(x.basis + (" (assumption)" if x.assumed else ""))] for x in tco.embodied.lines]
    if on_site or len(embodied) > 1:
        story.append(_para("Embodied carbon", s.h2))
        if len(embodied) > 1:
            story.append(_table(embodied, [w * 0.42, w * 0.13, w * 0.45], s))
        from models.costing.carbon import DRIVE_SOURCE, ENCLOSURE_SOURCE

        story.append(builder.p(_e(f"Drives: {DRIVE_SOURCE}. Enclosures: {ENCLOSURE_SOURCE}."), s.small))
    story.append(_para("Notes", s.h2))  # the comparison's notes: not part of the embodied carbon
    for note in tuple(cost_notes(tco)) + tuple(f"not counted: {x}" for x in tco.embodied.not_counted):
        story.append(builder.p("• " + _e(note[0].upper() + note[1:]) + ".", s.small))
    cloud = cloud_price_lines(tco, builder.catalog)
    story.append(_para("Cloud prices", s.h2))
    story += [builder.p("• " + _e(text), s.tiny) for text in cloud]
    return story
