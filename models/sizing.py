"""Auto-size: from a project's requirements to ranked configurations (on-premises arrays).

The search (:func:`size`) builds candidate designs from the catalog: every controller (ONTAP or E-Series, within
the allowed families) x every shelf it takes x every drive that shelf holds (its interface and size) and that is
sold for the controller (``Drive.controllers``, ``Drive.families``) x one to :data:`MAX_SHELVES` full shelves (a
controller's internal bays: one set) x every allowed front-end protocol both the controller and the workloads' hosts
can use (a host whose adapter cannot is given the catalog's adapter that can). The active scenario's hosts and
workloads are kept (each workload targets the candidate's controller and keeps its host group); the storage side is
replaced.

An ONTAP candidate's aggregates use ONTAP's default RAID type for its drives (RAID-TEC for capacity HDD of 6 TB or
more, else RAID DP: :func:`models.capacity.rules.ontap_default_raid`) and ONTAP's hot spares per node for their
media (one for SSD, two for HDD: :data:`models.capacity.rules.ONTAP_MIN_SPARES`).

Each candidate is checked in the order of cost: capacity first (the capacity engine alone, cheap: effective
capacity, usable x data reduction, against the requirement or the data sets grown over the horizon, and the data
with its Snapshot and clone blocks fitting the usable capacity over the horizon: :func:`capacity_reasons`, by the
rules of ``models.verdict``), then the limits (rack units, power), then
performance with the full engine (each workload's target, grown by its IOPS growth over the horizon, against its
max IOPS at the SLO, or the band's P10 edge when ranking on "p90"), and with ``meet_slo_in_takeover`` the takeover
state's. Every candidate keeps why it meets or fails ("capacity short by 12.4 TiB", "SLO missed above 210K IOPS",
"SLO missed in takeover: saturates at 1,200,000 IOPS in takeover, against the grown target of 2,197,000"). Without
a price book, meeting candidates rank by rack units, then typical power, then
(cloud designs) their total cost over the horizon at the providers' published prices, then the smaller controller
(fewer cores), then headroom (larger first); :func:`ranking_rule` states the rule.

HCI candidates (vSAN clusters) are checked with their ``n_plus`` spare hosts taken out (N+1: the cluster must meet
the requirements with one host down) and counted with all of them; with ``n_plus`` = 1 a candidate that passes is
judged in the host-failure state ``storplan evaluate`` shows (resync included, :func:`_hci_check`; the designs the
search certainly checks next are judged together, :func:`_hci_checks`, with the same figures), and its figures
(max IOPS at the SLO, headroom) are those of every host up. With ``meet_slo_after_site_loss`` (the SLO after
losing a site, ``models.performance.site_loss``) the ONTAP arrays are MetroCluster IP designs whose partner site
runs the same workloads, the vSAN clusters are stretched over two sites (``n_plus`` spares at each), E-Series arrays
are not tried, and a design's site-loss state must meet every SLO; a design of one site cannot. Cloud candidates are
Cloud Volumes ONTAP VMs (single or HA) x licence x disk type x disk count; with ``meet_slo_in_takeover`` an HA
pair's failover state must meet the SLO too. With a price book (``project.price_book``, :mod:`models.pricing`) every
candidate has a cost, the budget applies and the ranking is by cost; the evaluated meeting candidates' Pareto front
(cost, or rack units, against headroom) is marked. The candidates are checked with the same engine as ``storplan
evaluate`` and give the same figures, in rank order in chunks of :data:`BATCH` designs: each design's paths are built
once (shared by the saturation screen, the HA-partner test and the check); the closed ramps of the designs the search
is about to reach are solved ahead in one batch by the batched engine (each distinct network once), as many as the
meeting designs still wanted call for at the share met so far, so a search feeds the engine a few batches instead of
one per chunk and builds no design it would not reach; each design's max IOPS at the SLO, saturation and failover
verdict are taken from them (``models.performance.screening``: the curves and bands the check does not read are not
computed), and the candidates shown keep those figures (nothing is evaluated a second time). A first walk passes
over the designs that certainly cannot meet, without their capacity or paths: with ``meet_slo_in_takeover`` the
single-node cloud designs (no HA partner, :func:`_single_cloud_vm`), the arrays whose drives cannot give the capacity
(:func:`_capacity_certainly_short`), and the arrays whose controller side an earlier design's paths showed too slow
for a grown target (:func:`_controller_bounds`) or, with ``meet_slo_in_takeover``, too slow in takeover for a target
(:func:`_takeover_bounds`); only when nothing meets is the walk made again with every design,
for the nearest and their reasons.
"""

from __future__ import annotations

import math
import re
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache, partial
from itertools import islice
from operator import itemgetter
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, cast

from models.capacity import CapacityTotals, evaluate_capacity
from models.capacity.layout import RaidLayout, raid_layouts
from models.capacity.rules import ONTAP_MIN_SPARES, ddp_default_preservation, ontap_default_raid, policy_label
from models.catalog import Adapter, Catalog, Controller, Drive, LinkType, Shelf, Switch
from models.catalog.describe import storage_summary
from models.catalog.limits import STORAGE_SWITCH_PAIR, platform_limit_problems, storage_switch_pairs_needed
from models.collector import collector_paused
from models.costing.inputs import HCI_HOST_RACK_UNITS
from models.design import resolved_catalog
from models.performance.engine import target_rate
from models.performance.screening import (
    SUMMED_IN_ORDER_BELOW,
    DesignCheck,
    DesignPaths,
    check_designs,
    design_paths,
    design_ramp_requests,
    failover_verdicts,
    paths_grown,
    solve_requests,
)
from models.project.factory import drive_fits_controller, drive_fits_shelf
from models.project.model import (
    ControllerNode,
    Deployment,
    HostNode,
    Link,
    Project,
    Requirements,
    Scenario,
    ShelfNode,
)
from models.ranking_words import ranking_rule, ranking_steps  # noqa: F401 (re-exported: the rule in words)
from models.topology import front_end_switch_note, front_end_switches, protocol_version_problem, switch_model
from models.units import TIB, growth_factor
from models.verdict import effective_meets, fits_usable, slo_holds

if TYPE_CHECKING:  # a search of a design without replication or site-loss requirement imports neither
    from pydantic import BaseModel

    from models.costing.tco import PricedNode
    from models.replication.sizing import DestinationProposal

MAX_SHELVES = 4
"""Full shelves tried per candidate (drive counts in shelf steps: 1 .. MAX_SHELVES shelves)."""

LINK_BY_PROTOCOL = {"FCP": ("fc-64g", "fc-32g", "fc-16g", "fc-8g"), "NVMe/FC": ("nvme-fc-64g", "nvme-fc-32g"),
                    "NVMe/TCP": ("nvme-tcp-100g", "nvme-tcp-25g"),
                    "iSCSI": ("iscsi-100g", "iscsi-25g", "iscsi-10g"), "NFS": ("iscsi-100g", "iscsi-25g")}
"""Front-end link types per protocol, fastest first: a candidate uses the fastest its controller's ports take."""

DEFAULT_RACK_UNITS = 2
"""Rack units assumed for a controller or shelf record without ``rack_units`` (the common 2U chassis)."""


@dataclass(frozen=True)
class Candidate:
    """One configuration and whether it meets the requirements.

    Attributes:
        summary: the design in words; meets: all requirements met; reasons: why it fails (empty when it meets);
        usable_bytes, effective_bytes: its capacity; max_iops_at_slo: the first workload's (None when not
        evaluated); for the candidates :func:`size` returns, these three are the whole design's, as ``storplan
        evaluate`` of its project gives them (an HCI cluster with every host up); headroom_pct: the smallest
        headroom of the grown targets over their saturation, percent (None when not evaluated), in the same state
        as max_iops_at_slo (normal operation: an HCI cluster with every host up, for the candidates :func:`size`
        returns and every meeting one); max_iops_at_slo_host_down: an HCI candidate's first workload's max IOPS at
        the SLO in the host-failure state with ``n_plus`` = 1 (one host down, resync running: the figure
        ``storplan evaluate`` shows and judges N+1 by; None otherwise); bound: what bounds max_iops_at_slo, in words
        (the first workload's bottleneck in the same state, ``models.performance.bound.bound_words``: "controller
        CPU", "vSAN ESA per-host software path limit"; "" when not evaluated); rack_units, power_w: its
        footprint (power: typical watts of the controller system, shelves and drives,
        ``models.present.bom.part_footprints``, and of an array's front-end switches,
        ``models.topology.front_end_switches``; None when a record lacks it, for HCI and in the cloud); cost: its
        price by the project's price book (None without one);
        unpriced: storage records the book does not price (the cost is then incomplete and the candidate ranks after the
        fully priced ones); deployment: "on-prem", "hci" or "cloud"; pareto: on the Pareto front of the evaluated
        platform designs (:func:`pareto_front`: no other is as good on every criterion of the ranking and better on
        one; False for a variant that is not its platform design's shown one); order, fit: what ranks it
        (:meth:`rank_key`); scenario: the
        design; variant: what tells it from the other designs of its platform (an array's drives, "24 x NetApp
        3.8TB NVMe SSD (TLC)"; :func:`_variant`); alternatives: for the candidates :func:`size` returns, the
        other meeting variants of the same platform design (same controller, shelves, links and protocol, other
        drives, disks or service size), each larger than this one (:meth:`variant_key`; :func:`platform_key`).
        tco: with ``rank_on = "tco"``, its total cost of ownership over the horizon
        (``models.costing.tco.design_cost``); break_even_month: the first month its cumulative cost is no more
        than the cheapest cloud option's (None: not within the horizon, or no hardware price;
        ``models.costing.tco.break_even_month``); listed_cost: a cloud design's total cost over the horizon at
        the providers' published prices when the ranking compares it (no price book, or one that does not price
        it in full: ``models.costing.tco.published_cloud_total``; infinite when a part has no published price),
        else None.
        takeover_headroom_pct: with ``meet_slo_in_takeover``, the smallest
        margin of the grown targets below their saturation in the takeover (cloud failover) state, percent (the
        state the requirement judges; None when not required, not evaluated or the design fails); takeover_state:
        that state in the platform's words ("takeover", "failover" for a cloud HA pair, "controller failover" for
        E-Series; "" without a margin).
        basis: for the candidates :func:`size` returns, what its performance rests on where that is not the
        model's own published measurements (:func:`performance_basis_words`), and the caution, as ``storplan
        evaluate`` gives it, when the pessimistic case (P10) misses the target (:func:`pessimistic_words`); "" else.
        ties: for the candidates :func:`size` returns, the other platform designs tied with this one on every
        criterion of the ranking and every figure shown (:func:`tie_key`: an ASA A50 beside an AFF A50 of the same
        drives): one row, this one first by catalog id, the others named in it (:func:`tie_words`).
    """

    summary: str
    meets: bool
    reasons: tuple[str, ...]
    usable_bytes: float
    effective_bytes: float
    max_iops_at_slo: float | None
    headroom_pct: float | None
    rack_units: int
    power_w: float | None
    cost: float | None
    scenario: Scenario = field(repr=False, compare=False)
    deployment: str = "on-prem"
    unpriced: tuple[str, ...] = ()
    pareto: bool = False
    order: tuple = field(default=(), repr=False, compare=False)
    variant: str = ""
    alternatives: tuple[Candidate, ...] = field(default=(), repr=False, compare=False)
    tco: float | None = None
    break_even_month: int | None = None
    fit: tuple = field(default=(), repr=False, compare=False)
    max_iops_at_slo_host_down: float | None = None
    bound: str = ""
    listed_cost: float | None = None
    takeover_headroom_pct: float | None = None
    takeover_state: str = ""
    ties: tuple[Candidate, ...] = field(default=(), repr=False, compare=False)
    basis: str = ""

    def criteria(self) -> tuple:
        """What the ranking compares, smaller better (:func:`ranking_rule`): its ``order`` (ranked on total cost:
        price incomplete, the total cost when complete (infinite when not: a partial price is not compared), the
        total cost without the hardware's price when incomplete (power and space; a cloud design's total at the
        book's and the providers' published prices; 0 when complete), rack units, watts; with a price book: price
        incomplete, the cost when
        complete (0 when not: a partial price is not compared), rack units, watts, an incompletely priced cloud
        design's total at the published prices; without: the deployment's place in the requirements' list, rack
        units, watts (unknown: infinite), a cloud design's total at the published prices
        (``models.costing.tco.published_cloud_total``), its cores (a cloud VM's vCPUs)); every order ends with the
        design's controller cores (``_Spec.cores``: the smaller controller first at an equal footprint), then its
        headroom negated. The Pareto front
        (:func:`pareto_front`) is taken on exactly these."""
        return (*self.order, -(self.headroom_pct or 0.0))

    def rank_key(self) -> tuple:
        """Sort key of the platform designs shown: :meth:`criteria` (lexicographic), then, as tie-breaks only,
        ``fit`` (without a price book the smaller design first: drives, a cloud design's disk bytes, a managed
        service's provisioned capacity and throughput tier) and the effective capacity (smaller first). A design that
        dominates another on :meth:`criteria` (no worse on each, better on one) sorts before it, so the first is
        never dominated."""
        return (*self.criteria(), *self.fit, self.effective_bytes)

    def variant_key(self) -> tuple:
        """Sort key of the variants of one platform design (:func:`platform_key`): the smallest that meets first
        (``order``, then ``fit``: the cheapest with a price book, else the fewest drives / least disk, provisioned
        capacity or throughput tier), then the most headroom, then the least effective capacity. The first
        variant is the one shown; a larger one is listed as an alternative even when its headroom is higher."""
        return (*self.order, *self.fit, -(self.headroom_pct or 0.0), self.effective_bytes)


@dataclass(frozen=True)
class SizingResult:
    """The ranked candidates that meet the requirements (best first), the best failing ones when none does, every
    fully evaluated meeting candidate (for the Pareto chart, with ``pareto`` marked), how many designs were
    considered, whether ``max_candidates`` cut the search, the currency of the costs (None without a price book)
    and notes on the search (a budget without a price book...); ``destinations``: for each replication relationship
    of the scenario, the far end, link and schedule that meet its RPO and hold its copies over the horizon
    (``models.replication.sizing``)."""

    candidates: tuple[Candidate, ...]
    nearest: tuple[Candidate, ...]
    considered: int
    capped: bool
    needed_effective_bytes: float
    evaluated: tuple[Candidate, ...] = ()
    currency: str | None = None
    notes: tuple[str, ...] = ()
    cheapest_cloud: tuple[str, float] | None = None
    destinations: tuple[DestinationProposal, ...] = ()


def _grown(value: float, growth_pct_per_year: float, months: int) -> float:
    """``value`` grown at ``growth_pct_per_year`` for ``months``: x (1 + g)^(months / 12), the rule of every growth
    (:func:`models.units.growth_factor`)."""
    return value * growth_factor(growth_pct_per_year, months)


def _protocol_of(link: LinkType) -> str:
    """The protocol a front-end link type carries first."""
    return link.protocols[0]


def _front_end(record: Controller, protocol: str, catalog: Catalog) -> tuple[str, int] | None:
    """The link type and port count a candidate uses for ``protocol``: the fastest catalogued link the
    controller's ports run (FC speed for FCP / NVMe/FC, Ethernet for the rest), all its ports; None when it has
    none."""
    fc = protocol in ("FCP", "NVMe/FC")
    speed = record.fc_port_speed_gbps if fc else record.ethernet_port_speed_gbps
    ports = (record.fc_ports_per_node if fc else record.ethernet_ports_per_node) * record.nodes
    if protocol not in record.protocols or ports <= 0:
        return None
    for lid in LINK_BY_PROTOCOL.get(protocol, ()):
        link = catalog.find(lid)
        if isinstance(link, LinkType) and link.speed_gbps <= speed:
            return lid, min(ports, 16)
    return None


def fabric_speeds(base: Scenario, catalog: Catalog) -> dict[str, float]:
    """Medium (``FC``, ``Ethernet``) -> the port speed, Gb/s, of the slowest of the project's switches of that medium
    (the hosts' front-end network every array design counts, ``models.topology.front_end_switches``): the speed an
    array design's front end runs at through them. A medium with no switch is not limited."""
    out: dict[str, float] = {}
    for node in base.nodes:
        record = catalog.find(node.catalog_id) if node.kind == "switch" else None
        if isinstance(record, Switch) and record.speed_gbps > 0:
            out[record.medium] = min(out.get(record.medium, record.speed_gbps), record.speed_gbps)
    return out


def fabric_models(base: Scenario, catalog: Catalog) -> dict[str, str]:
    """Medium -> the project's switches of that medium by vendor and model (``Brocade G630``), for the words of
    :func:`runs_words` and :func:`fabric_speed_note`."""
    names: dict[str, list[str]] = {}
    for node in base.nodes:
        record = catalog.find(node.catalog_id) if node.kind == "switch" else None
        if isinstance(record, Switch) and switch_model(record) not in names.setdefault(record.medium, []):
            names[record.medium].append(switch_model(record))
    return {medium: ", ".join(found) for medium, found in names.items()}


def runs_words(link: LinkType, fabric_gbps: dict[str, float], fabric_names: dict[str, str]) -> str:
    """A front end's words when the project's switches of its medium are slower than its link (:func:`fabric_speeds`):
    ``" (runs at 32Gb on the project's Brocade G630)"``; "" otherwise."""
    gbps = fabric_gbps.get(link.medium)
    if not gbps or gbps >= link.speed_gbps:
        return ""
    return f" (runs at {gbps:g}Gb on the project's {fabric_names.get(link.medium, 'switches')})"


def fabric_speed_note(base: Scenario, catalog: Catalog) -> str:
    """The sizer's note when the project's switches are slower than the catalog's fastest link of their medium: a
    design's faster ports run at the switches' speed (its row says so, :func:`runs_words`), while its figures count
    its ports at their own speed, linked to the hosts directly; "" otherwise."""
    notes = []
    names = fabric_models(base, catalog)
    for medium, gbps in sorted(fabric_speeds(base, catalog).items()):
        fastest = max((lt.speed_gbps for lt in catalog.of_kind(LinkType) if lt.medium == medium), default=0)
        if fastest <= gbps:
            continue
        notes.append(f"the project's {medium} switches ({names.get(medium, '')}) have {gbps:g}Gb ports: a design "
                     f"whose {medium} ports are faster (up to {fastest:g}Gb) runs them at {gbps:g}Gb there, as its "
                     f"row says; its figures count its ports at their own speed, linked to the hosts directly, as a "
                     f"{fastest:g}Gb switch would run them")
    return "; ".join(notes)


HCI_POLICIES = ("ftt1-raid1", "ftt1-raid5", "ftt2-raid6")
"""vSAN storage policies tried for HCI candidates (their minimum host counts are the design check's)."""

HCI_MAX_HOSTS = 16
"""Largest HCI cluster tried."""

HCI_ESA_POOL_DEVICES = (2, 4, 6, 8, 12, 16, 24)
"""Storage-pool devices per host tried for a vSAN ESA host (up to its record's limit, max_disk_groups x
max_capacity_per_group); vSAN ESA hosts take up to 24 NVMe devices in 2U servers (VMware, 'Design and Sizing for
vSAN ESA clusters', core.vmware.com blog)."""


def esa_pool_layout(devices: int) -> tuple[int, int] | None:
    """(groups, devices per group) giving ``devices`` per host within the cluster node's field limits (at most 5
    x 7): how a project writes an ESA storage pool (``models.capacity.hci``); None when no such split exists."""
    for groups in range(1, 6):
        if devices % groups == 0 and devices // groups <= 7:
            return groups, devices // groups
    return None


_Design = tuple[Scenario, str, int, float | None]
"""(scenario, summary, rack units, typical power W or None) of one candidate design."""


class _Spec:
    """One candidate design before it is built: what ranks it (summary, rack units, typical power W or None,
    deployment, size: the order within a footprint) and how to build its scenario. Building a design's scenario
    (validated nodes, links, a scenario copy) costs more than everything else the search does with a design that
    is never evaluated, so it is built on first use of :attr:`scenario` and kept."""

    __slots__ = ("_summary", "ru", "power", "deployment", "size", "_build", "_scenario", "single_vm", "parts", "cores")

    def __init__(self, build: Callable[[], Scenario], summary: str | Callable[[], str], ru: int,
                 power: float | None, deployment: Deployment = "on-prem", size: tuple[float, float] = (0, 0),
                 single_vm: bool | None = None, parts: tuple | None = None, cores: int = 0) -> None:
        self._build: Callable[[], Scenario] | None = build
        self._scenario: Scenario | None = None
        self._summary = summary
        self.ru, self.power, self.deployment, self.size = ru, power, deployment, size
        # the design's controller cores as the ranking compares them (:func:`ranking_rule`: the smaller controller
        # first at an equal footprint): an array's (every node); 0 for an HCI cluster (its hosts' cores run the
        # virtual machines too: the host record, count and policy rank it) and a cloud design (its vCPUs are its
        # ``size[0]``)
        self.cores = cores
        # whether the design's only node is a Cloud Volumes ONTAP single node (not an HA pair), as its generator
        # knows it without building the scenario; None: not told (read from the built scenario)
        self.single_vm = single_vm
        # an array design's (hosts, record, internal bays, shelf, drive, shelves, front end, sites) as
        # :func:`_design` takes them, so the first walk can pass it over without building it; None: not an array
        self.parts = parts

    @property
    def summary(self) -> str:
        """The design in words (written on first use when given as a function)."""
        if not isinstance(self._summary, str):
            self._summary = self._summary()
        return self._summary

    @property
    def scenario(self) -> Scenario:
        """The design's scenario, built on first use."""
        if self._scenario is None:
            assert self._build is not None
            self._scenario = self._build()
            self._build = None
        return self._scenario

    def design(self) -> _Design:
        """(scenario, summary, rack units, power): the tuple the generators' callers read."""
        return self.scenario, self.summary, self.ru, self.power

    def priced_nodes(self) -> list[PricedNode]:
        """What a published cloud price reads of the design's storage nodes (``models.costing.tco.PricedNode``),
        without building its scenario or a node when it is one cloud VM or managed service not yet built
        (:func:`_cluster_scenario`'s node fields, the node class's defaults for the rest)."""
        build = self._build
        if self._scenario is None and isinstance(build, partial) and build.func is _cluster_scenario:
            _, kind, fields = build.args
            return [_priced_node(kind, fields)]
        from models.costing.tco import PricedNode

        return [PricedNode.of(n) for n in self.scenario.nodes]


