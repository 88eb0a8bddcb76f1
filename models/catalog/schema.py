"""Catalog record types: every hardware kind StorPlan knows, validated with pydantic.

Every record carries ``provenance``: a mapping from each numeric field's name to a :class:`Provenance`, the
number's kind (sourced, calibrated, derived or assumed), its source text (a seed file and section, a named public
datasheet, the derivation, or the reason for an assumption) and, for a number a fit set, the fit's name.
Validation refuses a record whose numbers lack a provenance, so the report can print the provenance of every
number; what reads a number's kind reads the ``kind`` field, never the wording of its source.
"""

# No ``from __future__ import annotations``: pydantic would ``eval`` (compile) each string annotation when a record
# type is defined, ~4 ms of every start (issue 27; see models/project/model.py); names not yet defined are quoted.

import re
from collections.abc import Mapping
from typing import Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Protocol = Literal["FCP", "NVMe/FC", "NVMe/TCP", "iSCSI", "NFS", "SMB", "SAS", "NVMe", "vSAN"]
ID_PATTERN = r"^[a-z0-9][a-z0-9._-]*$"

ProvenanceKind = Literal["sourced", "calibrated", "derived", "assumed"]
"""How a catalog number was obtained (``models.catalog.provenance`` counts them)."""

PROVENANCE_KINDS: tuple[str, ...] = ("sourced", "calibrated", "derived", "assumed")
"""The kinds, in the order reports print them: sourced (a seed or named public document), calibrated (set by one
of StorPlan's fits to published measurements), derived (computed from other numbers by a stated derivation),
assumed (an engineering assumption with its reason)."""


KIND_LABELS: dict[str, str] = {"sourced": "", "calibrated": "fitted", "derived": "derived", "assumed": "assumed"}
"""The word put before a source text of each kind where a person reads it (:attr:`Provenance.cited`; a sourced
number's text names its document and needs none)."""

# Bounds on every number a record may hold: far beyond any real hardware, so that no genuine record is refused,
# yet near enough that a number read from a damaged or hostile file (a project's own records, a user catalog, a
# .storplan file's pinned records) can never make an engine overflow, divide by zero or run for minutes. A record
# outside them is refused when it is read, with the record and the field named, by every front door alike.
MAX_DEVICE_BYTES = 10**15
"""One drive or cloud disk, bytes: 1 PB, 8 x the largest drive sold (122.88 TB SSDs, 2024)."""
MAX_SYSTEM_BYTES = 10**18
"""One system, service or licence cap, bytes: 1 EB, some 90 x the largest managed service in the catalog."""
MIN_LICENCE_BYTES = 10**9
"""The smallest capacity licence cap, bytes: 1 GB (the smallest sold, Cloud Volumes ONTAP Freemium, caps at 500 GiB);
a cap of a few bytes would make every design fail and the sizer search all of them."""
MAX_TIME_US = 10**7
"""A service time, demand or latency, microseconds: 10 s (a seeking HDD takes about 12,000 us)."""
MIN_TIME_US = 1e-3
"""The shortest device or service latency, microseconds: 1 ns (a DRAM access takes about 100 ns)."""
MAX_RATE_MBPS = 10**7
"""A bandwidth, MB/s: 10 TB/s, some 800 x the fastest controller in the catalog."""
MIN_RATE_MBPS = 1e-3
"""The slowest bandwidth, MB/s: 1 kB/s (a smaller one would make one I/O's transfer take hours)."""
MAX_PORT_GBPS = 1600
"""A port or link speed, Gbit/s: 1.6 Tb Ethernet, the fastest standard in draft (IEEE 802.3dj)."""
MIN_PORT_GBPS = 1e-3
"""The slowest port or network, Gbit/s: 1 Mbit/s."""
MAX_IOPS = 1e10
"""An IOPS limit: 10^10, some 5,000 x the fastest cloud cache in the catalog."""
MAX_RPM = 20_000
"""Spindle speed: the fastest HDDs sold spin at 15,000 rpm."""
MAX_PARALLELISM = 4096
"""I/Os one drive serves at once: the NVMe specification allows 65,535 queues, SSDs have at most a few hundred
flash channels and dies in parallel."""
MAX_PORTS = 1024
"""Ports or lanes of one adapter, switch, shelf or controller node: the largest director switches have 768."""
MAX_CORES = 4096
"""Cores, vCPUs or CPU servers of one node or VM: the largest servers sold have under 1,000."""
MAX_SOCKETS = 64
"""CPU sockets of one host: the largest single-image servers have 32."""
MAX_MEMORY_GIB = 2**20
"""Memory or cache of one node, GiB: 1 PiB (the largest servers hold 32 TiB)."""
MAX_CONTROLLER_NODES = 24
"""Nodes of one controller system: an ONTAP cluster has at most 24 (12 HA pairs for NAS); a project's
controller node takes the same limit."""
MAX_DRIVES = 10_000
"""Drives behind one controller system: ONTAP's largest HA pairs take 5,760 (1,440 per node x 4)."""
MAX_BAYS = 1024
"""Bays of one shelf: the densest shelves hold 106 drives."""
MAX_GROUP_DRIVES = 512
"""Drives in one RAID group or vSAN disk group: ONTAP allows 29 (RAID-TEC), E-Series 30, DDP pools up to 480."""
MAX_GROUPS = 64
"""vSAN disk groups per host: vSAN allows 5."""
MAX_DISKS = 4096
"""Data disks one cloud VM attaches: the providers' largest VMs take 64 to 128."""
MAX_RACK_UNITS = 60
"""Height of one chassis, rack units: the tallest racks are 58 U."""
MAX_POWER_W = 10**6
"""Power of one system, watts: 1 MW, some 400 x the largest controller in the catalog."""
MIN_IO_KIB, MAX_IO_KIB = 0.5, 65_536.0
"""The smallest and largest I/O a provider counts as one operation, KiB: a 512-byte sector and 64 MiB."""
MAX_NAME = 200
"""Characters in a record's name and other one-line text (a model name is a few dozen)."""
MAX_TEXT = 20_000
"""Characters in a record's notes or a source text (a datasheet citation is a few hundred)."""
MAX_LIST = 1_000
"""Items in one list of a record (profiles, protocols, compatible ids)."""

