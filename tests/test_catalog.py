"""The bundled hardware catalog: it loads, holds every seed system, and its numbers match their sources.

Expected numbers are restated here as literals (not parsed from the catalog or from ../shared), each with the
document it comes from, so a typo in the TOML cannot agree with itself.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from models.catalog import (
    PROVENANCE_KINDS,
    Adapter,
    CatalogError,
    CloudDisk,
    CloudVm,
    Controller,
    Drive,
    HciNode,
    Host,
    Licence,
    LinkType,
    Shelf,
    Switch,
    bundled_catalog,
)
from models.catalog.loader import load_file
from models.resources import catalog_dir

MIB = 2**20
GIB = 2**30
TIB = 2**40


@pytest.fixture(scope="module")
def catalog():
    return bundled_catalog()


# ----------------------------------------------------------------------------- loading and seed systems

SEED_IDS = {
    Controller: ["netapp-aff8080a-ex", "netapp-aff-a800", "netapp-ef550", "generic-spinning-fc-array-4x16"],
    Shelf: ["netapp-ds2246", "netapp-ef550-integrated-24", "netapp-a800-internal-nvme", "generic-fc-al-16"],
    Drive: [
        "netapp-x447a-800gb-ssd",
        "netapp-1500gb-nvme-ssd-a800",
        "netapp-eseries-800gb-ssd",
        "intel-ssdsc2ba400g4-s3710-400gb",
        "intel-ssdsc2bx400g4-s3610-400gb",
        "generic-300gb-15k-fc-hdd",
    ],
    Host: ["fujitsu-primergy-rx300-s7", "hp-dl980-g7"],
    Adapter: ["qlogic-qle2562", "emulex-lpe32002", "generic-nic-10gbe-2p", "generic-nic-25gbe-2p"],
    LinkType: ["fc-8g", "fc-16g", "fc-32g", "nvme-fc-16g", "nvme-fc-32g", "iscsi-10g", "iscsi-25g", "sas-6g",
               "sas-12g", "pcie-nvme"],
    Switch: ["brocade-6510", "brocade-g630", "cisco-nexus-5596"],
    HciNode: ["vsan-6.2-allflash-host"],
    CloudVm: ["azure-standard-ds3-v2", "azure-standard-ds4-v2", "azure-standard-ds14-v2"],
    CloudDisk: ["azure-premium-lrs-p10", "azure-premium-lrs-p30", "azure-premium-lrs-p80"],
    Licence: ["cvo-explore", "cvo-standard", "cvo-premium"],
}


def test_bundled_catalog_loads_with_version(catalog):
    assert len(catalog) > 50
    assert re.fullmatch(r"\d{4}\.\d{1,2}\.\d+", catalog.version), catalog.version
    assert (catalog_dir() / "VERSION").read_text(encoding="utf-8").strip() == catalog.version


@pytest.mark.parametrize("kind,ids", SEED_IDS.items(), ids=[k.KIND for k in SEED_IDS])
def test_every_seed_system_is_present(catalog, kind, ids):
    for entry_id in ids:
        assert isinstance(catalog.get(entry_id, kind), kind)


def test_cross_references_resolve(catalog):
    """Ids named inside records (shelves, links, drives, licences) exist and have the right kind."""
    for ctrl in catalog.of_kind(Controller):
        for shelf_id in ctrl.shelves:
            catalog.get(shelf_id, Shelf)
        if ctrl.backend_link:
            catalog.get(ctrl.backend_link, LinkType)
        for profile in ctrl.performance:  # fitted by models.calibration
            assert profile.software in ctrl.software_versions, (ctrl.id, profile.software)
            assert profile.protocol in ctrl.protocols, (ctrl.id, profile.protocol)
            assert profile.source, (ctrl.id, profile.software, profile.protocol)
    for shelf in catalog.of_kind(Shelf):
        catalog.get(shelf.backend_link, LinkType)
    for node in catalog.of_kind(HciNode):
        if node.architecture == "osa":  # an ESA host has no cache tier (schema HciNode)
            catalog.get(node.cache_drive, Drive)
        catalog.get(node.capacity_drive, Drive)
    for vm in catalog.of_kind(CloudVm):
        for licence in vm.licences:
            catalog.get(licence, Licence)


def _holds_number(value) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, (int, float)):
        return True
    if isinstance(value, dict):
        return any(_holds_number(v) for v in value.values())
    if isinstance(value, BaseModel):  # e.g. RaidGroupRule
        return any(_holds_number(getattr(value, f)) for f in type(value).model_fields)
    return False


def test_every_numeric_field_has_a_source(catalog):
    """The schema enforces it at load time; check again over the loaded records, zero values included."""
    checked = 0
    for entry in catalog:
        for name in type(entry).model_fields:
            if name in ("provenance", "performance") or not _holds_number(getattr(entry, name)):
                continue
            source = entry.source_of(name).strip()
            assert source, f"{entry.kind} '{entry.id}': {name} has no source"
            assert entry.kind_of(name) in PROVENANCE_KINDS
            if entry.kind_of(name) == "assumed":
                assert len(source) >= 8, f"{entry.id}.{name}: assumption without reason"
            checked += 1
    assert checked > 300


def test_ids_are_unique_across_files():
    seen: dict[str, str] = {}
    for path in sorted(catalog_dir().glob("*.toml")):
        for entry in load_file(path):
            assert entry.id not in seen, f"{entry.id} in {path.name} and {seen[entry.id]}"
            seen[entry.id] = path.name


# ----------------------------------------------------------------------------- right-sized capacities

# NetApp TR-3838 Storage Subsystem Configuration Guide, as restated in ../shared/reference/public_facts.md:
# part -> (right-sized MiB, RAID4 default/max, RAID DP default/max).
TR3838 = {
    "netapp-x410a-300gb-sas-10k": (272_000, (8, 14), (16, 28)),
    "netapp-x422a-600gb-sas-10k": (560_000, (8, 14), (16, 28)),
    "netapp-x423a-900gb-sas-10k": (857_000, (8, 14), (16, 28)),
    "netapp-x425a-1200gb-sas-10k": (1_142_352, (8, 14), (16, 28)),
    "netapp-x446b-200gb-ssd": (190_532, (8, 14), (23, 28)),
    "netapp-x438a-400gb-ssd": (381_304, (8, 14), (23, 28)),
    "netapp-x447a-800gb-ssd": (762_847, (8, 14), (23, 28)),
    "netapp-x439a-1600gb-ssd": (1_525_935, (8, 14), (23, 28)),
    "netapp-x302a-1tb-sata-7k2": (847_555, (7, 7), (14, 20)),
    "netapp-x306a-2tb-sata-7k2": (1_695_466, (7, 7), (14, 20)),
    "netapp-x477a-4tb-nlsas-7k2": (3_807_816, (7, 7), (14, 20)),
    "netapp-x316a-6tb-nlsas-7k2": (5_614_621, (7, 7), (14, 14)),
}


@pytest.mark.parametrize("drive_id", TR3838)
def test_tr3838_right_sized_and_raid_groups(catalog, drive_id):
    mib, raid4, raid_dp = TR3838[drive_id]
    drive = catalog.get(drive_id, Drive)
    assert drive.right_sized_bytes == mib * MIB
    assert (drive.raid_group_sizes["raid4"].default, drive.raid_group_sizes["raid4"].max) == raid4
    assert (drive.raid_group_sizes["raid_dp"].default, drive.raid_group_sizes["raid_dp"].max) == raid_dp
    assert "TR-3838" in drive.source_of("right_sized_bytes")


def test_x447a_is_762847_mib(catalog):
    drive = catalog.get("netapp-x447a-800gb-ssd", Drive)
    assert drive.right_sized_bytes == 762_847 * 2**20
    assert drive.right_sized_bytes / GIB == pytest.approx(744.96, abs=0.01)
    assert drive.marketed_bytes == 800 * 10**9  # seed 000 Table 2: 800GB


def test_eseries_800gb_is_744_gib(catalog):
    """Seed 003: '24 800 GB SSDs each yielding 744 GB for a total of 17.4TB' (binary units)."""
    drive = catalog.get("netapp-eseries-800gb-ssd", Drive)
    assert drive.right_sized_bytes == 744 * 2**30
    shelf = catalog.get("netapp-ef550-integrated-24", Shelf)
    total_tib = shelf.bays * drive.right_sized_bytes / TIB
    assert total_tib == pytest.approx(17.4, rel=0.02)  # published.toml ef550-24x800 raw_usable_tib, tolerance 2%


def test_aff8080_adp_root_partition_reproduces_seed_usable(catalog):
    """published.toml aff8080-48x800-adp-raiddp: 25.5 TiB usable, 12.7 TiB per node, tolerance 2%.

    Interpretation: seed 000 Table 3's 'aggr0 root 55GB' is the per-drive ADP root partition (55 GiB) with 24
    partitioned drives per node; per node 21 data partitions; WAFL reserve 10% (ONTAP 9.0).
    """
    ctrl = catalog.get("netapp-aff8080a-ex", Controller)
    drive = catalog.get("netapp-x447a-800gb-ssd", Drive)
    root = ctrl.adp_root_partition_bytes["24"]
    assert root == 55 * GIB
    per_node = 21 * (drive.right_sized_bytes - root) * 0.9 / TIB
    assert per_node == pytest.approx(12.7, rel=0.02)
    assert ctrl.nodes * per_node == pytest.approx(25.5, rel=0.02)
    assert "root-data" in ctrl.adp


def test_right_sized_never_exceeds_marketed(catalog):
    for drive in catalog.of_kind(Drive):
        assert 0 < drive.right_sized_bytes <= drive.marketed_bytes, drive.id


# ----------------------------------------------------------------------------- controllers and hosts (seed numbers)


def test_controller_ports_match_seeds(catalog):
    aff8080 = catalog.get("netapp-aff8080a-ex", Controller)  # seed 000 Table 2
    assert (aff8080.nodes, aff8080.fc_ports_per_node, aff8080.fc_port_speed_gbps) == (2, 4, 16)
    assert (aff8080.ethernet_ports_per_node, aff8080.ethernet_port_speed_gbps) == (2, 10)
    assert set(aff8080.software_versions) >= {"8.3.1", "9.0"}
    a800 = catalog.get("netapp-aff-a800", Controller)  # seed 001 Table 2
    assert (a800.nodes, a800.fc_ports_per_node, a800.fc_port_speed_gbps) == (2, 4, 32)
    assert set(a800.protocols) >= {"FCP", "NVMe/FC"}
    assert set(a800.software_versions) >= {"9.4", "9.5"}
    ef550 = catalog.get("netapp-ef550", Controller)  # seed 003
    assert (ef550.nodes, ef550.fc_ports_per_node, ef550.fc_port_speed_gbps) == (2, 4, 8)
    assert ef550.max_throughput_mbps == 12_000
    spinning = catalog.get("generic-spinning-fc-array-4x16", Controller)  # seed 003
    assert (spinning.nodes, spinning.fc_ports_per_node, spinning.fc_port_speed_gbps) == (4, 16, 8)


def test_hosts_match_seeds(catalog):
    rx300 = catalog.get("fujitsu-primergy-rx300-s7", Host)  # seed 000 / 001 Table 1
    assert (rx300.sockets, rx300.cores, rx300.memory_gib) == (2, 12, 128)
    dl980 = catalog.get("hp-dl980-g7", Host)  # seed 003 Hardware Description
    assert (dl980.cores, dl980.memory_gib) == (64, 505)


def test_nvme_fc_host_cpu_ratio_is_seed_001(catalog):
    """published.toml a800-nvmefc-host-cpu: NVMe/FC uses 0.57 of FCP's host CPU (up to 43% less), tolerance 10%."""
    rx300 = catalog.get("fujitsu-primergy-rx300-s7", Host)
    ratio = rx300.cpu_us_per_io["NVMe/FC"] / rx300.cpu_us_per_io["FCP"]
    assert ratio == pytest.approx(0.57, rel=0.01)
    assert rx300.stack_latency_us["NVMe/FC"] < rx300.stack_latency_us["FCP"] < rx300.stack_latency_us["iSCSI"]


