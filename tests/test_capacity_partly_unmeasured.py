"""An import of a Live Optics export with ONTAP keyperf polls: the Live Optics machines give a capacity, the ONTAP
volumes none (performance counters only). The capacity judged then counts the machines' data only, and the PDF's
Summary, the workbook's Summary sheet and the Capacity tab's verdicts say so with one caution naming the
workloads whose capacity is not measured (before: "meets every stated requirement" with no word of them). An
import whose capacity is known for every workload gets no such caution."""

from __future__ import annotations

from pathlib import Path

import pytest
from openpyxl import load_workbook
from pypdf import PdfReader

from app.cli import main
from models.present.verdicts import CAUTION, partly_unmeasured_caution
from models.project.model import IMPORTED_ID_PREFIX, capacity_partly_unmeasured, capacity_unmeasured
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KEYPERF = [SAMPLES / "ontap" / f"harvest-keyperf-volume-poll-{n}.json" for n in (1, 2)]


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    folder = tmp_path_factory.mktemp("partly")
    path = folder / "env.storplan"
    assert main(["import-env", str(LIVE), *map(str, KEYPERF), "-o", str(path)]) == 0
    return folder, path, load_project_file(path).project


def test_the_workloads_without_capacity_are_found(mixed) -> None:
    _, _, project = mixed
    workloads = project.scenario.workloads
    without = [w for w in workloads if w.enabled and w.dataset_bytes == 0]
    assert without and any(w.dataset_bytes for w in workloads)  # the premise: some measured, some not
    assert not capacity_unmeasured(workloads)
    found = capacity_partly_unmeasured(workloads)
    assert [w.id for w in found] == [w.id for w in without] and all(w.id.startswith(IMPORTED_ID_PREFIX)
                                                                      for w in found)
    # the import states the measured workloads' total as the effective capacity needed: the caution stays (the
    # rule reads no stated capacity)
    assert project.requirements.effective_capacity_bytes == sum(w.dataset_bytes for w in workloads)
    live_only = [w for w in workloads if w.dataset_bytes]
    assert capacity_partly_unmeasured(live_only) == []
    caution = partly_unmeasured_caution(found)
    assert caution is not None and caution.kind == CAUTION and caution.area == "capacity"
    assert caution.text.startswith(f"capacity of {len(found)} imported workload")


def test_the_pdf_summary_and_the_workbook_say_so(mixed) -> None:
    folder, path, project = mixed
    caution = partly_unmeasured_caution(capacity_partly_unmeasured(project.scenario.workloads))
    assert caution is not None
    assert main(["report", str(path), "-o", str(folder / "r.pdf")]) == 0
    pages = [" ".join(page.extract_text().split()) for page in PdfReader(folder / "r.pdf").pages]
    summary = next(text for text in pages if "Summary" in text and "Requirements" in text)
    assert " ".join(caution.text.split())[:80] in summary
    assert main(["export-xlsx", str(path), "-o", str(folder / "r.xlsx")]) == 0
    rows = [list(r) for r in load_workbook(folder / "r.xlsx", read_only=True)["Summary"].iter_rows(values_only=True)]
    assert ["Caution", caution.text] in [r[:2] for r in rows]


def _sheet_rows(path, name="Workloads"):
    return [list(r) for r in load_workbook(path, read_only=True)[name].iter_rows(values_only=True)]


def test_the_workloads_sheet_and_its_csv_say_not_measured_for_an_unmeasured_data_set(mixed) -> None:
    """Review 56 item 3: the Workloads sheet (XLSX and CSV) gave 0 as the data set of the imported ONTAP volumes,
    whose files measure no capacity; it reads "not measured", as the PDF's Capacity section and the Capacity tab.
    The Live Optics machines' data sets stay numbers: their bytes in TiB (2^40), as the sheet's header says."""
    import csv

    folder, path, project = mixed
    assert main(["export-xlsx", str(path), "-o", str(folder / "w.xlsx")]) == 0
    rows = _sheet_rows(folder / "w.xlsx")
    column = rows[0].index("Data set (TiB)")
    by_name = {r[0]: r[column] for r in rows[1:]}
    unmeasured = {w.name for w in capacity_partly_unmeasured(project.scenario.workloads)}
    assert unmeasured and len(by_name) == len(project.scenario.workloads)
    for w in project.scenario.workloads:
        if w.name in unmeasured:
            assert by_name[w.name] == "not measured"
        else:
            assert w.dataset_bytes > 0 and by_name[w.name] == pytest.approx(w.dataset_bytes / 2**40, abs=5e-5)
    assert main(["export-csv", str(path), "-o", str(folder / "csv")]) == 0
    with open(folder / "csv" / "workloads.csv", newline="", encoding="utf-8") as handle:
        table = list(csv.reader(handle))
    cells = {r[0]: r[table[0].index("Data set (TiB)")] for r in table[1:]}
    assert all((cells[n] == "not measured") == (n in unmeasured) for n in cells)
    assert all(float(cells[n]) > 0 for n in cells if n not in unmeasured)
    # the PDF's figures of that workload say the same (they read "0.00 TiB, growing 0% a year")
    assert main(["report", str(path), "-o", str(folder / "w.pdf")]) == 0
    text = " ".join(" ".join(page.extract_text().split()) for page in PdfReader(folder / "w.pdf").pages)
    assert "Data set not measured" in text and "Data set 0.00 TiB" not in text


def test_an_import_that_measures_no_capacity_lists_every_data_set_as_not_measured(tmp_path) -> None:
    """ONTAP counters alone (``nothing_measured``'s case, ``capacity_unmeasured``): no workload's data set is a
    measurement."""
    path = tmp_path / "ontap.storplan"
    assert main(["import-env", *map(str, KEYPERF), "-o", str(path)]) == 0
    project = load_project_file(path).project
    assert capacity_unmeasured(project.scenario.workloads)
    assert main(["export-xlsx", str(path), "-o", str(tmp_path / "o.xlsx")]) == 0
    rows = _sheet_rows(tmp_path / "o.xlsx")
    column = rows[0].index("Data set (TiB)")
    assert len(rows) == 1 + len(project.scenario.workloads)
    assert [r[column] for r in rows[1:]] == ["not measured"] * len(project.scenario.workloads)
