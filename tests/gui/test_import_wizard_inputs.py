"""The import wizard's two inputs beside the file list (issue 31): the ONTAP counter-table poll interval
(``import-env --interval``) and an RVTools CSV export folder (``import-env FOLDER``), driven through their widgets on
the real samples; the workloads equal what ``storplan import-env`` writes and totals computed here from the files."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from app.cli import main
from models.store import load_project_file

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
ONTAP = SAMPLES / "ontap"
TABLES = [ONTAP / "harvest-restperf-volume-counters-1.json", ONTAP / "harvest-restperf-volume-poll-1.json",
          ONTAP / "harvest-restperf-volume-poll-2.json"]
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
MIB = 2**20


def _cli(tmp_path: Path, files: list[Path], *options: str) -> list:
    out = tmp_path / "cli.storplan"
    assert main(["import-env", *map(str, files), "-o", str(out), "--keep-names", *options]) == 0
    return sorted((w.name, w.target_iops, w.dataset_bytes, w.enabled)
                  for w in load_project_file(out).project.scenario.workloads)


def _wizard_workloads(wizard) -> list:
    wizard.next()
    notes = wizard.preview_page.source_notes
    expected = [f"{inv.source}: {n}" for inv in wizard.read.inventories for n in inv.notes]
    assert notes.text().replace("ONTAP counters:", "ontap:").replace("RVTools:", "rvtools:").splitlines() == expected
    wizard.next()
    page = wizard.grouping_page
    assert wizard.currentPage() is page
    page.keep_names.setChecked(True)
    assert wizard.runner.wait(30)
    assert page.isComplete()
    return sorted((w.name, w.target_iops, w.dataset_bytes, w.enabled) for w in wizard.imported.workloads)


def _svm_iops(interval_s: float) -> dict[str, float]:
    """Read + write IOPS per SVM from the two counter-table polls' raw counters (difference / interval)."""
    polls = [json.loads(p.read_text())["records"] for p in TABLES[1:]]
    out: dict[str, float] = {}
    for a, b in zip(*polls, strict=True):
        props = {p["name"]: p["value"] for p in a["properties"]}
        ca = {c["name"]: c.get("value") for c in a["counters"]}
        cb = {c["name"]: c.get("value") for c in b["counters"]}
        ops = sum(cb[k] - ca[k] for k in ("total_read_ops", "total_write_ops"))
        out[props["svm.name"]] = out.get(props["svm.name"], 0.0) + ops / interval_s
    return out


def test_the_poll_interval_field_gives_the_counter_tables_their_rates(example_window, qtbot, tmp_path) -> None:
    window = example_window
    window.act_import_env.trigger()
    wizard = window._import_wizard
    wizard.add_files(TABLES)
    assert wizard.runner.wait(30)
    page = wizard.files_page
    assert page.interval.text() == "not given" and page.interval_s() is None
    volumes = wizard.read.inventories[0].volumes
    assert len(volumes) == 2 and not any(v.series for v in volumes)  # no clock: no rates yet
    assert any("give the interval" in n for n in wizard.read.inventories[0].notes)
    hint = page.interval_hint
    assert hint.isEnabled() and hint.text() == ("counter-table polls were read: give the seconds between them for "
                                                "their rates")
    # the user types the interval and presses Enter: the files are read again with it
    page.interval.lineEdit().selectAll()
    qtbot.keyClicks(page.interval.lineEdit(), "60")
    qtbot.keyClick(page.interval.lineEdit(), Qt.Key.Key_Return)
    assert page.interval_s() == 60.0
    assert wizard.runner.wait(30)
    volumes = wizard.read.inventories[0].volumes
    assert all(len(v.series) == 1 and v.series[0].interval_s == 60.0 for v in volumes)
    assert "counter-table polls taken in the order given, 60 s apart" in wizard.read.inventories[0].notes
    assert not hint.isEnabled() and hint.text().startswith("the seconds between two counter-table polls")
    got = _wizard_workloads(wizard)
    assert got == _cli(tmp_path, TABLES, "--interval", "60")
    expected = _svm_iops(60.0)
    measured = {g.name.split(" (")[0]: g.iops for g in wizard.imported.groups if not g.needs_preset}
    assert measured.keys() <= expected.keys() and measured
    for svm, iops in measured.items():
        assert abs(iops - expected[svm]) < 1e-9 * max(1.0, expected[svm])


