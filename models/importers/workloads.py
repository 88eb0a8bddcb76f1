"""From imported inventories to the project's workloads and requirements (issue 31, item 2).

Machines are grouped by cluster, datastore, tag or a name pattern; ONTAP volumes and LUNs by SVM or aggregate.
Each group's load is aggregated:

* where its members have performance series, as the **peak of sums over time**: the members' read + write IOPS
  (and MB/s) are summed interval by interval (intervals matched by their end time) and the interval of the highest
  sum is the group's load;
* where only summaries exist, as the **sum of per-member P95 or peak** (the user's choice), which is at least the
  peak of sums (members rarely peak together) and is said to be so.

Read share = read IOPS / (read + write IOPS); I/O size = MB/s / IOPS (10^6 bytes per MB, 1024 bytes per KiB),
clamped to 0.5-1024 KiB with a note. A group with no performance data (or no I/O measured) gets no invented I/O
mix: its workload is capacity-only (``models.project.model.CAPACITY_ONLY``: enabled, its data counted by the
capacity engine, no load evaluated), and a note says so; a group with neither capacity nor performance figures
makes no workload (a note names it). Capacity is the members' used
capacity (their provisioned capacity where used is not given, and the group's ``capacity_basis`` says so: an Azure
Migrate report gives provisioned disk sizes only), with the provisioned total kept for thin provisioning. No source
measures growth: the workloads get 0%/yr and a note asks for the customer's figure.

Powered-off machines and templates are counted: their disks hold data that moves with the environment (capacity),
and they issue no I/O (a powered-off machine's performance figures, where a source gives any, are zero); a note
says how many there are. Tools that prepare an RVTools export for a migration sizer make leaving them out a choice
of the user's, not a default (rvtools2azmigrate, "Filter powered-off VMs", https://github.com/lrivallain/rvtools2azmigrate);
StorPlan keeps them and names the count so that the user can remove their capacity where they are to be retired.

A machine listed in more than one file (the same name in two exports of one environment, such as RVTools and Live
Optics) is counted once (:func:`repeated_machines`): the listing with a performance series, else with performance
summaries, else the first file's, is kept, and a note names how many were repeated.

Group names are replaced by stable pseudonyms unless the caller keeps names: a short hash of the name salted with
a secret derived from the whole import (so the same files give the same pseudonyms, and a pseudonym cannot be
looked up from a guessed name alone). No file path is kept."""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from models.importers.inventory import Inventory, InventoryError, Machine, PerfFigures, PerfSample, Volume
from models.project.model import (
    CAPACITY_ONLY,
    IMPORTED_ID_PREFIX,
    MAX_WORKLOADS_PER_TARGET,
    Requirements,
    Workload,
)

GroupBy = Literal["cluster", "datastore", "tag", "pattern", "svm", "aggregate"]
"""How members are grouped. For ONTAP volumes "cluster" and "tag" mean the SVM and "datastore" the aggregate."""

SummaryStat = Literal["p95", "peak"]
"""Which per-member summary is summed where no series exists."""

IMPORT_BASE_EXAMPLE = "aff-a70-ns224-oracle-nvmetcp"
"""The bundled example whose design starts an imported project (its controller serves the imported workloads;
``storplan size`` replaces the design): the command line's ``import-env`` and the desktop app's import wizard."""
MIN_IO_KIB = 0.5
MAX_IO_KIB = 1024.0
KIB = 1024.0
BYTES_PER_MB = 1e6
ASSUMED_RANDOM_PCT = 100.0
"""The random share given to a measured workload: no source measures it; fully random is the conservative case."""

_VOLUME_KEY = {"cluster": "svm", "tag": "svm", "svm": "svm", "datastore": "aggregate", "aggregate": "aggregate",
               "pattern": "pattern"}
_MACHINE_KEY = {"cluster": "cluster", "datastore": "datastore", "tag": "tag", "pattern": "pattern",
                "svm": "cluster", "aggregate": "datastore"}
_PREFIX = {"cluster": "cluster", "datastore": "datastore", "tag": "tag", "pattern": "group", "svm": "svm",
           "aggregate": "aggr"}
_NO_VALUE = {"cluster": "cluster", "datastore": "datastore", "tag": "tag", "svm": "SVM", "aggr": "aggregate"}
"""A pseudonym prefix -> the attribute's name in the group of members without it ("machines without a cluster")."""
SHORT_SERIES_S = 3600.0
"""Series spanning less than this (s, about an hour) give a sample of the load, not its peak: the group's method
says so ("one 141 s sample (from ... to ...), not a peak"; review 55 #3)."""
_EPOCH_2001 = 978_307_200.0
"""Series times before 2001 are counted from the series' start, not a clock (as ``provenance`` reads them)."""
CapacityBasis = Literal["used", "provisioned", "partly provisioned", "none"]
"""What a group's or an import's capacity is: "used" (every member's used capacity given), "provisioned" (no
member's used capacity in the files: ``used_bytes`` holds the provisioned size), "partly provisioned" (the
provisioned size counted for the members without a used capacity), "none" (no capacity in the files)."""
GROWTH_NOTE = ("growth is not measured by any source: 0%/yr is applied to every imported workload; set the "
               "customer's data growth per workload (Growth tab) before sizing for a horizon")
"""The import note every import carries (no inventory gives a growth rate)."""


@dataclass(frozen=True)
class _Member:
    """A machine or a volume as the grouping sees it."""

    name: str
    key: str
    label: str
    """what the key is ("cluster", "svm", "aggr", ...): the pseudonym's prefix; members of different labels never
    share a group"""
    kind: str
    perf: tuple[PerfFigures, ...]
    series: tuple[PerfSample, ...]
    used_bytes: int | None
    provisioned_bytes: int | None
    protocol: str = ""
    protocol_source: str = ""
    source: int = 0
    """the index of the inventory (file) it was read from"""
    clock: str = "UTC"
    """what its series' times are (``Inventory.clock``)"""
    columns: tuple[tuple[str, str], ...] = ()
    """where its file's figures came from (``Inventory.columns``)"""
    guest_used_bytes: int | None = None
    """what its guest's file systems hold (``Machine.guest_used_bytes``), None when not given"""