CONTROL_CHARACTER = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""Control characters no text of a record may hold (tab, line feed and carriage return are allowed): what a
spreadsheet cell refuses (openpyxl's ILLEGAL_CHARACTERS_RE) and what no datasheet prints."""


def control_character_problem(value: Any, where: str = "") -> str | None:
    """The first control character (:data:`CONTROL_CHARACTER`) in ``value``'s text, searched through nested
    mappings and lists, as "field 'where': holds a control character (U+0000) ..."; None when there is none.

    Args:
        value: a string, a mapping or a list (what a record's fields hold before validation); where: its field
            name, dotted for nested values.
    """
    stack: list[tuple[Any, str]] = [(value, where)]
    while stack:
        item, place = stack.pop()
        if isinstance(item, str):
            found = CONTROL_CHARACTER.search(item)
            if found is not None:
                return (f"field '{place}': holds a control character (U+{ord(found.group()):04X}); text may hold "
                        "letters, digits, punctuation, tabs and line breaks only")
        elif isinstance(item, Mapping):
            stack.extend((v, f"{place}.{k}" if place else str(k)) for k, v in item.items())
            stack.extend((k, place) for k in item if isinstance(k, str))
        elif isinstance(item, (list, tuple)):
            stack.extend((v, place) for v in item)
    return None


def _has_number(value: Any) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, dict):
        return any(_has_number(v) for v in value.values())
    if isinstance(value, (list, tuple)):
        return any(_has_number(v) for v in value if not isinstance(v, Sourced))
    if isinstance(value, BaseModel) and not isinstance(value, Sourced):
        return any(_has_number(getattr(value, name)) for name in type(value).model_fields)
    return False


class Provenance(BaseModel):
    """Where one field's numbers come from.

    Attributes:
        kind: "sourced" | "calibrated" | "derived" | "assumed" (:data:`PROVENANCE_KINDS`).
        source: the text a person reads: the document and section, the derivation, or the assumption's reason
            (at least 8 characters for an assumption).
        fit: the name of the fit whose estimate the number is (a seed fit step of
            ``models.calibration.seed_profiles.seed_fits``, or a user's lab fit): required for "calibrated"; for
            "derived", the fit of the estimate it was derived from, if any ("" otherwise); never set for
            "sourced" or "assumed". A field with a fit has its standard error in ``PerfProfile.stderr`` when the
            fit could identify it.

    Raises:
        pydantic.ValidationError: an unknown kind, an empty source, a calibrated number without its fit, a fit on
            a sourced or assumed number, an assumption without a reason.
    """

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True)

    kind: ProvenanceKind
    source: str = Field(min_length=1, max_length=MAX_TEXT)
    fit: str = Field(default="", max_length=MAX_TEXT)

    @property
    def cited(self) -> str:
        """The source as a person reads it, its kind in front where it is not a document: "assumed: <reason>",
        "derived: <derivation>", "fitted: <data>" (calibrated), or the document itself (sourced)."""
        label = KIND_LABELS[self.kind]
        return f"{label}: {self.source}" if label else self.source

    @model_validator(mode="after")
    def _fit_matches_kind(self) -> "Provenance":
        if not self.source.strip():
            raise ValueError("a provenance needs its source text")
        if self.kind == "calibrated" and not self.fit.strip():
            raise ValueError("a calibrated number names the fit that set it ('fit')")
        if self.kind in ("sourced", "assumed") and self.fit:
            raise ValueError(f"a {self.kind} number names no fit")
        if self.kind == "assumed" and len(self.source.strip()) < 8:
            raise ValueError("an assumed number needs its reason in 'source'")
        return self


class Sourced(BaseModel):
    """A record whose numeric fields each carry their :class:`Provenance` in ``provenance``.

    Every numeric field the record sets must have a provenance; a field left at its default (e.g. ``parallelism =
    1``) is documented by the schema itself and needs none.

    Records written before the provenance field existed (a ``sources`` mapping of field -> text, in a user
    catalog or a project file's pinned records) are migrated on reading by
    :func:`models.catalog.legacy.legacy_provenance`, the only place a kind is read from a source's wording.
    """

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, allow_inf_nan=False)

    provenance: dict[str, Provenance] = Field(default_factory=dict)

    @model_validator(mode="before")
    @classmethod
    def _migrate_sources(cls, data: Any) -> Any:
        """An older record's ``sources`` (field -> text) becomes ``provenance`` (models.catalog.legacy); text with a
        control character is refused (:func:`control_character_problem`)."""
        if isinstance(data, Mapping) and (problem := control_character_problem(data)) is not None:
            raise ValueError(problem)
        if isinstance(data, Mapping) and "sources" in data:
            from models.catalog.legacy import legacy_provenance

            data = dict(data)
            sources = data.pop("sources") or {}
            if "provenance" in data:
                raise ValueError("give either 'provenance' or the older 'sources', not both")
            stderr = data.get("stderr") if "stderr" in cls.model_fields else None
            fitted = list(stderr) if isinstance(stderr, Mapping) else []
            data["provenance"] = legacy_provenance(sources, fitted, str(data.get("source", "") or ""))
        return data

    @model_validator(mode="after")
    def _every_number_has_a_source(self) -> "Sourced":
        missing = [
            name
            for name in type(self).model_fields
            if name != "provenance"
            and name in self.model_fields_set  # a value left at its documented default needs no source
            and _has_number(getattr(self, name))
            and name not in self.provenance
        ]
        if missing:
            raise ValueError(
                "numbers without a provenance: "
                + ", ".join(missing)
                + " (add them to 'provenance' as {kind = 'sourced' | 'calibrated' | 'derived' | 'assumed', "
                  "source = '<seed/datasheet reference, derivation or reason>'})"
            )
        for name in self.provenance:
            if name not in type(self).model_fields:
                raise ValueError(f"provenance names an unknown field '{name}'")
        return self

    @property
    def sources(self) -> dict[str, str]:
        """Field -> source text, for people (the report's sources table, the catalog browser)."""
        return {name: p.source for name, p in self.provenance.items()}

    def source_of(self, field: str) -> str:
        """The source text of one field (``""`` when the field holds no number)."""
        p = self.provenance.get(field)
        return p.source if p is not None else ""

    def cited(self, field: str) -> str:
        """The source of one field as a person reads it, its kind in front (:attr:`Provenance.cited`); ``""`` when
        the field has no provenance."""
        p = self.provenance.get(field)
        return p.cited if p is not None else ""

    def kind_of(self, field: str) -> str | None:
        """The provenance kind of one field (:data:`PROVENANCE_KINDS`); None when the field has no provenance."""
        p = self.provenance.get(field)
        return p.kind if p is not None else None

    def fit_of(self, field: str) -> str:
        """The name of the fit whose estimate the field is (``""`` when no fit set it: :class:`Provenance`)."""
        p = self.provenance.get(field)
        return p.fit if p is not None else ""