_PRICED_FIELDS: dict[type, tuple[Callable[[list], PricedNode], str, tuple[tuple[str, Any], ...]]] = {}
"""A node class's ``PricedNode._make``, kind and, for each field of ``models.costing.tco.PricedNode`` after the
kind, its name and its default in the class (``...``: none; the PricedNode's when the class has no such field), by
class (:func:`_priced_node`)."""


def _priced_node(kind: type, fields: dict[str, Any]) -> PricedNode:
    """``models.costing.tco.PricedNode`` of a node of class ``kind`` made of ``fields`` (not built)."""
    known = _PRICED_FIELDS.get(kind)
    if known is None:
        from models.costing.tco import PricedNode

        model_fields = kind.model_fields  # type: ignore[attr-defined]
        known = _PRICED_FIELDS[kind] = (PricedNode._make, model_fields["kind"].default, tuple(
            (name, (... if model_fields[name].is_required() else model_fields[name].default) if name in model_fields
             else PricedNode._field_defaults.get(name, ...)) for name in PricedNode._fields[1:]))
    make, tag, defaults = known
    return make([tag, *[fields[name] if name in fields or default is ... else default for name, default in defaults]])


class _ArraySpec(_Spec):
    """An array design of :func:`_array_specs`: its scenario built by :func:`_design` of the base and its ``parts``,
    and its summary written by :func:`_design_summary` of its parts and ``words`` (protocol, link type, note), on
    first use. The same as a :class:`_Spec` given those two functions, without the two function objects per design
    (a search makes one spec per design it considers: 8,359 for the spinning192 example)."""

    __slots__ = ("_base", "_words", "_text")

    def __init__(self, base: Scenario, parts: tuple, words: tuple[str, LinkType, str], ru: int,
                 power: float | None, size: tuple[float, float]) -> None:
        self._base, self._words = base, words
        self.parts: tuple = parts
        self._build, self._scenario = None, None
        self._text: str | None = None
        self.ru, self.power, self.deployment, self.size, self.single_vm = ru, power, "on-prem", size, None
        self.cores = parts[1].cores_per_node * parts[1].nodes  # the controller record's cores, every node

    @property
    def summary(self) -> str:
        """The design in words (written on first use)."""
        if self._text is None:
            _hosts, record, inside, shelf, drive, count, _fe, _sites, switch = self.parts
            self._text = _design_summary(record, inside, shelf, drive, count, *self._words, switch=switch)
        return self._text

    @property
    def scenario(self) -> Scenario:
        """The design's scenario, built on first use."""
        if self._scenario is None:
            self._scenario = _design(self._base, *self.parts)
        return self._scenario


def _hci_candidates(base: Scenario, catalog: Catalog, req: Requirements) -> Iterator[_Design]:
    """vSAN cluster candidate designs (scenario, summary, rack units, power): :func:`_hci_specs` built."""
    for spec in _hci_specs(base, catalog, req):
        yield spec.design()


def _cluster_scenario(base: Scenario, kind: type, fields: dict[str, Any]) -> Scenario:
    """``base`` with one node of class ``kind`` (an HCI cluster, cloud VM or managed service) made of ``fields`` as
    its only node, its workloads aimed at it without host links."""
    node = kind(**fields)
    workloads = _retargeted(base, node.id, keep_hosts=False)
    return base.model_copy(update={"nodes": [node], "links": [], "workloads": workloads})


def _hci_specs(base: Scenario, catalog: Catalog, req: Requirements, two_sites: bool = False) -> Iterator[_Spec]:
    """vSAN cluster candidates (scenario, summary, rack units, power, hosts to survive): every HCI host record x
    policy x host count (the policy's minimum plus ``n_plus`` .. :data:`HCI_MAX_HOSTS`) x disk groups per host x
    capacity drives per group (2, 4, up to the record's maximum); an ESA host (no disk groups) x storage-pool
    devices per host (:data:`HCI_ESA_POOL_DEVICES` up to its limit), with ESA's minimum hosts (RAID-5 on 3). The
    workloads target the cluster. With ``meet_slo_after_site_loss`` every cluster is stretched over two data sites
    (the policy's minimum plus ``n_plus`` at each), and so with ``two_sites`` (the design being sized is a
    MetroCluster: :func:`site_fields`)."""
    from models.capacity.rules import vsan_policy_rule
    from models.catalog import HciNode
    from models.problems import VSAN_MIN_HOSTS
    from models.project.model import HciClusterNode

    sites = 2 if req.meet_slo_after_site_loss or two_sites else 1  # a stretched cluster: two data sites + a witness
    stretch: dict[str, Any] = {"stretched": True} if sites == 2 else {}

    def where(hosts: int) -> str:
        return f" per site; stretched: {hosts // 2} + {hosts // 2} hosts and a witness" if sites == 2 else ""

    for record in sorted((e for e in catalog if isinstance(e, HciNode)), key=lambda e: e.id):
        if record.lifecycle in NOT_SOLD:
            continue  # a new purchase: the catalog keeps the host for the clusters customers run (OUT_OF_SALE_NOTE)
        if req.families and not ({"vSAN", record.vendor} & set(req.families)):
            continue
        for policy in HCI_POLICIES:
            if record.architecture == "esa":
                first = vsan_policy_rule(policy, "esa", 3).min_hosts + req.n_plus
                most = record.max_disk_groups * record.max_capacity_per_group
                for hosts in range(first * sites, HCI_MAX_HOSTS + 1, 2):
                    for devices in (d for d in HCI_ESA_POOL_DEVICES if d <= most):
                        layout = esa_pool_layout(devices)
                        if layout is None:
                            continue
                        node = dict(id="cluster", catalog_id=record.id, label=record.name, x=400.0, y=120.0,
                                    hosts=hosts, disk_groups_per_host=layout[0], capacity_drives_per_group=layout[1],
                                    policy=policy, architecture="esa", **stretch)
                        summary = (f"{record.name} x {hosts} hosts ({req.n_plus} spare{where(hosts)}), vSAN ESA "
                                   f"storage pool of {devices} NVMe devices per host, {policy_label(policy)}")
                        yield _Spec(partial(_cluster_scenario, base, HciClusterNode, node), summary,
                                    hosts * HCI_HOST_RACK_UNITS, None, "hci", (hosts * layout[0] * layout[1], 0))
                continue
            first = VSAN_MIN_HOSTS[policy] + req.n_plus
            for hosts in range(first * sites, HCI_MAX_HOSTS + 1, 2):
                for groups in range(1, record.max_disk_groups + 1):
                    for drives in sorted({2, 4, record.max_capacity_per_group}):
                        if drives > record.max_capacity_per_group:
                            continue
                        node = dict(id="cluster", catalog_id=record.id, label=record.name, x=400.0, y=120.0,
                                    hosts=hosts, disk_groups_per_host=groups, capacity_drives_per_group=drives,
                                    policy=policy, **stretch)
                        summary = (f"{record.name} x {hosts} hosts ({req.n_plus} spare{where(hosts)}), "
                                   f"{groups} disk group{'s' * (groups != 1)} of {drives} capacity drives per host, "
                                   f"{policy_label(policy)}")
                        yield _Spec(partial(_cluster_scenario, base, HciClusterNode, node), summary,
                                    hosts * HCI_HOST_RACK_UNITS, None, "hci", (hosts * groups * drives, 0))


def _without_spares(scenario: Scenario, n_plus: int) -> Scenario:
    """The HCI candidate with its ``n_plus`` spare hosts taken out: what must still meet the requirements."""
    if not n_plus:
        return scenario
    nodes = [n.model_copy(update={"hosts": n.hosts - n_plus * (2 if n.stretched else 1)}) if n.kind == "hci_cluster"
             else n
             for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


CLOUD_DISK_COUNTS = (2, 4, 6, 8, 12, 16, 24, 32, 48, 64)
"""Data-disk counts tried per cloud VM (up to the VM's ``max_data_disks``)."""


def _cloud_candidates(
    base: Scenario, catalog: Catalog, req: Requirements
) -> Iterator[tuple[Scenario, str, int, float | None, tuple[float, float]]]:
    """Cloud Volumes ONTAP candidate designs (scenario, summary, rack units 0, power None, (vCPUs, disk bytes)):
    :func:`_cloud_specs` built."""
    for spec in _cloud_specs(base, catalog, req):
        yield (*spec.design(), spec.size)


def _cloud_specs(base: Scenario, catalog: Catalog, req: Requirements) -> Iterator[_Spec]:
    """Cloud Volumes ONTAP candidates (scenario, summary, rack units 0, power None, (vCPUs, disk bytes)): every VM
    record x single node or HA pair (when the VM supports HA) x every licence the VM offers x every data-disk type
    of its provider (not its boot / NVRAM disks) x :data:`CLOUD_DISK_COUNTS` up to the VM's maximum (an HA node's
    disk count and the capacity with disks alone where the record limits them), RAID0 (the cloud disks protect
    themselves; CVO documentation). The workloads target the VM and keep no host links (a cloud design's clients
    reach it over the provider's network)."""
    from models.catalog import CloudDisk, CloudVm
    from models.project.model import CloudVmNode

    disks = [e for e in catalog if isinstance(e, CloudDisk) and e.data_disk]  # not boot / NVRAM disks
    for vm in sorted((e for e in catalog if isinstance(e, CloudVm)), key=lambda e: (e.vcpu, e.id)):
        if req.families and not ({"CVO", "Cloud Volumes ONTAP", vm.provider, vm.vendor} & set(req.families)):
            continue
        if req.protocols and not set(req.protocols) & set(vm.protocols):
            continue
        for ha in (False, True) if vm.ha_supported else (False,):
            for licence in vm.licences:
                if ha and licence in vm.single_node_licences:
                    continue  # offered for a single node only (CloudVm.single_node_licences)
                for disk in sorted((d for d in disks if d.provider == vm.provider and  # CloudDisk.refusal
                                    not d.refusal(vm.id, ha, licence)), key=lambda d: d.size_bytes):
                    for count in CLOUD_DISK_COUNTS:
                        if count > vm.data_disk_limit(ha) or (vm.max_disk_capacity_bytes and count *
                                                               disk.size_bytes > vm.max_disk_capacity_bytes):
                            break  # the VM's data-disk count or capacity limit (CloudVm)
                        node = dict(id="cvo", catalog_id=vm.id, label=vm.name, x=400.0, y=120.0,
                                    licence=licence, ha=ha, disk=disk.id, disk_count=count)
                        yield _Spec(partial(_cluster_scenario, base, CloudVmNode, node),
                                    partial(_cloud_summary, vm, ha, licence, count, disk, catalog), 0,
                                    None, "cloud", (vm.vcpu * (2 if ha else 1), count * disk.size_bytes),
                                    single_vm=not ha)


def _cloud_summary(vm: Any, ha: bool, licence: str, count: int, disk: Any, catalog: Catalog) -> str:
    """A Cloud Volumes ONTAP design of :func:`_cloud_specs` in words (written on first use)."""
    lic = catalog.find(licence)
    return (f"{vm.name}, {'HA pair' if ha else 'single node'}, {lic.name if lic is not None else licence}, "
            f"{cloud_disks_words(count, disk.name, ha)}")


def cloud_disks_words(count: int, name: str, ha: bool) -> str:
    """A Cloud Volumes ONTAP system's data disks in words: ``4 x <disk> per node (8 disks)`` for an HA pair, whose
    nodes each have their own mirrored set (``count`` is per node, the bill of materials counts both), ``4 x <disk>``
    for a single node."""
    return f"{count} x {name} per node ({2 * count} disks)" if ha else f"{count} x {name}"


_CLOUD_VM_NOT_CAPACITY = {"catalog_id", "label"}
"""A Cloud Volumes ONTAP node's fields its capacity figures do not depend on: the VM record and the node's name give
only the problems' and layout's words (``models.capacity.cloud.cloud_capacity``: raw, HA mirror, licence cap and
WAFL reserve read the disks, the licence and the release); the limits the VM sets are kept by the generator."""


def _node_json(node: Any, exclude: set[str] | None = None) -> str:
    """``node.model_dump_json`` (without the fields ``exclude``, one of this module's constant sets; None: every
    field)."""
    return node.model_dump_json(exclude=exclude) if exclude else node.model_dump_json()


NodeJson = Callable[[Any, "set[str] | None"], str]
"""(node, fields left out or None) -> the node's ``model_dump_json`` text: :func:`_node_json`, or a search's
:class:`_NodeJsonMemo`."""

_UNSHARED_KINDS = ("cloud_vm", "managed_service", "hci_cluster")
"""Node kinds each design of a search makes its own (a cloud VM, a managed service, an HCI cluster): their texts are
not memoised."""


class _NodeJsonMemo:
    """:func:`_node_json` computed once per node object and exclusion: the designs of one search share their validated
    (frozen) hosts, controller and shelf nodes (:func:`_controller_node`, :func:`_shelf_node`), whose texts the
    storage, capacity and performance keys of every design otherwise dumped again. An exclusion (this module's
    constant sets) is told by its id; each node and exclusion is held with its text, so no other object takes
    their ids while the memo lives."""

    def __init__(self) -> None:
        self._texts: dict[tuple[int, int], tuple[Any, set[str] | None, str]] = {}

    def __call__(self, node: Any, exclude: set[str] | None = None) -> str:
        if node.kind in _UNSHARED_KINDS:
            return _node_json(node, exclude)
        key = (id(node), id(exclude))
        hit = self._texts.get(key)
        if hit is None:
            hit = self._texts[key] = (node, exclude, _node_json(node, exclude))
        return hit[2]


def _storage_key(scenario: Scenario, dumps: NodeJson | None = None) -> tuple:
    """What a design's capacity figures depend on: its storage nodes (everything but hosts) with their parameters
    (a cloud VM's without its VM record: :data:`_CLOUD_VM_NOT_CAPACITY`, so the VMs that take the same disks and
    licence share one capacity evaluation); the workloads are the same for every design of one search, and links
    carry no capacity. ``dumps``: each node's JSON text (:data:`NodeJson`; None: ``model_dump_json``)."""
    if dumps is not None:
        return tuple(dumps(n, _CLOUD_VM_NOT_CAPACITY if n.kind == "cloud_vm" else None)
                     for n in scenario.nodes if n.kind not in ("host", "switch"))
    return tuple(n.model_dump_json(exclude=_CLOUD_VM_NOT_CAPACITY) if n.kind == "cloud_vm" else n.model_dump_json()
                 for n in scenario.nodes if n.kind not in ("host", "switch"))


_CONTROLLER_NOT_CAPACITY = {"catalog_id", "label"}
"""A controller node's fields :func:`_capacity_key` gives by its record's :func:`_capacity_signature` instead (the
record id) or leaves out (the name)."""


def _capacity_signature(record: Controller, catalog: Catalog) -> tuple:
    """What the capacity engine reads of an array controller's record for a design's capacity totals
    (``models.capacity.engine``, ``ontap``, ``array``, ``layout``): its family, nodes, default ONTAP release
    (the WAFL reserve rule), ADP modes and root partition sizes, whether it is an all-flash ONTAP system (read
    from its id and name: ``layout.is_all_flash_ontap``) and whether its catalog shelves include internal bays
    (an entry-level FAS: ``layout.entry_internal_drives``). Its name and limits give only words (the problems and
    the waterfall's text), the rest of the record performance, ports and footprint."""
    from models.capacity.layout import is_all_flash_ontap

    return (record.family, record.nodes, record.default_software, tuple(record.adp),
            tuple(sorted(record.adp_root_partition_bytes.items())), is_all_flash_ontap(record),
            any(getattr(catalog.find(sid), "internal", False) for sid in record.shelves))


def _alike_layouts(layouts: Mapping[str, RaidLayout], computed: Scenario, scenario: Scenario,
                   catalog: Catalog) -> Mapping[str, RaidLayout]:
    """``raid_layouts(scenario, catalog)`` of an array design from the ``layouts`` of the design ``computed``, whose
    :func:`_capacity_key` is the same: the layout rules read of a controller's record only what its
    :func:`_capacity_signature` holds (``models.capacity.layout``: nodes, ADP modes and root partition sizes, default
    release, all-flash, internal bays) and its name for the words, and of its node and shelves what the key holds,
    so each controller's groups, spares and RAID type are the same; its layout is given the node's id and the words
    naming it (``layout._renamed``; a note that names the record rather than the node keeps the other's name: the
    paths, which these layouts are for, read only the RAID type and the groups)."""
    from models.capacity.layout import _controller_where, _renamed

    out = dict(layouts)
    theirs = {n.id: n for n in computed.nodes if n.kind == "controller"}
    for node in scenario.nodes:
        if node.kind == "controller" and node.id in out and node.id in theirs:
            out[node.id] = _renamed(out[node.id], _controller_where(theirs[node.id], catalog),
                                    _controller_where(node, catalog), node.id)
    return MappingProxyType(out)


def _capacity_key(scenario: Scenario, catalog: Catalog, signatures: dict[str, Any],
                  dumps: NodeJson = _node_json) -> tuple:
    """A key equal for array designs whose capacity totals are the same: :func:`_storage_key` with each controller
    node's record given by its :func:`_capacity_signature` (and the node without its record id and name), so
    controllers of alike capacity rules (an AFF and its ASA twin, a generation's models) with the same shelves and
    drives share one capacity evaluation. ``signatures`` memoises each controller id's signature; ``dumps``: each
    node's JSON text (:data:`NodeJson`)."""
    out: list[Any] = []
    for n in scenario.nodes:
        if n.kind in ("host", "switch"):
            continue
        record = catalog.find(n.catalog_id) if n.kind == "controller" else None
        if isinstance(record, Controller):
            sig = signatures.get(record.id)
            if sig is None:
                sig = signatures[record.id] = _capacity_signature(record, catalog)
            out.append((sig, dumps(n, _CONTROLLER_NOT_CAPACITY)))
        else:
            out.append(dumps(n, None))
    return tuple(out)


MANAGED_SIZE_STEPS = (1, 1.5, 2, 3, 4, 6, 8, 12, 16)
"""Multiples of the needed capacity tried for a managed service (a size-based service buys throughput with
capacity, so a larger quota may be what meets the SLO)."""


def _managed_candidates(
    base: Scenario, catalog: Catalog, req: Requirements, need_bytes: float
) -> Iterator[tuple[Scenario, str, int, float | None, tuple[float, float]]]:
    """Managed file service candidate designs (scenario, summary, rack units 0, power None, (0, provisioned
    bytes)): :func:`_managed_specs` built."""
    for spec in _managed_specs(base, catalog, req, need_bytes):
        yield (*spec.design(), spec.size)


def _managed_specs(base: Scenario, catalog: Catalog, req: Requirements, need_bytes: float) -> Iterator[_Spec]:
    """Managed file service candidates (scenario, summary, rack units 0, power None, (0, provisioned bytes)):
    every service record (of the allowed providers and protocols) x a provisioned capacity of
    :data:`MANAGED_SIZE_STEPS` times the need (whole TiB, within the service's range) x, for services that sell
    throughput, each throughput option. Workloads target the service and keep no host links."""
    from models.catalog import ManagedService
    from models.project.model import ManagedServiceNode

    tib = 2**40
    for rec in sorted((e for e in catalog if isinstance(e, ManagedService)), key=lambda e: e.id):
        if req.families and not ({rec.provider, rec.service, rec.vendor} & set(req.families)):
            continue
        if req.protocols and not set(req.protocols) & set(rec.protocols):
            continue
        sizes = sorted({min(max(math.ceil(need_bytes * k / tib), 1) * tib, rec.max_capacity_bytes)
                        for k in MANAGED_SIZE_STEPS})
        sizes = [s for s in sizes if s >= rec.min_capacity_bytes] or [rec.min_capacity_bytes]
        for size_bytes in sizes:
            for mbps in (rec.throughput_options_mbps or [0.0]):
                node = dict(id="service", catalog_id=rec.id, label=rec.name, x=400.0, y=120.0,
                            provisioned_bytes=int(size_bytes), throughput_mbps=mbps)
                summary = (f"{rec.name}, {size_bytes / tib:,.0f} TiB provisioned"
                           + (f", {mbps:,.0f} MB/s throughput capacity" if mbps else ""))
                yield _Spec(partial(_cluster_scenario, base, ManagedServiceNode, node), summary, 0, None,
                            "cloud", (0, size_bytes + mbps))


def _candidates(
    base: Scenario, catalog: Catalog, req: Requirements
) -> Iterator[tuple[Scenario, str, int, float | None, Deployment, tuple[float, float]]]:
    """Every candidate design (scenario, summary, rack units, power, deployment, size), lazily: :func:`_specs`
    built, in the same order."""
    for spec in _specs(base, catalog, req):
        yield spec.scenario, spec.summary, spec.ru, spec.power, spec.deployment, spec.size


def _specs(base: Scenario, catalog: Catalog, req: Requirements) -> Iterator[_Spec]:
    """Every candidate design as an unbuilt :class:`_Spec`, lazily, deployment by deployment in the order of
    ``req.deployments``: arrays ("on-prem"), HCI clusters ("hci"), managed file services and Cloud Volumes ONTAP
    ("cloud"). A spec's ``size`` orders designs of the same footprint within a deployment before any performance is
    computed: (vCPUs, provisioned disk bytes) of a cloud design, (drives, 0) otherwise."""
    sites = site_fields(base, req)
    only_sites = bool(sites) and not req.meet_slo_after_site_loss  # a MetroCluster being sized: two sites only
    for deployment in req.deployments:
        if deployment == "on-prem":
            yield from _array_specs(base, catalog, req, sites)
        elif deployment == "hci":
            yield from _hci_specs(base, catalog, req, bool(sites))
        elif deployment == "cloud" and not only_sites:  # no cloud design here spans two sites
            yield from _managed_specs(base, catalog, req, needed_effective_bytes(base, req))
            yield from _cloud_specs(base, catalog, req)


def _hosts_for(hosts: list[HostNode], catalog: Catalog, link: LinkType) -> tuple[list[HostNode] | None, str]:
    """The base's hosts ready for a front-end link of type ``link``: a host whose adapter does not speak the
    link's protocol gets the catalog's adapter that does, the slowest at least as fast as the link (else the
    fastest), named in the returned note ("" when none changes). Raises nothing; returns (hosts, note) with hosts
    None when no catalogued adapter speaks the protocol."""
    fits = sorted((a for a in catalog.of_kind(Adapter) if set(link.protocols) & set(a.protocols)),
                  key=lambda a: (a.speed_gbps < link.speed_gbps, a.speed_gbps if a.speed_gbps >= link.speed_gbps
                                 else -a.speed_gbps, a.id))
    out, changed = [], set()
    for host in hosts:
        adapter = catalog.find(host.adapter) if host.adapter else None
        if isinstance(adapter, Adapter) and not set(link.protocols) & set(adapter.protocols):
            if not fits:
                return None, ""
            host = host.model_copy(update={"adapter": fits[0].id})
            changed.add(fits[0].name)
        out.append(host)
    return out, (f"; hosts get {', '.join(sorted(changed))}" if changed else "")


def _array_candidates(base: Scenario, catalog: Catalog, req: Requirements) -> Iterator[_Design]:
    """Array candidate designs (scenario, summary, rack units, power), lazily, in catalog order: :func:`_array_specs`
    built."""
    for spec in _array_specs(base, catalog, req):
        yield spec.design()


def site_fields(base: Scenario, req: Requirements) -> dict[str, Any]:
    """The MetroCluster settings every array candidate gets (empty: none, a single site). With
    ``meet_slo_after_site_loss``: MetroCluster IP whose partner site runs the same workloads. When the design being
    sized is a MetroCluster (``models.project.metrocluster.is_metrocluster``), the sizer keeps its site protection:
    MetroCluster IP with the design's partner-site load (the same workloads when the requirement asks for the SLO
    after losing a site) and fibre distance, so the inter-site write latency is the design's."""
    out: dict[str, Any] = {"metrocluster": "ip", "partner_site_load": "mirror"} if req.meet_slo_after_site_loss else {}
    metro = next((n for n in base.nodes if isinstance(n, ControllerNode) and n.metrocluster != "none"), None)
    if metro is not None:
        out = {"metrocluster": "ip", "partner_site_load": out.get("partner_site_load", metro.partner_site_load),
               "site_distance_km": metro.site_distance_km}
    return out


NOT_SOLD = frozenset({"installed base", "end of sale"})
"""Controller and HCI host lifecycles the sizer proposes no design on (``Entry.lifecycle``, each with its source): the
sizer sizes a new purchase, and the vendor no longer sells these models (NetApp's older arrays; a vSAN 6.2 host,
whose vSphere 6.0 left general support in 2020); the catalog keeps them to evaluate and import the systems
customers run (and the platform ladders' predecessors). A record without a lifecycle (a user's own) is proposed."""

OUT_OF_SALE_NOTE = ("only models the vendor sells today are proposed: installed-base and end-of-sale models ({names}) "
                    "are in the catalog to evaluate the systems customers run, not to buy")
"""The sizer's note when the catalog holds controllers or HCI hosts of :data:`NOT_SOLD` lifecycles ({names}: some
of the controllers, then every such HCI host by name: :func:`out_of_sale_names`)."""


def out_of_sale_names(catalog: Catalog, deployments: Sequence[str]) -> str:
    """The models :data:`OUT_OF_SALE_NOTE` names, in words ("" when none): of the deployments searched, the
    installed-base and end-of-sale ONTAP and E-Series controllers ("on-prem": the first four and how many more)
    and every such HCI host ("hci": each by name, so an old vSAN host is never hidden among the arrays)."""
    from models.catalog import HciNode

    words = []
    if "on-prem" in deployments:
        unsold = sorted(e.name.removesuffix(" HA pair") for e in catalog
                        if isinstance(e, Controller) and e.lifecycle in NOT_SOLD and e.family in ("ONTAP", "E-Series"))
        if unsold:
            words.append(", ".join(unsold[:4]) + (f" and {len(unsold) - 4} more" if len(unsold) > 4 else ""))
    if "hci" in deployments:
        hosts = sorted(e.name for e in catalog if isinstance(e, HciNode) and e.lifecycle in NOT_SOLD)
        if hosts:
            words.append(f"the vSAN host{'s' * (len(hosts) > 1)} " + ", ".join(hosts))
    return "; ".join(words)


def _array_specs(base: Scenario, catalog: Catalog, req: Requirements,
                 sites: dict[str, Any] | None = None, sold_only: bool = True) -> Iterator[_Spec]:
    """Array candidate designs as unbuilt :class:`_Spec` s, lazily, in catalog order. ``sites``: the MetroCluster
    settings of every candidate (:func:`site_fields`; None: the requirement's alone, as the replication
    destinations are sized; empty: a single site), only MetroCluster IP capable arrays then. ``sold_only``: only
    models the vendor sells today (:data:`NOT_SOLD`: a new purchase); False for the installed design of a measured
    environment (``models.installed``), which names the model the customer runs."""
    if sites is None:
        sites = {"metrocluster": "ip", "partner_site_load": "mirror"} if req.meet_slo_after_site_loss else {}
    hosts = [n for n in base.nodes if n.kind == "host"]
    nas = any(w.nas is not None for w in base.workloads if w.enabled)
    ready_hosts: dict[str, tuple] = {}  # the hosts ready for each front-end link type, built once
    fabric = front_end_switches(base, catalog)  # counted in every array design's footprint
    fabric_gbps = fabric_speeds(base, catalog)  # a design's faster ports would run at its speed: the row says so
    fabric_names = fabric_models(base, catalog)
    for record in sorted((e for e in catalog if isinstance(e, Controller)), key=lambda e: e.id):
        if record.family not in ("ONTAP", "E-Series"):
            continue
        if sold_only and record.lifecycle in NOT_SOLD:
            continue  # a new purchase: the catalog keeps it for the installed base it replaces (OUT_OF_SALE_NOTE)
        if sites and (record.family != "ONTAP" or not record.metrocluster_ip):
            continue  # only a MetroCluster IP (ONTAP) array survives losing a site; not every ONTAP system is one
        if req.families and not ({record.family, record.vendor} & set(req.families)):
            continue
        protocols = ["NFS"] if nas else [p for p in ("FCP", "NVMe/FC", "NVMe/TCP", "iSCSI") if p in record.protocols]
        if req.protocols:
            protocols = [p for p in protocols if p in req.protocols]
        shelves = [sh for sid in record.shelves if isinstance(sh := catalog.find(sid), Shelf)]
        internal = [sh for sh in shelves if sh.internal]
        external = [sh for sh in shelves if not sh.internal]
        drives = [d for d in catalog if isinstance(d, Drive) and drive_fits_controller(d, record, catalog)]
        fronts = []  # (protocol, front end, link, hosts ready for it, note) per protocol the record can carry
        for protocol in protocols:
            fe = _front_end(record, protocol, catalog)
            link = catalog.get(fe[0], LinkType) if fe is not None else None
            if fe is None or link is None or protocol_version_problem(record, record.default_software, link):
                continue
            if link.id not in ready_hosts:
                ready_hosts[link.id] = _hosts_for(hosts, catalog, link)
            ready, note = ready_hosts[link.id]
            if ready is not None:
                fronts.append((protocol, fe, link, ready, runs_words(link, fabric_gbps, fabric_names) + note))
        if not fronts:
            continue
        for drive in sorted(drives, key=lambda d: d.id):
            bays = next((sh for sh in internal if drive_fits_shelf(drive, sh)), None)
            outside = [sh for sh in external if drive_fits_shelf(drive, sh)]
            layouts: list[tuple[Shelf | None, Shelf | None, int]] = []
            if bays is not None:  # internal bays first: full, then external shelves added
                layouts.append((bays, None, 0))
                layouts += [(bays, sh, k) for sh in outside for k in range(1, _shelf_steps(record, sh, catalog) + 1)]
            else:
                layouts += [(None, sh, k) for sh in outside for k in range(1, _shelf_steps(record, sh, catalog) + 1)]
            for inside, shelf, count in layouts:
                switch = _switch_for(record, shelf, count, catalog)
                n_drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf else 0)
                if _over_limits(record, inside, shelf, count, drive, switch is not None):
                    continue
                ru, power = (metrocluster_footprint(record, inside, shelf, count, drive,
                                                    sites["partner_site_load"] == "mirror", switch) if sites
                             else _design_footprint(record, inside, shelf, count, drive, switch))
                ru, power = fabric.added_to(ru, power)  # the same for each front end
                size = (n_drives, 0)
                for protocol, fe, link, ready, note in fronts:
                    if shelf is not None and count and record.ports_per_node_expanded is not None:
                        fe = (fe[0], min(fe[1], record.ports_per_node_expanded * record.nodes))
                    yield _ArraySpec(base, (ready, record, inside, shelf, drive, count, fe, sites, switch),
                                     (protocol, link, note + (METROCLUSTER_SUMMARY if sites else "")), ru, power,
                                     size)


