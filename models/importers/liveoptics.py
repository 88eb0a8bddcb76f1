"""Live Optics (Optical Prime, VMware collector) xlsx exports: sheets VMs, VM Performance, VM Disks, ESX Hosts,
ESX Performance, Custom Attributes as present.

Columns are found by name: sizes labelled "(MB)" in older exports and "(MiB)" in newer ones, both mebibytes (the
VMs sheet's "Provisioned Memory (MB)" is its "(Bytes)" column divided by 2^20); performance columns by their words
("Peak" / "Avg" / "P95", "Read" / "Write", "IOPS" / "MB/s" / "Latency"), latencies in milliseconds (the columns carry
no unit). Refused values are flagged per row and left out, never averaged in: negative or not finite numbers,
latencies above an hour (real files hold values up to 4.7e14), and IOPS above what the same row's throughput allows
at a 512-byte I/O (the file's MB/s are rounded: half a unit is allowed).

Peaks are taken as the file states them for the machine as a whole. Optical Prime measures a machine's IOPS per
sample as its read I/Os plus its write I/Os per second and derives summary points such as "Peak IOPS" from those
samples (Live Optics, "Live Optics Basics: IOPS", https://support.liveoptics.com/hc/en-us/articles/229590507 ;
"VMware Guest VM Performance", https://support.liveoptics.com/hc/en-us/articles/360048929974 ; the workbook's
glossary, "Optical Prime VMware Excel Field Definitions", linked from its Details sheet). "Peak IOPS" is therefore
the machine's highest combined rate, while "Peak Read IOPS" and "Peak Write IOPS" are each the highest of their
own series, usually at different moments: their sum overstates the peak (sample file: 34,256 against the file's
31,940 IOPS) and their ratio is not the mix at the peak. So a machine's peak is its "Peak IOPS", split into reads
and writes by its "Avg Read/Write Ratio" (the file gives no mix at the peak: the measured average mix is assumed);
its peak throughput is "Max KB/sec" (KB = 1,000 bytes, the file's MB/s being 10^6 bytes) split the same way. The
per-direction peak columns are used only where the file has no "Peak IOPS" or no ratio. Averages are the
per-direction average columns (an average of sums is the sum of averages)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from models.importers.inventory import (
    ImportFlag,
    Inventory,
    Machine,
    PerfFigures,
    Statistic,
)
from models.importers.workbook import (
    MACHINE_SHEET_ROWS,
    Sheet,
    bytes_of,
    cell,
    check_count,
    checked_number,
    count_of,
    open_workbook,
    text,
)

MIB = 2**20
HOUR_MS = 3_600_000.0
"""Latencies above an hour (ms) are refused."""
MIN_IO_BYTES = 512
"""The smallest I/O: a row's IOPS above its throughput / 512 bytes is refused."""
MAX_IOPS = 1e9
MAX_MBPS = 1e7
LIMITS = {"iops": (MAX_IOPS, "1,000,000,000 IOPS"), "mbps": (MAX_MBPS, "10,000,000 MB/s"),
          "latency": (HOUR_MS, "an hour")}
"""A performance cell's ceiling and its words (:func:`models.importers.workbook.checked_number`)."""

_STAT_WORDS: dict[Statistic, tuple[str, ...]] = {
    "peak": ("peak", "max", "maximum"),
    "average": ("avg", "average", "mean"),
    "p95": ("p95", "95th", "95%", "95th percentile", "95 percentile"),
}
_RATIO = re.compile(r"^\s*(\d+(?:\.\d+)?)\s*%\s*/\s*(\d+(?:\.\d+)?)\s*%\s*$")


def _perf_columns(sheet: Sheet) -> dict[tuple[Statistic, str, str], int]:
    """Performance columns by (statistic, "read" / "write" / "", measure "iops" / "mbps" / "latency")."""
    out: dict[tuple[Statistic, str, str], int] = {}
    for k, h in enumerate(sheet.header):
        words = re.sub(r"[()\[\]]", " ", h.casefold()).replace("mb/s", " mbps ").replace("mb/sec", " mbps ").split()
        if not words:
            continue
        stat = next((s for s, ws in _STAT_WORDS.items() if words[0] in ws
                     or " ".join(words[:2]) in ws), None)
        if stat is None:
            continue
        rest = set(words[1:])
        measure = ("iops" if "iops" in rest else "mbps" if "mbps" in rest else
                   "latency" if "latency" in rest else "")
        if not measure:
            continue
        direction = "read" if "read" in rest else "write" if "write" in rest else ""
        if "ratio" in rest:
            continue
        out.setdefault((stat, direction, measure), k)
    return out


def _ratio(value: object) -> float | None:
    """The read share of an "Avg Read/Write Ratio" cell such as "56% / 44%" (None: empty or not that shape)."""
    m = _RATIO.match(text(value))
    if not m:
        return None
    r, w = float(m.group(1)), float(m.group(2))
    return r / (r + w) if r + w > 0 else None


