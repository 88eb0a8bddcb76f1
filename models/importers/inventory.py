"""The typed inventory every environment reader returns: machines (virtual or physical) and storage volumes / LUNs,
with performance summaries or series where the source has them, and the rows a reader refused or flagged.

Units live in the names: bytes (capacities converted from the source's units by the reader: RVTools' "MB" columns
hold MiB), IOPS (operations per second), MB/s (10^6 bytes per second), milliseconds. A figure the source does not
give is None, never 0 and never a default."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Statistic = Literal["average", "p95", "peak"]
"""Which summary of a machine's or volume's performance a :class:`PerfFigures` holds."""

SourceKind = Literal["rvtools", "liveoptics", "ontap", "azure-migrate"]
"""The tool a file came from."""


class InventoryError(ValueError):
    """A file that cannot be imported at all (not a workbook, no sheet or column the reader needs, too large, ...).
    The message names the file (its name only, never its folder), the sheet and the column or line."""


@dataclass(frozen=True)
class PerfFigures:
    """One statistic of a machine's or a volume's I/O.

    Attributes:
        statistic: "average", "p95" or "peak" (over the source's collection period).
        read_iops, write_iops: operations per second (None: not given).
        read_mbps, write_mbps: MB/s, 10^6 bytes per second (None: not given).
        latency_ms: the source's latency at this statistic, milliseconds (None: not given).
        read_latency_ms, write_latency_ms: the same per direction where the source splits it (None: not given).
    """

    statistic: Statistic
    read_iops: float | None = None
    write_iops: float | None = None
    read_mbps: float | None = None
    write_mbps: float | None = None
    latency_ms: float | None = None
    read_latency_ms: float | None = None
    write_latency_ms: float | None = None


@dataclass(frozen=True)
class PerfSample:
    """One interval of a performance series (rates over the interval that ends at ``time_s``).

    Attributes:
        time_s: end of the interval, seconds since the Unix epoch (or since the series' start where the source
            gives no clock); interval_s: its length, seconds.
        read_iops, write_iops, other_iops: operations per second; read_mbps, write_mbps: MB/s (10^6 B/s);
        read_latency_ms, write_latency_ms: average latency over the interval, ms (None: no operation of that
        kind in the interval, or not given).
    """

    time_s: float
    interval_s: float
    read_iops: float
    write_iops: float
    other_iops: float = 0.0
    read_mbps: float | None = None
    write_mbps: float | None = None
    read_latency_ms: float | None = None
    write_latency_ms: float | None = None


@dataclass(frozen=True)
class Disk:
    """A machine's virtual or physical disk: ``capacity_bytes`` and, where given, the datastore holding it."""

    label: str
    capacity_bytes: int
    datastore: str = ""
    thin: bool | None = None


@dataclass(frozen=True)
class Machine:
    """A virtual or physical machine as the source lists it.

    Attributes:
        name: the machine's name in the source (pseudonymised later unless the user keeps names).
        cluster, host, datastore: where it runs and where its first disk lives ("" when not given).
        powered_on: None when not given.
        vcpus, memory_bytes: None when not given.
        provisioned_bytes, used_bytes: capacity the machine is given / writes (None when not given);
        unshared_bytes: its space not shared with other machines (RVTools "Unshared"), None when not given.
        disks: its disks; tags: folder, annotation or custom-attribute values a user may group by.
        perf: performance summaries (at most one per statistic); series: a performance series where the source
            has one (empty otherwise).
        os: the guest operating system as the source names it ("" when not given).
        guest_used_bytes: the space the guest's own file systems report used (RVTools vPartition "Consumed",
            Live Optics "Guest VM Disk Used"), None when not given; beside ``used_bytes``, the datastore's view.
        template: True for a template (RVTools, Live Optics "Template"): it holds capacity but runs no I/O.
    """

    name: str
    cluster: str = ""
    host: str = ""
    datastore: str = ""
    powered_on: bool | None = None
    vcpus: int | None = None
    memory_bytes: int | None = None
    provisioned_bytes: int | None = None
    used_bytes: int | None = None
    unshared_bytes: int | None = None
    disks: tuple[Disk, ...] = ()
    tags: tuple[str, ...] = ()
    perf: tuple[PerfFigures, ...] = ()
    series: tuple[PerfSample, ...] = ()
    os: str = ""
    guest_used_bytes: int | None = None
    template: bool = False

    def figures(self, statistic: Statistic) -> PerfFigures | None:
        """This machine's :class:`PerfFigures` of ``statistic`` (None when the source gave none)."""
        return next((f for f in self.perf if f.statistic == statistic), None)


@dataclass(frozen=True)
class Volume:
    """A storage volume or LUN as a storage system reports it (ONTAP).

    Attributes:
        name: its name; svm: its storage VM; node, aggregate: where it lives ("" when not given);
        kind: "volume" or "lun".
        size_bytes, used_bytes: None when not given.
        perf: summaries; series: per-interval rates computed from the source's counters (two polls give one
            interval).
        protocol: the front-end protocol the data shows it served ("FCP", "iSCSI", "NFS", "SMB"; "block" for a
            LUN whose block protocol the data does not name; "" when the data does not say);
        protocol_source: where ``protocol`` came from, in words ("" with no protocol).
    """

    name: str
    svm: str = ""
    node: str = ""
    aggregate: str = ""
    kind: Literal["volume", "lun"] = "volume"
    size_bytes: int | None = None
    used_bytes: int | None = None
    perf: tuple[PerfFigures, ...] = ()
    series: tuple[PerfSample, ...] = ()
    protocol: str = ""
    protocol_source: str = ""

    def figures(self, statistic: Statistic) -> PerfFigures | None:
        """This volume's :class:`PerfFigures` of ``statistic`` (None when the source gave none)."""
        return next((f for f in self.perf if f.statistic == statistic), None)


@dataclass(frozen=True)
class Datastore:
    """A datastore as a virtualisation inventory lists it (RVTools vDatastore); capacities in bytes, None when not
    given: ``capacity_bytes`` its size, ``free_bytes`` free, ``provisioned_bytes`` promised to machines (thin
    provisioning can exceed the size), ``used_bytes`` in use; ``kind`` its type (VMFS, NFS, vsan, ...); ``hosts`` how
    many hosts mount it (None when not given; a VMFS datastore of one host is local)."""

    name: str
    capacity_bytes: int | None = None
    free_bytes: int | None = None
    provisioned_bytes: int | None = None
    used_bytes: int | None = None
    kind: str = ""
    cluster: str = ""
    hosts: int | None = None


@dataclass(frozen=True)
class Host:
    """A host as the file's host sheets describe it, to check that the file lists every machine it runs (an export
    filtered by the collector's rights, or cut down by hand, lists fewer: :mod:`models.importers.completeness`).

    Attributes:
        name, cluster: the host and its cluster ("" when not given).
        machines: the machines registered on it (RVTools vHost "# VMs total", Live Optics ESX Hosts "Guest VM
            Count"); powered_on: those running (RVTools vHost "# VMs"); None when not given.
        peak_iops: its own peak IOPS over the collection (Live Optics ESX Performance "Peak IOPS"), None when not
            given: no host's peak can exceed the sum of the peaks of the machines it runs.
    """

    name: str
    cluster: str = ""
    machines: int | None = None
    powered_on: int | None = None
    peak_iops: float | None = None


@dataclass(frozen=True)
class ImportFlag:
    """A row a reader refused (``refused``: left out of the inventory) or kept with a warning.

    Attributes:
        file: the file's name (never its folder); sheet: the sheet or section ("" for text files); row: the
        1-based row or line in the source; column: the column's header as the source spells it ("" when the
        whole row is meant); message: what is wrong, in words a user can act on.
        refused: True when something was left out: the value of ``column`` (the rest of the row kept) or, when
        ``column`` is "", the whole row.
    """

    file: str
    sheet: str
    row: int
    column: str
    message: str
    refused: bool = True


@dataclass(frozen=True)
class Inventory:
    """What one file holds, as one reader understood it.

    Attributes:
        source: the tool it came from; file: the file's name (never its folder); version: the tool's version
        where the file says it ("" otherwise).
        machines, volumes: what was read; flags: rows refused or flagged, in file order.
        controller_model: the storage controller model the data names (ONTAP), "" otherwise.
        datastores: the datastores the file lists (RVTools vDatastore), empty otherwise.
        notes: what the reader assumed (units, a column it did not find and did without), in words.
        collected: when the data was collected, as the file states it (Live Optics' Details "Date": "2022/11/14");
            "" where the file does not say (series carry their own times: ``PerfSample.time_s``).
        hosts: the hosts the file's host sheets list (RVTools vHost, Live Optics ESX Hosts and ESX Performance),
            empty otherwise.
        clock: what the series' times are: "UTC" (timestamps with a zone, or none given), "cluster time" (ONTAP
            ``statistics show`` prints the cluster's local clock without a zone: read as if UTC, said as cluster
            time; review 57 #10).
        columns: where each figure came from, sheet and column (see the attribute).
    """

    source: SourceKind
    file: str
    version: str = ""
    machines: tuple[Machine, ...] = ()
    volumes: tuple[Volume, ...] = ()
    flags: tuple[ImportFlag, ...] = ()
    controller_model: str = ""
    notes: tuple[str, ...] = field(default_factory=tuple)
    datastores: tuple[Datastore, ...] = ()
    collected: str = ""
    hosts: tuple[Host, ...] = ()
    clock: str = "UTC"
    columns: tuple[tuple[str, str], ...] = ()
    """where each figure came from in the file, in words (review 57 #5): figure ("used", "provisioned",
    "guest_used", "iops", "mbps", "read") -> "sheet 'VMs' column 'Virtual Disk Used (MB)'"; a figure the reader
    does not name is absent (:meth:`column`)"""

    def column(self, figure: str) -> str:
        """Where ``figure`` came from (:attr:`columns`), "" when not named."""
        return dict(self.columns).get(figure, "")
