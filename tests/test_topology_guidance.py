"""Topology guidance in the model: which link types fit two items, and warnings for hosts and switches that
carry no I/O (models/topology.py, models/problems.py)."""

from __future__ import annotations

from models.catalog import bundled_catalog
from models.problems import unconnected_problems
from models.project.model import ControllerNode, HostNode, Link, Scenario, ShelfNode, SwitchNode
from models.topology import link_problem

CATALOG = bundled_catalog()


def _scenario(nodes, links=()):
    return Scenario(name="Base", nodes=nodes, links=[Link(id=f"l{i}", source=a, target=b, link_type=t)
                                                      for i, (a, b, t) in enumerate(links)])


def _fitting(scenario, a, b):
    return sorted(link_type.id for link_type in CATALOG.of_kind("link")
                  if link_problem(scenario, CATALOG, a, b, link_type.id) is None)


def test_link_types_between_kinds():
    nodes = [HostNode(id="h", catalog_id="hp-dl980-g7"), SwitchNode(id="fc", catalog_id="brocade-6510"),
             SwitchNode(id="eth", catalog_id="cisco-nexus-5596"),
             HostNode(id="nic", catalog_id="hp-dl980-g7", adapter="generic-nic-25gbe-2p"),
             ControllerNode(id="c", catalog_id="netapp-aff8080a-ex"),
             ShelfNode(id="s", catalog_id="generic-fc-al-16", drive="netapp-x447a-800gb-ssd", drive_count=16)]
    s = _scenario(nodes)
    assert _fitting(s, "h", "fc") == ["fc-16g", "fc-32g", "fc-64g", "fc-8g", "nvme-fc-16g", "nvme-fc-32g",
                                      "nvme-fc-64g"]
    assert _fitting(s, "h", "eth") == ["iscsi-100g", "iscsi-10g", "iscsi-25g", "nvme-tcp-100g", "nvme-tcp-25g"]
    assert _fitting(s, "nic", "fc") == []
    assert link_problem(s, CATALOG, "nic", "fc", "fc-8g") == \
        "the host's Generic dual-port 25GbE NIC speaks iSCSI/NVMe/TCP/NFS/SMB, not FCP"
    assert link_problem(s, CATALOG, "h", "fc", "iscsi-10g") == \
        "Brocade 6510 16Gb FC switch (24 ports licensed) is an FC switch; it does not take 10GbE (iSCSI, NFS)"
    assert link_problem(s, CATALOG, "h", "fc", "fc-al-4g") == \
        "4Gb FC-AL drive loop is a back-end link: it joins a controller to a shelf"
    assert "fc-al-4g" in _fitting(s, "c", "s")  # the drive loop still joins an array to its FC-AL shelf


def test_unconnected_warnings_follow_the_fabric():
    nodes = [HostNode(id="h", catalog_id="hp-dl980-g7"), SwitchNode(id="a", catalog_id="brocade-6510"),
             SwitchNode(id="b", catalog_id="brocade-6510"), ControllerNode(id="c", catalog_id="netapp-aff8080a-ex"),
             HostNode(id="lonely", catalog_id="hp-dl980-g7"), SwitchNode(id="spare", catalog_id="brocade-6510"),
             SwitchNode(id="storage-only", catalog_id="brocade-6510")]
    links = [("h", "a", "fc-8g"), ("a", "b", "fc-8g"), ("b", "c", "fc-8g"), ("storage-only", "c", "fc-8g")]
    problems = {p.node_id: p.message for p in unconnected_problems(_scenario(nodes, links))}
    assert problems == {
        "lonely": "lonely: host is not connected to a switch or a storage system; its I/O has no path",
        "spare": "spare: switch is not connected",
        "storage-only": "storage-only: switch connects no host",
    }  # a and b reach the host and the controller through each other: no warning
    assert all(p.severity == "warning" for p in unconnected_problems(_scenario(nodes, links)))
