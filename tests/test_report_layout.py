"""The report's lean layout lays text out as reportlab's paragraphs would, and draws an equal chart once.

Table cells and plain paragraphs are drawn as strings broken into lines by the report itself (``_fit``, ``_Text``);
these tests hold those lines to the lines a reportlab ``Paragraph`` makes of the same text, font and width (the
independent computation), over every cited source and capacity step of two bundled examples. Equal charts (alike
workloads, alike systems) are rendered once as a PDF form and shown wherever they recur; the text a reader extracts
is still on every page.

This module must not import PySide6: the report runs without a display.
"""

from __future__ import annotations

import io
from xml.sax.saxutils import escape

import pytest
from pypdf import PdfReader
from reportlab.lib.enums import TA_CENTER
from reportlab.lib.styles import ParagraphStyle
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Paragraph
from scale_project import large_project

from app.report import render_report_bytes
from app.report.document import Styles, _fit, _Text
from app.report.fonts import BOLD, REGULAR, register_fonts
from app.report.sources import catalog_numbers, preset_numbers
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.formatting import fmt_iops
from models.present.citations import customer_citation
from models.project import load
from models.resources import examples_dir

EXAMPLES = ("aff8080-sqlserver-tpce", "cvo-azure-ds3-single-oltp")
WIDTHS = (40.0, 57.1, 90.0, 141.0, 215.0)
"""Column widths inside the padding, points: a narrow figure column up to the sources table's source column."""


def _texts() -> list[str]:
    """Every source, value and step text the two examples' reports put in table cells."""
    texts: set[str] = set()
    for name in EXAMPLES:
        project = load(examples_dir() / f"{name}.toml")
        evaluation = evaluate(project)
        unit = project.settings.capacity_unit
        numbers = catalog_numbers(project.scenario, bundled_catalog(), unit) + preset_numbers(project.scenario, unit)
        texts |= {n.source for n in numbers} | {n.value for n in numbers} | {n.record for n in numbers}
        for system in evaluation.capacity.systems:
            for step in system.steps:
                texts |= {customer_citation(str(step.formula)), customer_citation(str(step.source)), step.name}
    return sorted(t for t in texts if t.strip())


def _paragraph_lines(text: str, font: str, size: float, width: float) -> list[str]:
    para = Paragraph(escape(text), ParagraphStyle("p", fontName=font, fontSize=size, leading=size * 1.25))
    para.wrap(width, 1e9)
    if para.blPara.kind == 0:  # one font: (extra space, words) per line
        return [" ".join(words) for _, words in para.blPara.lines]
    return ["".join(frag.text for frag in line.words) for line in para.blPara.lines]


@pytest.fixture(scope="module")
def texts() -> list[str]:
    register_fonts()
    return _texts()


def test_cells_break_where_a_paragraph_breaks(texts):
    assert len(texts) > 100  # sources, values and steps of two reports
    checked = wrapped = 0
    for font, size in ((REGULAR, 7.8), (BOLD, 7.8), (REGULAR, 6.6)):
        for width in WIDTHS:
            for text in texts:
                fitted = _fit(text, font, size, width)
                if fitted is None:  # the table falls back to a paragraph itself: collapsed spaces or a split word
                    assert ("  " in text or "\n" in text or text != text.strip()
                            or max(stringWidth(word, font, size) for word in text.split()) > width), text
                    continue
                lines = fitted.split("\n")
                assert lines == _paragraph_lines(text, font, size, width), (text, font, size, width)
                checked += 1
                wrapped += len(lines) > 1
    assert checked > 1000 and wrapped > 300  # many texts did wrap, some split long words


def test_plain_paragraphs_lay_out_and_split_as_paragraphs(texts):
    styles = Styles()
    long_texts = [t for t in texts if len(t) > 150][:12]
    assert long_texts
    centred = ParagraphStyle("c", parent=styles.caption, alignment=TA_CENTER)
    for style in (styles.small, styles.body, styles.verdict, centred):
        for text in long_texts:
            width = 200.0
            ours, theirs = _Text(text, style), Paragraph(escape(text), style)
            assert ours.wrap(width, 1e9) == theirs.wrap(width, 1e9)
            lines = int(ours.height / style.leading)
            for room in (0.5, 1.5, 2.5, lines - 0.5, lines + 0.5):
                height = room * style.leading
                ours_split = _Text(text, style).split(width, height)
                theirs_split = Paragraph(escape(text), style).split(width, height)
                assert len(ours_split) == len(theirs_split), (text, room)
                for a, b in zip(ours_split, theirs_split):
                    assert a.wrap(width, 1e9)[1] == pytest.approx(b.wrap(width, 1e9)[1]), (text, room)


def _forms(reader: PdfReader) -> dict[str, int]:
    """Form XObject name -> how many times the pages show it (``Do`` operators in their content)."""
    shown: dict[str, int] = {}
    for page in reader.pages:
        xobjects = page["/Resources"].get("/XObject")
        content = page.get_contents().get_data()
        for name, ref in (xobjects.get_object().items() if xobjects else ()):
            if ref.get_object().get("/Subtype") == "/Form":
                shown[name] = shown.get(name, 0) + content.count(name.encode() + b" Do")
    return shown


def test_equal_charts_are_drawn_once_and_shown_on_every_page():
    project = large_project(12, 3)  # three alike HA pairs, one alike workload on each
    reader = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = "\n".join(page.extract_text() for page in reader.pages)
    forms = _forms(reader)
    # one waterfall for both systems, one latency chart for the three workloads, each shown where it belongs
    assert sorted(forms.values()) == [3, 3]
    assert text.count("predicted latency") == 3
    assert text.count(f"target {fmt_iops(50_000.0)} @") == 3

    workloads = [w.model_copy(update={"target_iops": 40_000.0 + 1_000.0 * i})
                 for i, w in enumerate(project.scenario.workloads)]
    different = project.with_scenario(project.scenario.with_changes(workloads=workloads))
    reader = PdfReader(io.BytesIO(render_report_bytes(different, validation=[])))
    text = "\n".join(page.extract_text() for page in reader.pages)
    assert sorted(_forms(reader).values()) == [3]  # the waterfalls are still alike; each chart is drawn itself
    for w in workloads:
        assert text.count(f"target {fmt_iops(w.target_iops)} @") == 1
    assert text.count("predicted latency") == 3
