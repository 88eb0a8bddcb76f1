"""RVTools exports (Dell / Robware RVTools 4.0 to 4.7): the xlsx workbook (vInfo, vDisk, vPartition, vDatastore,
vHost, vCluster, vMetaData as present) or its CSV export (``RVTools.exe -c ExportAll2csv``: one file per tab, columns
named by internal names such as ``vInfoVMName``, ``vInfoProvisioned``; a folder of them or the vInfo file alone).

Columns are found by name with the aliases of every version (``Provisioned MB`` of 4.0.x is ``Provisioned MiB``
from 4.4; trailing spaces and case ignored), never by position; columns RVTools does not name itself (vCenter custom
attributes, columns a user inserted) become tags ``"<column>=<value>"``. RVTools' "MB" columns hold MiB (every disk
capacity of a 4.0.7 export is a multiple of 1024), converted with 2**20. RVTools carries no I/O performance: the
machines it gives have none.

A machine's used capacity is vInfo's "In Use MiB", the datastore's committed space for the machine: disks, snapshot
files, logs and configuration (VMware, vSphere API reference, ``vim.vm.StorageInfo.UsageOnDatastore.committed``).
Where that cell is empty (or the column absent), row by row: the guest file systems' consumed space from vPartition,
else the capacity of the machine's disks from vDisk (its provisioned size, an upper bound); its provisioned
capacity, where vInfo's cell is empty, is its vDisk capacity. Neither fallback counts snapshot files, so a machine
whose used capacity comes from one of them gets its vSnapshot sizes ("Size MiB (total)") added. The notes say how
many machines took each fallback, the snapshot total, and the datastore types vDatastore lists (vSAN, VMFS, NFS,
VVOL; a VMFS datastore mounted by one host is local)."""

from __future__ import annotations

import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from models.importers.inventory import Datastore, Disk, Host, ImportFlag, Inventory, InventoryError, Machine
from models.importers.workbook import (
    MACHINE_SHEET_ROWS,
    MAX_CSV_FILES,
    Sheet,
    Workbook,
    bytes_of,
    cell,
    check_count,
    count_of,
    csv_sheet,
    open_workbook,
    text,
)

MIB = 2**20
TIB = 2**40

VM = ("VM", "vInfoVMName")
POWER = ("Powerstate", "vInfoPowerstate")
TEMPLATE = ("Template", "vInfoTemplate")
CPUS = ("CPUs", "vInfoCPUs")
MEMORY = ("Memory", "Memory MiB", "Memory MB", "vInfoMemory")
PROVISIONED = ("Provisioned MiB", "Provisioned MB", "vInfoProvisioned")
IN_USE = ("In Use MiB", "In Use MB", "vInfoInUse")
UNSHARED = ("Unshared MiB", "Unshared MB", "vInfoUnshared")
CLUSTER = ("Cluster", "vInfoCluster")
HOST = ("Host", "vInfoHost")
OS = ("OS according to the configuration file", "OS according to the VMware Tools", "vInfoOS", "vInfoOSTools")
PATH = ("Path", "vInfoPath")
HOST_VMS_TOTAL = ("# VMs total", "vHostNumVMsTotal")
"""vHost: the machines registered on a host (powered on or off, templates included)."""
HOST_VMS_ON = ("# VMs", "vHostNumVMs")
"""vHost: the machines running on a host."""
TAG_COLUMNS = ("Folder", "Annotation", "vInfoFolder", "vInfoAnnotation")

