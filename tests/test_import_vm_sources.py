"""The virtual-machine environment readers (RVTools xlsx and CSV, Live Optics, Azure Migrate) and detect(), on the
real exports in ../shared/samples read in place, and on variants generated here from them (RVTools 4.0.x "MB"
headers, a CSV export, custom-attribute and user columns, trailing spaces, absurd values, formulas, wrong sheet
names, a truncated file, a zip bomb). Totals are computed independently with openpyxl."""

from __future__ import annotations

import copy
import csv
import functools
import io
import math
import re
import zipfile
from collections import defaultdict
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from models.importers import workbook
from models.importers.azure_migrate import read_azure_migrate
from models.importers.inventory import Inventory, InventoryError
from models.importers.liveoptics import read_liveoptics
from models.importers.registry import detect, reader
from models.importers.rvtools import read_rvtools

# ../shared/samples beside the repository (parents[2] of this file); a worktree one level deeper finds it higher up
SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[2] / "shared" / "samples")
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"
SMALL = SAMPLES / "rvtools" / "rvtools-small-complete.xlsx"
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
AZURE = SAMPLES / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
MIB, GIB = 2**20, 2**30

OFF = "0 MiB in use for a powered-off machine"
"""review 57 #8's warnings (a powered-off machine with disks at 0 MiB in use), aside where a test counts flags"""


def tables(path: Path, max_row: int = 400) -> dict[str, list[list[Any]]]:
    """Every sheet of a sample as rows of values (openpyxl directly; trailing empty cells and rows dropped): a copy
    the caller may change."""
    return copy.deepcopy(_tables(path, max_row))


@functools.cache
def _tables(path: Path, max_row: int) -> dict[str, list[list[Any]]]:
    book = openpyxl.load_workbook(path, read_only=True)
    out = {}
    for ws in book.worksheets:
        rows = []
        for row in ws.iter_rows(values_only=True, max_row=max_row):
            cells = list(row)
            while cells and cells[-1] is None:
                cells.pop()
            rows.append(cells)
        while rows and not rows[-1]:
            rows.pop()
        out[ws.title] = rows
    book.close()
    return out


def records(rows: list[list[Any]]) -> list[dict[str, Any]]:
    """Data rows keyed by header (as the sample spells it)."""
    header = rows[0]
    return [{h: (r[k] if k < len(r) else None) for k, h in enumerate(header) if h is not None}
            for r in rows[1:] if any(c is not None for c in r)]


def write(path: Path, sheets: dict[str, list[list[Any]]]) -> Path:
    """A workbook of ``sheets`` written with openpyxl."""
    book = openpyxl.Workbook()
    book.remove(book.active)
    for name, rows in sheets.items():
        ws = book.create_sheet(name)
        for row in rows:
            ws.append(row)
    book.save(path)
    return path


def rename(rows: list[list[Any]], old: str, new: str) -> None:
    """Rename header ``old`` to ``new`` in place."""
    rows[0] = [new if h == old else h for h in rows[0]]


def set_cell(rows: list[list[Any]], name: str, column: str, value: Any) -> int:
    """Set ``column`` of the row whose first cell is ``name``; the 1-based sheet row it is on."""
    k = rows[0].index(column)
    for i, r in enumerate(rows):
        if r and r[0] == name:
            r.extend([None] * (k + 1 - len(r)))
            r[k] = value
            return i + 1
    raise AssertionError(name)


def by_cluster(inv: Inventory, attr: str) -> dict[str, int]:
    """Sum of a machine capacity attribute (bytes) by cluster, Nones left out."""
    out: dict[str, int] = defaultdict(int)
    for m in inv.machines:
        if getattr(m, attr) is not None:
            out[m.cluster] += getattr(m, attr)
    return dict(out)