@dataclass(frozen=True)
class ImportedGroup:
    """One group's aggregated load and capacity.

    Attributes:
        name: the group's name (a pseudonym unless names are kept); members: how many machines / volumes.
        method: how its load was aggregated, in words ("peak of sums over time (288 intervals)", "one 141 s
            sample (from ... to ...), not a peak" (:func:`series_method`), "sum of per-machine
            P95", "sum of per-volume peak", "no performance data").
        read_iops, write_iops: operations per second; read_mbps, write_mbps: MB/s (10^6 B/s); None: not measured.
        read_pct: read share of the IOPS, %; block_kib: I/O size, KiB (clamped to 0.5-1024); None: not derivable.
        used_bytes, provisioned_bytes: capacity written / given (bytes; 0 when the source gives none); where the
            files give no used capacity, ``used_bytes`` counts the provisioned size (``capacity_basis``).
        needs_preset: no usable performance data: the user must choose a preset.
        notes: what was assumed or left out, in words.
    """

    name: str
    members: int
    method: str
    read_iops: float | None
    write_iops: float | None
    read_mbps: float | None
    write_mbps: float | None
    read_pct: float | None
    block_kib: float | None
    used_bytes: int
    provisioned_bytes: int
    needs_preset: bool
    notes: tuple[str, ...] = ()
    latency_ms: float | None = None
    """the measured mean latency at the group's load (ms, operations-weighted over reads and writes of the peak
    interval) where the load is a peak of sums over time and the series give latencies; None otherwise"""
    series: tuple[PerfSample, ...] = ()
    """the members' series summed interval by interval, in time order (empty where no member has a series)"""
    protocol: str = ""
    """the front-end protocol the data shows the members served (``Volume.protocol``: "FCP", "iSCSI", "NFS",
    "SMB", "block"; the one most members show when they differ), "" when the data does not say"""
    protocol_source: str = ""
    """where ``protocol`` came from, in words (how many members show it and from which counters)"""
    member_noun: str = "machine"
    """what the members are: "machine", "volume" or "LUN" (the workload's name counts them)"""
    capacity_basis: CapacityBasis = "used"
    """what ``used_bytes`` is (:data:`CapacityBasis`): "provisioned" where no member's used capacity is given"""
    sources: tuple[int, ...] = ()
    """the indices of the inventories (files) its members were read from, in order"""
    unloaded: tuple[str, ...] = ()
    """the names (as the source gives them) of the members without a load where other members have one: their
    load is missing from the group's (a refused counter, no performance row); empty otherwise (review 57 #7)"""
    guest_used_bytes: int | None = None
    """what the members' guest file systems hold where the file names that column beside the sized capacity (Live
    Optics 'Guest VM Disk Used'), None otherwise: shown, not sized (review 57 #2)"""
    provenance: tuple[str, ...] = ()
    """where each figure came from, in words: "IOPS: sheet 'VM Performance' column 'Peak IOPS', sum of 4 rows"
    (review 57 #5); empty where the files name no column"""

    @property
    def iops(self) -> float:
        """Read + write IOPS (0 when not measured)."""
        return (self.read_iops or 0.0) + (self.write_iops or 0.0)

    @property
    def mbps(self) -> float:
        """Read + write MB/s (0 when not measured)."""
        return (self.read_mbps or 0.0) + (self.write_mbps or 0.0)

    @property
    def thin(self) -> bool:
        """More capacity provisioned than used (thin provisioning)."""
        return self.provisioned_bytes > self.used_bytes


@dataclass(frozen=True)
class ImportResult:
    """The workloads and requirements of an import.

    Attributes:
        groups: the groups, in name order; workloads: one project :class:`Workload` per group (disabled for a
        group needing a preset); requirements: a :class:`Requirements` with the used capacity as the effective
        capacity needed; capacity_bytes, provisioned_bytes: totals (bytes); iops, mbps: the totals of the
        enabled workloads' targets; notes: what the import assumed, in words; capacity_basis: what
        ``capacity_bytes`` is (:data:`CapacityBasis`; "provisioned": the files give no used capacity, the
        provisioned size is counted as the data): :func:`capacity_words` says it; warnings: see below.
    """

    groups: tuple[ImportedGroup, ...]
    workloads: tuple[Workload, ...]
    requirements: Requirements
    capacity_bytes: int
    provisioned_bytes: int
    iops: float
    mbps: float
    notes: tuple[str, ...]
    capacity_basis: CapacityBasis = "used"
    guest_used_bytes: int | None = None
    """what the guests' file systems hold (the groups' ``guest_used_bytes`` summed), None where no group gives it"""
    warnings: tuple[str, ...] = ()
    """what makes the imported figures too small, in words (a file listing fewer machines or less load than its own
    host sheets report: :func:`models.importers.completeness.completeness_warnings`); the wizard's grouping page,
    ``storplan import-env`` and the measured record (the report) show them"""


NOTHING_MEASURED = "nothing measured: the files give neither a load (IOPS, MB/s) nor a capacity"
"""The start of :func:`nothing_measured`'s reason (``storplan import-env``'s error, the import wizard's refusal)."""


