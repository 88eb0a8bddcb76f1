"""Review 57 (revimp57), items 2, 5, 6, 8, 9 and 10, on the real samples in ../shared/samples read in place and on
copies changed here (tmp_path); every expected figure is computed from the files with openpyxl or json, apart from
StorPlan's readers.

2. Live Optics: the sized capacity is the virtual disks' ('Virtual Disk Used (MB)'), the guests hold less ('Guest
   VM Disk Used (MB)'): both are said, with their columns; a guest occupancy above 100 % is flagged.
5. The measured record says per workload where each figure came from (sheet, column, how combined).
8. RVTools: powered-off machines with disks whose 'In Use MiB' is 0 are named with their provisioned size.
9. Live Optics 'Max KB/sec': the unit taken is said in the note.
10. statperf times are the cluster's clock; a refused latency says its unit; a group of neither load nor capacity
    says so; the CLI imports the good files and names the bad ones (exit 2 only when none can be read)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli import main
from models.importers.liveoptics import read_liveoptics
from models.importers.measured import measured_import
from models.importers.ontap import read_ontap
from models.importers.provenance import collected_words
from models.importers.rvtools import read_rvtools
from models.importers.workloads import group_inventories, import_environment
from models.project.textformat import load

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
SMALL = SAMPLES / "rvtools" / "rvtools-small-complete.xlsx"
ONTAP = SAMPLES / "ontap"
LUNS = ONTAP / "harvest-statperf-lun_data.txt"
MIB, TIB = 2**20, 2**40


def _rows(path: Path, sheet: str) -> list[dict[str, Any]]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        rows = list(book[sheet].iter_rows(values_only=True))
    finally:
        book.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] is not None]


# --- item 10 -------------------------------------------------------------------------------------------------------

def _later_lun_poll(minutes: int) -> str:
    """The LUN text ``minutes`` later, the first LUN's read_ops raised by 600 (width kept)."""
    text = LUNS.read_text().replace("End-time: 6/11/2025 18:51:00", f"End-time: 6/11/2025 18:{51 + minutes}:00")
    head, first, rest = text.split("Object: lun", 2)

    def bump(m: re.Match[str]) -> str:
        return m.group(1) + str(int(m.group(2)) + 600).rjust(len(m.group(2)))
    first = re.sub(r"^( {4}read_ops\s+)(\d+)$", bump, first, count=1, flags=re.MULTILINE)
    return head + "Object: lun" + first + "Object: lun" + rest


def test_statperf_times_are_said_as_the_clusters_clock(tmp_path: Path) -> None:
    later = tmp_path / "lun_later.txt"
    later.write_text(_later_lun_poll(1))
    inv = read_ontap(LUNS, later)
    stamp = re.search(r"End-time: (\S+ \S+)", LUNS.read_text())
    assert stamp is not None and stamp.group(1) == "6/11/2025 18:51:00"
    assert collected_words(inv) == "measured 2025-06-11 18:51 to 18:52 cluster time"
    assert "UTC" not in collected_words(inv)
    groups = group_inventories([inv], group_by="svm", keep_names=True)
    assert any("to 18:52 cluster time)" in g.method for g in groups)
    keyperf = read_ontap(ONTAP / "harvest-keyperf-volume-poll-1.json", ONTAP / "harvest-keyperf-volume-poll-2.json")
    assert keyperf.clock == "UTC" and collected_words(keyperf).endswith(" UTC")


def test_a_refused_latency_says_its_unit(tmp_path: Path) -> None:
    book = openpyxl.load_workbook(LIVE)
    ws = book["VM Performance"]
    header = [c.value for c in ws[1]]
    ws.cell(row=2, column=header.index("Peak Write Latency") + 1).value = 470_000_000_000_000
    book.save(tmp_path / "lat.xlsx")
    flags = [f for f in read_liveoptics(tmp_path / "lat.xlsx").flags if f.column == "Peak Write Latency"]
    assert [f.message for f in flags] == ["470,000,000,000,000 ms is above an hour: left out"]