KNOWN_VINFO = {c.casefold() for c in (
    "VM", "Powerstate", "Template", "SRM Placeholder", "Config status", "DNS Name", "Connection state", "Guest state",
    "Heartbeat", "Consolidation Needed", "PowerOn", "Suspended To Memory", "Suspend time", "Suspend Interval",
    "Creation date", "Change Version", "CPUs", "Overall Cpu Readiness", "Memory", "Active Memory", "NICs", "Disks",
    "Total disk capacity MiB", "Total disk capacity MB", "Fixed Passthru HotPlug", "min Required EVC Mode Key",
    "Latency Sensitivity", "Op Notification Timeout", "EnableUUID", "CBT", "Primary IP Address", "Network #1",
    "Network #2", "Network #3", "Network #4", "Network #5", "Network #6", "Network #7", "Network #8",
    "Num Monitors", "Video Ram KiB", "Video Ram KB", "Resource pool", "Folder ID", "Folder", "vApp",
    "DAS protection", "FT State", "FT Role", "FT Latency", "FT Bandwidth", "FT Sec. Latency",
    "Vm Failover In Progress", "Provisioned MiB", "Provisioned MB", "In Use MiB", "In Use MB", "Unshared MiB",
    "Unshared MB", "HA Restart Priority", "HA Isolation Response", "HA VM Monitoring", "Cluster rule(s)",
    "Cluster rule name(s)", "Boot Required", "Boot delay", "Boot retry delay", "Boot retry enabled",
    "Boot BIOS setup", "Reboot PowerOff", "EFI Secure boot", "Firmware", "HW version", "HW upgrade status",
    "HW upgrade policy", "HW target", "Path", "Log directory", "Snapshot directory", "Suspend directory",
    "Annotation", "Datacenter", "Cluster", "Host", "OS according to the configuration file",
    "OS according to the VMware Tools", "Customization Info", "Guest Detailed Data", "VM ID", "VM UUID",
    "SMBIOS UUID", "VI SDK Server type", "VI SDK API Version", "VI SDK Server", "VI SDK UUID", "NB Last Backup",
    "Sharing mode", "Instance UUID", "Object ID", "Tools", "Tools Version", "Used MB",
)}
"""vInfo columns RVTools names itself (4.0 to 4.7): any other column is a custom attribute or a user's own."""

_DATASTORE_IN_PATH = re.compile(r"^\s*\[([^\]]+)\]")
_TRUE = {"true", "yes", "1"}


def _bool(value: object) -> bool | None:
    """RVTools' True / False cells (bool or text); None when empty."""
    if isinstance(value, bool):
        return value
    s = text(value).casefold()
    return None if not s else s in _TRUE


class _Tables:
    """The tabs of one RVTools export, from a workbook or from CSV files, found by name."""

    def __init__(self, path: Path) -> None:
        self.file = path.name
        self.book: Workbook | None = None
        self.csv: dict[str, Path] = {}
        if path.is_dir():
            files = sorted(p for p in path.iterdir() if p.suffix.lower() == ".csv" and p.is_file())
            if len(files) > MAX_CSV_FILES:
                raise InventoryError(f"{path.name}: more than {MAX_CSV_FILES} CSV files in the folder: refused")
            for p in files:
                tab = self._tab_of(p)
                if tab:
                    self.csv.setdefault(tab, p)
            if "vinfo" not in self.csv:
                raise InventoryError(f"{path.name}: no RVTools vInfo CSV file in the folder (a file whose columns "
                                     "are named vInfoVMName, vInfoProvisioned, ...)")
            self.file = self.csv["vinfo"].name
        elif path.suffix.lower() in (".csv", ".txt"):
            tab = self._tab_of(path)
            if tab != "vinfo":
                raise InventoryError(f"{path.name}: not an RVTools vInfo CSV export (no column 'vInfoVMName' in its "
                                     "header)")
            self.csv["vinfo"] = path
        else:
            self.book = open_workbook(path)

    @staticmethod
    def _tab_of(path: Path) -> str:
        """The RVTools tab a CSV file holds, from its header's internal names ("vinfo", "vdisk", ... or "")."""
        sheet = csv_sheet(path)
        for tab in ("vInfo", "vDisk", "vPartition", "vDatastore", "vHost", "vCluster", "vMetaData"):
            if any(h.startswith(tab) for h in sheet.header):
                return tab.casefold()
        return ""

    def sheet(self, tab: str, key: tuple[str, ...], required: bool = False,
              max_rows: int | None = None) -> Sheet | None:
        """Tab ``tab`` (None when absent and not ``required``).

        Raises:
            InventoryError: ``required`` and absent, or unreadable.
        """
        if self.book is not None:
            name = self.book.find(tab)
            if name is None:
                if required:
                    raise self.book.missing(tab)
                return None
            return self.book.sheet(name, key, max_rows)
        p = self.csv.get(tab.casefold())
        if p is None:
            if required:
                raise InventoryError(f"{self.file}: no RVTools {tab} CSV file")
            return None
        sheet = csv_sheet(p, max_rows)
        sheet.name = tab
        return sheet

    def close(self) -> None:
        """Close the workbook, if one is open."""
        if self.book is not None:
            self.book.close()


