"""Energy, carbon and total cost of ownership of a design over the horizon, on premises against the cloud.

* Energy: the design's typical power (controllers, shelves with their drives, switches:
  ``models.present.bom.footprint``) x 8,760 hours = IT kWh a year; x PUE = facility kWh a year; x the grid's carbon
  intensity = operational carbon. Embodied carbon: :mod:`models.costing.carbon`.
* On premises, month 0 buys the hardware (the project's price book, ``models.pricing.cost``); each month adds support
  (the support share of the hardware a year / 12), power (facility kWh a year / 12 x the electricity price) and
  space (rack units x the rack-unit cost a month).
* In the cloud nothing is bought up front; each month pays what is provisioned that month: a managed service's
  capacity grows with the data (the workloads' data sets grown by their growth, (1 + g)^(months / 12) as in the
  capacity runway), rounded up to whole TiB and never below what the design provisions or the service's minimum;
  Cloud Volumes ONTAP pays its VMs' vCPU-hours, its data disks (more disks of the design's type as the data
  outgrows them) and its licence per node-hour. Prices: the project's price book where it prices a cloud record
  (its price is over the horizon: spread evenly), else :mod:`models.costing.cloud_prices`.
* The options compared: every managed file service of the catalog, and a single-node Cloud Volumes ONTAP system in
  each provider's cloud (:func:`cvo_option`), sized to the same data month by month. The
  break-even month of an on-premises design against an option is the first month its cumulative cost is no more
  than the option's (None: not within the horizon, or the hardware is not priced).
"""


import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from dataclasses import replace as dc_replace
from typing import NamedTuple, Protocol

from models.catalog import Catalog, CloudDisk, CloudVm, Licence, ManagedService
from models.costing.carbon import Embodied, Enclosure, embodied_carbon
from models.costing.cloud_prices import (
    DISK_PRICES,
    LICENCE_PRICES,
    MANAGED_PRICES,
    NODE_LICENCE_NOTE,
    PRICE_CURRENCY,
    VCPU_PRICES,
    CloudPrice,
)
from models.costing.inputs import (
    HCI_HOST_HEIGHT_WORDS,
    HCI_HOST_RACK_UNITS,
    HOURS_PER_MONTH,
    HOURS_PER_YEAR,
    RunningInputs,
    running_inputs,
)
from models.pricing import IN_CONTROLLER_PRICE, Costing, cost, unpriced_names
from models.project.metrocluster import is_metrocluster, is_partner
from models.project.model import (
    PROTOCOL_FAMILY,
    ControllerNode,
    HciClusterNode,
    ManagedServiceNode,
    Node,
    PriceRow,
    Project,
    Requirements,
    Scenario,
)
from models.units import growth_factor

__all__ = ["CostLine", "Demand", "Energy", "OptionCost", "Tco", "break_even_hardware_price", "break_even_month",
           "cheapest", "cloud_options", "comparison_order", "cvo_option", "data_by_month", "demand_by_month",
           "design_cost", "design_deployment", "energy_of", "Footprint", "managed_option", "monthly_running",
           "PricedNode", "published_cloud_total", "PublishedCloudPrices", "served_scenario", "shortfall_count_note",
           "tco_of"]

BTU_PER_W = 3.412142
"""BTU/hr per watt (as the bill of materials)."""
GIB = 2**30
TIB = 2**40
CLOUD_KINDS = ("cloud_vm", "managed_service")
ON_PREM_KINDS = ("controller", "shelf", "hci_cluster")


@dataclass(frozen=True)
class CostLine:
    """One kind of cost of an option: what it is, paid up front (month 0) and in each month 1..horizon.

    Attributes:
        name: "Hardware", "Support", "Power", "Space", "Capacity", "Compute", "Disks", "Licence", "Throughput";
        upfront: paid in month 0; monthly: paid in months 1..horizon (one value a month); basis: how it is
        computed, with the prices' sources.
    """

    name: str
    upfront: float
    monthly: tuple[float, ...]
    basis: str

    @property
    def total(self) -> float:
        """Up front plus every month."""
        return self.upfront + sum(self.monthly)


@dataclass(frozen=True)
class OptionCost:
    """The cost of one option over the horizon.

    Attributes:
        name: the option ("This design: NetApp AFF A70 ...", "Azure NetApp Files, Premium service level");
        deployment: "on-prem" or "cloud"; lines: its :class:`CostLine` records; complete: every part is priced
        (False: the total is a lower bound, ``missing`` says what is not counted); catalog_id: the managed
        service's record ("" for the design itself); shortfall: what of the workloads' I/O the option cannot carry
        even at its largest size (empty: it carries it, or it was not checked), in words; short_from_month: the
        first month (1..horizon) it falls short (None: it does not); data_short: the data itself, not its I/O, is
        above the largest size the service provisions from that month (its words then say "cannot hold the data").
    protocol_short: the workloads' protocols the service does not serve (review 57: a file-only service listed
        without a caveat as the cheapest alternative to an iSCSI design).
    peak: a managed service's largest provisioned capacity (bytes) and throughput capacity (MB/s) over the
        horizon (0: not a managed service).
    """

    name: str
    deployment: str
    lines: tuple[CostLine, ...]
    complete: bool = True
    missing: tuple[str, ...] = ()
    catalog_id: str = ""
    shortfall: tuple[str, ...] = ()
    short_from_month: int | None = None
    data_short: bool = False
    peak: tuple[float, float] = (0.0, 0.0)
    protocol_short: tuple[str, ...] = ()
    """The workloads' front-end protocols the option does not serve (a file-only managed service for an iSCSI
    workload: :func:`unserved_protocols`); such an option is no alternative from month 1 (its ``shortfall`` says
    so) and is never ranked, charted as an alternative or given a break-even."""
    serves: tuple[str, ...] = ()
    """What a managed service that does not serve the workloads' protocols serves (its catalog ``protocols``)."""

    @property
    def meets_workloads(self) -> bool:
        """The option carries the workloads' I/O as far as its published limits tell (no ``shortfall``)."""
        return not self.shortfall

    @property
    def horizon_months(self) -> int:
        """Months covered (the length of each line's ``monthly``)."""
        return len(self.lines[0].monthly) if self.lines else 0

    def cumulative(self) -> tuple[float, ...]:
        """Cumulative cost at the end of months 0..horizon (month 0: what is paid up front)."""
        total = sum(line.upfront for line in self.lines)
        out = [total]
        for m in range(self.horizon_months):
            total += sum(line.monthly[m] for line in self.lines)
            out.append(total)
        return tuple(out)

    @property
    def total(self) -> float:
        """Total cost over the horizon."""
        return self.cumulative()[-1]


HEIGHT_OF = "height of "
"""How the footprint names a part whose height the catalog does not give (``models.present.bom``)."""


@dataclass(frozen=True)
class Energy:
    """A design's power, energy and operational carbon.

    Attributes:
        power_w: typical power of the parts whose figures the catalog gives, W; complete: every part's figure is
        known (else the figures are lower bounds and ``not_counted`` names the parts); it_kwh_per_year: power_w x
        8,760 h / 1,000; facility_kwh_per_year: x PUE; operational_kg_per_year: facility kWh x grid g CO2e/kWh /
        1,000; rack_units, btu_per_hr: the footprint's (with a vSAN cluster's hosts at the assumed
        :data:`~models.costing.inputs.HCI_HOST_RACK_UNITS` each); assumed: the figures assumed, in words.
    """

    power_w: float
    complete: bool
    it_kwh_per_year: float
    facility_kwh_per_year: float
    operational_kg_per_year: float
    rack_units: int
    btu_per_hr: float
    not_counted: tuple[str, ...] = ()
    assumed: tuple[str, ...] = ()

    @property
    def heights_not_counted(self) -> tuple[str, ...]:
        """The parts of ``not_counted`` whose height is not known ("height of X"): ``rack_units`` is then a lower
        bound, and the space cost with it; no power term (r2 review #3)."""
        return tuple(x for x in self.not_counted if x.startswith(HEIGHT_OF))

    @property
    def power_not_counted(self) -> tuple[str, ...]:
        """The parts of ``not_counted`` whose power is not known: ``power_w`` and the energy and operational carbon
        are then lower bounds."""
        return tuple(x for x in self.not_counted if not x.startswith(HEIGHT_OF))

    @property
    def power_complete(self) -> bool:
        """Every part's power is known (a part without a height leaves the power exact)."""
        return not self.power_not_counted

    @property
    def power_known(self) -> bool:
        """Some part's power is known (False: ``power_w`` 0 W only because no figure is known: not 0 W)."""
        return self.power_w > 0 or self.power_complete


@dataclass(frozen=True)
class Tco:
    """Cost and footprint of one design, and the cloud options over the same horizon.

    Attributes:
        inputs: the running-cost figures used; currency: of every amount; design: the design's own cost;
        energy: its energy and operational carbon (None for a cloud design: the provider's); embodied: its embodied
        carbon; options: the cloud options (:func:`cloud_options`) sized to the same data; break_even: (option name,
        month or None) for an on-premises design against each option; cheapest: the name of the cheapest option
        over the horizon; data_bytes: the data to hold at the end of months 0..horizon; notes: what the figures do
        not count or assume, in words; break_even_hardware: for an on-premises design whose hardware is not priced,
        the most the hardware may cost for the design to break even with the cheapest option within the horizon
        (:func:`break_even_hardware_price`; None otherwise, or when even free hardware does not); scope: what the
        design counts that the cloud options do not (a DR copy, a second site), one sentence ("" when nothing;
        ``models.present.cost.design_tco`` sets it from the scenario).
    """

    inputs: RunningInputs
    currency: str
    design: OptionCost
    energy: Energy | None
    embodied: Embodied
    options: tuple[OptionCost, ...]
    break_even: tuple[tuple[str, int | None], ...]
    cheapest: str | None
    data_bytes: tuple[float, ...]
    notes: tuple[str, ...] = field(default=())
    break_even_hardware: float | None = None
    scope: str = ""

    @property
    def carbon_over_horizon_kg(self) -> float | None:
        """Operational carbon over the horizon plus embodied carbon, kg CO2e; None for a cloud design whose
        embodied carbon is not counted either (the provider's hardware: not known, never 0)."""
        if self.energy is None and not self.embodied.lines:
            return None
        operational = self.energy.operational_kg_per_year * self.inputs.horizon_months / 12 if self.energy else 0.0
        return operational + self.embodied.total_kg

    def break_even_with(self, name: str) -> int | None:
        """The break-even month against the option called ``name`` (None: none within the horizon or unknown)."""
        return dict(self.break_even).get(name)


