"""What bounds a workload's max IOPS at the SLO, in the words a storage engineer uses ("controller CPU", "FC ports",
"vSAN ESA per-host software path limit").

The bound is the open model's bottleneck: the queueing station with the least capacity over demand
(``models.performance.engine.saturation_iops``, the asymptotic bound of Lazowska et al., "Quantitative System
Performance", 1984, ch. 5). It is where the queue builds as the load nears saturation, so it is what stops the
max IOPS at the SLO; the same station ``storplan evaluate`` names as a workload's bottleneck. The words are chosen
by the station's typed role (``models.performance.stations``), never by its display name, except to tell a vSAN
ESA storage pool from an OSA disk group and a Cloud Volumes ONTAP VM from a controller node (both share a role).
"""

from __future__ import annotations

from models.performance.paths import StationSpec

PORT_WORDS = {"FCP": "FC", "NVMe/FC": "FC", "NVMe/TCP": "Ethernet", "iSCSI": "Ethernet", "NFS": "Ethernet",
              "SMB": "Ethernet"}
"""The port kind a protocol runs on (FC for FCP and NVMe/FC; Ethernet for NVMe/TCP, iSCSI, NFS and SMB)."""

ROLE_BOUND_WORDS = {
    "affinity": "controller WAFL affinities",
    "datapath": "controller data path",
    "iops_bound": "controller IOPS bound from a published figure",
    "nvram": "controller NVRAM mirroring",
    "flash_cache": "Flash Cache",
    "backend": "controller back-end lanes",
    "drives": "drives",
    "drive_transfer": "drives (transfer rate)",
    "cache_drives": "vSAN cache SSDs",
    "ha_partner_cpu": "HA partner VM CPU",
    "vm_disk_iops": "VM's published disk IOPS limit",
    "vm_disk_mbps": "VM's published disk throughput limit",
    "disk_iops": "cloud disks' published IOPS limit",
    "disk_mbps": "cloud disks' published throughput limit",
    "nvram_log_iops": "NVRAM log disk's IOPS limit",
    "nvram_log_mbps": "NVRAM log disk's throughput limit",
    "intersite_link": "vSAN inter-site link",
    "service_iops": "service's published IOPS limit",
    "service_mbps": "service's published throughput limit",
    "service_ops": "volume's published operation rate",
}
"""A bottleneck role in words, where the role alone says it (the others: :func:`bound_words`)."""


def bound_words(station: StationSpec | None, protocol: str, notes: tuple[str, ...] = ()) -> str:
    """What bounds a workload's max IOPS at the SLO, in words.

    Args:
        station: the workload path's bottleneck (the queueing station of least capacity over demand); None when
            no station queues (the latency is fixed delays alone).
        protocol: the path's protocol ("FCP", "NVMe/FC", "NVMe/TCP", "iSCSI", "NFS", "SMB"), naming the ports.
        notes: the path's notes: an IOPS bound's cap note says whose figure it is (one scaled from another
            platform's published figure by core counts is named so).

    Returns:
        E.g. "controller CPU", "FC ports", "host CPU (vSAN)", "vSAN ESA per-host software path limit", "drives";
        "" when ``station`` is None. Raises nothing (an unknown role reads as the station's own name).
    """
    if station is None:
        return ""
    role = station.ident.role
    vsan = station.name.startswith("vSAN")
    if role in ("target_ports", "host_ports"):
        side = "array" if role == "target_ports" else "host"
        return f"{side} {PORT_WORDS.get(protocol, protocol)} ports"
    if role == "cpu":
        if vsan:
            return "host CPU (vSAN)"
        return "VM CPU (Cloud Volumes ONTAP)" if station.ident.node is None else "controller CPU"
    if role == "software_limit":
        if "storage pool" in station.name:
            return "vSAN ESA per-host software path limit"
        return "vSAN OSA per-disk-group software path limit"
    if role == "network":
        return "vSAN network" if vsan else "VM's published network limit"
    if role == "nvram" and "write cache mirror" in station.name:  # an E-Series array's controllers (paths.py)
        return "controller write cache mirroring"
    if role == "iops_bound":  # a cap scaled from another platform's figure says so, never "published" (review 57)
        from models.formatting import CAP_NOTE, derived_bound_words

        caps = [m for m in (CAP_NOTE.match(note) for note in notes) if m is not None]
        derived = derived_bound_words(caps[-1]["whose"]) if caps else ""
        if derived:
            return f"controller IOPS {derived}"
    return ROLE_BOUND_WORDS.get(role, station.name)