def _csv_folder(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    """The kubev2v workbook's vInfo tab as RVTools' CSV export names it (a folder holding tabvInfo.csv), and the
    in-use MiB per cluster summed from the workbook (provisioned where in use is not given)."""
    sheet = openpyxl.load_workbook(KUBEV2V, read_only=True)["vInfo"]
    rows = list(sheet.iter_rows(values_only=True))
    header = [str(h).strip() if h is not None else "" for h in rows[0]]
    names = {"VM": "vInfoVMName", "Powerstate": "vInfoPowerstate", "CPUs": "vInfoCPUs", "Memory": "vInfoMemory",
             "Provisioned MiB": "vInfoProvisioned", "In Use MiB": "vInfoInUse", "Cluster": "vInfoCluster",
             "Host": "vInfoHost"}
    index = {k: header.index(k) for k in names}
    folder = tmp_path / "rvtools export"
    folder.mkdir()
    used: dict[str, int] = {}
    with (folder / "tabvInfo.csv").open("w", newline="", encoding="utf-8-sig") as f:
        writer = csv.writer(f)
        writer.writerow(names.values())
        for row in rows[1:]:
            if row[index["VM"]] is None:
                continue
            writer.writerow(["" if row[i] is None else row[i] for i in index.values()])
            cluster = str(row[index["Cluster"]] or "")
            mib = row[index["In Use MiB"]]  # a machine without it counts its provisioned capacity
            mib = row[index["Provisioned MiB"]] if mib is None else mib
            used[cluster] = used.get(cluster, 0) + int(mib or 0) * MIB
    return folder, used


def test_an_rvtools_csv_folder_is_picked_with_its_button(example_window, qtbot, tmp_path, monkeypatch) -> None:
    folder, used = _csv_folder(tmp_path)
    window = example_window
    window.act_import_env.trigger()
    wizard = window._import_wizard
    page = wizard.files_page
    monkeypatch.setattr(QFileDialog, "getExistingDirectory", lambda *a, **k: str(folder))
    qtbot.mouseClick(page.btn_folder, Qt.MouseButton.LeftButton)
    assert wizard.paths == [folder]
    assert wizard.runner.wait(30)
    entry = wizard.read.files[0]
    assert entry.kind == "rvtools" and not entry.error
    assert page.list.item(0).text() == "rvtools export: RVTools"
    assert len(wizard.read.inventories[0].machines) == sum(1 for _ in wizard.read.inventories[0].machines) == 9
    got = _wizard_workloads(wizard)
    assert got == _cli(tmp_path, [folder])
    by_name = {g.name: g.used_bytes for g in wizard.imported.groups}
    # a group of no capacity and no load makes no workload (review revimp55 item 4: kubev2v's empty nameless group)
    assert by_name == {(k or "machines without a cluster"): v for k, v in used.items() if v}
    wizard.next()
    from models.formatting import fmt_capacity

    summary = wizard.finish_page.summary.text()  # a figure and its unit never split by the wrap
    unit = wizard.document.project.settings.capacity_unit  # the project's unit, never GiB beside it (review 53 #15)
    assert f"{fmt_capacity(sum(used.values()), unit, fixed=True).replace(' ', chr(0xA0))} used." in summary
    assert "0\u00a0IOPS and" in summary


def test_a_bad_ontap_file_is_marked_and_the_collections_other_polls_are_read(tmp_path) -> None:
    from app.gui.import_wizard import read_sources

    bad = tmp_path / "broken.json"
    bad.write_text('{"records": [{"statistics": ' * 10_000)  # nested too deeply to be an ONTAP answer
    polls = [ONTAP / "harvest-keyperf-volume-poll-1.json", ONTAP / "harvest-keyperf-volume-poll-2.json"]
    read = read_sources(None, [polls[0], bad, polls[1]])
    errors = {e.path.name: e.error for e in read.files}
    assert errors == {polls[0].name: "", "broken.json": "broken.json: JSON nested too deeply to be an ONTAP answer",
                      polls[1].name: ""}
    (inventory,) = read.inventories
    first = {r["name"]: r["statistics"] for r in json.loads(polls[0].read_text())["records"]}
    second = {r["name"]: r["statistics"] for r in json.loads(polls[1].read_text())["records"]}
    for volume in inventory.volumes:  # the two good polls still give each volume its interval
        (sample,) = volume.series
        ops = second[volume.name]["iops_raw"]["read"] - first[volume.name]["iops_raw"]["read"]
        assert sample.read_iops == ops / sample.interval_s
    unnamed = read_sources(None, [ONTAP / "harvest-restperf-volume-counters-1.json"])  # schema alone: no volume
    assert unnamed.inventories == () and unnamed.files[0].error.startswith("harvest-restperf-volume-counters-1.json:")


def test_the_measured_series_of_a_selected_workload_or_the_collection_is_saved(example_window, qtbot, tmp_path,
                                                                              monkeypatch) -> None:
    from models.installed import calibration_points

    polls = [ONTAP / "harvest-keyperf-volume-poll-1.json", ONTAP / "harvest-keyperf-volume-poll-2.json"]
    window = example_window
    window.act_import_env.trigger()
    wizard = window._import_wizard
    wizard.add_files(polls)
    assert wizard.runner.wait(30)
    wizard.next()
    wizard.next()
    page = wizard.grouping_page
    page.group_by.setCurrentIndex(page.group_by.findData("aggregate"))
    page.keep_names.setChecked(True)
    assert wizard.runner.wait(30)
    assert page.btn_series.isEnabled()
    # the expected points, from the raw counters: one interval; IOPS and latency of the chosen volumes together
    first = {r["name"]: r["statistics"] for r in json.loads(polls[0].read_text())["records"]}
    second = {r["name"]: r["statistics"] for r in json.loads(polls[1].read_text())["records"]}
    aggregates = {r["name"]: ", ".join(a["name"] for a in r["aggregates"])
                  for r in json.loads(polls[0].read_text())["records"]}

    def point(names: set[str]) -> tuple[float, float]:
        ops = lat = 0.0
        for n in names:
            for d in ("read", "write"):
                k = second[n]["iops_raw"][d] - first[n]["iops_raw"][d]
                if k > 0:
                    ops += k
                    lat += second[n]["latency_raw"][d] - first[n]["latency_raw"][d]
        return ops / 141.0, lat / ops / 1000.0

    target = tmp_path / "series.csv"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(target), ""))
    qtbot.mouseClick(page.btn_series, Qt.MouseButton.LeftButton)  # nothing selected: the whole collection
    assert wizard.runner.wait(30)
    assert page.series_status.text() == "Saved 1 interval(s) of the whole collection to series.csv"
    rows = target.read_text().splitlines()
    assert rows[0] == "iops,latency_ms"
    assert [float(v) for v in rows[1].split(",")] == pytest.approx(point(set(first)))
    assert [float(v) for v in rows[1].split(",")] == pytest.approx(list(calibration_points(wizard.read.inventories)[0]))
    names = [g.name for g in wizard.imported.groups]
    row = names.index("umeng_aff300_aggr2")
    page.table.selectRow(row)
    qtbot.mouseClick(page.btn_series, Qt.MouseButton.LeftButton)
    assert wizard.runner.wait(30)
    assert page.series_status.text() == "Saved 1 interval(s) of workload umeng_aff300_aggr2 to series.csv"
    rows = target.read_text().splitlines()
    expected = point({n for n, a in aggregates.items() if a == "umeng_aff300_aggr2"})
    assert [float(v) for v in rows[1].split(",")] == pytest.approx(expected)
    idle = names.index("test1")  # h_test alone: its interval may carry I/O; RahulTest has none
    page.table.selectRow(idle)
    points, what = page.series_points()
    assert what == "workload test1"
    moved = any(second["h_test"]["iops_raw"][d] > first["h_test"]["iops_raw"][d] for d in ("read", "write"))
    assert len(points) == int(moved)
    if moved:
        assert list(points[0]) == pytest.approx(list(point({"h_test"})))