def design_deployment(scenario: Scenario) -> str:
    """"cloud" when the scenario's storage is cloud VMs or managed services only, else "on-prem"."""
    kinds = {n.kind for n in scenario.nodes}
    return "cloud" if kinds & set(CLOUD_KINDS) and not kinds & set(ON_PREM_KINDS) else "on-prem"


def data_by_month(scenario: Scenario, requirements: Requirements, horizon_months: int) -> tuple[float, ...]:
    """The data to hold at the end of months 0..``horizon_months``, bytes: the enabled workloads' data sets, each
    grown by its ``growth_pct_per_year`` as (1 + g)^(months / 12) (the capacity runway's rule,
    :func:`models.units.growth_factor`); the requirements' effective
    capacity when the workloads give no data set."""
    workloads = [w for w in scenario.workloads if w.enabled and w.dataset_bytes]
    if not workloads:
        return tuple(float(requirements.effective_capacity_bytes) for _ in range(horizon_months + 1))
    return tuple(sum(w.dataset_bytes * growth_factor(w.growth_pct_per_year, m) for w in workloads)
                 for m in range(horizon_months + 1))


PARTNER_WORKLOAD = " (partner site)"
"""Appended to the name of a workload the partner site of a MetroCluster runs (:func:`served_scenario`)."""


def served_scenario(scenario: Scenario, every_site: bool = False) -> Scenario:
    """``scenario`` with the workloads its MetroCluster's partner site runs added, what the design serves: a
    MetroCluster controller whose ``partner_site_load`` is "mirror" has a partner site running the same workloads
    on its own mirrored aggregates (``models.project.metrocluster``; its cost counts both sites' drives), so each
    workload it serves is there twice (a copy named with :data:`PARTNER_WORKLOAD`). ``every_site``: every workload
    twice (the sizer's candidates when the requirements ask for the SLO after losing a site: each is a MetroCluster
    whose partner site runs the same workloads). The scenario itself when nothing is added. The cloud options are
    sized to it (:func:`tco_of`), so they carry and hold what the design does."""
    mirrored = {n.id for n in scenario.nodes if isinstance(n, ControllerNode) and n.metrocluster != "none"
                and n.partner_site_load == "mirror" and not is_partner(n.id)}
    extra = [w.model_copy(update={"id": w.id + "~partner", "name": w.name + PARTNER_WORKLOAD})
             for w in scenario.workloads if every_site or w.target in mirrored]
    return scenario.model_copy(update={"workloads": [*scenario.workloads, *extra]}) if extra else scenario


@dataclass(frozen=True)
class Demand:
    """The workloads' I/O a cloud option must carry at the end of months 0..horizon.

    Attributes:
        iops: operations a second, summed over the enabled workloads; mbps: MB/s (10^6 bytes a second), summed.
    """

    iops: tuple[float, ...]
    mbps: tuple[float, ...]


def demand_by_month(scenario: Scenario, horizon_months: int) -> Demand:
    """The enabled workloads' I/O at the end of months 0..``horizon_months``: each workload's target IOPS (or its
    target MB/s / its I/O size when it gives only MB/s), grown by its ``iops_growth_pct_per_year`` as
    (1 + g)^(months / 12) (as its IOPS target grows in the runway), and its MB/s (the target MB/s, or IOPS x I/O
    size), grown alike. A workload with neither target counts nothing."""
    iops = [0.0] * (horizon_months + 1)
    mbps = [0.0] * (horizon_months + 1)
    for w in scenario.workloads:
        if not w.performance_enabled or (w.target_iops is None and w.target_mbps is None):
            continue
        size = w.block_kib * 1024.0
        base_iops = w.target_iops if w.target_iops is not None else (w.target_mbps or 0.0) * 1e6 / size
        base_mbps = w.target_mbps if w.target_mbps is not None else base_iops * size / 1e6
        for m in range(horizon_months + 1):
            grow = growth_factor(w.iops_growth_pct_per_year, m)
            iops[m] += base_iops * grow
            mbps[m] += base_mbps * grow
    return Demand(tuple(iops), tuple(mbps))


class Footprint(Protocol):
    """A design's rack units, typical power (W), the parts without a figure and its enclosures, as
    ``models.present.bom.footprint`` gives them."""

    @property
    def rack_units(self) -> int:
        """Summed height, rack units."""

    @property
    def power_w(self) -> float:
        """Summed typical power of the known parts, W."""

    @property
    def unknown(self) -> tuple[str, ...]:
        """The parts without a figure, named."""

    @property
    def parts(self) -> Sequence[Enclosure]:
        """Each enclosure (controller, shelf, switch)."""


def _capped(names: Sequence[str], shown: int = 5) -> tuple[str, ...]:
    """At most ``shown`` names, then "and N more" (a 1,000-node design listed every part without a power figure in
    one table cell, taller than a page)."""
    names = tuple(names)
    return names if len(names) <= shown + 1 else (*names[:shown], f"and {len(names) - shown:,} more")


def energy_of(scenario: Scenario, foot: Footprint, inputs: RunningInputs) -> Energy:
    """The scenario's typical power, energy a year (IT and facility) and operational carbon a year, from its
    footprint ``foot``."""
    it_kwh = foot.power_w * HOURS_PER_YEAR / 1000.0
    facility = it_kwh * inputs.pue.value
    clusters = [n for n in scenario.nodes if isinstance(n, HciClusterNode)]
    hosts = [f"power of the {n.hosts} vSAN hosts" for n in clusters]
    hosts += ["the vSAN witness host (left out)"
              for n in clusters if n.stretched]
    unknown = (_capped([x for x in foot.unknown if not x.startswith(HEIGHT_OF)])
               + _capped([x for x in foot.unknown if x.startswith(HEIGHT_OF)]) + tuple(hosts))
    assumed = tuple(f"height of the {n.hosts} vSAN hosts: {HCI_HOST_RACK_UNITS} U each, assumed "
                    f"({HCI_HOST_HEIGHT_WORDS})" for n in clusters)
    rack_units = foot.rack_units + sum(n.hosts * HCI_HOST_RACK_UNITS for n in clusters)
    return Energy(foot.power_w, not unknown, it_kwh, facility, facility * inputs.grid_carbon_g_per_kwh.value / 1000.0,
                  rack_units, foot.power_w * BTU_PER_W, unknown, assumed)


def monthly_running(power_w: float, rack_units: int, hardware: float, inputs: RunningInputs) -> tuple[float, float,
                                                                                                     float]:
    """(support, power, space) a month of an on-premises design: ``hardware`` x support % / 12; ``power_w`` x 730 h /
    1,000 x PUE x the electricity price; ``rack_units`` x the rack-unit cost a month."""
    support = hardware * inputs.support_pct_per_year.value / 100.0 / 12.0
    power = power_w * HOURS_PER_MONTH / 1000.0 * inputs.pue.value * inputs.electricity_price_per_kwh.value
    return support, power, rack_units * inputs.rack_unit_cost_per_month.value


def _book_monthly(book: dict[str, PriceRow], catalog_id: str, horizon: int) -> float | None:
    """The project's price for ``catalog_id`` spread over the horizon, per unit a month (None: not in the book)."""
    row = book.get(catalog_id)
    return row.unit_price / horizon if row is not None else None


def _iops_cap(record: ManagedService, mbps: float) -> float | None:
    """The IOPS ceiling of ``record`` at ``mbps`` of throughput capacity (``models.performance.managed``'s rule:
    the ``max_iops_by_throughput`` entry at or below it, never above ``max_iops``; None: no ceiling published)."""
    table = sorted((float(k), v) for k, v in record.max_iops_by_throughput.items())
    if not table:
        return record.max_iops
    below = [v for k, v in table if k <= mbps]
    ceiling = below[-1] if below else table[0][1]
    return min(ceiling, record.max_iops) if record.max_iops else ceiling


def pool_volumes(record: ManagedService, size: float, volumes: int = 1) -> int:
    """How many volumes of one capacity pool ``record`` holds ``size`` bytes in: ``volumes`` (a MetroCluster's two
    sites), or more where the data is above that many volumes' ``max_capacity_bytes`` and the service puts several
    volumes in one capacity pool (Azure NetApp Files: regular volumes of at most 100 TiB, 500 to a pool), at most
    ``max_volumes_per_pool`` (review 57: 555 TiB on ANF read 'cannot hold the data', one 100 TiB volume)."""
    if record.max_volumes_per_pool <= 1 or record.throughput_options_mbps:
        return volumes
    need = math.ceil(size / record.max_capacity_bytes - 1e-9)
    return max(volumes, min(need, record.max_volumes_per_pool))


def largest_bytes(record: ManagedService) -> float:
    """The most ``record`` holds: one volume's ``max_capacity_bytes``, or where it puts several volumes in one
    capacity pool, the pool's (``max_pool_capacity_bytes``, at most ``max_volumes_per_pool`` full volumes)."""
    if record.max_volumes_per_pool <= 1 or record.throughput_options_mbps:
        return float(record.max_capacity_bytes)
    pool = float(record.max_capacity_bytes) * record.max_volumes_per_pool
    return min(pool, float(record.max_pool_capacity_bytes)) if record.max_pool_capacity_bytes else pool


def _largest_words(record: ManagedService) -> str:
    most = largest_bytes(record) / TIB
    if most > record.max_capacity_bytes / TIB:
        return f"its largest capacity pool's {most:,.0f} TiB"
    return f"its largest {most:,.0f} TiB"


