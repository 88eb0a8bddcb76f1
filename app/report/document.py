"""The sizing report's story: cover, summary, topology, BOM, capacity, performance, comparison, sources, validation.

Everything here lays out what the engines computed (``models.evaluate.evaluate`` results and
``models.validation.run_validation`` outcomes) and what ``models.present`` derives from them (waterfall bars,
verdicts, comparison rows, the bill of materials); it decides nothing itself. One module although it is long: it
is the report's one story, a section per method of :class:`ReportBuilder`, sharing its styles and table helper;
the drawings are in ``graphics`` and the sources table's numbers in ``sources``.
"""

from __future__ import annotations

import copy
import datetime as _dt
import functools
import io
import re
from collections.abc import Mapping, Sequence
from xml.sax.saxutils import escape, unescape

from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.enums import TA_CENTER, TA_LEFT
from reportlab.lib.pagesizes import A4, letter
from reportlab.lib.styles import ParagraphStyle
from reportlab.lib.units import mm
from reportlab.pdfbase.pdfdoc import PDFResourceDictionary
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.pdfgen import canvas as rl_canvas
from reportlab.platypus import (
    BaseDocTemplate,
    CondPageBreak,
    Flowable,
    Frame,
    KeepTogether,
    NextPageTemplate,
    PageBreak,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
    TableStyle,
)
from reportlab.platypus.doctemplate import ActionFlowable, FrameBreak, NullActionFlowable, _ktAllow
from reportlab.platypus.tables import CellStyle

from app.report import graphics as g
from app.report.fonts import BOLD, REGULAR, text_out
from app.report.links import LinkedText, has_address, linked, linked_lines
from app.report.source_notes import SourceNotes
from app.report.sources import catalog_numbers, field_label, preset_numbers
from models.catalog import Catalog
from models.catalog.schema import KIND_LABELS
from models.formatting import (
    NOT_AVAILABLE,
    finite,
    fmt_capacity,
    fmt_iops,
    fmt_latency_tails,
    fmt_max_iops_at_slo,
    fmt_mbps,
    fmt_months,
    fmt_ms,
    fmt_ratio,
    fmt_utilization,
)
from models.performance.results import WorkloadPerformance
from models.present import (
    bill_of_materials,
    bottleneck_sentence,
    capacity_fits,
    comparison_rows,
    evaluation_verdict,
    headline,
    node_names,
    target_text,
    verdicts,
    yes_no,
)
from models.present.bom import NO_PART_NUMBER, footprint
from models.present.capacity_text import exact_figures, text_in_unit
from models.present.case_titles import case_title
from models.present.charts import band_caption
from models.present.citations import customer_citation, workload_notes
from models.present.comparison import GROUP, SECTION
from models.present.concurrency import (
    CONDITIONAL_WHY,
    TARGET_CONDITIONAL,
    headroom_cell,
    max_iops_with_reach,
    reach_words,
    target_met_cell,
)
from models.present.dr_system import shown_waterfall
from models.present.formula_precision import precise_formula
from models.present.headroom import MULTIPLE_NOTE, any_multiple, effective_words, sizer_headroom_cell
from models.present.iops_bound import bottleneck_words, knee_words, slo_capped_words, station_words
from models.present.key_figures import GROWTH_NOT_MEASURED, key_figures
from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS
from models.present.provider_size import provider_size_once
from models.present.resilience import ha_state_label, ha_state_words, targets_grow
from models.present.uncertainty import band_summary, workload_profile_text
from models.present.validation import (
    error_text,
    headline_lines,
    predicted_text,
    published_text,
    quantity_label,
    tolerance_text,
)
from models.present.verdicts import (
    CAPACITY_NOT_JUDGED,
    CAPACITY_NOT_MEASURED,
    GROWTH_NOT_MEASURED_CELL,
    Headline,
    assumed_floor_words,
    n_plus_capacity_miss,
    partly_unmeasured_caution,
    with_capacity_unmeasured,
)
from models.present.waterfall import with_effective_band
from models.project.model import (
    Project,
    capacity_partly_unmeasured,
    capacity_unmeasured,
    data_growth_unmeasured,
    dataset_unmeasured,
    growth_unmeasured,
)
from models.units import CapacityUnit
from models.verdict import PROVIDER_HA

PAPER_SIZES = {"A4": A4, "Letter": letter}
MARGIN = 18 * mm

MODEL_DESCRIPTION = (
    "StorPlan models every component on an I/O's path as a station of a queueing network. Ports, controller CPU "
    "cores, the mirroring of writes to the partner controller, back-end links, drives and cloud limits are queues; "
    "host stacks and fabric hops are fixed delays. Each station's service time per I/O follows from the workload "
    "(protocol, block size, read/write mix, RAID write penalty, cache hit ratio) and the catalog. A station with "
    "several servers (a controller's cores, an SSD's internal parallelism) is treated as Seidmann's decomposition "
    "does (Seidmann, Schweitzer and Shalev-Oren 1987, Performance Evaluation 7): one queue that serves c times as "
    "fast, followed by a fixed delay, so its waits grow with its load as a single queue's do. "
    "The latency-vs-IOPS curve comes from the closed model, which adds outstanding I/Os one at a time as a benchmark "
    "ramps its load. It uses mean-value analysis (MVA: Reiser and Lavenberg 1980; Lazowska et al. 1984, "
    "Quantitative System Performance, ch. 6): an arriving I/O waits for the I/Os already queued at each station, "
    "and the average queues follow from Little's law, step by step. MVA is exact when service times are random in "
    "the way of an exponential distribution; real service times are more or less regular than that, so each I/O "
    "also waits for the remaining part of the I/O in service, counted as Reiser's residual-life correction does "
    "(Reiser 1979, IEEE Transactions on Communications 27; Bolch et al. 2006, Queueing Networks and Markov Chains, "
    "§9.1.1.2). The latency at a given IOPS (the target, the operating point) comes from the open model: at each "
    "station Allen-Cunneen's G/G/c approximation (Allen 1990, Probability, Statistics and Queueing Theory, §6.4) "
    "scales the wait of a queue with random arrivals and service by how variable the arrivals and the service "
    "times are; both models use the same stations and agree at light load. Saturation is the IOPS at which the "
    "busiest station (the bottleneck) is fully used. The p95 and p99 latencies come from the spread of the waits "
    "and service times along the path; each workload's notes say how. Controller parameters are calibrated "
    "where published measurements allow: fitted to published (IOPS, latency) points, and the fitted values are stored "
    "in the catalog with their provenance; each workload's notes say what its figures were fitted to or assumed from. "
    "Capacity is a waterfall of named steps from raw marketed capacity through right-sizing, partitioning, "
    "spares, RAID parity and reserves to usable, then the data reduction the platform applies (compression, and on "
    "some platforms compaction and deduplication) to "
    "effective, the capacity as it is sold, and Snapshot and clone copies on to the total that counts them, each step "
    "with its source."
)


class Styles:
    """The report's paragraph styles (built per report: styles are plain objects, not shared state)."""

    def __init__(self) -> None:
        base = dict(fontName=REGULAR, textColor=g.INK)
        self.body = ParagraphStyle("body", fontSize=9, leading=12.5, spaceAfter=4, **base)
        self.small = ParagraphStyle("small", fontSize=7.5, leading=9.8, **base)
        self.tiny = ParagraphStyle("tiny", fontSize=6.6, leading=8.2, **base)
        self.tiny_bold = ParagraphStyle("tinyb", parent=self.tiny, fontName=BOLD)
        self.cell = ParagraphStyle("cell", fontSize=7.8, leading=9.8, **base)
        self.cell_bold = ParagraphStyle("cellb", parent=self.cell, fontName=BOLD)
        self.h1 = ParagraphStyle("h1", fontName=BOLD, fontSize=15, leading=19, spaceBefore=2, spaceAfter=8,
                                 textColor=g.BLUE, keepWithNext=1)  # never alone at a page's foot (_KeepWithNext)
        self.h2 = ParagraphStyle("h2", fontName=BOLD, fontSize=11, leading=14, spaceBefore=8, spaceAfter=4,
                                 textColor=g.INK, keepWithNext=1)
        self.title = ParagraphStyle("title", fontName=BOLD, fontSize=26, leading=32, textColor=g.INK, alignment=TA_LEFT)
        self.subtitle = ParagraphStyle("subtitle", fontName=REGULAR, fontSize=13, leading=18, textColor=g.MUTED)
        self.caption = ParagraphStyle("caption", fontSize=7.5, leading=9.5, textColor=g.MUTED, fontName=REGULAR,
                                      alignment=TA_CENTER, spaceBefore=2, spaceAfter=6)
        self.verdict = ParagraphStyle("verdict", fontSize=9.5, leading=13, fontName=REGULAR, textColor=g.INK,
                                      spaceAfter=3, leftIndent=8)


def _e(text: object) -> str:
    return escape(str(text))


CELL_SIZE, CELL_LEADING = 7.8, 9.8
"""The table cells' font size and leading, points (the ``cell`` paragraph style)."""
SMALL_SIZE, SMALL_LEADING = 6.6, 8.2
"""The small cells' font size and leading, points (the ``tiny`` paragraph style)."""
CELL_PADDING = 3.5
"""Left and right padding of a table cell, points."""

_ONLY_BOLD = re.compile(r"<b>([^<>]*)</b>\Z")
_ONLY_FONT = re.compile(r'<font(?: name="([^"<>]*)")?(?: color="(#[0-9A-Fa-f]{6})")?>([^<>]*)</font>\Z')
_OTHER_ENTITY = re.compile(r"&(?!amp;|lt;|gt;|nbsp;)")
_ENTITIES = {"&nbsp;": "\u00a0"}


class _CellStyle(CellStyle):
    """A report table cell's style before its table's commands: the cell font and leading in ink, at the top, the
    report's padding (set here once instead of by a command over every cell of every table)."""

    fontname = REGULAR
    fontsize = CELL_SIZE
    leading = CELL_LEADING
    leftPadding = CELL_PADDING  # noqa: N815 (reportlab attribute)
    rightPadding = CELL_PADDING  # noqa: N815 (reportlab attribute)
    topPadding = 2.2  # noqa: N815 (reportlab attribute)
    bottomPadding = 2.6  # noqa: N815 (reportlab attribute)
    color = g.INK
    valign = "TOP"


def _plain_cell(cell: str, font: str) -> tuple[str, str, str | None] | None:
    """``(text, font, colour)`` of a cell's markup when it is plain text, or plain text wholly in bold or in one
    ``<font>`` (name and colour), so the table can draw it as a string; None for any other markup (a paragraph
    draws it). ``font`` is the cell's own font."""
    colour = None
    if "<" in cell:
        bold = _ONLY_BOLD.match(cell)
        styled = None if bold else _ONLY_FONT.match(cell)
        if bold:
            cell, font = bold.group(1), BOLD
        elif styled and (styled.group(1) or styled.group(2)):
            font, colour, cell = styled.group(1) or font, styled.group(2), styled.group(3)
        else:
            return None
    if "&" in cell:
        if _OTHER_ENTITY.search(cell):
            return None
        cell = unescape(cell, _ENTITIES)
    return cell, font, colour


@functools.lru_cache(maxsize=8192)  # a big report repeats its cells' texts (units, names, citations) many times
def _fit(text: str, font: str, size: float, width: float) -> str | None:
    """``text`` broken into lines (joined by newlines) of at most ``width`` points, where a paragraph would break
    it: at spaces, a line's spaces shrinking by up to ``spaceShrinkage`` (5%) of their width to fit. None when a
    paragraph would lay it out differently (a word wider than the column, which it splits, tabs, newlines or runs
    of spaces, which it collapses)."""
    if "\n" in text or "\t" in text or "  " in text or text != text.strip():
        return None
    if stringWidth(text, font, size) <= width:
        return text
    space = stringWidth(" ", font, size)
    shrink = rl_config.spaceShrinkage * space
    lines: list[str] = []
    line: list[str] = []
    current = -space
    for word in text.split(" "):
        word_width = stringWidth(word, font, size)
        if word_width > width:
            return _paragraph_lines(text, font, size, width)
        if line and current + space + word_width > width + shrink * len(line):
            lines.append(" ".join(line))
            line, current = [word], word_width
        else:
            line.append(word)
            current += space + word_width
    lines.append(" ".join(line))
    return "\n".join(lines)


