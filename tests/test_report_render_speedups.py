"""The report's speed-ups change nothing a reader sees: the report fonts' cached text encoding and widths equal
reportlab's own, text by text, ``text_out`` writes reportlab's operators, the row heights a table is given are
reportlab's measure, and the cyclic collector held while a report is laid out is on again afterwards
(issue 27)."""

from __future__ import annotations

import gc
import io
import threading

from reportlab.pdfbase.pdfdoc import PDFDocument
from reportlab.pdfbase.ttfonts import TTFont

from app import report
from app.report import document
from app.report.fonts import _FILES, REGULAR, _ReportFont, text_out
from models.project import load
from models.resources import examples_dir, resources_dir

TEXTS = ["node 1 CPU", "25.47 TiB", "node 1 CPU", "Ωµ→ ≤ 0.5 ms", "25.47 TiB", "Ωµ→ ≤ 0.5 ms", "ÅÆØ ✓ ✗",
         "node\u00a01 CPU", "ÅÆØ ✓ ✗", ""]


def test_cached_encoding_and_widths_equal_reportlabs():
    path = str(resources_dir() / "fonts" / _FILES[REGULAR])
    cached, plain = _ReportFont("speedup-cached", path), TTFont("speedup-plain", path)
    doc_cached, doc_plain = PDFDocument(), PDFDocument()
    for text in TEXTS * 2:  # repeated texts come from the cache, new characters still get new codes
        assert cached.splitString(text, doc_cached) == plain.splitString(text, doc_plain), text
        for size in (6.6, 7.8, 9):
            assert cached.stringWidth(text, size) == plain.stringWidth(text, size), (text, size)
    # a second document starts its own subsets: the cache is per document
    assert cached.splitString("✓ node", PDFDocument()) == plain.splitString("✓ node", PDFDocument())


def test_collector_held_while_laid_out_and_on_again(monkeypatch):
    project = load(examples_dir() / "aff8080-nfs-file-services.toml")
    seen = []
    real = document.build_pdf

    def build(builder):
        seen.append(gc.isenabled())
        return real(builder)

    monkeypatch.setattr(document, "build_pdf", build)
    assert gc.isenabled()
    data = report.render_report_bytes(project, validation=[])
    assert data.startswith(b"%PDF") and seen == [False]
    assert gc.isenabled()


def test_collector_stays_off_when_it_was_off():
    gc.disable()
    try:
        with report._collector_held():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_concurrent_holds_release_once_the_last_ends():
    inside, leave = threading.Event(), threading.Event()

    def other():
        with report._collector_held():
            inside.set()
            leave.wait(10)

    worker = threading.Thread(target=other)
    with report._collector_held():
        worker.start()
        assert inside.wait(10)
    assert not gc.isenabled()  # the other report is still being laid out
    leave.set()
    worker.join(10)
    assert gc.isenabled()


def _text_objects():
    """Two text objects on two fresh canvases (each its own document), in the report's fonts."""
    from reportlab.pdfgen.canvas import Canvas

    from app.report.fonts import BOLD, register_fonts

    register_fonts()
    objects = []
    for _ in range(2):
        text = Canvas(io.BytesIO()).beginText()
        objects.append(text)
    return objects, (REGULAR, BOLD)


def test_text_out_writes_reportlabs_operators():
    (fast, slow), fonts = _text_objects()
    for i, line in enumerate(TEXTS * 2 + ["Ωµ→ and node 1 ✓ in one", "(paren) \\ back"]):
        font = fonts[i % 2]
        for text in (fast, slow):
            text.setFont(font, 7.8, 9.8)  # every other line a new font: the subset selected again
            text.setTextOrigin(10.0, 700.0 - i)
        text_out(fast, line)
        slow.textOut(line)
        assert fast.getCode() == slow.getCode(), line
        assert (fast._x, fast._curSubset) == (slow._x, slow._curSubset), line


def test_row_heights_equal_reportlabs_measure():
    from reportlab.platypus import Paragraph

    styles = document.Styles()
    rows = [["Step", "Before", "After"], ["a", "1.00 TiB", "2.00 TiB"], ["words that take two lines", "", "x"],
            [Paragraph("para", styles.cell), "y", "z"], ["<b>bold</b>", "tiny", "words that take three lines"]]
    table = document._table(rows, [60.0, 50.0, 40.0], styles, small_cols=(1,))
    given = list(table._argH)
    assert "\n" in table._cellvalues[2][0] and table._cellvalues[4][2].count("\n") >= 2  # broken into lines
    assert given[3] is None and all(h is not None for i, h in enumerate(given) if i != 3)
    table._argH = [None] * len(rows)  # reportlab's own measure of the same cells
    table._calc_height(1e9, 150.0)
    assert [h for h in given if h is not None] == [h for i, h in enumerate(table._rowHeights) if i != 3]