def nothing_measured(inventories: Sequence[Inventory], result: ImportResult, consequence: str) -> str:
    """Why an import measured nothing, "" when it measured a load or a capacity: the one rule by which ``storplan
    import-env`` writes no project and the desktop app's import wizard imports nothing (a project with neither a
    load nor a capacity sizes nothing: one poll of cumulative ONTAP counters gives no rate and no capacity).

    Args:
        inventories: what was read; result: its import (:func:`import_environment`); consequence: what follows,
            in the caller's words ("no project is written").

    Returns:
        ":data:`NOTHING_MEASURED`, so <consequence> (<the notes that say why: one poll only, ...>)", or "".
    """
    if result.iops or result.mbps or result.capacity_bytes or result.provisioned_bytes:
        return ""
    why = "; ".join(dict.fromkeys(n for n in (*result.notes, *(m for inv in inventories for m in inv.notes))
                                  if "poll" in n))
    return f"{NOTHING_MEASURED}, so {consequence}" + (f" ({why})" if why else "")


def tib_words(value: float) -> str:
    """A capacity in TiB as the wizard's totals and the report's summary print it (``models.formatting.
    fmt_capacity``, fixed to TiB): "3.56 TiB", "0.34 TiB", "0.0040 TiB" (review 55 #16: the record said "3.556 TiB"
    where the summary said "3.56 TiB")."""
    from models.formatting import fmt_capacity
    from models.units import CapacityUnit

    return fmt_capacity(value, CapacityUnit.TIB, fixed=True)


def capacity_words(used_bytes: int, provisioned_bytes: int, basis: CapacityBasis) -> str:
    """An import's or a group's capacity in words, TiB as :func:`tib_words`: "0.34 TiB used (1.31 TiB
    provisioned)", "34.57 TiB provisioned (no used capacity in the file)", "no capacity in the data"."""
    used, prov = tib_words(used_bytes), tib_words(provisioned_bytes)
    if basis == "none" or not (used_bytes or provisioned_bytes):
        return "no capacity in the data"
    if basis == "provisioned":
        return f"{prov} provisioned (no used capacity in the file)"
    if basis == "partly provisioned":
        return f"{used} used, the provisioned size counted where the file gives no used capacity ({prov} provisioned)"
    return f"{used} used ({prov} provisioned)"


def guest_words(result: ImportResult, inventories: Sequence[Inventory],
                fmt: Callable[[int], str] | None = None) -> str:
    """The sized capacity beside what the guests' file systems hold, with their columns (review 57 #2): "3.56 TiB
    allocated on the datastore (sheet 'VMs' column 'Virtual Disk Used (MB)', sized), 2.68 TiB used in the guests
    (sheet 'VMs' column 'Guest VM Disk Used (MB)')"; "" where the files do not give the guests' figure. ``fmt``:
    how a capacity is written (default :func:`tib_words`)."""
    if result.guest_used_bytes is None:
        return ""
    fmt = fmt or tib_words
    inv = next((i for i in inventories if i.column("guest_used")), None)
    used_at = f"{inv.column('used')}, sized" if inv is not None and inv.column("used") else "sized"
    guest_at = f" ({inv.column('guest_used')})" if inv is not None else ""
    return (f"{fmt(result.capacity_bytes)} allocated on the datastore ({used_at}), "
            f"{fmt(result.guest_used_bytes)} used in the guests{guest_at}")


def _basis(groups: Sequence[ImportedGroup]) -> CapacityBasis:
    """The capacity basis of groups taken together."""
    kinds = {g.capacity_basis for g in groups} - {"none"}
    if not kinds:
        return "none"
    return kinds.pop() if len(kinds) == 1 else "partly provisioned"


def default_group_by(inventories: Sequence[Inventory]) -> GroupBy:
    """The grouping an import starts with: "tag" where every file of machines is an Azure Migrate report and its
    machines carry an Environment tag (the report gives no cluster: grouping by cluster puts every machine in one
    group), else "cluster"."""
    with_machines = [inv for inv in inventories if inv.machines]
    if with_machines and all(inv.source == "azure-migrate" for inv in with_machines) and any(
            t.startswith("Environment=") for inv in with_machines for m in inv.machines for t in m.tags):
        return "tag"
    return "cluster"


@dataclass(frozen=True)
class GroupingChoice:
    """One grouping an import can offer for its files (:func:`grouping_choices`).

    Attributes:
        key: the ``GroupBy`` value (``import-env --group-by``); label: its name for these files ("Cluster / SVM"
        where machines and ONTAP volumes are loaded together); fallback: what it does to members that do not carry
        the attribute, in words ("" when every loaded kind of member carries it).
    """

    key: GroupBy
    label: str
    fallback: str = ""


def grouping_choices(inventories: Sequence[Inventory]) -> list[GroupingChoice]:
    """The groupings the loaded files support, each once: machines group by cluster, datastore or tag (tag only
    where a machine has one); ONTAP volumes and LUNs by SVM or aggregate (their "cluster" and "datastore" are the
    SVM and the aggregate, so with volumes only those two are offered, and with both kinds one entry names both).
    A grouping whose attribute no loaded member gives puts every member in one group: its fallback says so."""
    machines = [m for inv in inventories for m in inv.machines]
    volumes = [v for inv in inventories for v in inv.volumes]
    if not machines and not volumes:
        return [GroupingChoice("cluster", "Cluster")]
    if not machines:  # ONTAP only: SVM and aggregate (cluster, tag and datastore would repeat them)
        return [GroupingChoice("svm", "SVM"), GroupingChoice("aggregate", "Aggregate")]

    def lacks(attr: str, words: str) -> str:
        given = any(m.tags for m in machines) if attr == "tag" else any(getattr(m, attr) for m in machines)
        return "" if given else f"the files give no {words}: every machine is in one group"

    both = bool(volumes)
    out = [GroupingChoice("cluster", "Cluster / SVM" if both else "Cluster", lacks("cluster", "cluster")),
           GroupingChoice("datastore", "Datastore / aggregate" if both else "Datastore",
                          lacks("datastore", "datastore"))]
    if any(m.tags for m in machines):
        out.append(GroupingChoice("tag", "Tag", "ONTAP volumes carry no tag: they are grouped by SVM" if both else ""))
    return out


