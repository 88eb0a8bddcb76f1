"""Sources a customer can follow, and headings that stay with their content (review 40, items 12 and 15).

Web addresses in the PDF are links (``app.report.links``) broken across lines only after a ``/`` (or a ``.`` /
``-`` inside a part too long for a line); a heading never ends a page without the start of what it heads.
"""

from __future__ import annotations

import io
import re
from html import unescape

from pypdf import PdfReader
from reportlab.pdfbase.pdfmetrics import stringWidth
from reportlab.platypus import Flowable, Frame, PageTemplate, Paragraph, Spacer

from app.report import render_report_bytes
from app.report.document import Styles, _Doc, _table
from app.report.fonts import REGULAR, register_fonts
from app.report.links import linked, linked_lines
from app.report.sources import catalog_numbers
from models.design import resolve
from models.project import load
from models.resources import examples_dir

HEISE = ("https://www.heise.de/newsticker/meldung/Kioxia-bringt-PCIe-4-0-SSDs-mit-bis-zu-30-72-TByte-"
         "Speicherplatz-4666097.html")
ONTAP = "https://docs.netapp.com/us-en/ontap/disks-aggregates/determine-space-usage-volume-aggregate-concept.html"


def _visible(markup: str) -> str:
    return unescape(re.sub(r"<[^<>]*>", "", markup))


def test_an_address_breaks_only_after_a_slash_dot_or_hyphen_and_every_part_links_the_whole():
    register_fonts()
    text = (f"Kioxia CD6: 1 million random-read IOPS, heise online, 2020-02, {HEISE}; ONTAP documentation "
            f"({ONTAP}), 'WAFL reserves 10%'")
    width, size = 120.0, 6.6
    lines = linked_lines(text, width, size).split("<br/>")
    assert len(lines) > 5
    visible = [_visible(line) for line in lines]
    whole = unescape(text)
    spans = [(m.start(), m.start() + len(a)) for a in (HEISE, ONTAP) for m in re.finditer(re.escape(a), whole)]
    pos, inside = 0, 0
    for line in visible:
        assert stringWidth(line, REGULAR, size) <= width
        if whole.startswith(" ", pos) and not whole.startswith(line, pos):
            pos += 1  # the line broke at this space
        assert whole.startswith(line, pos), (line, whole[pos:pos + 40])  # nothing lost or added
        pos += len(line)
        if any(a < pos < b for a, b in spans):
            inside += 1
            assert whole[pos - 1] in "/.-", line
    assert pos == len(whole)
    assert inside >= 4  # both addresses are broken, each only between its parts
    hrefs = set(re.findall(r'<a href="([^"]*)"', "".join(lines)))
    assert hrefs == {HEISE, ONTAP}


def test_a_bare_host_address_links_over_https_and_sentence_punctuation_stays_outside():
    markup = linked("see docs.netapp.com/us-en/ontap/volumes/x.html, and (https://example.org/a/b).")
    assert re.findall(r'href="([^"]*)"', markup) == ["https://docs.netapp.com/us-en/ontap/volumes/x.html",
                                                     "https://example.org/a/b"]
    assert _visible(markup) == "see docs.netapp.com/us-en/ontap/volumes/x.html, and (https://example.org/a/b)."
    assert linked("version 9.14.1 and 4/8 KiB") == "version 9.14.1 and 4/8 KiB"


def _uris(data: bytes) -> set[str]:
    reader = PdfReader(io.BytesIO(data))
    found = set()
    for page in reader.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action is not None and action.get("/URI"):
                found.add(str(action["/URI"]))
    return found


def test_every_address_the_sources_print_is_a_link_in_the_pdf():
    path = examples_dir() / "aff-a90-oracle-nvmefc64.toml"
    project = load(path)
    data = render_report_bytes(project, validation=[])
    uris = _uris(data)
    design = resolve(project, project.scenario.name)
    cited = {m.group(0).rstrip(".,;:)'") for n in catalog_numbers(design.scenario, design.catalog, "TB")
             for m in re.finditer(r"https?://[^\s<>\"]+", n.source)}
    assert len(cited) >= 5
    missing = {c for c in cited if c not in uris and c.rstrip(")") not in uris}
    assert not missing, sorted(missing)[:5]
    assert "https://docs.netapp.com/us-en/ontap/disks-aggregates/sizing-raid-groups-concept.html" in uris


