"""Review 57 (revimp57) items 6 and 10 (and 2, 5 below) in the real File > Import Environment wizard and the
Workloads panel, driven with qtbot on the real samples; expected figures from the files with openpyxl.

6. An Azure Migrate report gives no used capacity: the grouping table's Used column says "not given" (the
   Provisioned column holds the disks' sizes), not the provisioned size under "Used".
10. One statperf poll: the LUN groups have neither a load nor a capacity: the row says so, not "capacity only"."""

from __future__ import annotations

from pathlib import Path

import openpyxl

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
LUNS = SAMPLES / "ontap" / "harvest-statperf-lun_data.txt"
GIB, MIB = 2**30, 2**20


def _sheet(path: Path, name: str) -> list[dict]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        rows = list(book[name].iter_rows(values_only=True))
    finally:
        book.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] is not None]


def _cells(table, row: int) -> list[str]:
    return [table.item(row, c).text() for c in range(table.columnCount())]


def test_azure_used_column_says_not_given(window, qtbot, wizard_at_grouping) -> None:
    machines = _sheet(AZURE, "All_VM_IaaS_Server_Rehost_Perf")
    per_env: dict[str, float] = {}
    for m in machines:
        per_env[m["Environment"]] = per_env.get(m["Environment"], 0.0) + m["Storage (in GB)"]
    wizard = wizard_at_grouping(window, [AZURE])
    page = wizard.grouping_page
    page.keep_names.setChecked(True)
    assert wizard.runner.wait(60)
    headers = [page.table.horizontalHeaderItem(c).text() for c in range(page.table.columnCount())]
    used, prov = headers.index("Used"), headers.index("Provisioned")
    rows = {_cells(page.table, r)[0]: _cells(page.table, r) for r in range(page.table.rowCount())}
    assert len(rows) == len(per_env) == 2
    for env, gib in per_env.items():
        row = next(v for k, v in rows.items() if f"Environment={env}" in k)
        assert row[used] == "not given"
        assert row[prov] == wizard.capacity(round(gib * GIB))


def test_one_statperf_poll_rows_say_no_load_and_no_capacity(window, qtbot, wizard_at_grouping) -> None:
    wizard = wizard_at_grouping(window, [LUNS])
    table = wizard.grouping_page.table
    assert table.rowCount() >= 1
    for r in range(table.rowCount()):
        cells = _cells(table, r)
        assert cells[2] == "no performance data and no capacity", cells
        assert "capacity is counted" not in (table.item(r, 2).toolTip() or "")