def _shelf_steps(record: Controller, shelf: Shelf, catalog: Catalog) -> int:
    """The most full external ``shelf`` s tried for ``record``: :data:`MAX_SHELVES`, or its switch-attached shelf
    limit where it has one and a storage switch for the shelf is in the catalog (:func:`storage_switch_for`)."""
    if record.max_shelves_switched is not None and storage_switch_for(shelf, catalog) is not None:
        return max(MAX_SHELVES, record.max_shelves_switched)
    return MAX_SHELVES


def storage_switch_for(shelf: Shelf, catalog: Catalog) -> Switch | None:
    """The storage switch a switch-attached design of ``shelf`` s uses (a pair of it): of the catalog's switches the
    vendor supports as storage switches for the shelf (``Switch.storage_shelves``), the one with the most ports
    (then by id); None when there is none."""
    found = [e for e in catalog if isinstance(e, Switch) and shelf.id in e.storage_shelves]
    return min(found, key=lambda e: (-e.ports, e.id)) if found else None


def _switch_for(record: Controller, shelf: Shelf | None, count: int, catalog: Catalog) -> Switch | None:
    """The storage switch of a layout of ``count`` external ``shelf`` s: None while they are within ``record``'s
    direct-attached shelf count, else :func:`storage_switch_for` where the record has a switch-attached limit."""
    if (shelf is None or record.max_shelves is None or count <= record.max_shelves
            or record.max_shelves_switched is None):
        return None
    return storage_switch_for(shelf, catalog)


def _over_limits(record: Controller, inside: Shelf | None, shelf: Shelf | None, count: int, drive: Drive,
                 switched: bool = False) -> bool:
    """Whether a layout breaks one of ``record``'s platform limits (``models.catalog.limits.platform_limit_problems``
    of :func:`_filled`; ``switched``: its shelves are switch-attached)."""
    return bool(platform_limit_problems(record, _filled(inside, shelf, count, drive), switched))


def _filled(inside: Shelf | None, shelf: Shelf | None, count: int,
            drive: Drive) -> list[tuple[Shelf | None, Drive | None, int]]:
    """A layout's shelves full of ``drive`` as ``models.catalog.limits.platform_limit_problems`` reads them."""
    out: list[tuple[Shelf | None, Drive | None, int]] = [(inside, drive, inside.bays)] if inside is not None else []
    return out + ([(shelf, drive, shelf.bays)] * count if shelf is not None else [])


def array_proposals(base: Scenario, catalog: Catalog) -> Iterator[tuple[str, Controller,
                                                                         list[tuple[Shelf | None, Drive | None, int]],
                                                                         int, float | None, Switch | None]]:
    """Every on-premises array platform the sizer can propose for ``base`` (any family, protocol and drive; the
    catalog audit's footprint rule reads them): per candidate its summary, controller record, shelves (record,
    drive record, drive count), the rack units and typical power the sizer reports for it and its storage switch
    (a pair; None: direct-attached shelves)."""
    for scenario, summary, ru, power in _array_candidates(base, catalog, Requirements()):
        node = next(n for n in scenario.nodes if isinstance(n, ControllerNode))
        controller = catalog.get(node.catalog_id, Controller)
        switch = catalog.find(node.storage_switch) if node.storage_switch else None
        shelves: list[tuple[Shelf | None, Drive | None, int]] = []
        for n in scenario.nodes:
            if n.kind == "shelf":
                found, drive = catalog.find(n.catalog_id), catalog.find(n.drive)
                shelves.append((found if isinstance(found, Shelf) else None,
                                drive if isinstance(drive, Drive) else None, n.drive_count))
        yield summary, controller, shelves, ru, power, switch if isinstance(switch, Switch) else None


def _retargeted(base: Scenario, target: str, keep_hosts: bool) -> list:
    """The base's workloads aimed at the candidate's storage node ``target`` (with their host groups, or none for
    a cluster, cloud VM or service): built once per base scenario and shared by its designs (copying a workload
    costs more than the rest of a design)."""
    cache = base.index().derived
    key = ("sizer-workloads", target, keep_hosts)
    found = cache.get(key)
    if found is None:
        update = {"target": target} if keep_hosts else {"target": target, "hosts": []}
        found = cache[key] = [w.model_copy(update=update) for w in base.workloads]
    return found


def _design(base: Scenario, hosts: list[HostNode], record: Controller, inside: Shelf | None, shelf: Shelf | None,
            drive: Drive, count: int, fe: tuple[str, int], sites: dict[str, Any] | None = None,
            switch: Switch | None = None) -> Scenario:
    """One candidate scenario: the base's hosts and workloads, the controller with its internal bays ``inside``
    full of ``drive`` (None: it has none that take it) and ``count`` full external shelves ``shelf`` of it, each host
    linked to it over ``fe`` (link type, ports). An array's Dynamic Disk Pool keeps SANtricity's default preservation
    capacity for its drive count (``rules.ddp_default_preservation``). ``sites``: the controller's MetroCluster
    settings (:func:`site_fields`; each SyncMirror plex at its own site), None or empty for a single site.
    ``switch``: the storage switch model its shelves are switch-attached through (a pair; None: direct-attached)."""
    ctl = _array_controller(record, inside, shelf, drive, count, sites, switch)
    placed = ([(inside, "bays", inside.name)] if inside is not None else []) + (
        [(shelf, f"shelf{k + 1}", f"{shelf.name} {k + 1}") for k in range(count)] if shelf is not None else [])
    shelves = [_shelf_node(sid, sh.id, label, k, drive.id, sh.bays) for k, (sh, sid, label) in enumerate(placed)]
    records = {sh.id: sh for sh, _, _ in placed}
    links = _front_links(hosts, fe)
    links += [_link(f"be-{s.id}", "array", s.id, records[s.catalog_id].backend_link,
                    records[s.catalog_id].backend_lanes) for s in shelves]
    workloads = _retargeted(base, "array", keep_hosts=True)
    return base.model_copy(update={"nodes": [*hosts, ctl, *shelves], "links": links, "workloads": workloads})


def _array_controller(record: Controller, inside: Shelf | None, shelf: Shelf | None, drive: Drive, count: int,
                      sites: dict[str, Any] | None, switch: Switch | None = None) -> ControllerNode:
    """The controller node :func:`_design` places for its arguments (shared: :func:`_controller_node`)."""
    n_drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf is not None else 0)
    return _controller_node(record.id, record.name, ontap_default_raid(drive) if record.family == "ONTAP" else "ddp",
                            ONTAP_MIN_SPARES[drive.media] if record.family == "ONTAP" else 0,
                            1 if record.family == "ONTAP" else ddp_default_preservation(n_drives),
                            tuple(sorted({**(sites or {}), **({"storage_switch": switch.id, "storage_switch_pairs":
                                                               storage_switch_pairs_needed(switch.ports, count,
                                                                                           record.nodes or 2)}
                                                              if switch else {})}.items())))