def _perf_size(record: ManagedService, size: float, iops: float, mbps: float,
               volumes: int = 1) -> tuple[float, float, list[str], bool]:
    """(capacity bytes, throughput capacity MB/s, shortfalls, whether the data alone is above the largest size) of
    ``record`` provisioned to hold ``size`` bytes and
    carry ``iops`` and ``mbps``: a size-based service (``throughput_mibps_per_tib``) is grown until its throughput
    carries ``mbps``; a service that includes IOPS per GiB (``iops_per_gib``) until they carry ``iops`` (the
    provider may sell extra IOPS on their own instead: growing the capacity is the dearer, published way); a
    service that sells throughput capacity takes the smallest option that carries ``mbps`` and whose IOPS ceiling
    carries ``iops``. What no size of the service carries (above ``max_throughput_mbps``, the IOPS ceiling or the
    largest capacity) is a shortfall; the size is then the largest that helps. ``volumes``: the I/O is split evenly
    over that many volumes of one capacity pool (a MetroCluster's two sites' workloads: one volume each), so a
    size-based service's per-volume throughput cap (``max_throughput_mbps``) holds each volume's share. Data above
    one volume's size is held in several volumes of one capacity pool where the service allows it
    (:func:`pool_volumes`), the I/O split evenly over them; only data above the pool's largest size
    (:func:`largest_bytes`) cannot be held."""
    volumes = pool_volumes(record, size, volumes)
    short: list[str] = []
    tib = size / TIB
    chosen = 0.0
    if record.throughput_options_mbps:
        options = sorted(record.throughput_options_mbps)
        fits = [o for o in options if min(o, record.max_throughput_mbps) >= mbps
                and ((cap := _iops_cap(record, o)) is None or cap >= iops)]
        chosen = fits[0] if fits else options[-1]
        if not fits:
            cap = _iops_cap(record, chosen)
            if mbps > min(chosen, record.max_throughput_mbps):
                short.append(f"{mbps:,.0f} MB/s is above its largest throughput capacity "
                             f"({min(chosen, record.max_throughput_mbps):,.0f} MB/s)")
            if cap is not None and iops > cap:
                short.append(f"{iops:,.0f} IOPS is above its ceiling of {cap:,.0f}")
    elif record.throughput_mibps_per_tib > 0:
        need_mbps = min(mbps, record.max_throughput_mbps * volumes)
        grow: float = math.ceil(need_mbps * 1e6 / 2**20 / record.throughput_mibps_per_tib)
        if record.max_volumes_per_pool > 1:  # each volume's cap is its largest quota's throughput (MB/s rounded up)
            grow = min(grow, volumes * record.max_capacity_bytes / TIB)
        tib = max(tib, grow)
        if mbps > record.max_throughput_mbps * volumes:
            short.append(f"{mbps:,.0f} MB/s is above its cap of {record.max_throughput_mbps:,.0f} MB/s"
                         + (f" a volume ({volumes} volumes)" if volumes > 1 else ""))
    if record.iops_per_gib > 0:
        cap = _iops_cap(record, chosen) if record.throughput_options_mbps else record.max_iops
        need = min(iops, cap) if cap is not None else iops
        tib = max(tib, math.ceil(need / record.iops_per_gib / 1024.0))
        if cap is not None and iops > cap and not record.throughput_options_mbps:
            short.append(f"{iops:,.0f} IOPS is above its ceiling of {cap:,.0f}")
    most = largest_bytes(record) / TIB
    data_short = size / TIB > most
    if data_short:  # the data itself, whatever its I/O (review 57: it read "cannot carry the I/O")
        short.append(f"holding the data needs {size / TIB:,.0f} TiB, above {_largest_words(record)}")
        tib = most
    elif tib > most:
        short.append(f"carrying the I/O needs {tib:,.0f} TiB, above {_largest_words(record)}")
        tib = most
    return tib * TIB, chosen, short, data_short


def managed_option(record: ManagedService, data: Sequence[float], provisioned_bytes: int, throughput_mbps: float,
                   book: dict[str, PriceRow], name: str = "", demand: Demand | None = None,
                   volumes: int = 1) -> OptionCost:
    """The monthly cost of ``record`` holding ``data`` (bytes at the end of months 0..horizon): each month
    provisions the larger of that month's data and ``provisioned_bytes``, rounded up to whole TiB, at least the
    service's minimum, priced per GiB-month; FSx adds its throughput capacity (``throughput_mbps``, or the service's
    smallest option) per MBps-month. With ``demand`` (the workloads' I/O, :func:`demand_by_month`) each month is
    also sized to carry that month's IOPS and MB/s as the service publishes its limits (:func:`_perf_size`); what
    it cannot carry is the option's ``shortfall``; ``volumes``: the I/O is split over that many volumes of one
    capacity pool (:func:`_perf_size`)."""
    horizon = len(data) - 1
    per_tib = _book_monthly(book, record.id, horizon)  # the book prices a managed service per TiB over the horizon
    prices = MANAGED_PRICES.get(record.id, ())
    capacity_price = next((p for p in prices if p.per == "GiB-month"), None)
    sizes = [max(math.ceil(max(d, provisioned_bytes) / TIB) * TIB, record.min_capacity_bytes) for d in data[1:]]
    default_mbps = throughput_mbps or (min(record.throughput_options_mbps) if record.throughput_options_mbps else 0.0)
    mbps_by_month = [default_mbps for _ in sizes]
    shortfall: list[str] = []
    short_from: int | None = None
    data_short = False
    grown = ""
    if demand is not None:
        for m, size in enumerate(sizes):
            new_size, chosen, short, data_over = _perf_size(record, float(size), demand.iops[m + 1],
                                                            demand.mbps[m + 1], volumes)
            if new_size > size:
                grown = " (grown to carry the workloads' I/O)"
            sizes[m] = int(max(size, new_size))
            if record.throughput_options_mbps:
                mbps_by_month[m] = max(chosen, throughput_mbps)
            if short and not shortfall:
                shortfall.append(f"from month {m + 1}: " + "; ".join(short))
                short_from = m + 1
                data_short = data_over
    lines: list[CostLine] = []
    missing: list[str] = []
    low_tib, high_tib = min(sizes, default=0) / TIB, max(sizes, default=0) / TIB
    grown += (f", {low_tib:,.0f} TiB" if low_tib == high_tib else f", {low_tib:,.0f} to {high_tib:,.0f} TiB")
    counts = [pool_volumes(record, float(s), volumes) for s in sizes]
    low_n, high_n = min(counts, default=volumes), max(counts, default=volumes)
    if high_n > volumes:  # data above one volume: several regular volumes of one pool (review 57)
        one = record.max_capacity_bytes / TIB
        grown += ((" for both sites' data" if volumes > 1 else "")
                  + (f", {low_n:,}" if low_n == high_n else f", {low_n:,} to {high_n:,}")
                  + f" regular volumes in one capacity pool: the data is above one volume's {one:,.0f} TiB")
    elif volumes > 1 and not record.throughput_options_mbps:
        grown += f" for both sites' data, {volumes} volumes (one per site's workloads) in one capacity pool"
    elif volumes > 1:
        grown += " for both sites' data"
    if per_tib is not None:
        lines.append(CostLine("Capacity", 0.0, tuple(s / TIB * per_tib for s in sizes),
                              "provisioned TiB a month x the price book's price per TiB over the horizon / months"
                              + grown))
    elif capacity_price is not None:
        lines.append(CostLine("Capacity", 0.0, tuple(s / GIB * capacity_price.price for s in sizes),
                              f"provisioned GiB a month{grown} x {capacity_price.text()}"))
    else:
        missing.append(f"capacity price of {record.name}")
        lines.append(CostLine("Capacity", 0.0, tuple(0.0 for _ in sizes), "no price"))
    throughput_price = next((p for p in prices if p.per == "MBps-month"), None)
    if throughput_price is not None and per_tib is None:
        low, high = min(mbps_by_month, default=0.0), max(mbps_by_month, default=0.0)
        shown = f"{low:,.0f} MBps" if low == high else f"{low:,.0f} to {high:,.0f} MBps as the I/O grows"
        lines.append(CostLine("Throughput", 0.0, tuple(v * throughput_price.price for v in mbps_by_month),
                              f"{shown} x {throughput_price.text()}"))
    return OptionCost(name or record.name, "cloud", tuple(lines), not missing, tuple(missing), record.id,
                      tuple(shortfall), short_from, data_short,
                      (float(max(sizes, default=0)), float(max(mbps_by_month, default=0.0))))


def _price_text(price: CloudPrice | None) -> str:
    return price.text() if price is not None else "no price"


class PricedNode(NamedTuple):
    """What a published cloud price reads of a storage node (the fields of a ``CloudVmNode`` or a
    ``ManagedServiceNode``; another kind is not priced): the sizer prices thousands of designs it has not built,
    and a node object per design (``model_construct``, its field defaults) was 0.05 s of the 0.22 s their prices
    took in the Cloud Volumes ONTAP DS14 HA example's search (stop 55; 0.02 s read from the design's fields).
    :meth:`of` reads a built node."""

    kind: str
    catalog_id: str
    licence: str = ""
    ha: bool = False
    disk: str = ""
    disk_count: int = 1
    provisioned_bytes: int = 0
    throughput_mbps: float = 0.0

    @classmethod
    def of(cls, node: "Node | PricedNode") -> "PricedNode":
        """``node``'s priced fields (a :class:`PricedNode` as it is)."""
        if isinstance(node, PricedNode):
            return node
        if node.kind == "cloud_vm":
            return cls(node.kind, node.catalog_id, licence=node.licence, ha=node.ha, disk=node.disk,
                       disk_count=node.disk_count)
        if node.kind == "managed_service":
            return cls(node.kind, node.catalog_id, provisioned_bytes=node.provisioned_bytes,
                       throughput_mbps=node.throughput_mbps)
        return cls(node.kind, node.catalog_id)


class _Month(NamedTuple):
    """One part of a Cloud Volumes ONTAP node's cost a month (:func:`_cloud_vm_lines`, :class:`PublishedCloudPrices`):
    ``value`` (None: no price), ``price`` the published price it is made of (None: the price book's), and for the
    compute the VM's vCPUs."""

    value: float | None
    price: CloudPrice | None = None
    vcpu: int = 0


def _compute_month(catalog: Catalog, vm_id: str, per: int, book: dict[str, PriceRow], horizon: int) -> _Month:
    """A month's compute of ``per`` VMs of record ``vm_id`` (an HA pair: 2): the price book's price over the
    horizon / months, else the vCPUs x 730 h x the provider's vCPU price."""
    own = _book_monthly(book, vm_id, horizon)
    if own is not None:
        return _Month(own * per)
    vm = catalog.find(vm_id)
    if isinstance(vm, CloudVm) and vm.provider in VCPU_PRICES:
        p = VCPU_PRICES[vm.provider]
        return _Month(per * vm.vcpu * p.price * HOURS_PER_MONTH, p, vm.vcpu)
    return _Month(None)


def _disk_month(disk: CloudDisk, disk_id: str, book: dict[str, PriceRow], horizon: int) -> _Month:
    """A month of one data disk of ``disk`` (catalog id ``disk_id``): the price book's price over the horizon /
    months, else its size in GiB x its tier's price per GiB-month."""
    own = _book_monthly(book, disk_id, horizon)
    if own is not None:
        return _Month(own)
    price = DISK_PRICES.get((disk.provider, disk.tier))
    return _Month(disk.size_bytes / GIB * price.price if price is not None else None, price)


