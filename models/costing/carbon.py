"""Embodied carbon of a design's hardware: drives by media and capacity, enclosures by rack unit.

Factors (kg CO2e):

* SSD: 0.16 kg per GB of marketed capacity, and HDD: 0.02 kg per GB (20 kg per TB): S. Tannu and P. J. Nair, "The
  Dirty Secret of SSDs: Embodied Carbon", HotCarbon 2022 (arxiv.org/abs/2207.10793), from 94 SSD and 24 HDD life-cycle
  assessments. Newer vendor product carbon footprints give lower SSD figures (Pure Storage, "How Do the Embodied
  Carbon Dioxide Equivalents of Flash Compare to HDDs?", blog.purestorage.com, compares a Seagate Exos X20 HDD at
  about 1.3 kg per TB with enterprise SSDs under 2x that): the factor is the published study's, a high estimate.
* Enclosures (controller chassis, shelf enclosures without their drives, switches): no NetApp product carbon
  footprint figure was found; assumptions per rack unit (:data:`CONTROLLER_KG_PER_RU`, :data:`ENCLOSURE_KG_PER_RU`).
"""


from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from models.catalog import Catalog, Drive, HciNode
from models.project.metrocluster import PARTNER_SUFFIX, is_partner, with_partner_site
from models.project.model import Scenario

__all__ = ["CONTROLLER_KG_PER_RU", "ENCLOSURE_KG_PER_RU", "HDD_KG_PER_GB", "SSD_KG_PER_GB", "Embodied",
           "EmbodiedLine", "Enclosure", "embodied_carbon"]


class Enclosure(Protocol):
    """One controller, shelf or switch of a design as its footprint gives it (``models.present.bom.PartFootprint``):
    its name, kind ("controller", "shelf", "switch") and height in rack units (0: bays inside a controller)."""

    @property
    def name(self) -> str:
        """The item's name."""

    @property
    def kind(self) -> str:
        """Its kind: "controller", "shelf" or "switch"."""

    @property
    def rack_units(self) -> int:
        """Its height, rack units (0: inside a controller chassis)."""

    @property
    def chassis_of(self) -> str:
        """For drive bays that are a controller's chassis (an E-Series controller shelf), the controller's name;
        else ""."""


SSD_KG_PER_GB = 0.16
"""Embodied carbon of flash, kg CO2e per GB (10^9 bytes) marketed (Tannu and Nair, HotCarbon 2022)."""
HDD_KG_PER_GB = 0.02
"""Embodied carbon of a hard disk drive, kg CO2e per GB marketed: 20 kg per TB (Tannu and Nair, HotCarbon 2022)."""
DRIVE_SOURCE = ("S. Tannu and P. J. Nair, 'The Dirty Secret of SSDs: Embodied Carbon', HotCarbon 2022 "
                "(arxiv.org/abs/2207.10793): SSD 0.16 kg CO2e per GB, HDD 20 kg CO2e per TB")
CONTROLLER_KG_PER_RU = 500.0
"""Assumed embodied carbon of a controller chassis (processors, memory, boards, power supplies), kg CO2e per rack
unit: no storage-controller product carbon footprint was found; a placeholder of the order of a two-socket server's
manufacturing share, to replace with the vendor's figure."""
ENCLOSURE_KG_PER_RU = 100.0
"""Assumed embodied carbon of a drive shelf's enclosure (without drives) or a switch, kg CO2e per rack unit: a
placeholder (sheet metal, midplane, I/O modules, power supplies), to replace with the vendor's figure."""
ENCLOSURE_SOURCE = ("assumption: no published product carbon footprint for these enclosures; "
                    f"{CONTROLLER_KG_PER_RU:g} kg CO2e per rack unit of controller chassis, "
                    f"{ENCLOSURE_KG_PER_RU:g} kg per rack unit of shelf enclosure or switch")


@dataclass(frozen=True)
class EmbodiedLine:
    """One line of the embodied carbon: what, how many, kg CO2e, and on what basis.

    Attributes:
        item: e.g. "24 x NetApp 3.8TB NVMe SSD" or "NetApp AFF A70 chassis"; kg: kg CO2e of the line; basis: the
        factor in words; assumed: True when the factor is an assumption, not a published figure.
    """

    item: str
    kg: float
    basis: str
    assumed: bool


