"""Cloud Volumes ONTAP on current Azure VM sizes and disks (resources/catalog/cloud_azure_current.toml): the records'
figures against the published ones they cite (Edsv5, Edsv4 and Lsv3 sizes; Standard SSD and Premium SSD v2 disks),
the HA data-disk limit per node, licences and disk types offered for a single node only or on some VM sizes only,
Flash Cache on the Lsv3 sizes' local NVMe, the profiles derived from the calibrated DS_v2 VMs, and the example.

Published figures (the records' sources name the documents):
- Microsoft 'Edsv5 sizes series', 'Edsv4 sizes series' and 'Lsv3 sizes series' (MicrosoftDocs/azure-compute-docs):
  vCPUs, memory, max network bandwidth (Mb/s), max remote disks, uncached Premium SSD IOPS and MB/s; Lsv3 NVMe
  disks (1.92 TB each) and their IOPS. 'Azure managed disk types': Standard SSD E-tier sizes and limits; Premium
  SSD v2 baseline 3,000 IOPS / 125 MB/s, up to 80,000 IOPS and 1,200 MB/s.
- CVO release notes (NetAppDocs/cloud-volumes-ontap-relnotes, 'Supported configurations in Azure' and 'Storage
  limits in Azure'): the sizes and their PAYGO licences; max data disks single node (E4ds 5, E8ds 13, E20ds and
  larger 29, L8s_v3 12, L16s_v3 and larger 28) and for an HA pair with shared managed disks (E8ds 12, others 28);
  max system capacity with disks alone (160 / 416 / 384 / 896 TiB); Standard SSD for single nodes only; Premium
  SSD v2 for HA pairs and capacity-based single nodes.
"""

from __future__ import annotations

import pytest
from example_eval import clean_evaluation

from models.catalog import CloudVm, bundled_catalog
from models.performance.paths import build_path
from models.performance.profiles import profile_basis
from models.problems import find_problems
from models.project.model import CloudVmNode, Requirements, Scenario, Workload

CAT = bundled_catalog()
GIB, TIB = 2**30, 2**40
FILE = "cloud_azure_current.toml"

# size: (vCPU, GiB, network Mb/s, Microsoft's max remote disks, uncached IOPS, uncached MB/s) - Microsoft size pages
AZURE = {
    "E4ds_v5": (4, 32, 12_500, 8, 6_400, 145),
    "E8ds_v5": (8, 64, 12_500, 16, 12_800, 290),
    "E20ds_v5": (20, 160, 12_500, 32, 32_000, 750),
    "E32ds_v5": (32, 256, 16_000, 32, 51_200, 865),
    "E48ds_v5": (48, 384, 24_000, 32, 76_800, 1_315),
    "E64ds_v5": (64, 512, 30_000, 32, 80_000, 1_735),
    "E4ds_v4": (4, 32, 10_000, 8, 6_400, 96),
    "E8ds_v4": (8, 64, 12_500, 16, 12_800, 192),
    "E32ds_v4": (32, 256, 16_000, 32, 51_200, 768),
    "E48ds_v4": (48, 384, 24_000, 32, 76_800, 1_152),
    "L8s_v3": (8, 64, 12_500, 16, 12_800, 290),
    "L16s_v3": (16, 128, 12_500, 32, 25_600, 600),
    "L32s_v3": (32, 256, 16_000, 32, 51_200, 865),
}
# size: (CVO max data disks single node, for an HA pair (None: no HA), disks-alone TiB single node, PAYGO licence)
CVO = {
    "E4ds_v5": (5, None, 160, "cvo-explore"),
    "E8ds_v5": (13, 12, 416, "cvo-standard"),
    "E20ds_v5": (29, 28, 896, "cvo-premium-current"),
    "E32ds_v5": (29, 28, 896, "cvo-premium-current"),
    "E48ds_v5": (29, 28, 896, "cvo-premium-current"),
    "E64ds_v5": (29, 28, 896, "cvo-premium-current"),
    "E4ds_v4": (5, None, 160, "cvo-explore"),
    "E8ds_v4": (13, 12, 416, "cvo-standard"),  # PAYGO Standard for HA pairs too (unlike E8ds_v5)
    "E32ds_v4": (29, 28, 896, "cvo-premium-current"),
    "E48ds_v4": (29, 28, 896, "cvo-premium-current"),
    "L8s_v3": (12, None, 384, "cvo-standard"),  # HA listed, its disk limit not published (assumed 6 per node)
    "L16s_v3": (28, 28, 896, "cvo-premium-current"),
    "L32s_v3": (28, 28, 896, "cvo-premium-current"),
}
NVME = {"L8s_v3": (1, 400_000), "L16s_v3": (2, 800_000), "L32s_v3": (4, 1_500_000)}  # 1.92 TB disks, IOPS