def mib_by_cluster(rows: list[dict[str, Any]], column: str) -> dict[str, int]:
    """Sum of a MiB column by the rows' Cluster, as bytes."""
    out: dict[str, int] = defaultdict(int)
    for r in rows:
        if isinstance(r.get(column), int | float):
            out[r.get("Cluster") or ""] += round(r[column] * MIB)
    return dict(out)


# -- the real samples ------------------------------------------------------------------------------------------


def test_kubev2v_rvtools_export_imports_its_nine_vms_with_cluster_totals() -> None:
    t = tables(KUBEV2V)
    info = records(t["vInfo"])
    inv = read_rvtools(KUBEV2V)
    assert inv.source == "rvtools" and inv.file == KUBEV2V.name
    assert len(inv.machines) == len(info) == 9
    assert [m.name for m in inv.machines] == [r["VM"] for r in info]
    # vm-9 has no cluster and empty capacity cells: its used capacity is its vPartition Consumed, its provisioned
    # its vDisk Capacity (review 55 item 5), the rest vInfo's
    consumed = sum(r["Consumed MiB"] for r in records(t["vPartition"]) if r["VM"] == "vm-9") * MIB
    capacity = sum(r["Capacity MiB"] for r in records(t["vDisk"]) if r["VM"] == "vm-9") * MIB
    assert by_cluster(inv, "used_bytes") == {**mib_by_cluster(info, "In Use MiB"), "": consumed}
    assert by_cluster(inv, "provisioned_bytes") == {**mib_by_cluster(info, "Provisioned MiB"), "": capacity}
    assert by_cluster(inv, "unshared_bytes") == mib_by_cluster(info, "Unshared MiB")
    assert sum(m.powered_on is True for m in inv.machines) == sum(r["Powerstate"] == "poweredOn" for r in info)
    disks = records(t["vDisk"])
    assert sum(len(m.disks) for m in inv.machines) == len(disks)
    assert sum(d.capacity_bytes for m in inv.machines for d in m.disks) == sum(r["Capacity MiB"] * MIB for r in disks)
    assert all(not m.perf and not m.series for m in inv.machines)  # RVTools has no performance
    # review 57 #8: the powered-off machines with disks and 0 MiB in use are warnings; nothing is refused
    zero = [r for r in info if r["Powerstate"] == "poweredOff" and (r["Disks"] or 0) > 0 and r["In Use MiB"] == 0]
    assert len(inv.flags) == len(zero) == 4 and not any(f.refused for f in inv.flags)
    assert detect(KUBEV2V) == "rvtools"


def test_small_rvtools_workbook_reads_partitions_and_user_columns() -> None:
    t = tables(SMALL)
    inv = read_rvtools(SMALL)
    assert len(inv.machines) == 3
    consumed: dict[str, int] = defaultdict(int)
    for r in records(t["vPartition"]):
        consumed[r["VM"]] += r["Consumed MiB"] * MIB
    assert {m.name: m.guest_used_bytes for m in inv.machines} == dict(consumed)
    # no In Use MiB column: used is the guests' consumed space, as the note says (review 53 item 7), not provisioned,
    # plus the snapshot files the guest does not see (vSnapshot, review 55 item 6)
    snapshots = {r["VM"]: r["Size MiB (total)"] * MIB for r in records(t["vSnapshot"])}
    assert {m.name: m.used_bytes for m in inv.machines} == {n: c + snapshots.get(n, 0) for n, c in consumed.items()}
    assert sum(consumed.values()) / 2**40 == pytest.approx(0.3125)  # not the 0.508 TiB provisioned
    assert any("In Use MiB" in n and "vPartition 'Consumed MiB'" in n and "for 3 of 3 machine(s)" in n
               for n in inv.notes)
    assert sum(m.provisioned_bytes or 0 for m in inv.machines) == sum(
        r["Provisioned MiB"] * MIB for r in records(t["vInfo"]))
    web = next(m for m in inv.machines if m.name == "sample-web-01")
    assert "CPU Usage %=35" in web.tags  # a column RVTools does not name is the user's own: a tag
    assert web.memory_bytes == 8192 * MIB and web.vcpus == 2 and web.cluster == "sample-cluster-a"