def repeated_machines(inventories: Sequence[Inventory]) -> dict[str, tuple[int, int]]:
    """Machines listed in more than one of ``inventories`` (matched by their exact name across files; the same name
    twice within one file is two machines): name -> (index of the inventory whose listing is kept, how many files
    list it). The kept listing is the first with a performance series, else the first with performance summaries,
    else the first file's."""
    seen: dict[str, list[tuple[int, Machine]]] = {}
    for index, inv in enumerate(inventories):
        for name in {m.name for m in inv.machines}:
            seen.setdefault(name, [])
        for m in inv.machines:
            listings = seen[m.name]
            if not listings or listings[-1][0] != index:
                listings.append((index, m))
    out: dict[str, tuple[int, int]] = {}
    for name, listings in seen.items():
        if len(listings) > 1:
            best = min(listings, key=lambda item: (not item[1].series, not item[1].perf, item[0]))
            out[name] = (best[0], len(listings))
    return out


def _members(inventories: Sequence[Inventory], group_by: GroupBy, pattern: re.Pattern[str] | None) -> list[_Member]:
    """Every machine and volume with its group key ("" when the source does not give the grouped attribute); a
    machine listed in several files only from the listing :func:`repeated_machines` keeps."""

    def by_pattern(name: str) -> str:
        assert pattern is not None
        match = pattern.search(name)
        if not match:
            return ""
        return match.group(1) if match.groups() and match.group(1) is not None else match.group(0)

    repeated = repeated_machines(inventories)
    out: list[_Member] = []
    for index, inv in enumerate(inventories):
        for m in inv.machines:
            if m.name in repeated and repeated[m.name][0] != index:
                continue
            attr = _MACHINE_KEY[group_by]
            key = _machine_key(m, attr, by_pattern)
            out.append(_Member(m.name, key, _PREFIX[attr], "machine", m.perf, m.series, m.used_bytes,
                               m.provisioned_bytes, source=index, columns=inv.columns,
                               guest_used_bytes=m.guest_used_bytes if inv.column("guest_used") else None))
        for v in inv.volumes:
            attr = _VOLUME_KEY[group_by]
            key = _volume_key(v, attr, by_pattern)
            out.append(_Member(v.name, key, _PREFIX[attr], v.kind, v.perf, v.series, v.used_bytes, v.size_bytes,
                               v.protocol, v.protocol_source, source=index, clock=inv.clock))
    return out


def _machine_key(m: Machine, attr: str, by_pattern: Callable[[str], str]) -> str:
    """The machine's value of the grouped attribute ("" when not given)."""
    if attr == "pattern":
        return by_pattern(m.name)
    if attr == "tag":
        return m.tags[0] if m.tags else ""
    value: str = getattr(m, attr)
    return value


def _volume_key(v: Volume, attr: str, by_pattern: Callable[[str], str]) -> str:
    """The volume's value of the grouped attribute ("" when not given)."""
    if attr == "pattern":
        return by_pattern(v.name)
    value: str = getattr(v, attr)
    return value


def import_salt(inventories: Sequence[Inventory]) -> bytes:
    """The pseudonyms' secret salt: a digest of every member name and attribute of the import (the same files
    give the same salt; nobody holding only a guessed name can reproduce a pseudonym)."""
    digest = hashlib.sha256(b"storplan-import-v1")
    for inv in inventories:
        for m in inv.machines:
            digest.update(f"m\0{m.name}\0{m.cluster}\0{m.host}\0{m.datastore}\n".encode())
        for v in inv.volumes:
            digest.update(f"v\0{v.name}\0{v.svm}\0{v.aggregate}\0{v.node}\n".encode())
    return digest.digest()


def pseudonym(prefix: str, name: str, salt: bytes) -> str:
    """``prefix-`` followed by 8 hex digits of a salted SHA-256 of ``prefix`` and ``name`` (stable for one salt)."""
    digest = hashlib.sha256(salt + prefix.encode() + b"\0" + name.encode()).hexdigest()
    return f"{prefix}-{digest[:8]}"


def _sum_samples(samples: list[PerfSample]) -> PerfSample:
    """The sum of the samples of one interval (IOPS and MB/s added, latencies weighted by operations)."""

    def add(values: list[float | None]) -> float | None:
        known = [v for v in values if v is not None]
        return math.fsum(known) if known else None

    def weighted(pairs: list[tuple[float, float | None]]) -> float | None:
        known = [(n, ms) for n, ms in pairs if ms is not None and n > 0]
        ops = math.fsum(n for n, _ in known)
        return math.fsum(n * ms for n, ms in known) / ops if ops > 0 else None

    return PerfSample(time_s=samples[0].time_s, interval_s=max(s.interval_s for s in samples),
                      read_iops=math.fsum(s.read_iops for s in samples),
                      write_iops=math.fsum(s.write_iops for s in samples),
                      other_iops=math.fsum(s.other_iops for s in samples),
                      read_mbps=add([s.read_mbps for s in samples]),
                      write_mbps=add([s.write_mbps for s in samples]),
                      read_latency_ms=weighted([(s.read_iops, s.read_latency_ms) for s in samples]),
                      write_latency_ms=weighted([(s.write_iops, s.write_latency_ms) for s in samples]))