class Entry(Sourced):
    """Fields every catalog record has."""

    KIND: ClassVar[str] = ""
    SOURCED_TEXT_FIELDS: ClassVar[tuple[str, ...]] = ("lifecycle", "part_number")
    """Fields that hold no number yet need a source when set (the forms list them beside the numbers)."""

    id: str = Field(pattern=ID_PATTERN, max_length=MAX_NAME)
    name: str = Field(min_length=1, max_length=MAX_NAME)
    vendor: str = Field(default="", max_length=MAX_NAME)
    notes: str = Field(default="", max_length=MAX_TEXT)
    based_on: str = Field(default="", description="the stock record this is the user's own copy of (a lab fit, an "
                                                  "edited duplicate): it takes the parts sold for that record")
    lifecycle: Literal["", "current", "installed base", "end of sale"] = Field(
        default="", description="where the model stands in its vendor's range: sold today, the installed base a "
                                "refresh starts from, or no longer sold; '' = not said. A value needs its source")

    part_number: str = Field(default="", max_length=MAX_NAME,
        description="the vendor's public order number of the model (e.g. AFF-C30A-100-C); '' = none published. A "
                    "value needs its source")

    @model_validator(mode="after")
    def _lifecycle_has_a_source(self) -> "Entry":
        if self.lifecycle and "lifecycle" not in self.provenance:
            raise ValueError("lifecycle needs a source in 'provenance' (the vendor page that lists the model as "
                             "current, or where an end-of-sale notice was looked for)")
        if self.part_number and "part_number" not in self.provenance:
            raise ValueError("part_number needs a source in 'provenance' (the public page that gives it)")
        return self

    @property
    def kind(self) -> str:
        """The record's kind, its table name in the catalog TOML: "drive", "shelf", "controller", ... (``KIND``)."""
        return self.KIND


class RaidGroupRule(BaseModel):
    """Default and maximum RAID group size (drives, parity included) for one RAID type."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, allow_inf_nan=False)

    default: int = Field(ge=2, le=MAX_GROUP_DRIVES)
    max: int = Field(ge=2, le=MAX_GROUP_DRIVES)


class Drive(Entry):
    """A drive model: marketed and right-sized capacity, interface and service times."""

    KIND: ClassVar[str] = "drive"

    media: Literal["SSD", "HDD"]
    interface: Literal["SAS", "NVMe", "FC", "SATA"]
    marketed_bytes: int = Field(gt=0, le=MAX_DEVICE_BYTES)
    right_sized_bytes: int = Field(gt=0, le=MAX_DEVICE_BYTES)
    rpm: int | None = Field(default=None, gt=0, le=MAX_RPM)
    read_service_time_us: float = Field(ge=MIN_TIME_US, le=MAX_TIME_US)
    write_service_time_us: float = Field(ge=MIN_TIME_US, le=MAX_TIME_US)
    parallelism: int = Field(default=1, ge=1, le=MAX_PARALLELISM,
        description="I/Os the drive serves at once (SSD channels)")
    max_read_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    max_write_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    raid_group_sizes: dict[str, RaidGroupRule] = Field(
        default_factory=dict, description="ONTAP default/max RAID group size by RAID type (raid4, raid_dp, raid_tec)"
    )
    controllers: list[str] = Field(
        default_factory=list,
        description="catalog ids of the controllers that take this drive (a platform rule, e.g. the AFF C-series' QLC "
                    "SSDs are not sold for the A-series); empty: any controller whose shelves take its interface")
    families: list[Literal["ONTAP", "E-Series", "generic"]] = Field(
        default_factory=list, description="controller families the drive is sold for (its firmware and right-sizing "
                                          "are the family's); empty: any. The sizer offers a drive only to these, the "
                                          "design check warns on another")
    form_factor: Literal["", "2.5", "3.5"] = Field(
        default="", description="drive carrier size in inches ('2.5' SSD and 10K SAS, '3.5' NL-SAS); '' = not given "
                                "(any shelf of its interface takes it)")
    typical_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="typical (active, mixed I/O) power of one drive, watts; None: not given (a footprint names it)")
    max_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="published maximum power of one drive, watts; None: not published")

    @model_validator(mode="after")
    def _right_sized_not_larger(self) -> "Drive":
        if self.right_sized_bytes > self.marketed_bytes:
            raise ValueError("right_sized_bytes is larger than marketed_bytes")
        return self


class Shelf(Entry):
    """A drive shelf or a controller's internal bays."""

    KIND: ClassVar[str] = "shelf"

    bays: int = Field(gt=0, le=MAX_BAYS)
    drive_interfaces: list[Literal["SAS", "NVMe", "FC", "SATA"]]
    backend_link: str = Field(description="link id of the back-end connection (e.g. sas-6g)")
    backend_lanes: int = Field(gt=0, le=MAX_PORTS, description="back-end lanes or ports per shelf")
    internal: bool = False
    rack_units: int = Field(default=2, gt=0, le=MAX_RACK_UNITS)
    typical_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="typical power of the enclosure without drives (power supplies, fans, I/O modules), watts; the "
                    "drives' own power is added per drive (models.present.bom.footprint); None: not given")
    max_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="published maximum power of the enclosure, watts; None: not published")
    form_factors: list[Literal["2.5", "3.5"]] = Field(
        default_factory=list, description="drive sizes (inches) the bays take, e.g. DS224C ['2.5'], DS212C ['3.5', "
                                          "'2.5'] (2.5-inch drives in carriers); empty = not checked")

    def takes(self, drive: Drive) -> bool:
        """True when the bays take ``drive``: its interface is one of ``drive_interfaces`` and, where both the shelf
        and the drive give a size, its ``form_factor`` is one of ``form_factors`` (NetAppDocs ontap-systems
        'sas3/service-monitor-leds.adoc': 'DS224C disk shelves use 2.5-inch disk drives'; 'DS212C disk shelves use
        3.5-inch disk drives or 2.5-inch disk drives in carriers': a 3.5-inch NL-SAS drive does not fit a DS224C)."""
        if drive.interface not in self.drive_interfaces:
            return False
        return not (self.form_factors and drive.form_factor and drive.form_factor not in self.form_factors)


