"""How the parts of a design are named on screen and on paper: RAID levels, vSAN policies, link types, nodes.

RAID level names live beside the RAID rules (``models.capacity.rules.RAID_LABEL``) and node names beside the
project (``models.project.names``); this module re-exports them so that every view takes its words from
``models.present``. Link types read by the ``short_name`` display field of their catalog record, never by
parsing an id.
"""

from __future__ import annotations

from models.capacity.rules import POLICY_LABEL, RAID_LABEL, policy_label, raid_label
from models.catalog import Catalog
from models.project.model import Scenario
from models.project.names import link_name, node_name, node_names

__all__ = ["POLICY_LABEL", "RAID_LABEL", "carried_protocols", "link_label", "link_tag", "link_type_label", "link_name",
           "node_name", "node_names", "policy_label", "raid_label"]



def link_type_label(catalog: Catalog, link_type: str) -> str:
    """A link type as a diagram writes it: the catalog record's ``short_name`` (``16Gb FC``), else its name,
    else (not in the catalog) the id as given."""
    record = catalog.find(link_type)
    if record is None:
        return link_type
    return getattr(record, "short_name", "") or record.name


def link_tag(catalog: Catalog, link_type: str, carried: str | None = None) -> str:
    """A link type in a few characters, where a drawing has little room (the canvas): the catalog record's
    ``tag`` (``FC 16G``), else its short name or name (:func:`link_type_label`), else the id as given.

    ``carried`` is the protocol the design's workloads run over this link (:func:`carried_protocols`): a link type
    that carries several (10GbE carries iSCSI, NFS and SMB) is then tagged by what it carries (``NFS 10G``, not
    its catalog tag ``iSCSI 10G``)."""
    record = catalog.find(link_type)
    protocols = list(getattr(record, "protocols", []) or [])
    if carried and len(protocols) > 1 and carried in protocols and carried != protocols[0]:
        return f"{carried} {getattr(record, 'speed_gbps', 0):g}G"
    return (getattr(record, "tag", "") if record is not None else "") or link_type_label(catalog, link_type)


def carried_protocols(scenario: Scenario, catalog: Catalog) -> dict[str, str]:
    """Link id -> the one front-end protocol the scenario's workloads run over it (NFS, iSCSI, FCP...), for the
    links that some workload crosses and all of them with the same protocol; links with none or several are left
    out. Uses the engine's own rules (:func:`models.topology.protocol_of`, the links that carry it:
    ``Topology.served_front_end``); imports no engine (numpy)."""
    from models.topology import of, protocol_of

    seen: dict[str, set[str]] = {}
    topo = of(scenario)
    for workload in scenario.workloads:
        protocol = protocol_of(scenario, catalog, workload)
        if protocol is None:
            continue
        fe = topo.served_front_end(catalog, workload.target, workload.hosts, protocol)
        for link in (*fe.host_links, *fe.target_links):
            seen.setdefault(link.id, set()).add(protocol)
    return {link_id: next(iter(found)) for link_id, found in seen.items() if len(found) == 1}


def link_label(catalog: Catalog, link_type: str, ports: int, runs_at_gbps: float | None = None) -> str:
    """A compact link label with its port count: ``16Gb FC ×8``, ``6Gb SAS ×4``, ``10GbE ×2``; a link held back by a
    slower switch (``runs_at_gbps``, ``models.topology.slower_switch``) says the speed it runs at: ``64Gb NVMe/FC
    ×8, runs at 32Gb``."""
    runs = f", runs at {runs_at_gbps:g}Gb" if runs_at_gbps else ""
    return f"{link_type_label(catalog, link_type)} \u00d7{ports:,}{runs}"
