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
its peak throughput is "Max KB/sec" (KB = 1,000 bytes, the file's MB/s being 10^6 bytes) split the same way.
Live Optics' public pages found (the Optical Prime articles above, searched again for review 57 #9) do not state
the KB's size; vSphere's disk rate counters, which Optical Prime reads, are in "kiloBytesPerSecond" (vSphere Web
Services API, "Virtual Disk Counters"), and the sample file's rounded per-direction MB/s fit 1,024 bytes slightly
better: the unit taken is said in the import's note, with what 1,024 bytes would give (2.4 % more).

The per-direction peaks bound that split: at the moment of the combined peak no direction runs above its own
highest rate, so reads lie in [Peak IOPS - Peak Write IOPS, Peak Read IOPS] and writes in [Peak IOPS - Peak Read
IOPS, Peak Write IOPS] (MB/s alike, widened by a whole unit for the file's rounded MB/s columns). The average-ratio
point is moved to the nearest bound where it falls outside (the sample file's PHCLA105: 48% read on average would put
6,794 writes/s at its 13,066 IOPS peak, while its writes never exceeded 1,044/s: 12,022 reads and 1,044 writes
are taken), and each row so moved is flagged with a warning. Where the ratio cell is empty or unreadable (flagged),
the Peak IOPS is split in proportion to the per-direction peaks (always within the bounds). Only where the file has
no "Peak IOPS" is the sum of the per-direction peaks taken, and a note says that it overstates the peak. Averages
are the per-direction average columns (an average of sums is the sum of averages)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from models.importers.inventory import (
    Host,
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
    flag_text,
    number,
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
UNITS = {"latency": "ms"}
"""A cell's unit said after a refused number where the limit's words do not give it ("470,000,000,000,000 ms is
above an hour"; IOPS and MB/s limits carry their unit)."""

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


IOPS_SLACK = 0.0
"""The per-direction peak IOPS bound the split as the file states them."""
MBPS_SLACK = 1.0
"""The file's per-direction MB/s are whole numbers: a whole unit is allowed before a bound applies (a split moved by
less than its rounding says nothing)."""


def bounded_split(total: float, share: float | None, peak_read: float | None, peak_write: float | None,
                  slack: float = IOPS_SLACK) -> tuple[float, float, str] | None:
    """A machine's peak ``total`` split into (reads, writes, how), reads within what its per-direction peaks allow.

    At the combined peak no direction runs above its own highest rate: reads >= total - ``peak_write`` and reads
    <= ``peak_read`` (each widened by ``slack``; a bound whose column is missing is not applied). The split starts
    at ``share`` (the machine's average read share) and is moved to the nearest bound when it falls outside.
    Without a share it is proportional to the per-direction peaks (within the bounds whenever the columns agree).

    Returns:
        (reads, writes, how): how is "ratio" (the average-ratio point, within the bounds), "bounded" (moved to a
        bound), "proportional" (no share: split by the per-direction peaks) or "unbounded" (the bounds contradict
        each other, total above their sum or below either: the average-ratio point is kept); None when there is
        neither a share nor both per-direction peaks to split by.
    """
    how = "ratio"
    if share is None:
        if peak_read is None or peak_write is None or peak_read + peak_write <= 0:
            return None
        share, how = peak_read / (peak_read + peak_write), "proportional"
    lo = 0.0 if peak_write is None else max(0.0, total - peak_write - slack)
    hi = total if peak_read is None else min(total, peak_read + slack)
    reads = total * share
    if lo > hi:
        return reads, total - reads, "unbounded"
    bounded = min(max(reads, lo), hi)
    if how == "ratio" and bounded != reads:
        how = "bounded"
    return bounded, total - bounded, how


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
            key=text(cell(row, c_id)) or name, line=line, name=name, cluster=text(cell(row, c_clu)),
            host=text(cell(row, c_host)), datastore=text(cell(row, c_ds)),
            powered_on=None if not power else power == "poweredon",
            vcpus=cpus,
            memory_bytes=bytes_of(row, c_mem, MIB, vms, line, flags),
            provisioned_bytes=bytes_of(row, c_prov, MIB, vms, line, flags),
            used_bytes=bytes_of(row, c_used, MIB, vms, line, flags),
            unshared_bytes=bytes_of(row, c_unsh, MIB, vms, line, flags),
            guest_used_bytes=bytes_of(row, c_guest, MIB, vms, line, flags),
            os=text(cell(row, c_os)), template=text(cell(row, c_tpl)).casefold() == "true"))

    where: list[tuple[str, str]] = [(key, f"sheet {vms.name!r} column {vms.label(k)!r}") for key, k in
                                    (("used", c_used), ("provisioned", c_prov), ("guest_used", c_guest))
                                    if k is not None]
    _guest_notes(vms, rows, c_prov, c_used, c_guest, flags, notes)
    perf: dict[str, tuple[PerfFigures, ...]] = {}
    perf_name = book.find("VM Performance")
    if perf_name is None:
        notes.append("no sheet 'VM Performance': the machines have no performance figures")
    else:
        perf = _performance(book.sheet(perf_name, ("VM Name", "MOB ID")), flags, notes, where)
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
        r.pop("line")
        figures = perf.get(key, perf.get(r["name"], ()))
        machines.append(Machine(**r, perf=figures, tags=tuple(tags.get(r["name"], ()))))
    missing = sum(1 for m in machines if not m.perf)
    if perf_name is not None and missing:
        notes.append(f"{missing} machine(s) have no row in sheet VM Performance")
    return Inventory("liveoptics", path.name, version=version, collected=collected, machines=tuple(machines),
                     flags=tuple(sorted(flags, key=lambda f: (f.sheet, f.row))), notes=tuple(notes),
                     hosts=_hosts(book, flags), columns=tuple(where))


TIB = 2**40


def _guest_notes(vms: Sheet, rows: list[dict[str, Any]], c_prov: int | None, c_used: int | None,
                 c_guest: int | None, flags: list[ImportFlag], notes: list[str]) -> None:
    """What the used capacity is (review 57 #2): the virtual disks' space on the datastore ('Virtual Disk Used'),
    beside what the guests' file systems hold ('Guest VM Disk Used'), both named with their columns; a machine whose
    guest holds more than its virtual disks' size (occupancy above 100 %) is flagged."""
    if c_used is None or c_guest is None:
        return
    used = sum(r["used_bytes"] or 0 for r in rows)
    guest = [r["guest_used_bytes"] for r in rows if r["guest_used_bytes"] is not None]
    if not guest:
        return
    notes.append(f"used capacity is sheet {vms.name} {vms.label(c_used)!r}, the virtual disks' space on the "
                 f"datastore ({used / TIB:,.2f} TiB, sized); the guests' file systems hold {sum(guest) / TIB:,.2f} "
                 f"TiB ({vms.label(c_guest)!r}, {len(guest)} of {len(rows)} machine(s)), not sized: thick or "
                 "fully written disks hold more than their guests use")
    if c_prov is None:
        return
    over = [r for r in rows if r["guest_used_bytes"] is not None and r["provisioned_bytes"]
            and r["guest_used_bytes"] > r["provisioned_bytes"]]
    for r in over:
        flags.append(ImportFlag(vms.file, vms.name, r["line"], vms.label(c_guest), f"guest occupancy "
                                f"{100 * r['guest_used_bytes'] / r['provisioned_bytes']:,.1f} %: the guest's file "
                                f"systems hold {r['guest_used_bytes'] / MIB:,.0f} MiB, its virtual disks "
                                f"{r['provisioned_bytes'] / MIB:,.0f} MiB ({vms.label(c_prov)!r}): storage outside "
                                "its virtual disks (raw device mappings, in-guest iSCSI or NFS) or a stale figure; "
                                "the virtual disks are sized", refused=False))
    if over:
        notes.append(f"{len(over)} machine(s) with a guest occupancy above 100 % (see the warnings)")


def _hosts(book: Any, flags: list[ImportFlag]) -> tuple[Host, ...]:
    """The hosts of sheets ESX Hosts ("Guest VM Count": the machines each runs) and ESX Performance (its "Peak
    IOPS"), joined by host name; empty without either sheet."""
    found: dict[str, dict[str, Any]] = {}
    hosts_name = book.find("ESX Hosts")
    if hosts_name is not None:
        s = book.sheet(hosts_name, ("Host Name", "Host"))
        c_name, c_clu = s.col("Host Name", "Host"), s.col("Cluster")
        c_vms = s.col("Guest VM Count", "VM Count")
        for line, row in s.rows:
            name = text(cell(row, c_name))
            if name:
                entry = found.setdefault(name, {"cluster": text(cell(row, c_clu))})
                entry["machines"] = count_of(row, c_vms, s, line, flags, 100_000)
    perf_name = book.find("ESX Performance")
    if perf_name is not None:
        s = book.sheet(perf_name, ("Host", "Host Name"))
        c_name, c_clu, c_peak = s.col("Host", "Host Name"), s.col("Cluster"), s.col("Peak IOPS")
        for line, row in s.rows:
            name = text(cell(row, c_name))
            if name:
                entry = found.setdefault(name, {"cluster": text(cell(row, c_clu))})
                entry["peak_iops"] = checked_number(row, c_peak, s, line, flags, *LIMITS["iops"])
    return tuple(Host(name, e.get("cluster", ""), e.get("machines"), None, e.get("peak_iops"))
                 for name, e in found.items())


def _performance(sheet: Sheet, flags: list[ImportFlag], notes: list[str],
                 where: list[tuple[str, str]] | None = None) -> dict[str, tuple[PerfFigures, ...]]:
    """PerfFigures per machine (keyed by MOB ID and by name) from sheet VM Performance; ``where`` gets where the
    peak's figures come from (``Inventory.columns``)."""
    c_name, c_id = sheet.col("VM Name"), sheet.col("MOB ID")
    cols = _perf_columns(sheet)
    c_ratio = sheet.col("Avg Read/Write Ratio", "Average Read/Write Ratio")
    stats: list[Statistic] = [s for s in ("average", "p95", "peak") if any(k[0] == s for k in cols)]
    c_kb = sheet.col("Max KB/sec", "Peak KB/sec")
    c_peak = cols.get(("peak", "", "iops"))
    if where is not None and c_peak is not None:  # review 57 #5: the peak's figures, named
        at = f"sheet {sheet.name!r} column"
        where.append(("iops", f"{at} {sheet.label(c_peak)!r}"))
        if c_kb is not None:
            where.append(("mbps", f"{at} {sheet.label(c_kb)!r} / 1,000"))
        if c_ratio is not None:
            bounds = [sheet.label(cols[k]) for k in (("peak", "read", "iops"), ("peak", "write", "iops")) if k in cols]
            where.append(("read", f"{at} {sheet.label(c_ratio)!r}" + (
                f" within {' and '.join(repr(b) for b in bounds)}" if bounds else "")))
    if c_peak is None and "peak" in stats:  # review 57 #4: a missing header is a flag on the preview, not a note
        flags.append(ImportFlag(sheet.file, sheet.name, sheet.header_row, "Peak IOPS", "no column 'Peak IOPS': "
                                "every machine's peak is taken as Peak Read IOPS + Peak Write IOPS and its MB/s as "
                                "Peak Read MB/s + Peak Write MB/s (in place of 'Max KB/sec'), each direction's "
                                "highest at its own moment: above the machines' real peaks", refused=False))
    split_used = peak_used = False
    bounded: list[str] = []
    proportional: list[str] = []
    summed: list[str] = []
    out: dict[str, tuple[PerfFigures, ...]] = {}
    for line, row in sheet.rows:
        figures = []
        name = text(cell(row, c_name)) or text(cell(row, c_id)) or f"row {line}"
        share = _ratio(cell(row, c_ratio))
        raw_ratio = text(cell(row, c_ratio))
        if share is None and raw_ratio:
            flags.append(sheet.flag(line, c_ratio, f"{flag_text(raw_ratio)!r} is not a read/write ratio such as "
                                    "'56% / 44%': left out (the peak is split by the per-direction peaks, the "
                                    "averages by their own columns)"))
        for stat in stats:
            v: dict[str, float | None] = {}
            for d in ("read", "write"):
                for kind, short in (("iops", "iops"), ("mbps", "mbps"), ("latency", "lat")):
                    v[f"{d}_{short}"] = checked_number(row, cols.get((stat, d, kind)), sheet, line, flags,
                                                       *LIMITS[kind], unit=UNITS.get(kind, ""))
            total = checked_number(row, cols.get((stat, "", "iops")), sheet, line, flags, *LIMITS["iops"])
            moved: list[tuple[str, str]] = []  # (unit, what the bounds did)
            coincident = False
            if stat != "average" and total is not None:
                split = bounded_split(total, share, v["read_iops"], v["write_iops"])
                if split is not None:
                    coincident = peak_used = True
                    if split[2] in ("bounded", "unbounded") and share is not None:
                        moved.append(("IOPS", _moved_words(split, total, share, v["read_iops"], v["write_iops"],
                                                           "IOPS")))
                    elif share is None and stat == "peak":
                        proportional.append(name)
                    v["read_iops"], v["write_iops"] = split[0], split[1]
            elif v["read_iops"] is None and v["write_iops"] is None and total is not None and share is not None:
                v["read_iops"], v["write_iops"] = total * share, total * (1 - share)
                split_used = True
            if stat == "peak" and total is None and v["read_iops"] is not None and v["write_iops"] is not None:
                summed.append(name)
                if c_peak is not None:  # review 57 #4: an empty or refused Peak IOPS: the figures it changes
                    _summed_flags(sheet, line, row, cols, c_kb, v, flags)
            kb = checked_number(row, c_kb, sheet, line, flags, MAX_MBPS * 1000, "10,000,000 MB/s") \
                if stat == "peak" and coincident else None
            mb_split: tuple[float, float, str] | None = None
            if kb is not None:
                mb_split = bounded_split(kb / 1000, share, v["read_mbps"], v["write_mbps"], MBPS_SLACK)
                if mb_split is None:  # no ratio and no per-direction MB/s to split by
                    v["read_mbps"] = v["write_mbps"] = None
                else:
                    if mb_split[2] in ("bounded", "unbounded") and share is not None:
                        moved.append(("MB/s", _moved_words(mb_split, kb / 1000, share, v["read_mbps"],
                                                           v["write_mbps"], "MB/s")))
                    v["read_mbps"], v["write_mbps"] = mb_split[0], mb_split[1]
                if total is not None and total * MIN_IO_BYTES > (kb + 0.5) * 1000:
                    flags.append(sheet.flag(line, cols.get((stat, "", "iops")), f"{total:g} IOPS is more than "
                                            f"{kb:g} KB/s allows at {MIN_IO_BYTES}-byte I/Os: left out"))
                    v["read_iops"] = v["write_iops"] = None
                    moved = [m for m in moved if m[0] != "IOPS"]  # the IOPS are left out: nothing was split
            if moved:
                bounded.append(name)
                if len(moved) == 2:  # the MB/s said briefly after the IOPS
                    assert mb_split is not None and kb is not None
                    moved[1] = ("MB/s", f"MB/s alike: {mb_split[0]:,.1f} read and {mb_split[1]:,.1f} written of "
                                        f"{kb / 1000:,.1f} MB/s")
                flags.append(sheet.flag(line, cols.get((stat, "", "iops")),
                                        f"{stat} mix: " + "; ".join(words for _, words in moved), refused=False))
            for d in ("read", "write"):
                iops, mbps = v[d + "_iops"], v[d + "_mbps"]
                if iops is not None and mbps is not None and iops * MIN_IO_BYTES > (mbps + 0.5) * 1e6:
                    k = cols.get((stat, d, "iops"))
                    flags.append(sheet.flag(line, k, f"{iops:g} {d} IOPS is more than {mbps:g} MB/s allows at "
                                            f"{MIN_IO_BYTES}-byte I/Os: left out"))
                    v[d + "_iops"] = None
            overall = checked_number(row, cols.get((stat, "", "latency")), sheet, line, flags, *LIMITS["latency"],
                                     unit="ms")
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
                     "ratio (the file gives no mix at the peak), within what its Peak Read and Peak Write figures "
                     "allow at that moment")
        if c_kb is not None:  # review 57 #9: the unit is not confirmed by Live Optics: say the one taken
            notes.append(f"'{sheet.header[c_kb]}' read as KB of 1,000 bytes (MB/s = KB/sec / 1,000, as the file's "
                         "MB/s columns); Live Optics' documentation does not state the KB's size: if it is 1,024 "
                         "bytes (vSphere's kiloBytesPerSecond counters), the peak MB/s and I/O sizes are 2.4 % "
                         "higher")
    if bounded:
        notes.append(f"{len(bounded)} machine(s) ({_some(bounded)}): the average read/write ratio gives a mix at "
                     "the peak that the file's per-direction peaks rule out: moved to the nearest mix they allow "
                     "(see the warnings)")
    if proportional:
        notes.append(f"{len(proportional)} machine(s) ({_some(proportional)}) without a usable read/write ratio: "
                     "the Peak IOPS is split in proportion to Peak Read IOPS and Peak Write IOPS")
    if summed:
        notes.append(f"{len(summed)} machine(s) ({_some(summed)}) without a Peak IOPS: their peak is Peak Read IOPS "
                     "+ Peak Write IOPS, each direction's highest at its own moment; the sum overstates the "
                     "machine's coincident peak")
    if split_used:
        notes.append("where a statistic gives total IOPS only, read and write IOPS are split by the file's average "
                     "read/write ratio")
    if not stats:
        notes.append("sheet VM Performance has no IOPS, MB/s or latency columns: no performance figures")
    return out