def read_rvtools(path: Path) -> Inventory:
    """The machines of an RVTools export.

    Args:
        path: an RVTools xlsx workbook, one CSV export file of its vInfo tab, or a folder of its CSV export.

    Returns:
        An :class:`Inventory` of source "rvtools": one machine per vInfo row (templates included, ``template``
        True) with provisioned, in-use and unshared capacity (bytes, from MiB), vCPUs, memory (bytes), disks from
        vDisk, the guest file systems' consumed space from vPartition, tags from Folder, Annotation and custom
        attribute columns; datastores from vDatastore; flags for every value refused (negative, not a finite number,
        a formula, beyond 1 EB: left out, never summed in). No performance figures (RVTools has none).

    Raises:
        InventoryError: not an RVTools export (no vInfo tab), a needed column missing (VM, Provisioned MiB: named in
            the message with the file and the sheet), or a file refused by the bounded reader (too large, a zip
            bomb, damaged).
    """
    path = Path(path)
    tables = _Tables(path)
    try:
        return _read(tables)
    finally:
        tables.close()


def _read(tables: _Tables) -> Inventory:
    """The inventory from the tabs of one export."""
    flags: list[ImportFlag] = []
    notes: list[str] = ["RVTools' MB and MiB columns read as mebibytes (2^20 bytes)",
                        "RVTools carries no I/O performance: the machines have no performance figures"]
    version = ""
    meta = tables.sheet("vMetaData", ("RVTools version", "RVTools major version"))
    if meta is not None:
        k = meta.col("RVTools version", "vMetaDataRVToolsVersion", "RVTools major version")
        for _, row in meta.rows:
            version = text(cell(row, k))
            break

    info = tables.sheet("vInfo", VM, required=True, max_rows=MACHINE_SHEET_ROWS)
    assert info is not None
    c_vm = info.need(*VM)
    c_prov = info.need(*PROVISIONED)
    c_use, c_unsh = info.col(*IN_USE), info.col(*UNSHARED)
    c_pow, c_tpl, c_cpu, c_mem = info.col(*POWER), info.col(*TEMPLATE), info.col(*CPUS), info.col(*MEMORY)
    c_clu, c_host, c_path = info.col(*CLUSTER), info.col(*HOST), info.col(*PATH)
    c_os = info.col(*OS)
    tag_cols = [k for k in (info.col(t) for t in TAG_COLUMNS) if k is not None]
    # columns RVTools does not name are custom attributes or the user's own (CSV: internal names start "vInfo")
    tag_cols += [k for k, h in enumerate(info.header) if h and k not in tag_cols
                 and h.strip().casefold() not in KNOWN_VINFO and not h.startswith("vInfo")]
    rows: list[dict[str, Any]] = []
    no_use: set[int] = set()
    no_prov: set[int] = set()
    refused_at: dict[tuple[str, int], int] = {}
    """("use" / "prov", index of the row) -> its line, for a refused (not empty) In Use / Provisioned cell"""
    names: dict[str, int] = defaultdict(int)
    lines: list[int] = []  # each kept row's line in vInfo
    disk_info: list[tuple[int | None, int | None, str]] = []  # each row's vInfo 'Disks', its disks' bytes, column
    c_ndisks, c_tdc = info.col("Disks"), info.col("Total disk capacity MiB", "Total disk capacity MB")
    for line, row in info.rows:
        name = text(cell(row, c_vm))
        if not name:
            flags.append(info.flag(line, c_vm, "no machine name: row left out"))
            continue
        check_count(info, len(rows))
        lines.append(line)
        total_disks = bytes_of(row, c_tdc, MIB, info, line, flags)  # review 57 #8: vInfo's own disk figures
        disk_info.append((count_of(row, c_ndisks, info, line, flags) if c_ndisks is not None else None,
                          total_disks, f"{info.label(c_tdc)!r}" if c_tdc is not None else ""))
        names[name] += 1
        power = text(cell(row, c_pow)).casefold()
        path_ds = _DATASTORE_IN_PATH.match(text(cell(row, c_path)))
        tags = tuple(f"{info.label(k)}={text(cell(row, k))[:200]}" for k in tag_cols if text(cell(row, k)))[:32]
        vcpus, memory_bytes = count_of(row, c_cpu, info, line, flags), bytes_of(row, c_mem, MIB, info, line, flags)
        provisioned_bytes = bytes_of(row, c_prov, MIB, info, line, flags)
        used_bytes = bytes_of(row, c_use, MIB, info, line, flags)
        # an empty or refused In Use / Provisioned cell: filled from vPartition or vDisk alike (review 57 #4)
        if c_use is not None and used_bytes is None:
            no_use.add(len(rows))
            if text(cell(row, c_use)):
                refused_at[("use", len(rows))] = line
        if provisioned_bytes is None:
            no_prov.add(len(rows))
            if text(cell(row, c_prov)):
                refused_at[("prov", len(rows))] = line
        rows.append(dict(
            name=name, cluster=text(cell(row, c_clu)), host=text(cell(row, c_host)),
            datastore=path_ds.group(1).strip() if path_ds else "",
            powered_on=None if not power else power == "poweredon",
            template=bool(_bool(cell(row, c_tpl))),
            vcpus=vcpus,
            memory_bytes=memory_bytes,
            provisioned_bytes=provisioned_bytes,
            used_bytes=used_bytes,
            unshared_bytes=bytes_of(row, c_unsh, MIB, info, line, flags),
            os=text(cell(row, c_os)), tags=tags))
    twice = sorted(n for n, c in names.items() if c > 1)
    if twice:
        notes.append(f"{len(twice)} machine name(s) appear more than once in vInfo (e.g. {twice[0]!r}): their disks "
                     "and partitions are joined by name")

    disks: dict[str, list[Disk]] = defaultdict(list)
    vdisk = tables.sheet("vDisk", ("VM", "vDiskVMName"))
    if vdisk is not None:
        d_vm = vdisk.need("VM", "vDiskVMName")
        d_cap = vdisk.need("Capacity MiB", "Capacity MB", "vDiskCapacityMiB", "vDiskCapacityMB", "vDiskCapacity")
        d_lab, d_thin = vdisk.col("Disk", "vDiskName", "vDiskDisk"), vdisk.col("Thin", "vDiskThin")
        d_path = vdisk.col("Disk Path", "Path", "vDiskPath")
        for line, row in vdisk.rows:
            vm = text(cell(row, d_vm))
            cap = bytes_of(row, d_cap, MIB, vdisk, line, flags)
            if not vm or cap is None:
                continue
            ds = _DATASTORE_IN_PATH.match(text(cell(row, d_path)))
            disks[vm].append(Disk(text(cell(row, d_lab)), cap, ds.group(1).strip() if ds else "",
                                  _bool(cell(row, d_thin))))
    consumed: dict[str, int] = defaultdict(int)
    vpart = tables.sheet("vPartition", ("VM", "vPartitionVMName"))
    if vpart is not None:
        p_vm = vpart.need("VM", "vPartitionVMName")
        p_used = vpart.need("Consumed MiB", "Consumed MB", "vPartitionConsumedMiB", "vPartitionConsumedMB")
        for line, row in vpart.rows:
            vm = text(cell(row, p_vm))
            used = bytes_of(row, p_used, MIB, vpart, line, flags)
            if vm and used is not None:
                consumed[vm] += used
    host_cluster: dict[str, str] = {}
    hosts: list[Host] = []
    vhost = tables.sheet("vHost", ("Host", "vHostName"))
    if vhost is not None:
        h_name, h_clu = vhost.need("Host", "vHostName"), vhost.col("Cluster", "vHostCluster")
        h_vms, h_on = vhost.col(*HOST_VMS_TOTAL), vhost.col(*HOST_VMS_ON)
        for line, row in vhost.rows:
            if text(cell(row, h_clu)):
                host_cluster[text(cell(row, h_name))] = text(cell(row, h_clu))
            if text(cell(row, h_name)):
                hosts.append(Host(text(cell(row, h_name)), text(cell(row, h_clu)),
                                  count_of(row, h_vms, vhost, line, flags, 100_000),
                                  count_of(row, h_on, vhost, line, flags, 100_000)))
    snapshots = _snapshots(tables, flags)
    datastores = _datastores(tables, flags)
    vcluster = tables.sheet("vCluster", ("Name", "Cluster", "vClusterName"))
    if vcluster is not None:
        n = sum(1 for _ in vcluster.rows)
        notes.append(f"vCluster lists {n} cluster(s)")

    machines = []
    zero_off: list[tuple[int, int]] = []  # (provisioned, vDisk) bytes of powered-off machines with disks at 0 in use
    from_guest = from_disks = prov_from_disks = with_snapshots = 0
    snapshot_added = 0
    for index, r in enumerate(rows):
        vm_disks = tuple(disks.get(r["name"], ()))
        if not r["cluster"] and r["host"] in host_cluster:
            r["cluster"] = host_cluster[r["host"]]
        if not r["datastore"] and vm_disks:
            r["datastore"] = next((d.datastore for d in vm_disks if d.datastore), "")
        guest = consumed.get(r["name"])
        disk_total = sum(d.capacity_bytes for d in vm_disks) if vm_disks else None
        if index in no_prov and disk_total is not None:
            r["provisioned_bytes"] = disk_total
            prov_from_disks += 1
        taken = ""
        if c_use is None or index in no_use:  # no datastore view of this machine's used space
            if guest is not None:
                r["used_bytes"] = guest
                from_guest += 1
                taken = "vPartition 'Consumed MiB'"
            elif disk_total is not None:
                r["used_bytes"] = disk_total
                from_disks += 1
                taken = "vDisk 'Capacity MiB' (provisioned: an upper bound)"
            if r["used_bytes"] is not None and snapshots.get(r["name"]):
                r["used_bytes"] += snapshots[r["name"]]
                snapshot_added += snapshots[r["name"]]
                with_snapshots += 1
                taken += " plus vSnapshot 'Size MiB (total)'"
        if ("use", index) in refused_at:  # review 57 #4: the figure the refused cell's fallback changed
            flags.append(ImportFlag(info.file, info.name, refused_at[("use", index)], info.label(c_use),
                                    f"used capacity taken from {taken} instead: {r['used_bytes'] / MIB:,.0f} MiB"
                                    if taken else "no vPartition or vDisk figure either: the provisioned capacity "
                                    "is counted as used", refused=False))
        if ("prov", index) in refused_at:
            flags.append(ImportFlag(info.file, info.name, refused_at[("prov", index)], info.label(c_prov),
                                    f"provisioned capacity taken from vDisk 'Capacity MiB' instead: "
                                    f"{disk_total / MIB:,.0f} MiB" if disk_total is not None else
                                    "no vDisk figure either: the used capacity is counted as provisioned",
                                    refused=False))
        n_disks, on_disks, disks_from = disk_info[index]
        if n_disks is None:
            n_disks, on_disks, disks_from = len(vm_disks), disk_total, "vDisk 'Capacity MiB'"
        if (r["used_bytes"] == 0 and index not in no_use and c_use is not None and n_disks and on_disks
                and r["powered_on"] is False):  # review 57 #8: a machine with disks holds more than 0 B
            zero_off.append((r["provisioned_bytes"] or 0, on_disks))
            flags.append(ImportFlag(info.file, info.name, lines[index], info.label(c_use),
                                    f"0 MiB in use for a powered-off machine with {n_disks} disk(s) of "
                                    f"{on_disks / MIB:,.0f} MiB ({disks_from}): counted as 0 (see the notes)",
                                    refused=False))
        machines.append(Machine(**r, disks=vm_disks, guest_used_bytes=guest))
    if zero_off:
        prov, on_disks = sum(p for p, _ in zero_off), sum(d for _, d in zero_off)
        notes.append(f"{len(zero_off)} powered-off machine(s) with disks report 0 MiB in use ({info.name or 'vInfo'} "
                     "'In Use MiB'; a machine with disks holds more than 0 B: vCenter had no current figure): "
                     f"counted as 0; their provisioned size is {prov / TIB:,.2f} TiB ('Provisioned MiB'), their disks' "
                     f"capacity {on_disks / TIB:,.2f} TiB: add it to the effective capacity (Requirements) where "
                     "they are kept")
    notes.extend(_capacity_notes(info.name or "vInfo", c_use is None, len(machines), len(no_use), from_guest,
                                 from_disks, prov_from_disks, any(k[0] == "use" for k in refused_at),
                                 any(k[0] == "prov" for k in refused_at)))
    if c_use is None:  # review 57 #4: a missing column is a flag on the preview, not only a note
        flags.append(ImportFlag(info.file, info.name, info.header_row, IN_USE[0], "no column 'In Use MiB': used "
                                "capacity taken from vPartition or vDisk (see the notes)", refused=False))
    if snapshots:
        total = sum(snapshots.values())
        added = (f"; added to the used capacity of {with_snapshots} machine(s) whose used capacity comes from "
                 f"vPartition or vDisk ({snapshot_added / MIB:,.0f} MiB), which do not count snapshot files"
                 if with_snapshots else "")
        notes.append(f"vSnapshot: {len(snapshots)} machine(s) hold snapshots, {total / MIB:,.0f} MiB in all "
                     f"(vInfo 'In Use MiB' includes them){added}")
    if datastores:
        notes.append(_datastore_note(datastores, machines))
    where = [("provisioned", f"sheet {info.name or 'vInfo'!r} column {info.label(c_prov)!r}")]
    if c_use is not None:
        where.append(("used", f"sheet {info.name or 'vInfo'!r} column {info.label(c_use)!r}"))
    return Inventory("rvtools", tables.file, version=version, machines=tuple(machines), columns=tuple(where),
                     flags=tuple(sorted(flags, key=lambda f: (f.sheet, f.row))), notes=tuple(notes),
                     datastores=datastores, hosts=tuple(hosts))