def _series_peak(members: list[_Member]) -> tuple[PerfSample | None, list[PerfSample]]:
    """The interval of the highest summed read + write IOPS (its summed figures) and the summed series (time order).
    Intervals are matched by their end time (rounded to the second)."""
    buckets: dict[float, list[PerfSample]] = {}
    for m in members:
        for s in m.series:
            buckets.setdefault(round(s.time_s), []).append(s)
    if not buckets:
        return None, []
    sums = [_sum_samples(samples) for _, samples in sorted(buckets.items())]
    return max(sums, key=lambda s: s.read_iops + s.write_iops), sums


def _nameless(label: str, members: Sequence[_Member]) -> str:
    """The name of the group of members without the grouped attribute: "machines without a cluster", "volumes
    without an SVM" (review 55 #16: "(no cluster value)" reached the report)."""
    attr = _NO_VALUE.get(label, label)
    kinds = {m.kind for m in members}
    noun = "machines" if kinds == {"machine"} else "LUNs" if kinds == {"lun"} else "volumes" if "machine" not in kinds \
        else "members"
    article = "an" if attr[:1].lower() in "aeio" or attr.startswith("SVM") else "a"
    return f"{noun} without {article} {attr}"


def _span_words(series: Sequence[PerfSample], clock: str = "UTC") -> str:
    """`` (from 2024-07-29 16:14 to 16:17 UTC)`` for a summed series with a clock, "" without one; ``clock``
    "cluster time" for times of the cluster's local clock (``Inventory.clock``)."""
    if not series or min(s.time_s for s in series) < _EPOCH_2001:
        return ""
    import datetime as _dt

    first = _dt.datetime.fromtimestamp(min(s.time_s - s.interval_s for s in series), _dt.UTC)
    last = _dt.datetime.fromtimestamp(max(s.time_s for s in series), _dt.UTC)
    end = last.strftime("%H:%M") if last.date() == first.date() else last.strftime("%Y-%m-%d %H:%M")
    return f" (from {first.strftime('%Y-%m-%d %H:%M')} to {end} {clock})"


def series_method(series: Sequence[PerfSample], clock: str = "UTC") -> tuple[str, bool]:
    """How a load taken from a summed series is called, and whether the series is too short to give a peak:
    "peak of sums over time (288 intervals)"; one interval: "one 141 s sample (from ... to ...), not a peak";
    intervals spanning less than :data:`SHORT_SERIES_S`: "the busiest of 3 intervals in 6 min (...), a short
    sample, not a peak"."""
    n = len(series)
    span = max(s.time_s for s in series) - min(s.time_s - s.interval_s for s in series)
    when = _span_words(series, clock)
    if n == 1:
        return f"one {series[0].interval_s:,.0f} s sample{when}, not a peak", True
    if span < SHORT_SERIES_S:
        return (f"the busiest of {n} intervals in {span / 60:,.0f} min{when}, a short sample, not a peak", True)
    return f"peak of sums over time ({n} intervals)", False


SHORT_SERIES_ADVICE = "collect at least a working day of counters to size on a peak"
"""What to do about a series too short to give a peak (:func:`series_method`)."""


def _protocol(members: list[_Member]) -> tuple[str, str, str]:
    """The protocol most members show (ties: by name), where it came from, and a note when members differ."""
    shown: dict[str, list[_Member]] = {}
    for m in members:
        if m.protocol:
            shown.setdefault(m.protocol, []).append(m)
    if not shown:
        return "", "", ""
    protocol = max(sorted(shown), key=lambda k: len(shown[k]))
    first = shown[protocol][0]
    noun = "LUN" if first.kind == "lun" else first.kind
    source = f"{len(shown[protocol])} of {len(members)} {noun}(s), from {first.protocol_source}"
    note = ""
    if len(shown) > 1:
        others = ", ".join(f"{k} ({len(v)})" for k, v in sorted(shown.items()) if k != protocol)
        note = f"members served several protocols: {protocol} taken (also {others})"
    return protocol, source, note


def mixed_latency_ms(sample: PerfSample) -> float | None:
    """The mean latency of one interval's reads and writes together, ms: each direction's latency weighted by its
    operations (None when neither direction has operations with a latency)."""
    parts = [(n, ms) for n, ms in ((sample.read_iops, sample.read_latency_ms),
                                   (sample.write_iops, sample.write_latency_ms)) if ms is not None and n > 0]
    ops = math.fsum(n for n, _ in parts)
    return math.fsum(n * ms for n, ms in parts) / ops if ops > 0 else None


def system_series(inventories: Iterable[Inventory]) -> list[PerfSample]:
    """The whole collection's load per interval: every volume's, LUN's and machine's series summed interval by
    interval (intervals matched by their end time, rounded to the second; latencies weighted by operations), in
    time order; empty when no member has a series."""
    buckets: dict[float, list[PerfSample]] = {}
    for inv in inventories:
        series: list[tuple[PerfSample, ...]] = [m.series for m in inv.machines] + [v.series for v in inv.volumes]
        for one in series:
            for s in one:
                buckets.setdefault(round(s.time_s), []).append(s)
    return [_sum_samples(samples) for _, samples in sorted(buckets.items())]


def _summary(m: _Member, stat: SummaryStat) -> tuple[PerfFigures | None, bool]:
    """A member's figures of ``stat`` (P95 falls back to peak: the second value says so)."""
    wanted = next((f for f in m.perf if f.statistic == stat), None)
    if wanted is not None and wanted.read_iops is not None and wanted.write_iops is not None:
        return wanted, False
    if stat == "p95":
        peak = next((f for f in m.perf if f.statistic == "peak"), None)
        if peak is not None and peak.read_iops is not None and peak.write_iops is not None:
            return peak, True
    return None, False


