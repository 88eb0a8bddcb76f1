"""The capacity engine's formulas, layout lines and assumptions follow the project's capacity unit (STOP41 "Left",
REVIEW42 item 6): in a TB project the capacity table's "How" column reads "24 x 3.84 TB", not "24 x 3.49 TiB" beside
"92.15 TB", and the workbook's waterfall formulas likewise.

Expectations are computed here from the catalog's bytes and the evaluation (10^12 bytes per TB, 2^40 per TiB), and
read from the PDF's text (pypdf) and the workbook (openpyxl), not from the converter under test.
"""

from __future__ import annotations

import io
import re

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.report import render_report_bytes
from app.report.workbook import sizing_sheets, write_xlsx
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.present.capacity_text import text_in_unit
from models.project import load
from models.project.edits import set_setting
from models.resources import examples_dir

EXAMPLE = "aff-a70-ns224-oracle-nvmetcp"  # 24 x 3.84 TB NVMe on an AFF A70, RAID DP: one ONTAP system
BINARY_FIGURE = re.compile(r"\d\.\d+ (TiB|GiB)\b")


def _project(unit: str):
    return set_setting(load(examples_dir() / f"{EXAMPLE}.toml"), "capacity_unit", unit)


def _capacity_text(project) -> str:
    """The PDF's capacity section of the one system: from its step table to the next section."""
    pdf = PdfReader(io.BytesIO(render_report_bytes(project, validation=[])))
    text = "\n".join(page.extract_text() for page in pdf.pages)
    start = text.index("Step Before After How Source")
    return text[start:text.index("\nPerformance\n", start)]


def _right_sized_bytes(project) -> float:
    drive_id = next(n.drive for n in project.scenario.nodes if getattr(n, "drive", None))
    return float(bundled_catalog().get(drive_id).right_sized_bytes)


def test_a_tb_report_shows_the_capacity_formulas_and_layout_in_tb():
    project = _project("TB")
    text = _capacity_text(project)
    rs_tb = _right_sized_bytes(project) / 10**12
    system = evaluate(project).capacity.systems[0]
    # the drive's size at the report's precision; marked "~" when its product does not read as the After beside
    # it (24 x 3.84 = 92.16, the After 92.15): one precision for one figure, never extra digits to make it match
    operand = re.search(r"Right-sized 92.16 TB 92.15 TB 24 x (~?)(\d\.\d+) TB", text.replace("\n", " "))
    assert operand and operand.group(2) == f"{rs_tb:.2f}"
    assert (operand.group(1) == "~") == (f"{24 * float(operand.group(2)):.2f}" != "92.15")
    assert f"drives of {rs_tb:.2f} TB" in text  # the layout line
    # the assumption repeats the usable capacity of the table above it, to the last digit
    assert f"Effective = usable x data-reduction ratio = {system.usable_bytes / 10**12:.2f} TB" in text
    assert f"Usable {system.usable_bytes / 10**12:.2f} TB" in text
    table_and_notes = text[:text.index("[1] ")] + text[text.index("Layout"):]
    assert not BINARY_FIGURE.search(table_and_notes), BINARY_FIGURE.search(table_and_notes)


def test_a_tib_report_keeps_the_engines_binary_figures():
    project = _project("TiB")
    text = _capacity_text(project)
    rs_tib = _right_sized_bytes(project) / 2**40
    operand = re.search(r"24 x (~?)(\d\.\d+) TiB", text)  # the drive at the report's precision, "~" if rounded
    assert operand and operand.group(2) == f"{rs_tib:.2f}"
    right_sized = evaluate(project).capacity.systems[0].steps[1]
    assert right_sized.name == "Right-sized"
    matches = f"{24 * float(operand.group(2)):.2f}" == f"{right_sized.bytes_after / 2**40:.2f}"
    assert (operand.group(1) == "~") == (not matches)
    assert abs(24 * float(operand.group(2)) - right_sized.bytes_after / 2**40) <= 24 * 0.005
    assert " TB\n" not in text[:text.index("[1] ")]


def test_a_tb_workbook_has_its_waterfall_formulas_in_tb(tmp_path):
    project = _project("TB")
    write_xlsx(sizing_sheets(project), tmp_path / "tb.xlsx")
    sheet = load_workbook(tmp_path / "tb.xlsx")["Capacity waterfall"]
    rows = list(sheet.iter_rows(values_only=True))
    formula_at = rows[0].index("Formula")
    formulas = {r[0]: r[formula_at] or "" for r in rows[1:]}
    rs_tb = _right_sized_bytes(project) / 10**12
    assert formulas["Right-sized"] == f"24 x {rs_tb:.2f} TB"
    assert not any(BINARY_FIGURE.search(f) for f in formulas.values()), formulas


@pytest.mark.parametrize(("text", "unit", "exact", "expected"), [
    ("24 x 3.49 TiB", "TB", (), "24 x 3.84 TB"),  # 3.49 x 2^40 / 10^12 = 3.8373
    ("4 parity partitions x 689.96 GiB", "TB", (), "4 parity partitions x 740.84 GB"),  # x 2^30 / 10^9
    ("usable 59.71 TiB", "TB", (65.656e12,), "usable 65.66 TB"),  # the exact value, not 59.71 x 2^40 = 65.651e12
    ("Premium_LRS, 1,024 GiB; aggregate >= 30 TiB", "TB", (), "Premium_LRS, 1,024 GiB; aggregate >= 30 TiB"),
    ("24 x 3.49 TiB", "TiB", (), "24 x 3.49 TiB"),
    ("1,234.50 TiB", "TB", (), "1,357.35 TB"),  # 1234.5 x 1.0995116 = 1357.347
])
def test_binary_figures_convert_with_their_own_decimals(text, unit, exact, expected):
    assert text_in_unit(text, unit, exact) == expected