def test_live_optics_export_imports_six_vms_with_peak_and_average_figures() -> None:
    t = tables(LIVE)
    perf = records(t["VM Performance"])
    vms = records(t["VMs"])
    inv = read_liveoptics(LIVE)
    assert len(inv.machines) == 6 and inv.version == "23.3.11.78"
    peaks = [m.figures("peak") for m in inv.machines]
    avgs = [m.figures("average") for m in inv.machines]
    assert all(p is not None for p in peaks) and all(a is not None for a in avgs)
    by_name = {r["VM Name"]: r for r in perf}
    for m, p in zip(inv.machines, peaks):  # the machine's coincident peak, split by its average read/write ratio
        r = by_name[m.name]  # within [Peak - Peak Write, Peak Read] (review 55 item 1)
        read_share = float(r["Avg Read/Write Ratio"].split("%")[0]) / 100
        assert p is not None and p.read_iops + p.write_iops == pytest.approx(r["Peak IOPS"])
        assert p.read_iops == pytest.approx(min(max(r["Peak IOPS"] * read_share, r["Peak IOPS"] - r["Peak Write IOPS"]),
                                                r["Peak Read IOPS"]))
        assert p.read_mbps + p.write_mbps == pytest.approx(r["Max KB/sec"] / 1000)
    assert sum(p.read_iops + p.write_iops for p in peaks if p) == pytest.approx(31_940)  # not 34,256 (read + write)
    assert sum(a.read_iops for a in avgs if a) == sum(r["Avg Read IOPS"] for r in perf)
    assert sum(a.write_mbps for a in avgs if a) == sum(r["Avg Write MB/s"] for r in perf)
    assert sum(m.provisioned_bytes or 0 for m in inv.machines) == sum(r["Virtual Disk Size (MB)"] * MIB for r in vms)
    assert [m.memory_bytes for m in inv.machines] == [r["Provisioned Memory (Bytes)"] for r in vms]
    by_name = {r["VM Name"]: r for r in perf}
    for m in inv.machines:
        p = m.figures("peak")
        assert p is not None and p.latency_ms == by_name[m.name]["Peak Latency"]
    assert not [f for f in inv.flags if f.refused]  # the warnings of the bounded peak mix only
    assert detect(LIVE) == "liveoptics"


def test_azure_migrate_report_imports_294_machines_with_their_storage() -> None:
    rows = records(tables(AZURE, 1000)["All_VM_IaaS_Server_Rehost_Perf"])
    inv = read_azure_migrate(AZURE)
    assert len(inv.machines) == len(rows) == 294
    assert sum(m.provisioned_bytes or 0 for m in inv.machines) == sum(r["Storage (in GB)"] * GIB for r in rows)
    assert sum(m.vcpus or 0 for m in inv.machines) == sum(r["Cores"] for r in rows)
    # the Export utility's machine sheet has no disk I/O columns: no figures invented, and the notes say so
    assert all(not m.perf for m in inv.machines)
    assert any("no disk read / write" in n for n in inv.notes)
    assert detect(AZURE) == "azure-migrate" and reader("azure-migrate") is read_azure_migrate


# -- RVTools variants ------------------------------------------------------------------------------------------


def test_rvtools_40_mb_headers_trailing_spaces_and_inserted_columns_give_the_same_totals(tmp_path: Path) -> None:
    t = tables(KUBEV2V)
    reference = read_rvtools(KUBEV2V)
    for old in ("Provisioned MiB", "In Use MiB", "Unshared MiB"):
        rename(t["vInfo"], old, old.replace("MiB", "MB"))
    rename(t["vDisk"], "Capacity MiB", "Capacity MB")
    rename(t["vInfo"], "Cluster", "Cluster  ")
    rename(t["vInfo"], "VM", " VM ")
    for i, row in enumerate(t["vInfo"]):  # a custom attribute first, a user's column in the middle
        row.insert(0, "Owner" if i == 0 else f"team-{i % 2}")
        row.insert(30, "My notes" if i == 0 else None)
    inv = read_rvtools(write(tmp_path / "old.xlsx", t))
    assert by_cluster(inv, "used_bytes") == by_cluster(reference, "used_bytes")
    assert by_cluster(inv, "provisioned_bytes") == by_cluster(reference, "provisioned_bytes")
    assert [len(m.disks) for m in inv.machines] == [len(m.disks) for m in reference.machines]
    assert inv.machines[0].tags == ("Owner=team-1",)


