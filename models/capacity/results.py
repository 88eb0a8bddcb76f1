"""Result records of the capacity engine: frozen dataclasses shared by the GUI waterfall, the PDF report and the CLI.

Every capacity is a float number of bytes. A waterfall is a tuple of :class:`CapacityStep` from "Raw (marketed)"
down to usable, then up from usable to effective (the effective-side steps multiply the usable capacity by the
efficiency each one adds: the data-reduction steps end exactly at ``effective_bytes``, the Snapshot and FlexClone
steps after them at ``effective_with_snapshots_bytes``).
"""


from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


def frozen_inputs(inputs: Mapping[str, str] | None = None) -> Mapping[str, str]:
    """A read-only copy of a step's labelled inputs."""
    return MappingProxyType(dict(inputs or {}))


@dataclass(frozen=True, eq=False)
class CapacityStep:
    """One bar of the waterfall.

    Attributes:
        name: the field's term ("Right-sized", "RAID DP parity", "WAFL reserve", "Compression", ...).
        bytes_before: capacity before the step.
        bytes_after: capacity after the step.
        source: where the rule or constant comes from (seed / datasheet), or ``"assumed: ..."``.
        formula: the arithmetic in words with its numbers (e.g. ``"4 parity partitions x 689.96 GiB"``).
        inputs: labelled inputs for the GUI tooltip.
    """

    name: str
    bytes_before: float
    bytes_after: float
    source: str
    formula: str
    inputs: Mapping[str, str] = field(default_factory=frozen_inputs)

    @property
    def delta_bytes(self) -> float:
        """bytes_after - bytes_before (negative for a deduction)."""
        return self.bytes_after - self.bytes_before


@dataclass(frozen=True)
class Aggregate:
    """One aggregate / volume group / pool / datastore as the engine built it.

    ``node`` is 1-based (0 = the whole system, e.g. an E-Series pool or a vSAN datastore). ``group_sizes`` holds
    the members (drives or partitions, parity included) of each RAID group; ``member_bytes`` the size of one
    member. ``data_bytes`` is after parity; ``usable_bytes`` after the reserves.
    """

    node: int
    name: str
    drive_id: str
    raid_type: str
    group_sizes: tuple[int, ...]
    parity_per_group: int
    member_bytes: float
    data_bytes: float
    usable_bytes: float


@dataclass(frozen=True)
class EfficiencyDetail:
    """The numbers behind the effective-side steps of one system (or of the whole scenario).

    Attributes:
        logical_data_bytes: sum of the workloads' dataset_bytes.
        after_compression_bytes / after_compaction_bytes / physical_data_bytes: the data after each inline step
            (ONTAP's order: compression, compaction, deduplication).
        snapshot_copies: Snapshot copies kept (sum over workloads).
        snapshot_physical_bytes: blocks held by the Snapshot copies (physical).
        snapshot_logical_bytes: logical size of the copies (each counts its volume's logical size, as ONTAP does).
        snapshot_saved_bytes: space saved against full copies stored on the same system (each full copy would take
            the workload's physical data size); the seed 000 §3.6 reading.
        snapshot_savings_ratio: snapshot_saved_bytes / snapshot_physical_bytes ("9:1" in seed 000), 1.0 if none.
        clone_logical_bytes / clone_physical_bytes: FlexClone copies (physical 0 until they change).
        provisioned_bytes: sum of the provisioned sizes (dataset when not given).
        thin_unallocated_bytes: provisioned - dataset, never physical.
        protection_factor: raw bytes written per byte of data by the system's protection outside ``usable``
            (vSAN FTT policy factor; 1.0 elsewhere, where RAID is already inside ``usable``).
    """

    logical_data_bytes: float = 0.0
    after_compression_bytes: float = 0.0
    after_compaction_bytes: float = 0.0
    physical_data_bytes: float = 0.0
    snapshot_copies: float = 0.0
    snapshot_physical_bytes: float = 0.0
    snapshot_logical_bytes: float = 0.0
    snapshot_saved_bytes: float = 0.0
    snapshot_savings_ratio: float = 1.0
    clone_logical_bytes: float = 0.0
    clone_physical_bytes: float = 0.0
    provisioned_bytes: float = 0.0
    thin_unallocated_bytes: float = 0.0
    protection_factor: float = 1.0

    @property
    def footprint_bytes(self) -> float:
        """Physical used (data + snapshots + clones) x protection_factor: what e.g. vSAN reports as used."""
        return (self.physical_data_bytes + self.snapshot_physical_bytes + self.clone_physical_bytes) * (
            self.protection_factor
        )


