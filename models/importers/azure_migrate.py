"""Azure Migrate Export Core Report (Microsoft's Azure Migrate Export utility, AzureMigrate_Assessment_Core_Report
.xlsx): the machines of sheet All_VM_IaaS_Server_Rehost_Perf (one header row; columns found by name).

What the sheet gives per machine: cores, memory ("Memory (in MB)", mebibytes as VMware reports them), storage
("Storage (in GB)", read as GiB, the unit VMware disk sizes and Azure managed disks use), the operating system, the
VM host, environment and group (sheet SQL_All_Instances' per-instance disk I/O is not used: :data:`SQL_SHEET`).
Disk read / write operations per second and MB per second are read when the sheet has them ("Disk Read (in OPS)",
"Disk Write (in OPS)", "Disk Read (in MBPS)", "Disk Write (in MBPS)", the names the utility gives them on its SQL
sheets); the Export utility's own machine sheet (its version of 2024) carries
none, and the inventory's notes say so. Which statistic they are follows the header's words ("Peak", "Average",
"P95"); without one they are the assessment's percentile utilisation, the 95th percentile by default (Microsoft,
"Assessment overview (migrate to Azure VMs)", Azure Migrate documentation, section "Performance-based
assessments"), and the notes say so."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from models.importers.inventory import ImportFlag, Inventory, Machine, PerfFigures, Statistic
from models.importers.workbook import (
    MACHINE_SHEET_ROWS,
    Sheet,
    bytes_of,
    cell,
    check_count,
    checked_number,
    count_of,
    number,
    open_workbook,
    text,
)

SHEET = "All_VM_IaaS_Server_Rehost_Perf"
"""The Core Report's sheet of every machine, sized on performance."""
SQL_SHEET = "SQL_All_Instances"
"""The Core Report's sheet of SQL Server instances: its disk I/O is per instance, not per machine, and is not used
(the inventory's notes say what it holds and why)."""
MIB, GIB = 2**20, 2**30
MAX_IOPS, MAX_MBPS = 1e9, 1e7
LIMITS = {"iops": (MAX_IOPS, "1,000,000,000 IOPS"), "mbps": (MAX_MBPS, "10,000,000 MB/s")}
"""An I/O rate cell's ceiling and its words (:func:`models.importers.workbook.checked_number`)."""
MIN_IO_BYTES = 512

_IO = {
    ("read", "iops"): ("Disk Read (in OPS)", "Disk Read Ops/Sec", "Disk Read (OPS)", "Disk Read IOPS"),
    ("write", "iops"): ("Disk Write (in OPS)", "Disk Write Ops/Sec", "Disk Write (OPS)", "Disk Write IOPS"),
    ("read", "mbps"): ("Disk Read (in MBPS)", "Disk Read MBPS", "Disk Read (MBPS)", "Disk Read MB/s"),
    ("write", "mbps"): ("Disk Write (in MBPS)", "Disk Write MBPS", "Disk Write (MBPS)", "Disk Write MB/s"),
}


def _statistic(headers: list[str]) -> tuple[Statistic, str]:
    """The statistic the I/O headers name, and how it was decided (words for the notes)."""
    words = " ".join(headers).casefold()
    if "peak" in words or "max" in words:
        return "peak", "the headers say peak"
    if "average" in words or "avg" in words:
        return "average", "the headers say average"
    return "p95", ("the headers name no statistic: read as the assessment's percentile utilisation, the 95th "
                   "percentile by Azure Migrate's default")


def read_azure_migrate(path: Path) -> Inventory:
    """The machines of an Azure Migrate Export Core Report.

    Args:
        path: the xlsx workbook.

    Returns:
        An :class:`Inventory` of source "azure-migrate": one machine per row of sheet All_VM_IaaS_Server_Rehost_Perf
        with cores, memory and provisioned storage (bytes), host, operating system and tags ("Environment=...",
        "Group Name=..."); disk I/O figures when the sheet has them (see the module's notes); flags for every
        refused value.

    Raises:
        InventoryError: no sheet All_VM_IaaS_Server_Rehost_Perf, no column Machine Name or Storage (in GB) (named
            in the message), or a file refused by the bounded reader (too large, a zip bomb, damaged).
    """
    path = Path(path)
    book = open_workbook(path)
    try:
        name = book.find(SHEET)
        if name is None:
            raise book.missing(SHEET)
        inventory = _read(path, book.sheet(name, ("Machine Name",), MACHINE_SHEET_ROWS))
        sql = book.find(SQL_SHEET)
        if sql is None:
            return inventory
        note = _sql_note(book.sheet(sql, ("Machine Name",)))
        return replace(inventory, notes=(*inventory.notes, note)) if note else inventory
    finally:
        book.close()