def test_vsan_host_rules(catalog):
    node = catalog.get("vsan-6.2-allflash-host", HciNode)  # public_facts.md vSAN section
    assert node.max_capacity_per_group == 7
    assert node.slack_space_pct == 30
    assert node.dedupe_metadata_pct == 5
    assert node.all_flash


# ----------------------------------------------------------------------------- links


def test_fc_payload_rates(catalog):
    """FCIA speed roadmap (public_facts.md): 8/16/32GFC about 800/1,600/3,200 MB/s per direction."""
    expected = {"fc-8g": 800, "fc-16g": 1600, "fc-32g": 3200, "nvme-fc-16g": 1600, "nvme-fc-32g": 3200}
    for link_id, mbps in expected.items():
        link = catalog.get(link_id, LinkType)
        assert link.payload_mbps == mbps
        assert link.medium == "FC"
    for link_id in ("fc-8g", "fc-16g", "fc-32g"):
        assert catalog.get(link_id, LinkType).protocols == ["FCP"]
    for link_id in ("nvme-fc-16g", "nvme-fc-32g"):
        assert catalog.get(link_id, LinkType).protocols == ["NVMe/FC"]


def test_sas_payload_is_per_lane(catalog):
    assert catalog.get("sas-6g", LinkType).payload_mbps == 600
    assert catalog.get("sas-12g", LinkType).payload_mbps == 1200


