"""A capacity table's numbered notes never open a page alone (STOP41 "Left", REVIEW42 item 18): when they do not
fit under the table at a page's foot, the table's last rows (its header repeated) go to the next page with them.

Before this, the AFF A70 + NS224 and vSAN RAID 5 reports opened page 5 with "[1] ..." and no row of the table
that cites it. Read with pypdf: no page's text starts with a note, and the page with the capacity table's notes
also holds its last rows.
"""

from __future__ import annotations

import io
import re

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.project import load
from models.resources import examples_dir

NOTE_FIRST = re.compile(r"\s*\[\d+\] ")


@pytest.mark.parametrize(("example", "last_rows"), [
    ("aff-a70-ns224-oracle-nvmetcp", ("Usable", "Effective")),
    ("vsan-sqlserver-raid5", ("Usable", "Effective")),
])
def test_the_capacity_notes_stay_with_the_tables_last_rows(example, last_rows):
    pdf = PdfReader(io.BytesIO(render_report_bytes(load(examples_dir() / f"{example}.toml"), validation=[])))
    pages = [page.extract_text() for page in pdf.pages]
    opened = [n + 1 for n, text in enumerate(pages) if NOTE_FIRST.match(text)]
    assert not opened, f"pages {opened} open with a note"
    step_table = "Step Before After How Source"  # the capacity table's header (repeated on each page)
    with_notes = next(text for text in pages if step_table in text and "\n[1] " in text.split(step_table)[1])
    start = with_notes.index(step_table)
    table = with_notes[start:with_notes.index("\n[1] ", start)]
    for row in last_rows:
        assert re.search(rf"^{row} \d", table, re.M), (row, table[-300:])
