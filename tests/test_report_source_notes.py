"""A source is cited once per table (issue 27: the 1,000 x 200 report cited one data-reduction source in each of
200 workload rows, 600 link annotations of its 2,752).

The data-reduction band table and each system's capacity step table refer to their sources by a marker (``[n]``)
and list each source once under the table; every web address a source holds stays a clickable link. The checks
read the rendered PDF (pypdf: its text and its link annotations) against the evaluation's own sources.
"""

from __future__ import annotations

import io
import re
from bisect import bisect_right

import pytest
from pypdf import PdfReader
from scale_project import large_project

from app.report import render_report_bytes
from app.report.source_notes import SourceNotes
from models.evaluate import evaluate
from models.present.citations import customer_citation

PURE_TITLE = "Introducing the Dedupe Ticker"
PURE = "https://blog.purestorage.com/perspectives/introducing-the-dedupe-ticker-a-call-for-data-reduction-transparency/"
ADDRESS = re.compile(r"https?://[^\s<>\"()']+|(?<![\w@/.:-])(?:[a-z0-9-]+\.)+(?:com|org|net|io)/[^\s<>\"()']*")


def _squash(text: str) -> str:
    return " ".join(text.split())


def _bare(text: str) -> str:
    """``text`` without white space: the PDF's text breaks an address across lines where no space was."""
    return "".join(text.split())


@pytest.fixture(scope="module")
def rendered():
    """A design of 3 systems (12 nodes) with 12 alike OLTP workloads, its evaluation and its report's pages'
    text and link annotations ({address: count}, the whole report's and each page's)."""
    project = large_project(12, 12)
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    reader = PdfReader(io.BytesIO(data))
    pages = [_squash(page.extract_text() or "") for page in reader.pages]
    links: dict[str, int] = {}
    page_links: list[dict[str, int]] = []
    for page in reader.pages:
        on_page: dict[str, int] = {}
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action is not None and action.get("/URI"):
                links[str(action["/URI"])] = links.get(str(action["/URI"]), 0) + 1
                on_page[str(action["/URI"])] = on_page.get(str(action["/URI"]), 0) + 1
        page_links.append(on_page)
    return project, evaluation, pages, links, page_links


def test_markers_number_sources_in_first_use_order_and_list_each_once():
    notes = SourceNotes()
    assert [notes.marker(s) for s in ("b", "a", "b", "", "a ", "c")] == ["[1]", "[2]", "[1]", "", "[2]", "[3]"]
    assert notes.notes() == ["[1] b", "[2] a", "[3] c"]
    assert len(notes) == 3
    assert SourceNotes().flowables("Helvetica", 6.6, 8.2, None) == []


def test_the_band_tables_repeated_source_is_printed_once_and_every_row_refers_to_it(rendered):
    _project, evaluation, pages, links, _page_links = rendered
    band = evaluation.capacity_band
    assert len(band.workloads) == 12
    assert {w.distribution.source for w in band.workloads} == {band.workloads[0].distribution.source}
    assert PURE in band.workloads[0].distribution.source
    text = " ".join(pages)
    start = text.index("Data-reduction band")
    section = text[start:text.index("Each workload's own data-reduction ratio", start)]
    assert section.count(PURE_TITLE) == 1  # was once per workload row
    assert section.count("Source: [1].") == 12
    assert "[2]" not in section
    assert _bare(f"[1] {band.workloads[0].distribution.source}") in _bare(section)
    assert text.count(PURE_TITLE) == 1  # no other table cites it
    assert 1 <= links.get(PURE, 0) <= 3  # one link, one annotation per line the address spans: not 12 rows' worth


def test_each_step_tables_sources_are_listed_once_under_it_with_every_address_a_link(rendered):
    _project, evaluation, pages, links, page_links = rendered
    systems = evaluation.capacity.systems
    assert len(systems) == 3
    text = " ".join(pages)
    offsets = [0]  # where each page's text starts in ``text``
    for page in pages:
        offsets.append(offsets[-1] + len(page) + 1)
    table_pages: set[int] = set()
    for system in systems:
        sources = [customer_citation(str(step.source)) for step in system.steps if str(step.source).strip()]
        distinct = list(dict.fromkeys(s.strip() for s in sources))
        assert len(distinct) < len(sources)  # the compression, compaction and deduplication steps share one
        start = text.index(f"{system.system_label} ({system.family})")
        end = text.index("Data reduction (inline)", start)
        block = text[start:end]
        table_pages.update(range(bisect_right(offsets, start) - 1, bisect_right(offsets, end)))
        for n, source in enumerate(distinct, start=1):
            assert _bare(block).count(_bare(source)) == 1, source[:60]
            assert _bare(f"[{n}] {source}") in _bare(block)
        assert f"[{len(distinct) + 1}]" not in block
    notes = [source for s in systems  # each table's distinct notes
             for source in dict.fromkeys(customer_citation(str(step.source)).strip() for step in s.steps)]
    cited = {m.group(0).rstrip(".,;:") for note in notes for m in ADDRESS.finditer(note)}
    assert len(cited) >= 3
    for address in cited:
        href = address if "://" in address else "https://" + address
        # a link where each table's note holds the address, once per note (one annotation per line the address
        # spans, at most 2): one document may back several notes (TR-3838: a drive's marketed size, its right-size
        # and its RAID group sizes), but no note is repeated per step or row
        in_notes = sum(note.count(address) for note in notes)
        on_tables = sum(page_links[i].get(href, 0) for i in table_pages)
        assert in_notes <= on_tables <= 2 * in_notes, address
        assert links.get(href, 0) >= on_tables


def test_the_notes_block_splits_between_notes_across_pages():
    from app.report.fonts import REGULAR, register_fonts

    register_fonts()
    notes = SourceNotes()
    for i in range(6):
        notes.marker(f"source {i}, https://example.org/{i}")
    spacer, block = notes.flowables(REGULAR, 6.6, 8.2, None)
    _, height = block.wrap(300, 1000)
    assert height == pytest.approx(6 * 8.2)  # one line per note
    first, rest = block.split(300, 3.5 * 8.2)
    assert [n.text for n in first.notes] == notes.notes()[:3] and [n.text for n in rest.notes] == notes.notes()[3:]
    assert block.split(300, 5.0) == [] and block.split(300, 1000) == [block]