@dataclass(frozen=True)
class CapacityResult:
    """The capacity of one system (a controller with its shelves, an HCI cluster or a cloud VM).

    Attributes:
        usable_bytes: after partitioning, spares, RAID / FTT, reserves and licence caps.
        effective_bytes: usable x data_reduction_ratio: the logical data the usable space holds at the workloads'
            inline data reduction (compression, compaction, deduplication; Snapshot and FlexClone copies not
            counted), the effective capacity a customer is sold; usable when no workload targets the system.
        logical_used_bytes: logical data + Snapshot logical + FlexClone logical.
        physical_used_bytes: physical data after inline efficiency + Snapshot blocks + clone blocks.
        data_reduction_ratio: logical data / physical data (inline compression, compaction, dedupe only).
        efficiency_ratio: logical_used / physical_used, as ONTAP's ``storage aggregate show-efficiency`` reports
            the total ratio (seed 000 §1.3), Snapshot and FlexClone copies counted; 1.0 without data. Not the
            headline ratio: that is ``data_reduction_ratio`` (see :attr:`effective_with_snapshots_bytes`).
        months_until_full: months until physical_used reaches usable at the workloads' growth, (1 + g)^(months / 12);
            None when nothing grows; 0.0 when already full.
        layout: human lines, e.g. ``"node 1: aggregate RAID DP 1 x (21+2) data partitions, 1 spare drive"``.
        notes: assumptions in words. problems: what is wrong with the input (never raised).
        aggregates, efficiency: the detail behind the steps (for the report and the validation cases).
        usable_step_count: how many of ``steps`` lead from raw to usable (the rest are the efficiency side, raw to
            effective); None when not known.
        inline_efficiency: whether the platform applies (compression, compaction, deduplication); a ratio it does
            not apply counts as 1:1 (``models.capacity.efficiency.effective_side``).
        reduction_off: why no data reduction applies where the platform could apply some, in words: the design's
            own setting turned it off (a vSAN cluster with deduplication and compression off); "" when the
            platform applies what it can, or applies none.
    """

    system_id: str
    system_label: str
    family: str
    steps: tuple[CapacityStep, ...]
    raw_bytes: float
    right_sized_bytes: float
    usable_bytes: float
    effective_bytes: float
    logical_used_bytes: float
    physical_used_bytes: float
    data_reduction_ratio: float
    efficiency_ratio: float
    months_until_full: float | None
    layout: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()
    problems: tuple[str, ...] = ()
    aggregates: tuple[Aggregate, ...] = ()
    efficiency: EfficiencyDetail = field(default_factory=EfficiencyDetail)
    usable_step_count: int | None = None
    inline_efficiency: tuple[bool, bool, bool] = (True, True, True)
    reduction_off: str = ""

    def step(self, name: str) -> CapacityStep | None:
        """The first step with this name, or None."""
        return next((s for s in self.steps if s.name == name), None)

    @property
    def effective_with_snapshots_bytes(self) -> float:
        """usable x efficiency_ratio: the logical data including Snapshot and FlexClone copies the usable space
        holds (the seed report's "total effective capacity", seed 000 §1.3), bytes; shown beside
        ``effective_bytes``, labelled, never as the headline."""
        return self.usable_bytes * self.efficiency_ratio


@dataclass(frozen=True)
class CapacityTotals:
    """Scenario totals over the systems that serve workloads (a system that is only a replication destination
    holds copies, not more capacity for the data: ``ScenarioCapacity.replica_only``; ratios are byte-weighted:
    total logical / total physical).

    ``effective_bytes`` (data reduction only) and ``effective_with_snapshots_bytes`` (Snapshot and FlexClone copies
    counted) are the systems' sums, as :class:`CapacityResult` defines them."""

    raw_bytes: float = 0.0
    right_sized_bytes: float = 0.0
    usable_bytes: float = 0.0
    effective_bytes: float = 0.0
    logical_used_bytes: float = 0.0
    physical_used_bytes: float = 0.0
    data_reduction_ratio: float = 1.0
    efficiency_ratio: float = 1.0
    months_until_full: float | None = None
    effective_with_snapshots_bytes: float = 0.0


@dataclass(frozen=True)
class ScenarioCapacity:
    """The capacity of every system of a scenario, their totals, and the scenario-level problems.

    ``problems`` holds every system's problems (prefixed by the system) plus those of no single system
    (a workload whose target is not a system, a shelf linked to no controller).
    """

    systems: tuple[CapacityResult, ...]
    total: CapacityTotals
    problems: tuple[str, ...] = ()
    replica_only: tuple[str, ...] = ()
    """Node ids of the systems that serve no workload and are the destination of a replication relationship:
    they hold copies of another system's data, so ``total`` leaves them out (their own figures stay in
    ``systems``)."""

    def system(self, system_id: str) -> CapacityResult | None:
        """The result of the system with node id ``system_id``, or None when no system has that id."""
        return next((s for s in self.systems if s.system_id == system_id), None)

    def is_replica_only(self, system_id: str) -> bool:
        """True when the system ``system_id`` only holds replication copies (:attr:`replica_only`)."""
        return system_id in self.replica_only

    @property
    def counted(self) -> tuple[CapacityResult, ...]:
        """The systems ``total`` sums: every system but the replication-only destinations."""
        return tuple(s for s in self.systems if s.system_id not in self.replica_only)