def _aggregate(name: str, members: list[_Member], stat: SummaryStat) -> ImportedGroup:
    """One group's load, mix and capacity."""
    notes: list[str] = []
    sources = tuple(sorted({m.source for m in members}))
    noun = ("LUN" if all(m.kind == "lun" for m in members) else "volume" if all(m.kind != "machine" for m in members)
            else "machine")
    used = sum(m.used_bytes if m.used_bytes is not None else (m.provisioned_bytes or 0) for m in members)
    provisioned = sum(m.provisioned_bytes if m.provisioned_bytes is not None else (m.used_bytes or 0)
                      for m in members)
    basis: CapacityBasis = "used"
    provisioned_only = sum(1 for m in members if m.used_bytes is None and m.provisioned_bytes is not None)
    if not any(m.used_bytes is not None or m.provisioned_bytes is not None for m in members):
        notes.append("the source gives no capacity for these members")
        basis = "none"
    elif not any(m.used_bytes is not None for m in members):
        notes.append("capacity is provisioned (no used capacity in the file): the members' provisioned size is "
                     "counted as their data")
        basis = "provisioned"
    elif provisioned_only:
        notes.append(f"provisioned capacity counted for {provisioned_only} of {len(members)} {noun}s whose used "
                     "capacity is not given")
        basis = "partly provisioned"
    with_series = [m for m in members if m.series]
    r_iops = w_iops = 0.0
    r_mb: float | None = None
    w_mb: float | None = None
    method = "no performance data"
    counted = 0
    latency: float | None = None
    summed_series: list[PerfSample] = []
    protocol, protocol_source, protocol_note = _protocol(members)
    if protocol_note:
        notes.append(protocol_note)
    if with_series:
        peak, summed_series = _series_peak(with_series)
        assert peak is not None
        r_iops, w_iops, r_mb, w_mb = peak.read_iops, peak.write_iops, peak.read_mbps, peak.write_mbps
        latency = mixed_latency_ms(peak)
        method, short = series_method(summed_series, with_series[0].clock)
        if short:
            notes.append(f"the load is {method.split(', not a peak')[0]}: {SHORT_SERIES_ADVICE}")
        if peak.other_iops > 0.1 * (r_iops + w_iops):
            notes.append(f"{peak.other_iops:,.0f} other (metadata) operations per second at the peak are not "
                         "counted as reads or writes")
        counted = len(with_series)
        rest = [m for m in members if not m.series]
    else:
        rest = members
    summed = 0
    fell_back = 0
    loaded: list[_Member] = []
    for m in rest:
        figures, fallback = _summary(m, stat)
        if figures is None:
            continue
        loaded.append(m)
        summed += 1
        fell_back += fallback
        r_iops += figures.read_iops or 0.0
        w_iops += figures.write_iops or 0.0
        if figures.read_mbps is not None:
            r_mb = (r_mb or 0.0) + figures.read_mbps
        if figures.write_mbps is not None:
            w_mb = (w_mb or 0.0) + figures.write_mbps
    label = "P95" if stat == "p95" else "peak"
    if fell_back and fell_back == summed:  # no member gave a P95: say what was summed
        label = "peak (no P95 in the data)"
    elif fell_back:
        label = "P95 (peak where no P95 is given)"
    if summed:
        latency = None  # summaries' latencies do not add up to a group's latency at a load
    if summed and counted:
        method += f" plus the sum of per-{noun} {label} of {summed} {noun}(s) without a series"
    elif summed:
        method = f"sum of per-{noun} {label}"
    if fell_back:
        notes.append(f"{fell_back} {noun}(s) give no P95: their peak is summed")
    counted += summed
    unloaded = tuple(m.name for m in rest if _summary(m, stat)[0] is None) if counted else ()
    if counted < len(members):  # review 57 #10: no capacity is counted where the files give none
        notes.append(f"{len(members) - counted} of {len(members)} {noun}s have no performance data: " +
                     ("the files give no capacity for them either" if basis == "none" else
                      "their capacity is counted, their load is not"))
    total_iops = r_iops + w_iops
    if counted == 0 or total_iops <= 0 or r_mb is None and w_mb is None:
        why = ("no performance data" if counted == 0 else "no I/O measured" if total_iops <= 0
               else "no throughput measured (the I/O size cannot be derived)")
        notes.append(f"{why}: no I/O mix is assumed; " + ("and no capacity is given: nothing of it is counted"
                                                           if basis == "none" else "its data counts for capacity "
                                                           "only until a preset's profile is applied"))
        return ImportedGroup(name, len(members), method, r_iops if counted else None, w_iops if counted else None,
                             r_mb, w_mb, None, None, used, provisioned, True, tuple(notes),
                             series=tuple(summed_series), protocol=protocol, protocol_source=protocol_source,
                             member_noun=noun, capacity_basis=basis, sources=sources, unloaded=unloaded,
                             guest_used_bytes=_guest(members), provenance=_provenance(members, []))
    kib = ((r_mb or 0.0) + (w_mb or 0.0)) * BYTES_PER_MB / total_iops / KIB
    if not MIN_IO_KIB <= kib <= MAX_IO_KIB:
        clamped = min(max(kib, MIN_IO_KIB), MAX_IO_KIB)
        notes.append(f"measured I/O size {kib:,.3g} KiB is outside {MIN_IO_KIB:g}-{MAX_IO_KIB:g} KiB: "
                     f"{clamped:g} KiB used")
        kib = clamped
    return ImportedGroup(name, len(members), method, r_iops, w_iops, r_mb, w_mb, 100.0 * r_iops / total_iops, kib,
                         used, provisioned, False, tuple(notes), latency, tuple(summed_series), protocol,
                         protocol_source, noun, basis, sources, unloaded, _guest(members),
                         _provenance(members, loaded if stat == "peak" or label.startswith("peak") else []))


def _guest(members: Sequence[_Member]) -> int | None:
    """What the members' guest file systems hold (review 57 #2), None when no member's file names it."""
    given = [m.guest_used_bytes for m in members if m.guest_used_bytes is not None]
    return sum(given) if given else None


