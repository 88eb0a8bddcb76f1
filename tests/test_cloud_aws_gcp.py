"""Cloud Volumes ONTAP in AWS and Google Cloud, and Google Cloud NetApp Volumes (resources/catalog/cloud_aws_gcp.toml,
resources/catalog/managed_gcnv.toml): the records' figures against the published ones they cite, the engine's
provider-neutral rules (the HA node's data-disk limit, the provider's I/O unit, system disks that are never data
disks, a cloud VM's profile derived from a calibrated sibling VM), the bundled examples, and a hand check of
NetApp Volumes' capacity and throughput limits.

Published figures (the records' sources name the documents):
- Amazon EC2 User Guide (awsdocs/amazon-ec2-user-guide, archived June 2023): vCPUs, GiB, baseline network Gbps
  and the EBS-optimized baseline throughput (MB/s, 128 KiB I/O) and IOPS (16 KiB I/O) per instance size.
- Amazon EBS volume types: gp3 3,000 IOPS / 125 MiB/s baseline, up to 16,000 / 1,000 MiB/s; io1 50 IOPS per GiB,
  up to 64,000; st1 40 MiB/s per TiB baseline (cap 500), 500 IOPS of 1 MiB; I/O counted up to 256 KiB (SSD) and
  1,024 KiB (HDD).
- Google 'About Persistent Disk performance': SSD PD 30 IOPS and 0.48 MiB/s per GiB, Balanced 6 and 0.28,
  Standard 0.75 (read) and 0.12.
- CVO release notes (NetAppDocs/cloud-volumes-ontap-relnotes): licence caps Freemium 500 GiB, Explore 2 TiB,
  Standard 10 TiB, Premium 368 TiB (AWS and Google Cloud alike, HA pair counted once); AWS 21 data disks single
  node, 18 per HA node; Google Cloud 124 single node, 123 per HA node; supported disk sizes.
- Google Cloud NetApp Volumes: Standard / Premium / Extreme 16 / 64 / 128 KiBps per GiB of volume capacity (MiB/s
  per TiB); pools 2 TiB - 10 PiB; Flex File default 16 KiBps per GiB of pool up to 1.6 GiBps, 1,024 IOPS per TiB
  up to 60,000.
"""

from __future__ import annotations

import pytest
from example_eval import clean_evaluation

from models.capacity import evaluate_capacity
from models.catalog import CloudDisk, CloudVm, Licence, ManagedService, bundled_catalog
from models.evaluate import evaluate
from models.performance import evaluate_performance
from models.performance.paths import build_path
from models.performance.profiles import profile_basis
from models.problems import find_problems
from models.project import load
from models.project.model import CloudVmNode, ManagedServiceNode, Scenario, Workload
from models.resources import examples_dir

CAT = bundled_catalog()
GIB, TIB, MIB = 2**30, 2**40, 2**20

# size: (vCPU, GiB, baseline network Gbps, EBS baseline MB/s, EBS baseline IOPS) - Amazon EC2 User Guide
EC2 = {
    "m5.xlarge": (4, 16, 1.25, 143.75, 6_000),
    "m5.2xlarge": (8, 32, 2.5, 287.5, 12_000),
    "m5.4xlarge": (16, 64, 5.0, 593.75, 18_750),
    "r5.xlarge": (4, 32, 1.25, 143.75, 6_000),
    "r5.2xlarge": (8, 64, 2.5, 287.5, 12_000),
    "m5n.2xlarge": (8, 32, 8.125, 287.5, 12_000),
    "c5d.4xlarge": (16, 32, 5.0, 593.75, 20_000),
    "m6id.4xlarge": (16, 64, 6.25, 625.0, 20_000),
    "r5.8xlarge": (32, 256, 10.0, 850.0, 30_000),
    "m5.16xlarge": (64, 256, 20.0, 1_700.0, 60_000),
}
# the PAYGO licence each size takes, CVO release notes 'Supported configurations in AWS' (Other licenses)
AWS_PAYGO = {"m5.xlarge": "cvo-explore", "m5.2xlarge": "cvo-standard", "r5.xlarge": "cvo-standard",
             "m5.4xlarge": "cvo-premium-current", "r5.2xlarge": "cvo-premium-current",
             "m5n.2xlarge": "cvo-premium-current", "c5d.4xlarge": "cvo-premium-current",
             "m6id.4xlarge": "cvo-premium-current", "r5.8xlarge": "cvo-premium-current",
             "m5.16xlarge": "cvo-premium-current"}