def test_a_group_of_neither_load_nor_capacity_does_not_say_its_capacity_is_counted() -> None:
    inv = read_ontap(LUNS)  # one poll: no rate, and LUN counters give no capacity
    groups = group_inventories([inv], group_by="svm", keep_names=True)
    assert groups and all(g.needs_preset and g.capacity_basis == "none" for g in groups)
    notes = " ".join(n for g in groups for n in g.notes)
    assert "their capacity is counted" not in notes and "counts for capacity only" not in notes
    assert "the files give no capacity for them either" in notes


def test_the_cli_imports_the_good_files_and_names_the_bad_ones(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    text = tmp_path / "notes.xlsx"
    text.write_text("not a workbook")
    empty = tmp_path / "empty.xlsx"
    empty.write_bytes(b"")
    out = tmp_path / "x.toml"
    assert main(["import-env", str(SMALL), str(text), str(empty), "-o", str(out)]) == 0
    printed = capsys.readouterr()
    assert "not imported: notes.xlsx" in printed.err and "not imported: empty.xlsx: empty" in printed.err
    last = printed.out.strip().splitlines()[-1]
    assert last.startswith("warning: not imported") and "notes.xlsx" in last and "empty.xlsx" in last
    project = load(out)
    prov = sum(r["Provisioned MiB"] for r in _rows(SMALL, "vInfo"))  # the good file's figures, from openpyxl
    assert sum(w.provisioned_bytes or w.dataset_bytes for w in project.scenario.workloads) == prov * MIB
    none = tmp_path / "y.toml"
    assert main(["import-env", str(text), str(empty), "-o", str(none)]) == 2
    err = capsys.readouterr().err
    assert "none of the 2 files can be imported" in err and not none.exists()


# --- item 9 --------------------------------------------------------------------------------------------------------

def test_live_optics_kb_unit_is_said_and_mbps_are_max_kb_over_1000() -> None:
    inv = read_liveoptics(LIVE)
    note = next(n for n in inv.notes if "'Max KB/sec' read as KB of 1,000 bytes" in n)
    assert "1,024 bytes" in note and "2.4 % higher" in note
    assert 1024 / 1000 - 1 == pytest.approx(0.024)  # the note's 2.4 %
    kb = sum(r["Max KB/sec"] for r in _rows(LIVE, "VM Performance"))
    result = import_environment([inv], "c1", stat="peak")
    assert result.mbps == pytest.approx(kb / 1000)  # 450.9 MB/s: the unit unchanged, said


# --- item 8 --------------------------------------------------------------------------------------------------------

def test_powered_off_machines_with_disks_at_0_mib_in_use_are_named_with_their_size() -> None:
    rows = [r for r in _rows(KUBEV2V, "vInfo") if r["Powerstate"] == "poweredOff" and (r["Disks"] or 0) > 0
            and r["In Use MiB"] == 0]
    assert [r["VM"] for r in rows] == ["vm-4", "vm-5", "vm-6", "vm-7"]
    prov = sum(r["Provisioned MiB"] for r in rows) * MIB
    disks = sum(r["Total disk capacity MiB"] for r in rows) * MIB
    inv = read_rvtools(KUBEV2V)
    note = next(n for n in inv.notes if "report 0 MiB in use" in n)
    assert note.startswith("4 powered-off machine(s) with disks report 0 MiB in use")
    assert f"provisioned size is {prov / TIB:,.2f} TiB" in note and f"capacity {disks / TIB:,.2f} TiB" in note
    assert (f"{prov / TIB:,.2f}", f"{disks / TIB:,.2f}") == ("0.46", "0.38")
    flagged = [f for f in inv.flags if "0 MiB in use for a powered-off machine" in f.message]
    assert len(flagged) == 4 and not any(f.refused for f in flagged)
    assert {m.name: m.used_bytes for m in inv.machines if m.name in {r["VM"] for r in rows}} == dict.fromkeys(
        ("vm-4", "vm-5", "vm-6", "vm-7"), 0)  # offered, not counted: the figures stay the file's


# --- item 2 --------------------------------------------------------------------------------------------------------

def test_live_optics_says_the_datastore_and_the_guest_figures_with_their_columns(tmp_path: Path,
                                                                                   capsys: pytest.CaptureFixture[str]
                                                                                   ) -> None:
    vms = _rows(LIVE, "VMs")
    disk = sum(r["Virtual Disk Used (MB)"] for r in vms) * MIB
    guest = sum(r["Guest VM Disk Used (MB)"] for r in vms) * MIB
    assert (f"{disk / TIB:.2f}", f"{guest / TIB:.2f}") == ("3.56", "2.68")
    inv = read_liveoptics(LIVE)
    result = import_environment([inv], "c1")
    assert result.capacity_bytes == disk and result.guest_used_bytes == guest  # the datastore's figure is sized
    record = measured_import([inv], result, "cluster")
    assert record.measured.startswith("6 machines grouped by cluster into 2 workloads, 3.56\u00a0TiB allocated on "
                                      "the datastore (sheet 'VMs' column 'Virtual Disk Used (MB)', sized), "
                                      "2.68\u00a0TiB used in the guests (sheet 'VMs' column 'Guest VM Disk Used "
                                      "(MB)')") or record.measured.startswith(
        "6 machines grouped by cluster into 2 workloads, 3.56 TiB allocated on the datastore")
    assert "2.68" in record.measured and "Guest VM Disk Used (MB)" in record.measured
    over = [r for r in vms if r["Guest VM Disk Used (MB)"] > r["Virtual Disk Size (MB)"]]
    assert [r["VM Name"] for r in over] == ["PHCLA110"]
    flag = next(f for f in inv.flags if f.column == "Guest VM Disk Used (MB)")
    share = 100 * over[0]["Guest VM Disk Used (MB)"] / over[0]["Virtual Disk Size (MB)"]
    assert flag.message.startswith(f"guest occupancy {share:,.1f} %") and not flag.refused
    assert f"{share:,.1f}" == "121.6"  # the file's 'Guest VM % Occupancy' 121.56
    out = tmp_path / "lo.toml"
    assert main(["import-env", str(LIVE), "-o", str(out)]) == 0
    wrote = next(line for line in capsys.readouterr().out.splitlines() if line.startswith("wrote "))
    assert "allocated on the datastore" in wrote and "used in the guests" in wrote


# --- item 5 --------------------------------------------------------------------------------------------------------

def test_the_measured_record_names_each_figures_sheet_column_and_rows() -> None:
    perf = _rows(LIVE, "VM Performance")
    inv = read_liveoptics(LIVE)
    result = import_environment([inv], "c1", keep_names=True)
    record = measured_import([inv], result, "cluster")
    by_name = {w.name.split(" (")[0]: r.method for w, r in zip(result.workloads, record.workloads, strict=True)}
    for cluster in ("zColo_06", "zColo_08"):
        n = sum(1 for r in perf if r["Cluster"] == cluster)
        method = by_name[cluster]
        assert f"IOPS: sheet 'VM Performance' column 'Peak IOPS', sum of {n} rows" in method
        assert f"MB/s: sheet 'VM Performance' column 'Max KB/sec' / 1,000, sum of {n} rows" in method
        assert f"capacity: sheet 'VMs' column 'Virtual Disk Used (MB)', sum of {n} rows" in method
    assert by_name["zColo_06"].count("sum of 4 rows") == 3
    kube = read_rvtools(KUBEV2V)
    rows = _rows(KUBEV2V, "vInfo")
    in_cluster = sum(1 for r in rows if r["Cluster"] == "Cluster")
    kresult = import_environment([kube], "c1", keep_names=True)
    krecord = measured_import([kube], kresult, "cluster")
    assert krecord.workloads[0].method == ("capacity only (no performance figures); capacity: sheet 'vInfo' column "
                                           f"'In Use MiB', sum of {in_cluster} rows")