@functools.lru_cache(maxsize=2048)
def _paragraph_lines(text: str, font: str, size: float, width: float) -> str | None:
    """The lines (joined by newlines) a paragraph breaks plain ``text`` into at ``width`` points, splitting words
    wider than a line as it does; one layout per text, font and width (a big report repeats its citations)."""
    para = Paragraph(escape(text), ParagraphStyle("lines", fontName=font, fontSize=size, leading=size))
    para.wrap(width, 1e9)
    if para.blPara.kind != 0:
        return None
    return "\n".join(" ".join(words) for _, words in para.blPara.lines)


class _Text(Flowable):
    """Plain text (no markup) in a paragraph style, broken into lines where a paragraph would break it and drawn
    as strings: a paragraph's look at a fraction of its cost. Left or centred; splits between lines across pages
    as a paragraph does (never leaving a single first line at the foot of a page)."""

    def __init__(self, text: str, style: ParagraphStyle, lines: list[str] | None = None) -> None:
        super().__init__()
        self.text = text
        self.style = style
        self._lines = lines
        self._width: float | None = None
        self._paragraph: Paragraph | None = None  # when a paragraph must lay the text out after all

    def _layout(self, avail_width: float) -> list[str] | None:
        """The lines at this width, or None when a paragraph must lay the text out (``self._paragraph``)."""
        if self._lines is None or (self._width is not None and self._width != avail_width):
            st = self.style
            fitted = _fit(self.text, st.fontName, st.fontSize, avail_width - st.leftIndent - st.rightIndent)
            if fitted is None:
                self._paragraph = Paragraph(escape(self.text), st)
                return None
            self._lines = fitted.split("\n")
        self._width = avail_width
        return self._lines

    def wrap(self, availWidth, availHeight):
        lines = self._layout(availWidth)
        if lines is None:
            self.width, self.height = self._paragraph.wrap(availWidth, availHeight)
        else:
            self.width, self.height = availWidth, len(lines) * self.style.leading
        return self.width, self.height

    def split(self, availWidth, availHeight):
        lines = self._layout(availWidth)
        if lines is None:
            return self._paragraph.split(availWidth, availHeight)
        fit = int(availHeight / self.style.leading)
        if fit <= 1:  # no orphan: a single line left at the foot of the page moves on with the rest
            return []
        if len(lines) <= fit:
            return [self]
        return [_Text(self.text, self.style, lines[:fit]), _Text(self.text, self.style, lines[fit:])]

    def draw(self) -> None:
        st = self.style
        canv = self.canv
        if self._lines is None:
            self._paragraph.drawOn(canv, 0, 0)
            return
        canv.saveState()
        text = canv.beginText()
        text.setFont(st.fontName, st.fontSize, st.leading)
        text.setFillColor(st.textColor)
        y = self.height - st.fontSize
        inner = self.width - st.leftIndent - st.rightIndent
        for line in self._lines:
            extra = inner - stringWidth(line, st.fontName, st.fontSize)
            spaces = line.count(" ") + line.count("\u00a0")
            shrink = extra < -1e-8 and spaces > 0  # a paragraph narrows the spaces of a line a little too long
            text.setTextOrigin(st.leftIndent + (extra / 2 if st.alignment == TA_CENTER and not shrink else 0), y)
            if shrink:
                text.setWordSpace(extra / spaces)
            text_out(text, line)
            if shrink:
                text.setWordSpace(0)
            y -= st.leading
        canv.drawText(text)
        canv.restoreState()


def _para(text: str, style: ParagraphStyle) -> Flowable:
    """A paragraph of ``text`` (reportlab markup) in ``style``: plain text, left or centred, as :class:`_Text`,
    anything else as a reportlab ``Paragraph`` (its web addresses links: ``app.report.links``)."""
    if has_address(text):
        return Paragraph(linked(text), style)
    plain = _plain_cell(text, style.fontName) if "<" not in text else None
    if (plain is None or not plain[0].strip() or style.alignment not in (TA_LEFT, TA_CENTER)
            or style.firstLineIndent or _fit(plain[0], style.fontName, style.fontSize, 1e9) is None):
        return Paragraph(text, style)
    return _Text(plain[0], style)


_CELL_STYLE_COMMANDS = frozenset({
    "FONT", "FONTNAME", "FACE", "FONTSIZE", "SIZE", "LEADING", "TEXTCOLOR", "ALIGN", "ALIGNMENT", "VALIGN",
    "LEFTPADDING", "RIGHTPADDING", "TOPPADDING", "BOTTOMPADDING", "HREF", "DESTINATION", "DIRECTION", "SHAPING"})
"""Table style commands that change cells' styles (the others draw backgrounds and rules)."""


class _Table(Table):
    """A table that writes its string cells into one PDF text object (one per run of string cells) instead of one
    text object per cell, as reportlab's ``Table`` does; cells and their places are the same."""

    _text = None
    _text_font: tuple | None = None
    _text_colour = None

    def _drawCell(self, cellval, cellstyle, pos, size):  # noqa: N802 (reportlab API)
        if (not isinstance(cellval, str) or cellstyle.valign != "TOP" or cellstyle.href or cellstyle.destination
                or cellstyle.direction or cellstyle.shaping or cellstyle.alignment not in ("LEFT", "RIGHT")):
            self._flush_text()
            self._curcellstyle = None  # the text object changed the font and colour behind reportlab's back
            return super()._drawCell(cellval, cellstyle, pos, size)
        if not cellval:
            return None
        if self._text is None:
            self._text = self.canv.beginText()
        text = self._text
        font = (cellstyle.fontname, cellstyle.fontsize, cellstyle.leading)
        if font != self._text_font:
            text.setFont(*font)
            self._text_font = font
        if cellstyle.color is not self._text_colour and cellstyle.color != self._text_colour:
            text.setFillColor(cellstyle.color)
            self._text_colour = cellstyle.color
        (colpos, rowpos), (colwidth, rowheight) = pos, size
        y = rowpos + rowheight - cellstyle.topPadding - cellstyle.fontsize  # as reportlab places a TOP cell
        lines = cellval.split("\n")
        inner = colwidth - cellstyle.leftPadding - cellstyle.rightPadding
        for line in lines:
            shrink = extra = 0.0
            if len(lines) > 1 or cellstyle.alignment != "LEFT":
                extra = inner - stringWidth(line, font[0], font[1])
                spaces = line.count(" ") + line.count("\u00a0")
                if extra < -1e-8 and spaces:  # a line broken as a paragraph breaks it: its spaces narrowed to fit
                    shrink = extra / spaces
                    extra = 0.0
            x = colpos + cellstyle.leftPadding + (extra if cellstyle.alignment == "RIGHT" else 0.0)
            text.setTextOrigin(x, y)
            if shrink:
                text.setWordSpace(shrink)
            text_out(text, line)
            if shrink:
                text.setWordSpace(0)
            y -= cellstyle.leading
        return None

    def _flush_text(self) -> None:
        if self._text is not None:
            self.canv.drawText(self._text)
            self._text = self._text_font = self._text_colour = None

    def _drawLines(self):  # noqa: N802 (reportlab API)
        self._flush_text()
        super()._drawLines()


_RULE_COMMANDS = frozenset({
    "LINEABOVE", "LINEBELOW", "LINEBEFORE", "LINEAFTER", "GRID", "BOX", "OUTLINE", "INNERGRID", "BACKGROUND",
    "ROWBACKGROUNDS", "COLBACKGROUNDS"})
"""Table style commands that draw rules and backgrounds only: they change no cell's style or size."""


def _row_heights(body: list[list], cell_styles: list[list]) -> list[float | None] | None:
    """The heights (points) reportlab's ``Table`` computes for the rows whose cells are all strings, computed once
    here as ``Table._calc_height`` does (the most lines of a row's cells times their leading, plus their top and
    bottom padding); None for a row with a flowable (reportlab measures it), and None for a table of only those.

    reportlab otherwise measures every row again on each wrap and each split (a table of 1,000 rows split over 20
    pages is measured about 20 times, scanning its rows for the next unknown height each time). A table split
    where it would be split either way: reportlab measures the unknown rows in order up to the first that does not
    fit, so every row before the split has its height, measured or given."""
    heights: list[float | None] = []
    for row, row_styles in zip(body, cell_styles):
        if not all(isinstance(value, str) for value in row):
            heights.append(None)
            continue
        height = 0.0
        for value, style in zip(row, row_styles):
            lines = (style.leading or 1.2 * style.fontsize) * len(value.split("\n"))
            lines += style.bottomPadding + style.topPadding
            if lines > height:
                height = lines
        heights.append(height)
    return heights if any(h is not None for h in heights) else None


def _table(rows, widths, styles: Styles, header_rows: int = 1, extra: Sequence = (), zebra: bool = True,
           small_cols: Sequence[int] = ()) -> Table:
    """A report table: header row tinted, light rules, zebra rows, fixed column widths (points).

    Text cells (reportlab markup) that are plain text, or plain text in one font and colour, are drawn as strings
    broken at spaces to the column's width, as a paragraph would; any other markup, and a word wider than its
    column, becomes a paragraph (``styles.cell``, bold in the header rows). Other cells (flowables) are kept.
    Body cells of ``small_cols`` are in the small size (``styles.tiny``). ``extra``: further table style commands,
    applied after the cells' own fonts and colours. A long table splits across pages repeating its header rows.
    """
    # cells of one font and colour share one style object, unless a command of ``extra`` changes some of them
    shared = not any(command[0] in _CELL_STYLE_COMMANDS for command in extra)
    made: dict[tuple, _CellStyle] = {}

    def cell_style(font: str, small: bool, colour: str | None) -> _CellStyle:
        key = (font, small, colour)
        if shared and key in made:
            return made[key]
        style = _CellStyle("")
        if font != REGULAR:
            style.fontname = font
        if small:
            style.fontsize, style.leading = SMALL_SIZE, SMALL_LEADING
        if colour is not None:
            style.color = colors.HexColor(colour)
        made[key] = style
        return style

    body = []
    cell_styles = []
    for r, row in enumerate(rows):
        header = r < header_rows
        own = BOLD if header else REGULAR
        out = []
        row_styles = []
        for c, cell in enumerate(row):
            small = not header and c in small_cols
            if not isinstance(cell, str):
                out.append(cell)
                row_styles.append(cell_style(own, small, None))
                continue
            plain = _plain_cell(cell, own)
            if has_address(cell):  # a link, broken between the address's parts (app.report.links)
                style = styles.cell_bold if header else (styles.tiny if small else styles.cell)
                if plain is not None:
                    out.append(LinkedText(plain[0], plain[1], style.fontSize, style.leading,
                                          colors.HexColor(plain[2]) if plain[2] else style.textColor))
                else:
                    out.append(Paragraph(linked_lines(cell, widths[c] - 2 * CELL_PADDING, style.fontSize), style))
                row_styles.append(cell_style(own, small, None))
                continue
            if plain is not None:
                text, font, colour = plain
                fitted = _fit(text, font, SMALL_SIZE if small else CELL_SIZE, widths[c] - 2 * CELL_PADDING)
                if fitted is not None:
                    out.append(fitted)
                    row_styles.append(cell_style(font, small, colour))
                    continue
            out.append(Paragraph(cell, styles.cell_bold if header else (styles.tiny if small else styles.cell)))
            row_styles.append(cell_style(own, small, None))
        body.append(out)
        cell_styles.append(row_styles)
    heights = _row_heights(body, cell_styles) if shared and all(c[0] in _RULE_COMMANDS for c in extra) else None
    table = _Table(body, colWidths=widths, rowHeights=heights, repeatRows=header_rows, hAlign="LEFT",
                   cellStyles=cell_styles)
    commands: list = [("LINEBELOW", (0, header_rows), (-1, -1), 0.25, g.GRID)]
    if header_rows:  # (0, -1) would address the last row, not "no header"
        commands += [
            ("LINEBELOW", (0, 0), (-1, header_rows - 1), 0.8, g.INK),
            ("BACKGROUND", (0, 0), (-1, header_rows - 1), colors.HexColor("#EEF2F6")),
        ]
    if zebra and len(rows) > header_rows + 1:
        commands.append(("ROWBACKGROUNDS", (0, header_rows), (-1, -1), [None, colors.HexColor("#F8F9FB")]))
    table.setStyle(TableStyle(commands + list(extra)))
    return table