def _provenance(members: Sequence[_Member], loaded: Sequence[_Member]) -> tuple[str, ...]:
    """Where a group's figures came from, per figure: "IOPS: sheet 'VM Performance' column 'Peak IOPS', sum of 4
    rows" (review 57 #5). ``loaded``: the members whose peak was summed (figures "iops", "mbps", "read"); the
    capacity from every member ("used", else "provisioned" where its used capacity is not given)."""

    def rows(n: int) -> str:
        return f"{n:,} row{'s' if n != 1 else ''}"

    out: list[str] = []
    for figure, words in (("iops", "IOPS"), ("mbps", "MB/s"), ("read", "read/write split")):
        at: dict[str, int] = {}
        for m in loaded:
            where = dict(m.columns).get(figure)
            if where:
                at[where] = at.get(where, 0) + 1
        out += [f"{words}: {where}, " + (f"sum of {rows(n)}" if figure != "read" else f"per row, {rows(n)}")
                for where, n in at.items()]
    capacity: dict[str, int] = {}
    for m in members:
        figure = "used" if m.used_bytes is not None else "provisioned" if m.provisioned_bytes is not None else ""
        where = dict(m.columns).get(figure) if figure else None
        if where:
            key = where + ("" if figure == "used" else " (provisioned, no used capacity given)")
            capacity[key] = capacity.get(key, 0) + 1
    out += [f"capacity: {where}, sum of {rows(n)}" for where, n in capacity.items()]
    return tuple(out)


def group_inventories(inventories: Sequence[Inventory], *, group_by: GroupBy = "cluster", stat: SummaryStat = "p95",
                      pattern: str | None = None, keep_names: bool = False,
                      salt: bytes | None = None) -> tuple[ImportedGroup, ...]:
    """Group the machines and volumes of ``inventories`` and aggregate each group (see the module's docstring).

    Args:
        inventories: what the readers returned; group_by: the grouping (a member without the grouped attribute
            joins the group "<members> without a(n) <attribute>", e.g. "machines without a cluster"); stat: the
            per-member summary summed where no series exists;
        pattern: with ``group_by="pattern"``, a regular expression searched in each name (its first group, or
            the whole match, names the group; no match: "(other)"); keep_names: keep the source's group names;
        salt: the pseudonyms' salt (default :func:`import_salt` of the inventories).

    Returns:
        The groups, sorted by their (output) name.

    Raises:
        InventoryError: nothing to group, a bad pattern, or no pattern with ``group_by="pattern"``.
    """
    compiled: re.Pattern[str] | None = None
    if group_by == "pattern":
        if not pattern:
            raise InventoryError("grouping by name pattern: give the pattern")
        try:
            compiled = re.compile(pattern)
        except re.error as exc:
            raise InventoryError(f"name pattern {pattern!r}: {exc}") from None
    members = _members(inventories, group_by, compiled)
    if not members:
        raise InventoryError("the files hold no machine, volume or LUN to import")
    salt = import_salt(inventories) if salt is None else salt
    by_key: dict[tuple[str, str], list[_Member]] = {}
    for m in members:
        by_key.setdefault((m.label, m.key), []).append(m)
    labels_of: dict[str, int] = {}
    for _, key in by_key:
        labels_of[key] = labels_of.get(key, 0) + 1
    groups: list[ImportedGroup] = []
    for (label, key), items in by_key.items():
        if not key:
            name = "(other)" if group_by == "pattern" else _nameless(label, items)
        elif keep_names:
            name = key
        else:
            name = pseudonym(label, key, salt)
        if keep_names and labels_of[key] > 1:  # a VM cluster and an SVM of the same name stay apart
            name = f"{name} ({label})"
        groups.append(_aggregate(name, items, stat))
    return tuple(sorted(groups, key=lambda g: g.name))


def to_workload(group: ImportedGroup, workload_id: str, target: str) -> Workload:
    """The project :class:`Workload` of ``group``, served by node ``target``.

    A measured group gives target IOPS = read + write IOPS, its read share and I/O size, random share 100% (no
    source measures it: the conservative case), the used capacity as data set and the provisioned one when
    larger (thin). A group needing a preset gives a capacity-only workload (``preset`` =
    :data:`models.project.model.CAPACITY_ONLY`, enabled, no target): its data counts for capacity; its I/O size,
    read and random shares are placeholders no engine evaluates until the user applies a preset's profile. Its
    name is the group's and its member count: no instruction to the user (the report prints names; the app shows
    the capacity-only hint beside the workload).
    """
    provisioned = group.provisioned_bytes if group.provisioned_bytes > group.used_bytes else None
    members = f"{group.members:,} {group.member_noun}{'s' if group.members != 1 else ''}"
    if group.needs_preset:  # the name says what it is; the preset marks it capacity-only (the app shows the hint)
        return Workload(id=workload_id, name=f"{group.name} ({members})"[:200],
                        preset=CAPACITY_ONLY, target=target, block_kib=MIN_IO_KIB, read_pct=0.0, random_pct=0.0,
                        dataset_bytes=group.used_bytes, provisioned_bytes=provisioned)
    assert group.read_pct is not None and group.block_kib is not None
    return Workload(id=workload_id, name=f"{group.name} ({members}, measured)"[:200], target=target,
                    block_kib=group.block_kib, read_pct=round(group.read_pct, 6), random_pct=ASSUMED_RANDOM_PCT,
                    target_iops=group.iops, dataset_bytes=group.used_bytes, provisioned_bytes=provisioned)