# ----------------------------------------------------------------------------- cloud

# published.toml [[fact]] azure-vm-table1 (seed 004 Table 1): vm -> (vcpu, ram GB, network Mbps).
AZURE_TABLE1 = {
    "Standard_DS3_v2": (4, 14, 3000),
    "Standard_DS4_v2": (8, 28, 6000),
    "Standard_DS14_v2": (16, 112, 12000),
}
# public_facts.md Azure table: vm -> (max data disks, uncached IOPS, uncached MBps).
AZURE_LIMITS = {
    "Standard_DS3_v2": (16, 12_800, 192),
    "Standard_DS4_v2": (32, 25_600, 384),
    "Standard_DS5_v2": (64, 51_200, 768),
    "Standard_DS13_v2": (32, 25_600, 384),
    "Standard_DS14_v2": (64, 51_200, 768),
}


def _vm(catalog, size: str) -> CloudVm:
    matches = [vm for vm in catalog.of_kind(CloudVm) if vm.vm_size == size]
    assert len(matches) == 1, size
    return matches[0]


@pytest.mark.parametrize("size", AZURE_TABLE1)
def test_azure_vm_table1(catalog, size):
    vm = _vm(catalog, size)
    assert (vm.vcpu, vm.ram_gib, vm.network_mbps) == AZURE_TABLE1[size]
    assert "TR-4671" in vm.source_of("vcpu")  # the seed 004 report, cited by its public number


