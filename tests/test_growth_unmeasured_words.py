"""Review 56 (model56, still open): no import measures growth (every import is one snapshot), so an imported
workload's 0%/yr is an assumption, not a figure. The workbook's Workloads sheet (and its CSV) gave 0.0 as its "Data
growth (% a year)" and "IOPS growth (% a year)", and the PDF's workload figures said "growing 0% a year", as if
measured or chosen. They now read "not measured (0% a year applied)"; a growth the user sets on an imported
workload, and any 0% on a workload not imported, is shown as entered."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.cli import main
from models.present.verdicts import GROWTH_NOT_MEASURED_CELL
from models.project.model import IMPORTED_ID_PREFIX, data_growth_unmeasured, growth_unmeasured
from models.project.textformat import dumps
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    """A Live Optics import (data sets and loads measured, growth not), with its first workload's data growth set
    to 12%/yr and a hand-entered copy of it (not imported) at 0%/yr."""
    folder = tmp_path_factory.mktemp("growth")
    path = folder / "env.storplan"
    assert main(["import-env", str(LIVE), "-o", str(path)]) == 0
    project = load_project_file(path).project
    scenario = project.scenario
    first = scenario.workloads[0]
    assert all(w.id.startswith(IMPORTED_ID_PREFIX) and w.growth_pct_per_year == 0 == w.iops_growth_pct_per_year
               for w in scenario.workloads)  # the premise: every imported workload at the 0% the import applies
    assert growth_unmeasured(scenario.workloads)
    grown = first.with_changes(growth_pct_per_year=12.0)
    hand = first.with_changes(id="hand-entered", name="Hand entered")
    project = project.with_scenario(scenario.with_changes(workloads=[grown, hand, *scenario.workloads[1:]]))
    edited = folder / "edited.toml"
    edited.write_text(dumps(project))
    return folder, edited, project


def test_the_workloads_sheet_and_its_csv_say_the_growth_is_not_measured(imported) -> None:
    folder, path, project = imported
    assert main(["export-xlsx", str(path), "-o", str(folder / "w.xlsx")]) == 0
    rows = [list(r) for r in load_workbook(folder / "w.xlsx", read_only=True)["Workloads"].iter_rows(values_only=True)]
    data, iops = rows[0].index("Data growth (% a year)"), rows[0].index("IOPS growth (% a year)")
    by_name = {r[0]: (r[data], r[iops]) for r in rows[1:]}
    workloads = project.scenario.workloads
    assert len(by_name) == len(workloads) >= 3
    assert by_name[workloads[0].name] == (12.0, GROWTH_NOT_MEASURED_CELL)  # set by the user; IOPS growth not
    assert by_name["Hand entered"] == (0.0, 0.0)  # not imported: its 0% is as entered
    for w in workloads[2:]:
        assert by_name[w.name] == (GROWTH_NOT_MEASURED_CELL, GROWTH_NOT_MEASURED_CELL)
    assert GROWTH_NOT_MEASURED_CELL == "not measured (0% a year applied)"
    assert main(["export-csv", str(path), "-o", str(folder / "csv")]) == 0
    with open(folder / "csv" / "workloads.csv", newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    cells = {r[0]: r[table[0].index("Data growth (% a year)")] for r in table[1:]}
    assert float(cells[workloads[0].name]) == 12.0 and float(cells["Hand entered"]) == 0.0
    assert all(cells[w.name] == GROWTH_NOT_MEASURED_CELL for w in workloads[2:])


def test_the_pdf_workload_figures_say_the_growth_is_not_measured(imported) -> None:
    folder, path, project = imported
    assert main(["report", str(path), "-o", str(folder / "w.pdf")]) == 0
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(folder / "w.pdf").pages)
    workloads = project.scenario.workloads
    unmeasured = [w for w in workloads if data_growth_unmeasured(w)]
    assert text.count(f"growth {GROWTH_NOT_MEASURED_CELL}") == len(unmeasured) == len(workloads) - 2
    assert text.count("growing 12% a year") == 1  # the user's growth
    assert text.count("growing 0% a year") == 1  # the hand-entered workload's 0%, as entered