class PerfProfile(Sourced):
    """Fitted controller performance parameters for one software version and protocol.

    Produced by calibration (``models.calibration``) from published (IOPS, latency) points; ``source`` records
    the profile's origin in words (seed, points used, fit residual); each field's ``provenance`` says whether the
    fit set it (kind "calibrated", with the fit's name) or it was held, derived or assumed.
    """

    software: str
    protocol: Protocol
    cpu_read_us: float = Field(ge=0, le=MAX_TIME_US,
        description="CPU service demand per 8 KiB read I/O on one server, us")
    cpu_write_us: float = Field(ge=0, le=MAX_TIME_US,
        description="CPU service demand per 8 KiB write I/O on one server, us")
    cpu_per_kib_us: float = Field(default=0.0, ge=0, le=MAX_TIME_US,
        description="extra CPU demand per KiB beyond 8 KiB, us")
    servers_per_node: int = Field(ge=1, le=MAX_CORES, description="effective parallelism of a node's CPU station")
    fixed_latency_us: float = Field(default=0.0, ge=0, le=MAX_TIME_US,
                                      description="pipeline latency not subject to queueing, us")
    cpu_write_per_kib_us: float | None = Field(
        default=None, ge=0, le=MAX_TIME_US,
        description="extra CPU demand per KiB beyond 8 KiB of a write, us (None: cpu_per_kib_us, as for a read)",
    )
    sequential_cpu_factor: float = Field(
        default=1.0, gt=0, le=1,
        description="CPU demand of a sequential I/O as a fraction of a random one of the same size and direction "
        "(1: no difference; fitted where the data tell random from sequential I/O apart)",
    )
    affinity_hold_us: float = Field(
        default=0.0, ge=0, le=MAX_TIME_US,
        description="time one operation holds its WAFL affinity (the serialisation domain its file-system work runs "
        "in, one message at a time), us; 0: affinities not modelled (models.performance.paths.affinity_station)",
    )
    affinity_hold_scv: float = Field(
        default=1.0, ge=0, le=50,
        description="squared coefficient of variation of an operation's affinity hold time (1: exponential); "
        "fitted with affinity_hold_us where a measured ramp gives the knee's shape",
    )
    core_contention: float = Field(
        default=0.0, ge=0, le=1,
        description="Amdahl serial fraction of the CPU work (Gunther's universal scalability law with no coherence "
        "term): on n cores each I/O costs (1 + core_contention x (n - 1)) times its one-core demand, so the CPU "
        "station's capacity n / (demand x (1 + core_contention x (n - 1))) rises with the cores with diminishing "
        "returns; 0: perfect scaling. Used by the Cloud Volumes ONTAP path, whose cores are the VM's",
    )
    affinities_per_node: int = Field(
        default=1, ge=1, le=MAX_CORES,
        description="WAFL affinities (separate serial queues) an operation's work is spread over on one node; "
        "used only with affinity_hold_us > 0",
    )
    stderr: dict[str, float] = Field(
        default_factory=dict,
        description="standard error of each fitted field (same unit as the field), from the fit's least-squares "
        "covariance; fields not fitted are absent (a field here has a fit in its provenance). Its basis (residual "
        "variance, held parameters) is provenance['stderr']",
    )
    correlation: dict[str, float] = Field(
        default_factory=dict,
        description="correlation coefficient of two fitted fields' estimates, from the same least-squares "
        "covariance as stderr, keyed 'field_a:field_b' (names in alphabetical order); a pair not listed counts as "
        "uncorrelated. The bands' delta method uses it with stderr (the full covariance)",
    )
    source: str = ""

    def covariance(self, a: str, b: str) -> float:
        """Cov of the estimates of fitted fields ``a`` and ``b`` (their unit squared): se_a se_b rho_ab from
        :attr:`stderr` and :attr:`correlation` (rho 1 when a == b, 0 when the pair is not stored); 0 when either
        has no standard error."""
        se_a, se_b = self.stderr.get(a), self.stderr.get(b)
        if se_a is None or se_b is None:
            return 0.0
        rho = 1.0 if a == b else self.correlation.get(":".join(sorted((a, b))), 0.0)
        return se_a * se_b * rho

    @model_validator(mode="after")
    def _stderr_names_fields(self) -> "PerfProfile":
        unknown = sorted(set(self.stderr) - set(type(self).model_fields))
        if unknown:
            raise ValueError(f"stderr names unknown fields: {', '.join(unknown)}")
        bad = [k for k, v in self.stderr.items() if not (v >= 0 and v < float("inf"))]
        if bad:
            raise ValueError(f"stderr must be finite and >= 0: {', '.join(bad)}")
        unfitted = sorted(k for k in self.stderr if not self.fit_of(k))
        if unfitted:
            raise ValueError(f"stderr of fields no fit set (their provenance names no fit): {', '.join(unfitted)}")
        odd = sorted(k for k, v in self.correlation.items()
                     if len(k.split(":")) != 2 or k.split(":") != sorted(k.split(":"))
                     or any(f not in self.stderr for f in k.split(":")) or not -1.0 <= v <= 1.0)
        if odd:
            raise ValueError("correlation keys must be 'field_a:field_b' (alphabetical) of fields with a standard "
                             f"error, values in -1..1: {', '.join(odd)}")
        return self


class ProfileDerivation(BaseModel):
    """A controller with no fitted profile of its own uses a calibrated sibling's profiles with every CPU demand
    divided by ``ratio`` (the record's published throughput over the sibling's: e.g. the vendor's IOPS claims for
    both, or their generation and cores); parallelism and fixed latency are the sibling's. The derivation (the
    figures and where they are published) is the controller's ``provenance['profile_from']`` source."""

    model_config = ConfigDict(defer_build=True, extra="forbid", frozen=True, allow_inf_nan=False)

    sibling: str = Field(pattern=ID_PATTERN, description="catalog id of the calibrated controller")
    ratio: float = Field(gt=0, le=100, description="this controller's throughput / the sibling's, dimensionless")


