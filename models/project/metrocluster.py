"""The partner site of a MetroCluster: what the bill of materials, the footprint and the cost add for it.

A four-node MetroCluster IP configuration is two HA pairs, one at each site, each site with its own shelves; every
aggregate is mirrored with SyncMirror into a plex at its own site (pool 0) and a plex at the partner site (pool 1)
(ONTAP MetroCluster documentation, docs.netapp.com/us-en/ontap-metrocluster: "Cabling the HA interconnect",
"This task must be performed at both MetroCluster sites ... Repeat this task at the MetroCluster partner site";
"Considerations for automatic drive assignment and ADP systems"). A scenario describes one site's HA pair: its
shelves hold both plexes of that site's aggregates (``models.capacity.ontap`` deducts the pool 1 plex). So:

* the partner site has an HA pair of the same model and the same shelves (the pool 1 plexes sit in them);
* its drives: with ``partner_site_load = "mirror"`` (the partner site runs the same workloads, with its own mirrored
  aggregates) as many drives again; otherwise (active-passive) none more: the pool 1 half of this site's drives
  sits in the partner site's shelves, the totals stay;
* its back-end links: the same as this site's.

The MetroCluster IP switches that join the sites (two at each site unless the platform connects directly) are
not in the catalog: the bill of materials names them without a model, and they are in neither footprint nor cost.
"""

from __future__ import annotations

from models.catalog import Catalog
from models.project.model import ControllerNode, Node, Scenario, ShelfNode
from models.project.names import node_name

__all__ = ["PARTNER_SUFFIX", "PARTNER_SWITCH_NOTE", "is_metrocluster", "is_partner", "with_partner_site"]

PARTNER_SUFFIX = " (partner site)"
"""Appended to the label of each item of the partner site."""

PARTNER_SWITCH_NOTE = ("two at each site unless the platform connects the sites directly (ONTAP MetroCluster "
                       "documentation, 'Install a MetroCluster IP configuration', "
                       "docs.netapp.com/us-en/ontap-metrocluster); the model is to be chosen, so they are not counted "
                       "in the footprint or the cost")
"""The figures of the bill-of-materials row for the MetroCluster IP switches."""

_ID_SUFFIX = "~partner"


def is_metrocluster(scenario: Scenario) -> bool:
    """True when a controller of ``scenario`` is in a MetroCluster (IP or FC)."""
    return any(isinstance(n, ControllerNode) and n.metrocluster != "none" for n in scenario.nodes)


def _shelves_of(scenario: Scenario, controller_id: str) -> list[ShelfNode]:
    """The shelves a controller reaches over links (directly or along a chain of shelves), in scenario order."""
    shelves = {n.id: n for n in scenario.nodes if isinstance(n, ShelfNode)}
    reached: set[str] = set()
    frontier = [controller_id]
    while frontier:
        here = frontier.pop()
        for link in scenario.links:
            for a, b in ((link.source, link.target), (link.target, link.source)):
                if a == here and b in shelves and b not in reached:
                    reached.add(b)
                    frontier.append(b)
    return [n for n in scenario.nodes if isinstance(n, ShelfNode) and n.id in reached]


def is_partner(node_id: str) -> bool:
    """True for the id of an item :func:`with_partner_site` added."""
    return node_id.endswith(_ID_SUFFIX)


def with_partner_site(scenario: Scenario, catalog: Catalog) -> Scenario:
    """``scenario`` with each MetroCluster controller's partner site added (see the module's rules).

    Added: a copy of the controller (label + :data:`PARTNER_SUFFIX`, the same settings, so the bill of materials
    adds it to the same row); a copy of each shelf it reaches over links (directly or along a chain), with as many
    drives again when ``partner_site_load`` is "mirror", else none; copies of the back-end links between them.
    Returns the scenario itself when it has no MetroCluster or already has its partner site. ``catalog`` names a
    node without a label (``models.project.names.node_name``)."""
    ids = {n.id for n in scenario.nodes}
    metro = [n for n in scenario.nodes if isinstance(n, ControllerNode) and n.metrocluster != "none"
             and n.id + _ID_SUFFIX not in ids and not n.id.endswith(_ID_SUFFIX)]
    if not metro:
        return scenario
    added: list[Node] = []
    links = []
    for ctl in metro:
        mirror = ctl.partner_site_load == "mirror"
        added.append(ctl.model_copy(update={"id": ctl.id + _ID_SUFFIX,
                                            "label": node_name(ctl, catalog) + PARTNER_SUFFIX}))
        owned = _shelves_of(scenario, ctl.id)
        for shelf in owned:
            added.append(shelf.model_copy(update={"id": shelf.id + _ID_SUFFIX,
                                                  "label": node_name(shelf, catalog) + PARTNER_SUFFIX,
                                                  "drive_count": shelf.drive_count if mirror else 0}))
        group = {ctl.id} | {s.id for s in owned}
        for link in scenario.links:  # controller to shelf and shelf to shelf (a chain)
            if link.source in group and link.target in group:
                links.append(link.model_copy(update={"id": link.id + _ID_SUFFIX, "source": link.source + _ID_SUFFIX,
                                                     "target": link.target + _ID_SUFFIX}))
    return scenario.model_copy(update={"nodes": [*scenario.nodes, *added], "links": [*scenario.links, *links]})