@pytest.mark.parametrize("size", AZURE_LIMITS)
def test_azure_vm_disk_limits(catalog, size):
    vm = _vm(catalog, size)
    assert (vm.max_data_disks, vm.max_uncached_disk_iops, vm.max_uncached_disk_mbps) == AZURE_LIMITS[size]


def test_cvo_licences_per_vm(catalog):
    """Seed 004 §3: DS3_v2 Explore, DS4_v2 Standard, DS14_v2 Premium; HA 'Not applicable' for DS3_v2."""
    assert "cvo-explore" in _vm(catalog, "Standard_DS3_v2").licences
    assert "cvo-standard" in _vm(catalog, "Standard_DS4_v2").licences
    assert "cvo-premium" in _vm(catalog, "Standard_DS14_v2").licences
    assert not _vm(catalog, "Standard_DS3_v2").ha_supported
    assert _vm(catalog, "Standard_DS4_v2").ha_supported and _vm(catalog, "Standard_DS14_v2").ha_supported


@pytest.mark.parametrize("size", AZURE_LIMITS)
def test_cvo_nvram_disk_is_a_premium_ssd_marked_as_assumed(catalog, size):
    """Every CVO VM names its NVRAM (write log) disk: NetApp's documented 512 GiB Premium SSD, or for the seed's
    VMs a disk inferred from the seed's write ceilings, marked as assumed."""
    from models.catalog.schema import CloudDisk

    vm = _vm(catalog, size)
    disk = catalog.get(vm.nvram_disk, CloudDisk)
    assert disk.tier == "Premium_LRS"
    source = vm.source_of("nvram_disk")
    if size in ("Standard_DS3_v2", "Standard_DS4_v2", "Standard_DS14_v2"):
        assert vm.kind_of("nvram_disk") == "assumed" and "TR-4671" in source
    else:
        assert disk.size_bytes == 512 * 2**30 and "Default configuration for Cloud Volumes ONTAP" in source


