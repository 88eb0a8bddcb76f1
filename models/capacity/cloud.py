"""Cloud Volumes ONTAP capacity: cloud disks, HA mirror, RAID0, WAFL reserve, licence capacity cap.

Rules (NetApp CVO documentation; seed 004 §3 for the licence caps): raw = disk_count x disk size, x2 for an HA
pair (each node's disks mirror the other's); aggregates are RAID0 over cloud disks, which the cloud already
protects (Azure managed disks keep three copies); the licence caps the disk capacity (the HA pair counts once,
rules.CVO_CAP_SOURCE), then the WAFL reserve of the node's release (rules.wafl_reserve_fraction: 10%, 5% for an
aggregate of 30 TiB or more from ONTAP 9.14.1; no release set = rules.CURRENT_ONTAP_RELEASE).
The catalog stores caps in bytes of NetApp's "TB", which is TiB.
The same rules hold in AWS and Google Cloud (CVO release notes, "Storage limits" per cloud: "the capacity limit is
for the entire HA pair", "mirrored data does not count against the capacity limit"); a node of an HA pair may take
fewer data disks than a single node (``CloudVm.data_disk_limit``: AWS 18 per HA node against 21).
"""

from __future__ import annotations

from models.capacity import rules
from models.capacity.physical import Physical, fmt, plural
from models.capacity.results import Aggregate, CapacityStep, frozen_inputs
from models.capacity.step_sources import cloud_disk_source, licence_cap_source
from models.catalog import CloudDisk, CloudVm, Licence
from models.project import CloudVmNode


def cloud_capacity(node: CloudVmNode, vm: CloudVm, licence: Licence, disk: CloudDisk, where: str) -> Physical:
    """The physical side (raw -> usable, bytes) of a Cloud Volumes ONTAP node on ``vm`` with ``licence`` and ``disk``.

    Rules and sources in the module docstring: raw = disk_count x disk size (x2 for an HA pair), HA mirror, RAID0,
    licence cap on disk capacity (TiB-based "TB"), then the WAFL reserve by release and aggregate size.
    ``where`` names the node in problems. Configuration errors
    (too many disks for the VM, licence not offered, HA unsupported, a RAID type other than RAID0) do not raise:
    they are returned in ``Physical.problems`` and the rules above are applied anyway.
    """
    problems: list[str] = []
    notes: list[str] = []
    limit = vm.data_disk_limit(node.ha)  # an HA node may take fewer (CVO in AWS: 18, single node 21)
    if node.disk_count > limit:
        problems.append(f"{where}: {node.disk_count} data disks exceed {vm.vm_size}'s {limit}"
                        f"{' per HA node' if node.ha and limit != vm.max_data_disks else ''} ({rules.CVO_DOCS}).")
    if vm.max_disk_capacity_bytes and node.disk_count * disk.size_bytes > vm.max_disk_capacity_bytes:
        problems.append(f"{where}: {node.disk_count} x {fmt(disk.size_bytes)} exceeds the "
                        f"{fmt(vm.max_disk_capacity_bytes)} {vm.vm_size} may attach with disks alone "
                        f"({rules.CVO_DOCS}).")
    if vm.licences and licence.id not in vm.licences:
        problems.append(f"{where}: licence '{licence.name}' is not offered on {vm.vm_size} (catalog: "
                        f"{', '.join(vm.licences)}).")
    if node.ha and not vm.ha_supported:
        problems.append(f"{where}: {vm.vm_size} does not support an HA pair.")
    if node.raid_type not in ("raid0", "none"):
        problems.append(f"{where}: Cloud Volumes ONTAP aggregates are RAID 0 over cloud disks; "
                        f"{rules.raid_label(node.raid_type)} is not available, RAID 0 used.")
    copies = 2 if node.ha else 1
    per_node = float(node.disk_count * disk.size_bytes)
    raw = per_node * copies
    steps = [CapacityStep("Raw (marketed)", raw, raw, cloud_disk_source(disk),
                          f"{plural(copies, 'node')} x {node.disk_count} x {fmt(disk.size_bytes)} {disk.tier}",
                          frozen_inputs({"disks per node": str(node.disk_count), "HA": "yes" if node.ha else "no"}))]
    level = raw
    if node.ha:
        steps.append(CapacityStep("HA mirror", level, per_node, rules.CVO_DOCS + ": HA pair mirrors each node's data",
                                  f"{fmt(raw)} / 2", frozen_inputs({"copies": "2"})))
        level = per_node
    notes.append("RAID0 over cloud disks: the cloud provider protects each disk (no parity step).")
    cap = float(licence.capacity_cap_bytes)
    capped = min(level, cap)
    steps.append(CapacityStep("Licence capacity cap", level, capped,
                              f"{licence_cap_source(licence)}; {rules.CVO_CAP_SOURCE}",
                              f"min(disk capacity {fmt(level)}, cap {fmt(cap)})"
                              f"{' - HA pair counted once' if node.ha else ''}",
                              frozen_inputs({"licence": licence.name, "cap": fmt(cap),
                                             "cap reached": "yes" if level > cap else "no"})))
    if level > cap:
        notes.append(f"The {licence.name} licence caps disk capacity at {fmt(cap)} ({fmt(level - cap)} of disk space "
                     "is beyond it).")
    software = node.software or rules.CURRENT_ONTAP_RELEASE
    frac, why = rules.wafl_reserve_fraction(software, False, capped)
    wafl = capped * frac
    release = f"ONTAP {software}" + ("" if node.software else ", the current release: the design names none")
    steps.append(CapacityStep("WAFL reserve", capped, capped - wafl,
                              f"{rules.WAFL_RESERVE_SOURCE}; {rules.CVO_WAFL_NOTE}",
                              f"{frac:.0%} x {fmt(capped)} (aggregate on {release})",
                              frozen_inputs({"rule": why, "release": software})))
    usable = capped - wafl
    layout = [f"{'HA pair' if node.ha else 'single node'} {vm.vm_size}: aggregate RAID0 {node.disk_count} x "
              f"{disk.name} ({fmt(disk.size_bytes)}) per node, licence {licence.name}: {fmt(usable)} usable"]
    aggregate = Aggregate(1, "aggr_data", disk.id, "raid0", (node.disk_count,), 0, float(disk.size_bytes), per_node,
                          usable)
    return Physical(steps, raw, raw, usable, [aggregate], layout, notes, problems)