def _sql_note(sheet: Sheet) -> str:
    """Why sheet SQL_All_Instances' disk I/O is not used, with what it holds ("" when it has no such columns)."""
    io = {key: sheet.col(*aliases) for key, aliases in _IO.items()}
    if io[("read", "iops")] is None and io[("write", "iops")] is None:
        return ""
    c_machine = sheet.col("Machine Name")
    totals = {"read": 0.0, "write": 0.0}
    instances = 0
    machines: set[str] = set()
    for _, row in sheet.rows:
        values = {d: number(cell(row, io[(d, "iops")])) for d in totals}
        if not any(isinstance(v, float) for v in values.values()):
            continue
        instances += 1
        machines.add(text(cell(row, c_machine)))
        for d, v in values.items():
            if isinstance(v, float) and v >= 0:
                totals[d] += v
    if not instances:
        return ""
    return (f"sheet {sheet.name} gives disk I/O for {instances:,} SQL Server instance(s) on {len(machines):,} "
            f"machine(s) ({totals['read']:,.0f} read and {totals['write']:,.0f} write operations per second in "
            "all): not used, as an instance's disk I/O is only part of its machine's and the other machines have "
            "none; give the machines' measured I/O (a Live Optics export, for example) to size for load")


def _read(path: Path, sheet: Sheet) -> Inventory:
    """The inventory from the machine sheet."""
    flags: list[ImportFlag] = []
    notes = ["Storage (in GB) read as GiB (2^30 bytes); Memory (in MB) as MiB"]
    c_name = sheet.need("Machine Name")
    c_store = sheet.need("Storage (in GB)", "Storage (GB)")
    c_cores, c_mem = sheet.col("Cores"), sheet.col("Memory (in MB)", "Memory (MB)")
    c_os, c_host = sheet.col("Operating System"), sheet.col("VM Host")
    tag_cols = [k for k in (sheet.col("Environment"), sheet.col("Group Name")) if k is not None]
    io = {key: sheet.col(*aliases) for key, aliases in _IO.items()}
    found = [sheet.label(k) for k in io.values() if k is not None]
    stat: Statistic = "p95"
    if found:
        stat, why = _statistic(found)
        notes.append(f"disk I/O from columns {', '.join(found)}: {why}")
    else:
        notes.append(f"sheet {sheet.name} has no disk read / write operations or MB per second columns: the machines "
                     "have no performance figures")
    machines: list[Machine] = []
    for line, row in sheet.rows:
        name = text(cell(row, c_name))
        if not name:
            flags.append(sheet.flag(line, c_name, "no machine name: row left out"))
            continue
        check_count(sheet, len(machines))
        cores = count_of(row, c_cores, sheet, line, flags)
        perf: tuple[PerfFigures, ...] = ()
        if found:
            v = {key: checked_number(row, k, sheet, line, flags, *LIMITS[key[1]]) for key, k in io.items()}
            for d in ("read", "write"):
                iops, mbps = v[(d, "iops")], v[(d, "mbps")]
                if iops is not None and mbps is not None and iops * MIN_IO_BYTES > (mbps + 0.005) * 1e6:
                    flags.append(sheet.flag(line, io[(d, "iops")], f"{iops:g} {d} operations per second is more than "
                                            f"{mbps:g} MB/s allows at {MIN_IO_BYTES}-byte I/Os: left out"))
                    v[(d, "iops")] = None
            perf = (PerfFigures(stat, v[("read", "iops")], v[("write", "iops")], v[("read", "mbps")],
                                v[("write", "mbps")]),)
        machines.append(Machine(
            name=name, host=text(cell(row, c_host)), os=text(cell(row, c_os)),
            vcpus=cores,
            memory_bytes=bytes_of(row, c_mem, MIB, sheet, line, flags),
            provisioned_bytes=bytes_of(row, c_store, GIB, sheet, line, flags),
            tags=tuple(f"{sheet.label(k)}={text(cell(row, k))[:200]}" for k in tag_cols if text(cell(row, k))),
            perf=perf))
    return Inventory("azure-migrate", path.name, machines=tuple(machines), flags=tuple(flags), notes=tuple(notes),
                     columns=(("provisioned", f"sheet {sheet.name!r} column {sheet.label(c_store)!r} (GB read as "
                                              "GiB)"),))