def _licence_month(lic: Licence, lic_id: str, per: int, book: dict[str, PriceRow], horizon: int) -> _Month:
    """A month of licence ``lic`` (catalog id ``lic_id``) for ``per`` nodes: the price book's price over the horizon
    / months (as booked, per system), else per node-hour x 730 h."""
    own = _book_monthly(book, lic_id, horizon)
    if own is not None:
        return _Month(own)
    lp = LICENCE_PRICES.get(lic.id)
    return _Month(per * lp.price * HOURS_PER_MONTH if lp is not None else None, lp)


def _disk_counts(own: int, data: Sequence[float], share: float, size_bytes: int) -> list[int]:
    """A node's data disks in months 1..horizon: its own count, more as its ``share`` of ``data`` outgrows them."""
    return [max(own, math.ceil(d * share / size_bytes)) for d in data[1:]]


def _line_values(parts: Sequence[Sequence[float]], horizon: int) -> tuple[float, ...]:
    """A cost line's months: its nodes' parts (each one value a month) added month by month in node order."""
    values = [0.0] * horizon
    for part in parts:
        for m in range(horizon):
            values[m] += part[m]
    return tuple(values)


def _cloud_vm_lines(scenario: Scenario, catalog: Catalog, data: Sequence[float],
                    book: dict[str, PriceRow], missing: list[str], destinations: bool = False) -> list[CostLine]:
    """The monthly compute, disk and licence lines of the scenario's Cloud Volumes ONTAP systems. A system's disks
    grow with ``data`` (its share of it), or, with ``destinations`` and the system a replication destination, with
    the copies it holds: each month the disks its free capacity needs for the copies grown to that month
    (``models.replication.sizing.destination_disks_by_month``: the reduction replication keeps and the reserve
    counted, the count the sizer proposes at the horizon). The numbers are :class:`PublishedCloudPrices`' (the same
    parts: :func:`_compute_month`, :func:`_disk_month`, :func:`_licence_month`, :func:`_disk_counts`,
    :func:`_line_values`)."""
    horizon = len(data) - 1
    parts: dict[str, list[Sequence[float]]] = {"Compute": [], "Disks": [], "Licence": []}
    bases: dict[str, list[str]] = {"Compute": [], "Disks": [], "Licence": []}
    vms = [n for n in scenario.nodes if n.kind == "cloud_vm"]
    share = 1.0 / len(vms) if vms else 0.0
    for node in vms:
        per = 2 if node.ha else 1
        disk, lic = catalog.find(node.disk), catalog.find(node.licence)
        compute = _compute_month(catalog, node.catalog_id, per, book, horizon)
        if compute.value is None:
            missing.append(f"compute price of {node.catalog_id}")
        elif compute.price is None:
            bases["Compute"].append(f"{per} x {node.catalog_id}: the price book's price over the horizon / months")
        else:
            bases["Compute"].append(f"{per} x {compute.vcpu} vCPU x 730 h x {compute.price.text()}")
        parts["Compute"].append([compute.value or 0.0] * horizon)
        if isinstance(disk, CloudDisk):
            month = _disk_month(disk, node.disk, book, horizon)
            own = month.value is not None and month.price is None
            if month.value is None:
                missing.append(f"disk price of {disk.name}")
            copies = None
            counts: Sequence[int]
            if destinations:  # a destination needs its relationships
                from models.replication.sizing import destination_disks_by_month

                copies = destination_disks_by_month(scenario, catalog, node.id, horizon)
            price_words = f"{disk.name} x {'the price book' if own else _price_text(month.price)}"
            if copies is not None:
                counts, held = copies
                bases["Disks"].append(_copies_words(node.disk_count, counts, held, per) + f"; {price_words}")
            else:
                counts = _disk_counts(node.disk_count, data, share, disk.size_bytes)
                bases["Disks"].append(f"{price_words}; more disks as the data outgrows them")
            unit = month.value or 0.0
            nv_unit, nv_words = _nvram_month(catalog, node.catalog_id, book, horizon, missing)
            if nv_words:
                bases["Disks"][-1] += f"; NVRAM disk: {per} x {nv_words}"
            parts["Disks"].append([per * count * unit + per * nv_unit for count in counts[:horizon]])
        if isinstance(lic, Licence):
            month = _licence_month(lic, node.licence, per, book, horizon)
            if month.value is None:
                missing.append(f"licence price of {lic.name}")
            booked = month.value is not None and month.price is None
            bases["Licence"].append(f"{lic.name}: {'the price book' if booked else _price_text(month.price)}")
            parts["Licence"].append([month.value or 0.0] * horizon)
    if vms:
        missing.append(BOOT_ROOT_WORDS)
    return [CostLine(name, 0.0, _line_values(parts[name], horizon), "; ".join(bases[name]))
            for name in ("Compute", "Disks", "Licence") if bases[name]]


BOOT_ROOT_WORDS = "the Cloud Volumes ONTAP VMs' boot and root disks (not in the catalog)"
"""What a Cloud Volumes ONTAP system's cost does not count, in words: its VMs' boot and root disks, which NetApp's
default configuration adds and the catalog has no record of (so no price)."""


def _nvram_month(catalog: Catalog, vm_id: str, book: dict[str, PriceRow], horizon: int,
                 missing: list[str] | None = None) -> tuple[float, str]:
    """(a month of the NVRAM disk of one VM of record ``vm_id``, its words ``Azure Premium SSD P40 (...) x 0.132 USD
    per GiB-month (...)``): the disk the VM's record names (``nvram_disk``, the parts list's "NVRAM disk" line),
    priced as a data disk (:func:`_disk_month`); (0, "") when the record names none. An NVRAM disk without a price
    counts 0 and is added to ``missing``."""
    vm = catalog.find(vm_id)
    nv = catalog.find(vm.nvram_disk) if isinstance(vm, CloudVm) and vm.nvram_disk else None
    if not isinstance(nv, CloudDisk) or not isinstance(vm, CloudVm) or not vm.nvram_disk:
        return 0.0, ""
    month = _disk_month(nv, vm.nvram_disk, book, horizon)
    if month.value is None and missing is not None:
        missing.append(f"disk price of the NVRAM disk {nv.name}")
    price = "the price book" if month.value is not None and month.price is None else _price_text(month.price)
    return (month.value if month.value is not None else math.nan if missing is None else 0.0), f"{nv.name} x {price}"


def _copies_words(own: int, counts: Sequence[int], held: bool, per: int) -> str:
    """How a replication destination's disks are counted, in words (:func:`_cloud_vm_lines`)."""
    node = " per node" if per > 1 else ""
    if not counts or counts[-1] == own:
        words = f"{own} data disks{node} (the design's), which hold the DR copies over the horizon"
    else:
        first = next(m for m, c in enumerate(counts, start=1) if c > own)
        words = (f"{own} data disks{node} (the design's) to month {first - 1}, then as many as hold the DR copies "
                 f"grown to each month (their needed capacity: the data with the reduction replication keeps, "
                 f"the retained change and the transfer held, in the destination's free capacity), "
                 f"{counts[-1]} by month {len(counts)}")
    return words + ("" if held else "; the VM takes no more disks and the copies outgrow them")


def design_cost(scenario: Scenario, catalog: Catalog, project: Project, inputs: RunningInputs,
                data: Sequence[float], power_w: float, rack_units: int, costing: Costing | None | bool = True,
                name: str = "") -> OptionCost:
    """The design's own cost over the horizon (see the module's rules).

    Args:
        scenario, catalog, project: the design, its catalog and the project (price book, requirements); inputs:
        :func:`~models.costing.inputs.running_inputs`; data: :func:`data_by_month`; power_w, rack_units: the
        design's typical power (W) and height (an on-premises design's running cost); costing: the design's price
        by the book when the caller has it (``models.pricing.cost``; None: no book), True: priced here; name: the
        option's name (default "This design (<scenario>)").
    """
    horizon = inputs.horizon_months
    book = {row.catalog_id: row for row in project.price_book}
    name = name or f"This design ({scenario.name})"
    missing: list[str] = []
    deployment = design_deployment(scenario)
    if deployment == "on-prem":
        cloud_nodes = [n for n in scenario.nodes if n.kind in CLOUD_KINDS]
        if costing is True or costing is False:  # the cloud nodes are paid by the month (below), not bought
            on_prem = scenario.model_copy(update={"nodes": [n for n in scenario.nodes if n.kind not in CLOUD_KINDS]})
            costing = cost(on_prem, catalog, project.price_book)
        hardware = costing.total if costing is not None else 0.0
        if costing is None:
            missing.append("hardware (no price book)")
        elif costing.unpriced:  # a customer reads it: product names, never catalog ids (review 56)
            missing.append(f"hardware the price book does not price: "
                           f"{', '.join(unpriced_names(catalog, costing.unpriced))}")
        ru = rack_units
        both = ", both MetroCluster sites" if is_metrocluster(scenario) else ""  # models.project.metrocluster
        support, power, space = monthly_running(power_w, ru, hardware, inputs)
        pct, price = inputs.support_pct_per_year.value, inputs.electricity_price_per_kwh.value
        currency = project_currency(project)  # the running-cost prices' currency, as the inputs table names it
        lines: tuple[CostLine, ...] = (CostLine("Hardware", hardware, tuple(0.0 for _ in range(horizon)),
                          ("the price book's prices of the design's parts"
                           + (f" (a controller's internal drive bays {IN_CONTROLLER_PRICE})"
                              if costing.in_controller else "")) if costing is not None else "not priced"),
                 CostLine("Support", 0.0, tuple(support for _ in range(horizon)),
                          f"{pct:g}% of the hardware a year / 12"),
                 CostLine("Power", 0.0, tuple(power for _ in range(horizon)),
                          f"{power_w:,.0f} W{both} x 730 h x PUE {inputs.pue.value:g} x {price:g} {currency}/kWh"),
                 CostLine("Space", 0.0, tuple(space for _ in range(horizon)),
                          f"{ru} U{both} x {inputs.rack_unit_cost_per_month.value:g} {currency} a month"))
        if cloud_nodes:  # e.g. a Cloud Volumes ONTAP DR destination: the cloud options' price lines
            lines += tuple(_cloud_vm_lines(scenario, catalog, data, book, missing, destinations=True))
            lines += _managed_lines([PricedNode.of(n) for n in cloud_nodes], catalog, data, book, missing)
        return OptionCost(name, deployment, lines, not missing, tuple(missing))
    lines_list = list(_managed_lines([PricedNode.of(n) for n in scenario.nodes], catalog, data, book, missing))
    lines_list.extend(_cloud_vm_lines(scenario, catalog, data, book, missing))
    merged: dict[str, CostLine] = {}
    for line in lines_list:  # a managed service's and a VM's lines of one name: one line
        old = merged.get(line.name)
        merged[line.name] = line if old is None else CostLine(
            line.name, old.upfront + line.upfront, tuple(a + b for a, b in zip(old.monthly, line.monthly)),
            f"{old.basis}; {line.basis}")
    return OptionCost(name, deployment, tuple(merged.values()), not missing, tuple(missing))


