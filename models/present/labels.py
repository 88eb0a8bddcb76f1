"""How the parts of a design are named on screen and on paper: RAID levels, vSAN policies, link types, nodes.

RAID level names live beside the RAID rules (``models.capacity.rules.RAID_LABEL``) and node names beside the
project (``models.project.names``); this module re-exports them so that every view takes its words from
``models.present``. Link types read by the ``short_name`` display field of their catalog record, never by
parsing an id.
"""

from __future__ import annotations

from models.capacity.rules import RAID_LABEL, raid_label
from models.catalog import Catalog
from models.project.names import link_name, node_name, node_names

__all__ = ["POLICY_LABEL", "RAID_LABEL", "link_label", "link_tag", "link_type_label", "link_name", "node_name",
           "node_names", "policy_label", "raid_label"]

POLICY_LABEL = {
    "ftt1-raid1": "FTT=1 RAID 1",
    "ftt2-raid1": "FTT=2 RAID 1",
    "ftt3-raid1": "FTT=3 RAID 1",
    "ftt1-raid5": "FTT=1 RAID 5",
    "ftt2-raid6": "FTT=2 RAID 6",
}
"""vSAN storage policy -> its name (VMware's FTT and RAID level, RAID written as the RAID names are)."""


def policy_label(policy: str) -> str:
    """The display name of a vSAN storage policy (``ftt1-raid5`` -> ``FTT=1 RAID 5``); unknown reads as itself."""
    return POLICY_LABEL.get(policy, policy)


def link_type_label(catalog: Catalog, link_type: str) -> str:
    """A link type as a diagram writes it: the catalog record's ``short_name`` (``16Gb FC``), else its name,
    else (not in the catalog) the id as given."""
    record = catalog.find(link_type)
    if record is None:
        return link_type
    return getattr(record, "short_name", "") or record.name


def link_tag(catalog: Catalog, link_type: str) -> str:
    """A link type in a few characters, where a drawing has little room (the canvas): the catalog record's
    ``tag`` (``FC 16G``), else its short name or name (:func:`link_type_label`), else the id as given."""
    record = catalog.find(link_type)
    return (getattr(record, "tag", "") if record is not None else "") or link_type_label(catalog, link_type)


def link_label(catalog: Catalog, link_type: str, ports: int) -> str:
    """A compact link label with its port count: ``16Gb FC ×8``, ``6Gb SAS ×4``, ``10GbE ×2``."""
    return f"{link_type_label(catalog, link_type)} \u00d7{ports:,}"