def test_licence_caps_in_tib(catalog):
    """published.toml cvo-azure-license-caps: 2 / 10 / 252, tolerance 0.

    Unit: TiB (2^40 bytes). NetApp's CVO licence 'TB' means TiB (public_facts.md), so the catalog stores
    2, 10 and 252 x 2^40 bytes and the caps read back as exactly 2, 10 and 252 in that unit.
    """
    ids = ("cvo-explore", "cvo-standard", "cvo-premium")
    caps = {lid: catalog.get(lid, Licence).capacity_cap_bytes / TIB for lid in ids}
    assert caps == {"cvo-explore": 2, "cvo-standard": 10, "cvo-premium": 252}
    for lid in caps:
        assert "2019" in catalog.get(lid, Licence).as_of
    assert catalog.get("cvo-premium-current", Licence).capacity_cap_bytes == 368 * TIB


# public_facts.md Azure Premium SSD (v1): disk -> (GiB, IOPS, MBps).
AZURE_PREMIUM = {
    "p10": (128, 500, 100), "p15": (256, 1_100, 125), "p20": (512, 2_300, 150), "p30": (1_024, 5_000, 200),
    "p40": (2_048, 7_500, 250), "p50": (4_096, 7_500, 250), "p60": (8_192, 16_000, 500),
    "p70": (16_384, 18_000, 750), "p80": (32_767, 20_000, 900),
}


@pytest.mark.parametrize("disk", AZURE_PREMIUM)
def test_azure_premium_disks(catalog, disk):
    gib, iops, mbps = AZURE_PREMIUM[disk]
    entry = catalog.get(f"azure-premium-lrs-{disk}", CloudDisk)
    assert (entry.size_bytes, entry.iops, entry.mbps) == (gib * GIB, iops, mbps)
    assert entry.tier == "Premium_LRS"


# ----------------------------------------------------------------------------- refusals and error messages

GOOD_DRIVE = """
[[drive]]
id = "test-ssd"
name = "Test SSD"
media = "SSD"
interface = "SAS"
marketed_bytes = 800_000_000_000
right_sized_bytes = 799_903_055_872
read_service_time_us = 150
write_service_time_us = 80
parallelism = 16
max_read_mbps = 500
max_write_mbps = 450
[drive.sources]
marketed_bytes = "test datasheet"
right_sized_bytes = "test datasheet"
read_service_time_us = "assumed: a reason long enough"
write_service_time_us = "assumed: a reason long enough"
parallelism = "assumed: a reason long enough"
max_read_mbps = "test datasheet"
"""


def test_good_record_loads(tmp_path: Path):
    path = tmp_path / "good.toml"
    path.write_text(GOOD_DRIVE + 'max_write_mbps = "test datasheet"\n', encoding="utf-8")
    (drive,) = load_file(path)
    assert drive.id == "test-ssd"


def test_record_missing_a_source_is_refused_naming_file_entry_and_field(tmp_path: Path):
    path = tmp_path / "bad_drives.toml"
    path.write_text(GOOD_DRIVE, encoding="utf-8")  # max_write_mbps has no source
    with pytest.raises(CatalogError) as info:
        load_file(path)
    message = str(info.value)
    assert str(path) in message
    assert "test-ssd" in message
    assert "max_write_mbps" in message


def test_assumption_without_reason_is_refused(tmp_path: Path):
    path = tmp_path / "bad_reason.toml"
    path.write_text(GOOD_DRIVE + 'max_write_mbps = "assumed:"\n', encoding="utf-8")
    with pytest.raises(CatalogError, match="max_write_mbps"):
        load_file(path)


def test_malformed_toml_names_file_and_line(tmp_path: Path):
    path = tmp_path / "broken.toml"
    path.write_text('[[drive]]\nid = "x"\nname = "unterminated\n', encoding="utf-8")
    with pytest.raises(CatalogError) as info:
        load_file(path)
    message = str(info.value)
    assert str(path) in message
    assert re.search(r"line 3\b", message), message