def node_noun(family: str) -> str:
    """What a controller system of catalog ``family`` calls one of its controllers, in every output: "controller"
    for an E-Series array (SANtricity's controller A and controller B of one controller shelf: NetApp E-Series
    documentation, docs.netapp.com/us-en/e-series), "node" for ONTAP and every other family (ONTAP's nodes of an
    HA pair)."""
    return "controller" if family == "E-Series" else "node"


class Controller(Entry):
    """A storage controller system (HA pair or dual-controller array)."""

    KIND: ClassVar[str] = "controller"

    family: Literal["ONTAP", "E-Series", "generic"]
    nodes: int = Field(ge=1, le=MAX_CONTROLLER_NODES)
    cores_per_node: int = Field(ge=1, le=MAX_CORES)
    memory_gib_per_node: float = Field(gt=0, le=MAX_MEMORY_GIB)
    nvram_gib_per_node: float | None = Field(default=None, ge=0, le=MAX_MEMORY_GIB)
    fc_ports_per_node: int = Field(ge=0, le=MAX_PORTS)
    fc_port_speed_gbps: int = Field(ge=0, le=MAX_PORT_GBPS)
    ethernet_ports_per_node: int = Field(default=0, ge=0, le=MAX_PORTS)
    ethernet_port_speed_gbps: int = Field(default=0, ge=0, le=MAX_PORT_GBPS)
    protocols: list[Protocol]
    software_versions: list[str] = Field(default_factory=list)
    default_software: str = ""
    shelves: list[str] = Field(default_factory=list, description="shelf ids this controller takes")
    max_drives: int = Field(gt=0, le=MAX_DRIVES)
    max_shelves: int | None = Field(
        default=None, ge=0, le=MAX_DRIVES, description="external drive shelves per HA pair by the vendor's "
                                                       "shelf-cabling rules (internal bays not counted); None: not "
                                                       "published")
    max_raw_bytes: int | None = Field(
        default=None, gt=0, le=MAX_SYSTEM_BYTES, description="published maximum raw capacity per HA pair, bytes (sum "
                                                             "of the drives' marketed sizes); None: not published")
    max_shelves_switched: int | None = Field(
        default=None, ge=0, le=MAX_DRIVES, description="external drive shelves per HA pair when they are cabled as "
                                                       "switch-attached storage through a pair of storage switches "
                                                       "(more than ``max_shelves``, the direct-attached count); None: "
                                                       "no switch-attached limit in the catalog (direct-attached only)")
    max_drives_switched: int | None = Field(
        default=None, gt=0, le=MAX_DRIVES, description="drive limit per HA pair with switch-attached shelves (internal "
                                                       "bays + ``max_shelves_switched`` shelves' bays); None: as "
                                                       "``max_shelves_switched``")
    ports_per_node_expanded: int | None = Field(
        default=None, ge=0, le=MAX_PORTS, description="host ports per node (FC or Ethernet) when expansion shelves are "
                                                      "attached, where the vendor then allows fewer host interface "
                                                      "cards (EF600: one per controller); None: no such rule")
    max_expansion_ssd: int | None = Field(
        default=None, ge=0, le=MAX_DRIVES, description="SSD drive slots allowed in expansion shelves (E-Series SAS SSD "
                                                       "expansion); None: no limit beyond ``max_drives``")
    backend_link: str = ""
    backend_lanes_per_node: int = Field(default=0, ge=0, le=MAX_PORTS)
    ontap_personality: Literal["unified", "asa-r2"] = Field(
        default="unified", description="ONTAP systems: the software personality; asa-r2 (ASA A20-A1K, C30) "
                                       "replicates only to and from another ASA r2 system")
    metrocluster_ip: bool = Field(
        default=True, description="an ONTAP system NetApp supports in a MetroCluster IP configuration (false: not "
                                  "listed among its supported platforms, the source says where)")
    adp: list[Literal["root-data", "root-data-data"]] = Field(default_factory=list)
    adp_root_partition_bytes: dict[str, Annotated[int, Field(gt=0, le=MAX_DEVICE_BYTES)]] = Field(
        default_factory=dict, description="ADP root partition size by partitioned drives per node"
    )
    max_throughput_mbps: float | None = Field(default=None, ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    peak_iops: float | None = Field(
        default=None, gt=0, le=1e9,
        description="the vendor's published 'up to' IOPS of this system (per HA pair or array): an upper bound "
                    "of every block workload, a rate cap the path builder adds beside the CPU "
                    "(models.performance.paths); it never changes the CPU time per operation, so the latency below "
                    "it is the profile's. None: none published (the family's rate per core then bounds it, "
                    "models.performance.hardware_relation.iops_ceiling). Its source is in provenance['peak_iops']")
    rack_units: int | None = Field(default=None, gt=0, le=MAX_RACK_UNITS,
        description="height of the controller chassis, rack units")
    typical_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="typical power of the HA pair, watts")
    flash_cache_gib_per_node: float | None = Field(
        default=None, gt=0, le=MAX_MEMORY_GIB,
        description="Flash Cache / Performance Acceleration Module read cache per node, GiB (a "
                                        "victim cache of the controller's buffer cache); None: none")
    flash_cache_read_us: float | None = Field(
        default=None, ge=MIN_TIME_US, le=MAX_TIME_US,
        description="service time of one read hit in the Flash Cache module, microseconds")
    flash_cache_read_iops_per_node: float | None = Field(
        default=None, ge=1, le=MAX_IOPS,
        description="random-read IOPS of a node's Flash Cache modules together (an NVMe SSD caching module "
                    "serves many reads at once); None: the engine's default parallelism")
    performance: list[PerfProfile] = Field(default_factory=list)
    profile_from: ProfileDerivation | None = Field(
        default=None, description="where no profile of its own is fitted: the calibrated sibling and throughput "
                                  "ratio its profiles are derived from (models.performance.profiles)")

    @model_validator(mode="after")
    def _default_software_known(self) -> "Controller":
        if self.software_versions and self.default_software not in self.software_versions:
            raise ValueError(f"default_software '{self.default_software}' is not in software_versions")
        return self