def _capacity_notes(sheet: str, no_column: bool, machines: int, empty: int, from_guest: int, from_disks: int,
                    prov_from_disks: int, use_refused: bool = False, prov_refused: bool = False) -> list[str]:
    """What the capacity fallbacks did, in words (nothing when none applied); ``*_refused``: some of the cells
    were refused, not empty (they take the same fallback)."""
    notes = []
    took = []
    if from_guest:
        took.append(f"the guest file systems' consumed space (vPartition 'Consumed MiB') for {from_guest}")
    if from_disks:
        took.append(f"the capacity of their disks (vDisk 'Capacity MiB', provisioned: an upper bound) for "
                    f"{from_disks}")
    if no_column:
        rest = machines - from_guest - from_disks
        notes.append(f"sheet {sheet} has no 'In Use MiB' column: used capacity is "
                     + (" and ".join(took) if took else "not given") + f" of {machines} machine(s)"
                     + (", the provisioned capacity for the rest" if took and rest else ""))
    elif empty:
        rest = empty - from_guest - from_disks
        notes.append(f"{empty} machine(s) with an empty{' or refused' if use_refused else ''} 'In Use MiB' cell in "
                     f"sheet {sheet}: used capacity is "
                     + (" and ".join(took) + " of them" if took else "not given by vPartition or vDisk either")
                     + (f"; {rest} with neither: their provisioned capacity is counted" if took and rest else ""))
    if prov_from_disks:
        notes.append(f"{prov_from_disks} machine(s) with an empty{' or refused' if prov_refused else ''} "
                     f"'Provisioned MiB' cell in sheet {sheet}: their "
                     "provisioned capacity is the capacity of their disks (vDisk 'Capacity MiB')")
    return notes