def published_cloud_total(scenario: Scenario | Sequence[Node | PricedNode], catalog: Catalog,
                          data: Sequence[float], demand: Demand | None = None) -> float:
    """The total over the horizon of a cloud design's managed services and Cloud Volumes ONTAP systems at the
    providers' published prices (no price book: ``models.costing.cloud_prices``), as :func:`design_cost` prices the
    design itself on the Cost tab (``data``: :func:`data_by_month`); infinite when a part has no published price
    (an unknown price never ranks first). ``scenario``: the design, or its storage nodes alone (what is priced).
    The sizer ranks cloud designs on it (``models.sizing.ranking_rule``), many designs with one
    :class:`PublishedCloudPrices`. ``demand``: the workloads' I/O (:func:`demand_by_month`); with it a design of
    one managed service is priced as the cost comparison prices that service (:func:`managed_option` sized month
    by month to hold the data and carry the I/O) unless it provisions more than that option ever does (then at its
    own size as the least each month, :meth:`PublishedCloudPrices._option_total`), so the ranking and Cost and
    footprint give it one price (review 57: ANF Ultra ranked at 2 TiB for the whole horizon, 28,956 USD, after
    Standard, while the comparison priced it 26,543 USD, growing 1 to 2 TiB, before Standard's 27,180 USD)."""
    return PublishedCloudPrices(catalog, data, demand).total(
        scenario.nodes if isinstance(scenario, Scenario) else scenario)


class _Part(NamedTuple):
    """One node's part of a Cloud Volumes ONTAP cost line (:class:`PublishedCloudPrices`): whether it makes a line
    (a catalog disk or licence; the compute always), whether it is priced, its months and, alone on its line, that
    line's total."""

    line: bool
    priced: bool
    months: tuple[float, ...] = ()
    total: float = 0.0


class PublishedCloudPrices:
    """The published cloud totals (:func:`published_cloud_total`) of many designs over one catalog and one data
    series, the lines' words left unwritten and each part of a Cloud Volumes ONTAP system priced once: the sizer's
    designs share their parts (the CVO DS14 HA example's 6,644 Cloud Volumes ONTAP designs: 420 parts), and
    writing every design's lines took 0.16 s of its 0.27 s search (stop 55; 0.03 s by parts). The numbers are
    :func:`_cloud_vm_lines`' (its parts: :func:`_compute_month`, :func:`_disk_month`, :func:`_licence_month`,
    :func:`_disk_counts`, added by :func:`_line_values`) and a managed service's :func:`_managed_lines`', so the
    sizer's and the Cost tab's totals are one figure."""

    def __init__(self, catalog: Catalog, data: Sequence[float], demand: Demand | None = None) -> None:
        self._catalog, self._data, self._horizon = catalog, tuple(data), len(data) - 1
        self._demand = demand  # with it a lone managed service is priced as the cost comparison's option
        self._options: dict[tuple[str, int, float], float] = {}
        self._parts: dict[tuple, _Part] = {}
        self._nvram_ids: dict[str, str | None] = {}

    def total(self, nodes: Sequence[Node | PricedNode]) -> float:
        """The design of storage ``nodes``' total over the horizon (other kinds read nothing); infinite when a part
        has no published price."""
        if len(nodes) == 1 and nodes[0].kind == "cloud_vm":  # one system (the sizer's designs): its lines' totals
            vm = PricedNode.of(nodes[0])
            total: float = 0  # added in the lines' order, as sum() adds them below
            for part in (self._compute(vm), self._disks(vm, 1.0), self._licence(vm)):
                if not part.priced:
                    return math.inf
                if part.line:
                    total += part.total
            return float(total)
        if self._demand is not None and len(nodes) == 1 and nodes[0].kind == "managed_service":
            return self._option_total(PricedNode.of(nodes[0]))
        priced = [PricedNode.of(n) for n in nodes]
        missing: list[str] = []
        totals = [line.total for line in _managed_lines(priced, self._catalog, self._data, {}, missing)]
        vms = [n for n in priced if n.kind == "cloud_vm"]
        share = 1.0 / len(vms) if vms else 0.0
        by_line = [[self._compute(n) for n in vms], [self._disks(n, share) for n in vms],
                   [self._licence(n) for n in vms]]
        for parts in by_line:
            if any(not p.priced for p in parts):
                return math.inf
            parts = [p for p in parts if p.line]
            if len(parts) == 1:
                totals.append(parts[0].total)
            elif parts:
                totals.append(_line_total([p.months for p in parts], self._horizon))
        return math.inf if missing or not totals else float(sum(totals))

    def _option_total(self, node: PricedNode) -> float:
        """A design of one managed service ``node`` priced as the cost comparison prices its service
        (:func:`cloud_options`' option: sized month by month to the data and the demand, no price book) when its
        provisioned size and throughput capacity are no more than that option's largest; a larger one is priced at
        its own size as the least each month (it costs more: the ranking's smaller variant first). Infinite when not
        priced."""
        key = (node.catalog_id, node.provisioned_bytes, node.throughput_mbps)
        if key not in self._options:
            rec = self._catalog.find(node.catalog_id)
            if not isinstance(rec, ManagedService):
                self._options[key] = math.inf
                return math.inf
            option = managed_option(rec, self._data, 0, 0.0, {}, demand=self._demand)
            if node.provisioned_bytes > option.peak[0] or node.throughput_mbps > option.peak[1]:
                option = managed_option(rec, self._data, node.provisioned_bytes, node.throughput_mbps, {},
                                        demand=self._demand)
            self._options[key] = option.total if option.complete else math.inf
        return self._options[key]

    def _part(self, key: tuple, months: Sequence[float] | None, line: bool = True) -> _Part:
        """The part of ``key`` (its ``months``; None: no price), kept."""
        part = (_Part(False, True) if not line else _Part(True, False) if months is None
                else _Part(True, True, tuple(months), _line_total([months], self._horizon)))
        self._parts[key] = part
        return part

    def _compute(self, node: PricedNode) -> _Part:
        per = 2 if node.ha else 1
        key = ("compute", node.catalog_id, per)
        part = self._parts.get(key)
        if part is None:
            value = _compute_month(self._catalog, node.catalog_id, per, {}, self._horizon).value
            part = self._part(key, None if value is None else [value] * self._horizon)
        return part

    def _nvram_id(self, vm_id: str) -> str | None:
        """The NVRAM disk record VM ``vm_id`` names (None: none), looked up once per VM: the disks part depends on
        the VM only through it, so the VMs that name one NVRAM disk share their disks parts."""
        if vm_id not in self._nvram_ids:
            vm = self._catalog.find(vm_id)
            self._nvram_ids[vm_id] = vm.nvram_disk if isinstance(vm, CloudVm) else None
        return self._nvram_ids[vm_id]

    def _disks(self, node: PricedNode, share: float) -> _Part:
        per = 2 if node.ha else 1
        key = ("disks", self._nvram_id(node.catalog_id), node.disk, node.disk_count, share, per)
        part = self._parts.get(key)
        if part is None:
            disk = self._catalog.find(node.disk)
            if not isinstance(disk, CloudDisk):
                return self._part(key, None, line=False)
            unit = _disk_month(disk, node.disk, {}, self._horizon).value
            nv_unit = _nvram_month(self._catalog, node.catalog_id, {}, self._horizon)[0]
            counts = _disk_counts(node.disk_count, self._data, share, disk.size_bytes)
            part = self._part(key, None if unit is None or math.isnan(nv_unit)
                              else [per * count * unit + per * nv_unit for count in counts])
        return part

    def _licence(self, node: PricedNode) -> _Part:
        per = 2 if node.ha else 1
        key = ("licence", node.licence, per)
        part = self._parts.get(key)
        if part is None:
            lic = self._catalog.find(node.licence)
            if not isinstance(lic, Licence):
                return self._part(key, None, line=False)
            value = _licence_month(lic, node.licence, per, {}, self._horizon).value
            part = self._part(key, None if value is None else [value] * self._horizon)
        return part


def _line_total(parts: Sequence[Sequence[float]], horizon: int) -> float:
    """The total of the cost line of ``parts`` (:func:`_line_values`), as its :class:`CostLine` adds it."""
    return CostLine("", 0.0, _line_values(parts, horizon), "").total


def _managed_lines(nodes: Sequence[PricedNode], catalog: Catalog, data: Sequence[float],
                   book: dict[str, PriceRow], missing: list[str]) -> tuple[CostLine, ...]:
    """The monthly lines of the managed services among ``nodes`` (:func:`managed_option` at each node's
    provisioned size and throughput), two services' lines of one name merged; what is not priced is added to
    ``missing``."""
    merged: dict[str, CostLine] = {}
    for node in nodes:
        if node.kind != "managed_service":
            continue
        rec = catalog.find(node.catalog_id)
        if not isinstance(rec, ManagedService):
            missing.append(f"{node.catalog_id} (not in the catalog)")
            continue
        option = managed_option(rec, data, node.provisioned_bytes, node.throughput_mbps, book)
        missing.extend(option.missing)
        for line in option.lines:
            old = merged.get(line.name)
            merged[line.name] = line if old is None else CostLine(
                line.name, old.upfront + line.upfront, tuple(a + b for a, b in zip(old.monthly, line.monthly)),
                f"{old.basis}; {line.basis}")
    return tuple(merged.values())