def _vms() -> dict[str, CloudVm]:
    return {v.vm_size.removeprefix("Standard_"): v for v in CAT.of_kind(CloudVm) if v.id.startswith("azure-standard-")
            and v.vm_size.removeprefix("Standard_") in AZURE}


def test_the_vm_sizes_match_microsofts_size_pages():
    vms = _vms()
    assert set(vms) == set(AZURE)
    for size, (vcpu, gib, mbps_net, vm_disks, iops, mbps) in AZURE.items():
        vm = vms[size]
        assert (vm.vcpu, vm.ram_gib, vm.network_mbps) == (vcpu, gib, mbps_net), size
        assert (vm.max_uncached_disk_iops, vm.max_uncached_disk_mbps) == (iops, mbps), size
        assert vm.max_data_disks < vm_disks  # CVO's root, NVRAM and core disks take the rest of the VM's limit
        assert vm.provider == "Azure" and "Microsoft" in vm.source_of("vcpu")


def test_the_cvo_limits_and_licences_are_the_release_notes():
    for size, vm in _vms().items():
        single, pair, tib, licence = CVO[size]
        assert vm.max_data_disks == single and vm.max_disk_capacity_bytes == tib * TIB, size
        assert licence in vm.licences and "cvo-freemium" in vm.licences, size
        if pair:  # 'Max data disks for an HA pair': each VM attaches both nodes' disks, half per node
            assert vm.ha_supported and vm.max_data_disks_ha == pair // 2, size
            assert vm.kind_of("max_data_disks_ha") == "derived"
        elif vm.ha_supported:
            assert vm.kind_of("max_data_disks_ha") == "assumed"
    assert not _vms()["E4ds_v5"].ha_supported and not _vms()["E4ds_v4"].ha_supported
    assert _vms()["E8ds_v4"].single_node_licences == [] and _vms()["E8ds_v5"].single_node_licences == ["cvo-standard"]
    assert _vms()["L8s_v3"].max_data_disks_ha == 6


def test_every_vm_writes_nvram_to_the_documented_512_gib_premium_ssd():
    for vm in _vms().values():
        assert vm.nvram_disk == "azure-premium-lrs-p20"
        assert CAT.get(vm.nvram_disk).size_bytes == 512 * GIB
        assert "Default configuration for Cloud Volumes ONTAP" in vm.source_of("nvram_disk")


def test_lsv3_local_nvme_is_flash_cache():
    for size, vm in _vms().items():
        if size in NVME:
            count, iops = NVME[size]
            assert vm.flash_cache_gib == pytest.approx(count * 1.92e12 / GIB, abs=0.05)
            assert vm.flash_cache_read_iops == iops
        else:
            assert vm.flash_cache_gib is None  # Edsv5's temp disk is not used as Flash Cache


def test_profiles_derive_from_the_calibrated_ds_v2_vm_of_the_same_vcpu_count():
    sibling = {4: "azure-standard-ds3-v2", 8: "azure-standard-ds4-v2", 16: "azure-standard-ds14-v2"}
    for vm in _vms().values():
        basis = profile_basis(vm, "9.5", "iSCSI", CAT)
        expected = sibling.get(vm.vcpu, "azure-standard-ds14-v2")  # above 16 vCPUs: the largest calibrated
        assert (basis.kind, basis.sibling, basis.ratio) == ("derived", expected, 1.0), vm.id
        assert vm.kind_of("profile_from") == "derived"


def _node(vm_id: str, licence: str, ha: bool, count: int = 4) -> Scenario:
    node = CloudVmNode(id="cvo", catalog_id=vm_id, licence=licence, ha=ha, disk="azure-premium-lrs-p30",
                       disk_count=count)
    w = Workload(id="w", name="w", target="cvo", block_kib=8.0, read_pct=70.0, random_pct=100.0, slo_ms=20.0,
                 concurrency=64, dataset_bytes=TIB)
    return Scenario(name="Base", nodes=[node], workloads=[w])


