"""The XLSX and CSV exports carry an imported project's measured environment (tool, collection date, what was
measured, how the peaks were taken, what was assumed, per workload its tool) in the PDF report's words: the
workbook's "Measured environment" sheet, read back with openpyxl and the CSV file read back with csv, say cell for
cell, in the same order, what the PDF's "Measured environment" section says (text read back with pypdf), and no
cell names a file read. A project without an import gets no such sheet."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.cli import main

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KEYPERF = [SAMPLES / "ontap" / f"harvest-keyperf-volume-poll-{n}.json" for n in (1, 2)]
SHEET = "Measured environment"


def _squash(text: str) -> str:
    """Text without whitespace (a PDF table cell wraps its text over lines)."""
    return re.sub(r"\s+", "", text)


def _pdf_section(pdf: Path) -> str:
    """The report's "Measured environment" section (its page, up to the next section), whitespace removed."""
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
    start = text.index(SHEET + "\nWhat was measured")  # its heading, wherever the page breaks fall
    return _squash(text[start:].split("\nTopology\n")[0])


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> dict:
    """One import of a Live Optics workbook and ONTAP keyperf polls together, written as PDF, XLSX and CSV."""
    folder = tmp_path_factory.mktemp("measured")
    project = folder / "env.storplan"
    assert main(["import-env", str(LIVE), *map(str, KEYPERF), "-o", str(project)]) == 0
    assert main(["report", str(project), "-o", str(folder / "r.pdf")]) == 0
    assert main(["export-xlsx", str(project), "-o", str(folder / "r.xlsx")]) == 0
    assert main(["export-csv", str(project), "-o", str(folder / "csv")]) == 0
    book = load_workbook(folder / "r.xlsx", read_only=True)
    xlsx = [list(row) for row in book[SHEET].iter_rows(values_only=True)]
    with open(folder / "csv" / "measured-environment.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    return {"xlsx": xlsx, "csv": rows, "pdf": _pdf_section(folder / "r.pdf"), "sheets": book.sheetnames}


def test_the_sheet_says_what_the_pdf_section_says_in_its_order(exported) -> None:
    rows, pdf = exported["xlsx"], exported["pdf"]
    assert rows[0] == ["Import", "Item", "Text", "Measured by", "Members", "Load taken as"]
    lines = [r for r in rows[1:] if r[1] != "Workload"]
    workloads = [r for r in rows[1:] if r[1] == "Workload"]
    # review 57 #1: the Live Optics sample lists 6 of its hosts' 156 machines: a warning follows the figures
    assert [r[1] for r in lines] == ["What was measured", "Warning", "By what tool, and when",
                                     "How the load was taken", "What was assumed", "Imported"]
    # the PDF's cells in the sheet's order: each label then its text, the workload table's header, each row's cells
    cells = [c for r in lines for c in r[1:3]] + ["Workload", "Measured by", "Members", "Load taken as"]
    cells += [c for r in workloads for c in (r[2], r[3], f"{r[4]:,}", r[5])]
    at = pdf.index(_squash(SHEET))
    for cell in cells:
        found = pdf.find(_squash(str(cell)), at)
        assert found >= 0, f"not in the PDF's section after position {at}: {cell!r}"
        at = found + len(_squash(str(cell)))
    # what the record says, checked against the import itself (the samples' own facts), not against the code
    text = dict((r[1], r[2]) for r in lines)
    assert "A Live Optics (Optical Prime) export, collected 2022/11/14" in text["By what tool, and when"]
    assert "ONTAP performance counters" in text["By what tool, and when"]
    assert "measured 2024-07-29 16:14 to 16:17 UTC" in text["By what tool, and when"]
    assert "3.56 TiB allocated on the datastore" in text["What was measured"]  # review 57 #2
    assert "100% random I/O assumed" in text["What was assumed"]
    assert sorted((r[3], r[4]) for r in workloads) == [("Live Optics (Optical Prime) export", 2),
                                                       ("Live Optics (Optical Prime) export", 4),
                                                       ("ONTAP performance counters", 4)]  # 6 VMs, 4 volumes
    assert all(isinstance(r[4], int) for r in workloads)  # a count, not text


def test_the_csv_file_is_the_sheet_and_nothing_names_a_file(exported) -> None:
    as_text = [["" if v is None else str(v) for v in row] for row in exported["xlsx"]]
    assert exported["csv"] == as_text
    assert exported["sheets"][:2] == ["Summary", SHEET]  # after the summary, as in the PDF
    every = " ".join(" ".join(row) for row in as_text)
    for name in (LIVE.name, LIVE.stem, *(p.name for p in KEYPERF), "harvest", ".json", ".xlsx", str(SAMPLES)):
        assert name not in every


def test_a_project_without_an_import_has_no_measured_sheet(tmp_path) -> None:
    from app.report.workbook import sizing_sheets
    from models.resources import examples_dir
    from models.store import load_project_file

    project = load_project_file(examples_dir() / "aff8080-sqlserver-tpce.toml").project
    assert not project.measured
    assert SHEET not in sizing_sheets(project)


def test_the_summary_sheet_does_not_say_met_where_the_pdf_says_capacity_is_not_judged(tmp_path) -> None:
    """ONTAP counters give no capacity: the PDF's summary reads "Capacity not judged ..." with the capacity caution;
    the workbook's Summary sheet said "Meets the requirements: True", "The design meets every stated requirement";
    the PDF's Capacity section gave "0.00 TiB" logical and physical used."""
    project = tmp_path / "kp.storplan"
    assert main(["import-env", *map(str, KEYPERF), "-o", str(project)]) == 0
    assert main(["report", str(project), "-o", str(tmp_path / "r.pdf")]) == 0
    assert main(["export-csv", str(project), "-o", str(tmp_path / "csv")]) == 0
    with open(tmp_path / "csv" / "summary.csv", newline="", encoding="utf-8") as handle:
        rows = {row[0]: row[1] for row in csv.reader(handle)}
    pages = [page.extract_text() for page in PdfReader(tmp_path / "r.pdf").pages]
    summary = _squash(pages[1])
    capacity = next(text for text in pages if text.startswith("Capacity\n"))  # its scenario totals: no 0 bytes used
    assert "Scenario total 83.82 TiB 59.71 TiB 59.71 TiB 59.71 TiB not measured not measured" in capacity
    assert summary.startswith(_squash("Summary"))
    assert rows["Meets the requirements"] == "not judged: capacity not measured"
    assert rows["Verdict"].startswith("Capacity not judged; the measured data gives no capacity")
    assert _squash(rows["Verdict"]) in summary and "meetseverystatedrequirement" not in summary
    assert rows["Caution"].startswith("capacity not measured: the measured files give no capacity")
    assert _squash(rows["Caution"]) in summary