def _summed_flags(sheet: Sheet, line: int, row: Any, cols: dict[tuple[Statistic, str, str], int], c_kb: int | None,
                  v: dict[str, float | None], flags: list[ImportFlag]) -> None:
    """Warnings for a row whose Peak IOPS cell is empty or refused: its peak IOPS, and its peak MB/s where the
    row's Max KB/sec is left unused, are the per-direction peaks' sums (each figure flagged with its column)."""
    reads, writes = v["read_iops"], v["write_iops"]
    assert reads is not None and writes is not None
    flags.append(sheet.flag(line, cols.get(("peak", "", "iops")), f"peak IOPS taken as 'Peak Read IOPS' + 'Peak "
                            f"Write IOPS' instead: {reads:,.0f} + {writes:,.0f} = {reads + writes:,.0f} IOPS (each "
                            "direction's highest at its own moment: above the machine's peak)", refused=False))
    kb = number(cell(row, c_kb))
    if isinstance(kb, float) and v["read_mbps"] is not None and v["write_mbps"] is not None:
        rm, wm = v["read_mbps"], v["write_mbps"]
        flags.append(sheet.flag(line, c_kb, f"not used without a Peak IOPS ({kb / 1000:,.1f} MB/s): peak MB/s "
                                f"taken as 'Peak Read MB/s' + 'Peak Write MB/s' instead: {rm:,.1f} + {wm:,.1f} = "
                                f"{rm + wm:,.1f} MB/s", refused=False))


def _some(names: list[str], shown: int = 3) -> str:
    """The first ``shown`` names, "and N more" beyond."""
    more = f" and {len(names) - shown} more" if len(names) > shown else ""
    return ", ".join(names[:shown]) + more


def _moved_words(split: tuple[float, float, str], total: float, share: float, peak_read: float | None,
                 peak_write: float | None, unit: str) -> str:
    """What a bounded split did, in words, for the row's warning."""
    reads, writes, how = split
    fmt = (lambda x: f"{x:,.0f}") if unit == "IOPS" else (lambda x: f"{x:,.1f}")
    given = (f"Peak Read {fmt(peak_read) if peak_read is not None else 'not given'}, Peak Write "
             f"{fmt(peak_write) if peak_write is not None else 'not given'}")
    if how == "unbounded":
        return (f"{fmt(total)} {unit} is outside what the per-direction peaks allow ({given}): split by the "
                f"average ratio {share:.0%} read, unbounded")
    return (f"the average ratio ({share:.0%} read) would put {fmt(total * share)} reads and "
            f"{fmt(total * (1 - share))} writes in {fmt(total)} {unit}, beyond the per-direction peaks ({given}): "
            f"{fmt(reads)} reads and {fmt(writes)} writes taken")