@dataclass(frozen=True)
class Embodied:
    """The embodied carbon of a design: its lines, their total (kg CO2e), and what is not counted."""

    lines: tuple[EmbodiedLine, ...]
    not_counted: tuple[str, ...] = ()

    @property
    def total_kg(self) -> float:
        """The sum of the lines, kg CO2e."""
        return sum(line.kg for line in self.lines)


def _drive_line(drive: object, count: int, name: str) -> EmbodiedLine | None:
    """The line of ``count`` drives of catalog record ``drive`` (None when it is not a drive record)."""
    if not isinstance(drive, Drive) or count <= 0:
        return None
    gb = drive.marketed_bytes / 1e9
    factor = SSD_KG_PER_GB if drive.media == "SSD" else HDD_KG_PER_GB
    return EmbodiedLine(f"{count} x {drive.name}{name}", count * gb * factor,
                        f"{factor:g} kg CO2e per GB of {drive.media} x {gb:,.0f} GB each", False)


def embodied_carbon(scenario: Scenario, catalog: Catalog, parts: Sequence[Enclosure]) -> Embodied:
    """Embodied carbon of the scenario's storage hardware (kg CO2e): every controller, shelf and switch enclosure by
    rack unit (:data:`CONTROLLER_KG_PER_RU`, :data:`ENCLOSURE_KG_PER_RU`: assumptions), every drive by media and
    marketed capacity (:data:`SSD_KG_PER_GB`, :data:`HDD_KG_PER_GB`), an HCI cluster's cache and capacity drives.
    Hosts are the customer's servers and are left out; cloud VMs, disks and managed services are the provider's
    (their share is in the provider's own reporting) and are named in ``not_counted``. ``parts``: the design's
    enclosures (``models.present.bom.part_footprints``). A MetroCluster's partner site's drives are counted too
    (``models.project.metrocluster.with_partner_site``; its enclosures are in ``parts``)."""
    scenario = with_partner_site(scenario, catalog)
    lines: list[EmbodiedLine] = []
    not_counted: list[str] = []
    for part in parts:
        if part.rack_units:
            per_ru = CONTROLLER_KG_PER_RU if part.kind == "controller" else ENCLOSURE_KG_PER_RU
            chassis_of = part.chassis_of
            if chassis_of:  # an E-Series controller shelf: the catalog gives the chassis' height on its bays
                lines.append(EmbodiedLine(
                    f"{chassis_of} chassis, controllers and drive bays ({part.rack_units}U)",
                    part.rack_units * per_ru, f"{per_ru:g} kg CO2e per rack unit, the shelf-enclosure figure for "
                    "the whole chassis (its controllers have no line of their own)", True))
                continue
            lines.append(EmbodiedLine(f"{part.name} ({part.rack_units}U)", part.rack_units * per_ru,
                                      f"{per_ru:g} kg CO2e per rack unit", True))
    shelves = [n for n in scenario.nodes if n.kind == "shelf"]
    for node in scenario.nodes:
        if node.kind == "shelf":
            where = PARTNER_SUFFIX if is_partner(node.id) else ""
            if len(shelves) > 1:  # which shelf: two shelves' lines read alike (review 57: two "24 x X447A" rows)
                name = node.label or node.id
                where = f" in {name}" + ("" if name.endswith(PARTNER_SUFFIX) else where)
            line = _drive_line(catalog.find(node.drive), node.drive_count, where)
            if line is not None:
                lines.append(line)
        elif node.kind == "hci_cluster":
            rec = catalog.find(node.catalog_id)
            if isinstance(rec, HciNode):
                groups = node.hosts * node.disk_groups_per_host
                cache = _drive_line(catalog.find(rec.cache_drive), groups, " (cache)") if (
                    rec.cache_drive and node.architecture != "esa") else None
                capacity = _drive_line(catalog.find(rec.capacity_drive), groups * node.capacity_drives_per_group, "")
                lines.extend(x for x in (cache, capacity) if x is not None)
            not_counted.append(f"the {node.hosts} vSAN hosts themselves (servers)")
        elif node.kind in ("cloud_vm", "managed_service"):
            not_counted.append("the cloud provider's hardware (in the provider's own carbon reporting)")
    return Embodied(tuple(lines), tuple(dict.fromkeys(not_counted)))