def import_environment(inventories: Sequence[Inventory], target: str, *, group_by: GroupBy = "cluster",
                       stat: SummaryStat = "p95", pattern: str | None = None, keep_names: bool = False,
                       base: Requirements | None = None) -> ImportResult:
    """Group, aggregate and turn ``inventories`` into workloads served by node ``target`` and requirements.

    Args:
        inventories, group_by, stat, pattern, keep_names: as :func:`group_inventories`; target: the node id of the
        storage system serving every workload (the sizer replaces the design); base: requirements to start from
        (default :class:`Requirements`), whose effective capacity becomes the imported used capacity (left as it
        is when the files give no capacity: not a measured 0).

    Raises:
        InventoryError: as :func:`group_inventories`, or more groups than one system may serve.
    """
    groups = group_inventories(inventories, group_by=group_by, stat=stat, pattern=pattern, keep_names=keep_names)
    empty = [g for g in groups if g.needs_preset and not g.used_bytes and not g.provisioned_bytes]
    if len(empty) == len(groups):
        empty = []  # nothing measured at all: the notes say so (ONTAP counter tables without their interval)
    groups = tuple(g for g in groups if g not in empty)  # no workload of no data and no load beside real ones
    if len(groups) > MAX_WORKLOADS_PER_TARGET:
        raise InventoryError(f"{len(groups):,} groups; a project holds at most {MAX_WORKLOADS_PER_TARGET} workloads "
                             "per storage system: group more coarsely")
    workloads = tuple(to_workload(g, f"{IMPORTED_ID_PREFIX}{i}", target) for i, g in enumerate(groups, start=1))
    capacity = sum(g.used_bytes for g in groups)
    provisioned = sum(g.provisioned_bytes for g in groups)
    notes: list[str] = []
    if empty:
        left = sum(g.members for g in empty)
        notes.append(f"{left:,} member(s) with neither capacity nor performance figures in the files are left out "
                     f"({', '.join(g.name for g in empty)}): no workload is made of them")
    repeated = repeated_machines(inventories)
    if repeated:
        named = f", e.g. {', '.join(sorted(repeated)[:3])}" if keep_names else ""
        notes.append(f"{len(repeated):,} machine(s) listed in more than one file (matched by name{named}) are "
                     "counted once: the listing with performance data, else the first file's, is kept")
    measured = [g for g in groups if not g.needs_preset]
    short = [g for g in measured if g.method.endswith("not a peak")]
    if short:
        notes.append(f"the load of {', '.join(g.name for g in short)} is {short[0].method}: "
                     f"{SHORT_SERIES_ADVICE}")
    if measured:
        notes.append(f"random share not measured by any source: {ASSUMED_RANDOM_PCT:g}% random assumed; "
                     "set it per workload")
    waiting = len(groups) - len(measured)
    if waiting:
        notes.append(f"{waiting} workload(s) without performance data count for capacity only (their data is "
                     "stored; no load is evaluated) until a preset's profile is applied (Workloads panel, "
                     "\u201cApply preset\u201d)")
        if not measured:
            notes.append("no performance data at all: a design is sized on capacity and the other stated "
                         "requirements alone")
    if capacity == 0 and not any(g.used_bytes or g.provisioned_bytes for g in groups):
        notes.append("capacity unknown: the files give no capacity; enter the effective capacity needed "
                     "(Requirements) before sizing")
    notes.append(GROWTH_NOTE)
    kept = [m for index, inv in enumerate(inventories) for m in inv.machines
            if m.name not in repeated or repeated[m.name][0] == index]  # as _members counts them
    off = sum(1 for m in kept if m.powered_on is False and not m.template)
    templates = sum(1 for m in kept if m.template)
    if off or templates:
        parts = [f"{off:,} powered-off machine(s)"] if off else []
        parts += [f"{templates:,} template(s)"] if templates else []
        notes.append(f"{' and '.join(parts)} of {len(kept):,} counted for "
                     "capacity (their disks hold data); they issue no I/O. Remove their capacity where they are to "
                     "be retired")
    nameless = [g.name for g in groups if re.match(r"(machines|volumes|LUNs|members) without an? ", g.name)]
    tagged = any(m.tags for inv in inventories for m in inv.machines)
    if nameless and group_by != "tag" and tagged:
        notes.append(f"{', '.join(nameless)}: members without that attribute; the files carry tags: grouping by "
                     "tag (--group-by tag, or the import wizard's grouping) may name them")
    basis = _basis(groups)
    if basis == "provisioned":
        notes.append(f"capacity: {capacity_words(capacity, provisioned, basis)}: the provisioned disk sizes are "
                     "counted as the data to store (thin disks hold less); set the effective capacity needed "
                     "(Requirements) where the used capacity is known")
    if provisioned > capacity:
        notes.append(f"thin provisioning: {provisioned / 2**40:,.2f} TiB provisioned, {capacity / 2**40:,.2f} TiB "
                     "used")
    requirements = base or Requirements()
    if capacity or provisioned:  # review 57 #3: an import without capacity leaves the stated capacity as it is
        requirements = requirements.with_changes(effective_capacity_bytes=capacity)
    from models.importers.completeness import completeness_warnings

    salt = import_salt(inventories)
    warnings = completeness_warnings(inventories, (lambda c: c) if keep_names else
                                     (lambda c: pseudonym("cluster", c, salt)))
    return ImportResult(groups=groups, workloads=workloads, requirements=requirements, capacity_bytes=capacity,
                        provisioned_bytes=provisioned, iops=sum(w.target_iops or 0.0 for w in workloads
                                                                if w.enabled),
                        mbps=sum(g.mbps for g in measured), notes=tuple(notes), capacity_basis=basis,
                        warnings=warnings, guest_used_bytes=_sum_given(g.guest_used_bytes for g in groups))


def _sum_given(values: Iterable[int | None]) -> int | None:
    """The sum of the values given, None when none is."""
    given = [v for v in values if v is not None]
    return sum(given) if given else None