def _snapshots(tables: _Tables, flags: list[ImportFlag]) -> dict[str, int]:
    """Snapshot bytes per machine name from vSnapshot's "Size MiB (total)" (empty without the tab or column)."""
    snap = tables.sheet("vSnapshot", ("VM", "vSnapshotVM", "vSnapshotVMName"))
    if snap is None:
        return {}
    s_vm = snap.col("VM", "vSnapshotVM", "vSnapshotVMName")
    s_size = snap.col("Size MiB (total)", "Size MB (total)", "vSnapshotSizeTotal", "vSnapshotSizeMiBTotal")
    if s_vm is None or s_size is None:
        return {}
    out: dict[str, int] = defaultdict(int)
    for line, row in snap.rows:
        vm = text(cell(row, s_vm))
        size = bytes_of(row, s_size, MIB, snap, line, flags)
        if vm and size is not None:
            out[vm] += size
    return {vm: size for vm, size in out.items() if size > 0}


DATASTORE_KINDS = {"vsan": "vSAN", "vmfs": "VMFS", "nfs": "NFS", "nfs41": "NFS 4.1", "vvol": "VVOL"}
"""vDatastore Type -> its name in the notes."""


def _datastore_note(datastores: tuple[Datastore, ...], machines: list[Machine]) -> str:
    """The datastore types vDatastore lists, with their capacity and the machines on them, in words."""
    on: dict[str, int] = defaultdict(int)
    for m in machines:
        if m.datastore:
            on[m.datastore] += 1
    kinds: dict[str, list[Datastore]] = defaultdict(list)
    for d in datastores:
        kinds[DATASTORE_KINDS.get(d.kind.strip().casefold(), d.kind.strip() or "type not given")].append(d)
    parts = []
    for kind in sorted(kinds, key=lambda k: (-len(kinds[k]), k)):
        group = kinds[kind]
        cap = sum(d.capacity_bytes or 0 for d in group)
        use = sum(d.used_bytes or 0 for d in group)
        vms = sum(on.get(d.name, 0) for d in group)
        local = sum(1 for d in group if kind == "VMFS" and d.hosts == 1)
        words = f"{kind} {len(group)}"
        if local:
            words += f" ({local} local: mounted by one host)"
        words += f", {cap / 2**40:,.2f} TiB" + (f" ({use / 2**40:,.2f} TiB in use)" if use else "")
        if vms:
            words += f", {vms} machine(s)"
        parts.append(words)
    text_ = f"vDatastore lists {len(datastores)} datastore(s): " + "; ".join(parts)
    if "vSAN" in kinds:
        text_ += (". A vSAN datastore's space in use counts its replicas (its storage policy's failures to "
                  "tolerate): the machines' used capacity is the data, the replicas are the new system's to add")
    return text_