def _with_unknown_power(design: OptionCost, energy: Energy) -> OptionCost:
    """``design`` with its Power line saying which parts' power it does not count (``energy.power_not_counted``)
    and its Space line which parts' height (``energy.heights_not_counted``: its rack units "at least"), those parts
    named in ``missing`` (the total is then a lower bound, never a 0 W figure read as a measured one; a height is
    never a power term, r2 review #3)."""
    power, heights = energy.power_not_counted, energy.heights_not_counted

    def said(line: CostLine) -> CostLine:
        if line.name == "Power" and power:
            return CostLine(line.name, line.upfront, line.monthly,
                            (line.basis + "; not counting " if energy.power_known else "not known, not counted: ")
                            + ", ".join(power))
        if line.name == "Space" and heights:
            return CostLine(line.name, line.upfront, line.monthly,
                            f"at least {line.basis}; not counting the " + ", the ".join(heights))
        return line

    power_of = tuple(x if x.startswith(("power of ", "the ")) else f"power of {x}"  # not the part itself
                     for x in power)
    return dc_replace(design, lines=tuple(said(line) for line in design.lines), complete=False,
                      missing=design.missing + power_of + heights)


def _same_service_notes(scenario: Scenario, options: Sequence[OptionCost], data: Sequence[float]) -> list[str]:
    """Why the design's own managed service costs what it does beside the option of the same service: the design
    pays for what it provisions, the option is sized to the data and the I/O (one sentence per such service)."""
    out: list[str] = []
    by_id = {o.catalog_id: o for o in options if o.catalog_id}
    for node in scenario.nodes:
        option = by_id.get(node.catalog_id) if isinstance(node, ManagedServiceNode) else None
        if option is None or not isinstance(node, ManagedServiceNode) or not data:
            continue
        first = max(node.provisioned_bytes, math.ceil(data[1 if len(data) > 1 else 0] / TIB) * TIB) / TIB
        out.append(f"the design pays for the {first:,.0f} TiB it provisions of {option.name} (more as the data "
                   f"outgrows it); the option of the same service in the table is sized to the data and the "
                   f"workloads' I/O alone, so the two totals differ")
    return out


def break_even_month(design: Sequence[float], option: Sequence[float]) -> int | None:
    """The first month (0..horizon) at which the cumulative cost ``design`` is no more than ``option``'s, or None
    when it never is within the horizon (both: cumulative costs at the end of months 0..horizon)."""
    for month, (mine, theirs) in enumerate(zip(design, option)):
        if mine <= theirs:
            return month
    return None


def break_even_hardware_price(running_total: float, option_total: float, horizon_months: int,
                               support_pct_per_year: float) -> float | None:
    """The hardware price H at which an on-premises design costs the same as an option over the horizon: H plus
    support (H x ``support_pct_per_year`` / 100 / 12 a month) plus the design's power and space
    (``running_total`` over the horizon) equals ``option_total``, so H = (option_total - running_total) / (1 +
    horizon x support % / 1,200). None when the power and space alone cost more than the option (no price breaks
    even). Currency: the totals'."""
    spare = option_total - running_total
    if spare <= 0:
        return None
    return spare / (1.0 + horizon_months * support_pct_per_year / 1200.0)


BLOCK_PROTOCOLS = ("FCP", "NVMe/FC", "iSCSI", "NVMe/TCP")
"""Block front-end protocols: a block workload moves to a cloud service's block protocol (no public cloud offers
Fibre Channel: an FCP or NVMe/FC workload runs over the service's iSCSI or NVMe/TCP there)."""


BLOCK = "block storage"
"""The protocol of a block workload (no ``nas``) whose front-end protocol the design does not tell (no host links
it, as on a Cloud Volumes ONTAP design, and the requirements name no block protocol): any block protocol serves it."""


def workload_protocols(scenario: Scenario, catalog: Catalog, required: Sequence[str] = ()) -> tuple[str, ...]:
    """The front-end protocols ``scenario``'s workloads run over, each once in workload order: a workload's link
    protocol (``models.topology.protocol_of``); else a file workload's (``nas``) NFS or SMB; else a block
    workload's: ``required`` (``Requirements.protocols``) when it lists block protocols only, or :data:`BLOCK`. An
    HCI cluster's workloads ("vSAN": virtual machines' disks, which an NFS datastore can hold too), a managed
    service's (its own protocols) and a workload whose requirements allow a file protocol are left out; a
    workload over another protocol (SAS) counts as a block one."""
    from models.topology import protocol_of

    found: list[str] = []
    for workload in scenario.workloads:
        protocol = protocol_of(scenario, catalog, workload)
        target = scenario.node(workload.target)
        if protocol == "vSAN":
            continue
        if workload.nas is not None:
            names = [protocol or PROTOCOL_FAMILY[workload.nas.protocol]]
        elif protocol in BLOCK_PROTOCOLS:
            names = [protocol]
        elif isinstance(target, ManagedServiceNode) or any(p not in BLOCK_PROTOCOLS for p in required):
            continue  # over the managed service's own protocols, or the requirements allow a file protocol
        else:
            names = list(required) or [BLOCK]
        found += [p for p in names if p not in found]
    return tuple(found)


def unserved_protocols(record: ManagedService, protocols: Sequence[str]) -> tuple[str, ...]:
    """Of the workloads' ``protocols``, those ``record`` does not serve: a protocol not in its ``protocols``,
    except a block protocol where it serves a block protocol (:data:`BLOCK_PROTOCOLS`)."""
    block = any(p in BLOCK_PROTOCOLS for p in record.protocols)
    return tuple(p for p in protocols
                 if p not in record.protocols and not (block and (p in BLOCK_PROTOCOLS or p == BLOCK)))


def protocol_words(option: OptionCost) -> str:
    """"NFS/SMB only: no iSCSI": the words of an option that does not serve the workloads' protocols, "" when it
    serves them."""
    if not option.protocol_short:
        return ""
    return "/".join(option.serves) + " only: no " + ", ".join(option.protocol_short)


def unranked_words(scenario: Scenario, catalog: Catalog, required: Sequence[str] = ()) -> str:
    """Which managed services are never ranked as an alternative, and why, in one sentence (no final full stop):
    those that do not serve the workloads' protocols (:func:`unserved_protocols`), by service ("Azure NetApp Files
    and Google Cloud NetApp Volumes serve NFS and SMB only, not the workloads' iSCSI"); "" when every one serves
    them. The report's Recommendation says it beside a ranking by total cost, the Cost and footprint table marks
    their prices (review 57 #6: a cheaper service, unmentioned, read as a reason to doubt the ranking)."""
    protocols = workload_protocols(served_scenario(scenario), catalog, required)
    out: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {}
    for rec in catalog.of_kind(ManagedService):
        unserved = unserved_protocols(rec, protocols)
        if unserved:
            out.setdefault(rec.service or rec.name, (tuple(rec.protocols), unserved))
    if not out:
        return ""
    serves = {p for served, _ in out.values() for p in served}
    missing = ", ".join(dict.fromkeys(p for _, unserved in out.values() for p in unserved))
    names = list(out)
    who = names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]
    return (f"{who} {'serves' if len(names) == 1 else 'serve'} {' and '.join(sorted(serves))} only, not the "
            f"workloads' {missing}: not ranked, whatever {'its' if len(names) == 1 else 'their'} price (Cost and "
            "footprint lists " + ("it" if len(names) == 1 else "them") + ", marked so)")


def _without_protocol(option: OptionCost, record: ManagedService, unserved: tuple[str, ...]) -> OptionCost:
    why = (f"it serves {' and '.join(record.protocols)} only, not the workloads' {', '.join(unserved)}: "
           "no alternative to this design")
    return dc_replace(option, shortfall=(why, *option.shortfall), short_from_month=1, protocol_short=unserved,
                      serves=tuple(record.protocols))


def cloud_options(catalog: Catalog, data: Sequence[float], price_book: Sequence[PriceRow] = (),
                  demand: Demand | None = None, volumes: int = 1,
                  protocols: Sequence[str] = ()) -> tuple[OptionCost, ...]:
    """Every managed file service of ``catalog`` holding ``data`` (bytes at the end of months 0..horizon), priced
    by ``price_book`` where it prices the service, else by the reference list prices (:func:`managed_option`;
    with ``demand`` each is also sized to carry the workloads' I/O), and a single-node Cloud Volumes ONTAP system
    in each provider's cloud (:func:`cvo_option`, likewise). ``volumes``: a managed service's I/O split over that
    many volumes (:func:`managed_option`: 2 for a MetroCluster whose partner site runs its own workloads).
    ``protocols``: the workloads' front-end protocols (:func:`workload_protocols`); a managed service that does not
    serve one of them is marked (:func:`unserved_protocols`, ``OptionCost.protocol_short``) and falls short from
    month 1 (Cloud Volumes ONTAP serves iSCSI, NVMe/TCP, NFS and SMB: a block workload runs over its iSCSI)."""
    book = {row.catalog_id: row for row in price_book}
    managed = []
    for rec in catalog.of_kind(ManagedService):
        option = managed_option(rec, data, 0, 0.0, book, demand=demand, volumes=volumes)
        unserved = unserved_protocols(rec, protocols)
        managed.append(_without_protocol(option, rec, unserved) if unserved else option)
    cvo = (cvo_option(catalog, provider, data, price_book, demand) for provider in CVO_DISKS)
    return tuple(managed) + tuple(o for o in cvo if o is not None)


CVO_DISKS = {"Azure": "azure-premium-lrs-p30", "AWS": "aws-ebs-gp3-1tib", "GCP": "gcp-pd-ssd-1tib"}
"""The smallest data disk a Cloud Volumes ONTAP option of each provider is priced with, and its tier: the
provider's general-purpose SSD disk of 1 TiB (Azure Premium SSD P30, AWS EBS gp3, Google Cloud SSD persistent
disk)."""


