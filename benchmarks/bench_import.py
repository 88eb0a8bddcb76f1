"""Importing a measured environment: time and peak memory to read a generated RVTools workbook of 10,000 VMs
(vInfo with the 90 columns of a 4.7 export, vDisk and vPartition with two rows per VM, vHost, vCluster), and to
refuse a hostile vInfo of a million rows (refused at 250,000 machines, within bounded time and memory).

Run: ``uv run python benchmarks/bench_import.py [repeats] [vms]``. Targets: at most 3 s and 500 MB for 10,000 VMs
(median time of ``repeats``, default 3, without tracing; peak memory from one traced run and the process's maximum
resident size: tracing sees only Python's allocations, not calamine's, which the resident size includes).
"""

from __future__ import annotations

import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
import zipfile
from pathlib import Path

import openpyxl

from models.importers.inventory import InventoryError
from models.importers.rvtools import read_rvtools

VINFO = [
    "VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "Connection state", "Guest state",
    "Heartbeat", "Consolidation Needed", "PowerOn", "Suspended To Memory", "Suspend time", "Suspend Interval",
    "Creation date", "Change Version", "CPUs", "Overall Cpu Readiness", "Memory", "Active Memory", "NICs", "Disks",
    "Total disk capacity MiB", "Fixed Passthru HotPlug", "min Required EVC Mode Key", "Latency Sensitivity",
    "Op Notification Timeout", "EnableUUID", "CBT", "Primary IP Address", "Network #1", "Network #2", "Network #3",
    "Network #4", "Network #5", "Network #6", "Network #7", "Network #8", "Num Monitors", "Video Ram KiB",
    "Resource pool", "Folder ID", "Folder", "vApp", "DAS protection", "FT State", "FT Role", "FT Latency",
    "FT Bandwidth", "FT Sec. Latency", "Vm Failover In Progress", "Provisioned MiB", "In Use MiB", "Unshared MiB",
    "HA Restart Priority", "HA Isolation Response", "HA VM Monitoring", "Cluster rule(s)", "Cluster rule name(s)",
    "Boot Required", "Boot delay", "Boot retry delay", "Boot retry enabled", "Boot BIOS setup", "Reboot PowerOff",
    "EFI Secure boot", "Firmware", "HW version", "HW upgrade status", "Datacenter", "Cluster", "Host",
    "OS according to the configuration file", "OS according to the VMware Tools", "Customization Info",
    "Guest Detailed Data", "VM ID", "VM UUID", "VI SDK Server type", "VI SDK API Version", "Path", "Annotation",
    "owner", "cost-centre", "backup-policy", "DNS Name", "Log directory", "Snapshot directory", "Suspend directory",
    "NB Last Backup", "SMBIOS UUID",
]


def generate(path: Path, vms: int) -> Path:
    """An RVTools-layout workbook of ``vms`` machines, written with openpyxl's streaming writer."""
    book = openpyxl.Workbook(write_only=True)
    info = book.create_sheet("vInfo")
    info.append(VINFO)
    col = {h: k for k, h in enumerate(VINFO)}
    for i in range(vms):
        row: list[object] = [f"text-{i % 7}"] * len(VINFO)
        row[col["VM"]] = f"vm-{i:05d}"
        row[col["Powerstate"]] = "poweredOn" if i % 5 else "poweredOff"
        row[col["Template"]] = "False"
        row[col["CPUs"]] = 1 + i % 16
        row[col["Memory"]] = 1024 * (1 + i % 32)
        row[col["Provisioned MiB"]] = 40960 + i
        row[col["In Use MiB"]] = 20480 + i
        row[col["Unshared MiB"]] = 10240 + i
        row[col["Cluster"]] = f"cluster-{i % 12}"
        row[col["Host"]] = f"esx-{i % 200}"
        row[col["Path"]] = f"[ds-{i % 40}] vm-{i:05d}/vm-{i:05d}.vmx"
        row[col["owner"]] = f"team-{i % 9}"
        info.append(row)
    disk = book.create_sheet("vDisk")
    disk.append(["VM", "Powerstate", "Template", "Disk", "Capacity MiB", "Thin", "Disk Path", "Cluster", "Host"])
    part = book.create_sheet("vPartition")
    part.append(["VM", "Powerstate", "Disk", "Capacity MiB", "Consumed MiB", "Free MiB", "Free %"])
    for i in range(vms):
        for d in (1, 2):
            disk.append([f"vm-{i:05d}", "poweredOn", "False", f"Hard disk {d}", 20480, "True",
                         f"[ds-{i % 40}] vm-{i:05d}/vm-{i:05d}_{d}.vmdk", f"cluster-{i % 12}", f"esx-{i % 200}"])
            part.append([f"vm-{i:05d}", "poweredOn", f"/data{d}", 20000, 9000 + d, 11000 - d, 55])
    host = book.create_sheet("vHost")
    host.append(["Host", "Datacenter", "Cluster", "# CPU", "# Cores"])
    for h in range(200):
        host.append([f"esx-{h}", "dc", f"cluster-{h % 12}", 2, 32])
    cluster = book.create_sheet("vCluster")
    cluster.append(["Name", "NumHosts"])
    for c in range(12):
        cluster.append([f"cluster-{c}", 17])
    book.save(path)
    return path