def read_liveoptics(path: Path) -> Inventory:
    """The machines of a Live Optics (Optical Prime) VMware export, with their performance summaries.

    Args:
        path: the xlsx workbook.

    Returns:
        An :class:`Inventory` of source "liveoptics": one machine per row of sheet VMs, with vCPUs, memory, virtual
        disk size (provisioned) and used, unshared, guest used (bytes from MiB); per machine :class:`PerfFigures`
        "average" and "peak" (and "p95" when the file has such columns) from sheet VM Performance, joined by MOB ID
        (else by name): read / write IOPS, MB/s, latency (ms; ``latency_ms`` is the file's "Peak Latency" for peak,
        the IOPS-weighted mean of read and write latency otherwise). Flags for every refused value.

    Raises:
        InventoryError: not a workbook, no sheet VMs or no column VM Name (named in the message), or a file refused
            by the bounded reader (too large, a zip bomb, damaged).
    """
    path = Path(path)
    book = open_workbook(path)
    try:
        return _read(path, book)
    finally:
        book.close()


def _read(path: Path, book: Any) -> Inventory:
    """The inventory from an opened workbook."""
    flags: list[ImportFlag] = []
    notes = ["Live Optics sizes labelled MB or MiB read as mebibytes (2^20 bytes); latencies in milliseconds"]
    version = collected = ""
    details = book.find("Details")
    if details is not None:
        d = book.sheet(details)
        for _, row in d.rows:
            if text(cell(row, 0)).casefold() == "collector build version":
                version = text(cell(row, 1))
            elif text(cell(row, 0)).casefold() == "date":
                collected = text(cell(row, 1))[:40]
    vms_name = book.find("VMs")
    if vms_name is None:
        raise book.missing("VMs")
    vms = book.sheet(vms_name, ("VM Name",), MACHINE_SHEET_ROWS)
    c_name = vms.need("VM Name")
    c_id = vms.col("MOB ID")
    c_pow, c_cpu = vms.col("Power State"), vms.col("Virtual CPU", "vCPU")
    c_mem = vms.col("Provisioned Memory (MiB)", "Provisioned Memory (MB)")
    c_prov = vms.col("Virtual Disk Size (MiB)", "Virtual Disk Size (MB)")
    c_used = vms.col("Virtual Disk Used (MiB)", "Virtual Disk Used (MB)")
    c_unsh = vms.col("Unshared (MiB)", "Unshared (MB)")
    c_guest = vms.col("Guest VM Disk Used (MiB)", "Guest VM Disk Used (MB)")
    c_clu, c_host, c_ds = vms.col("Cluster"), vms.col("Host"), vms.col("Datastore")
    c_os, c_tpl = vms.col("VM OS", "Guest OS"), vms.col("Template")
    if c_prov is None:
        notes.append("sheet VMs has no 'Virtual Disk Size (MiB)' column: provisioned capacity not given")
    rows: list[dict[str, Any]] = []
    for line, row in vms.rows:
        name = text(cell(row, c_name))
        if not name:
            flags.append(vms.flag(line, c_name, "no machine name: row left out"))
            continue
        check_count(vms, len(rows))
        cpus = count_of(row, c_cpu, vms, line, flags)
        power = text(cell(row, c_pow)).casefold()
        rows.append(dict(
            key=text(cell(row, c_id)) or name, name=name, cluster=text(cell(row, c_clu)),
            host=text(cell(row, c_host)), datastore=text(cell(row, c_ds)),
            powered_on=None if not power else power == "poweredon",
            vcpus=cpus,
            memory_bytes=bytes_of(row, c_mem, MIB, vms, line, flags),
            provisioned_bytes=bytes_of(row, c_prov, MIB, vms, line, flags),
            used_bytes=bytes_of(row, c_used, MIB, vms, line, flags),
            unshared_bytes=bytes_of(row, c_unsh, MIB, vms, line, flags),
            guest_used_bytes=bytes_of(row, c_guest, MIB, vms, line, flags),
            os=text(cell(row, c_os)), template=text(cell(row, c_tpl)).casefold() == "true"))

    perf: dict[str, tuple[PerfFigures, ...]] = {}
    perf_name = book.find("VM Performance")
    if perf_name is None:
        notes.append("no sheet 'VM Performance': the machines have no performance figures")
    else:
        perf = _performance(book.sheet(perf_name, ("VM Name", "MOB ID")), flags, notes)
    tags: dict[str, list[str]] = defaultdict(list)
    ca = book.find("Custom Attributes")
    if ca is not None:
        s = book.sheet(ca, ("Guest VM Name", "VM Name"))
        a_vm, a_key, a_val = s.col("Guest VM Name", "VM Name"), s.col("Custom Attribute"), s.col("Custom Content")
        for _, row in s.rows:
            if text(cell(row, a_vm)) and text(cell(row, a_key)) and len(tags[text(cell(row, a_vm))]) < 32:
                tags[text(cell(row, a_vm))].append(f"{text(cell(row, a_key))}={text(cell(row, a_val))[:200]}")
    machines = []
    for r in rows:
        key = r.pop("key")
        figures = perf.get(key, perf.get(r["name"], ()))
        machines.append(Machine(**r, perf=figures, tags=tuple(tags.get(r["name"], ()))))
    missing = sum(1 for m in machines if not m.perf)
    if perf_name is not None and missing:
        notes.append(f"{missing} machine(s) have no row in sheet VM Performance")
    return Inventory("liveoptics", path.name, version=version, collected=collected, machines=tuple(machines),
                     flags=tuple(sorted(flags, key=lambda f: (f.sheet, f.row))), notes=tuple(notes))


