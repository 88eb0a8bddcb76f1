"""A sheet of machines longer than a file may list is refused from its extent (xlsx) or its line count (CSV) before
its rows are read (issue 31: 10^6 rows within bounded time and memory); the caps are lowered here so that the real
samples trip them, and the counts in the messages are recomputed from the files."""

from __future__ import annotations

import csv
import re
from pathlib import Path

import pytest
import python_calamine

from models.importers import azure_migrate, liveoptics, rvtools
from models.importers.inventory import InventoryError
from models.importers.workbook import MAX_MACHINES

SAMPLES = next(p / "shared" / "samples" for p in Path(__file__).resolve().parents
               if (p / "shared" / "samples").is_dir())
CASES = [(rvtools, rvtools.read_rvtools, SAMPLES / "rvtools" / "kubev2v-example1.xlsx", "vInfo"),
         (liveoptics, liveoptics.read_liveoptics, SAMPLES / "liveoptics" / "LiveOptics_file.xlsx", "VMs"),
         (azure_migrate, azure_migrate.read_azure_migrate,
          SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx", "All_VM_IaaS_Server_Rehost_Perf")]


def _last_row_with_a_value(path: Path, sheet: str) -> int:
    """The sheet's last row holding a value, by python-calamine (openpyxl walks the kubev2v vInfo's declared
    dimension, A1:CL1048576, row by row)."""
    grid = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name(sheet)
    top = (grid.start or (0, 0))[0]
    rows = grid.to_python(skip_empty_area=False)
    return top + max(i + 1 for i, row in enumerate(rows) if any(v not in (None, "") for v in row))


@pytest.mark.parametrize(("module", "read", "path", "sheet"), CASES, ids=["rvtools", "liveoptics", "azure"])
def test_a_machine_sheet_longer_than_the_cap_is_refused_before_it_is_read(monkeypatch, module, read, path,
                                                                          sheet) -> None:
    rows = _last_row_with_a_value(path, sheet)
    monkeypatch.setattr(module, "MACHINE_SHEET_ROWS", rows - 1)
    with pytest.raises(InventoryError) as err:
        read(path)
    match = re.fullmatch(rf"{re.escape(path.name)}: sheet '{sheet}' spans ([\d,]+) rows, more than the "
                         rf"{MAX_MACHINES:,} machines a file may list: refused", str(err.value))
    assert match, str(err.value)
    assert int(match.group(1).replace(",", "")) >= rows  # the extent reaches at least the last row with a value
    monkeypatch.setattr(module, "MACHINE_SHEET_ROWS", int(match.group(1).replace(",", "")))
    assert read(path).machines  # at the cap: read


def test_an_rvtools_csv_export_longer_than_the_cap_is_refused_by_its_lines(tmp_path, monkeypatch) -> None:
    path = tmp_path / "tabvInfo.csv"
    with path.open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["vInfoVMName", "vInfoProvisioned", "vInfoInUse", "vInfoCluster"])
        for i in range(40):
            w.writerow([f"vm-{i}", 2048, 1024, f"c{i % 3}"])
    lines = path.read_text().count("\n")
    monkeypatch.setattr(rvtools, "MACHINE_SHEET_ROWS", lines - 1)
    with pytest.raises(InventoryError, match=rf"^tabvInfo.csv: {lines:,} lines, more than the {MAX_MACHINES:,} "
                                             "machines a file may list: refused$"):
        rvtools.read_rvtools(path)
    monkeypatch.setattr(rvtools, "MACHINE_SHEET_ROWS", lines)
    inv = rvtools.read_rvtools(path)
    assert len(inv.machines) == 40 and sum(m.used_bytes for m in inv.machines) == 40 * 1024 * 2**20
