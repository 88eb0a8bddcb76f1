"""What a user reads about a refused value or an unknown workbook (issue 31): numbers written out with thousands
separators (never 1e+12 or a 31-digit integer), ceilings in words, tools by their names (never an internal code)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from models.importers.inventory import InventoryError
from models.importers.liveoptics import read_liveoptics
from models.importers.registry import detect
from models.importers.rvtools import read_rvtools

SAMPLES = next(p / "shared" / "samples" for p in Path(__file__).resolve().parents
               if (p / "shared" / "samples").is_dir())
SMALL = SAMPLES / "rvtools" / "rvtools-small-complete.xlsx"
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"


def _set(path: Path, out: Path, sheet: str, column: str, values: dict[int, object]) -> Path:
    book = openpyxl.load_workbook(path)
    ws = book[sheet]
    k = [c.value for c in ws[1]].index(column) + 1
    for row, value in values.items():
        ws.cell(row=row, column=k, value=value)
    book.save(out)
    return out


def test_refused_values_are_written_out_with_their_ceiling_in_words(tmp_path) -> None:
    path = _set(SMALL, tmp_path / "big.xlsx", "vInfo", "Provisioned MiB", {2: 1e30, 3: 2.5e12, 4: -5})
    messages = {f.row: f.message for f in read_rvtools(path).flags}
    assert messages == {2: "1.000e+30 is above 1 EB: left out", 3: "2,500,000,000,000 is above 1 EB: left out",
                        4: "-5 is negative: left out"}
    path = _set(LIVE, tmp_path / "lo.xlsx", "VM Performance", "Peak Read IOPS", {2: 1e12, 3: 12345.5e9})
    messages = {f.row: f.message for f in read_liveoptics(path).flags if f.column == "Peak Read IOPS"}
    assert messages == {2: "1,000,000,000,000 is above 1,000,000,000 IOPS: left out",
                        3: "12,345,500,000,000 is above 1,000,000,000 IOPS: left out"}


def test_a_workbook_of_no_known_source_names_the_tools(tmp_path) -> None:
    book = openpyxl.load_workbook(SMALL)
    book["vInfo"].title = "VM info"
    book.save(tmp_path / "renamed.xlsx")
    with pytest.raises(InventoryError) as err:
        detect(tmp_path / "renamed.xlsx")
    assert str(err.value) == ("renamed.xlsx: a workbook of no known source (looked for the sheets Azure Migrate: "
                              "All_VM_IaaS_Server_Rehost_Perf; Live Optics: VMs, VM Performance; RVTools: vInfo)")