GCP_PAYGO = {"n2-standard-4": "cvo-explore", "n2-standard-8": "cvo-standard", "n2-standard-16": "cvo-premium-current",
             "n2-standard-32": "cvo-premium-current"}
AWS_DISK_SIZES_GIB = {100, 500, 1024, 2048, 4096, 6144, 8192, 16384}  # gp3 / gp2 / io1 (st1 from 500 GiB)
GCP_DISK_SIZES_GIB = {100, 500, 1024, 2048, 4096, 8192, 16384, 65536}


def _vm(vm_id: str) -> CloudVm:
    return CAT.get(vm_id, CloudVm)


def _vms(provider: str) -> list[CloudVm]:
    return [v for v in CAT.of_kind(CloudVm) if v.provider == provider]


def test_aws_instances_match_the_ec2_user_guide_and_the_cvo_release_notes():
    vms = {v.vm_size: v for v in _vms("AWS")}
    assert set(vms) == set(EC2)
    for size, (vcpu, gib, gbps, mbps, iops) in EC2.items():
        vm = vms[size]
        assert (vm.vcpu, vm.ram_gib, vm.network_mbps) == (vcpu, gib, gbps * 1000), size
        assert (vm.max_uncached_disk_mbps, vm.max_uncached_disk_iops) == (mbps, iops), size
        assert (vm.max_data_disks, vm.max_data_disks_ha) == (21, 18), size
        assert AWS_PAYGO[size] in vm.licences and "cvo-freemium" in vm.licences
        assert vm.nvram_disk == "aws-ebs-io1-47gib-boot" and vm.ha_supported


def test_google_machine_types_take_the_release_notes_disk_limits_and_licences():
    vms = {v.vm_size: v for v in _vms("GCP")}
    assert set(vms) == set(GCP_PAYGO)
    for size, vm in vms.items():
        assert vm.vcpu == int(size.rsplit("-", 1)[1]) and vm.ram_gib == 4 * vm.vcpu
        assert (vm.max_data_disks, vm.max_data_disks_ha) == (124, 123)
        assert vm.network_mbps == min(2 * vm.vcpu, 32) * 1000  # 2 Gbps per vCPU, 32 Gbps default cap
        assert GCP_PAYGO[size] in vm.licences
        assert CAT.get(vm.nvram_disk, CloudDisk).size_bytes == 500 * GIB  # '500 GiB SSD persistent disk for NVRAM'


def test_the_licence_caps_are_the_release_notes_caps_for_aws_and_google_cloud():
    caps = {i: CAT.get(i, Licence).capacity_cap_bytes for i in
            ("cvo-freemium", "cvo-explore", "cvo-standard", "cvo-premium-current")}
    assert caps == {"cvo-freemium": 500 * GIB, "cvo-explore": 2 * TIB, "cvo-standard": 10 * TIB,
                    "cvo-premium-current": 368 * TIB}