def _verdict(ok: bool | None, yes: str = "Yes", no: str = "No", none: str = "no target") -> str:
    if ok is None:
        return f'<font color="#6B7785">{_e(none)}</font>'
    colour = "#1E9E5A" if ok else "#D0342C"
    return f'<font name="{BOLD}" color="{colour}">{_e(yes if ok else no)}</font>'


def _target_met(wp: WorkloadPerformance) -> str:
    """Target met as the tables show it: Yes / No, or, met only with more outstanding I/Os than the workload
    states, :data:`models.present.concurrency.TARGET_CONDITIONAL` in the caution colour."""
    words = target_met_cell(wp)
    if words == TARGET_CONDITIONAL:
        return f'<font name="{BOLD}" color="#B07800">{_e(words)}</font>'
    return _verdict(wp.target_met)


class _NumberedCanvas(rl_canvas.Canvas):
    """A canvas that defers pages so each can print "Page N of M" once the total is known."""

    def __init__(self, *args, footer_left: str = "", footer_mid: str = "", header: str = "", **kwargs):
        super().__init__(*args, **kwargs)
        self._pages: list[dict] = []
        self._footer_left = footer_left
        self._footer_mid = footer_mid
        self._header = header

    def showPage(self):  # noqa: N802 (reportlab API)
        self._pages.append(dict(self.__dict__))
        self._startPage()

    def save(self):
        total = len(self._pages)
        for number, state in enumerate(self._pages, start=1):
            self.__dict__.update(state)
            self._decorate(number, total)
            super().showPage()
        super().save()

    def _decorate(self, number: int, total: int) -> None:
        width, height = self._pagesize
        self.saveState()
        self.setStrokeColor(g.GRID)
        self.setLineWidth(0.5)
        if number > 1:
            self.setFont(REGULAR, 7.5)
            self.setFillColor(g.MUTED)
            self.drawString(MARGIN, height - MARGIN + 8, self._header)
            self.drawRightString(width - MARGIN, height - MARGIN + 8, "Sizing report")
            self.line(MARGIN, height - MARGIN + 4, width - MARGIN, height - MARGIN + 4)
        self.line(MARGIN, MARGIN - 6, width - MARGIN, MARGIN - 6)
        self.setFont(REGULAR, 7.5)
        self.setFillColor(g.MUTED)
        self.drawString(MARGIN, MARGIN - 16, self._footer_left)
        self.drawCentredString(width / 2, MARGIN - 16, self._footer_mid)
        self.drawRightString(width - MARGIN, MARGIN - 16, f"Page {number} of {total}")
        self.restoreState()


class _Figure(Flowable):
    """A drawing placed in the story; a drawing placed more than once (equal charts of equal systems or workloads)
    is rendered once into a PDF form and each place shows that form, so it is laid out and stored once."""

    def __init__(self, drawing, places: dict[int, list]) -> None:
        super().__init__()
        self.drawing = drawing
        self.hAlign = getattr(drawing, "hAlign", "LEFT")
        self._places = places  # id(drawing) -> [times placed in the story, form name once rendered]
        places.setdefault(id(drawing), [0, None])[0] += 1

    def wrap(self, availWidth, availHeight):
        return self.drawing.wrap(availWidth, availHeight)

    def draw(self) -> None:
        place = self._places[id(self.drawing)]
        if place[0] < 2:
            self.drawing.drawOn(self.canv, 0, 0)
            return
        canv = self.canv
        if place[1] is None:
            place[1] = f"figure{id(self.drawing):x}"
            width, height = self.drawing.wrap(0, 0)
            canv.beginForm(place[1], -width, -height, 2 * width, 2 * height)  # room for any overhang: never clipped
            self.drawing.drawOn(canv, 0, 0)
            # reportlab leaves a form's transparency states (the uncertainty band) out of its resources: add them
            resources = PDFResourceDictionary()
            resources.basicFonts()
            states = canv._extgstate.getState()
            if states:
                resources.ExtGState = states
            canv.endForm(Resources=resources)
        canv.doForm(place[1])


class _KeepWithNext(KeepTogether):
    """Headings kept with the start of what follows them, so a heading never stands alone at the foot of a page.

    reportlab's ``keepWithNext`` keeps a heading with the whole of the next flowable (a ``KeepTogether``): a long
    table after a heading would start a new page even when most of it fits. Here the headings stay where they are
    when the next flowable fits below them or splits there with a part of it (a table's first rows, a paragraph's
    first lines) below them; otherwise (a figure, a block kept together, no room for two lines) they move to the
    next page with it."""

    def split(self, aW, aH):
        *heads, follower = self._content
        frame = getattr(self, "_frame", None)
        if not heads or (frame is not None and getattr(frame, "_atTop", False)):
            return list(self._content)  # nothing to keep, or already at the top of a page: as it is
        used = sum(f.wrapOn(self.canv, aW, aH)[1] + f.getSpaceBefore() + f.getSpaceAfter() for f in heads)
        room = aH - used - follower.getSpaceBefore()
        if room > 0:
            if follower.wrapOn(self.canv, aW, room)[1] <= room:
                return list(self._content)
            parts = [f for f in follower.splitOn(self.canv, aW, room) if not isinstance(f, NullActionFlowable)]
            if parts and not isinstance(parts[0], ActionFlowable):
                return [*heads, *parts]
        return [FrameBreak(), *self._content]


class _Frame(Frame):
    """The page's frame, copied cheaply where reportlab deep-copies it.

    reportlab measures a block kept together (every heading with what follows it: :class:`_KeepWithNext`) in a
    deep copy of the current frame, so content the block generates while measured stays off the real one; a
    report of 1,000 systems measures about 1,100 such blocks, and the deep copies were 3-4% of its export. A
    frame holds numbers, strings and the list of frame backgrounds (the report draws none): a copy with its own
    lists is as separate as a deep one."""

    def __deepcopy__(self, memo):
        clone = copy.copy(self)
        for name, value in clone.__dict__.items():
            if isinstance(value, list):
                clone.__dict__[name] = list(value)
        return clone


class _Doc(BaseDocTemplate):
    def handle_keepWithNext(self, flowables):  # noqa: N802 (reportlab API)
        """Headings (``keepWithNext`` styles) and the flowable after them, a block kept together included, as one
        :class:`_KeepWithNext`."""
        i = 0
        while i < len(flowables) and flowables[i].getKeepWithNext() and _ktAllow(flowables[i]):
            i += 1
        if not i:
            return
        if i < len(flowables) and (_ktAllow(flowables[i]) or isinstance(flowables[i], KeepTogether)):
            i += 1
        kept = _KeepWithNext(flowables[:i])
        for f in kept._content[:-1]:
            f.__dict__["keepWithNext"] = 0
        del flowables[:i]
        flowables.insert(0, kept)

    def afterFlowable(self, flowable):  # noqa: N802 (reportlab API)
        outline = getattr(flowable, "_outline", None)
        if outline:
            key = f"s{id(flowable)}"
            self.canv.bookmarkPage(key)
            self.canv.addOutlineEntry(outline, key, level=0)


def _heading(text: str, styles: Styles) -> Paragraph:
    p = Paragraph(_e(text), styles.h1)
    p._outline = text
    return p


def dr_copy_row_label(label: str) -> str:
    """The Capacity requirement row's name for a system holding DR copies: ``"DR site (DR copy)"``, or
    ``"Cloud Volumes ONTAP DR (Azure), DR copy"`` for a name that already ends in parentheses (not two in a
    row)."""
    return f"{label}, DR copy" if label.rstrip().endswith(")") else f"{label} (DR copy)"


def _band_caption(wp) -> str:
    """The latency chart caption's clause on the uncertainty band, of the band drawn (``graphics.
    latency_chart_band``, the screen's rule): where it ends and why, or that none is drawn; followed by "; "."""
    words = band_caption(wp, g.latency_chart_band(wp))
    return f"{words}; " if words else ""


def _p99_caption(wp, memo: dict | None = None) -> str:
    """The latency chart caption's clause on the 99th-percentile line: where the line is, or, when the whole line
    is above the chart (``graphics.latency_chart_p99_above``, ``memo`` its answers already given), that it is,
    with the p99 at the target."""
    if not g.latency_chart_p99_above(wp, memo):
        return ("the lighter line is the 99th percentile of individual I/O latencies (one I/O in 100 takes "
                "longer).")
    at_target = (f" ({fmt_ms(wp.latency_p99_at_target_ms)} at the target)"
                 if finite(wp.target_iops) and finite(wp.latency_p99_at_target_ms) else "")
    return ("the 99th percentile of individual I/O latencies (one I/O in 100 takes longer) is above this chart"
            + at_target + ".")


ALIKE_NAMES_IN_HEADING = 60
"""Characters of the other workloads' names (or their range) that a resilience block's heading holds; longer, the
names follow the heading in a line of their own."""


def name_runs(names: Sequence[str]) -> str:
    """``names`` in their order, a run of three or more that count up by one under the same prefix written as its
    range ("OLTP 2 to OLTP 200", "OLTP 2, OLTP 3, Mail"), so a reader finds a name among hundreds."""
    runs: list[list[str]] = []
    last: tuple[str, int] | None = None
    for name in names:
        m = re.fullmatch(r"(.*?)(\d+)", name)
        key = (m.group(1), int(m.group(2))) if m else None
        if key is not None and last is not None and runs and key == (last[0], last[1] + 1):
            runs[-1].append(name)
        else:
            runs.append([name])
        last = key
    parts = []
    for run in runs:
        parts += [f"{run[0]} to {run[-1]}"] if len(run) > 2 else run
    return ", ".join(parts)


def _alike_heading(names: Sequence[str], styles: Styles) -> list:
    """A resilience block's heading: the workload's name, or for a block several workloads share, the first's
    name and how many more with their names ("OLTP 1 and 199 more workloads alike: OLTP 2 to OLTP 200"; names
    longer than :data:`ALIKE_NAMES_IN_HEADING` in a line under it), as the runway chart names lines alike."""
    if len(names) == 1:
        return [_para(_e(names[0]), styles.h2)]
    more = len(names) - 1
    head = f"{names[0]} and {more} more workload{'s' if more > 1 else ''} alike"
    others = name_runs(names[1:])
    if len(others) <= ALIKE_NAMES_IN_HEADING:
        return [_para(_e(f"{head}: {others}"), styles.h2)]
    return [_para(_e(head), styles.h2), _para(_e(f"The {more} more: {others}."), styles.small)]