def _performance(sheet: Sheet, flags: list[ImportFlag], notes: list[str]) -> dict[str, tuple[PerfFigures, ...]]:
    """PerfFigures per machine (keyed by MOB ID and by name) from sheet VM Performance."""
    c_name, c_id = sheet.col("VM Name"), sheet.col("MOB ID")
    cols = _perf_columns(sheet)
    c_ratio = sheet.col("Avg Read/Write Ratio", "Average Read/Write Ratio")
    stats: list[Statistic] = [s for s in ("average", "p95", "peak") if any(k[0] == s for k in cols)]
    c_kb = sheet.col("Max KB/sec", "Peak KB/sec")
    split_used = peak_used = False
    out: dict[str, tuple[PerfFigures, ...]] = {}
    for line, row in sheet.rows:
        figures = []
        share = _ratio(cell(row, c_ratio))
        for stat in stats:
            v: dict[str, float | None] = {}
            for d in ("read", "write"):
                for kind, short in (("iops", "iops"), ("mbps", "mbps"), ("latency", "lat")):
                    v[f"{d}_{short}"] = checked_number(row, cols.get((stat, d, kind)), sheet, line, flags,
                                                       *LIMITS[kind])
            total = checked_number(row, cols.get((stat, "", "iops")), sheet, line, flags, *LIMITS["iops"])
            coincident = stat != "average" and total is not None and share is not None
            if coincident or (v["read_iops"] is None and v["write_iops"] is None and total is not None
                              and share is not None):
                assert total is not None and share is not None
                v["read_iops"], v["write_iops"] = total * share, total * (1 - share)
                if coincident:
                    peak_used = True
                else:
                    split_used = True
            kb = checked_number(row, c_kb, sheet, line, flags, MAX_MBPS * 1000, "10,000,000 MB/s") \
                if stat == "peak" and coincident else None
            if kb is not None and share is not None:
                v["read_mbps"], v["write_mbps"] = kb / 1000 * share, kb / 1000 * (1 - share)
                if total is not None and total * MIN_IO_BYTES > (kb + 0.5) * 1000:
                    flags.append(sheet.flag(line, cols.get((stat, "", "iops")), f"{total:g} IOPS is more than "
                                            f"{kb:g} KB/s allows at {MIN_IO_BYTES}-byte I/Os: left out"))
                    v["read_iops"] = v["write_iops"] = None
            for d in ("read", "write"):
                iops, mbps = v[d + "_iops"], v[d + "_mbps"]
                if iops is not None and mbps is not None and iops * MIN_IO_BYTES > (mbps + 0.5) * 1e6:
                    k = cols.get((stat, d, "iops"))
                    flags.append(sheet.flag(line, k, f"{iops:g} {d} IOPS is more than {mbps:g} MB/s allows at "
                                            f"{MIN_IO_BYTES}-byte I/Os: left out"))
                    v[d + "_iops"] = None
            overall = checked_number(row, cols.get((stat, "", "latency")), sheet, line, flags, *LIMITS["latency"])
            if overall is None and stat != "peak":
                weights = [(v[d + "_iops"], v[d + "_lat"]) for d in ("read", "write")]
                known = [(w, x) for w, x in weights if w is not None and x is not None]
                if known and sum(w for w, _ in known) > 0:
                    overall = sum(w * x for w, x in known) / sum(w for w, _ in known)
            elif overall is None:
                lats = [x for x in (v["read_lat"], v["write_lat"]) if x is not None]
                overall = max(lats) if lats else None
            figures.append(PerfFigures(stat, v["read_iops"], v["write_iops"], v["read_mbps"], v["write_mbps"],
                                       overall, v["read_lat"], v["write_lat"]))
        fig = tuple(figures)
        for key in (text(cell(row, c_id)), text(cell(row, c_name))):
            if key:
                out.setdefault(key, fig)
    if peak_used:
        notes.append("each machine's peak is the file's Peak IOPS (its highest combined read + write rate) and, "
                     "where given, Max KB/sec; split into reads and writes by the machine's average read/write "
                     "ratio (the file gives no mix at the peak)")
    if split_used:
        notes.append("where a statistic gives total IOPS only, read and write IOPS are split by the file's average "
                     "read/write ratio")
    if not stats:
        notes.append("sheet VM Performance has no IOPS, MB/s or latency columns: no performance figures")
    return out

