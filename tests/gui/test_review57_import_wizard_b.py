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


# --- item 5: the Workloads panel after an import -------------------------------------------------------------------

def _import(window, wizard_at_grouping, files):
    wizard = wizard_at_grouping(window, files)
    wizard.grouping_page.keep_names.setChecked(True)
    assert wizard.runner.wait(60)
    wizard.next()
    wizard.finish_page.replace.setChecked(True)
    wizard.accept()
    panel = window.workloads
    panel.refresh()
    return panel


def _label(panel, field):
    return panel.form.layout_of(field).labelForField(panel.form.editors[field])


def test_the_workloads_panel_marks_measured_and_assumed_fields(window, qtbot, wizard_at_grouping) -> None:
    perf = [r for r in _sheet(LIVE, "VM Performance") if r["Cluster"] == "zColo_08"]
    mbps = sum(r["Max KB/sec"] for r in perf) / 1000  # 100.4 MB/s, the file's Max KB/sec of the cluster's machines
    panel = _import(window, wizard_at_grouping, [LIVE])
    ids = {w.name.split(" (")[0]: w.id for w in window.document.scenario.workloads}
    panel.select(ids["zColo_08"])
    iops = _label(panel, "target_iops")
    assert iops.text().startswith("\u25cf\u00a0") and iops.text().endswith(":")  # "● Target IOPS:" (GUI #8)
    assert f"sheet 'VM Performance' column 'Peak IOPS', sum of {len(perf)} rows" in iops.toolTip()
    for field in ("slo_ms", "concurrency", "random_pct"):
        assert _label(panel, field).text().startswith("\u25cb\u00a0"), field
        assert "Assumed" in _label(panel, field).toolTip()
    entry = panel.form.editors["target_mbps"].entry
    assert entry.lineEdit().text() == f"none (measured {mbps:,.1f} MB/s)" == "none (measured 100.4 MB/s)"
    # review 57 GUI #8: a measured throughput carries the measured mark, not the assumed one; a key under the form
    assert _label(panel, "target_mbps").text().startswith("\u25cf\u00a0")
    assert "Measured (imported)" in _label(panel, "target_mbps").toolTip()
    assert panel.marks_key.isVisibleTo(panel) and "\u25cf measured" in panel.marks_key.text()
    assert "\u25cb assumed" in panel.marks_key.text()
    assert panel.form.editors["block_kib"].isEnabled()


def test_a_capacity_only_import_shows_not_measured_mix(window, qtbot, wizard_at_grouping) -> None:
    rows = _sheet(KUBEV2V, "vInfo")
    assert not any("IOPS" in str(k) for k in rows[0])  # RVTools gives no I/O figure
    panel = _import(window, wizard_at_grouping, [KUBEV2V])
    workload = window.document.scenario.workloads[0]
    assert workload.capacity_only
    panel.select(workload.id)
    for field in ("block_kib", "read_pct", "random_pct"):
        editor = panel.form.editors[field]
        assert editor.entry.lineEdit().text() == "not measured" and not editor.isEnabled(), field
        assert not _label(panel, field).text().startswith(("\u25cf", "\u25cb"))
    data = _label(panel, "dataset_bytes")
    in_cluster = sum(1 for r in rows if r["Cluster"] == "Cluster")
    assert data.text().startswith("\u25cf\u00a0")
    assert f"sheet 'vInfo' column 'In Use MiB', sum of {in_cluster} rows" in data.toolTip()