def million_rows(path: Path, rows: int = 1_000_000) -> Path:
    """A minimal xlsx whose sheet vInfo holds ``rows`` machines (its XML written directly: openpyxl would take
    minutes; with the package relationships and content types calamine needs to recognise an xlsx)."""
    ns = "http://schemas.openxmlformats.org/spreadsheetml/2006/main"
    head = (f'<worksheet xmlns="{ns}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>VM</t></is></c>'
            '<c r="B1" t="inlineStr"><is><t>Provisioned MiB</t></is></c></row>')
    body = "".join(f'<row r="{i}"><c r="A{i}" t="inlineStr"><is><t>vm-{i}</t></is></c><c r="B{i}"><v>{i}</v></c></row>'
                   for i in range(2, rows + 2))
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">'
                   '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>'
                   '<Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" '
                   'ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>'
                   '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/'
                   'vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/></Types>')
        z.writestr("_rels/.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">'
                   '<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/'
                   'officeDocument" Target="xl/workbook.xml"/></Relationships>')
        z.writestr("xl/workbook.xml", f'<workbook xmlns="{ns}" xmlns:r="http://schemas.openxmlformats.org/'
                   'officeDocument/2006/relationships"><sheets><sheet name="vInfo" sheetId="1" r:id="rId1"/>'
                   "</sheets></workbook>")
        z.writestr("xl/_rels/workbook.xml.rels", '<Relationships xmlns="http://schemas.openxmlformats.org/package/'
                   '2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/'
                   'officeDocument/2006/relationships/worksheet" Target="worksheets/sheet1.xml"/></Relationships>')
        z.writestr("xl/worksheets/sheet1.xml", head + body + "</sheetData></worksheet>")
    return path


def refuse_million(folder: Path) -> None:
    """Time and peak memory to refuse a vInfo of a million rows."""
    path = million_rows(folder / "million.xlsx")

    def refuse() -> str:
        try:
            read_rvtools(path)
        except InventoryError as exc:
            return str(exc)
        return "accepted"

    t = time.perf_counter()
    message = refuse()
    took = time.perf_counter() - t
    tracemalloc.start()
    refuse()
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    print(f"10^6-row vInfo ({path.stat().st_size / 2**20:.1f} MiB): {took:.2f} s, peak traced {peak / 2**20:.0f} MiB: "
          f"{message}")


def main() -> None:
    repeats = int(sys.argv[1]) if len(sys.argv) > 1 else 3
    vms = int(sys.argv[2]) if len(sys.argv) > 2 else 10_000
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        path = generate(Path(tmp) / "rvtools-10k.xlsx", vms)
        print(f"generated {vms:,} VMs in {time.perf_counter() - t0:.2f} s ({path.stat().st_size / 2**20:.1f} MiB)")
        times, cpu = [], []
        for _ in range(repeats):
            t, c = time.perf_counter(), time.process_time()
            inv = read_rvtools(path)
            times.append(time.perf_counter() - t)
            cpu.append(time.process_time() - c)
        assert len(inv.machines) == vms and not inv.flags
        tracemalloc.start()
        read_rvtools(path)
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024  # KiB on Linux
        median = statistics.median(times)
        print(f"import: median {median:.2f} s of {repeats} (runs {', '.join(f'{t:.2f}' for t in times)}; CPU "
              f"median {statistics.median(cpu):.2f} s); target <= 3 s: {'met' if median <= 3 else 'MISSED'}")
        print(f"peak traced memory {peak / 2**20:.0f} MiB, max resident {rss:.0f} MiB; target <= 500 MB: "
              f"{'met' if max(peak / 1e6, rss * 2**20 / 1e6) <= 500 else 'MISSED'}")
        refuse_million(Path(tmp))


if __name__ == "__main__":
    main()