class Host(Entry):
    """A server that runs the workload."""

    KIND: ClassVar[str] = "host"

    sockets: int = Field(ge=1, le=MAX_SOCKETS)
    cores: int = Field(ge=1, le=MAX_CORES)
    memory_gib: float = Field(gt=0, le=MAX_MEMORY_GIB)
    stack_latency_us: dict[str, Annotated[float, Field(ge=0, le=MAX_TIME_US)]] = Field(
        default_factory=dict, description="host I/O stack latency per protocol, us"
    )
    cpu_us_per_io: dict[str, Annotated[float, Field(ge=0, le=MAX_TIME_US)]] = Field(default_factory=dict,
        description="host CPU per I/O per protocol, us")


class Adapter(Entry):
    """A host bus adapter or network card."""

    KIND: ClassVar[str] = "adapter"

    adapter_type: Literal["FC HBA", "NIC"]
    ports: int = Field(ge=1, le=MAX_PORTS)
    speed_gbps: int = Field(gt=0, le=MAX_PORT_GBPS)
    protocols: list[Protocol]


class LinkType(Entry):
    """A kind of connection: FC 8/16/32Gb, iSCSI over 10/25GbE, SAS 6/12Gb, NVMe/FC."""

    KIND: ClassVar[str] = "link"

    short_name: str = Field(default="", description="the type as a diagram labels a line, e.g. '16Gb FC'; "
                                                  "'' = the name")
    tag: str = Field(default="", max_length=16, description="the type in a few characters, where a drawing has "
                                                         "little room (the canvas's link labels), e.g. 'FC 16G'; "
                                                         "'' = the short name")
    medium: Literal["FC", "Ethernet", "SAS", "PCIe"]
    speed_gbps: float = Field(ge=MIN_PORT_GBPS, le=MAX_PORT_GBPS)
    payload_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS, description="payload MB/s per port per direction")
    protocols: list[Protocol]
    latency_us: float = Field(ge=0, le=MAX_TIME_US, description="one-way transport latency per hop, us")


class Switch(Entry):
    """A fabric or Ethernet switch."""

    KIND: ClassVar[str] = "switch"

    medium: Literal["FC", "Ethernet"]
    ports: int = Field(ge=1, le=MAX_PORTS)
    speed_gbps: int = Field(gt=0, le=MAX_PORT_GBPS)
    latency_us: float = Field(ge=0, le=MAX_TIME_US)
    rack_units: int | None = Field(default=None, gt=0, le=MAX_RACK_UNITS, description="height, rack units")
    typical_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="typical power of the switch, watts; None: not given (a footprint names it)")
    max_power_w: float | None = Field(default=None, gt=0, le=MAX_POWER_W,
        description="published maximum power of the switch, watts; None: not published")
    storage_shelves: list[str] = Field(
        default_factory=list, description="shelf ids the vendor supports this switch for as a storage switch "
                                          "(switch-attached shelves, e.g. NS224); empty: not a storage switch")


DataReduction = Literal["compression", "deduplication"]
"""A data reduction an HCI cluster applies (:attr:`HciNode.data_reductions`)."""

DATA_REDUCTIONS: tuple[DataReduction, ...] = ("compression", "deduplication")
"""Both reductions: what a vSAN OSA all-flash disk group applies when deduplication and compression are on (vSAN
Management API, VsanDataEfficiencyConfig)."""


class HciNode(Entry):
    """A hyperconverged host (vSAN): with the Original Storage Architecture (OSA) disk groups of one cache device
    and N capacity devices; with the Express Storage Architecture (ESA, vSAN 8 and later) one storage pool of NVMe
    devices and no cache tier.

    ``architecture`` is the vSAN architecture the host's ReadyNode profile is certified for. An ESA host names no
    ``cache_drive`` ("": vSAN ESA "storage pools ... no cache tier", Broadcom vSAN 8 ESA documentation, cited in
    ``models.capacity.rules.VSAN_ESA_DOCS``) and its storage-pool device limit per host is ``max_disk_groups x
    max_capacity_per_group`` (the project's cluster node gives the devices per host as groups x devices, the
    rule of ``models.capacity.hci``); an OSA host must name its cache drive.
    """

    KIND: ClassVar[str] = "hci_node"

    platform: str
    cores: int = Field(ge=1, le=MAX_CORES)
    memory_gib: float = Field(gt=0, le=MAX_MEMORY_GIB)
    all_flash: bool = True
    architecture: Literal["osa", "esa"] = Field(
        default="osa", description="vSAN architecture of the host's ReadyNode profile: 'osa' (disk groups with a "
                                   "cache tier) or 'esa' (vSAN 8+: one storage pool of NVMe devices, no cache tier)")
    max_disk_groups: int = Field(ge=1, le=MAX_GROUPS)
    max_capacity_per_group: int = Field(ge=1, le=MAX_GROUP_DRIVES)
    cache_drive: str = Field(default="", description="catalog id of the OSA cache-tier drive; '' for an ESA host")
    capacity_drive: str
    network_gbps: float = Field(ge=MIN_PORT_GBPS, le=MAX_PORT_GBPS)
    slack_space_pct: float = Field(ge=0, lt=100)
    dedupe_metadata_pct: float = Field(default=0.0, ge=0, lt=100)
    data_reductions: list[DataReduction] = Field(
        default_factory=lambda: list(DATA_REDUCTIONS),
        description="the data reductions vSAN applies on this host's cluster when the project turns deduplication "
                    "and compression on: an OSA all-flash disk group both (vSAN Management API "
                    "VsanDataEfficiencyConfig), vSAN 8 ESA compression only (ESA deduplication, global "
                    "deduplication, only since vSAN 9.0: VsanDataEfficiencyConfigEx); a reduction not listed is not "
                    "applied and a project asking for it is told so")
    max_iops_per_disk_group: float | None = Field(
        default=None, ge=1, le=MAX_IOPS,
        description="front-end IOPS one disk group's software path (DOM / LSOM) can serve (ESA: one host's storage "
                    "pool); None: no such limit")

    @model_validator(mode="after")
    def _cache_tier_matches_architecture(self) -> "HciNode":
        if self.architecture == "osa" and not self.cache_drive:
            raise ValueError("an OSA host needs its cache_drive (one cache device per disk group)")
        if self.architecture == "esa" and self.cache_drive:
            raise ValueError("an ESA host has no cache tier: leave cache_drive empty")
        if self.architecture == "esa" and not self.all_flash:
            raise ValueError("vSAN ESA hosts are all-flash (NVMe)")
        return self


