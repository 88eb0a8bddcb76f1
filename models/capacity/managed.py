"""Managed file service capacity (Azure NetApp Files, Amazon FSx for NetApp ONTAP): the provisioned capacity is
what the user can store; the provider's own RAID, spares and reserves are inside the service and not the
user's to size (the ANF volume quota and the FSx SSD storage capacity are usable as provisioned: Microsoft,
"Service levels for Azure NetApp Files"; AWS, FSx API reference StorageCapacity). Whether ONTAP's data reduction
counts is the record's ``data_reduction`` (ANF does not present storage efficiencies to the customer; FSx does).
"""

from __future__ import annotations

from models.capacity.physical import Physical, fmt
from models.capacity.results import CapacityStep, frozen_inputs
from models.catalog import ManagedService
from models.project import ManagedServiceNode


def managed_capacity(node: ManagedServiceNode, record: ManagedService, where: str) -> Physical:
    """The physical side of a managed service node: raw = usable = the provisioned capacity (bytes).

    A capacity outside the record's range (minimum pool, maximum volume or file system) is a problem in the
    result, named with ``where``; the provisioned figure is used anyway.
    """
    problems = []
    size = float(node.provisioned_bytes)
    if not record.min_capacity_bytes <= size <= record.max_capacity_bytes:
        problems.append(f"{where}: {record.name} takes {fmt(record.min_capacity_bytes)} to "
                        f"{fmt(record.max_capacity_bytes)}; {fmt(size)} is provisioned.")
    source = record.cited("min_capacity_bytes") or record.service
    steps = [CapacityStep("Provisioned", size, size, f"{record.service}: the provisioned capacity is usable "
                          f"as provisioned (range: {source})", f"{fmt(size)} provisioned",
                          frozen_inputs({"service": record.service, "level": record.service_level}))]
    layout = [f"{record.service} {record.service_level}: {fmt(size)} provisioned"]
    notes = [f"{record.service} keeps its own RAID, spares and reserves inside the service: the provisioned "
             "capacity is the usable capacity."]
    return Physical(steps, size, size, size, [], layout, notes, problems)