def test_ebs_records_follow_the_volume_type_rules():
    disks = [d for d in CAT.of_kind(CloudDisk) if d.provider == "AWS"]
    data = [d for d in disks if d.data_disk]
    assert {d.tier for d in data} == {"gp3", "io1", "st1"}  # CVO: gp3 / gp2, io1 (not io2), st1
    for d in data:
        gib = d.size_bytes // GIB
        assert gib in AWS_DISK_SIZES_GIB, d.id
        if d.tier == "gp3":
            assert (d.iops, d.mbps) in ((3_000, 125 * MIB / 1e6), (16_000, 1_000 * MIB / 1e6)), d.id
        elif d.tier == "io1":
            assert d.iops == min(50 * gib, 64_000), d.id
            expected_mibps = 500 if d.iops <= 32_000 else min(500 + (d.iops - 32_000) * 16 / 1024, 1_000)
            assert d.mbps == pytest.approx(expected_mibps * MIB / 1e6), d.id
        else:
            assert d.iops == 500 and d.io_unit_bytes == 1024 * 1024
            assert d.mbps == pytest.approx(min(40 * gib / 1024, 500) * MIB / 1e6), d.id
        if d.tier != "st1":
            assert d.io_unit_bytes == 256 * 1024
    boot = CAT.get("aws-ebs-io1-47gib-boot", CloudDisk)
    assert not boot.data_disk and boot.size_bytes == 47 * GIB and boot.iops == 50 * 47


def test_persistent_disk_records_scale_with_size():
    rate = {"pd-ssd": (30, 0.48), "pd-balanced": (6, 0.28), "pd-standard": (0.75, 0.12)}
    disks = [d for d in CAT.of_kind(CloudDisk) if d.provider == "GCP"]
    assert {d.tier for d in disks} == set(rate)
    for d in disks:
        gib = d.size_bytes // GIB
        assert gib in GCP_DISK_SIZES_GIB, d.id
        iops, mibps = rate[d.tier]
        assert d.iops == pytest.approx(iops * gib) and d.mbps == pytest.approx(round(mibps * gib * MIB / 1e6, 3))


def test_an_ha_node_in_aws_takes_18_data_disks_a_single_node_21():
    def problems(ha: bool, count: int) -> list[str]:
        node = CloudVmNode(id="cvo", catalog_id="aws-m5-4xlarge", licence="cvo-premium-current", ha=ha,
                           disk="aws-ebs-gp3-1tib", disk_count=count)
        sc = Scenario(name="Base", nodes=[node])
        cap = evaluate_capacity(sc, CAT)
        return [p.message for p in find_problems(sc, CAT)] + [p for s in cap.systems for p in s.problems]

    assert problems(False, 21) == [] and problems(True, 18) == []
    assert any("at most 18 data disks per node of an HA pair" in m for m in problems(True, 19))
    assert any("19 data disks exceed m5.4xlarge's 18 per HA node" in m for m in problems(True, 19))
    assert any("at most 21 data disks" in m for m in problems(False, 22))


def test_a_boot_disk_is_never_a_data_disk():
    node = CloudVmNode(id="cvo", catalog_id="aws-m5-xlarge", licence="cvo-explore", disk="aws-ebs-io1-47gib-boot",
                       disk_count=2)
    messages = [p.message for p in find_problems(Scenario(name="Base", nodes=[node]), CAT)]
    assert any("system disk" in m for m in messages)


def _cvo(vm: str, disk: str, count: int = 6, ha: bool = False, **workload) -> Scenario:
    licence = next(i for i in _vm(vm).licences if i != "cvo-freemium")
    node = CloudVmNode(id="cvo", catalog_id=vm, licence=licence, ha=ha, disk=disk, disk_count=count)
    fields = dict(id="w", name="w", target="cvo", block_kib=8.0, read_pct=70.0, random_pct=100.0, slo_ms=20.0,
                  concurrency=64, dataset_bytes=2 * TIB, working_set_bytes=TIB)
    fields.update(workload)
    return Scenario(name="Base", nodes=[node], workloads=[Workload(**fields)])