class ReportBuilder:
    """Builds the story of one report from a project, its evaluations and the validation outcomes."""

    def __init__(self, project: Project, evaluations: Mapping[str, object], catalog: Catalog, validation,
                 paper: str, app_version: str, catalog_version: str, today: _dt.date,
                 sizing: object | None = None) -> None:
        self.project = project
        self.sizing = sizing  # the sizer's result already computed for this project, or None (searched here)
        self.evaluations = evaluations
        self.catalog = catalog
        self.validation = validation
        self.paper = paper
        self.page_w, self.page_h = PAPER_SIZES[paper]
        self.width = self.page_w - 2 * MARGIN
        self.height = self.page_h - 2 * MARGIN
        self.unit: CapacityUnit = project.settings.capacity_unit
        self.app_version = app_version
        self.catalog_version = catalog_version
        self.today = today
        self.s = Styles()
        self.scenario = project.scenario
        self.evaluation = self._with_resilience(evaluations[self.scenario.name])
        self._drawings: dict = {}  # equal charts made once (graphics' memo)
        self._places: dict[int, list] = {}  # how often each drawing is placed (_Figure)
        self._tco = None  # the design's cost comparison (tco()), computed once

    def _with_resilience(self, evaluation):
        """The reported evaluation with its failure states and runway (the GUI's worker computed them, else they
        are computed here, off the GUI thread) and their problems among its own
        (``models.present.recommendation.design_evaluation``): the summary's verdict reads the required failure
        states, and every problem is listed once, in the summary."""
        from models.present.recommendation import design_evaluation

        return design_evaluation(self.project, evaluation, self.catalog)

    # -- helpers ------------------------------------------------------------------------------------------------

    def cap(self, value) -> str:
        """A byte count in the report's capacity unit (``25.47 TiB``; ``n/a`` when missing)."""
        return fmt_capacity(value, self.unit, fixed=True)

    def section_break(self) -> CondPageBreak:
        """A major section starts on a new page, unless the previous one spilled only a few lines onto this page
        (then it starts below them rather than leaving a page nearly empty)."""
        return CondPageBreak(self.height * 0.6)

    def p(self, text: str, style=None) -> Paragraph:
        """A paragraph of ``text`` (reportlab markup) in ``style`` (default: body)."""
        return _para(text, style or self.s.body)

    def workloads(self):
        """The active scenario's ``WorkloadPerformance`` results (none when performance failed)."""
        perf = self.evaluation.performance
        return list(perf.workloads) if perf is not None else []

    # -- sections -----------------------------------------------------------------------------------------------

    def cover(self) -> list:
        """The cover page: title, customer, author, date, scenario, versions, paper; then the body template."""
        info = self.project.info
        s = self.s
        story: list = [Spacer(1, self.height * 0.18)]
        story.append(Paragraph("Storage sizing report", ParagraphStyle("k", parent=s.subtitle, textColor=g.BLUE)))
        story.append(Spacer(1, 6))
        story.append(Paragraph(_e(info.name), s.title))
        story.append(Spacer(1, 10))
        if info.description:
            story.append(Paragraph(_e(info.description), s.subtitle))
        story.append(Spacer(1, 36))
        rows = [
            ("Customer", info.customer or "—"),
            ("Prepared by", info.author or "—"),
            ("Date", self.today.isoformat()),
            ("Scenario",
             self.scenario.name + (f" (of {len(self.project.scenarios)})" if len(self.project.scenarios) > 1 else "")),
            ("StorPlan version", self.app_version),
            ("Catalog version", self.catalog_version or NOT_AVAILABLE),
            ("Paper", self.paper),
        ]
        measured_by = self.measured_by()
        if measured_by:  # review 55 #15: the description may still be the example's; the record says where from
            rows.insert(4, ("Workloads measured by", measured_by))
        table = Table(
            [[Paragraph(_e(k), s.cell_bold), Paragraph(_e(v), s.body)] for k, v in rows],
            colWidths=[48 * mm, self.width - 48 * mm], hAlign="LEFT",  # "Workloads measured by" on one line
        )
        table.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), REGULAR),
            ("LINEABOVE", (0, 0), (-1, 0), 1.2, g.BLUE),
            ("LINEBELOW", (0, 0), (-1, -1), 0.25, g.GRID),
            ("VALIGN", (0, 0), (-1, -1), "MIDDLE"),
            ("TOPPADDING", (0, 0), (-1, -1), 4),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 4),
        ]))
        story.append(table)
        story.append(Spacer(1, 30))
        story.append(Paragraph(
            "Predictions come from StorPlan's capacity and queueing models with the bundled hardware catalog; every "
            "catalog number and its source is listed under “Assumptions and sources”, and the model's agreement with "
            "published measurements under “Model validation”. They are estimates for sizing, not guarantees.",
            s.small))
        story.append(NextPageTemplate("body"))
        story.append(PageBreak())
        return story

    def summary(self) -> list:
        """The summary: the verdict box, the totals, the capacity and performance requirement tables, the
        bottleneck of each workload and the problems."""
        s = self.s
        ev = self.evaluation
        story: list = [_heading("Summary", s)]
        story.append(self.verdict_box())
        story.append(Spacer(1, 6))
        unit_base = ("binary, 2<super>40</super> bytes" if self.unit is CapacityUnit.TIB
                     else "decimal, 10<super>12</super> bytes")
        story.append(self.p(f"Scenario <b>{_e(ev.scenario)}</b>. Capacities in {self.unit.value} ({unit_base})."))
        capacity = ev.capacity
        if capacity is not None:
            total = capacity.total
            with_copies = ""
            if total.effective_with_snapshots_bytes > total.effective_bytes:
                # logical space: each Snapshot copy and clone counted at its volume's full size, as ONTAP's total
                # efficiency ratio counts it; not capacity for more data
                with_copies = (f"; {LOGICAL_DATA_WITH_SNAPSHOTS[0].lower()}{LOGICAL_DATA_WITH_SNAPSHOTS[1:]} "
                               f"{self.cap(total.effective_with_snapshots_bytes)} (ONTAP's total efficiency ratio "
                               f"{fmt_ratio(total.efficiency_ratio)}: each Snapshot copy and clone counted at its full "
                               "size, not space for more data)")
            story.append(self.p(
                f"Raw capacity <b>{self.cap(total.raw_bytes)}</b>, usable <b>{self.cap(total.usable_bytes)}</b>, "
                f"effective <b>{self.cap(total.effective_bytes)}</b> (data reduction "
                f"{fmt_ratio(total.data_reduction_ratio)}: {self.reduction_words(capacity)}){with_copies}"
                + self.dr_copy_note(capacity) + "."))
        else:
            story.append(self.p("<b>Capacity could not be computed</b>: see the problems below."))

        # Capacity requirement per system
        enabled = [w for w in self.scenario.workloads if w.enabled]
        if capacity is not None and capacity.systems:
            story.append(_para("Capacity requirement", s.h2))
            rows = [["System", "Dataset (logical)", "Physical used", "Usable", "Effective", "Fits",
                     "Months until full"]]
            from models.present.dr_copy import dr_copies  # a replication destination's copies (its own module)

            copies, horizon = dr_copies(ev.protection), self.project.requirements.horizon_months
            checks = ev.resilience.requirement_checks if ev.resilience is not None else ()
            n_plus_notes: list[str] = []  # a vSAN cluster that fits with every host up but misses its N+k
            unmeasured = self.capacity_unmeasured()
            for system in capacity.systems:
                datasets = [w.dataset_bytes for w in enabled if w.target == system.system_id]
                if unmeasured and datasets:  # 0 bytes "fit" anywhere: never a Yes beside an unknown
                    rows.append([_e(system.system_label or system.system_id), CAPACITY_NOT_MEASURED, NOT_AVAILABLE,
                                 self.cap(system.usable_bytes), self.cap(system.effective_bytes), "n/a",
                                 NOT_AVAILABLE])
                    continue
                copy = copies.get(system.system_id) if capacity.is_replica_only(system.system_id) else None
                if copy is not None:  # the DR copy in its own row, not in the totals
                    fits_dr = copy.fits_over(horizon)
                    rows.append([
                        _e(dr_copy_row_label(system.system_label or system.system_id)),
                        _e("copy of " + ", ".join(copy.sources)),
                        self.cap(copy.needed_bytes), self.cap(system.usable_bytes), self.cap(system.effective_bytes),
                        _verdict(fits_dr, none="n/a"),
                        fmt_months(copy.runway_months) if copy.free_bytes is not None else NOT_AVAILABLE,
                    ])
                    continue
                from models.verdict import runway_miss

                fits = (bool(capacity_fits(system)) and runway_miss(system, horizon) is None) if datasets else None
                months = system.months_until_full
                fits_cell = _verdict(fits, none="n/a")
                n_plus = n_plus_capacity_miss(system, checks) if fits else ""
                if n_plus:  # as the summary's verdict and the Capacity tab: the miss, never "Yes" beside it
                    k = re.search(r"N\+\d+", n_plus)
                    fits_cell = _verdict(False, no=f"No ({k.group(0) if k else 'N+k'})*")
                    n_plus_notes.append(
                        f"* {system.system_label or system.system_id}: the data fits with every host up "
                        f"({self.cap(system.physical_used_bytes)} of {self.cap(system.usable_bytes)} usable, the "
                        f"row's figures); {n_plus}.")
                rows.append([
                    _e(system.system_label or system.system_id),
                    self.cap(sum(datasets)) if datasets else "no workload",
                    self.cap(system.physical_used_bytes) if datasets else NOT_AVAILABLE,
                    self.cap(system.usable_bytes),
                    self.cap(system.effective_bytes),
                    fits_cell,
                    (GROWTH_NOT_MEASURED if not finite(months) and growth_unmeasured(self.scenario.workloads)
                     else fmt_months(months)) if datasets else NOT_AVAILABLE,
                ])
            w = self.width
            story.append(_table(rows, [w * 0.22, w * 0.13, w * 0.13, w * 0.12, w * 0.12, w * 0.08, w * 0.20], s))
            story.append(self.p(
                "Physical used: the workloads' data after inline data reduction, plus the blocks held by Snapshot "
                "and clone copies. It fits when it is within the usable capacity now and, at the workloads' yearly "
                f"growth, until the {horizon}-month horizon; months until full is that headroom."
                + (" A DR copy (a system that only receives replication) holds copies of another system's data, "
                   f"not in the totals above; it fits when the copies, grown, still fit at the {horizon}-month "
                   "horizon. Its physical used is the source's data as sent (after the source's data reduction) plus "
                   "the last transfer, held until the next one lands: a little more than the source's own."
                   if copies and capacity.replica_only else ""), s.small))
            story += [self.p(_e(note), s.small) for note in n_plus_notes]

        # Performance requirement per workload
        workloads = self.workloads()
        if workloads:
            story.append(_para("Performance requirement", s.h2))
            rows = [["Workload", "SLO", "Target", "Max IOPS at SLO", "Latency at target", "Meets target",
                     "Headroom to saturation"]]
            for wp in workloads:
                rows.append([
                    _e(wp.name),
                    fmt_ms(wp.slo_ms, NOT_AVAILABLE),
                    target_text(wp),
                    _e(max_iops_with_reach(wp)),  # and what the stated outstanding I/Os reach, when lower
                    fmt_ms(wp.latency_at_target_ms) if finite(wp.target_iops) else NOT_AVAILABLE,
                    _target_met(wp),
                    headroom_cell(wp, NOT_AVAILABLE) if finite(wp.target_iops) else NOT_AVAILABLE,
                ])
            w = self.width
            story.append(_table(rows, [w * 0.22, w * 0.09, w * 0.13, w * 0.17, w * 0.12, w * 0.14, w * 0.13], s))
            story.append(self.p(
                "A target is met when its latency is within the SLO. Headroom to saturation: how far today's target "
                "is below the IOPS at which the bottleneck is 100% busy, in percent of the target (a ranked "
                "configuration's headroom is over the target grown over the horizon), measured to saturation, not "
                "to the max IOPS at the SLO. The max IOPS at the SLO assumes as many outstanding I/Os as the load "
                "needs; where the workload's stated outstanding I/Os reach fewer, that figure follows it, and a "
                f"target they cannot reach reads '{TARGET_CONDITIONAL}' ({CONDITIONAL_WHY}) with no headroom "
                "(—).", s.small))
            story.append(_para("Bottleneck", s.h2))
            for wp in workloads:
                story.append(self.p(self.bottleneck_sentence(wp), s.verdict))
        elif ev.performance is None:
            story.append(self.p("<b>Performance could not be computed</b>: see the problems below."))
        else:
            story.append(self.p(self.no_load_words() + ", so there is no performance prediction."))
        story += self.problems_block()
        return story

    def measured_by(self) -> str:
        """The cover's "Workloads measured by": each recorded import whose workloads are in the scenario, its tools
        and collection dates ("a Live Optics (Optical Prime) export, collected 2022/11/14"); "" without one."""
        parts = []
        for record in self.project.measured:
            if record.workloads and not any(self.scenario.workload(w.workload) is not None for w in record.workloads):
                continue
            for src in record.sources:
                words = src.tool + (f", {src.collected}" if src.collected else ", collection date not given")
                if words not in parts:
                    parts.append(words)
        text = "; ".join(parts)
        return text[:1].upper() + text[1:]

    def measured_environment(self) -> list:
        """Where the workloads were measured (``Project.measured``, one block per import of a measured environment):
        what was measured, by what tool and when, how the peaks were taken, what was assumed, and per workload of
        the scenario its tool and load; nothing when no import is recorded. The words are ``models.present.measured.
        measured_blocks``', the workbook's "Measured environment" sheet's too. The file's name is never printed."""
        from models.present.measured import MEASURED_SHEET, WORKLOAD_HEADERS, measured_blocks

        s = self.s
        blocks = measured_blocks(self.project, self.scenario)
        if not blocks:  # no import recorded, or every imported workload since replaced or deleted
            return []
        story: list = [self.section_break(), _heading(MEASURED_SHEET, s)]
        w = self.width
        for block in blocks:
            story.append(_table([[f"<b>{_e(k)}</b>", _e(v)] for k, v in block.lines], [w * 0.24, w * 0.76],
                                s, header_rows=0, zebra=False))
            if block.workloads:
                rows = [list(WORKLOAD_HEADERS)] + [[_e(r.name), _e(r.measured_by), f"{r.members:,}",
                                                    _e(r.load_taken_as)] for r in block.workloads]
                story.append(Spacer(1, 4))
                story.append(_table(rows, [w * 0.30, w * 0.25, w * 0.10, w * 0.35], s))
        return story

    def vsan_latency_words(self) -> str:
        """" " and where the vSAN software latency comes from, when a workload runs on a vSAN cluster (review 52:
        the Performance section said "fitted", the sources "0 fitted"): not a catalog number, so not counted above;
        the engine's note in the customer's words (``models.performance.paths.vsan_latency_basis``), once per
        distinct note; "" without vSAN."""
        from models.performance.paths import VSAN_LATENCY_NOTE

        performance = self.evaluation.performance
        notes = dict.fromkeys(note for w in (performance.workloads if performance is not None else ())
                              for note in w.notes if note.startswith(VSAN_LATENCY_NOTE))
        return "".join(" The vSAN software latency per read and per write phase is not a catalog number and is not "
                       "counted here: " + _e(customer_citation(note.removeprefix(VSAN_LATENCY_NOTE))) + "."
                       for note in notes)

    @staticmethod
    def reduction_words(capacity) -> str:
        """The data reductions the scenario's systems apply, in words (``models.present.capacity_band.
        reduction_words``, the words of the CLI text too)."""
        from models.present.capacity_band import reduction_words

        return reduction_words(capacity)

    @staticmethod
    def copy_words(capacity) -> str:
        """What Snapshot and clone copies are called on the scenario's systems: "Snapshot and FlexClone copy" when an
        ONTAP system (on premises or Cloud Volumes ONTAP) is among them, else "snapshot and clone copy" (FlexClone
        and Snapshot copies are ONTAP's names)."""
        ontap = any(s.family in ("ONTAP", "Cloud Volumes ONTAP") or s.inline_efficiency[1]
                    for s in capacity.systems)
        return "Snapshot and FlexClone copy" if ontap else "snapshot and clone copy"

    def dr_copy_note(self, capacity) -> str:
        """`` of the systems serving workloads; the DR copy on X is not counted`` when a system only receives
        replication (``ScenarioCapacity.replica_only``: left out of the totals), else ""."""
        names = [_e(s.system_label or s.system_id) for s in capacity.systems if capacity.is_replica_only(s.system_id)]
        if not names:
            return ""
        return (f", of the systems serving workloads; the DR copy on {', '.join(names)} is not counted (it holds "
                "copies of their data)")

    def capacity_unmeasured(self) -> bool:
        """The imported data's capacity is not measured and none is stated (``models.project.model.
        capacity_unmeasured``)."""
        return capacity_unmeasured(self.scenario.workloads, self.project.requirements.effective_capacity_bytes)

    def verdict_box(self) -> Table:
        """The answer first: does the design meet every requirement, and if not, which ones fail
        (``models.present.verdicts``). One table row per line, so a long verdict splits across pages."""
        found = verdicts(self.evaluation, self.unit, self.project.requirements,
                         growth_unmeasured(self.scenario.workloads))
        head = headline(found, evaluation_verdict(self.evaluation, self.project.requirements, self.unit))
        if self.capacity_unmeasured():  # the warning in the summary, and no "meets every stated requirement"
            found = with_capacity_unmeasured(found)
            if head.state == "pass":
                head = Headline("open", CAPACITY_NOT_JUDGED)
        elif (partly := partly_unmeasured_caution(capacity_partly_unmeasured(self.scenario.workloads))) is not None:
            found = (partly, *found)  # some imported workloads' capacity not measured: the judged capacity says so
        if head.state == "fail":
            text = f'<font color="#D0342C"><b>{_e(head.text)}</b></font>'
            colour = colors.HexColor("#D0342C")
        elif head.state == "caution" or (head.state == "pass" and self.evaluation.errors):
            # met only with more outstanding I/O than stated, or beside design errors: the caution colour
            text = f'<font color="#B07800"><b>{_e(head.text)}</b></font>'
            colour = colors.HexColor("#B07800")
        elif head.state == "pass":
            text = f'<font color="#1E9E5A"><b>{_e(head.text)}</b></font>'
            if head.check_cautions:
                text += ' <font color="#B07800"><b>Check the cautions below.</b></font>'
            colour = colors.HexColor("#1E9E5A")
        else:
            first, _, rest = head.text.partition(";")
            text = f"<b>{_e(first)}</b>;{_e(rest)}"
            colour = g.MUTED
        marks = {"fail": "✗ ", "pass": "✓ ", "caution": '<font color="#B07800">\u26a0</font> ', "open": "• "}
        lines = [[Paragraph(text, self.s.body)]]
        lines += [[_para(marks[v.kind] + _e(v.line), self.s.verdict)] for v in found]
        box = Table(lines, colWidths=[self.width], hAlign="LEFT")
        box.setStyle(TableStyle([
            ("FONTNAME", (0, 0), (-1, -1), REGULAR),  # else reportlab sets Helvetica (not embedded) for the cell
            ("LINEBEFORE", (0, 0), (0, -1), 3, colour),
            ("BACKGROUND", (0, 0), (-1, -1), colors.HexColor("#F6F8FA")),
            ("LEFTPADDING", (0, 0), (-1, -1), 8),
            # the spacing the paragraphs would have in one cell: 4 pt after the headline, 3 pt between lines
            ("TOPPADDING", (0, 0), (-1, -1), 0),
            ("BOTTOMPADDING", (0, 0), (-1, -1), 3),
            ("BOTTOMPADDING", (0, 0), (-1, 0), 4),
            ("TOPPADDING", (0, 0), (-1, 0), 5),
            ("BOTTOMPADDING", (0, -1), (-1, -1), 4),
        ]))
        return box

    def bottleneck_sentence(self, wp) -> str:
        """One sentence naming a workload's bottleneck (``models.present.bottleneck_sentence``), names in bold."""
        b = bottleneck_sentence(wp)
        if not b.bottleneck:
            return f"<b>{_e(b.workload)}</b>: no bottleneck identified{_e(b.slo)}."
        return (f"<b>{_e(b.workload)}</b>: the bottleneck is <b>{_e(b.bottleneck)}</b>{_e(b.utilisation)}; it limits "
                f"the design to {_e(b.saturation_iops)} IOPS at saturation{_e(f', {b.bound}' if b.bound else '')}"
                f"{_e(b.slo)}.")

    def no_load_words(self) -> str:
        """Why there is no performance prediction, in words: workloads the engine could not evaluate (no path from
        their hosts: ``ScenarioPerformance.unserved``, each named with its reason), no enabled workload, or only
        capacity-only ones (their data is counted, they carry no load: no performance data was measured)."""
        performance = self.evaluation.performance
        unserved = performance.unserved if performance is not None else ()
        if unserved:
            return "The performance of " + "; of ".join(f"{_e(name)} is not evaluated: {_e(why)}"
                                                        for _id, name, why in unserved)
        only = [w for w in self.scenario.workloads if w.enabled and w.capacity_only]
        if only:
            return (f"The scenario's {len(only):,} enabled workload{'s' if len(only) != 1 else ''} count for capacity "
                    "only (no performance data was measured, so no load is evaluated; a workload preset's profile "
                    "gives one)")
        return "The scenario has no enabled workload"

    def problems_block(self) -> list:
        """The scenario's problems as a table of severity and message (nothing when there are none)."""
        problems = list(self.evaluation.problems)
        if not problems:
            return []
        s = self.s
        rows = [["Severity", "Problem"]]
        for pr in problems:
            colour = "#D0342C" if pr.severity == "error" else "#B07800"
            # a limit's sources are in the catalog numbers' table (the record's fields cite them in full): the row
            # keeps its one sentence and points there
            where = (" <i>(sources: the record's limits in 'Catalog and preset numbers used by this scenario', "
                     "under Assumptions and sources)</i>" if pr.sources else "")
            rows.append([f'<font color="{colour}">{_e(pr.severity)}</font>',
                         _e(text_in_unit(pr.message, self.unit)) + where])
        return [_para("Problems", s.h2), _table(rows, [self.width * 0.12, self.width * 0.88], s)]

    def topology(self) -> list:
        """The topology diagram (a grouped overview for a large design), kept on one page with its heading."""
        s = self.s
        drawing, overview = g.topology_drawing(self.scenario, self.catalog, self.unit, self.width, self.height - 110)
        items, links = len(self.scenario.nodes), len(self.scenario.links)
        return [
            CondPageBreak(drawing.height + 90),
            KeepTogether([
                _heading("Topology", s),
                self.p(f"Scenario <b>{_e(self.scenario.name)}</b>: {items} item{'s' if items != 1 else ''}, "
                       f"{links} link{'s' if links != 1 else ''}. Lines are labelled with the link type and the "
                       "number of ports." + g.replication_note(self.scenario, overview) + (
                           " An overview: the design has too many items to label legibly on one page, so items of "
                           "the same kind and model are drawn as one box with their count, and the links between "
                           "two boxes as one line per link type with their ports added up. The bill of materials "
                           "lists every item." if overview else "")),
                Spacer(1, 6),
                drawing,
            ]),
        ]

    def bom(self) -> list:
        """The bill of materials grouped by model (``models.present.bill_of_materials``): one row per category,
        model and key figures with the quantity to order and the items it is for."""
        s = self.s
        rows = [["Item", "Qty", "Model", "Key figures", "Rack units", "Typical W", "BTU/hr"]]
        bom_rows = bill_of_materials(self.scenario, self.catalog, self.unit, self.project.price_book)
        for row in bom_rows:
            item = Paragraph(f"{_e(row.category)}<br/><font size=\"6.6\" color=\"#6B7785\">"
                             f"{_e(row.used_by_text())}</font>", s.cell)
            part = (f"<br/><font size=\"6.6\" color=\"#6B7785\">part number {_e(row.part_number)}</font>"
                    if row.part_number else "")  # none published: one note under the table, not on every row
            model = Paragraph(f"{_e(row.model)}{part}", s.cell)
            rows.append([item, "" if row.quantity is None else f"{row.quantity:,}", model, _e(row.figures),
                         *row.footprint_cells()])
        total = footprint(self.scenario, self.catalog)
        # a catalog model whose sources publish no typical power (review 57 #16: the EF600), named under the table
        unpublished = [r for r in bom_rows if r.in_footprint and r.power_w is None and r.category != "HCI hosts"
                       and r.rack_units is not None]
        bound = "" if total.complete and not total.hci_hosts else "≥ "
        ru_bound = "≥ " if any(p.height is None for p in total.parts) else ""
        power = ((f"{bound}{total.power_w:,.0f}", f"{bound}{total.btu_per_hr:,.0f}") if total.parts
                 or not total.hci_hosts else ("unknown", "unknown"))  # vSAN hosts only: no power figure at all
        rows.append([("Total (controllers, shelves, drives, switches" + (", hosts)" if total.hci_hosts else ")"))
                     if total.sites <= 1 else f"Total ({total.counted_words})",
                     "", "", "", f"{ru_bound}{total.total_rack_units:,}", *power])
        w = self.width
        return [CondPageBreak(self.height * 0.3), _heading("Bill of materials", s),
                _table(rows, [w * 0.19, w * 0.07, w * 0.21, w * 0.23, w * 0.10, w * 0.1, w * 0.1], s),
                self.p(f"Footprint: {_e(total.text())}. 1 W = 3.412142 BTU/hr."
                       + (f" Typical W 'unknown' for the {', '.join(dict.fromkeys(_e(r.model) for r in unpublished))}: "
                          + ("their" if len({r.model for r in unpublished}) > 1 else "its")
                          + " typical power is not published in the catalog's sources; the totals count the other "
                          "rows (≥)." if unpublished else "")
                       + (f" A model shown without a part number has {NO_PART_NUMBER} (order it by its model name)."
                          if any(not r.part_number for r in bom_rows) else ""), s.small)]

    def capacity(self) -> list:
        """The capacity section: scenario totals, then per system its waterfall chart, step table, key figures,
        layout, assumptions and problems."""
        s = self.s
        story: list = [self.section_break(), _heading("Capacity", s)]
        capacity = self.evaluation.capacity
        if capacity is None:
            return story + [self.p("Capacity could not be computed: " + _e(
                "; ".join(p.message for p in self.evaluation.errors) or "no result") + ".")]
        total = capacity.total
        unmeasured = self.capacity_unmeasured()  # as the summary: not 0 bytes of data, "not measured"
        rows = [["", "Raw", "Usable", "Effective", LOGICAL_DATA_WITH_SNAPSHOTS, "Logical used",
                 "Physical used"],
                ["Scenario total", self.cap(total.raw_bytes), self.cap(total.usable_bytes),
                 self.cap(total.effective_bytes), self.cap(total.effective_with_snapshots_bytes),
                 CAPACITY_NOT_MEASURED if unmeasured else self.cap(total.logical_used_bytes),
                 CAPACITY_NOT_MEASURED if unmeasured else self.cap(total.physical_used_bytes)]]
        w = self.width
        story.append(_table(rows, [w * 0.19] + [w * 0.135] * 6, s))
        story.append(self.p(f"Effective: usable capacity times the data reduction ({self.reduction_words(capacity)}"
                            f"), the effective capacity as it is sold. {LOGICAL_DATA_WITH_SNAPSHOTS}: "
                            "usable capacity times the total efficiency ratio, which also counts the logical size of "
                            f"every {self.copy_words(capacity)} at its full size, so it is not space for more data. "
                            "The scenario total is"
                            + (self.dr_copy_note(capacity).removeprefix(",") or " over every system") + ".",
                            s.small))
        from app.report.capacity_band import band_story  # the P10 / P90 band (its own module)

        story += band_story(self, (_e, _para, _table))
        for system in capacity.systems:
            story.append(CondPageBreak(200))
            story.append(_para(_e(f"{system.system_label or system.system_id} ({system.family})"), s.h2))
            # the bars the Capacity tab shows for the system (a DR copy's: the reduction its copies keep in transfer)
            bars, kept = shown_waterfall(capacity, self.evaluation.protection, system)
            if kept is None:
                bars = with_effective_band(bars, self.evaluation.capacity_band, system.system_id)
            story.append(_Figure(g.waterfall_drawing(bars, self.unit, self.width, self._drawings), self._places))
            banded = any(b.band is not None and b.band[0] < b.band[1] for b in bars)
            _axis, cut = g.waterfall_axis_top([(b.label, b.before, b.after, b.kind, b.band) for b in bars])
            story.append(_para("Raw → usable → effective: red bars are deductions, green bars gains from "
                               "data reduction and copies, blue bars totals"
                               + ("; the outlined box on the effective bar spans its P10-P90 band" if banded else "")
                               + ("; the copies' bars run past the axis' end (the break mark): their values are on "
                                  "the right" if cut else "") + ".", s.caption))
            rows = [["Step", "Before", "After", "How", "Source"]]
            cited = SourceNotes()  # each source once, under the table (app.report.source_notes)
            exact = exact_figures(system)  # the engine's figures in the project's unit (models.present.capacity_text)
            for step in system.steps:
                rows.append([_e(step.name), self.cap(step.bytes_before), self.cap(step.bytes_after),
                             _e(precise_formula(text_in_unit(customer_citation(str(step.formula)), self.unit, exact),
                                                self.unit, exact, step.bytes_before, step.bytes_after)),
                             cited.marker(customer_citation(str(step.source)))])
            rows.append(["<b>Usable</b>", "", f"<b>{self.cap(system.usable_bytes)}</b>", "", ""])
            if kept is None:
                rows.append(["<b>Effective</b>", "", f"<b>{self.cap(system.effective_bytes)}</b>",
                             "usable x data reduction", ""])
            else:  # as the waterfall above and the Capacity tab
                rows.append(["<b>Effective</b>", "", f"<b>{self.cap(float(system.usable_bytes) * kept)}</b>",
                             _e(f"usable x {fmt_ratio(kept)}, the data reduction the copies keep in transfer"), ""])
            if system.effective_with_snapshots_bytes > system.effective_bytes:
                rows.append([Paragraph(LOGICAL_DATA_WITH_SNAPSHOTS, s.tiny_bold), "",
                             self.cap(system.effective_with_snapshots_bytes),
                             "usable x total efficiency ratio", ""])
            # Before and After hold "1,247.96 TiB" on one line (review 57 #18: at 12% of the width it wrapped)
            story += cited.under(_table(rows, [w * 0.17, w * 0.13, w * 0.13, w * 0.49, w * 0.08], s, small_cols=(3, 4)),
                                 REGULAR, SMALL_SIZE, SMALL_LEADING, s.tiny.textColor)  # the notes kept with rows
            facts, why = key_figures(system, self.cap, capacity.is_replica_only(system.system_id),
                                     growth_unmeasured(self.scenario.workloads))
            noted = SourceNotes()  # a figure's note, kept with the table (models.present.key_figures)
            if why:
                facts[0] = (facts[0][0], f"{facts[0][1]} {noted.marker(why)}")
            story.append(Spacer(1, 6))
            if len(facts) % 2:
                facts.append(("", ""))
            pairs = [[_e(a), _e(b), _e(c), _e(d)] for (a, b), (c, d) in zip(facts[::2], facts[1::2])]
            story += noted.under(_table(pairs, [w * 0.32, w * 0.17, w * 0.32, w * 0.19], s, header_rows=0,
                                        extra=[("LINEABOVE", (0, 0), (-1, 0), 0.8, g.INK)]),
                                 REGULAR, SMALL_SIZE, SMALL_LEADING, s.tiny.textColor)
            if system.layout:
                story.append(_para("Layout", s.h2))
                story += [self.p("• " + _e(text_in_unit(provider_size_once(line, self.unit), self.unit, exact)),
                                 s.small) for line in system.layout]  # a cloud disk's size once (provider_size)
            if system.notes:
                story.append(_para("Assumptions", s.h2))
                story += [self.p("• " + _e(text_in_unit(note, self.unit, exact)), s.small)
                          for note in map(customer_citation, system.notes)]
        return story

    def performance(self) -> list:
        """The performance section: per workload its figures, latency chart and station utilisation table, then
        notes."""
        s = self.s
        story: list = [self.section_break(), _heading("Performance", s)]
        perf = self.evaluation.performance
        if perf is None:
            return story + [self.p("Performance could not be computed: " + _e(
                "; ".join(p.message for p in self.evaluation.errors) or "no result") + ".")]
        if not perf.workloads:
            return story + [self.p(self.no_load_words() + ".")]
        w = self.width
        labels = node_names(self.scenario.nodes, self.catalog)
        for n, wp in enumerate(perf.workloads):
            block: list = [_para(_e(f"{wp.name} ({wp.protocol}, {round(wp.block_kib, 2):g} KiB)"), s.h2)]  # 14.46
            figures = [
                ["<b>Max IOPS at SLO</b>", fmt_max_iops_at_slo(wp.max_iops_at_slo)
                 + (f", {slo_capped_words(wp)}" if slo_capped_words(wp) else "")  # = saturation: why (r2 #8)
                 + (f"; {_e(reach_words(wp))}" if reach_words(wp) else ""),  # what the stated concurrency reaches
                 "<b>Saturation</b>", f"{fmt_iops(wp.saturation_iops)} IOPS, {fmt_mbps(wp.saturation_mbps)}"],
                ["<b>SLO</b>", fmt_ms(wp.slo_ms, NOT_AVAILABLE) + (" at the 99th percentile"
                                                                   if wp.slo_statistic == "p99" else " mean"),
                 "<b>Target</b>", _e(target_text(wp))],
                ["<b>Latency at target</b>",
                 fmt_latency_tails(wp.latency_at_target_ms, wp.latency_p95_at_target_ms,
                                   wp.latency_p99_at_target_ms) if finite(wp.target_iops) else NOT_AVAILABLE,
                 "<b>Target met</b>", _target_met(wp)],
                ["<b>Bottleneck</b>", _e(bottleneck_words(wp) or NOT_AVAILABLE), "<b>Operating point</b>",
                 f"{fmt_iops(wp.operating_iops)} IOPS" if finite(wp.operating_iops) else NOT_AVAILABLE],
                ["<b>Profile</b>", _e(workload_profile_text(wp)), "<b>Uncertainty band</b>",
                 _e(band_summary(wp))],
            ]
            record = self.scenario.workload(wp.workload_id)
            if record is not None:  # what was put in: the mix, the data and its growth (an import's measured figures)
                figures.append(["<b>I/O mix</b>", f"{round(record.read_pct, 1):g}% read, "
                                f"{round(record.random_pct, 1):g}% random",
                                "<b>Data set</b>", CAPACITY_NOT_MEASURED if dataset_unmeasured(record) else
                                f"{self.cap(record.dataset_bytes)}, "
                                + (f"growth {GROWTH_NOT_MEASURED_CELL}" if data_growth_unmeasured(record) else
                                   f"growing {round(record.growth_pct_per_year, 1):g}% a year")])
            table = _table(figures, [w * 0.18, w * 0.32, w * 0.16, w * 0.34], s, header_rows=0, zebra=False,
                           extra=[("LINEABOVE", (0, 0), (-1, 0), 0.8, g.INK)])
            block.append(table)
            block.append(Spacer(1, 4))
            block.append(_Figure(g.latency_chart(wp, w, memo=self._drawings), self._places))
            block.append(_para(
                "Predicted storage latency versus IOPS: closed ramp of outstanding I/Os (solid), continued with the "
                "open model up to saturation where the ramp ends early (dash-dotted); "
                + _band_caption(wp)
                + _p99_caption(wp, self._drawings)
                + (" " + _e(knee_words(wp)[0].upper() + knee_words(wp)[1:]) + "." if wp.knee_note else "")
                + (f" The {_e(assumed_floor_words(wp))}." if assumed_floor_words(wp) else ""),  # review 57 #12
                s.caption))
            story.append(KeepTogether(block) if n == 0 else KeepTogether([CondPageBreak(380)] + block))
            rows = [["Station", "Component", "Utilisation", "Residence per I/O"]]
            extra = []
            for i, st in enumerate(wp.stations, start=1):
                is_b = st.name == wp.bottleneck
                name = f"{_e(station_words(st.name, wp))}" + (' <font color="#D0342C">◀ bottleneck</font>' if is_b
                                                                  else "")
                rows.append([f"<b>{name}</b>" if is_b else name, _e(labels.get(st.component, st.component) or "—"),
                             fmt_utilization(st.utilization), fmt_ms(st.residence_ms)])
                if is_b:
                    extra.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#FCE9E1")))
            if wp.stations:
                story.append(_table(rows, [w * 0.42, w * 0.22, w * 0.16, w * 0.20], s, extra=extra, zebra=False))
                if finite(wp.target_iops):
                    where = f"the target, {fmt_iops(wp.operating_iops)} IOPS"
                else:
                    where = (f"{fmt_iops(wp.operating_iops)} IOPS, the highest load on the closed ramp within the "
                             "SLO; the workload has no IOPS target")
                story.append(_para(f"Utilisation per server at the operating point ({_e(where)}).", s.caption))
            if wp.notes:
                story += [self.p("• " + _e(note), s.small) for note in workload_notes(wp.notes)]
        if perf.notes:
            story.append(_para("Notes", s.h2))
            story += [self.p("• " + _e(note), s.small) for note in map(customer_citation, perf.notes)]
        return story

    def resilience(self) -> list:
        """The "Resilience" section: per workload a verdict for each failure state (models.present.resilience)
        with its reason, saturation and max IOPS at the SLO in that state beside the normal ones, then the
        runway. The evaluation's resilience is used when the GUI's worker computed it, else computed here (the
        report is written off the GUI thread)."""
        from models.evaluate import evaluate_resilience
        from models.present.resilience import (
            runway_beyond_note,
            runway_horizon_months,
            runway_series,
            state_label,
            state_verdict,
        )

        s = self.s
        perf = self.evaluation.performance
        if perf is None or not perf.workloads:
            return []
        res = self.evaluation.resilience
        if res is None:
            res = evaluate_resilience(self.project, self.evaluation, self.scenario.name, self.catalog)
        # the states this design has, in the platform's own words (an E-Series "controller failover", an ONTAP
        # "takeover"), not a list of every platform's
        found = list(dict.fromkeys(state_label(st) for wp in perf.workloads
                                   for st in res.states.get(wp.workload_id, ())))
        which = (f" in each failure state that applies to this design ({', '.join(found)})" if found else "")
        story: list = [self.section_break(), _heading("Resilience", s),
                       self.p(f"How each workload fares on the bad day{_e(which)}, each solved by the same model as "
                              "the normal state (states that do not apply to a system are left out).")]
        w = self.width
        if not any(res.states.get(wp.workload_id) for wp in perf.workloads):  # say why, not a bare heading
            managed = all(n.kind == "managed_service" for n in self.scenario.nodes if n.kind != "host")
            why = ("a managed service's controllers, paths and drives are the provider's, and its availability is "
                   "the provider's service-level agreement" if managed else
                   "a single node has no partner to take over its work, so a failure stops its service until the "
                   "node is restored")
            story.append(self.p(f"No failure state of the model applies to this design: {why}. The runway follows."))
        blocks: dict[tuple, list] = {}  # a workload's rendered table and lines -> the workloads that share them
        for wp in perf.workloads:
            states = res.states.get(wp.workload_id, ())
            if not states:
                continue
            rows = [["State", "Saturation", "Max IOPS at SLO", "Latency at target", "SLO met"],
                    ["normal", f"{fmt_iops(wp.saturation_iops)} IOPS", fmt_max_iops_at_slo(wp.max_iops_at_slo),
                     fmt_ms(wp.latency_at_target_ms) if finite(wp.target_iops) else NOT_AVAILABLE,
                     _verdict(wp.target_met)]]
            for st in states:
                sp = st.performance
                rows.append([_e(state_label(st)), f"{fmt_iops(sp.saturation_iops)} IOPS",
                             fmt_max_iops_at_slo(sp.max_iops_at_slo),
                             fmt_ms(sp.latency_at_target_ms) if finite(sp.target_iops) else NOT_AVAILABLE,
                             _verdict(st.meets_slo)])
            lines = tuple("• " + _e(state_verdict(st, wp)) + ". " + _e(st.reason[0].upper() + st.reason[1:]) + "."
                          for st in states)
            blocks.setdefault((tuple(map(tuple, rows)), lines), []).append(wp.name)
        for (cells, lines), names in blocks.items():  # a block several workloads share is printed once
            block = _alike_heading(names, s)
            block.append(_table([list(r) for r in cells], [w * 0.22, w * 0.2, w * 0.2, w * 0.2, w * 0.18], s))
            block += [self.p(line, s.small) for line in lines]
            story.append(KeepTogether(block))
        if res.requirement_checks:
            story.append(_para("Resilience requirements", s.h2))
            story += [self.p(_verdict(None if c.state == PROVIDER_HA else c.met, "Met", "Missed",
                                      "Assumed")  # a managed service's takeover: taken as met, not checked
                             + " " + _e(c.text) + ".", s.small)
                      for c in res.requirement_checks]
        if res.capacity_states:
            story.append(_para("Capacity in a failure", s.h2))
            story += [self.p("• " + _e(line) + ".", s.small) for line in self._capacity_state_lines(res)]
        story.append(_para("Runway", s.h2))
        months = runway_horizon_months(res)
        series = runway_series(self.evaluation, res, self.scenario, months)
        if series:
            story.append(g.runway_chart(series, w))
            beyond = runway_beyond_note(res, months)
            span = "five years" if months == 60 else f"{months} months"
            story.append(_para(f"Each resource's use as a share of its limit over the next {span}: capacity "
                                   "used over usable, and each workload's "
                               + ("growing target" if targets_grow(res) else "target (IOPS targets do not grow in "
                                                                               "this project)")
                               + " over its max IOPS at the SLO"
                               + (f"; where the SLO is required in {self._failover_words(res)}, the same in that "
                                  "state" if any(c.requirement == "slo_in_takeover" for c in res.requirement_checks)
                                  and len(series) > 1 else "")
                               + ("; and each DR copy's use of its destination's usable capacity"
                                  if any(n.startswith("DR copy on ") for n, _ in series) else "")
                               + ("; lines alike are drawn once, named by the first and how many more"
                                  if len(g.runway_alike(series)) < len(series) else "")
                               + "; where a line crosses 100% (dashed) the resource runs out"
                               + ("; a line that rises above 150% leaves the chart at the arrow"
                                  if g.runway_leaves_top(series) else "")
                               + (f"; {_e(beyond)}" if beyond else "") + ".", s.caption))
        story += [self.p("• " + _e(line[0].upper() + line[1:]), s.small) for line in self._runway_lines(res)]
        return story  # what could not be computed is in the summary's problems (with_resilience)

    @staticmethod
    def _failover_words(res) -> str:
        """The failure state the SLO in takeover is judged in, as the design's states name it ("takeover", an
        E-Series array's "controller failover", a cloud HA pair's "failover"): the runway caption's words."""
        from models.verdict import failover_state

        labels = []
        for states in res.states.values():
            st = failover_state(states)
            if st is not None:
                label = st.label or ("failover" if st.state == "cloud_failover" else "takeover")
                if label not in labels:
                    labels.append(label)
        return " / ".join(labels) or "takeover"

    def _capacity_state_lines(self, res) -> list[str]:
        """The capacity in a failure, a line per distinct text (``res.capacity_states``, a text per system and
        state, which names no system): a text several systems share is printed once, saying which ("each of the
        236 systems", or their names when only some share it), in the order of its first system."""
        systems: dict[str, list[str]] = {}
        for c in res.capacity_states:
            systems.setdefault(c.text, []).append(c.system_id)
        every = {c.system_id for c in res.capacity_states}
        lines = []
        for text, ids in systems.items():
            line = text[0].upper() + text[1:]
            if len(ids) > 1:
                line += (f" (each of the {len(ids)} systems)" if set(ids) == every else
                         " (" + ", ".join(self.scenario.node(i).name for i in ids) + ")")
            lines.append(line)
        return lines

    def _runway_lines(self, res) -> list[str]:
        """The runway's lines with each DR copy's months until full
        (``models.present.resilience.runway_lines_with_dr_copies``, as the screen's runway chart)."""
        from models.present.resilience import runway_lines_with_dr_copies

        return runway_lines_with_dr_copies(res, self.evaluation, growth_unmeasured(self.scenario.workloads))

    def protection(self) -> list:
        """The "Protection and DR" section: the replication relationships' table and sentences
        (``models.present.protection``) and the site-loss verdicts (``models.present.protection_panel``); nothing
        when the scenario has neither."""
        from models.present.protection import INTRO, lines, table_rows
        from models.present.protection_panel import site_loss_lines

        protection = self.evaluation.protection
        sites = site_loss_lines(self.evaluation.resilience, {w.id: w.name for w in self.scenario.workloads})
        if protection is None or not protection.relationships:
            if not sites:
                return []
            return [self.section_break(), _heading("Protection and DR", self.s),
                    self.p("When a site is lost:")] + [self.p("• " + _e(line), self.s.small) for line in sites]
        s, w = self.s, self.width
        rows = [[_e(cell) for cell in row] for row in table_rows(protection, self.unit)]
        columns = list(zip(*rows, strict=True))
        half = 7  # two tables of the same rows: a page is too narrow for thirteen columns
        first = [list(r) for r in zip(*columns[:half], strict=True)]
        second = [list(r) for r in zip(columns[0], *columns[half:], strict=True)]
        story: list = [self.section_break(), _heading("Protection and DR", s), self.p(INTRO),
                       _table(first, [w * 0.22] + [w * 0.13] * (half - 1), s),
                       _table(second, [w * 0.22] + [w * 0.13] * (len(second[0]) - 1), s)]
        story += [self.p("• " + _e(line), s.small) for line in lines(protection, self.unit)]
        if sites:
            story += [self.p("When a site is lost:")] + [self.p("• " + _e(line), s.small) for line in sites]
        return story

    def _copies_requirement(self, grown_copies_bytes) -> str:
        """The physical part of the capacity requirement in words, where this design keeps Snapshot copies or clones
        (their blocks, grown with the data, must fit the usable capacity with it: ``models.sizing.capacity_reasons``,
        though the effective capacity does not count them); "" where it keeps none."""
        capacity = self.evaluation.capacity
        if capacity is None:
            return ""
        copies = sum(r.efficiency.snapshot_physical_bytes + r.efficiency.clone_physical_bytes
                     for r in capacity.systems if r.efficiency is not None)
        if copies <= 0:
            return ""
        grown = grown_copies_bytes(self.scenario, self.project.requirements, copies)
        return (f" for the data sets, plus the physical blocks of their Snapshot copies and clones "
                f"({self.cap(copies)} on this design now, {self.cap(grown)} grown with the data), which must fit the "
                "usable capacity with the data,")

    def recommendation(self) -> list:
        """The "Recommendation" section when the project states requirements (``models.sizing``): the catalog's
        configurations ranked by the stated rule and why each meets or fails, then what the first ranked is (an
        alternative, not this report's design) and where the design stands by the same rule
        (:meth:`_standing_lines`). Nothing for a project without requirements
        (the default ones), so a report does not search the catalog unasked. The search given to the builder
        (``sizing``: the GUI's, already run) is shown as it is; without one the catalog is searched here, once."""
        from models.present.recommendation import RANKED_SHOWN
        from models.project.model import Requirements
        from models.sizing import grown_copies_bytes, ranking_rule, size, takeover_assumed, tie_words

        if self.project.requirements == Requirements():
            return []
        s = self.s
        result = self.sizing if self.sizing is not None else size(self.project, top=5, catalog=self.catalog)
        story: list = [self.section_break(), _heading("Recommendation", s)]
        need = result.needed_effective_bytes
        horizon = self.project.requirements.horizon_months
        story.append(self.p(f"{result.considered:,} configurations from the catalog were considered against the "
                            f"requirements: {self.cap(need)} effective over {horizon} months"
                            + self._copies_requirement(grown_copies_bytes)
                            + " and every workload's SLO at its grown target"
                            + ha_state_words(self.project.requirements) + "."))
        priced = result.currency is not None
        rows = [["Rank", "Configuration", "Cost" if priced else "Rack units", "Power", "Effective",
                 "Headroom (grown)", "Bound by", "Meets"]]
        shown = (result.candidates or result.nearest)[:RANKED_SHOWN]
        for rank, c in enumerate(shown, start=1):
            cloud = c.deployment == "cloud"  # no rack space or power on site: not "0" and "n/a"
            size_cell = (("not priced" if c.unpriced and not c.cost else  # nothing of it in the book: not "0 EUR*"
                          f"{c.cost:,.0f} {result.currency}" + ("*" if c.unpriced else "")) if priced
                         else "cloud" if cloud else str(c.rack_units))
            tied = f" ({tie_words(c, short=True)})" if c.ties else ""  # designs tied on every criterion: one row
            rows.append([str(rank) + (" ★" if c.pareto else ""), _e(c.summary + tied), size_cell,
                         "cloud" if cloud else f"{c.power_w:,.0f} W" if c.power_w else "n/a",
                         effective_words(c.effective_bytes, c.usable_bytes,  # a figure never parts from its unit
                                         lambda b: self.cap(b).replace(" ", "\u00a0")),
                         sizer_headroom_cell(c.headroom_pct, c.takeover_headroom_pct, state=c.takeover_state),
                         _e(c.bound) if c.max_iops_at_slo is not None and c.bound else "—", _verdict(c.meets)])
        w = self.width
        story.append(_table(rows, [w * 0.06, w * 0.28, w * 0.10, w * 0.08, w * 0.13, w * 0.11, w * 0.16, w * 0.08],
                            s))
        from models.costing.tco import unranked_words

        allowed = self.project.requirements.deployments
        cloud_ranked = not allowed or "cloud" in allowed  # managed services are candidates: say which are not
        unranked = unranked_words(self.scenario, self.catalog, self.project.requirements.protocols)
        story.append(self.p(_e(ranking_rule(priced, self.project.requirements.rank_on))
                            + (". " + _e(unranked[0].upper() + unranked[1:]) if unranked and cloud_ranked else "")
                            + ". Effective: usable x the data reduction the workloads state (the figure the "
                            "effective capacity needed is compared with), the usable capacity and the ratio in "
                            "brackets. Headroom (grown): how far the grown targets (at the end of the "
                            f"{self.project.requirements.horizon_months} months) are below the IOPS that saturates "
                            "the design, in percent of the target, the least over the workloads"
                            + (f"; in brackets, the same in {ha_state_label(self.project.requirements)}, the "
                               "failure state the SLO is required in"
                               if any(c.takeover_headroom_pct is not None for c in shown) else "")
                            + " (the Performance requirement's headroom is at today's target)"
                            + ("; " + MULTIPLE_NOTE if any_multiple(c.headroom_pct for c in shown) else "")
                            + ". Bound by: what stops the max IOPS at "
                            "the SLO, the part that saturates first as the load grows"
                            + (". * The cost leaves out an item the price book does not price" if priced else "")
                            + ".", s.small))
        assumed = [(rank, words) for rank, c in enumerate(shown, start=1)
                   if (words := takeover_assumed(c, self.project.requirements))]
        if assumed:  # a managed service's takeover: not modelled, said so (review 56), never a silent "Yes"
            ranks = [str(rank) for rank, _ in assumed]
            which = ranks[0] if len(ranks) == 1 else ", ".join(ranks[:-1]) + " and " + ranks[-1]
            story.append(self.p(f"Rank{'s' if len(ranks) > 1 else ''} {which} "
                                + ("(managed services): " if len(ranks) > 1 else "(a managed service): ")
                                + _e(assumed[0][1]) + ".", s.small))
        story += [self.p(_e(line)) for line in self._standing_lines(result)]
        if not result.candidates:
            story += [self.p("• " + _e(c.summary) + ": " + _e("; ".join(c.reasons))
                             + (_e(f"; {tie_words(c)}") if c.ties else ""), s.small) for c in result.nearest]
        story += [self.p("Note: " + _e(customer_citation(n)) + ".", s.small) for n in result.notes]
        if result.destinations:
            from models.replication.sizing import proposal_line

            story += [self.p("Replication destination: " + _e(proposal_line(d)), s.small)
                      for d in result.destinations]
        return story

    def _standing_lines(self, result) -> list[str]:
        """The sentences under the ranking (``models.present.recommendation.relation_lines``, which the sizer
        dialog prints too): what the first ranked is, whether this report's design meets (the Summary's verdict)
        and where it stands by the same rule, and, ranked without a price book, a lower-cost configuration that
        meets too by the report's cost comparison."""
        from models.present.recommendation import relation_lines

        return relation_lines(self.project, self.catalog, self.evaluation, result, tco=self.tco)

    def tco(self):
        """The design's cost and the cloud options over the horizon (``models.present.cost.design_tco``), computed
        once for the "Cost and footprint" and "Recommendation" sections."""
        if self._tco is None:
            from models.present.cost import design_tco

            self._tco = design_tco(self.project, self.scenario, self.catalog)
        return self._tco

    def comparison(self) -> list:
        """Every scenario side by side (``models.present.comparison_rows``), in the project's order; with two
        scenarios, the change from the first to the second as well."""
        if len(self.project.scenarios) < 2:
            return []
        s = self.s
        names = [sc.name for sc in self.project.scenarios]
        evs = [self.evaluations[n] for n in names]
        two = len(evs) == 2
        header = ["Figure"] + [_e(n) + (" (active)" if n == self.scenario.name else "") for n in names]
        if two:
            header.append("\u0394 (right \u2212 left)")
        rows = [header]
        extra = []
        for row in comparison_rows(evs, self.unit):
            if row.level == SECTION:
                rows.append([f"<b>{_e(row.label)}</b>"] + [""] * (len(header) - 1))
                extra.append(("LINEABOVE", (0, len(rows) - 1), (-1, len(rows) - 1), 0.8, g.INK))
            elif row.level == GROUP:
                rows.append([f"<b>{_e(row.label)}</b>"] + [""] * (len(header) - 1))
            else:
                met = (yes_no(True), yes_no(False))  # "Yes" / "No" in the verdict colours
                values = [_verdict(v == met[0]) if row.label == "target met" and v in met else _e(v)
                          for v in row.values]
                cells = ["&nbsp;&nbsp;" + _e(row.label)] + values
                if two:
                    colour = {True: "#1E9E5A", False: "#D0342C"}.get(row.better)
                    cells.append(f'<font color="{colour}">{_e(row.delta)}</font>' if colour else _e(row.delta))
                rows.append(cells)
        first = self.width * 0.24
        rest = (self.width - first) / (len(header) - 1)
        return [self.section_break(), _heading("Scenario comparison", s),
                self.p(f"{len(evs)} scenarios, each evaluated with the same engines and catalog."),
                _table(rows, [first] + [rest] * (len(header) - 1), s, extra=extra, zebra=False)]

    def sources(self) -> list:
        """How StorPlan predicts, and every catalog and preset number the scenario uses with its source
        (assumptions marked)."""
        s = self.s
        story: list = [self.section_break(), _heading("Assumptions and sources", s)]
        story.append(_para("How StorPlan predicts", s.h2))
        story.append(self.p(MODEL_DESCRIPTION))
        numbers = catalog_numbers(self.scenario, self.catalog, self.unit) + preset_numbers(self.scenario, self.unit)
        assumed = sum(1 for n in numbers if n.assumed)
        fitted = sum(1 for n in numbers if n.kind == "calibrated")
        derived = sum(1 for n in numbers if n.kind == "derived")
        story.append(_para("Catalog and preset numbers used by this scenario", s.h2))
        story.append(self.p(
            f"{len(numbers)} numbers from {len({n.record for n in numbers})} records; {assumed} are assumptions "
            f"(marked <font color=\"#B07800\"><b>assumed</b></font>), {fitted} were fitted to published "
            f"measurements (marked fitted), {derived} derived from other numbers (marked derived), the rest cite "
            "a published source." + self.vsan_latency_words(), s.small))
        rows = [["Record", "Field", "Value", "Source"]]
        extra = []
        previous = None
        for i, n in enumerate(numbers, start=1):
            source = _e(n.source)
            if n.assumed:
                source = '<font color="#B07800"><b>assumed</b></font>: ' + source
                extra.append(("BACKGROUND", (0, i), (-1, i), colors.HexColor("#FFF6E0")))
            if KIND_LABELS.get(n.kind) and not n.assumed:
                source = f"{KIND_LABELS[n.kind]}: {source}"
            rows.append([f"<b>{_e(n.record)}</b>" if n.record != previous else "", _e(field_label(n.field)),
                         _e(n.value), source])
            previous = n.record
        w = self.width
        story.append(_table(rows, [w * 0.16, w * 0.21, w * 0.18, w * 0.45], s, extra=extra, zebra=False,
                            small_cols=(0, 1, 2, 3)))
        return story

    def validation_section(self) -> list:
        """The model validation: checks and cases passing, the failures first, then every check's table row."""
        s = self.s
        story: list = [self.section_break(), _heading("Model validation", s)]
        outcomes = self.validation
        if isinstance(outcomes, str):
            return story + [self.p(f"The validation cases could not be run: {_e(outcomes)}.")]
        checks = [c for o in outcomes for c in o.checks]
        failed = [c for c in checks if not c.passed]
        story.append(self.p(
            "StorPlan replays published measurements (public reports and benchmark results) through the same "
            "engines that sized this design. Each check counts once, in one category: <i>in-sample</i> when a "
            "value was fitted or chosen from its own published number, <i>definitional arithmetic</i> when it "
            "follows from the stated configuration, <i>out-of-sample</i> when the calibration was refitted without "
            "its case (leave-one-out), a <i>never-fitted prediction</i> otherwise. A check passes when the "
            "prediction is within the tolerance of the published value (or within its bound or range)."))
        story.append(self.p("<br/>".join(_e(line) for line in headline_lines(outcomes))))
        titles = {o.case_id: case_title(o.case_id, o.seed) or o.case_id for o in outcomes}
        broken = [o for o in outcomes if o.error]
        if failed or broken:
            story.append(_para("Outside tolerance", s.h2))
            short = {o.case_id: case_title(o.case_id, o.seed, address=False) or o.case_id for o in outcomes}
            items = [f"{_e(short.get(c.case_id, c.case_id))}, {_e(quantity_label(c.quantity))}: published "
                     f"{published_text(c)}, predicted {predicted_text(c)} ({error_text(c)}, "
                     f"tolerance {tolerance_text(c)})" for c in failed]
            items += [f"{_e(titles[o.case_id])}: could not run ({_e(o.error)})" for o in broken]
            story += [self.p(f'<font color="#D0342C">✗</font> {t}', s.small) for t in items]
            story.append(Spacer(1, 4))
        rows = [["Published result", "Quantity", "Published", "Predicted", "Error", "Tolerance", "Result", "Basis"]]
        extra = []
        for o in outcomes:
            if o.error:
                rows.append([_e(titles[o.case_id]), "—", "—", "—", "—", "—",
                             f'{_verdict(False, no="fail")} {_e(o.error)}', "—"])
                extra.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), colors.HexColor("#FCE9E1")))
            for n, c in enumerate(o.checks):  # the published result named on its case's first row
                rows.append([_e(titles[o.case_id]) if n == 0 else "", _e(quantity_label(c.quantity)),
                             published_text(c), predicted_text(c), error_text(c), tolerance_text(c),
                             _verdict(c.passed, yes="pass", no="fail"), c.sample_mark])
                if not c.passed:
                    extra.append(("BACKGROUND", (0, len(rows) - 1), (-1, len(rows) - 1), colors.HexColor("#FCE9E1")))
        w = self.width
        story.append(_table(rows, [w * 0.16, w * 0.22, w * 0.12, w * 0.11, w * 0.09, w * 0.11, w * 0.08, w * 0.11], s,
                            extra=extra, zebra=False, small_cols=(0,)))
        return story

    def cost_footprint(self) -> list:
        """The "Cost and footprint" section (``app.report.costing``)."""
        from app.report.costing import cost_section

        return cost_section(self, (_e, _heading, _para, _table))

    def story(self) -> list:
        """Every section's flowables, in the report's order."""
        return (self.cover() + self.summary() + self.measured_environment() + self.topology() + self.bom()
                + self.capacity() + self.performance()
                + self.resilience() + self.protection() + self.cost_footprint() + self.recommendation()
                + self.comparison() + self.sources() + self.validation_section())


