"""Cloud Volumes ONTAP on a cloud VM: the cores its I/O path runs on and the VM's and disks' published limits, by
name, so that a bottleneck names the limit that binds.

* **Cores.** The pooled CVO fit (``models.calibration.seed_profiles.CVO_POOLED_MODEL``) fits one CPU service demand
  per I/O per core, the same on every VM size; a VM's CPU station has as many servers as the VM has cores
  (:func:`cvo_cores`). NetApp's Cloud Volumes ONTAP documentation (release notes 'Supported configurations in
  Azure / AWS / Google Cloud', docs.netapp.com/us-en/cloud-volumes-ontap-relnotes/) lists the supported VM types but
  documents no core count of its own per VM, so the VM's vCPUs from the provider's size table (the catalog record's
  ``vcpu``) are the cores (:data:`CORES_BASIS`).
* **VM limits.** Each VM size has a published network bandwidth and a published ceiling on the disk IOPS and
  throughput it may drive (Microsoft 'Sizes for virtual machines in Azure', the series pages' 'Remote storage'
  uncached limits; Amazon EC2 User Guide 'Amazon EBS-optimized instances' baseline IOPS and throughput; Google
  Compute Engine 'About Persistent Disk performance' per-VM limits); the catalog record carries them with their
  sources and the path builder makes them stations. :func:`vm_limit_name` names them in the provider's words with
  the figure, e.g. "VM disk IOPS limit (Azure Standard_E32ds_v5: 51,200 IOPS uncached)".
* **Disk limits.** Each data disk's own IOPS and throughput (Azure Premium SSD / Premium SSD v2 / Ultra, AWS EBS
  gp3 / io1 / io2 / st1, Google pd-ssd / pd-balanced) from the catalog's cloud disk records;
  :func:`disk_limit_name` names the disks' combined limit.
"""

from __future__ import annotations

from models.catalog import CloudDisk, CloudVm

CORES_BASIS = ("the VM's vCPUs (NetApp documents no Cloud Volumes ONTAP core count per VM type; its release notes "
               "list the supported VM types only)")
"""Why :func:`cvo_cores` is the VM's vCPU count: stated wherever the cores are reported."""

PROVIDER_WORDS = {"Azure": "Azure", "AWS": "AWS EC2", "GCP": "Google Cloud"}
"""The provider's name as a limit's label prints it."""

DISK_LIMIT_WORDS = {
    "Azure": ("VM disk IOPS limit", "IOPS uncached", "VM disk throughput limit", "MB/s uncached"),
    "AWS": ("VM EBS IOPS limit", "IOPS EBS-optimized baseline", "VM EBS throughput limit",
            "MB/s EBS-optimized baseline"),
    "GCP": ("VM persistent disk IOPS limit", "IOPS per VM", "VM persistent disk throughput limit", "MB/s per VM"),
}
"""Per provider: (IOPS limit's name, its unit words, throughput limit's name, its unit words), as each provider's
documentation calls the per-VM disk limits (Azure 'max uncached disk IOPS / throughput', AWS 'EBS-optimized'
baseline IOPS / throughput, Google per-VM Persistent Disk limits)."""


def cvo_cores(vm: CloudVm) -> int:
    """Cores Cloud Volumes ONTAP's I/O path runs on for this VM: its vCPUs (:data:`CORES_BASIS`)."""
    return vm.vcpu


def _vm_label(vm: CloudVm) -> str:
    return f"{PROVIDER_WORDS.get(vm.provider, vm.provider)} {vm.vm_size}"


def vm_limit_name(vm: CloudVm, limit: str) -> str:
    """The display name of one of a VM's published limits, with its figure.

    Args:
        vm: the cloud VM record.
        limit: "network" (bandwidth, Mbit/s), "disk_iops" or "disk_mbps" (the VM's disk IOPS / throughput ceiling).

    Raises:
        ValueError: an unknown ``limit``.
    """
    if limit == "network":
        return f"VM network bandwidth limit ({_vm_label(vm)}: {vm.network_mbps:,.0f} Mbit/s)"
    iops_name, iops_unit, mbps_name, mbps_unit = DISK_LIMIT_WORDS.get(vm.provider, DISK_LIMIT_WORDS["Azure"])
    if limit == "disk_iops":
        return f"{iops_name} ({_vm_label(vm)}: {vm.max_uncached_disk_iops:,.0f} {iops_unit})"
    if limit == "disk_mbps":
        return f"{mbps_name} ({_vm_label(vm)}: {vm.max_uncached_disk_mbps:,.0f} {mbps_unit})"
    raise ValueError(f"unknown VM limit {limit!r}: expected 'network', 'disk_iops' or 'disk_mbps'")


def disk_limit_name(disk: CloudDisk, count: int, limit: str) -> str:
    """The display name of ``count`` data disks' combined IOPS ("iops") or throughput ("mbps") limit, with the
    per-disk figure, e.g. "Azure Premium SSD P30 ... IOPS limit (6 disks x 5,000 IOPS)".

    Raises:
        ValueError: an unknown ``limit``.
    """
    disks = f"{count} disk{'s' if count != 1 else ''}"
    if limit == "iops":
        return f"{disk.name} IOPS limit ({disks} x {disk.iops:,.0f} IOPS)"
    if limit == "mbps":
        return f"{disk.name} throughput limit ({disks} x {disk.mbps:,.0f} MB/s)"
    raise ValueError(f"unknown disk limit {limit!r}: expected 'iops' or 'mbps'")


def nvram_limit_name(disk: CloudDisk, limit: str) -> str:
    """The display name of the NVRAM (write log) disk's throughput ("mbps") or IOPS ("iops") limit, with its figure,
    e.g. "NVRAM log disk throughput limit (Azure Premium SSD P20 ...: 150 MB/s)".

    Raises:
        ValueError: an unknown ``limit``.
    """
    if limit == "mbps":
        return f"NVRAM log disk throughput limit ({disk.name}: {disk.mbps:,.0f} MB/s)"
    if limit == "iops":
        return f"NVRAM log disk IOPS limit ({disk.name}: {disk.iops:,.0f} IOPS)"
    raise ValueError(f"unknown NVRAM disk limit {limit!r}: expected 'iops' or 'mbps'")