def test_st1_counts_sequential_io_in_1_mib_units_gp3_in_256_kib():
    """AWS: 'I/O size is capped at 256 KiB for SSD volumes and 1,024 KiB for HDD volumes': on the same VM and
    workload a 64 KiB sequential read uses 1/16 of an st1 I/O and 1/4 of a gp3 I/O of the disks' IOPS limits."""
    units = {}
    for disk in ("aws-ebs-st1-4tib", "aws-ebs-gp3-4tib"):
        sc = _cvo("aws-m5-4xlarge", disk, block_kib=64.0, read_pct=100.0, random_pct=0.0)
        record = CAT.get(disk, CloudDisk)
        stations = {s.ident.role: s for s in build_path(sc, CAT, sc.workloads[0]).stations}
        units[disk] = stations["disk_iops"].read_s * record.iops * 6  # I/O units per read, 6 disks
        vm_cap = stations["vm_disk_iops"].read_s * _vm("aws-m5-4xlarge").max_uncached_disk_iops
        assert vm_cap == pytest.approx(units[disk], rel=1e-9)  # the VM's IOPS cap counts the same units
    assert units["aws-ebs-st1-4tib"] > 0
    assert units["aws-ebs-st1-4tib"] / units["aws-ebs-gp3-4tib"] == pytest.approx(256 / 1024, rel=1e-9)


def test_aws_and_google_vms_run_on_the_calibrated_azure_profile_of_the_same_vcpu_count():
    sibling = {4: "azure-standard-ds3-v2", 8: "azure-standard-ds4-v2", 16: "azure-standard-ds14-v2",
               32: "azure-standard-ds14-v2", 64: "azure-standard-ds14-v2"}
    for vm in _vms("AWS") + _vms("GCP"):
        basis = profile_basis(vm, "9.5", "iSCSI", CAT)
        assert (basis.kind, basis.sibling, basis.ratio) == ("derived", sibling[vm.vcpu], 1.0), vm.id
    sc = _cvo("aws-m5-4xlarge", "aws-ebs-gp3-2tib")
    cpu = {s.name: s for s in build_path(sc, CAT, sc.workloads[0]).stations}["VM CPU"]
    ds14 = _vm("azure-standard-ds14-v2").performance[0]
    # the sibling's per-core demand on this VM's own 16 vCPUs, inflated by the fitted Amdahl contention
    assert cpu.read_s == pytest.approx(ds14.cpu_read_us * 1e-6 * (1 + ds14.core_contention * 15))
    assert cpu.servers * cpu.multiplicity == _vm("aws-m5-4xlarge").vcpu == 16


def test_the_aws_example_evaluates_without_warnings():
    """(tests/test_sizing.py sizes every bundled example, this one included.)"""
    project, evaluation = clean_evaluation("cvo-aws-m5-4xlarge-ha-oltp.toml")
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "derived" and wp.protocol == "iSCSI"
    assert wp.latency_at_target_ms is not None and wp.latency_at_target_ms <= wp.slo_ms
    # raw = 2 nodes x 6 x 2 TiB; usable = one node's 12 TiB less the 10% WAFL reserve (under the 368 TiB cap)
    total = evaluation.capacity.total
    assert total.raw_bytes == 24 * TIB and total.usable_bytes == pytest.approx(12 * TIB * 0.9)


def test_the_google_cloud_example_evaluates_without_warnings():
    project, evaluation = clean_evaluation("cvo-gcp-n2-standard-8-single-oltp.toml")
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "derived" and wp.latency_at_target_ms <= wp.slo_ms
    assert evaluation.capacity.total.usable_bytes == pytest.approx(4 * TIB * 0.9)  # under the 10 TiB Standard cap


def test_the_gcnv_example_evaluates_without_warnings():
    project = load(examples_dir() / "gcnv-premium-oracle-nfs.toml")
    evaluation = evaluate(project)
    assert not evaluation.problems
    wp = evaluation.performance.workloads[0]
    assert wp.latency_at_target_ms is not None and wp.latency_at_target_ms <= wp.slo_ms