class _Block(Flowable):
    """An unsplittable block (a figure) of a given height."""

    def __init__(self, height: float) -> None:
        super().__init__()
        self.height = height

    def wrap(self, availWidth, availHeight):
        return availWidth, self.height

    def draw(self) -> None:
        self.canv.rect(0, 0, 10, self.height)


class _PagesDoc(_Doc):
    """The report's document template, remembering on which page each flowable was drawn."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.pages: dict[str, list[int]] = {}

    def afterFlowable(self, flowable):  # noqa: N802 (reportlab API)
        name = getattr(flowable, "name", None) or type(flowable).__name__
        self.pages.setdefault(name, []).append(self.page)


def _lay_out(story: list) -> _PagesDoc:
    register_fonts()
    doc = _PagesDoc(io.BytesIO(), pagesize=(400, 400), leftMargin=20, rightMargin=20, topMargin=20,
                    bottomMargin=20)
    doc.addPageTemplates([PageTemplate("p", [Frame(20, 20, 360, 360, id="f")])])
    doc.build(story)
    return doc


def _named(flowable, name: str):
    flowable.name = name
    return flowable


def test_a_heading_moves_to_the_next_page_with_a_figure_that_does_not_fit_below_it():
    s = Styles()
    doc = _lay_out([Spacer(1, 250), _named(Paragraph("A system", s.h2), "heading"), _named(_Block(150), "figure")])
    assert doc.pages["heading"] == doc.pages["figure"] == [2]


def test_a_heading_stays_above_a_long_table_whose_first_rows_fit_below_it():
    s = Styles()
    rows = [["Step", "Source"]] + [[f"step {i}", "a source"] for i in range(60)]
    doc = _lay_out([Spacer(1, 200), _named(Paragraph("Sources", s.h2), "heading"), _table(rows, [100, 200], s)])
    assert doc.pages["heading"] == [1]
    assert doc.pages["_Table"][0] == 1  # the table starts under its heading, then continues (split parts)
    assert len(doc.pages["_Table"]) > 1


def _headings_ending_a_page(data: bytes) -> tuple[list[tuple[int, str]], int]:
    """(page, heading) for each heading (bold text at the h1 or h2 size) with no other text below it on its page
    above the footer; and how many headings the document has."""
    s = Styles()
    sizes = {round(s.h1.fontSize, 1), round(s.h2.fontSize, 1)}
    found, count = [], 0
    for number, page in enumerate(PdfReader(io.BytesIO(data)).pages, start=1):
        items: list[tuple[float, bool, str]] = []

        def visit(text, cm, tm, font, size, items=items):
            if text.strip():
                scale = (tm[3] or 1) * (cm[3] or 1)
                bold = "Bold" in str((font or {}).get("/BaseFont", ""))
                items.append((tm[5] * (cm[3] or 1) + cm[5], bold and round(size * scale, 1) in sizes, text.strip()))

        page.extract_text(visitor_text=visit)
        footer = 45  # the page number line sits below the bottom margin
        count += sum(1 for _, heading, _ in items if heading)
        for y, heading, text in items:
            if heading and y > footer and not any(not h and footer < b < y - 2 for b, h, _ in items):
                found.append((number, text))
    return found, count


def test_no_heading_ends_a_page_of_the_reports_review_40_looked_at():
    """Review 40: the vSAN 8 ESA report's p3 ended with "vSAN 8 ESA cluster (vSAN)", its waterfall on p4; the A90
    report's "Runway" and "Notes" ended pages too."""
    for name in ("vsan8-esa-6host-sqlserver-oltp", "aff-a90-oracle-nvmefc64"):
        data = render_report_bytes(load(examples_dir() / f"{name}.toml"), validation=[])
        alone, headings = _headings_ending_a_page(data)
        assert headings > 15 and alone == [], (name, headings, alone)