class CloudVm(Entry):
    """A cloud VM that runs a software-defined controller (Cloud Volumes ONTAP)."""

    KIND: ClassVar[str] = "cloud_vm"

    provider: Literal["Azure", "AWS", "GCP"]
    vm_size: str
    vcpu: int = Field(ge=1, le=MAX_CORES)
    ram_gib: float = Field(gt=0, le=MAX_MEMORY_GIB)
    network_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS * 8,
        description="expected network bandwidth, Mbit/s")
    max_data_disks: int = Field(ge=1, le=MAX_DISKS)
    max_data_disks_ha: int | None = Field(
        default=None, ge=1, le=MAX_DISKS,
        description="data disks per node in an HA pair where the provider's limit is lower than a single node's (CVO "
                    "in AWS: 21 single node, 18 per HA node; release notes 'Storage limits in AWS'); None: "
                    "max_data_disks")
    max_uncached_disk_iops: float = Field(ge=1, le=MAX_IOPS)
    max_uncached_disk_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    max_disk_capacity_bytes: int | None = Field(
        default=None, gt=0, le=MAX_SYSTEM_BYTES,
        description="data-disk capacity one system may attach, bytes (CVO's 'maximum system capacity with disks "
                    "alone' where the provider's VM limits set it, e.g. 256 TB in Google Cloud; an HA pair's mirror "
                    "copies not counted); None: limited by the disk count and size only")
    licences: list[str] = Field(default_factory=list)
    single_node_licences: list[str] = Field(
        default_factory=list,
        description="those of ``licences`` offered for a single node only, not for an HA pair (CVO in Azure: PAYGO "
                    "Standard on E8ds_v5 is listed for single-node systems, not for HA pairs; NetAppDocs "
                    "cloud-volumes-ontap-relnotes, reference-configs-azure.adoc); a design that pairs them is refused")
    ha_supported: bool = True
    protocols: list[Protocol]
    nvram_disk: str | None = Field(
        default=None,
        description="catalog id of the cloud disk that holds Cloud Volumes ONTAP's NVRAM (write log); with normal "
                    "write speed every write is logged to it before it is acknowledged. None: the log shares the "
                    "data disks")
    flash_cache_gib: float | None = Field(
        default=None, gt=0, le=MAX_MEMORY_GIB,
        description="local NVMe instance storage Cloud Volumes ONTAP uses as Flash Cache (a "
                                        "read cache behind memory), GiB per node; None: none")
    flash_cache_read_iops: float | None = Field(
        default=None, ge=1, le=MAX_IOPS,
        description="random-read IOPS of that local NVMe storage (the provider's published "
                                        "figure); None: the engine's default parallelism")
    performance: list[PerfProfile] = Field(default_factory=list)
    profile_from: ProfileDerivation | None = Field(
        default=None, description="where no profile of its own is fitted: the calibrated sibling VM (another "
                                  "cloud_vm record) and throughput ratio its profiles are derived from "
                                  "(models.performance.profiles)")

    def data_disk_limit(self, ha: bool) -> int:
        """Data disks one node takes: ``max_data_disks_ha`` for a node of an HA pair when the record gives it,
        else ``max_data_disks``."""
        return self.max_data_disks_ha if ha and self.max_data_disks_ha else self.max_data_disks