def cvo_option(catalog: Catalog, provider: str, data: Sequence[float],
               price_book: Sequence[PriceRow] = (), demand: Demand | None = None) -> OptionCost | None:
    """A single-node Cloud Volumes ONTAP system in ``provider``'s cloud holding ``data`` (bytes at the end of
    months 0..horizon): the catalog VM of that provider with the fewest vCPUs offering a licence whose capacity cap
    holds the most data (Freemium left out), that licence (the cheapest such), and as many disks of the provider's
    general-purpose SSD tier (:data:`CVO_DISKS`: 1 TiB, or the smallest larger size of the tier that holds the most
    data within the VM's data disks) as the month's data needs (one at least). None when the catalog has no such VM
    or disk. Prices: the price book's where it prices a record (over the horizon, spread evenly), else
    :mod:`models.costing.cloud_prices`; the data outgrowing the VM's data disks is named in ``missing``.

    With ``demand`` (the workloads' I/O, :func:`demand_by_month`) the VM is the one with the fewest vCPUs whose
    published uncached disk limits (``max_uncached_disk_iops``, ``max_uncached_disk_mbps``) and network (Mbit/s / 8)
    carry the peak IOPS and MB/s, and each month takes enough disks for that month's IOPS and MB/s at each disk's
    published figures (``iops``, ``mbps``: a gp3 disk's baseline); what no catalog VM or disk count carries is the
    option's ``shortfall``. A bound from the published limits, not the sizer's queueing model."""
    base = catalog.find(CVO_DISKS.get(provider, ""))
    if not isinstance(base, CloudDisk):
        return None
    most = max(data, default=0.0)
    fits: list[tuple[float, int, str, CloudVm, Licence]] = []
    for vm in catalog.of_kind(CloudVm):
        if vm.provider != provider:
            continue
        for lid in vm.licences:
            lic = catalog.find(lid)
            if isinstance(lic, Licence) and lid != "cvo-freemium" and lic.capacity_cap_bytes >= most:
                price = LICENCE_PRICES.get(lid)
                fits.append((vm.vcpu, int(price.price * 100) if price else 10**9, vm.id, vm, lic))
    if not fits:
        return None
    shortfall: list[str] = []
    short_from: int | None = None
    horizon = len(data) - 1
    if demand is not None:
        def carried(v: CloudVm) -> int:
            """The months 1..horizon the VM's published limits carry the demand, from the start."""
            return next((m for m in range(1, horizon + 1) if demand.iops[m] > v.max_uncached_disk_iops
                         or demand.mbps[m] > min(v.max_uncached_disk_mbps, v.network_mbps / 8.0)), horizon + 1) - 1
        months = {f[3].id: carried(f[3]) for f in fits}
        longest = max(months.values())
        fits = [f for f in fits if months[f[3].id] == longest]
        if longest < horizon:  # none carries it throughout: the most capable of those that carry it longest
            peak_iops, peak_mbps = max(demand.iops), max(demand.mbps)

            def reach(v: CloudVm) -> float:
                """The share of the peak demand the VM's tighter disk limit carries."""
                return min(v.max_uncached_disk_iops / max(peak_iops, 1.0),
                           min(v.max_uncached_disk_mbps, v.network_mbps / 8.0) / max(peak_mbps, 1e-9))
            best = max(reach(f[3]) for f in fits)
            fits = [f for f in fits if reach(f[3]) == best]
            vm0 = min(fits, key=lambda f: f[:3])[3]
            short_from = longest + 1
            shortfall.append(f"from month {short_from}: {demand.iops[short_from]:,.0f} IOPS and "
                             f"{demand.mbps[short_from]:,.0f} MB/s are above the disk limits of the largest VM "
                             f"({vm0.vm_size}: {vm0.max_uncached_disk_iops:,.0f} IOPS, "
                             f"{vm0.max_uncached_disk_mbps:,.0f} MB/s)")
    _, _, _, vm, lic = min(fits, key=lambda f: f[:3])
    sizes = sorted((d for d in catalog.of_kind(CloudDisk) if d.provider == provider and d.tier == base.tier
                    and d.data_disk and (not d.vms or vm.id in d.vms)), key=lambda d: (d.size_bytes, len(d.id)))
    disk = next((d for d in sizes if d.size_bytes >= base.size_bytes
                 and math.ceil(most / d.size_bytes) <= vm.max_data_disks), sizes[-1] if sizes else base)
    horizon = len(data) - 1
    book = {row.catalog_id: row for row in price_book}
    missing: list[str] = []
    node_month = _book_monthly(book, vm.id, horizon)
    vcpu = VCPU_PRICES.get(provider)
    compute = node_month if node_month is not None else vm.vcpu * vcpu.price * HOURS_PER_MONTH if vcpu else 0.0
    disk_month = _book_monthly(book, disk.id, horizon)
    disk_price = DISK_PRICES.get((provider, disk.tier))
    per_disk = disk_month if disk_month is not None else (
        disk.size_bytes / GIB * disk_price.price if disk_price is not None else 0.0)
    lic_month = _book_monthly(book, lic.id, horizon)
    lic_price = LICENCE_PRICES.get(lic.id)
    licence = lic_month if lic_month is not None else lic_price.price * HOURS_PER_MONTH if lic_price else 0.0
    nv_unit, nv_words = _nvram_month(catalog, vm.id, book, horizon, missing)
    counts = [max(1, math.ceil(d / disk.size_bytes)) for d in data[1:]]
    if max(counts, default=0) > vm.max_data_disks:
        missing.append(f"the data outgrows {vm.max_data_disks} data disks of {vm.vm_size}")
    if demand is not None:
        for m, n in enumerate(counts):
            counts[m] = max(n, math.ceil(demand.iops[m + 1] / disk.iops), math.ceil(demand.mbps[m + 1] / disk.mbps))
            if counts[m] > vm.max_data_disks and not any("data disks" in x for x in shortfall):
                short_from = min(short_from or m + 1, m + 1)
                shortfall.append(f"from month {m + 1}: {demand.iops[m + 1]:,.0f} IOPS and {demand.mbps[m + 1]:,.0f} "
                                 f"MB/s need {counts[m]} disks of {disk.name} at their published figures, above "
                                 f"{vm.max_data_disks} data disks")
    lines = (CostLine("Compute", 0.0, tuple(compute for _ in counts),
                      f"{vm.vcpu} vCPU x 730 h x {_price_text(vcpu)}" if node_month is None else "the price book"),
             CostLine("Disks", 0.0, tuple(n * per_disk + nv_unit for n in counts),
                      (f"{disk.name} as the data needs x {_price_text(disk_price)}" if disk_month is None
                       else "the price book") + (f"; NVRAM disk: 1 x {nv_words}" if nv_words else "")
                      + "; not counting the VM's boot and root disks (not in the catalog)"),
             CostLine("Licence", 0.0, tuple(licence for _ in counts),
                      f"{lic.name}: {_price_text(lic_price)}" if lic_month is None else "the price book"))
    return OptionCost(f"Cloud Volumes ONTAP, {provider} {vm.vm_size} single node, {lic.name}", "cloud", lines,
                      not missing, tuple(missing), vm.id, tuple(shortfall), short_from)


def shortfall_count_note(options: Sequence[OptionCost]) -> str:
    """How many of ``options`` carry the workloads' I/O over the whole horizon, how many only until a month, and
    how many not from month 1, in words (the order the table lists them: :func:`comparison_order`)."""
    whole = sum(1 for o in options if o.meets_workloads)
    never = sum(1 for o in options if not o.meets_workloads and (o.short_from_month or 1) <= 1)
    until = sorted({(o.short_from_month or 1) - 1 for o in options
                    if not o.meets_workloads and (o.short_from_month or 1) > 1})
    part = len(options) - whole - never
    months = ", ".join(f"month {m}" for m in until)
    verb = "carries" if whole == 1 else "carry"
    data = any(o.data_short for o in options)  # an option whose largest size is below the data itself (review 57)
    what = "the workloads' data and I/O" if data else "the workloads' I/O"
    pieces = [f"{whole} of the {len(options)} cloud options {verb} {what} over the whole horizon" if whole else
              f"of the {len(options)} cloud options, none carries {what} over the whole horizon"]
    if part:
        pieces.append(f"{part} carry it only until {months}")
    never_protocol = [o for o in options if o.protocol_short]
    never_data = sum(1 for o in options if not o.meets_workloads and (o.short_from_month or 1) <= 1 and o.data_short
                     and not o.protocol_short)
    never -= len(never_protocol)
    if never - never_data:
        pieces.append(f"{never - never_data} cannot carry " + ("the I/O" if data else "it")
                      + " at any size from the first month")
    if never_data:
        pieces.append(f"{never_data} cannot hold the data at any size from the first month")
    if never_protocol:
        unserved = ", ".join(dict.fromkeys(p for o in never_protocol for p in o.protocol_short))
        pieces.append(f"{len(never_protocol)} do{'es' * (len(never_protocol) == 1)} not serve the workloads' "
                      f"{unserved} (NFS and SMB only), so {'it is' if len(never_protocol) == 1 else 'they are'} "
                      "not ranked")
    return "; ".join(pieces) + " (marked in the table, in that order)"


def cheapest(options: Sequence[OptionCost]) -> OptionCost | None:
    """The fully priced option with the lowest total over the horizon among those that carry the workloads' I/O
    over the whole horizon (no ``shortfall``); when none does, among those that carry it the longest (the latest
    ``short_from_month``). None: no option is fully priced and carries the I/O of month 1."""
    priced = [o for o in comparison_order(options) if o.complete and (o.short_from_month or 2) > 1]
    return priced[0] if priced else None


def comparison_order(options: Sequence[OptionCost]) -> list[OptionCost]:
    """``options`` in the order a reader compares them: those that carry the workloads' I/O over the whole horizon
    first, then those that carry it longer, each group from the lowest total over the horizon; those that do not
    serve the workloads' protocol (``protocol_short``) last, whatever their I/O (:func:`shortfall_count_note`'s
    order)."""
    return sorted(options, key=lambda o: (bool(o.protocol_short), not o.meets_workloads, -(o.short_from_month or 0),
                                          o.total))


def project_currency(project: Project) -> str:
    """The currency of every amount the cost of ``project`` gives (and of its running-cost inputs' prices): its
    price book's, else the cloud list prices' (USD)."""
    return project.price_book[0].currency if project.price_book else PRICE_CURRENCY


def _unlike_words(scenario: Scenario) -> str:
    """What a break-even price of a protected design leaves unlike the cloud option it is set against, as a clause
    (", against an option that excludes DR (the design's total counts its replication destination (DR to Azure);
    the option holds one copy of the data at one site)"); "" for a design without replication or a second site."""
    from models.project.metrocluster import is_metrocluster

    names = {n.id: n.label or n.id for n in scenario.nodes}
    targets = list(dict.fromkeys(names.get(r.target, r.target) for r in scenario.replications))
    stretched = [n.label or n.id for n in scenario.nodes if isinstance(n, HciClusterNode) and n.stretched]
    counted = (["both MetroCluster sites"] if is_metrocluster(scenario) else []) + (
        [f"the hosts at both sites of its stretched vSAN cluster{'s' * (len(stretched) > 1)} "
         f"({', '.join(stretched)})"] if stretched else []) + (
        [f"its replication destination{'s' * (len(targets) > 1)} ({', '.join(targets)})"] if targets else [])
    if not counted:
        return ""
    second = is_metrocluster(scenario) or bool(stretched)
    excluded = " and ".join((["DR"] if targets else []) + (["the second site"] if second else []))
    held = "both sites' data" if served_scenario(scenario) is not scenario else "the data"
    return (f", against an option that excludes {excluded} (the design's total counts {' and '.join(counted)}; the "
            f"option holds one copy of {held} at one site)")