def _front_links(hosts: list[HostNode], fe: tuple[str, int]) -> list[Link]:
    """The front-end links :func:`_design` places: each host to the array over ``fe`` (link type, ports), shared
    (:func:`_link`)."""
    link_id, ports = fe
    return [_link(f"fe-{h.id}", h.id, "array", link_id, max(1, ports // max(len(hosts), 1))) for h in hosts]


def _controller_side(scenario: Scenario) -> tuple:
    """What the controller's CPU and affinity stations of an array design's paths depend on: every node but its
    shelves and every link but the back-end ones (the controller node, its hosts and front-end links; by identity:
    the search's designs share these validated objects, and every design it builds lives until it ends, so no other
    object takes an id while the key is in use)."""
    shelves = {n.id for n in scenario.nodes if n.kind == "shelf"}
    return (tuple(id(n) for n in scenario.nodes if n.kind != "shelf"),
            tuple(id(ln) for ln in scenario.links if ln.target not in shelves))


def _parts_side(parts: tuple) -> tuple:
    """:func:`_controller_side` of the design :func:`_design` builds from ``parts`` (``_Spec.parts``), without
    building it: the hosts, the controller node and the front-end links it would place are these shared objects."""
    hosts, record, inside, shelf, drive, count, fe, sites, switch = parts
    return (tuple(id(h) for h in hosts) + (id(_array_controller(record, inside, shelf, drive, count, sites,
                                                                switch)),),
            tuple(id(ln) for ln in _front_links(hosts, fe)))


@lru_cache(maxsize=4096)
def _controller_node(catalog_id: str, label: str, raid_type: str, spares_per_node: int, ddp_preservation_drives: int,
                     sites: tuple[tuple[str, Any], ...]) -> ControllerNode:
    """The controller node :func:`_design` places (``sites``: its MetroCluster settings as sorted items): one
    validated (frozen) node shared by every design that places the same (designs differing in drives of one
    media, shelves or front end)."""
    return ControllerNode(id="array", catalog_id=catalog_id, label=label, x=400.0, y=120.0, raid_type=raid_type,
                          spares_per_node=spares_per_node, adp="none", ddp_preservation_drives=ddp_preservation_drives,
                          **dict(sites))


@lru_cache(maxsize=4096)
def _shelf_node(sid: str, catalog_id: str, label: str, k: int, drive_id: str, bays: int) -> ShelfNode:
    """The ``k``-th (0-based) shelf node :func:`_design` places, full of ``drive_id``: one validated (frozen) node
    shared by every design that places the same (designs differing in controller or front end share their shelves,
    as they share their hosts)."""
    return ShelfNode(id=sid, catalog_id=catalog_id, label=label, x=760.0, y=60.0 + 120.0 * k, drive=drive_id,
                     drive_count=bays)


@lru_cache(maxsize=4096)
def _link(link_id: str, source: str, target: str, link_type: str, ports: int) -> Link:
    """A link :func:`_design` places: one validated (frozen) link shared by every design that places the same."""
    return Link(id=link_id, source=source, target=target, link_type=link_type, ports=ports)


def _design_footprint(record: Controller, inside: Shelf | None, shelf: Shelf | None,
                      count: int, drive: Drive, switch: Switch | None = None) -> tuple[int, float | None]:
    """(rack units, typical power W or None) of the design :func:`_design` builds, without building it, by the
    rules of ``models.present.bom.part_footprints``.

    Rack units: the controller chassis (its internal bays are in it; a controller record without a height whose
    chassis is its bays, an E-Series controller shelf, counts the bays' height once), plus each external shelf's.
    Power: the controller's typical power, plus (for a chassis that is its bays' record) the bays' enclosure, plus
    each external shelf's enclosure, plus every drive's typical power, plus a switch-attached design's pair of
    storage ``switch`` es (height and typical power); None when any of these is not in the catalog (an unknown
    figure never satisfies a power limit)."""
    ru = record.rack_units or (inside.rack_units if inside is not None else DEFAULT_RACK_UNITS)
    watts: list[float | None] = [record.typical_power_w]
    if inside is not None and not record.rack_units:
        watts.append(inside.typical_power_w)
    if shelf is not None:
        ru += count * (shelf.rack_units or DEFAULT_RACK_UNITS)
        watts.append(None if shelf.typical_power_w is None else count * shelf.typical_power_w)
    n_drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf is not None else 0)
    watts.append(None if drive.typical_power_w is None else n_drives * drive.typical_power_w)
    if switch is not None:  # as many pairs as the shelves' and controllers' ports need
        n_switches = STORAGE_SWITCH_PAIR * storage_switch_pairs_needed(switch.ports, count, record.nodes or 2)
        ru += n_switches * (switch.rack_units or DEFAULT_RACK_UNITS)
        watts.append(None if switch.typical_power_w is None else n_switches * switch.typical_power_w)
    if None in watts:
        return ru, None
    return ru, sum(cast(list[float], watts))  # (the same additions, in order, as over the known ones)


METROCLUSTER_SUMMARY = (", MetroCluster IP over two sites (this HA pair and its shelves at each, one SyncMirror plex "
                        "at each; rack units and power count both sites, without the MetroCluster IP switches)")
"""What a MetroCluster candidate adds to its summary."""

METROCLUSTER_ONLY_NOTE = ("the design is a MetroCluster, so only designs that keep a copy of the data at a second "
                          "site are proposed: MetroCluster IP arrays (with the partner site's HA pair and shelves) "
                          "and stretched vSAN clusters, no cloud design")
"""The sizer's note when the design being sized is a MetroCluster (:func:`site_fields`)."""


def metrocluster_footprint(record: Controller, inside: Shelf | None, shelf: Shelf | None, count: int, drive: Drive,
                           mirror: bool, switch: Switch | None = None) -> tuple[int, float | None]:
    """A MetroCluster candidate's (rack units, typical power W or None) over both sites, by the rules of
    ``models.project.metrocluster`` (which the bill of materials and the footprint follow): :func:`_design_footprint`'s
    site (its shelves hold both plexes of its aggregates) plus the partner site's HA pair and shelves, with as many
    drives again when it runs the same workloads (``mirror``), else none more (the pool 1 half of the drives sits
    there)."""
    ru, power = _design_footprint(record, inside, shelf, count, drive, switch)
    if power is None:
        return 2 * ru, None
    if mirror:
        return 2 * ru, 2 * power
    n_drives = (inside.bays if inside is not None else 0) + count * (shelf.bays if shelf is not None else 0)
    return 2 * ru, 2 * power - n_drives * (drive.typical_power_w or 0.0)


def _design_summary(record: Controller, inside: Shelf | None, shelf: Shelf | None, drive: Drive, count: int,
                    protocol: str, link: LinkType, note: str = "", switch: Switch | None = None) -> str:
    """The design :func:`_design` builds in words, ``note`` (hosts given another adapter) appended; a switch-attached
    design says so and names its storage switches."""
    return (f"{storage_summary(record, inside, shelf, drive, count, switch)}, {front_end_words(protocol, link)}"
            f"{note}")


_PROTOCOL_MEDIUM = {"NVMe/FC": "FC"}
"""The medium a protocol's name carries, said again after the speed when the link's short name is cut to it."""


def front_end_words(protocol: str, link: LinkType) -> str:
    """A front end in words, ``protocol`` (``"NVMe/FC"``) over ``link``'s short name with the protocol said once and
    the medium kept: ``"NVMe/TCP over 100GbE"`` (not ``"... 100GbE NVMe/TCP"``), ``"NVMe/FC over 64Gb FC"``,
    ``"FCP over 64Gb FC"``."""
    carrier = getattr(link, "short_name", "") or link.name  # as models.present.labels.link_type_label names it
    cut = carrier.removesuffix(f" {protocol}")
    if cut and cut != carrier:
        medium = _PROTOCOL_MEDIUM.get(protocol, "")
        carrier = f"{cut} {medium}" if medium and not cut.endswith(f" {medium}") else cut
    return f"{protocol} over {carrier}"


def needed_effective_bytes(scenario: Scenario, req: Requirements) -> float:
    """The effective capacity to provide, bytes, compared with a design's effective capacity (usable x data
    reduction, Snapshot copies and clones not counted: ``CapacityResult.effective_bytes``): the requirement's,
    else the enabled workloads' data sets, each grown by its growth over the horizon ((1 + g)^(months / 12), as
    months until full). The blocks of Snapshot copies and clones are checked apart, physically: a design's data
    must fit its usable capacity over the horizon (:func:`capacity_reasons`)."""
    if req.effective_capacity_bytes:
        return float(req.effective_capacity_bytes)
    return sum(_grown(w.dataset_bytes, w.growth_pct_per_year, req.horizon_months)
               for w in scenario.workloads if w.enabled)


def grown_copies_bytes(scenario: Scenario, req: Requirements, copies_bytes: float) -> float:
    """The physical blocks of a design's Snapshot copies and clones (``copies_bytes`` now: ``CapacityTotals``
    ``snapshot_physical_bytes + clone_physical_bytes``) at the end of the horizon, grown as the enabled workloads'
    data sets grow ((1 + g)^(months / 12) each, the data sets' grown sum over their sum now: a copy holds blocks of
    its volume's data). Part of the requirement beside :func:`needed_effective_bytes`: they must fit the usable
    capacity with the data (:func:`capacity_reasons`), though the effective capacity does not count them."""
    now = sum(w.dataset_bytes for w in scenario.workloads if w.enabled)
    if copies_bytes <= 0 or now <= 0:
        return max(float(copies_bytes), 0.0)
    grown = sum(_grown(w.dataset_bytes, w.growth_pct_per_year, req.horizon_months)
                for w in scenario.workloads if w.enabled)
    return float(copies_bytes) * grown / now


def capacity_reasons(cap: Any, need: float, horizon_months: int) -> list[str]:
    """Why a design's capacity (``models.capacity.CapacityTotals``) misses, by the verdict's rules
    (``models.verdict``): its effective capacity below ``need`` (bytes, :func:`needed_effective_bytes`;
    ``effective_meets``), or its data (physical used, Snapshot and clone blocks included) not fitting the usable
    capacity now or within ``horizon_months`` at the workloads' growth (``fits_usable`` and the engine's months
    until full). Empty when it meets both."""
    reasons = []
    if not effective_meets(cap.effective_bytes, need):
        reasons.append(f"capacity short by {(need - cap.effective_bytes) / TIB:,.1f} TiB effective")
    months = cap.months_until_full
    if not fits_usable(cap.physical_used_bytes, cap.usable_bytes):
        reasons.append(f"the data needs {cap.physical_used_bytes / TIB:,.1f} TiB but only "
                       f"{cap.usable_bytes / TIB:,.1f} TiB is usable")
    elif months is not None and months < horizon_months:
        reasons.append(f"capacity full in {months:,.0f} months, before the {horizon_months}-month horizon")
    return reasons


def _saturation_screen(scenario: Scenario, catalog: Catalog, req: Requirements,
                      peaks: dict[str, float] | None = None, paths: DesignPaths | None = None,
                      rooms: list[float] | None = None) -> list[str]:
    """Why a candidate cannot meet its grown targets whatever the latency: a workload whose grown target is at or
    above its saturation bound (min over stations of capacity / demand, QSP ch. 5), computed from its path alone
    (cheap: no ramp). Empty when no workload is ruled out (the full evaluation decides). ``peaks`` (workload name ->
    IOPS), when given, keeps the highest bound seen per workload. ``paths``: the design's paths when built already
    (``models.performance.screening.design_paths``), else they are built here. ``rooms``, when given, gets each
    workload's headroom over its grown target, percent ((saturation bound − grown) / grown x 100: negative where
    it rules the design out)."""
    from models.performance import saturation_iops

    if paths is None:
        paths = design_paths(scenario, catalog)
    by_id = {p.workload.id: p for p in paths.paths}
    out = []
    for w in scenario.workloads:
        if not w.performance_enabled:
            continue
        rate = _target_rate(w)
        if not rate:
            continue
        if w.id in paths.errors:
            out.append(paths.errors[w.id])
            continue
        path = by_id[w.id]
        sat, _ = saturation_iops(path.stations, path.read_fraction)
        if peaks is not None:
            peaks[w.name] = max(peaks.get(w.name, 0.0), sat)
        grown = _grown(rate, w.iops_growth_pct_per_year, req.horizon_months)
        if rooms is not None:
            rooms.append((sat - grown) / grown * 100.0)
        if sat <= grown:
            out.append(f"{w.name}: saturates at {sat:,.0f} IOPS, below the grown target of {grown:,.0f}")
    return out


DRIVE_IDENTITY_FIELDS = frozenset({"id", "name", "vendor", "notes", "provenance", "marketed_bytes", "right_sized_bytes",
                                   "controllers"})
"""Drive fields that do not change a design's performance check (its capacity, names and platform list): designs
whose drives differ only in these share one check. (A drive's capacity sets its rebuild time, a state the check does
not use: only takeover / failover are required.)"""


_NOT_PERFORMANCE = {"label", "x", "y"}
"""A node's fields no performance figure reads (its name and place on the canvas)."""

_SHELF_NOT_PERFORMANCE = _NOT_PERFORMANCE | {"drive"}
"""... and of a shelf, also its drive's id (:func:`_performance_key` gives the drive's performance signature)."""


_PLAIN = (str, int, float, bool, type(None))
"""Value types a record's dump (``model_dump``, Python mode) gives as they are."""


def _fields_dumped(record: Any, exclude: frozenset[str] = frozenset()) -> Any:
    """``record.model_dump(exclude=exclude)`` (a pydantic record: its fields in order, each nested record, dict and
    list dumped alike), read from the fields without pydantic's serializer: a catalog record's serializer is built on
    its first dump (``defer_build``: about 6 ms of CPU, the sizer's only dump of a drive in a search). A record or a
    value of another kind (a computed field, a dataclass, a tuple...) is dumped by ``model_dump`` itself."""
    model = type(record)
    if not _dumped_as_read(model):
        return record.model_dump(exclude=set(exclude))
    out = {}
    for name in model.model_fields:
        if name in exclude:
            continue
        value = getattr(record, name)
        if not isinstance(value, _PLAIN):
            value = _value_dumped(value)
            if value is _NOT_PLAIN:
                return record.model_dump(exclude=set(exclude))
        out[name] = value
    return out


def _dumped_as_read(model: type[BaseModel]) -> bool:
    """Whether ``model_dump`` of a ``model`` record is its fields' values as read (:func:`_fields_dumped`): no computed
    field, no serializer of its own, no field left out of dumps (memoised per class). A field's serializer given as
    ``Annotated`` metadata is a ``PlainSerializer`` or ``WrapSerializer`` of ``pydantic.functional_serializers``:
    while that module is not loaded no such object exists, and it is not imported to look for one (pydantic loads
    it on first use, about 2 ms of CPU that an evaluation never pays)."""
    known = _DUMPED_AS_READ.get(model)
    if known is None:
        loaded = sys.modules.get("pydantic.functional_serializers")
        serializers = (loaded.PlainSerializer, loaded.WrapSerializer) if loaded is not None else ()
        decorators = model.__pydantic_decorators__
        known = _DUMPED_AS_READ[model] = not (
            model.model_computed_fields or decorators.field_serializers or decorators.model_serializers
            or any(f.exclude or any(isinstance(m, serializers) for m in f.metadata)
                   for f in model.model_fields.values()))
    return known


_DUMPED_AS_READ: dict[type, bool] = {}
""":func:`_dumped_as_read` per record class."""


_NOT_PLAIN = object()
"""What :func:`_value_dumped` gives for a value it does not dump as ``model_dump`` would."""


def _value_dumped(value: Any) -> Any:
    """A field's value as ``model_dump`` gives it, for plain values, lists, dicts of string keys and nested records;
    :data:`_NOT_PLAIN` for anything else."""
    from pydantic import BaseModel

    if isinstance(value, _PLAIN):
        return value
    if type(value) is list:
        items = [_value_dumped(v) for v in value]
        return _NOT_PLAIN if any(v is _NOT_PLAIN for v in items) else items
    if type(value) is dict:
        pairs = {k: _value_dumped(v) for k, v in value.items()}
        return _NOT_PLAIN if any(type(k) is not str or v is _NOT_PLAIN for k, v in pairs.items()) else pairs
    if isinstance(value, BaseModel):
        dumped = _fields_dumped(value)
        return dumped if type(dumped) is dict else _NOT_PLAIN
    return _NOT_PLAIN


def _performance_key(scenario: Scenario, catalog: Catalog, deployment: str, signatures: dict,
                     dumps: NodeJson | None = None) -> tuple:
    """A key equal for designs whose performance check is the same: the scenario's nodes with each shelf's drive
    replaced by its performance signature (every field but :data:`DRIVE_IDENTITY_FIELDS`), its links and the
    deployment. ``signatures`` memoises each drive id's signature; ``dumps``: each node's JSON text
    (:data:`NodeJson`; None: ``model_dump_json``)."""
    dump = _node_json if dumps is None else dumps
    nodes: list[tuple[str, str]] = []
    for node in scenario.nodes:
        drive = getattr(node, "drive", None) if node.kind == "shelf" else None
        if drive:
            sig = signatures.get(drive)
            if sig is None:
                record = catalog.find(drive)
                sig = signatures[drive] = (repr(_fields_dumped(record, DRIVE_IDENTITY_FIELDS)) if record
                                           else drive)
            nodes.append((dump(node, _SHELF_NOT_PERFORMANCE), sig))
        else:
            nodes.append((dump(node, _NOT_PERFORMANCE), ""))
    links = tuple((ln.source, ln.target, ln.link_type, ln.ports) for ln in scenario.links)
    return deployment, tuple(nodes), links


def _cannot_meet_without_partner(scenario: Scenario, catalog: Catalog, req: Requirements, deployment: str,
                                 paths: DesignPaths | None = None) -> bool:
    """True when the requirements ask for the SLO in takeover and ``scenario`` has no HA partner: no workload's
    system has a takeover or cloud failover state (``models.performance.states``; the same paths and states
    :func:`_performance_check` reads through ``failover_verdicts``), so it cannot meet whatever its performance.
    False when the requirement does not apply to it (HCI answers with its spare hosts, a managed service with the
    provider's own HA). False too when no workload has a load to evaluate (every one capacity-only,
    ``Workload.performance_enabled``): there is no SLO to keep in takeover, and an HA pair is not partnerless for
    want of paths. ``paths``: the design's paths when built already, else they are built here."""
    if not req.meet_slo_in_takeover or deployment == "hci" or any(n.kind == "managed_service"
                                                                  for n in scenario.nodes):
        return False
    if not any(w.performance_enabled for w in scenario.workloads):
        return False
    from models.performance.states import cloud_failover, takeover

    if paths is None:
        paths = design_paths(scenario, catalog)
    return not any(takeover(p) is not None or cloud_failover(p) is not None for p in paths.paths)


def _single_cloud_vm(scenario: Scenario, req: Requirements, deployment: str) -> bool:
    """True when the requirements ask for the SLO in takeover and ``scenario`` is a Cloud Volumes ONTAP single node
    (its only nodes cloud VMs, none an HA pair): none of its paths has the HA partner's CPU station (a cloud
    failover state) nor two controller nodes' CPUs (a takeover state; ``models.performance.paths``), so
    :func:`_cannot_meet_without_partner` holds for it. Read from the nodes alone, without building its paths."""
    return (req.meet_slo_in_takeover and deployment == "cloud" and bool(scenario.nodes)
            and all(n.kind == "cloud_vm" and not getattr(n, "ha", True) for n in scenario.nodes))


def _single_cloud_spec(spec: _Spec, req: Requirements) -> bool:
    """:func:`_single_cloud_vm` of a cloud design not yet built: told by its generator when it can
    (``_Spec.single_vm``, so its scenario is not built for it), else read from its scenario."""
    if spec.single_vm is not None:
        return req.meet_slo_in_takeover and spec.single_vm
    return _single_cloud_vm(spec.scenario, req, "cloud")


def _target_rate(w: Any) -> float | None:
    """A workload's target, IOPS (its MB/s target at its block size when it gives no IOPS); None without one."""
    return w.target_iops or (w.target_mbps * 1e6 / (w.block_kib * 1024) if w.target_mbps else None)


def _capacity_certainly_short(scenario: Scenario, catalog: Catalog, need: float, sides: dict[tuple, Any]) -> bool:
    """Whether an array design's capacity certainly misses (:func:`capacity_reasons`), told without its RAID
    layout or waterfall: its usable capacity is at most its drives' right-sized capacity, and its data reduction
    ratio and physical used come from the workloads and the platform's inline efficiencies alone
    (``models.capacity.efficiency.effective_side``, as ``models.capacity.engine`` applies it to a controller), so
    the right-sized capacity times that ratio below ``need`` (bytes), or a physical used above the right-sized
    capacity, is a miss (a margin of 1e-9 against rounding). False when it cannot tell: no single controller
    with workloads, a FabricPool capacity tier, a drive not in the catalog. ``sides`` memoises each platform's
    effective side."""
    controllers = [n for n in scenario.nodes if n.kind == "controller"]
    if len(controllers) != 1:
        return False
    ctl = controllers[0]
    record = catalog.find(ctl.catalog_id)
    workloads = [w for w in scenario.workloads if w.enabled and w.target == ctl.id]
    if not isinstance(record, Controller) or not workloads or getattr(ctl, "capacity_tier", "none") != "none":
        return False
    shelves = []
    for n in scenario.nodes:
        if n.kind == "shelf":
            drive = catalog.find(n.drive)
            if not isinstance(drive, Drive):
                return False
            shelves.append((drive, n.drive_count))
    return _drives_certainly_short(record, workloads, shelves, need, sides)


def _parts_certainly_short(parts: tuple, workloads: list, need: float, sides: dict[tuple, Any]) -> bool:
    """:func:`_capacity_certainly_short` of the design :func:`_design` builds from ``parts`` (``_Spec.parts``),
    without building it: its controller node has no capacity tier, its workloads are ``workloads`` (the enabled
    ones it retargets to the array) and its shelves are the internal bays, then each external shelf, full."""
    _hosts, record, inside, shelf, drive, count, _fe, _sites, _switch = parts
    if not workloads:
        return False
    shelves = ([(drive, inside.bays)] if inside is not None else []) + (
        [(drive, shelf.bays)] * count if shelf is not None else [])
    return _drives_certainly_short(record, workloads, shelves, need, sides)


def _drives_certainly_short(record: Controller, workloads: list, shelves: list[tuple[Drive, int]], need: float,
                            sides: dict[tuple, Any]) -> bool:
    """The test of :func:`_capacity_certainly_short` on one controller ``record`` with its enabled ``workloads`` and
    its shelves as (drive, count) in node order."""
    from models.capacity.efficiency import effective_side

    right_sized = 0.0
    for drive, count in shelves:
        right_sized += drive.right_sized_bytes * count
    family = record.family
    key = (family, tuple(id(w) for w in workloads))
    side = sides.get(key)
    if side is None:
        inline = family in ("ONTAP", "generic")  # as models.capacity.engine's controller flags
        side = sides[key] = (effective_side(workloads, 1.0, compression=inline, compaction=family == "ONTAP",
                                            dedupe=inline, platform=family), workloads)
    ratio, physical = side[0].data_reduction_ratio, side[0].physical_used_bytes
    margin = 1.0 + 1e-9
    return (need > 0 and right_sized * ratio * margin < need) or physical > right_sized * margin


CONTROLLER_BOUND_ROLES = frozenset({"cpu", "affinity"})
"""Station roles of a controller node's CPU and WAFL affinities (``models.performance.stations``), which
:func:`_controller_bounds` reads."""


def _controller_bounds(paths: DesignPaths) -> dict[str, float]:
    """Per workload id, the saturation bound (IOPS) of its path's controller-node CPU and affinity stations alone
    (:data:`CONTROLLER_BOUND_ROLES` on a node; ``models.performance.engine.saturation_iops``): no lower than the
    whole path's bound."""
    from models.performance import saturation_iops

    return {p.workload.id: saturation_iops([s for s in p.stations if s.ident.role in CONTROLLER_BOUND_ROLES
                                            and s.ident.node is not None], p.read_fraction)[0]
            for p in paths.paths}


TAKEOVER_BOUND_MARGIN = 1e-9
"""Relative margin by which a takeover bound (:func:`_takeover_bounds`) must fall below a target before a design is
passed over for it (the takeover check's inflation by the other workloads' load is 1 / (1 - u), its u summed to
rounding)."""


def _takeover_bounds(paths: DesignPaths) -> dict[str, float]:
    """Per workload id whose path has a takeover state (``models.performance.states.takeover``: both HA nodes'
    CPUs), the saturation bound (IOPS) of that state's controller-node CPU and affinity stations alone
    (:data:`CONTROLLER_BOUND_ROLES` on a node): no lower than the saturation the takeover verdict compares the
    workload's target with (``models.performance.screening.failover_verdicts``: every station of the state, each
    demand inflated by the other workloads' load, a factor of at least 1), so a target at or above it misses the
    SLO in takeover."""
    from models.performance import saturation_iops
    from models.performance.states import takeover

    out = {}
    for p in paths.paths:
        state = takeover(p)
        if state is not None:
            out[p.workload.id] = saturation_iops([s for s in state.path.stations if s.ident.role in
                                                  CONTROLLER_BOUND_ROLES and s.ident.node is not None],
                                                 state.path.read_fraction)[0]
    return out


_Check = tuple[list[str], float | None, float | None, str, tuple[float, str] | None]
"""(reasons, max IOPS at the SLO of the first workload, smallest headroom %, what bounds that max IOPS in words)
of one design's performance."""


BINDS_WITHIN = 1e-6
"""Relative distance within which a max IOPS at the SLO is the bound it reaches (:func:`exact_bound`)."""


FLOAT_NOISE = 1e-12
"""Relative distance within which a figure is the whole number next to it (floating-point noise: 799999.9999999999),
:func:`exact_bound`; a figure further from it (1,598,371.46) is left as it is."""


def exact_bound(max_iops: float | None, saturation: float | None) -> float | None:
    """The max IOPS at the SLO a row shows (display and ``--json``): the saturation (the bound) where the figure is
    within :data:`BINDS_WITHIN` of it (the solver stops a hair short of the bound: 1,199,999 for a 1,200,000 bound),
    and a figure within :data:`FLOAT_NOISE` of a whole number that number (799999.9999999999: 800,000); else as
    given."""
    if max_iops is None or not math.isfinite(max_iops):
        return max_iops
    value = max_iops
    if saturation is not None and math.isfinite(saturation) and abs(value - saturation) <= BINDS_WITHIN * saturation:
        value = saturation
    whole = round(value)
    return float(whole) if abs(value - whole) <= FLOAT_NOISE * max(abs(value), 1.0) else value


def _performance_check(scenario: Scenario, catalog: Catalog, project: Project, req: Requirements,
                       deployment: str = "on-prem") -> _Check:
    """(reasons, max IOPS at SLO of the first workload, smallest headroom %) of a candidate's performance:
    :func:`_performance_checks` of this one design."""
    return _performance_checks([(scenario, design_paths(scenario, catalog), deployment)], req)[0]


def _performance_checks(designs: Sequence[tuple[Scenario, DesignPaths, str]], req: Requirements,
                        ramps: Sequence[Sequence[tuple[Any, Any]]] | None = None,
                        solved_out: list[DesignCheck] | None = None) -> list[_Check]:
    """(reasons, max IOPS at SLO of the first workload, smallest headroom %) of each design's performance, their
    closed ramps solved together (``models.performance.screening.check_designs``: the figures of
    ``evaluate_performance``, without the curves the check does not read).

    Each workload's grown target is checked against its max IOPS at the SLO (the band's P10 edge when ranking on
    "p90"); the headroom is the smallest of the grown targets' over their saturation. With
    ``meet_slo_in_takeover`` an array or cloud design must have an HA partner whose takeover (failover) state
    meets every SLO; HCI designs answer with their ``n_plus`` spare hosts instead, and a managed service with the
    provider's own high availability (not modelled as a state: the service's limits hold through its failover).

    Args:
        designs: (checked scenario, its paths (``design_paths``), deployment) per design; req: the requirements;
        ramps: per design its paths' closed ramps solved already (``check_designs``' ``ramps``); None: solved here.
        solved_out: a list the designs' ``check_designs`` results are added to, in order (None: not kept).
    """
    solved: list[DesignCheck] = check_designs([paths for _, paths, _ in designs], bands=req.rank_on == "p90",
                                              slo_statistic=req.slo_statistic, ramps=ramps)
    if solved_out is not None:
        solved_out.extend(solved)
    out: list[_Check] = []
    for (scenario, paths, deployment), perf in zip(designs, solved):
        reasons = list(perf.problems)
        headroom = None
        first = None
        bound = perf.workloads[0].bound if perf.workloads else ""
        targets = {w.id: w for w in scenario.workloads}
        for wp in perf.workloads:
            w = targets[wp.workload_id]
            limit = wp.max_iops_at_slo_band_p10 if req.rank_on == "p90" else wp.max_iops_at_slo
            first = first if first is not None else exact_bound(wp.max_iops_at_slo, wp.saturation_iops)
            if wp.target_iops is None:
                continue
            grown = _grown(wp.target_iops, w.iops_growth_pct_per_year, req.horizon_months)
            if not slo_holds(limit, grown):
                reasons.append(f"{wp.name}: SLO missed above {(limit or 0):,.0f} IOPS (needs {grown:,.0f})")
            room = (wp.saturation_iops - grown) / grown * 100.0
            headroom = room if headroom is None else min(headroom, room)
        managed = any(n.kind == "managed_service" for n in scenario.nodes)  # the provider's own HA
        if (req.meet_slo_in_takeover or req.meet_slo_after_site_loss) and not reasons:
            paths = _paths_grown(paths, req.horizon_months)  # the failure states judge the grown targets too
        takeover_room: tuple[float, str] | None = None  # (margin %, the state in words)
        if req.meet_slo_in_takeover and not reasons and deployment != "hci" and not managed:
            partnered = False
            for state, path in zip(failover_verdicts(paths, slo_statistic=req.slo_statistic), paths.paths):
                if state is not None:
                    partnered = True
                    grown_rate = target_rate(path.workload)
                    if grown_rate and state.saturation_iops is not None:  # the margin in takeover, grown target
                        room = (state.saturation_iops - grown_rate) / grown_rate * 100.0
                        word = state.label or ("failover" if state.state == "cloud_failover" else "takeover")
                        if takeover_room is None or room < takeover_room[0]:
                            takeover_room = (room, word)
                    if state.meets_slo is False:
                        what = state.label or ("takeover" if state.state == "takeover" else "failover")
                        reasons.append(failover_miss_words(state.name, what, state.latency_ms, state.saturation_iops,
                                                           grown_rate, path.workload.slo_ms, req.slo_statistic))
            if not partnered and paths.paths:  # no path: no load to carry through a takeover (capacity-only)
                reasons.append("no HA partner: a controller failure stops the service (the SLO in takeover is "
                               "required)")
        if req.meet_slo_after_site_loss and not reasons:  # models.performance.site_loss
            from models.performance.site_loss import site_loss_reasons

            reasons += site_loss_reasons(scenario, paths, req.slo_statistic)
        out.append((reasons, first, headroom, bound, takeover_room if not reasons else None))
    return out


def failover_miss_words(name: str, what: str, latency_ms: float | None, saturation: float | None,
                        grown: float | None, slo_ms: float, statistic: str = "mean") -> str:
    """Why a workload misses its SLO in a failure state (``what``: "takeover", "failover", "controller failover"),
    with the figures: where it saturates in that state against its grown target ("SLO missed in takeover: saturates
    at 1,200,000 IOPS in takeover, against the grown target of 2,197,000"), or its latency there at the grown target
    against the SLO when it does not saturate; the bare words when the state gave no figure."""
    if grown and saturation is not None and (latency_ms is None or saturation <= grown):
        return (f"{name}: SLO missed in {what}: saturates at {saturation:,.0f} IOPS in {what}, against the grown "
                f"target of {grown:,.0f}")
    if grown and latency_ms is not None:
        stat = "p99 " if statistic == "p99" else ""
        return (f"{name}: SLO missed in {what}: {latency_ms:,.2f} ms {stat}at the grown target of {grown:,.0f} IOPS, "
                f"over the {slo_ms:g} ms SLO" + (f" (saturates at {saturation:,.0f} IOPS)" if saturation else ""))
    return f"{name}: {what} misses the SLO"


def _state_words(scenario: Scenario, catalog: Catalog, word: str) -> str:
    """A design's takeover state in its platform's words: an E-Series array's "controller failover" (its two
    controllers are not an ONTAP HA pair: ``models.performance.states.takeover``'s label), else ``word``."""
    if word != "takeover":
        return word
    families = {getattr(catalog.find(n.catalog_id), "family", "") for n in scenario.nodes if n.kind == "controller"}
    return "controller failover" if families == {"E-Series"} else word


def _paths_grown(paths: DesignPaths, months: int) -> DesignPaths:
    """``models.performance.screening.paths_grown``: the targets grown over ``months``, for the takeover, failover
    and site-loss verdicts (the same rule ``storplan evaluate`` judges the SLO in takeover by)."""
    return paths_grown(paths, months)


def _targets_grown(scenario: Scenario, months: int) -> Scenario:
    """``scenario`` with each workload's IOPS (or MB/s) target grown over ``months`` at its IOPS growth
    (:func:`_grown`); ``scenario`` itself when no target grows."""
    changed = []
    for w in scenario.workloads:
        growth = w.iops_growth_pct_per_year
        if growth and months and (w.target_iops or w.target_mbps):
            w = w.model_copy(update={"target_iops": _grown(w.target_iops, growth, months) if w.target_iops else None,
                                     "target_mbps": _grown(w.target_mbps, growth, months) if w.target_mbps else None})
        changed.append(w)
    if all(a is b for a, b in zip(changed, scenario.workloads)):
        return scenario
    return scenario.model_copy(update={"workloads": changed})


def _hci_check(scenario: Scenario, catalog: Catalog, project: Project, req: Requirements,
               spares_out: _Check, whole: tuple[DesignPaths, Sequence[tuple[Any, Any]]] | None = None,
               survivors: Mapping[str, Any] | None = None) -> tuple[_Check, float | None]:
    """(reasons, max IOPS at the SLO of the first workload, smallest headroom %) of an HCI candidate that met the
    requirements with its ``n_plus`` spare hosts taken out (``spares_out``: :func:`_performance_checks` of that
    smaller cluster), and its first workload's max IOPS at the SLO with one host down (None unless N+1). ``whole``:
    the whole cluster's paths (``design_paths`` of ``scenario``) and their closed ramps when solved already (in the
    search's batch ahead, :func:`search`); None: built and solved here (the same figures, float for float).
    ``survivors``: the host failure's surviving disk groups' paths when built already (:func:`_survivors`); None:
    built here (the same figures).

    The figures are those of the whole cluster in normal operation (every host up: ``storplan evaluate``'s
    headline, so a row's max IOPS at the SLO and headroom come from one state), each grown target checked against
    them. With ``n_plus`` = 1 the N+1 verdict is the cluster's host-failure state, the one ``storplan evaluate``
    shows and judges its N+1 check by (one host down, resync load on the others:
    :func:`models.n_plus.host_failure_figures`): each workload's latency at its target, grown over the horizon
    (:func:`_targets_grown`; the target itself without IOPS growth, then the verdict is evaluate's), must be within
    its SLO in that state, the state's own verdict; the figure returned is the state's at the targets, as evaluate
    shows it. A workload without that state (a cluster of fewer than three
    hosts) keeps the smaller cluster's verdict, as the evaluation's N+1 check does; N+2 and more have no such state
    in the evaluation either and keep the smaller cluster's verdict (``spares_out``)."""
    return _hci_checks([(scenario, spares_out, whole, survivors)], catalog, project, req)[0]


def _hci_checks(items: Sequence[tuple[Scenario, _Check, tuple[DesignPaths, Sequence[tuple[Any, Any]]] | None,
                                      Mapping[str, Any] | None]],
                catalog: Catalog, project: Project, req: Requirements,
                whole_checks: dict[int, tuple[Scenario, DesignCheck]] | None = None
                ) -> list[tuple[_Check, float | None]]:
    """:func:`_hci_check` of many HCI candidates ((scenario, spares_out, whole, survivors) each, in the search's
    order), each what :func:`_hci_check` of it alone gives, float for float: their N+1 host-failure states are
    solved together (:func:`models.n_plus.host_failure_figures_many`: each state's closed ramp as alone, the
    open-model searches of them all in one pass). The ramps a check solves go through the engine's ramp cache in the
    order the one-by-one checks solve them: a candidate after the first whose whole cluster's ramps are not given
    (solved here, into the cache) starts a pass of its own. ``whole_checks``: where each candidate's whole cluster's
    ``check_designs`` result is kept (id of its scenario -> (scenario, result); None: not kept)."""
    out: list[tuple[_Check, float | None]] = []
    start = 0
    while start < len(items):
        stop = start + 1
        while stop < len(items) and items[stop][2] is not None:
            stop += 1
        out += _hci_pass(items[start:stop], catalog, project, req, whole_checks)
        start = stop
    return out


def _hci_pass(items: Sequence[tuple[Scenario, _Check, tuple[DesignPaths, Sequence[tuple[Any, Any]]] | None,
                                    Mapping[str, Any] | None]],
              catalog: Catalog, project: Project, req: Requirements,
              whole_checks: dict[int, tuple[Scenario, DesignCheck]] | None = None
              ) -> list[tuple[_Check, float | None]]:
    """:func:`_hci_checks` of candidates whose whole clusters' ramps, but the first's, are given."""
    from models.n_plus import host_failure_figures_many

    normal: list[_Check] = []
    grown_of: list[tuple[Scenario, Scenario]] = []  # (scenario, at its grown targets) per candidate (N+1 only)
    states: list[tuple[Scenario, Sequence[Any] | None, Mapping[str, Any] | None]] = []
    for scenario, spares_out, whole, survivors in items:
        paths, ramps = whole if whole is not None else (design_paths(scenario, catalog), None)
        solved: list[DesignCheck] = []
        reasons, first, headroom, bound, _ = _performance_checks([(scenario, paths, "hci")], req,
                                                                 None if ramps is None else [ramps], solved)[0]
        if whole_checks is not None:
            whole_checks[id(scenario)] = (scenario, solved[0])
        normal.append((list(spares_out[0]) + reasons, first, headroom, bound, None))
        if req.n_plus == 1:
            grown = _targets_grown(scenario, req.horizon_months)
            grown_of.append((scenario, grown))
            states.append((scenario, paths.paths, survivors))
            if grown is not scenario:  # the verdicts at the grown targets, right after (as one by one)
                states.append((grown, None, None))
    figures = iter(host_failure_figures_many(states, catalog, project.settings, req.slo_statistic) if states else ())
    out: list[tuple[_Check, float | None]] = []
    grown_in_turn = iter(grown_of)
    for reasons, first, headroom, bound, _ in normal:
        failed_first = None
        if req.n_plus == 1:
            scenario, grown = next(grown_in_turn)
            figs = next(figures)
            verdicts = figs if grown is scenario else next(figures)
            for w in grown.workloads:
                fig, verdict = figs.get(w.id), verdicts.get(w.id)
                if fig is None or verdict is None or not w.performance_enabled:
                    continue
                failed_first = fig.max_iops_at_slo if failed_first is None else failed_first
                rate = _target_rate(w)
                if rate is not None and verdict.meets_slo is False:
                    reasons.append(f"{w.name}: N+1: with 1 host down (resync running) the SLO at {rate:,.0f} IOPS "
                                   f"is missed (max {(fig.max_iops_at_slo or 0):,.0f} IOPS within it)")
        out.append(((reasons, first, headroom, bound, None), failed_first))
    return out


def _survivors(scenario: Scenario, spares_out: DesignPaths, n_plus: int) -> Mapping[str, Any] | None:
    """The paths of the host failure's surviving disk groups of an HCI candidate (``scenario``, every host in)
    taken from its paths with its spares out (``spares_out``: ``design_paths`` of :func:`_without_spares`), when
    that smaller cluster is the one ``models.performance.resilience._survivor_paths`` builds (``n_plus`` = 1 and
    every vSAN cluster of the scenario one whose host failure reads it: OSA, 3 or more hosts, not stretched, so the
    two scenarios are the same); None otherwise (built where needed)."""
    from models.performance.resilience import survivor_clusters

    shrink = survivor_clusters(scenario)
    if n_plus != 1 or not shrink or any(n.kind == "hci_cluster" and n.id not in shrink for n in scenario.nodes):
        return None
    return {p.workload.id: p for p in spares_out.paths if p.workload.target in shrink}


def _queues_few(design: DesignPaths) -> bool:
    """Whether every closed ramp of ``design`` (one per path) has fewer queueing classes than
    ``models.performance.screening.SUMMED_IN_ORDER_BELOW``: the batched engine (``solve_requests``) gives such a ramp
    the same floats whatever it is solved beside (alone or with any others), so the search may solve it in a later
    batch than the look-ahead would have. A network of more classes alone in its group is solved otherwise than beside
    another of its size (numpy sums it pairwise): its floats depend on the batch. An HCI design's whole cluster has
    the stations of the design with its spares out (``models.performance.paths``' vSAN path: the host count sets
    demands and multiplicities, never which stations there are)."""
    return all(sum(not spec.delay for spec in path.stations) < SUMMED_IN_ORDER_BELOW for path in design.paths)


BATCH = 32
"""Designs screened and checked together, in rank order (their figures read from ramps solved ahead)."""

AHEAD_MAX = 512
"""Most designs' ramps solved in one batch (its per-station arrays: designs x population x stations floats)."""

AHEAD_GROWTH = 2.0
"""Most designs passing the screens a look-ahead gathers per meeting design still wanted (the inverse square root of
the share met so far, at most this): a bound on the designs it may pass that the search never reaches (at 1.5x the
example's IOPS targets, an unbounded estimate passed 1,400 designs the search never reached: 0.57 -> 1.34 s)."""

AHEAD_WALK = 512
"""Most places in the rank order one look-ahead walks past its first design: where designs that pass the screens are
rare, walking the whole order at once before checking any cost more than walking it chunk by chunk (the cloud
example's 1,451 designs: 0.35 s for the search with the walk bounded, 0.38 s unbounded, CPU medians of 5), though
it builds the same designs."""


FRONT_EVALUATIONS = 40
"""Meeting candidates evaluated in full beyond the ``top`` asked for, so the Pareto front (cost or rack units
against headroom) reaches past the cheapest designs."""


def dominates(a: Candidate, b: Candidate) -> bool:
    """Whether ``a`` dominates ``b`` on the ranking's criteria (:meth:`Candidate.criteria`, both of one search):
    no worse on every one and better on at least one."""
    ca, cb = a.criteria(), b.criteria()
    return ca != cb and all(x <= y for x, y in zip(ca, cb, strict=True))


def pareto_front(cands: Sequence[Candidate]) -> set[int]:
    """Indexes of the candidates no other of ``cands`` dominates (:func:`dominates`: the ranking's criteria, so the
    first ranked is always on the front). O(n^2) on the few dozen platform designs a search evaluates."""
    keys = [c.criteria() for c in cands]
    return {i for i, k in enumerate(keys)
            if not any(o != k and all(x <= y for x, y in zip(o, k, strict=True)) for o in keys)}


def tie_key(cand: Candidate) -> tuple:
    """What two designs must share to be tied (one row, :func:`tie_words`): every criterion of the ranking and its
    tie-breaks (:meth:`Candidate.rank_key`) and every figure a row shows (capacity, max IOPS at the SLO to five
    significant figures: two controllers of the same hardware differ by the solver's tolerance, 2,398,927 against
    2,398,924; headroom in takeover, verdict and reasons; the price by the book, partial or not, and the total cost
    over the horizon)."""
    iops = float(f"{cand.max_iops_at_slo:.5g}") if cand.max_iops_at_slo is not None else None  # the solver's noise
    return (cand.rank_key(), cand.usable_bytes, iops, cand.takeover_headroom_pct, cand.meets, cand.reasons, cand.cost,
            len(cand.unpriced), cand.tco)


def fold_ties(rows: Sequence[Candidate]) -> list[Candidate]:
    """``rows`` (ranked: tied ones adjacent) with each run of designs tied on :func:`tie_key` made one row, the
    first (the lowest catalog id: the search's order) with the others as its ``ties``."""
    out: list[Candidate] = []
    keys: list[tuple] = []
    for c in rows:
        key = tie_key(c)
        if out and keys[-1] == key:
            out[-1] = replace(out[-1], ties=(*out[-1].ties, c))
        else:
            out.append(c)
            keys.append(key)
    return out


def _storage_name(cand: Candidate) -> str:
    """A design's storage system by its record's name (the controller, HCI host, cloud VM or service); its summary
    when it has none."""
    labels = (str(getattr(n, "label", "")) for n in cand.scenario.nodes if n.kind not in ("host", "switch", "shelf"))
    return next((label for label in labels if label), cand.summary)


def tie_words(cand: Candidate, short: bool = False) -> str:
    """The row's words for the designs tied with it (``Candidate.ties``); "" when none: "tied on every criterion
    with NetApp ASA A50 HA pair (the same rack units, power, capacity and headroom): either serves these
    requirements equally; the first is listed by catalog and protocol order, not preference"; ``short``: the
    words of a table cell, "or NetApp ASA A50 HA pair, tied on every criterion"."""
    if not cand.ties:
        return ""
    if short:  # a table cell (the PDF's Recommendation): the rule under the table says what a tie is
        return "or " + " or ".join(_storage_name(t) if _storage_name(t) != _storage_name(cand) else t.summary
                                   for t in cand.ties) + ", tied on every criterion"
    named = [_storage_name(c) for c in (cand, *cand.ties)]  # a name said twice (another front end): its summary
    names = " and ".join(t.summary if named.count(name) > 1 else name for t, name in zip(cand.ties, named[1:]))
    return (f"tied on every criterion with {names} (the same rack units, power, capacity and headroom): either "
            "serves these requirements equally; the first is listed by catalog and protocol order, not preference")


ONE_PAIR_NOTE = ("each array design the sizer proposes is one HA pair (an ONTAP cluster of two nodes, or one "
                 "E-Series array with its two controllers): it does not scale out to a cluster of several HA pairs, "
                 "and the nearest arrays hold the capacity but miss the performance; an ONTAP cluster of several "
                 "pairs sharing the workloads may meet it: size each pair for its share (a scenario per pair), or "
                 "check the target")
"""The sizer's note when nothing meets and an array among the nearest holds the capacity needed but misses on
performance: one HA pair per design is why (:func:`search`)."""


_NO_OWN_PROFILE = re.compile(r"no profile of its own for (?P<protocol>[\w/]+)")
"""The profile lookup's words (``models.performance.profiles``) for a record measured on another protocol only."""

ESTIMATED_WORDS = "estimate: no published measurement of this model"
"""A row's words when its performance profile was not fitted to the model's own published measurements."""


BASIS_MEANINGS = {"derived": "derived from a related system's measurements",
                  "hardware relation only": "estimated from its family's calibrated systems",
                  "assumed": "from StorPlan's default parameters, not fitted to any published measurement"}
"""A profile kind that is not the model's own measurements, in the words every view says it in
(``models.present.profile_words.PROFILE_KIND_MEANINGS``, which this layer does not import; a test holds them equal)."""


def performance_basis_words(cand: Candidate, catalog: Catalog) -> str:
    """What the row's performance rests on, in words, "" when it is the model's own published measurements (a
    calibrated profile) or the provider's published limits (a managed service, a vSAN cluster: their own words
    elsewhere): "estimate: no published measurement of this model (estimated from its family's calibrated systems;
    no profile of its own for NVMe/TCP)", from the same lookup the engine runs on (``models.performance.profiles.
    profile_basis``) for the design's first controller or cloud VM and its first workload's protocol."""
    from models.catalog import CloudVm
    from models.performance.profiles import profile_basis
    from models.topology import protocol_of

    scenario = cand.scenario
    node = next((n for n in scenario.nodes if n.kind in ("controller", "cloud_vm")), None)
    if node is None or not scenario.workloads:
        return ""
    record: Controller | CloudVm = (catalog.get(node.catalog_id, Controller) if node.kind == "controller"
                                    else catalog.get(node.catalog_id, CloudVm))
    protocol = protocol_of(scenario, catalog, scenario.workloads[0]) or record.protocols[0]
    basis = profile_basis(record, getattr(node, "software", None), protocol, catalog)
    if basis.kind == "calibrated":
        return ""
    what = [BASIS_MEANINGS.get(basis.kind, basis.kind)]
    if (own := _NO_OWN_PROFILE.search(basis.reason)) is not None:
        what.append(f"no profile of its own for {own['protocol']}")
    return f"{ESTIMATED_WORDS} ({'; '.join(what)})"


def pessimistic_words(check: DesignCheck) -> str:
    """``meets on expected figures; the pessimistic case (P10) reaches 304K IOPS, below the 350K IOPS target``
    where a workload's target is met but its max IOPS at the SLO's P10 edge (``check_designs`` with bands, the
    figure ``storplan evaluate``'s caution reads: ``models.present.verdicts``) is below it; with the P10 missing
    the SLO at every load, says so; "" else (the same rule as the verdicts' caution, figures as printed)."""
    from models.formatting import finite, fmt_iops

    for wp in check.workloads:
        target, p10 = wp.target_iops, wp.max_iops_at_slo_band_p10
        if not (target and finite(target)) or wp.max_iops_at_slo is None or wp.max_iops_at_slo < target:
            continue
        if p10 is not None and finite(p10) and (p10 >= target or fmt_iops(p10) == fmt_iops(target)):
            continue
        reach = (f"reaches {fmt_iops(p10)} IOPS, below the {fmt_iops(target)} IOPS target"
                 if p10 is not None and finite(p10) and p10 > 0 else "misses the SLO at every load")
        return f"meets on expected figures; the pessimistic case (P10) {reach}"
    return ""


def with_basis(result: SizingResult, catalog: Catalog, req: Requirements) -> SizingResult:
    """``result`` with each shown candidate's ``basis`` (:func:`performance_basis_words`, then
    :func:`pessimistic_words` of its design checked with bands: one batch for the few shown; numbers unchanged)."""
    shown = [c for c in result.candidates if c.max_iops_at_slo is not None]
    if not shown:
        return result
    checks = check_designs([design_paths(c.scenario, catalog) for c in shown], bands=True,
                           slo_statistic=req.slo_statistic)
    words = {id(c): "; ".join(w for w in (performance_basis_words(c, catalog), pessimistic_words(k)) if w)
             for c, k in zip(shown, checks)}
    return replace(result, candidates=tuple(replace(c, basis=words.get(id(c), "")) for c in result.candidates))


def basis_note(cands: Sequence[Candidate]) -> str:
    """What the shown rows' performance figures rest on, said once above them ("" when every row's figures are the
    models' own published measurements and every pessimistic case reaches its target: no ``basis``)."""
    said = [c.basis for c in cands if c.basis]
    if not said:
        return ""
    words = []
    if any(ESTIMATED_WORDS in b for b in said):
        words.append("a row marked 'estimate' has no published measurement of that model: its max IOPS comes from "
                     "its family's calibrated systems or a related system's measurements (and controller core "
                     "counts the maker does not publish are assumed), so it is a prediction, not a measured figure")
    if any("pessimistic case (P10)" in b for b in said):
        words.append("'meets on expected figures' means the target is met by the expected prediction while the "
                     "pessimistic end of its uncertainty band (P10) falls below it, as the evaluation of that design "
                     "cautions")
    return "; ".join(words)


def _nearest_heads(ordered: Sequence[Candidate], many: int = 3) -> list[Candidate]:
    """The candidates of ``ordered`` (nearest first) that :func:`fold_nearest` shows, before designs tied on every
    figure are folded into one row: the nearest variant of each platform design, until ``many`` rows are full."""
    seen: set[tuple] = set()
    heads: list[Candidate] = []
    for c in ordered:
        key = platform_key(c)
        if key in seen:
            continue
        seen.add(key)
        heads.append(c)
        if len(fold_ties(heads)) > many:
            break
    return heads


def fold_nearest(ordered: Sequence[Candidate], many: int = 3) -> tuple[Candidate, ...]:
    """The nearest failing designs shown: of ``ordered`` (nearest first, :func:`nearest_key`), the nearest variant
    of each platform design (:func:`platform_key`: the same controller with other drives or shelves is not another
    design), designs tied on every figure one row (:func:`fold_ties`), the first ``many``."""
    return tuple(fold_ties(_nearest_heads(ordered, many))[:many])


def requirement_choices(catalog: Catalog) -> dict[str, list[str]]:
    """The valid values of the requirements' list fields, as the search reads them (see the candidate generators).

    Args:
        catalog: the catalog searched (bundled, the user's and the project's records).

    Returns:
        ``{"families": [...], "protocols": [...], "deployments": [...]}``: families are what a candidate is
        matched on: an array controller's family (ONTAP, E-Series) and vendor; "vSAN" and an HCI node's vendor;
        "CVO" / "Cloud Volumes ONTAP" and a cloud VM's provider and vendor; a managed service's provider, service
        and vendor (sorted). Protocols are :data:`models.project.model.SIZER_PROTOCOLS`; deployments the
        ``Deployment`` values in the search's order.
    """
    from models.catalog import CloudVm, HciNode, ManagedService
    from models.project.model import SIZER_PROTOCOLS

    families: set[str] = set()
    for entry in catalog:
        if isinstance(entry, Controller) and entry.family in ("ONTAP", "E-Series"):
            families |= {entry.family, entry.vendor}
        elif isinstance(entry, HciNode):
            families |= {"vSAN", entry.vendor}
        elif isinstance(entry, CloudVm):
            families |= {"CVO", "Cloud Volumes ONTAP", entry.provider, entry.vendor}
        elif isinstance(entry, ManagedService):
            families |= {entry.provider, entry.service, entry.vendor}
    return {"families": sorted(families, key=str.casefold), "protocols": list(SIZER_PROTOCOLS),
            "deployments": ["on-prem", "hci", "cloud"]}


def platform_key(cand: Candidate) -> tuple:
    """What a candidate is apart from its drives or disks; designs with the same key are shown as one row with the
    others as alternatives (:func:`_variant` says what tells them apart):

    - an array: its controller and its front-end links (type) and deployment (the variants differ in drive model
      and in the shelves added to the controller: more drives or shelves on the same controller are a larger
      size of the same design, not another one; the front-end ports a shelf-added layout leaves are part of it);
    - an HCI cluster: its host record, host count, storage policy and vSAN architecture (the variants differ in
      disk groups and capacity drives per host);
    - a Cloud Volumes ONTAP system: its VM record, single node or HA pair and licence (the variants differ in data
      disk type and count);
    - a managed file service: its service record (the variants differ in provisioned capacity and throughput
      capacity: a larger tier that meets is a larger size of the same service, not another design).

    Any other design is never grouped: its summary is its key."""
    if cand.deployment == "on-prem":
        nodes = tuple((n.kind, n.catalog_id) for n in cand.scenario.nodes if n.kind not in ("host", "switch", "shelf"))
        shelves = {n.id for n in cand.scenario.nodes if n.kind == "shelf"}
        links = tuple((ln.source, ln.target, ln.link_type) for ln in cand.scenario.links if ln.target not in shelves)
        return cand.deployment, nodes, links
    from models.project.model import CloudVmNode, HciClusterNode, ManagedServiceNode

    storage = [n for n in cand.scenario.nodes if n.kind not in ("host", "switch")]
    only = storage[0] if len(storage) == 1 else None
    if isinstance(only, HciClusterNode):
        return cand.deployment, only.kind, only.catalog_id, only.hosts, only.policy, only.architecture
    if isinstance(only, CloudVmNode):
        return cand.deployment, only.kind, only.catalog_id, only.ha, only.licence
    if isinstance(only, ManagedServiceNode):
        return cand.deployment, only.kind, only.catalog_id
    return (cand.deployment, cand.summary)


def _variant(scenario: Scenario, catalog: Catalog) -> str:
    """What tells a design from the others of its platform (:func:`platform_key`), in words: an array's drives
    ("24 x NetApp 3.8TB NVMe SSD (TLC)"; with external shelves, its drives and shelves as its summary gives them,
    "24 x ... in the chassis + 1 x NetApp NS224 (24 x NVMe) with 24 x ...": :func:`_shelved_words`), an HCI
    host's capacity drives ("2 disk group(s) of 4 capacity drives per host", "12 NVMe devices per host" for vSAN
    ESA), a cloud system's data disks ("12 x Premium SSD P30"; "4 x Premium SSD P30 per node (8 disks)" for an HA
    pair), a managed service's size ("3 TiB provisioned, 768 MB/s throughput capacity"); "" for other designs."""
    counts: dict[str, int] = {}
    for node in scenario.nodes:
        if node.kind == "shelf" and node.drive:
            counts[node.drive] = counts.get(node.drive, 0) + node.drive_count
        elif node.kind == "cloud_vm" and node.disk:
            record = catalog.find(node.disk)
            return cloud_disks_words(node.disk_count, record.name if record is not None else node.disk, node.ha)
        elif node.kind == "managed_service":
            size = f"{node.provisioned_bytes / 2**40:,.0f} TiB provisioned"
            return size + (f", {node.throughput_mbps:,.0f} MB/s throughput capacity" if node.throughput_mbps else "")
        elif node.kind == "hci_cluster":
            per_host = node.disk_groups_per_host * node.capacity_drives_per_group
            return (f"{per_host} NVMe devices per host" if node.architecture == "esa" else
                    f"{node.disk_groups_per_host} disk group{'s' * (node.disk_groups_per_host != 1)} of "
                    f"{node.capacity_drives_per_group} capacity drives per host")
    shelved = _shelved_words(scenario, catalog)
    if shelved:
        return shelved
    names = []
    for drive, n in counts.items():
        record = catalog.find(drive)
        names.append(f"{n} x {record.name if record is not None else drive}")
    return ", ".join(names)


def _shelved_words(scenario: Scenario, catalog: Catalog) -> str:
    """An array design's drives and shelves in the words of its summary (``models.catalog.describe.storage_summary``
    without the controller's name) when it has an external shelf; "" otherwise (or when a record is missing)."""
    shelves = [n for n in scenario.nodes if n.kind == "shelf"]
    ctl = next((n for n in scenario.nodes if isinstance(n, ControllerNode)), None)
    records = {n.catalog_id: r for n in shelves if isinstance(r := catalog.find(n.catalog_id), Shelf)}
    if ctl is None or len(records) < len({n.catalog_id for n in shelves}):
        return ""
    external = [n for n in shelves if not records[n.catalog_id].internal]
    inside = next((records[n.catalog_id] for n in shelves if records[n.catalog_id].internal), None)
    record, drive = catalog.find(ctl.catalog_id), catalog.find(shelves[0].drive) if shelves else None
    if not external or not isinstance(record, Controller) or not isinstance(drive, Drive):
        return ""
    switch = catalog.find(ctl.storage_switch) if getattr(ctl, "storage_switch", "") else None
    words = storage_summary(record, inside, records[external[0].catalog_id], drive, len(external),
                            switch if isinstance(switch, Switch) else None)
    return words.removeprefix(f"{record.name}, ")


NO_LOAD_NOTE = ("no workload has a load to evaluate (each is capacity-only: its source gave no performance data): "
                "sized on capacity and the other stated requirements alone; apply a preset's profile to a workload "
                "to size on performance too")
"""The sizer's note when no enabled workload carries I/O (``Workload.performance_enabled``)."""
UNKNOWN_CAPACITY_NOTE = ("capacity unknown: the project states no effective capacity and its workloads store no "
                         "data, so no design is ranked on capacity (the smallest may hold far too little); state "
                         "the effective capacity needed before relying on this ranking")
"""The sizer's note when the capacity needed is 0 (nothing stated, no data set: an ONTAP counter import)."""


def capacity_only_notes(scenario: Scenario, need: float) -> list[str]:
    """The sizer's notes on what it cannot size on: :data:`NO_LOAD_NOTE` when some workload is enabled and none has
    I/O to evaluate, :data:`UNKNOWN_CAPACITY_NOTE` when the capacity needed (``need``, bytes) is 0."""
    notes = []
    enabled = [w for w in scenario.workloads if w.enabled]
    if enabled and not any(w.performance_enabled for w in enabled):
        notes.append(NO_LOAD_NOTE)
    if need <= 0:
        notes.append(UNKNOWN_CAPACITY_NOTE)
    return notes


ABSURD_NOTE_FACTOR = 1.0
"""A target is called out of reach when it is above the best any considered design reaches (times this)."""


def _reach_notes(req: Requirements, need: float, capacities: dict, peaks: dict[str, float], capped: bool,
                 base: Scenario, screened_some: bool = False) -> list[str]:
    """Notes for targets no considered design can reach: an effective capacity above the largest design's, and a
    workload's grown IOPS target above the highest saturation bound of any design screened (the most it could do
    at any latency). Says "of the designs considered" when ``max_candidates`` cut the search. ``screened_some``:
    some designs were never screened for performance (short of capacity or over a stated limit first), so the
    fastest is only that of the designs that hold the capacity needed within the limits, and the note says so
    (review 56: "beyond every design in the catalog" was said of an IOPS target an EF600 too small for the
    capacity meets six times over)."""
    notes = []
    scope = "of the designs considered" if capped else "in the catalog"
    limited = bool(req.max_rack_units or req.max_power_w or req.budget)
    fast_scope = (f"{'considered ' if capped else ''}that holds the capacity needed"
                  + (" within the stated limits" if limited else "")) if screened_some else scope
    fastest = "the fastest of them" if screened_some else "the fastest"
    check = ("check the target and the capacity needed (the nearest designs below may hold less)"
             if screened_some else "check the target")
    largest = max((c.effective_bytes for c in capacities.values()), default=0.0)
    if capacities and need > largest * ABSURD_NOTE_FACTOR:
        notes.append(f"the effective capacity needed, {need / TIB:,.1f} TiB, is beyond every design {scope}: the "
                     f"largest provides {largest / TIB:,.1f} TiB")
    for w in base.workloads:
        if not w.performance_enabled or w.name not in peaks:
            continue
        rate = w.target_iops or (w.target_mbps * 1e6 / (w.block_kib * 1024) if w.target_mbps else None)
        if not rate:
            continue
        grown = _grown(rate, w.iops_growth_pct_per_year, req.horizon_months)
        if grown > peaks[w.name] * ABSURD_NOTE_FACTOR:
            notes.append(f"{w.name}: the target of {grown:,.0f} IOPS is beyond every design {fast_scope}: "
                         f"{fastest} saturates at {peaks[w.name]:,.0f} IOPS; {check}")
    return notes


SHORTFALL_DIGITS = 3
"""Decimals of the shortfall fraction :func:`nearest_key` compares: designs short by the same to 0.1 % of the need
(the same controller bound, more shelves) are equally near, and the ranking rule orders them."""


def shortfall(cand: Candidate, need: float, first_target: float | None) -> float:
    """How far a failing design is from meeting, as a fraction of what is needed (0: not short): the larger of its
    effective capacity's shortfall against ``need`` (bytes) and its first workload's max IOPS at the SLO's against
    that workload's grown target (``first_target``, IOPS; None: no target). A design the saturation screen ruled
    out (no max IOPS at the SLO evaluated) counts its grown targets' shortfall below its saturation bound, from its
    headroom (negative): 1 − saturation / grown target; one whose IOPS were not evaluated at all counts none (its
    capacity already fails)."""
    short = max(0.0, 1.0 - cand.effective_bytes / need) if need > 0 else 0.0
    if first_target and cand.max_iops_at_slo is not None:
        short = max(short, 1.0 - cand.max_iops_at_slo / first_target)
    elif cand.headroom_pct is not None and cand.headroom_pct < 0:  # ruled out by its saturation bound alone
        short = max(short, min(1.0, -cand.headroom_pct / 100.0))  # 1 − saturation / grown target
    return short


def nearest_key(cand: Candidate, need: float, first_target: float | None) -> tuple:
    """Sort key of the failing designs shown as "the nearest": the smallest shortfall first (:func:`shortfall`,
    to :data:`SHORTFALL_DIGITS` decimals), then the fewest requirements missed, then the ranking rule
    (:meth:`Candidate.rank_key`: of designs equally short, the smallest and least power first, not the largest)."""
    return (round(shortfall(cand, need, first_target), SHORTFALL_DIGITS), len(cand.reasons), *cand.rank_key())


def takeover_assumed(cand: Candidate, req: Requirements) -> str:
    """What a candidate's "why" says of the SLO in takeover when it is required and the design is a managed service:
    not modelled, the provider's high availability taken as meeting it (``models.verdict.PROVIDER_HA_WORDS``, the
    words of ``storplan evaluate``'s check; :func:`_performance_checks` passes it so); "" otherwise (review 56: it
    was skipped without a word)."""
    if not req.meet_slo_in_takeover or not any(n.kind == "managed_service" for n in cand.scenario.nodes):
        return ""
    from models.verdict import PROVIDER_HA_WORDS

    return f"SLO in takeover (required): {PROVIDER_HA_WORDS}"


def in_controller_notes(cands: Sequence[Candidate], catalog: Catalog, book: Sequence[Any]) -> list[str]:
    """The note that the controller's internal drive bays of the designs shown (``cands``) are priced with the
    controller (``models.pricing.IN_CONTROLLER_PRICE``: no price list sells them apart, review 56), naming them;
    none when no design shown has such bays the price ``book`` leaves to the controller."""
    from models.pricing import IN_CONTROLLER_PRICE, cost, unpriced_names

    bays: set[str] = set()
    for c in cands:
        costing = cost(c.scenario, catalog, list(book)) if c.deployment == "on-prem" else None
        bays.update(costing.in_controller if costing is not None else ())
    if not bays:
        return []
    names = ", ".join(unpriced_names(catalog, sorted(bays)))
    return [f"a controller's internal drive bays ({names}) come with its chassis: their cost is {IN_CONTROLLER_PRICE} "
            "(no price list sells them apart), 0 in the cost shown"]


NEAREST_SHOWN = 3
"""How many failing designs are shown as "the nearest" when none meets."""


def nearest_designs(checked: Sequence[Candidate], unchecked: Sequence[tuple[Candidate, Scenario]],
                    key: Callable[[Candidate], tuple],
                    check: Callable[[Sequence[tuple[Candidate, Scenario]]], list[Candidate]]
                    ) -> tuple[Candidate, ...]:
    """The failing designs nearest to meeting as shown (:func:`fold_nearest`: :data:`NEAREST_SHOWN` rows, one per
    platform design, ties one row; ``key``: :func:`nearest_key`), from the designs whose performance was checked
    (``checked``) and those that failed before it, short of capacity or over a limit (``unchecked``: (candidate, its
    checked scenario)), alike: a design short only of capacity may be the least short (review 56: an EF600 with SSDs
    3.9% short of 1,000 TiB is nearer than an array of NL-SAS drives with 90% fewer IOPS than the target). An
    unchecked design's shortfall counts its capacity alone, a lower bound of its own, so while one comes among the
    rows shown, the nearest unchecked designs are checked for performance (``check``: the candidates with their
    performance figures and reasons added, one batch; the batch doubles each round, from :data:`NEAREST_SHOWN`, so a
    search whose every design misses its IOPS by far takes a few batched rounds, not one round per design) and the
    designs are sorted again, until the rows shown are all checked. A design's true shortfall is never below its
    lower bound, so checking more designs than the rows need changes no row."""
    pool = [*checked, *(c for c, _ in unchecked)]
    waiting = {id(c): scenario for c, scenario in unchecked}
    keys = {id(c): key(c) for c in pool}  # each design's key once (the sort compares them many times)
    batch = NEAREST_SHOWN
    while True:
        pool.sort(key=lambda c: keys[id(c)])
        if not any(id(c) in waiting for c in _nearest_heads(pool, NEAREST_SHOWN)):
            return fold_nearest(pool, NEAREST_SHOWN)
        late = [c for c in pool if id(c) in waiting][:batch]
        done = check([(c, waiting.pop(id(c))) for c in late])
        for new in done:
            keys[id(new)] = key(new)
        now = {id(old): new for old, new in zip(late, done, strict=True)}
        pool = [now.get(id(c), c) for c in pool]
        batch *= 2


_WORKLOAD_PROTOCOLS = {True: "file (NAS) workloads, which the sizer carries over NFS",
                       False: "block workloads, which the sizer carries over FCP, NVMe/FC, NVMe/TCP or iSCSI"}


def empty_search_notes(base: Scenario, catalog: Catalog, req: Requirements) -> list[str]:
    """Why a search considered no design at all: each requirement filter (allowed protocols, families, deployments,
    the SLO after losing a site) that, left out alone, lets some design through, in words; a sentence on the
    filters together when none does alone."""
    relaxed: list[tuple[str, dict[str, Any]]] = [("protocols", {"protocols": []}), ("families", {"families": []}),
               ("deployments", {"deployments": ["on-prem", "hci", "cloud"]}),
               ("site loss", {"meet_slo_after_site_loss": False})]
    nas = any(w.nas is not None for w in base.workloads if w.enabled)
    out = []
    for what, change in relaxed:
        loose = req.with_changes(**change)
        if loose == req or next(iter(_specs(base, catalog, loose)), None) is None:
            continue
        if what == "protocols":
            out.append(f"no design was considered: the allowed protocols ({', '.join(req.protocols)}) remove every "
                       f"one (these are {_WORKLOAD_PROTOCOLS[nas]}); allow one of those protocols")
        elif what == "families":
            out.append(f"no design was considered: the allowed families ({', '.join(req.families)}) remove every "
                       "one for these workloads and protocols")
        elif what == "deployments":
            out.append(f"no design was considered: the allowed deployments ({', '.join(req.deployments)}) have none "
                       "for these workloads, families and protocols")
        else:
            out.append("no design was considered: the SLO after losing a site needs designs over two sites, and "
                       "none of the allowed families, protocols and deployments spans two")
    if not out:
        out.append("no design was considered: no catalog design passes the allowed deployments, families and "
                   "protocols together")
    return out


def size(project: Project, top: int = 5, catalog: Catalog | None = None,
         progress: Callable[[float], None] | None = None,
         cancelled: Callable[[], bool] | None = None) -> SizingResult:
    """:func:`search` with the cyclic garbage collector paused (and restored after, whatever happens): the search
    makes a spec and an order for every design, objects without cycles that live until it ends, and with the
    collector on, every full collection during the search walks them all (a search over 111,009 designs: 3.2 ->
    1.2 s, medians of 3). Arguments, result and errors are :func:`search`'s."""
    with collector_paused():
        result = search(project, top, catalog, progress, cancelled)
    result = with_basis(result, resolved_catalog(project, catalog), project.requirements)
    if project.scenario.replications:  # each relationship's far end and link (models.replication.sizing)
        from models.design import resolve
        from models.replication.sizing import carry_relationships, propose_destinations, with_proposals
        from models.replication.source_check import replication_load_checked

        design = resolve(project, None, catalog)
        destinations = propose_destinations(design.scenario, design.catalog, project.requirements.horizon_months,
                                            _array_specs, project.settings.capacity_unit)

        def carried(c: Candidate) -> Candidate:
            """The candidate with the relationships carried over and the proposals applied (the resized
            destination, the schedule and link proposed): the design judged is the design handed over."""
            return replace(c, scenario=with_proposals(carry_relationships(project.scenario, c.scenario),
                                                      destinations),
                           alternatives=tuple(carried(a) for a in c.alternatives),
                           ties=tuple(carried(t) for t in c.ties))

        result = replace(result, candidates=tuple(carried(c) for c in result.candidates),
                         nearest=tuple(carried(c) for c in result.nearest), destinations=destinations)
        result = replication_load_checked(result, design.catalog, project)
        asked = top  # candidates dropped for their replication: search deeper (twice at most) to offer ``top``
        while len(result.candidates) < top and asked < 4 * top and len(result.candidates) < result.considered:
            asked *= 2
            with collector_paused():
                more = search(project, asked, catalog, None, cancelled)
            more = replace(more, candidates=tuple(carried(c) for c in more.candidates),
                           nearest=tuple(carried(c) for c in more.nearest), destinations=result.destinations)
            more = replication_load_checked(more, design.catalog, project)
            result = replace(more, candidates=more.candidates[:top])
    return result


def search(project: Project, top: int = 5, catalog: Catalog | None = None,
           progress: Callable[[float], None] | None = None,
           cancelled: Callable[[], bool] | None = None) -> SizingResult:
    """Search the catalog for designs that meet ``project.requirements`` for its active scenario's workloads.

    Every design is first checked against the limits and the budget and ordered (no engine yet): with a price
    book by completeness of its price, cost, rack units and power; without one by the user's order of
    ``requirements.deployments``, then rack units, power and (cloud) vCPUs (its ``order``), and within an equal
    order the smaller design first (drives, disk bytes, a service's size: its ``fit``). In that order each design's
    capacity is evaluated (designs that differ only in protocol or links share it, and arrays that differ only in
    a controller of alike capacity rules: :func:`_capacity_key`), those with enough are screened
    by their saturation bound and evaluated in full, until ``top`` distinct platform designs meet,
    :data:`FRONT_EVALUATIONS` more have been evaluated and the next design's order is past the ``top``-th shown one's
    (a design of an equal order might rank before it on headroom): designs after that point are never evaluated
    (their capacity included), which changes nothing since they rank after every one shown. Meeting designs that
    differ only in their drives, disks or service size (:func:`platform_key`) are one candidate, its smallest
    variant that meets (:meth:`Candidate.variant_key`) with the others as its ``alternatives``; the candidates rank
    by :meth:`Candidate.rank_key` (their order, then the most headroom: :func:`ranking_rule` in words) and the
    Pareto front is taken among them on the same criteria (:func:`pareto_front`), so the first is always on it.
    When none meets, every design has been evaluated and the nearest are the best failing ones, and a target
    beyond every design (an effective capacity above the largest, a grown IOPS target above the highest saturation
    bound) is named in the notes.

    Args:
        project: the project (its requirements, price book, active scenario, settings); top: how many meeting
        candidates to return; catalog: the base catalog (default: bundled plus the user's, plus the project's);
        progress: called with the fraction done (0..1) now and then; cancelled: polled now and then, True stops
        the search early (the partial result is returned; the GUI drops it).

    Returns:
        A :class:`SizingResult`: up to ``top`` meeting candidates ranked, or none and the nearest failing ones with
        their reasons, plus every evaluated meeting candidate with the Pareto front marked (on the candidates, each
        platform design's shown variant; never on an alternative).
    """
    from models.costing.inputs import running_inputs
    from models.costing.tco import PublishedCloudPrices, data_by_month, demand_by_month
    from models.pricing import cost as price_of
    from models.pricing import unpriced_names

    req = project.requirements
    catalog = resolved_catalog(project, catalog)
    base = project.scenario
    need = needed_effective_bytes(base, req)
    book = project.price_book
    notes = [n for n in [front_end_switch_note(base, catalog), fabric_speed_note(base, catalog)]
             if n and "on-prem" in req.deployments]
    if req.budget and not book:
        notes.append("budget not applied: the project has no price book (File > Import Price Book)")
    unknown = [f for f in req.families if f not in requirement_choices(catalog)["families"]]
    if unknown:
        notes.append(f"{', '.join(repr(f) for f in unknown)} names no family or vendor in the catalog, so it "
                     f"matches no design")
    if site_fields(base, req) and not req.meet_slo_after_site_loss:
        notes.append(METROCLUSTER_ONLY_NOTE)
    unsold_words = out_of_sale_names(catalog, req.deployments)
    if unsold_words:
        notes.append(OUT_OF_SALE_NOTE.format(names=unsold_words))
    notes += capacity_only_notes(base, need)
    tco_basis = _TcoBasis(project, catalog) if req.rank_on == "tco" else None
    if tco_basis is not None and not book:
        notes.append("ranked on total cost without a price book: on-premises hardware is not priced, so their total "
                     "counts power, space and nothing else (File > Import Price Book)")
    prices_of: list[PublishedCloudPrices] = []

    def cloud_prices() -> PublishedCloudPrices:
        """The cloud designs' totals at the published prices (``models.costing.tco.published_cloud_total``) of the
        data month by month (``models.costing.tco.data_by_month``), each part priced once for the whole search."""
        if not prices_of:
            horizon = running_inputs(req.running_costs, req.horizon_months).horizon_months
            prices_of.append(PublishedCloudPrices(catalog, data_by_month(base, req, horizon),
                                                  demand_by_month(base, horizon)))
        return prices_of[0]

    failing: list[tuple[Candidate, Scenario]] = []
    designs = list(islice(_specs(base, catalog, req), req.max_candidates + 1))  # unbuilt: cheap
    capped = len(designs) > req.max_candidates
    del designs[req.max_candidates:]
    considered = 0
    # 1. every design's limits, cost and rank order (cheap: no engine); the order does not depend on capacity
    pending = []
    deployment_rank: dict[str, int] = {}
    for i, d in enumerate(req.deployments):
        deployment_rank.setdefault(d, i)  # as req.deployments.index(d)
    for design in designs:
        if considered % 64 == 0:
            if cancelled is not None and cancelled():
                break
            if progress is not None:
                progress(0.2 * considered / max(len(designs), 1))
        considered += 1
        ru, power = design.ru, design.power
        limits = []
        if req.max_rack_units and ru > req.max_rack_units:
            limits.append(f"{ru} rack units over the limit of {req.max_rack_units}")
        if req.max_power_w and power is not None and power > req.max_power_w:
            limits.append(f"{power:,.0f} W over the limit of {req.max_power_w:,.0f} W")
        elif req.max_power_w and power is None:  # an unknown figure never satisfies a limit
            limits.append(f"power unknown against the limit of {req.max_power_w:,.0f} W (the catalog gives none)")
        costing = price_of(design.scenario, catalog, book) if book else None  # a price needs the design built
        if costing is not None and req.budget:
            if costing.total > req.budget:
                limits.append(f"costs {costing.total:,.0f} {costing.currency}, over the budget of "
                              f"{req.budget:,.0f}")
            elif costing.unpriced:
                limits.append(f"cost unknown against the budget: the price book has no price for "
                              f"{', '.join(unpriced_names(catalog, costing.unpriced))}")
        elif req.budget and costing is None:  # an unknown figure never satisfies a limit
            limits.append(f"cost unknown against the budget of {req.budget:,.0f}: no price book is loaded")
        watts = power if power is not None else math.inf
        order: tuple
        fit: tuple = ()
        cloud = design.deployment == "cloud"
        listed = 0.0
        if tco_basis is not None:  # a partial price is never compared: an unpriced item ranks it after, as unpriced
            complete = costing is not None and not costing.unpriced
            order = ((False, tco_basis.total(design, power, costing), 0.0, ru, watts, design.cores) if complete
                     else (True, math.inf, tco_basis.total(design, power, None), ru, watts, design.cores))
        elif costing is not None:  # a partial price is never compared: an unpriced item ranks it after, by footprint
            complete = not costing.unpriced
            listed = (0.0 if complete or not cloud
                      else cloud_prices().total(design.priced_nodes()))
            order = (not complete, costing.total if complete else 0.0, ru, watts, listed, design.cores)
            fit = () if complete else design.size[1:] if cloud else design.size
        else:  # a cloud design's total at the published prices, then its vCPUs; its disks and size order variants
            listed = cloud_prices().total(design.priced_nodes()) if cloud else 0.0
            order = (deployment_rank[design.deployment], ru, watts, listed, design.size[0] if cloud else design.cores)
            fit = design.size[1:] if cloud else design.size
        pending.append((order, fit, design, limits, costing, listed))
    pending.sort(key=itemgetter(0, 1))  # (order, fit)
    capacities: dict[tuple, CapacityTotals] = {}  # designs that differ only in protocol or links share their capacity
    layouts: dict[tuple, Mapping[str, RaidLayout] | None] = {}  # ... and their RAID layouts
    storage_keys: dict[int, tuple] = {}  # id of a design's checked scenario -> its storage key, computed once
    alike_capacities: dict[tuple, CapacityTotals] = {}  # ... and arrays whose controllers' capacity rules are alike
    alike_layouts: dict[tuple, tuple[Any, Scenario]] = {}  # ... with the layouts of the array that computed it
    alike_of: dict[tuple, tuple] = {}  # storage key of an array whose capacity was an alike one's -> that capacity key
    capacity_signatures: dict[str, Any] = {}  # a controller's capacity signature, by id
    signatures: dict[str, str] = {}  # a drive's performance signature, by id
    memo = _NodeJsonMemo()  # each shared node's JSON text, for the three keys of an array design

    def screened_by_capacity(entry: tuple[Any, ...]) -> tuple[Candidate, Scenario]:
        """(candidate, checked scenario) of one design with its capacity evaluated: capacity, then the limits."""
        order, fit, spec, limits, costing, listed = entry
        scenario, summary, ru, power, deployment = spec.scenario, spec.summary, spec.ru, spec.power, spec.deployment
        checked = _without_spares(scenario, req.n_plus) if deployment == "hci" else scenario
        dumps = memo if deployment == "on-prem" else None
        key = storage_keys[id(checked)] = _storage_key(checked, dumps)  # ``checked`` lives on in ``reached``
        cap = capacities.get(key)
        if cap is None:
            alike = _capacity_key(checked, catalog, capacity_signatures, memo) if deployment == "on-prem" else key
            cap = alike_capacities.get(alike)
            if cap is None:
                # an array's or cluster's RAID layouts, shared with its paths (a cloud design's capacity reads none)
                raid = layouts[key] = raid_layouts(checked, catalog) if deployment != "cloud" else None
                cap = alike_capacities[alike] = evaluate_capacity(checked, catalog, raid).total
                if deployment == "on-prem":
                    alike_layouts[alike] = (raid, checked)
            elif deployment == "on-prem":
                alike_of[key] = alike
            capacities[key] = cap
        reasons = capacity_reasons(cap, need, req.horizon_months)
        cand = Candidate(summary, False, tuple(reasons + limits), cap.usable_bytes, cap.effective_bytes, None, None,
                         ru, power, costing.total if costing is not None else None, scenario, deployment,
                         costing.unpriced if costing is not None else (), False, order, fit=fit,
                         listed_cost=listed if listed else None)
        return cand, checked

    # 2. in rank order: capacity (only as far as the search goes), the saturation screen, then the batched engine,
    # until enough designs meet
    meeting: list[Candidate] = []
    checked_failures: list[Candidate] = []
    checks: dict[tuple, _Check] = {}  # designs that differ only in drive capacity share their performance check
    screened: dict[tuple, list[str]] = {}  # ... and their saturation screen
    screened_room: dict[tuple, float | None] = {}  # ... and its headroom over the grown targets (saturation bound)
    peaks: dict[str, float] = {}  # the highest saturation bound screened, per workload (for the reach notes)
    platforms: set[tuple] = set()  # the platform designs among the meeting ones (drive variants grouped)

    meeting_keys: list[tuple] = []  # the platform key of each meeting design, in step with ``meeting``
    cut: list[Any] = [-1, ()]  # (meeting designs when computed, the order of the ``top``-th platform design shown)

    def tail() -> bool:
        """Past the designs the search needs but for those that may still rank before the ``top``-th platform
        design on headroom (:func:`enough`)."""
        return len(meeting) >= top + FRONT_EVALUATIONS and len(platforms) >= top

    def enough(upcoming: tuple | None) -> bool:
        """Enough meeting designs: ``top`` distinct platform designs and FRONT_EVALUATIONS more for the front, and
        the next design to check (its ``order``: ``upcoming``; None: none is left) ranks after the ``top``-th
        platform design shown, whatever its headroom (an equal order might still rank before it on headroom:
        :meth:`Candidate.rank_key`)."""
        if not tail():
            return False
        if upcoming is None:
            return True
        if cut[0] != len(meeting):  # each platform design's shown variant, ranked: the ``top``-th's order
            shown: dict[tuple, Candidate] = {}
            for key, c in zip(meeting_keys, meeting, strict=True):
                if key not in shown or c.variant_key() < shown[key].variant_key():
                    shown[key] = c
            rows = fold_ties(sorted(shown.values(), key=Candidate.rank_key))  # tied designs are one row
            cut[:] = [len(meeting), rows[top - 1].order if len(rows) >= top else None]
        return cut[1] is not None and bool(upcoming > cut[1])

    deferred: list[tuple[int, Candidate, Scenario, tuple]] = []  # (place among the failures, design) not yet checked
    built: dict[tuple, DesignPaths] = {}  # performance key -> the design's paths, built once for every stage

    def paths_for(pkey: tuple, checked: Scenario) -> DesignPaths:
        """The paths of the design of ``pkey`` (``checked``), built on first use and shared by the saturation
        screen, the HA-partner test and the check."""
        got = built.get(pkey)
        if got is None:
            key = storage_keys.get(id(checked))
            key = _storage_key(checked, memo if pkey[0] == "on-prem" else None) if key is None else key
            if key not in layouts and pkey[0] != "cloud":  # its capacity was an alike array's: so are its layouts
                alike = alike_of.get(key)
                layouts[key] = (raid_layouts(checked, catalog) if alike is None or alike not in alike_layouts
                                else _alike_layouts(*alike_layouts[alike], checked, catalog))
            got = built[pkey] = design_paths(checked, catalog, layouts.get(key))
            if pkey[0] == "on-prem":  # its controller's bound per workload, for the designs of its controller side
                side = controller_side(checked)
                controller_bounds.setdefault(side, _controller_bounds(got))
                if req.meet_slo_in_takeover and side not in takeover_bounds:  # ... and its takeover state's
                    takeover_bounds[side] = _takeover_bounds(got)
        return got

    partnerless: dict[tuple, bool] = {}  # performance key -> cannot meet for want of an HA partner
    reached: dict[int, tuple[Candidate, Scenario]] = {}  # place in the rank order -> its capacity screen, once
    pkeys: dict[int, tuple] = {}  # place in the rank order -> its performance key, once

    def at(place: int) -> tuple[Candidate, Scenario]:
        """:func:`screened_by_capacity` of the design at ``place`` in the rank order, computed once (the
        look-ahead of :func:`solve_ahead` and the check in order share it)."""
        got = reached.get(place)
        if got is None:
            got = reached[place] = screened_by_capacity(pending[place])
        return got

    def key_at(place: int) -> tuple:
        """The performance key of the design at ``place`` (its capacity screened), computed once."""
        got = pkeys.get(place)
        if got is None:
            cand, checked = at(place)
            got = pkeys[place] = _performance_key(checked, catalog, cand.deployment, signatures,
                                                  memo if cand.deployment == "on-prem" else None)
        return got

    def screen(pkey: tuple, checked: Scenario) -> list[str]:
        """The saturation screen of the design of ``pkey``, once per key."""
        short = screened.get(pkey)
        if short is None:
            rooms: list[float] = []
            short = screened[pkey] = _saturation_screen(checked, catalog, req, peaks, paths_for(pkey, checked), rooms)
            screened_room[pkey] = min(rooms) if rooms else None
        return short

    def partner_missing(pkey: tuple, checked: Scenario, deployment: str) -> bool:
        """Whether the design of ``pkey`` cannot meet for want of an HA partner, once per key."""
        if pkey not in partnerless:
            partnerless[pkey] = _cannot_meet_without_partner(checked, catalog, req, deployment,
                                                             paths_for(pkey, checked))
        return partnerless[pkey]

    ramps: dict[tuple, list] = {}  # performance key -> its paths' closed ramps, solved ahead in a large batch
    performed: dict[tuple, _Check] = {}  # performance key -> its batched check, kept from one walk to the next
    host_down: dict[tuple, float | None] = {}  # performance key -> an HCI design's max IOPS at the SLO, one host down
    wholes: dict[tuple, Scenario] = {}  # performance key -> an HCI design's whole cluster (its N+1 check's, below)
    whole_ramps: dict[tuple, tuple[DesignPaths, list]] = {}  # ... its paths and closed ramps, solved ahead
    whole_paths: dict[int, tuple[Scenario, DesignPaths]] = {}  # id of a whole cluster -> it and its paths, kept
    lazy = [False]  # this walk passes over the designs that certainly cannot meet (:func:`passed_over`)
    grown_targets = {w.id: _grown(rate, w.iops_growth_pct_per_year, req.horizon_months)
                     for w in base.workloads if w.enabled and (rate := _target_rate(w))}
    controller_bounds: dict[tuple, dict[str, float]] = {}  # a design's controller side -> per workload its bound
    takeover_bounds: dict[tuple, dict[str, float]] = {}  # ... its takeover state's bound (SLO in takeover required)
    targets = {w.id: rate for w in base.workloads if w.enabled and (rate := target_rate(w))}  # the takeover's
    efficiency_sides: dict[tuple, Any] = {}  # an array platform's effective side (its workloads kept with it)

    controller_side = _controller_side
    array_workloads: list[list] = []  # the enabled workloads an array design aims at it, once

    def passed_over(place: int) -> bool:
        """In a lazy walk, whether the design at ``place`` certainly cannot meet, told without its capacity or
        paths: a single-node cloud design when the SLO in takeover is required (:func:`_single_cloud_vm`), an
        array whose capacity certainly misses (:func:`_capacity_certainly_short`), or an array whose controller
        side (:func:`controller_side`) an earlier design's paths showed too slow for a grown target (the saturation
        bound of its controller's CPU and affinity stations alone, at or below the target: the whole path's bound,
        the saturation screen's, is no higher; ``models.performance.paths`` builds these stations from the
        controller node, its record and profile, the front end's protocol and the workload, never from the
        shelves) or, with the SLO in takeover required, too slow in takeover for a target (the same bound of its
        takeover state: :func:`_takeover_bounds`, which sums the two nodes' controller stations)."""
        if not lazy[0]:
            return False
        spec = pending[place][2]
        if spec.deployment == "cloud":
            return _single_cloud_spec(spec, req)
        if spec.deployment != "on-prem":
            return False
        if spec.parts is not None and spec._scenario is None:  # told from its parts, without building it
            if not array_workloads:
                array_workloads.append([w for w in _retargeted(base, "array", keep_hosts=True)
                                        if w.enabled and w.target == "array"])
            if _parts_certainly_short(spec.parts, array_workloads[0], need, efficiency_sides):
                return True
            return bool(controller_bounds) and too_slow(_parts_side(spec.parts))
        if _capacity_certainly_short(spec.scenario, catalog, need, efficiency_sides):
            return True
        return bool(controller_bounds) and too_slow(controller_side(spec.scenario))

    def too_slow(side: tuple) -> bool:
        """Whether an array design's controller side (:func:`_controller_side`) an earlier design's paths showed
        too slow (:func:`passed_over`); the walk asks it again of a design reached before that earlier design's
        paths were built, before building its own."""
        bounds = controller_bounds.get(side)
        if bounds is not None and any(bounds.get(wid, math.inf) <= grown for wid, grown in grown_targets.items()):
            return True
        bounds = takeover_bounds.get(side)
        return bounds is not None and any(bounds.get(wid, math.inf) * (1 + TAKEOVER_BOUND_MARGIN) <= rate
                                          for wid, rate in targets.items())

    tried = [0, 0]  # designs checked in order, of which met

    def solve_ahead(first: int, due: Mapping[tuple, tuple[Scenario, str]]) -> None:
        """Solve the closed ramps of the designs ``due`` (performance key -> checked scenario, deployment) and of the
        designs the search is about to reach, in one batch (``models.performance.screening.solve_requests``): from place
        ``first`` on in rank order, every design with enough capacity that passes the saturation screen and the
        HA-partner test, until those designs would give the meeting ones still wanted at the share met so far, damped
        (its square root: the designs later in the order are larger and meet more often than the first ones) and bounded
        (:data:`AHEAD_GROWTH`), at most :data:`AHEAD_MAX` designs and :data:`AHEAD_WALK` places. The look-ahead
        computes only what the check in order computes when it gets there (memoised by place and key), so it costs
        nothing more unless it passes the place where the search stops; a batch as large as the search needs replaces
        the many small ones whose population steps (the batched engine's fixed cost) were most of their time.
        """
        fresh = {pkey: value for pkey, value in due.items() if pkey not in ramps}
        wanted = max(top + FRONT_EVALUATIONS - len(meeting), 1)
        rate = tried[1] / tried[0] if tried[0] else 1.0
        goal = wanted * (min(AHEAD_GROWTH, 1 / math.sqrt(rate)) if rate > 0 else AHEAD_GROWTH)
        plausible = 0
        place = first
        while place < len(pending) and len(fresh) < AHEAD_MAX and plausible < goal and place < first + AHEAD_WALK:
            if place % 256 == 0 and cancelled is not None and cancelled():
                break
            if place not in reached and passed_over(place):
                place += 1
                continue
            cand, checked = at(place)
            place += 1
            if cand.reasons or (tail() and platform_key(cand) in platforms):
                continue  # (the walk checks no larger variant of a platform design that meets once past its tail)
            if lazy[0] and cand.deployment == "on-prem" and too_slow(controller_side(checked)):
                continue  # (reached before the design that showed it; the walk passes it over)
            pkey = key_at(place - 1)
            if pkey in checks:
                plausible += not checks[pkey][0]
                continue
            if pkey in ramps or pkey in fresh or pkey in performed:
                plausible += 1
                continue
            if screen(pkey, checked) or partner_missing(pkey, checked, cand.deployment):
                continue
            fresh[pkey] = (checked, cand.deployment)
            if cand.deployment == "hci" and req.n_plus:
                wholes.setdefault(pkey, cand.scenario)
            plausible += 1
        solve_fresh(fresh)

    def solve_fresh(fresh: Mapping[tuple, tuple[Scenario, str]]) -> None:
        """Solve the closed ramps of the designs ``fresh`` (performance key -> checked scenario, deployment), and of
        their whole clusters (HCI, N+1), in one batch, into ``ramps`` and ``whole_ramps``."""
        requests = [design_ramp_requests(paths_for(pkey, checked)) for pkey, (checked, _) in fresh.items()]
        # an HCI design's whole cluster (every host up), which its N+1 check (:func:`_hci_check`) reads when the
        # design meets with its spares out, in the same batch (the batched engine solves each ramp as alone)
        whole = {pkey: design_paths(wholes[pkey], catalog) for pkey in fresh
                 if pkey in wholes and pkey not in whole_ramps}
        more = [design_ramp_requests(paths) for paths in whole.values()]
        solved = iter(solve_requests([r for design in requests + more for r in design]))
        for pkey, design in zip(fresh, requests):
            ramps[pkey] = [next(solved) for _ in design]
        for (pkey, paths), design in zip(whole.items(), more):
            whole_ramps[pkey] = (paths, [next(solved) for _ in design])
            whole_paths[id(wholes[pkey])] = (wholes[pkey], paths)

    hci_ahead: dict[tuple, tuple[_Check, tuple[float | None] | None]] = {}  # an HCI design's check, N+1 included
    whole_checks: dict[int, tuple[Scenario, DesignCheck]] = {}  # id of a whole cluster -> it and its batched check

    def hci_checks_ahead(following: Sequence[tuple[Candidate, Scenario, tuple]], waiting: set[tuple]) -> None:
        """Check the HCI design ``following[0]`` (the next the walk checks) and those of ``following`` the walk
        certainly checks after it, into ``hci_ahead`` (performance key -> (check, (max IOPS at the SLO with one host
        down,) or None when its spares-out check fails, as :func:`_hci_check` gives them)): each design's check with
        its spares out (:func:`_performance_checks`), then the whole clusters and N+1 states of those that pass it,
        together (:func:`_hci_checks`: the same figures as one by one, the host-failure states' searches in one
        pass). The walk checks every design of its chunk until ``top`` + :data:`FRONT_EVALUATIONS` meet, so the next
        that many (those whose check waits aside) are checked whatever they give; past that point, only the next."""
        wanted = 1 if tail() else max(top + FRONT_EVALUATIONS - len(meeting), 1)
        due: dict[tuple, tuple[Candidate, Scenario]] = {}
        reached = 0
        for cand, checked, pkey in following:
            if reached >= wanted:
                break
            if pkey in waiting and pkey not in checks:
                continue  # (its check waits: it adds no meeting design)
            reached += 1
            if (cand.deployment == "hci" and pkey not in checks and pkey not in performed and pkey not in hci_ahead
                    and pkey not in due and (pkey in ramps or not due)):
                due[pkey] = (cand, checked)
        spares = {pkey: _performance_checks([(checked, paths_for(pkey, checked), "hci")], req, [ramps.pop(pkey)])[0]
                  for pkey, (cand, checked) in due.items()}
        passing = [pkey for pkey in due if not spares[pkey][0]]
        checked_hci = _hci_checks([(due[pkey][0].scenario, spares[pkey],
                                    whole_ramps.pop(pkey, None) if wholes.get(pkey) is due[pkey][0].scenario else None,
                                    _survivors(due[pkey][0].scenario, paths_for(pkey, due[pkey][1]), req.n_plus))
                                   for pkey in passing], catalog, project, req, whole_checks)
        for pkey in due:
            hci_ahead[pkey] = (spares[pkey], None)
        for pkey, (check, down) in zip(passing, checked_hci):
            hci_ahead[pkey] = (check, (down,))

    def certainly_checked(following: Sequence[tuple[Candidate, Scenario, tuple]], waiting: set[tuple],
                          fresh: Mapping[tuple, tuple[Scenario, str]]) -> dict[tuple, tuple[Scenario, str]]:
        """The designs of ``fresh`` (performance key -> checked scenario, deployment) among ``following`` (the rest of
        a chunk, in order) that the walk certainly checks: it checks every design of its chunk until ``top`` +
        :data:`FRONT_EVALUATIONS` meet, so the next that many (those whose check waits aside left out: they add no
        meeting design) whatever they give; past that point, only the next (as :func:`hci_checks_ahead` counts them).
        Their ramps are solved ahead with the designs the look-ahead finds past them (:func:`solve_ahead`); a design
        of the chunk the walk reaches after them has its ramps solved ahead when it is reached, so that no ramp is
        solved for a design the search stops before (a chunk's designs past the point where enough meet: 21 of the
        vSAN 8 example's 24 in its second look-ahead, and their whole clusters). The walk does so only for a chunk
        whose other designs' networks all have few queueing classes (:func:`_queues_few`: solved alike in any
        batch); a chunk with a larger one is solved ahead whole, so every figure is the one it had."""
        wanted = 1 if tail() else max(top + FRONT_EVALUATIONS - len(meeting), 1)
        due: dict[tuple, tuple[Scenario, str]] = {}
        reached = 0
        for _cand, _checked, pkey in following:
            if reached >= wanted:
                break
            if pkey in waiting and pkey not in checks:
                continue
            reached += 1
            if pkey in fresh:
                due[pkey] = fresh[pkey]
        return due

    def walk() -> bool:
        """Check the designs in rank order until enough meet (the search's step 2); True when a design was passed
        over (only in a lazy walk: it cannot meet, and the failures it would join count only when nothing meets)."""
        left_out = False
        position = 0
        while position < len(pending):
            if enough(pending[position][0]) or (cancelled is not None and cancelled()):
                break
            if progress is not None:
                progress(0.2 + 0.8 * max(len(meeting) / (top + FRONT_EVALUATIONS), position / len(pending)))
            start = position
            feasible: list[tuple[Candidate, Scenario, tuple]] = []
            while position < len(pending) and len(feasible) < BATCH:
                if position not in reached and passed_over(position):
                    left_out = True
                    position += 1
                    continue
                cand, checked = at(position)
                (failing.append((cand, checked)) if cand.reasons else
                 feasible.append((cand, checked, key_at(position))))
                position += 1
            chunk = []
            for cand, checked, pkey in feasible:
                if tail() and platform_key(cand) in platforms:
                    continue  # only an alternative, never checked (below): nor screened
                if lazy[0] and cand.deployment == "on-prem" and too_slow(controller_side(checked)):
                    left_out = True  # passed over (reached before the design whose paths showed it too slow)
                    continue
                if pkey in checks:
                    chunk.append((cand, checked, pkey))
                    continue
                short = screen(pkey, checked)
                if short:  # the asymptotic bound already rules it out: no full evaluation
                    checks[pkey] = (short, None, screened_room.get(pkey), "", None)
                    checked_failures.append(replace(cand, reasons=tuple(short), headroom_pct=screened_room.get(pkey)))
                else:
                    chunk.append((cand, checked, pkey))
            # a design that must survive a takeover and has no HA partner cannot meet whatever its performance: its
            # full check waits until the end, where it is needed only when nothing meets (for the nearest and their
            # reasons)
            waiting = {pkey for cand, checked, pkey in chunk
                       if pkey not in checks and partner_missing(pkey, checked, cand.deployment)}
            # the batched engine: the closed ramps of every design of the chunk (once per performance key) solved
            # ahead, with those of the designs the search is about to reach, in one batch; then each design checked
            # from its ramps in order, only as far as the search goes
            fresh = {pkey: (checked, cand.deployment) for cand, checked, pkey in chunk
                     if pkey not in checks and pkey not in waiting}
            for cand, _, pkey in chunk:
                if cand.deployment == "hci" and req.n_plus and pkey in fresh:
                    wholes.setdefault(pkey, cand.scenario)
            fresh = {pkey: value for pkey, value in fresh.items() if pkey not in performed}  # a lazy walk's kept
            due = certainly_checked(chunk, waiting, fresh)
            if len(due) < len(fresh) and not all(_queues_few(paths_for(pkey, checked))
                                                 for pkey, (checked, _) in fresh.items() if pkey not in due):
                due = fresh  # a network of many queueing classes: its floats depend on what it is solved beside
            if any(pkey not in ramps for pkey in due):
                solve_ahead(start, due)
            for index, (cand, checked, pkey) in enumerate(chunk):
                if enough(cand.order):
                    break
                if tail() and platform_key(cand) in platforms:
                    continue  # a larger variant of a platform design that meets: only an alternative, not checked
                if pkey in waiting and pkey not in checks:
                    deferred.append((len(checked_failures), cand, checked, pkey))
                    continue
                if pkey not in checks:  # each design's check read from its ramps when the search reaches it
                    hci_n_plus = cand.deployment == "hci" and req.n_plus
                    if (pkey not in performed and pkey not in ramps and not (hci_n_plus and pkey in hci_ahead)
                            and pkey in fresh):  # past the designs certainly checked: the next ones solved ahead
                        rest = {k: fresh[k] for _c, _s, k in chunk[index:]
                                if k in fresh and k not in checks and k not in performed and k not in ramps}
                        solve_fresh(certainly_checked(chunk[index:], waiting, rest))
                    if pkey not in performed and hci_n_plus:
                        if pkey not in hci_ahead:  # with the HCI designs the search certainly reaches next
                            hci_checks_ahead(chunk[index:], waiting)
                        performed[pkey], down = hci_ahead.pop(pkey)
                        if down is not None:
                            host_down[pkey] = down[0]
                    elif pkey not in performed:
                        performed[pkey] = _performance_checks([(checked, paths_for(pkey, checked), cand.deployment)],
                                                              req, [ramps.pop(pkey)])[0]
                    checks[pkey] = performed[pkey]
                reasons, first, headroom, bound, takeover_room = checks[pkey]
                reasons = list(reasons)
                done = replace(cand, meets=not reasons, reasons=tuple(reasons), max_iops_at_slo=first,
                               headroom_pct=headroom, max_iops_at_slo_host_down=host_down.get(pkey), bound=bound,
                               takeover_headroom_pct=takeover_room[0] if takeover_room else None,
                               takeover_state=_state_words(cand.scenario, catalog, takeover_room[1])
                               if takeover_room else "")
                tried[0] += 1
                tried[1] += done.meets
                if done.meets:
                    meeting.append(done)
                    meeting_keys.append(platform_key(done))
                    platforms.add(meeting_keys[-1])
                else:
                    checked_failures.append(done)
        return left_out

    def performance_of(items: Sequence[tuple[Candidate, Scenario]]) -> list[Candidate]:
        """Each of ``items`` ((a design short of capacity or over a limit, never checked for performance, and its
        checked scenario)) with its performance checked (:func:`_performance_checks`, once per performance key, the
        keys not checked yet in one batch) and its reasons added: for the nearest designs (:func:`nearest_designs`)."""
        keyed = [(cand, checked, _performance_key(checked, catalog, cand.deployment, signatures,
                                                  memo if cand.deployment == "on-prem" else None))
                 for cand, checked in items]
        new: dict[Any, tuple[Scenario, str]] = {}
        for cand, checked, pkey in keyed:
            if pkey not in checks and pkey not in new:
                new[pkey] = (checked, cand.deployment)
        if new:
            checks.update(zip(new, _performance_checks([(checked, paths_for(pkey, checked), deployment)
                                                        for pkey, (checked, deployment) in new.items()], req),
                              strict=True))
        out = []
        for cand, _checked, pkey in keyed:
            reasons, first, headroom, bound, _ = checks[pkey]
            out.append(replace(cand, reasons=cand.reasons + tuple(r for r in reasons if r not in cand.reasons),
                               max_iops_at_slo=first, headroom_pct=headroom, bound=bound))
        return out

    # the search first walks past the designs that certainly cannot meet (:func:`passed_over`: no capacity, paths
    # or screen of theirs is computed); when nothing meets, their reasons are wanted after all, and the walk is made
    # again with every design, from the memoised capacities, paths, screens and checks (the same result as one walk
    # with every design)
    lazy[0] = True
    if walk() and not meeting and not (cancelled is not None and cancelled()):
        lazy[0] = False
        failing.clear()
        checked_failures.clear()
        checks.clear()
        deferred.clear()
        tried[:] = [0, 0]
        walk()
    # each platform design is shown as its smallest variant that meets (Candidate.variant_key), the others its
    # alternatives; the platform designs rank by Candidate.rank_key, and the Pareto front is taken among them on
    # the same criteria (so the first is on it)
    groups: dict[tuple, list[Candidate]] = {}  # platform design -> its meeting variants, the one shown first
    for key, c in sorted(zip(meeting_keys, meeting, strict=True), key=lambda kc: kc[1].variant_key()):
        groups.setdefault(key, []).append(c)
    ranked = sorted(groups.values(), key=lambda variants: variants[0].rank_key())
    front = {id(ranked[i][0]) for i in pareto_front([variants[0] for variants in ranked])}
    marked = {id(c): replace(c, pareto=id(c) in front, variant=_variant(c.scenario, catalog)) for c in meeting}
    meeting = sorted(marked.values(), key=Candidate.rank_key)
    best = fold_ties([replace(marked[id(variants[0])], alternatives=tuple(marked[id(a)] for a in variants[1:]))
                      for variants in ranked])  # designs tied on every criterion and figure: one row
    if not meeting:
        notes += _reach_notes(req, need, capacities, peaks, capped, base, bool(failing))
    if not designs:
        notes += empty_search_notes(base, catalog, req)
    nearest: tuple[Candidate, ...] = ()
    if not meeting and deferred:  # the deferred designs checked after all, each in its place among the failures
        placed: list[Candidate] = []
        done_up_to = 0
        late = {pkey: (checked, cand.deployment) for _, cand, checked, pkey in deferred if pkey not in checks}
        checks.update(zip(late, _performance_checks([(checked, paths_for(pkey, checked), deployment)
                                                     for pkey, (checked, deployment) in late.items()], req)))
        for place, cand, _checked, pkey in deferred:
            placed += checked_failures[done_up_to:place]
            done_up_to = place
            reasons, first, headroom, bound, _ = checks[pkey]
            placed.append(replace(cand, reasons=tuple(reasons), max_iops_at_slo=first, headroom_pct=headroom,
                                  bound=bound))
        checked_failures = placed + checked_failures[done_up_to:]
    if not meeting:
        first_target = next((grown_targets[w.id] for w in base.workloads if w.id in grown_targets), None)
        nearest = nearest_designs(checked_failures, failing, partial(nearest_key, need=need, first_target=first_target),
                                  performance_of)
        if "on-prem" in req.deployments and any(
                c.deployment == "on-prem" and c.reasons and (need <= 0 or c.effective_bytes >= need)
                and (c.max_iops_at_slo is not None or c.headroom_pct is not None) for c in nearest):
            notes.append(ONE_PAIR_NOTE)  # more pairs would carry the load: the sizer proposes one
    shown, nearest = _as_evaluated(best[:top], nearest, catalog, project, capacities, whole_paths,
                                   whole_checks if req.rank_on != "p90" else None)
    cheapest_cloud = None
    if tco_basis is not None:
        shown = tuple(tco_basis.with_break_even(c) for c in shown)
        nearest = tuple(tco_basis.with_break_even(c) for c in nearest)
        if tco_basis.cheapest is not None:
            cheapest_cloud = (tco_basis.cheapest.name, tco_basis.cheapest.total)
    if book:
        notes += in_controller_notes((*shown, *nearest), catalog, book)
    return SizingResult(shown, nearest, considered, capped, need, tuple(meeting),
                        book[0].currency if book else None, tuple(notes), cheapest_cloud)


class _TcoBasis:
    """What ranking on total cost (``rank_on = "tco"``) reads once per search: the running-cost figures, the data
    month by month and the cheapest cloud option (``models.costing.tco``)."""

    def __init__(self, project: Project, catalog: Catalog) -> None:
        from models.costing.inputs import running_inputs
        from models.costing.tco import (
            cheapest,
            cloud_options,
            data_by_month,
            demand_by_month,
            served_scenario,
            workload_protocols,
        )

        req = project.requirements
        self.project, self.catalog = project, catalog
        self.inputs = running_inputs(req.running_costs, req.horizon_months)
        self.data = data_by_month(project.scenario, req, self.inputs.horizon_months)
        # the options carry what the design serves: a MetroCluster's partner site's workloads too, as its Cost tab
        served = served_scenario(project.scenario)
        self.cheapest = cheapest(cloud_options(catalog, data_by_month(served, req, self.inputs.horizon_months),
                                               project.price_book,
                                               demand_by_month(served, self.inputs.horizon_months),
                                               2 if served is not project.scenario else 1,
                                               workload_protocols(served, catalog, req.protocols)))

    def cost(self, scenario: Scenario, power: float | None, rack_units: int, costing: Any) -> Any:
        """The design's ``models.costing.tco.OptionCost`` (an unknown power counts 0 W)."""
        from models.costing.tco import design_cost

        return design_cost(scenario, self.catalog, self.project, self.inputs, self.data, power or 0.0, rack_units,
                           costing)

    def total(self, spec: Any, power: float | None, costing: Any) -> float:
        """A design's total cost over the horizon (its sort key); infinite for an array whose power the catalog
        does not give (an unknown figure never ranks first; an HCI cluster's hosts have no power figure at all, and
        a cloud design's power is the provider's)."""
        if power is None and spec.deployment == "on-prem":
            return math.inf
        if spec.deployment != "cloud":  # the sum of design_cost's lines, without building them (every design)
            from models.costing.tco import monthly_running

            hardware = costing.total if costing is not None else 0.0
            return hardware + self.inputs.horizon_months * sum(monthly_running(power or 0.0, spec.ru, hardware,
                                                                               self.inputs))
        return float(self.cost(spec.scenario, power, spec.ru, costing).total)

    def with_break_even(self, cand: Candidate) -> Candidate:
        """``cand`` with its total cost over the horizon and its break-even month against the cheapest cloud
        option (None for a cloud design, or without a hardware price)."""
        from models.costing.tco import break_even_month
        from models.pricing import cost as price_of

        costing = price_of(cand.scenario, self.catalog, self.project.price_book) if self.project.price_book else None
        own = self.cost(cand.scenario, cand.power_w, cand.rack_units, costing)
        month = None
        if own.deployment == "on-prem" and costing is not None and self.cheapest is not None:
            month = break_even_month(own.cumulative(), self.cheapest.cumulative())
        return replace(cand, tco=own.total, break_even_month=month)


def _as_evaluated(shown: Sequence[Candidate], nearest: Sequence[Candidate], catalog: Catalog, project: Project,
                  capacities: dict, built: Mapping[int, tuple[Scenario, DesignPaths]] | None = None,
                  checked: Mapping[int, tuple[Scenario, DesignCheck]] | None = None
                  ) -> tuple[tuple[Candidate, ...], tuple[Candidate, ...]]:
    """The ``shown`` and ``nearest`` candidates with the capacity, max IOPS at the SLO and headroom of each design
    as ``storplan evaluate`` gives them.

    An HCI candidate's capacity is checked with its ``n_plus`` spare hosts taken out (and its performance first
    screened so), but what it is, and what the candidate's project evaluates to, is the whole cluster: its usable
    and effective capacity, its first workload's max IOPS at the SLO and its headroom are those of every host up
    (one state for the whole row, normal operation, as ``storplan evaluate``'s headline; a meeting candidate has
    them from :func:`_hci_check` already, a failing one shown among the nearest gets them here: the batched check
    of the whole clusters, one batch for all of them, ``models.performance.screening.check_designs``, the figures
    of ``evaluate_performance``), so the shown figures and an evaluation of the candidate's project agree. Other
    deployments are checked as they are and come back unchanged (their figures are the search's batched check's:
    nothing is evaluated a second time). An HCI candidate's ``alternatives`` (the other disk-group layouts shown
    beside it) are whole clusters too, in the same batch, so the variants compare like for like. ``built``: id of a
    whole cluster's scenario -> (that scenario, its paths) where the search built them already (``design_paths``,
    the same paths): those are not built again. ``checked``: id of a whole cluster's scenario -> (that scenario, its
    batched check without bands) where the search's N+1 check made it already (:func:`_hci_pass`: the same
    ``check_designs`` figures, its ramps the ones this batch reads from the ramp cache): those are not checked again.
    """
    both = [*shown, *nearest]
    if not project.requirements.n_plus:
        return tuple(shown), tuple(nearest)
    hci = [c for c in both if c.deployment == "hci"]
    flat = [*hci, *(a for c in hci for a in c.alternatives)]
    built = built or {}
    checked = checked or {}
    given = [have[1] if (have := checked.get(id(c.scenario))) is not None and have[0] is c.scenario else None
             for c in flat]
    paths = [got[1] if (got := built.get(id(c.scenario))) is not None and got[0] is c.scenario
             else design_paths(c.scenario, catalog) for c, known in zip(flat, given) if known is None]
    solved = iter(check_designs(paths, slo_statistic=project.requirements.slo_statistic) if paths else ())
    checks = [known if known is not None else next(solved) for known in given]
    whole: dict[int, Candidate] = {}
    for cand, perf in zip(flat, checks):
        key = _storage_key(cand.scenario)
        cap = capacities.get(key)
        if cap is None:
            cap = capacities[key] = evaluate_capacity(cand.scenario, catalog).total
        first = (exact_bound(perf.workloads[0].max_iops_at_slo, perf.workloads[0].saturation_iops) if perf.workloads
                 else cand.max_iops_at_slo)
        bound = perf.workloads[0].bound if perf.workloads else cand.bound
        growth = {w.id: w.iops_growth_pct_per_year for w in cand.scenario.workloads}
        rooms = [(wp.saturation_iops - grown) / grown * 100.0 for wp in perf.workloads if wp.target_iops
                 for grown in (_grown(wp.target_iops, growth[wp.workload_id], project.requirements.horizon_months),)]
        whole[id(cand)] = replace(cand, usable_bytes=cap.usable_bytes, effective_bytes=cap.effective_bytes,
                                  max_iops_at_slo=first if cand.max_iops_at_slo is not None else None,
                                  headroom_pct=(min(rooms) if rooms else None) if cand.headroom_pct is not None
                                  else None, bound=bound if cand.max_iops_at_slo is not None else "")
    both = [replace(whole[id(c)], alternatives=tuple(whole[id(a)] for a in c.alternatives))
            if c.deployment == "hci" else c for c in both]
    return tuple(both[:len(shown)]), tuple(both[len(shown):])