def _datastores(tables: _Tables, flags: list[ImportFlag]) -> tuple[Datastore, ...]:
    """The vDatastore tab's datastores (empty when the export has none)."""
    ds = tables.sheet("vDatastore", ("Name", "vDatastoreName"))
    if ds is None:
        return ()
    c_name = ds.need("Name", "vDatastoreName")
    c_cap = ds.col("Capacity MiB", "Capacity MB", "vDatastoreCapacity")
    c_free = ds.col("Free MiB", "Free MB", "Free space MiB", "vDatastoreFreeSpace")
    c_prov = ds.col("Provisioned MiB", "Provisioned MB", "vDatastoreProvisioned")
    c_use = ds.col("In Use MiB", "In Use MB", "vDatastoreInUse")
    c_type, c_clu = ds.col("Type", "vDatastoreType"), ds.col("Cluster name", "vDatastoreClusterName")
    c_nhosts, c_hosts = ds.col("# Hosts", "vDatastoreNumHosts"), ds.col("Hosts", "vDatastoreHosts")
    out = []
    for line, row in ds.rows:
        name = text(cell(row, c_name))
        if name:
            hosts = count_of(row, c_nhosts, ds, line, flags, 100_000)
            if hosts is None and text(cell(row, c_hosts)):
                hosts = len([h for h in text(cell(row, c_hosts)).split(",") if h.strip()])
            out.append(Datastore(name, bytes_of(row, c_cap, MIB, ds, line, flags),
                                 bytes_of(row, c_free, MIB, ds, line, flags),
                                 bytes_of(row, c_prov, MIB, ds, line, flags),
                                 bytes_of(row, c_use, MIB, ds, line, flags),
                                 text(cell(row, c_type)), text(cell(row, c_clu)), hosts))
    return tuple(out)