class ManagedService(Entry):
    """A managed NetApp file service at one service level (Azure NetApp Files, Amazon FSx for NetApp ONTAP,
    Google Cloud NetApp Volumes): the provider runs the storage, the user provisions capacity (and for some
    services throughput and IOPS), and the service enforces published limits.

    Attributes:
        provider, service, service_level: what it is ("Azure", "Azure NetApp Files", "Premium").
        protocols: what clients mount it with.
        throughput_mibps_per_tib: throughput the provisioned capacity buys, MiB/s per TiB (0: not size-based).
        throughput_options_mbps: provisioned throughput capacities one can choose, MB/s (empty: size-based).
        max_throughput_mbps: the cap per volume / file system (HA pair), MB/s.
        iops_per_gib: SSD IOPS the provisioned capacity includes per GiB (0: no IOPS limit published).
        max_iops: the IOPS cap per file system / HA pair (None: none published).
        max_iops_by_throughput: the SSD IOPS ceiling per provisioned throughput capacity, MB/s (as text) -> IOPS,
            where the service ties the one to the other (AWS, FSx for ONTAP user guide, 'Impact of throughput
            capacity on performance'); empty: only ``max_iops`` applies.
        max_read_iops, max_write_iops: the most small random reads / writes per second one volume delivered in
            the provider's published benchmark (Azure NetApp Files: 4 KiB, ~460,000 reads and ~130,000 writes on
            a regular volume); None: none published. The two are one volume's operation limit: a mix of reads and
            writes takes its share of each (its ceiling is the harmonic mean by share).
        max_write_throughput_mbps: the most sequential write throughput one volume delivered in the provider's
            published benchmark, MB/s, where it is below ``max_throughput_mbps`` (Azure NetApp Files: ~1,600 MiB/s
            of writes against ~4,500 MiB/s of reads); None: writes reach ``max_throughput_mbps``.
        latency_us: the service's latency at light load (its floor), microseconds.
        min_capacity_bytes, max_capacity_bytes: what one may provision (one volume / file system).
        max_volumes_per_pool, max_pool_capacity_bytes: data above one volume's ``max_capacity_bytes`` may be held
            in several such volumes of one capacity pool, up to this many volumes and this pool size (Azure NetApp
            Files: 500 regular volumes per capacity pool); 1 and None: one volume / file system only.
        data_reduction: the service shows the user ONTAP's compression, compaction and deduplication.
    """

    KIND: ClassVar[str] = "managed_service"

    provider: Literal["Azure", "AWS", "GCP"]
    service: str = Field(min_length=1, max_length=MAX_NAME)
    service_level: str = Field(min_length=1, max_length=MAX_NAME)
    protocols: list[Protocol]
    throughput_mibps_per_tib: float = Field(default=0.0, ge=0, le=MAX_RATE_MBPS)
    throughput_options_mbps: list[Annotated[float, Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)]] = Field(
        default_factory=list, max_length=MAX_LIST)
    max_throughput_mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    iops_per_gib: float = Field(default=0.0, ge=0, le=MAX_IOPS)
    max_iops: float | None = Field(default=None, ge=1, le=MAX_IOPS)
    max_iops_by_throughput: dict[Annotated[str, Field(max_length=32)], Annotated[float, Field(ge=1, le=MAX_IOPS)]] = (
        Field(default_factory=dict, max_length=MAX_LIST))
    max_read_iops: float | None = Field(default=None, ge=1, le=MAX_IOPS)
    max_write_iops: float | None = Field(default=None, ge=1, le=MAX_IOPS)
    max_write_throughput_mbps: float | None = Field(default=None, ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    latency_us: float = Field(ge=MIN_TIME_US, le=MAX_TIME_US)
    min_capacity_bytes: int = Field(gt=0, le=MAX_SYSTEM_BYTES)
    max_capacity_bytes: int = Field(gt=0, le=MAX_SYSTEM_BYTES)
    max_volumes_per_pool: int = Field(default=1, ge=1, le=100_000)
    max_pool_capacity_bytes: int | None = Field(default=None, gt=0, le=MAX_SYSTEM_BYTES)
    data_reduction: bool = False

    @model_validator(mode="after")
    def _throughput_from_somewhere(self) -> "ManagedService":
        if not self.throughput_mibps_per_tib and not self.throughput_options_mbps:
            raise ValueError("give throughput_mibps_per_tib or throughput_options_mbps")
        if self.min_capacity_bytes > self.max_capacity_bytes:
            raise ValueError("min_capacity_bytes is above max_capacity_bytes")
        if self.max_pool_capacity_bytes is not None and self.max_pool_capacity_bytes < self.max_capacity_bytes:
            raise ValueError("max_pool_capacity_bytes is below max_capacity_bytes")
        if (self.max_read_iops is None) != (self.max_write_iops is None):
            raise ValueError("give both max_read_iops and max_write_iops, or neither")
        return self


class CloudDisk(Entry):
    """A cloud block disk (e.g. Azure Premium_LRS P30)."""

    KIND: ClassVar[str] = "cloud_disk"

    provider: Literal["Azure", "AWS", "GCP"]
    tier: str
    size_bytes: int = Field(gt=0, le=MAX_DEVICE_BYTES)
    iops: float = Field(ge=1, le=MAX_IOPS)
    mbps: float = Field(ge=MIN_RATE_MBPS, le=MAX_RATE_MBPS)
    latency_us: float = Field(ge=MIN_TIME_US, le=MAX_TIME_US)
    io_unit_kib: float | None = Field(
        default=None, ge=MIN_IO_KIB, le=MAX_IO_KIB,
        description="the largest I/O the provider counts as one operation against the disk's and the VM's IOPS "
                    "limits, KiB: 1,024 for AWS EBS HDD volumes (st1, sc1) (AWS EBS User Guide, 'I/O "
                    "characteristics and monitoring'); None: 256, as Azure managed disks and AWS EBS SSD volumes "
                    "count (models.performance.paths.AZURE_IO_UNIT_BYTES)")
    data_disk: bool = Field(
        default=True, description="False: a system disk of the VM (boot disk holding NVRAM, NVRAM disk), never a "
                                  "data disk: the sizer does not offer it and a node using it for data is a problem")
    single_node_only: bool = Field(
        default=False,
        description="True: Cloud Volumes ONTAP takes this disk type for a single node only, never for an HA pair "
                    "(Azure Standard SSD: HA pairs take Premium SSD or Premium SSD v2 managed disks only; NetAppDocs "
                    "cloud-volumes-ontap-relnotes, reference-configs-azure.adoc 'Supported disk types'); an HA node "
                    "using it is a problem and the sizer does not offer it for one")
    vms: list[str] = Field(
        default_factory=list,
        description="catalog ids of the cloud VMs Cloud Volumes ONTAP takes this disk type on; empty: every VM of the "
                    "provider (Azure Premium SSD v2: the VM families of the release notes' shared-managed-disk "
                    "tables, not DS_v2)")
    single_node_needs_licence: list[str] = Field(
        default_factory=list,
        description="a single node takes this disk type only with one of these licences; empty: any (Azure Premium "
                    "SSD v2: capacity-based licences only, CVO release notes 'Supported configurations in Azure')")

    def refusal(self, vm_id: str, ha: bool, licence: str) -> str | None:
        """Why Cloud Volumes ONTAP does not take this disk on that VM, deployment and licence (``single_node_only``,
        ``vms``, ``single_node_needs_licence``); None: it does."""
        if ha and self.single_node_only:
            return "is offered for a single node only, not for an HA pair"
        if self.vms and vm_id not in self.vms:
            return "is not offered on this VM size"
        if not ha and self.single_node_needs_licence and licence not in self.single_node_needs_licence:
            return f"is offered for a single node only with licence {', '.join(self.single_node_needs_licence)}"
        return None

    @property
    def io_unit_bytes(self) -> float:
        """The I/O size one operation counts for against IOPS limits, bytes (``io_unit_kib``, default 256 KiB)."""
        return (self.io_unit_kib or 256.0) * 1024


class Licence(Entry):
    """A software licence with a capacity cap (Cloud Volumes ONTAP Explore / Standard / Premium)."""

    KIND: ClassVar[str] = "licence"

    product: str
    capacity_cap_bytes: int = Field(ge=MIN_LICENCE_BYTES, le=MAX_SYSTEM_BYTES)
    as_of: str = Field(description="when the cap was published (caps change between releases)")


ENTRY_TYPES: dict[str, type[Entry]] = {
    cls.KIND: cls
    for cls in (Drive, Shelf, Controller, Host, Adapter, LinkType, Switch, HciNode, CloudVm, CloudDisk, Licence,
                ManagedService)
}
"""Catalog kind (the TOML array name, e.g. ``[[drive]]``) -> record type."""
