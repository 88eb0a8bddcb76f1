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