def _messages(sc: Scenario) -> list[str]:
    return [p.message for p in find_problems(sc, CAT)]


def test_paygo_standard_on_e8ds_v5_is_a_single_node_licence():
    """Release notes: single-node PAYGO Standard lists E8ds_v5; HA PAYGO Standard lists E8bds_v5, E8ds_v4, L8s_v3."""
    assert _messages(_node("azure-standard-e8ds-v5", "cvo-standard", ha=False)) == []
    assert any("single node only" in m for m in _messages(_node("azure-standard-e8ds-v5", "cvo-standard", ha=True)))
    assert _messages(_node("azure-standard-e8ds-v5", "cvo-freemium", ha=True)) == []
    assert _messages(_node("azure-standard-l8s-v3", "cvo-standard", ha=True)) == []
    assert any("7 data disks" in m or "at most 6" in m
               for m in _messages(_node("azure-standard-e8ds-v5", "cvo-freemium", ha=True, count=7)))


def _azure_sizer_nodes(vm_id: str, licence: str, ha: bool):
    """The cloud VM node of every design the sizer builds from a base on ``vm_id`` with the Azure records only."""
    from models.catalog import Catalog
    from models.sizing import _cloud_candidates

    base = _node(vm_id, licence, ha=ha)
    azure = Catalog([e for e in CAT if getattr(e, "provider", "Azure") == "Azure" or e.kind == "licence"])
    for scenario, *_ in _cloud_candidates(base, azure, Requirements(deployments=["cloud"])):
        yield scenario.nodes[0]


def test_the_sizer_offers_no_ha_pair_on_a_single_node_licence():
    seen = set()
    for node in _azure_sizer_nodes("azure-standard-e8ds-v5", "cvo-standard", ha=False):
        vm = CAT.get(node.catalog_id, CloudVm)
        assert not (node.ha and node.licence in vm.single_node_licences)
        seen.add((node.catalog_id, node.licence, node.ha))
    assert ("azure-standard-e8ds-v5", "cvo-standard", False) in seen
    assert ("azure-standard-e8ds-v5", "cvo-standard", True) not in seen


def test_l16s_v3_reads_that_miss_memory_hit_flash_cache():
    sc = _node("azure-standard-l16s-v3", "cvo-premium-current", ha=False)
    names = {s.name for s in build_path(sc, CAT, sc.workloads[0]).stations}
    assert "Flash Cache (local NVMe)" in names


def test_the_example_evaluates_without_warnings():
    """(tests/test_sizing.py sizes every bundled example, this one included.)"""
    project, evaluation = clean_evaluation("cvo-azure-e20ds-v5-ha-oltp.toml")
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "derived" and wp.protocol == "iSCSI"
    assert wp.latency_at_target_ms is not None and wp.latency_at_target_ms <= wp.slo_ms
    # raw = 2 nodes x 6 x 2 TiB (P40); usable = one node's 12 TiB less the 10% WAFL reserve
    total = evaluation.capacity.total
    assert total.raw_bytes == 24 * TIB and total.usable_bytes == pytest.approx(12 * TIB * 0.9)


# Standard SSD sizes (Microsoft 'Azure managed disk types', Standard SSD table): tier -> (GiB, base IOPS, base MB/s)
STANDARD_SSD = {"e20": (512, 500, 60), "e30": (1_024, 500, 60), "e40": (2_048, 500, 60), "e50": (4_096, 500, 60),
                "e60": (8_192, 2_000, 400), "e70": (16_384, 4_000, 600), "e80": (32_767, 6_000, 750)}


def test_standard_ssd_records_are_microsofts_table_and_single_node_only():
    from models.catalog import CloudDisk

    disks = {d.id: d for d in CAT.of_kind(CloudDisk) if d.tier == "StandardSSD_LRS"}
    assert set(disks) == {f"azure-standardssd-lrs-{t}" for t in STANDARD_SSD}
    for tier, (gib, iops, mbps) in STANDARD_SSD.items():
        d = disks[f"azure-standardssd-lrs-{tier}"]
        assert (d.size_bytes, d.iops, d.mbps) == (gib * GIB, iops, mbps)
        assert d.single_node_only and d.data_disk and d.io_unit_bytes == 256 * 1024
        assert d.kind_of("latency_us") == "assumed"
    # Premium SSD (v1) stays available to HA pairs
    assert not CAT.get("azure-premium-lrs-p30", CloudDisk).single_node_only


