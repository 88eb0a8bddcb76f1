"""Which storage systems can replicate to which: the rule a replication link is checked against on the canvas and in
every evaluation.

SnapMirror (asynchronous, vault, active sync) replicates between ONTAP systems only:

* NetApp AFF / FAS / ASA (a controller of family ONTAP), Cloud Volumes ONTAP (a cloud VM node) and Amazon FSx for
  NetApp ONTAP (a managed ONTAP file system whose clusters peer and replicate with SnapMirror: NetApp, "Configure
  replication relationships on FSx for ONTAP file systems", https://docs.netapp.com/us-en/netapp-solutions-sap/
  backup/fsxn-configure-replication-relationships.html) take part both ways.
* Azure NetApp Files accepts SnapMirror from ONTAP only through its migration assistant, to move volumes once
  (Microsoft Learn, "Migrate volumes to Azure NetApp Files", https://learn.microsoft.com/azure/azure-netapp-files/
  migrate-volumes: "peer and migrate volumes from on-premises ONTAP or Cloud Volumes ONTAP"); its own replication
  runs between its volumes. Google Cloud NetApp Volumes likewise replicates between its own volumes and takes
  ONTAP data in by an on-premises migration. Neither is a continuing SnapMirror destination, so StorPlan refuses
  them as an end of a relationship.
* E-Series and generic arrays, and vSAN clusters, do not run ONTAP.
* An ASA r2 system (ASA A20-A1K, C30: ``Controller.ontap_personality``) replicates only to and from another ASA r2
  system (NetAppDocs asa-r2, "Replicate snapshots to a remote cluster from ASA r2 storage systems",
  https://docs.netapp.com/us-en/asa-r2/data-protection/snapshot-replication.html).
* SnapMirror active sync runs between AFF and ASA clusters on premises (NetApp, "Object limits for ONTAP
  SnapMirror active sync", https://docs.netapp.com/us-en/ontap/snapmirror-active-sync/limits-reference.html lists
  AFF and ASA platforms), not to Cloud Volumes ONTAP or a managed service.
"""

from __future__ import annotations

from models.catalog import Catalog, Controller, ManagedService
from models.project.model import NodeBase, Scenario
from models.project.replication import REPLICATION_KIND_LABELS

ONTAP_SERVICES = frozenset({"Amazon FSx for NetApp ONTAP"})
"""Managed services that are ONTAP file systems the customer may peer and replicate with
(``ManagedService.service``)."""


def _name(node: NodeBase, catalog: Catalog) -> str:
    record = catalog.find(node.catalog_id)
    return node.label or (record.name if record is not None else node.catalog_id)


def _not_ontap(node: NodeBase, catalog: Catalog) -> str | None:
    """Why ``node`` cannot be an end of a SnapMirror relationship, or None when it runs ONTAP."""
    record = catalog.find(node.catalog_id)
    name = _name(node, catalog)
    if node.kind == "controller":
        if isinstance(record, Controller) and record.family != "ONTAP":
            return f"{name} is a {record.family} array: SnapMirror replicates between ONTAP systems only"
        return None
    if node.kind == "cloud_vm":
        return None
    if node.kind == "managed_service":
        service = record.service if isinstance(record, ManagedService) else node.catalog_id
        if service in ONTAP_SERVICES:
            return None
        return (f"{name} ({service}) does not accept SnapMirror as a continuing relationship: it takes ONTAP data "
                "in only to migrate it, and replicates between its own volumes")
    if node.kind == "hci_cluster":
        return f"{name} is a vSAN cluster: SnapMirror replicates between ONTAP systems only"
    return f"a {node.kind.replace('_', ' ')} is not a storage system: replication joins two storage systems"


def endpoint_problem(scenario: Scenario, catalog: Catalog, source_id: str, target_id: str,
                     kind: str = "snapmirror") -> str | None:
    """Why a replication relationship of ``kind`` from ``source_id`` to ``target_id`` cannot exist, in one sentence;
    None when it can. The rules and their sources are this module's docstring.

    Args:
        scenario: the scenario whose nodes are the ends; catalog: the resolved catalog (for families, services).
        kind: "snapmirror", "snapvault" or "active-sync".
    """
    a, b = scenario.node(source_id), scenario.node(target_id)
    if a is None or b is None:
        missing = source_id if a is None else target_id
        return f"'{missing}' is not an item of this scenario"
    if a.id == b.id:
        return "a replication relationship cannot protect a system to itself"
    for node in (a, b):
        reason = _not_ontap(node, catalog)
        if reason:
            return reason
    personalities = []
    for node in (a, b):
        record = catalog.find(node.catalog_id)
        personalities.append(record.ontap_personality if isinstance(record, Controller) else "unified")
    if personalities.count("asa-r2") == 1:
        r2, other = (a, b) if personalities[0] == "asa-r2" else (b, a)
        return (f"{_name(r2, catalog)} is an ASA r2 system: it replicates only to and from another ASA r2 system, "
                f"and {_name(other, catalog)} is not one")
    if kind == "active-sync":
        for node in (a, b):
            record = catalog.find(node.catalog_id)
            if node.kind != "controller" or not isinstance(record, Controller):
                return (f"{REPLICATION_KIND_LABELS[kind]} runs between AFF and ASA clusters on premises; "
                        f"{_name(node, catalog)} is not one")
    return None


__all__ = ["ONTAP_SERVICES", "endpoint_problem"]