OUTGROWN_NOTE_START = "the comparison is not like-for-like: the design as drawn does not hold the data grown"
"""How :func:`_outgrown_note` opens (the workbook lists that note as a comparison basis)."""


def _outgrown_note(scenario: Scenario, catalog: Catalog, horizon: int) -> str:
    """One sentence when the design as drawn does not hold the data grown over the horizon (the capacity runway's
    months until full, ``models.capacity.engine``) or a Cloud Volumes ONTAP DR destination needs more disks than
    its own for the copies grown (``models.replication.sizing.destination_disks_by_month``, what its cost counts),
    while each cloud option is sized to hold the grown data month by month: the comparison is then not
    like-for-like (review 57: an AFF8080 full in 8.8 months given a break-even price against options sized for 36
    months); "" otherwise."""
    from models.capacity.engine import evaluate_capacity
    from models.replication.sizing import destination_disks_by_month

    why: list[str] = []
    try:
        full = evaluate_capacity(scenario, catalog).total.months_until_full
    except (KeyError, ValueError):  # parts missing from the catalog: the capacity tab says so
        full = None
    if full is not None and full < horizon:
        why.append(f"it is full in {full:,.1f} months")
    for node in scenario.nodes:
        if node.kind != "cloud_vm" or not any(r.target == node.id for r in scenario.replications):
            continue
        copies = destination_disks_by_month(scenario, catalog, node.id, horizon)
        if copies is not None and copies[0] and copies[0][-1] > node.disk_count:
            counts = copies[0]
            first = next(m for m, c in enumerate(counts, start=1) if c > node.disk_count)
            why.append(f"its DR copy on {node.label or node.id} outgrows its {node.disk_count} data disks in month "
                       f"{first}, and its cost counts the {counts[-1]} the grown copies need")
    if not why:
        return ""
    return (f"{OUTGROWN_NOTE_START} over the {horizon} months ({'; '.join(why)}), while each cloud option is "
            "sized to hold it month by month: the design needs more capacity for a like-for-like comparison")


def tco_of(project: Project, scenario: Scenario, catalog: Catalog, foot: Footprint) -> Tco:
    """Cost and footprint of ``scenario`` (of ``project``, evaluated against ``catalog``; ``foot`` its footprint,
    ``models.present.bom.footprint``) over the requirements' horizon, with the catalog's managed file services
    compared (see the module's rules); ``models.present.cost.design_tco`` gives the footprint.

    Raises nothing for a design with parts missing from the catalog: their figures are left out and named in the
    notes and the options' ``missing``.
    """
    inputs = running_inputs(project.requirements.running_costs, project.requirements.horizon_months)
    deployment = design_deployment(scenario)
    data = data_by_month(scenario, project.requirements, inputs.horizon_months)
    energy = energy_of(scenario, foot, inputs) if deployment == "on-prem" else None
    design = design_cost(scenario, catalog, project, inputs, data, energy.power_w if energy is not None else 0.0,
                         energy.rack_units if energy is not None else 0)
    if energy is not None and not energy.complete:  # the power line counts the known parts only: say which not
        design = _with_unknown_power(design, energy)
    currency = project_currency(project)
    served = served_scenario(scenario)  # a MetroCluster's partner site's own workloads too
    if served is not scenario:
        data = data_by_month(served, project.requirements, inputs.horizon_months)
    options = cloud_options(catalog, data, project.price_book, demand_by_month(served, inputs.horizon_months),
                            2 if served is not scenario else 1,
                            workload_protocols(served, catalog, project.requirements.protocols))
    cheapest_option = cheapest(options)
    cheapest_name = cheapest_option.name if cheapest_option is not None else None
    notes: list[str] = ["the managed services are sized month by month to hold the data and to carry the workloads' "
                        "IOPS and MB/s as each service publishes its limits (throughput per TiB, IOPS per GiB, "
                        "throughput capacity) and Cloud Volumes ONTAP within its VM's and disks' published limits "
                        "(a bound: the sizer models its performance)"]
    if served is not scenario:
        partner = [w.name.removesuffix(PARTNER_WORKLOAD) for w in served.workloads[len(scenario.workloads):]]
        notes.append("the cloud options are sized for what the design serves at both MetroCluster sites: the partner "
                     "site runs the same workloads on its own data (" + ", ".join(partner) + "), so each option holds "
                     "both sites' data and carries both sites' IOPS and MB/s (a managed service in two volumes, one "
                     "per site's workloads, of one capacity pool; Cloud Volumes ONTAP on one node)")
    untargeted = [w.name for w in scenario.workloads
                  if w.performance_enabled and w.target_iops is None and w.target_mbps is None]
    if untargeted:
        notes.append("the cloud options carry no I/O for workloads without an IOPS or MB/s target: "
                     + ", ".join(untargeted))
    short = [o.name for o in options if o.shortfall]
    if short:
        notes.append(shortfall_count_note(options))
    if cheapest_option is None and short:
        notes.append("no cloud option of the catalog carries the workloads' I/O, so none is compared and no "
                     "break-even month is given")
    if cheapest_option is not None and cheapest_option.shortfall:
        notes.append(f"no cloud option carries the workloads' I/O over the whole horizon; the cheapest of those that "
                     f"carry it the longest (until month {(cheapest_option.short_from_month or 1) - 1}) is compared")
    notes.extend(_same_service_notes(scenario, options, data))
    unlike = _outgrown_note(scenario, catalog, inputs.horizon_months) if options else ""
    if unlike:
        notes.append(unlike)
    if any(line.name == "Licence" and "per node-hour" in line.basis for o in (design, *options) for line in o.lines):
        notes.append(NODE_LICENCE_NOTE)
    if inputs.horizon_note:
        notes.append(inputs.horizon_note)
    if currency != PRICE_CURRENCY:
        notes.append(f"the price book is in {currency}; the cloud list prices and the default electricity price and "
                     f"rack unit cost are USD figures, not converted")
    if not any(data):
        notes.append("no data to hold (no workload data set and no effective capacity required): the cloud options "
                     "are priced at their smallest size")
    if energy is not None and not energy.power_complete:
        notes.append(("power and energy are lower bounds" if energy.power_known else "power and energy are not known")
                     + ": the catalog gives no figure for "
                     + ", ".join(f"the {m}" if m.startswith("power of ") else m for m in energy.power_not_counted))
    if energy is not None and energy.heights_not_counted:
        notes.append(f"the rack units ({energy.rack_units} U) and the space cost are lower bounds: the catalog gives "
                     "no figure for the " + ", the ".join(energy.heights_not_counted))
    if energy is not None:
        notes.extend(energy.assumed)
    hardware_priced = deployment == "on-prem" and design.lines[0].upfront > 0
    carriers = [o for o in options if o.short_from_month != 1]
    if deployment == "on-prem" and len(carriers) < len(options):
        what = ("cannot hold the data or carry the workloads' I/O" if any(o.data_short for o in options)
                else "cannot carry the workloads' I/O") + " from the first month"
        if all(o.protocol_short for o in options if o.short_from_month == 1):
            what = "do not serve the workloads' protocol"
        elif any(o.protocol_short for o in options):
            what = "do not serve the workloads' protocol or " + what
        notes.append(f"no break-even is given against the {len(options) - len(carriers)} option"
                     f"{'s' * (len(options) - len(carriers) > 1)} that {what}: none is an alternative to this "
                     "design")
    break_even: list[tuple[str, int | None]] = []
    if deployment == "on-prem":
        if hardware_priced:
            mine = design.cumulative()
            break_even = [(o.name, break_even_month(mine, o.cumulative())) for o in carriers]
        else:
            budget = None
            if cheapest_option is not None:
                budget = break_even_hardware_price(design.total, cheapest_option.total, inputs.horizon_months,
                                                   inputs.support_pct_per_year.value)
            if budget is None:
                notes.append("no break-even month: the hardware is not priced (import a price book)")
                if cheapest_option is not None:
                    notes.append(f"its power and space alone cost more over {inputs.horizon_months} months than "
                                 f"{cheapest_option.name}: no hardware price breaks even")
            else:
                unknown = " and ".join(what for what, missed in (
                    ("power", energy is not None and not energy.power_complete),
                    ("height", energy is not None and bool(energy.heights_not_counted))) if missed)
                verb = "are" if " and " in unknown else "is"  # "the power and height ... are not counted"
                upper = (f"; that price is an upper bound, as the {unknown} the catalog gives no figure for {verb} not "
                         f"counted" if unknown else "")
                price = (f"if the hardware costs at most {budget:,.0f} {currency} (with support at "
                         f"{inputs.support_pct_per_year.value:g}% a year){upper}{_unlike_words(scenario)}")
                if cheapest_option is not None and cheapest_option.shortfall:
                    notes.append("the hardware is not priced (import a price book), so the break-even month is not "
                                 "known")
                    notes.append(f"no cloud option carries the workloads' I/O over the whole horizon, so none is a "
                                 f"like-for-like alternative; against {cheapest_option.name}, which carries it until "
                                 f"month {(cheapest_option.short_from_month or 1) - 1}, the design breaks even within "
                                 f"{inputs.horizon_months} months {price}")
                elif cheapest_option is not None:
                    notes.append(f"the hardware is not priced (import a price book), so the break-even month is not "
                                 f"known: the design breaks even with {cheapest_option.name} within "
                                 f"{inputs.horizon_months} months {price}")
    embodied = embodied_carbon(scenario, catalog, foot.parts)
    if energy is not None and energy.heights_not_counted:  # counted by rack unit: an unknown height has no line
        heights = tuple(f"the {h.removeprefix(HEIGHT_OF)} enclosure (its height, by which it is counted, is not in "
                        "the catalog)" for h in energy.heights_not_counted)
        embodied = Embodied(embodied.lines, embodied.not_counted + heights)
    budget = None
    if deployment == "on-prem" and not hardware_priced and cheapest_option is not None:
        budget = break_even_hardware_price(design.total, cheapest_option.total, inputs.horizon_months,
                                           inputs.support_pct_per_year.value)
    return Tco(inputs, currency, design, energy, embodied, options, tuple(break_even), cheapest_name, data,
               tuple(notes), budget)