def test_an_ha_pair_on_standard_ssd_is_refused_and_never_sized():
    from models.catalog import Catalog, CloudDisk
    from models.sizing import _cloud_candidates

    def on(disk: str, ha: bool) -> list[str]:
        node = CloudVmNode(id="cvo", catalog_id="azure-standard-e20ds-v5", licence="cvo-premium-current", ha=ha,
                           disk=disk, disk_count=4)
        return _messages(Scenario(name="Base", nodes=[node]))

    assert on("azure-standardssd-lrs-e40", ha=False) == []
    assert any("single node only" in m for m in on("azure-standardssd-lrs-e40", ha=True))
    base = _node("azure-standard-e20ds-v5", "cvo-premium-current", ha=False)
    azure = Catalog([e for e in CAT if getattr(e, "provider", "Azure") == "Azure" or e.kind == "licence"])
    tiers = {(s.nodes[0].ha, azure.get(s.nodes[0].disk, CloudDisk).tier)
             for s, *_ in _cloud_candidates(base, azure, Requirements(deployments=["cloud"]))}
    assert (False, "StandardSSD_LRS") in tiers and (True, "StandardSSD_LRS") not in tiers
    assert (True, "Premium_LRS") in tiers


def test_premium_ssd_v2_records_follow_microsofts_rules():
    """'Azure managed disk types': baseline 3,000 IOPS and 125 MB/s free; up to 80,000 IOPS (from 160 GiB) and
    1,200 MB/s (from 5,000 IOPS); sizes 1 GiB - 64 TiB."""
    from models.catalog import CloudDisk

    disks = [d for d in CAT.of_kind(CloudDisk) if d.tier == "PremiumV2_LRS"]
    assert len(disks) == 9
    for d in disks:
        assert (d.iops, d.mbps) in ((3_000, 125), (80_000, 1_200)), d.id
        assert GIB <= d.size_bytes <= 64 * TIB and (d.iops < 80_000 or d.size_bytes >= 160 * GIB)
        assert set(d.vms) == {v.id for v in _vms().values()}  # the current families only, every id resolves
        assert d.single_node_needs_licence == ["cvo-freemium"] and not d.single_node_only


def test_premium_ssd_v2_is_refused_on_ds_v2_and_on_a_paygo_single_node():
    def on(vm: str, licence: str, ha: bool) -> list[str]:
        node = CloudVmNode(id="cvo", catalog_id=vm, licence=licence, ha=ha, disk="azure-premiumv2-lrs-2tib",
                           disk_count=4)
        return _messages(Scenario(name="Base", nodes=[node]))

    assert on("azure-standard-e20ds-v5", "cvo-premium-current", ha=True) == []
    assert on("azure-standard-e20ds-v5", "cvo-freemium", ha=False) == []
    assert any("single node only with licence cvo-freemium" in m
               for m in on("azure-standard-e20ds-v5", "cvo-premium-current", ha=False))
    assert any("not offered on this VM size" in m for m in on("azure-standard-ds14-v2", "cvo-premium-current", True))


def test_the_sizer_offers_premium_ssd_v2_only_where_cvo_takes_it():
    from models.catalog import CloudDisk

    seen = set()
    for node in _azure_sizer_nodes("azure-standard-e20ds-v5", "cvo-premium-current", ha=True):
        disk = CAT.get(node.disk, CloudDisk)
        assert disk.refusal(node.catalog_id, node.ha, node.licence) is None
        if disk.tier == "PremiumV2_LRS":
            seen.add((node.catalog_id, node.ha, node.licence))
    assert ("azure-standard-e20ds-v5", True, "cvo-premium-current") in seen
    assert ("azure-standard-e20ds-v5", False, "cvo-freemium") in seen
    assert not any(vm.startswith("azure-standard-ds") for vm, *_ in seen)
    assert not any(not ha and lic != "cvo-freemium" for _, ha, lic in seen)