def test_rvtools_csv_export_folder_and_single_file(tmp_path: Path) -> None:
    info = records(tables(KUBEV2V)["vInfo"])
    names = {"VM": "vInfoVMName", "Powerstate": "vInfoPowerstate", "CPUs": "vInfoCPUs", "Memory": "vInfoMemory",
             "Provisioned MiB": "vInfoProvisioned", "In Use MiB": "vInfoInUse", "Unshared MiB": "vInfoUnshared",
             "Cluster": "vInfoCluster", "Host": "vInfoHost"}
    folder = tmp_path / "export"
    folder.mkdir()
    with (folder / "tabvInfo.csv").open("w", newline="", encoding="utf-8-sig") as f:
        w = csv.writer(f)
        w.writerow(names.values())
        for r in info:
            w.writerow(["" if r[k] is None else r[k] for k in names])
    with (folder / "tabvDisk.csv").open("w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["vDiskVMName", "vDiskName", "vDiskCapacityMiB"])
        w.writerow(["vm-1", "Hard disk 1", 1024])
    reference = read_rvtools(KUBEV2V)
    for path in (folder, folder / "tabvInfo.csv"):
        inv = read_rvtools(path)
        assert len(inv.machines) == 9 and detect(path) == "rvtools"
        # no vPartition here: vm-9's empty In Use cell has nothing to fall back on (the workbook has: review 55)
        assert by_cluster(inv, "used_bytes") == mib_by_cluster(info, "In Use MiB")
        assert [m.vcpus for m in inv.machines] == [m.vcpus for m in reference.machines]
    assert read_rvtools(folder).machines[0].disks[0].capacity_bytes == 1024 * MIB


def test_rvtools_absurd_values_and_formulas_are_refused_per_row_never_summed(tmp_path: Path) -> None:
    t = tables(KUBEV2V)
    info = t["vInfo"]
    bad = {set_cell(info, "vm-1", "In Use MiB", -5): "In Use MiB",
           set_cell(info, "vm-2", "Provisioned MiB", "nan"): "Provisioned MiB",
           set_cell(info, "vm-3", "Provisioned MiB", 2e15): "Provisioned MiB",
           set_cell(info, "vm-8", "In Use MiB", "=SUM(A1:A9)"): "In Use MiB"}
    inv = read_rvtools(write(tmp_path / "bad.xlsx", t))
    assert len(inv.machines) == 9  # the rows stay; the values are left out
    # review 57 #8's warnings on the powered-off machines at 0 MiB in use aside
    assert {(f.row, f.column) for f in inv.flags if OFF not in f.message} == {(row, col) for row, col in bad.items()}
    assert all(f.sheet == "vInfo" and f.file == "bad.xlsx" for f in inv.flags)
    assert {(f.row, f.column) for f in inv.flags if f.refused} == {(row, col) for row, col in bad.items()}
    # review 57 #4: each refused capacity takes the empty cell's fallback, and a warning names the figure it changed
    assert {(f.row, f.column) for f in inv.flags if not f.refused and OFF not in f.message} == {
        (row, col) for row, col in bad.items()}
    formula = next(f for f in inv.flags if f.row == max(bad))
    assert "formula" in formula.message
    good = {m.name: m for m in read_rvtools(KUBEV2V).machines}

    def fallback(vm: str, sheet: str, column: str) -> int | None:  # an empty cell's fallback, from the sheet
        values = [r[column] for r in records(t[sheet]) if r["VM"] == vm and r[column] is not None]
        return round(sum(values) * MIB) if values else None

    # review 57 #4: a refused In Use cell takes the empty cell's fallback (vPartition, else vDisk), never nothing
    refilled = {vm: fallback(vm, "vPartition", "Consumed MiB") or fallback(vm, "vDisk", "Capacity MiB")
                for vm in ("vm-1", "vm-8")}
    expected_used = sum(m.used_bytes or 0 for n, m in good.items() if n not in refilled) + sum(
        v or 0 for v in refilled.values())
    assert sum(m.used_bytes or 0 for m in inv.machines) == expected_used
    assert all(math.isfinite(m.provisioned_bytes) for m in inv.machines if m.provisioned_bytes is not None)
    for vm in ("vm-2", "vm-3"):  # a refused Provisioned cell: vDisk's capacity, as for an empty one
        assert next(m for m in inv.machines if m.name == vm).provisioned_bytes == fallback(vm, "vDisk", "Capacity MiB")
    vm9 = sum(r["Capacity MiB"] for r in records(t["vDisk"]) if r["VM"] == "vm-9") * MIB  # an empty cell: vDisk's
    assert next(m for m in inv.machines if m.name == "vm-9").provisioned_bytes == vm9


def test_rvtools_missing_column_and_wrong_sheet_names_give_one_message(tmp_path: Path) -> None:
    t = tables(SMALL)
    rename(t["vInfo"], "Provisioned MiB", "Size")
    with pytest.raises(InventoryError) as err:
        read_rvtools(write(tmp_path / "nocol.xlsx", t))
    assert str(err.value).startswith("nocol.xlsx: sheet 'vInfo' has no column 'Provisioned MiB'")
    t = tables(SMALL)
    t["Sheet1"] = t.pop("vInfo")
    path = write(tmp_path / "renamed.xlsx", t)
    with pytest.raises(InventoryError, match=r"^renamed.xlsx: no sheet 'vInfo' \(the workbook's sheets: 'vDisk'"):
        read_rvtools(path)
    with pytest.raises(InventoryError, match="a workbook of no known source"):
        detect(path)
    assert str(tmp_path) not in str(err.value)  # the file's name, never its folder


def test_truncated_workbook_and_not_a_workbook_are_refused_in_one_line(tmp_path: Path) -> None:
    data = KUBEV2V.read_bytes()
    cut = tmp_path / "cut.xlsx"
    cut.write_bytes(data[: len(data) // 2])
    for read in (read_rvtools, read_liveoptics, read_azure_migrate, detect):
        with pytest.raises(InventoryError) as err:
            read(cut)
        assert str(err.value).startswith("cut.xlsx: ") and "\n" not in str(err.value)
    license_file = SAMPLES / "rvtools" / "LICENSE.kubev2v-migration-planner"
    with pytest.raises(InventoryError, match="cannot tell which tool exported it"):
        detect(license_file)


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        for name, data in members.items():
            z.writestr(name, data)
    return path


def _rewrite(source: Path, target: Path, part: str, change: Any) -> Path:
    """A copy of workbook ``source`` with the XML of ``part`` changed by ``change`` (bytes -> bytes)."""
    with zipfile.ZipFile(source) as z:
        members = {i.filename: z.read(i.filename) for i in z.infolist()}
    members[part] = change(members[part])
    return _zip(target, members)


def _vinfo_part(path: Path) -> str:
    """The archive part of sheet vInfo (through the workbook's relationships)."""
    with zipfile.ZipFile(path) as z:
        book = z.read("xl/workbook.xml").decode()
        rels = z.read("xl/_rels/workbook.xml.rels").decode()
    rid = re.search(r'<sheet [^>]*name="vInfo"[^>]*r:id="([^"]+)"', book)
    assert rid is not None
    target = re.search(r'Id="' + rid.group(1) + r'"[^>]*Target="([^"]+)"|Target="([^"]+)"[^>]*Id="' + rid.group(1),
                       rels)
    assert target is not None
    return "xl/" + (target.group(1) or target.group(2)).lstrip("/").removeprefix("xl/")


def test_cells_without_references_comments_and_doctype(tmp_path: Path) -> None:
    reference = read_rvtools(KUBEV2V)
    part = _vinfo_part(KUBEV2V)
    # cells without their reference (allowed by the format: each follows the previous one) and a comment: the
    # batch goes to expat instead of the scanner, with the same result
    for name, change in (("noref.xlsx", lambda x: re.sub(rb'<c r="[A-Z]+[0-9]+"', b"<c", x)),
                         ("comment.xlsx", lambda x: x.replace(b"<sheetData>", b"<sheetData><!-- a note -->", 1))):
        inv = read_rvtools(_rewrite(KUBEV2V, tmp_path / name, part, change))
        assert [(m.name, m.used_bytes, m.provisioned_bytes, m.cluster) for m in inv.machines] == [
            (m.name, m.used_bytes, m.provisioned_bytes, m.cluster) for m in reference.machines], name
    entity = _rewrite(KUBEV2V, tmp_path / "entity.xlsx", part, lambda x: x.replace(
        b"?>", b'?><!DOCTYPE w [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>', 1))
    with pytest.raises(InventoryError, match="declares a document type"):
        read_rvtools(entity)
    unclosed = _rewrite(KUBEV2V, tmp_path / "unclosed.xlsx", part, lambda x: x.replace(b"</c>", b""))
    with pytest.raises(InventoryError, match=r"^unclosed.xlsx: sheet 'vInfo' cannot be read \(damaged"):
        read_rvtools(unclosed)


def test_far_apart_cells_are_refused_and_cached_formula_results_never_read(tmp_path: Path) -> None:
    part = _vinfo_part(KUBEV2V)
    # two cells a kilobyte apart in the file but a million rows and 16,384 columns apart in the grid: refused before
    # the reader builds the grid (which would ask for hundreds of GiB)
    far = _rewrite(KUBEV2V, tmp_path / "far.xlsx", part, lambda x: x.replace(
        b"</sheetData>", b'<row r="1048576"><c r="XFD1048576"><v>1</v></c></row></sheetData>', 1))
    with pytest.raises(InventoryError, match=r"^far.xlsx: sheet 'vInfo' spans 1,048,576 rows by 16,384 columns"):
        read_rvtools(far)
    # a formula with the result the file cached: the formula is refused, its cached result never read
    header = tables(KUBEV2V)["vInfo"][0]
    letters = openpyxl.utils.get_column_letter(header.index("In Use MiB") + 1).encode()
    cached = _rewrite(KUBEV2V, tmp_path / "cached.xlsx", part, lambda x: re.sub(
        rb'(<c r="' + letters + rb'3"[^>/]*>)(<v>)', rb"\1<f>1+1</f>\2", x, count=1))
    inv = read_rvtools(cached)
    assert [(f.row, f.column, f.refused) for f in inv.flags if OFF not in f.message] == [
        (3, "In Use MiB", True), (3, "In Use MiB", False)]  # review 57 #8's warnings aside
    assert "a formula (=1+1)" in inv.flags[0].message
    machines = read_rvtools(KUBEV2V).machines
    expected = [m.used_bytes for m in machines]  # row 3 is the second machine
    assert expected[1] is not None
    t = tables(KUBEV2V)  # review 57 #4: refused, it takes the empty cell's fallback: vPartition's consumed space
    consumed = [r["Consumed MiB"] for r in records(t["vPartition"]) if r["VM"] == machines[1].name]
    expected[1] = round(sum(consumed) * MIB) if consumed else \
        round(sum(r["Capacity MiB"] for r in records(t["vDisk"]) if r["VM"] == machines[1].name) * MIB)
    assert [m.used_bytes for m in inv.machines] == expected
    # an error cell (which the spreadsheet reader gives as empty) is refused as what it is, never read as blank
    error = _rewrite(KUBEV2V, tmp_path / "error.xlsx", part, lambda x: re.sub(
        rb'(<c r="' + letters + rb'3"[^>/]*?)(?: t="n")?>(<v>)[^<]*', rb'\1 t="e">\2#N/A', x, count=1))
    flags = read_rvtools(error).flags
    assert [(f.row, f.column, f.refused) for f in flags if OFF not in f.message] == [
        (3, "In Use MiB", True), (3, "In Use MiB", False)]
    assert "'#N/A' is not a number" in flags[0].message


def test_zip_bomb_is_refused_before_any_part_is_parsed(tmp_path: Path) -> None:
    good = zipfile.ZipFile(io.BytesIO(SMALL.read_bytes()))
    members = {i.filename: good.read(i.filename) for i in good.infolist()}
    members["xl/worksheets/sheet1.xml"] = b"<x>" + b" " * (40 * 2**20) + b"</x>"  # 40 MiB packing to ~40 KiB
    bomb = _zip(tmp_path / "bomb.xlsx", members)
    assert bomb.stat().st_size < 2**20
    for read in (read_rvtools, detect):
        with pytest.raises(InventoryError, match=r"^bomb.xlsx: part 'xl/worksheets/sheet1.xml' unpacks .* zip bomb"):
            read(bomb)


def test_row_machine_and_file_size_caps(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(workbook, "MAX_ROWS", 5)
    with pytest.raises(InventoryError, match=r"^kubev2v-example1.xlsx: sheet 'vInfo' has more than 5 rows"):
        read_rvtools(KUBEV2V)
    monkeypatch.setattr(workbook, "MAX_ROWS", 2_000_000)
    monkeypatch.setattr(workbook, "MAX_MACHINES", 3)
    for read, path in ((read_rvtools, KUBEV2V), (read_liveoptics, LIVE), (read_azure_migrate, AZURE)):
        with pytest.raises(InventoryError, match=r"lists more than 3 machines: refused$"):
            read(path)
    monkeypatch.setattr(workbook, "MAX_FILE_BYTES", 1000)
    with pytest.raises(InventoryError, match="more than the 1000 bytes"):
        read_liveoptics(LIVE)


# -- Live Optics variants --------------------------------------------------------------------------------------


def test_live_optics_mib_headers_read_as_the_mb_ones(tmp_path: Path) -> None:
    t = tables(LIVE)
    t["VMs"][0] = [h.replace("(MB)", "(MiB)") if isinstance(h, str) else h for h in t["VMs"][0]]
    inv = read_liveoptics(write(tmp_path / "new.xlsx", t))
    ref = read_liveoptics(LIVE)
    assert [(m.provisioned_bytes, m.used_bytes, m.memory_bytes, m.guest_used_bytes) for m in inv.machines] == [
        (m.provisioned_bytes, m.used_bytes, m.memory_bytes, m.guest_used_bytes) for m in ref.machines]
    assert inv.machines[0].provisioned_bytes == records(tables(LIVE)["VMs"])[0]["Virtual Disk Size (MB)"] * MIB


def test_live_optics_absurd_latency_and_impossible_iops_are_flagged_and_left_out(tmp_path: Path) -> None:
    t = tables(LIVE)
    perf = t["VM Performance"]
    lat_row = set_cell(perf, "PHCLA105", "Peak Write Latency", 4.7e14)
    iops_row = set_cell(perf, "PHCLA107", "Peak IOPS", 1_000_000)  # its peak throughput is 26,659 KB/s
    set_cell(perf, "PHCLA109", "Avg Read Latency", -1)
    inv = read_liveoptics(write(tmp_path / "absurd.xlsx", t))
    flags = {(f.row, f.column): f for f in inv.flags if f.refused}
    assert set(flags) == {(lat_row, "Peak Write Latency"), (iops_row, "Peak IOPS"),
                          (set_cell(perf, "PHCLA109", "Avg Read Latency", -1), "Avg Read Latency")}
    assert "above an hour" in flags[(lat_row, "Peak Write Latency")].message
    assert "512-byte" in flags[(iops_row, "Peak IOPS")].message
    m = {x.name: x for x in inv.machines}
    p105 = m["PHCLA105"].figures("peak")
    assert p105 is not None and p105.write_latency_ms is None and p105.read_latency_ms == 3
    p107 = m["PHCLA107"].figures("peak")
    assert p107 is not None and p107.write_iops is None and p107.write_mbps == pytest.approx(26.659)
    a109 = m["PHCLA109"].figures("average")
    assert a109 is not None and a109.read_latency_ms is None and a109.latency_ms == 2  # the write latency alone


def test_live_optics_p95_columns_and_ratio_split(tmp_path: Path) -> None:
    t = tables(LIVE)
    perf = t["VM Performance"]
    header = perf[0]
    avg_r, avg_w = header.index("Avg Read IOPS"), header.index("Avg Write IOPS")
    width = len(header)
    for row in perf:  # P95 columns added; per-direction average IOPS taken away
        row.extend([None] * (width - len(row)))
        row += ["P95 Read IOPS", "P95 Write IOPS"] if row is header else [row[avg_r] * 2, row[avg_w] * 3]
        row[avg_r] = row[avg_w] = None
    header[avg_r], header[avg_w] = "Unused 1", "Unused 2"
    inv = read_liveoptics(write(tmp_path / "p95.xlsx", t))
    rows = records(tables(LIVE)["VM Performance"])
    for m, r in zip(inv.machines, rows):
        p95 = m.figures("p95")
        assert p95 is not None and p95.read_iops == r["Avg Read IOPS"] * 2 and p95.write_iops == r["Avg Write IOPS"] * 3
        avg = m.figures("average")
        read_share = float(r["Avg Read/Write Ratio"].split("%")[0]) / 100
        assert avg is not None and avg.read_iops == pytest.approx(r["Average IOPS"] * read_share)
    assert any("read/write ratio" in n for n in inv.notes)


def test_live_optics_without_vms_sheet(tmp_path: Path) -> None:
    t = tables(LIVE)
    t["Machines"] = t.pop("VMs")
    with pytest.raises(InventoryError, match=r"^novms.xlsx: no sheet 'VMs'"):
        read_liveoptics(write(tmp_path / "novms.xlsx", t))


# -- Azure Migrate variant -------------------------------------------------------------------------------------


def test_azure_migrate_disk_io_columns_are_read_with_their_statistic(tmp_path: Path) -> None:
    rows = tables(AZURE, 1000)["All_VM_IaaS_Server_Rehost_Perf"]
    cols = ["Disk Read (in OPS)", "Disk Write (in OPS)", "Disk Read (in MBPS)", "Disk Write (in MBPS)"]
    rows[0] += cols
    for i, row in enumerate(rows[1:], 1):
        row += [10.0 * i, 5.0, 0.5 * i, 0.25]
    rows[3][-4] = 1e6  # a million reads per second at 1.5 MB/s: impossible at 512-byte I/Os
    inv = read_azure_migrate(write(tmp_path / "core.xlsx", {"All_VM_IaaS_Server_Rehost_Perf": rows}))
    figures = [m.figures("p95") for m in inv.machines]
    assert all(f is not None for f in figures)
    assert sum(f.read_iops or 0 for f in figures if f) == sum(10.0 * i for i in range(1, 295) if i != 3)
    assert sum(f.write_mbps or 0 for f in figures if f) == pytest.approx(0.25 * 294)
    assert [(f.row, f.column) for f in inv.flags] == [(4, "Disk Read (in OPS)")]
    assert any("95th percentile" in n for n in inv.notes)