def build_pdf(builder: ReportBuilder) -> bytes:
    """Lay out the builder's story on pages and return the PDF bytes."""
    buffer = io.BytesIO()
    info = builder.project.info
    page = (builder.page_w, builder.page_h)
    doc = _Doc(buffer, pagesize=page, leftMargin=MARGIN, rightMargin=MARGIN, topMargin=MARGIN, bottomMargin=MARGIN,
               title=f"{info.name} — sizing report", author=info.author or "StorPlan",
               subject=f"Storage sizing report for {info.customer}" if info.customer else "Storage sizing report",
               creator=f"StorPlan {builder.app_version}", producer=f"StorPlan {builder.app_version}",
               initialFontName=REGULAR, initialFontSize=9)
    frame = _Frame(MARGIN, MARGIN, builder.width, builder.height, id="main", leftPadding=0, rightPadding=0,
                   topPadding=0, bottomPadding=0)
    doc.addPageTemplates([PageTemplate("cover", [frame]), PageTemplate("body", [frame])])
    maker = functools.partial(
        _NumberedCanvas,
        header=info.name,
        footer_left=f"StorPlan {builder.app_version} · catalog {builder.catalog_version or NOT_AVAILABLE}",
        footer_mid=builder.today.isoformat(),
    )
    doc.build(builder.story(), canvasmaker=maker)
    return buffer.getvalue()