def _gcnv(catalog_id: str, tib: float, block_kib: float = 8.0) -> Scenario:
    node = ManagedServiceNode(id="svc", catalog_id=catalog_id, label="", x=0, y=0, provisioned_bytes=int(tib * TIB))
    w = Workload(id="db", name="db", target="svc", block_kib=block_kib, read_pct=70.0, random_pct=100.0,
                 slo_ms=5.0, concurrency=64, dataset_bytes=TIB)
    return Scenario(name="Base", nodes=[node], workloads=[w])


@pytest.mark.parametrize("level, rate", [("standard", 16), ("premium", 64), ("extreme", 128)])
def test_netapp_volumes_throughput_is_the_volume_capacity_times_the_service_level(level, rate):
    """Hand check: a 4 TiB volume at 'N KiBps per GiB' = N MiB/s per TiB allows 4 x N MiB/s; at 8 KiB per I/O
    that is 4 x N x 128 IOPS (Premium: 32,768, Google's own example: 1,500 GiB Premium ~ 93.75 MiB/s)."""
    record = CAT.get(f"gcnv-{level}", ManagedService)
    assert record.throughput_mibps_per_tib == rate and record.min_capacity_bytes == 2 * TIB
    assert record.max_capacity_bytes == 10 * 1024 * TIB and record.protocols == ["NFS", "SMB"]
    assert 1500 / 1024 * 64 == pytest.approx(93.75)  # Google's example on the Premium rule
    cap = evaluate_capacity(_gcnv(record.id, 4), CAT).total
    assert cap.raw_bytes == cap.usable_bytes == cap.effective_bytes == 4 * TIB  # no efficiencies shown
    wp = evaluate_performance(_gcnv(record.id, 4), CAT).workloads[0]
    assert wp.saturation_iops == pytest.approx(4 * rate * MIB / (8 * 1024), rel=1e-9)
    assert "throughput limit" in wp.bottleneck


def test_netapp_volumes_caps_and_range():
    # Premium 100 TiB would allow 6,400 MiB/s: the per-volume ceiling (4,500 MiB/s, assumed) binds
    wp = evaluate_performance(_gcnv("gcnv-premium", 100, block_kib=64.0), CAT).workloads[0]
    assert wp.saturation_iops == pytest.approx(4_500 * MIB / (64 * 1024), rel=1e-9)
    below = [p.message for p in find_problems(_gcnv("gcnv-premium", 1), CAT)]
    assert any("takes 2 to 10240 TiB" in m for m in below)


def test_a_flex_pool_is_limited_by_its_iops_or_its_throughput():
    """Flex File default: 1,024 IOPS per TiB (10 TiB: 10,240) below 16 MiB/s per TiB / 8 KiB (20,480): IOPS bind;
    at 64 KiB, 160 MiB/s / 64 KiB = 2,560 IOPS bind; at 100 TiB the 60,000 IOPS and 1.6 GiBps caps."""
    record = CAT.get("gcnv-flex-file-default", ManagedService)
    small = evaluate_performance(_gcnv(record.id, 10), CAT).workloads[0]
    assert small.saturation_iops == pytest.approx(10 * 1024, rel=1e-9) and "IOPS limit" in small.bottleneck
    large_io = evaluate_performance(_gcnv(record.id, 10, block_kib=64.0), CAT).workloads[0]
    assert large_io.saturation_iops == pytest.approx(160 * MIB / (64 * 1024), rel=1e-9)
    big = evaluate_performance(_gcnv(record.id, 100), CAT).workloads[0]
    assert big.saturation_iops == pytest.approx(60_000, rel=1e-9)
    assert record.max_throughput_mbps == pytest.approx(1.6 * 2**30 / 1e6, abs=1e-3)


def test_a_cloud_vm_derives_only_from_another_cloud_vm():
    """profile_from of a cloud VM must name a calibrated cloud VM: a controller's profile (another kind of system)
    is refused and the VM falls back to the uncalibrated defaults, reported as assumed."""
    data = _vm("aws-m5-xlarge").model_dump()
    data.update(id="test-vm", profile_from={"sibling": "netapp-aff-a800", "ratio": 1.0})
    vm = CloudVm.model_validate(data)
    basis = profile_basis(vm, "9.5", "iSCSI", CAT)
    assert basis.kind == "assumed" and "not a cloud VM" in basis.reason


def test_local_nvme_flash_cache_serves_reads_that_miss_memory_unless_the_data_is_compressed():
    """c5d.4xlarge: 400 GB of local NVMe (372.5 GiB) behind 16 GiB of read cache (half of 32 GiB); a 1 TiB working
    set read uniformly: memory hits 16 / 1024, memory + Flash Cache (16 + 372.5) / 1024. CVO's Flash Cache needs
    compression disabled (release notes), so a 2:1 compressed workload gets no Flash Cache hits."""
    vm = _vm("aws-c5d-4xlarge")
    assert vm.flash_cache_gib == pytest.approx(400e9 / GIB, abs=0.05) and vm.flash_cache_read_iops == 175_000
    plain = _cvo(vm.id, "aws-ebs-gp3-2tib", compression_ratio=1.0)
    stations = {s.name: s for s in build_path(plain, CAT, plain.workloads[0]).stations}
    flash = stations["Flash Cache (local NVMe)"]
    assert flash.read_s == pytest.approx((16 + 372.5) / 1024 * 1e-4 - 16 / 1024 * 1e-4, rel=1e-3)
    assert flash.servers * flash.multiplicity == round(175_000 * 1e-4)
    packed = _cvo(vm.id, "aws-ebs-gp3-2tib", compression_ratio=2.0)
    assert "Flash Cache (local NVMe)" not in {s.name for s in build_path(packed, CAT, packed.workloads[0]).stations}
    fast = evaluate_performance(plain, CAT).workloads[0]
    slow = evaluate_performance(packed, CAT).workloads[0]
    assert fast.curve[0].latency_ms < slow.curve[0].latency_ms  # fewer reads wait for EBS


def test_google_cloud_attaches_at_most_256_tib_of_data_disks():
    """CVO release notes, storage limits in Google Cloud: 'Maximum system capacity with disks alone 256 TB' (VM
    limits), although 124 disks of up to 64 TB are allowed: 32 x 8 TiB is fine, 33 x 8 TiB is not."""
    def messages(count: int) -> list[str]:
        node = CloudVmNode(id="cvo", catalog_id="gcp-n2-standard-32", licence="cvo-premium-current",
                           disk="gcp-pd-balanced-8tib", disk_count=count)
        sc = Scenario(name="Base", nodes=[node])
        return [p.message for p in find_problems(sc, CAT)] + \
            [p for s in evaluate_capacity(sc, CAT).systems for p in s.problems]

    assert _vm("gcp-n2-standard-32").max_disk_capacity_bytes == 256 * TIB
    assert messages(32) == []
    found = messages(33)
    assert any("256 TiB of data disks" in m for m in found) and any("disks alone" in m for m in found)


def test_the_sizer_offers_no_cloud_design_beyond_the_vms_disk_limits():
    from models.catalog import Catalog
    from models.project.model import Requirements
    from models.sizing import _cloud_candidates

    base = _cvo("gcp-n2-standard-32", "gcp-pd-ssd-1tib")
    gcp = Catalog([e for e in CAT if getattr(e, "provider", "GCP") == "GCP" or e.kind == "licence"])
    for scenario, *_ in _cloud_candidates(base, gcp, Requirements(deployments=["cloud"])):
        node = scenario.nodes[0]
        vm, disk = gcp.get(node.catalog_id, CloudVm), gcp.get(node.disk, CloudDisk)
        assert disk.data_disk and node.disk_count <= vm.data_disk_limit(node.ha)
        assert node.disk_count * disk.size_bytes <= vm.max_disk_capacity_bytes
