"""Current NetApp all-flash systems (resources/catalog/aff_current.toml): the AFF A1K, AFF C80 and ASA A-series
records carry the figures of NetApp's key specifications pages (NetAppDocs/ontap-systems) with their sources
(power derived from BTU/hr, drive limits from NetApp's NS224 shelf-cabling pages, maximum raw capacity published),
the NVMe SSDs carry their capacities and platform rule, and the AFF C80 + QLC example evaluates without warnings
and renders a report."""

from __future__ import annotations

import pytest
from example_eval import assert_renders_report, clean_evaluation

from models.catalog import Controller, Drive, bundled_catalog
from models.performance.profiles import controller_profile, profile_basis
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
BTU_W = 0.29307107
EXAMPLE = "aff-c80-qlc-vmware-nvmefc64.toml"

# id, memory per HA pair (GB, 'Memory:'), FC 64G ports per pair, 100GbE ports per pair, rack units,
# typical power BTU/hr (None: not published), chassis per HA pair, max raw PB, drive the maximum is counted in (TB)
KEY_SPECS = [
    ("netapp-aff-a1k", 2048, 56, 36, 4, 4402, 2, 14.688, 30.6),
    ("netapp-aff-c80", 512, 56, 36, 4, None, 1, 14.736, 61.4),
    ("netapp-asa-a20", 128, 24, 12, 2, 2489, 1, 0.7344, 15.3),
    ("netapp-asa-a30", 128, 24, 16, 2, 2892, 1, 1.1016, 15.3),
    ("netapp-asa-a50", 256, 24, 16, 2, 3076, 1, 1.8360, 15.3),
    ("netapp-asa-a70", 256, 56, 36, 4, 6938, 1, 2.6622, 15.3),
    ("netapp-asa-a90", 2048, 56, 36, 4, 8304, 1, 2.6622, 15.3),
    ("netapp-asa-a1k", 2048, 56, 36, 4, 4402, 2, 2.6622, 15.3),
]


@pytest.mark.parametrize("cid, mem_gb, fc, eth, ru, btu, chassis, raw_pb, drive_tb", KEY_SPECS)
def test_key_specifications_and_their_sources(cid, mem_gb, fc, eth, ru, btu, chassis, raw_pb, drive_tb):
    rec = CAT.get(cid, Controller)
    assert rec.nodes == 2 and rec.family == "ONTAP"
    assert rec.memory_gib_per_node * rec.nodes == mem_gb
    assert rec.fc_ports_per_node * rec.nodes == fc and rec.fc_port_speed_gbps == 64
    assert rec.ethernet_ports_per_node * rec.nodes == eth and rec.ethernet_port_speed_gbps == 100
    assert rec.rack_units == ru
    # the drive limit follows NetApp's NS224 shelf-cabling pages (internal bays + shelves x 24), not max raw / drive
    internal = 48 if ru == 4 and chassis == 1 else (24 if ru == 2 else 0)
    assert rec.max_drives == internal + rec.max_shelves * 24
    family = "asa" if cid.startswith("netapp-asa-") else "aff"  # NetApp's merged hot-add page of the family
    assert rec.kind_of("max_shelves") == "sourced" and (
        f"ns224/cable-{family}-systems-hot-add-shelf.html" in rec.sources["max_shelves"])
    assert rec.max_raw_bytes == round(raw_pb * 1e15)
    assert rec.kind_of("max_raw_bytes") == "sourced" and f"{raw_pb:.4f} PB" in rec.sources["max_raw_bytes"]
    assert (raw_pb * 1000 / drive_tb) == pytest.approx(round(raw_pb * 1000 / drive_tb))  # whole drives of drive_tb
    if btu is None:  # the C80 page publishes no power: assumed the AFF A90's, the larger of its 4U chassis family
        assert rec.typical_power_w == pytest.approx(8304 * BTU_W, abs=0.1)
        power_source = rec.sources["typical_power_w"]
        assert rec.kind_of("typical_power_w") == "assumed" and "No environment data available." in power_source
        assert "8304 BTU/hr" in power_source and "6938 BTU/hr" in power_source
        assert "a70-90/a90-key-specifications.html" in power_source
    else:
        assert rec.typical_power_w == pytest.approx(chassis * btu * BTU_W, abs=0.1)
        power_source = rec.sources["typical_power_w"]
        assert rec.kind_of("typical_power_w") == "derived" and f"{btu} BTU/hr" in power_source
    for field in ("nodes", "memory_gib_per_node", "fc_ports_per_node", "software_versions"):
        assert rec.kind_of(field) == "sourced" and "ontap-systems" in rec.sources[field]
    assert rec.kind_of("cores_per_node") == "assumed" and "searched" in rec.sources["cores_per_node"]
    assert rec.nvram_gib_per_node is None  # not published and not used by the engine: left unset


def test_asa_is_san_only_and_aff_is_unified():
    for cid, *_ in KEY_SPECS:
        rec = CAT.get(cid, Controller)
        assert "NVMe/TCP" in rec.protocols  # every one runs ONTAP 9.10.1 or later
        if cid.startswith("netapp-asa-"):
            assert rec.protocols == ["FCP", "NVMe/FC", "iSCSI", "NVMe/TCP"]
        else:
            assert {"NFS", "SMB", "FCP", "NVMe/FC", "iSCSI"} <= set(rec.protocols)


def test_minimum_ontap_versions():
    assert CAT.get("netapp-aff-a1k", Controller).software_versions[0] == "9.15.1"   # 'ONTAP 9.15.1RC2'
    assert CAT.get("netapp-aff-c80", Controller).software_versions == ["9.16.1"]     # 'ONTAP 9.16.1RC1'
    assert CAT.get("netapp-asa-a70", Controller).software_versions[0] == "9.16.0"    # 'ONTAP 9.16.0'


@pytest.mark.parametrize("cid", [c[0] for c in KEY_SPECS])
def test_profiles_are_the_hardware_relation_and_say_why(cid):
    """No public pair of comparable performance figures ties these to the calibrated A800: no profile_from, the
    hardware relation (the calibrated ONTAP software costs on the record's cores), and the notes say where we
    looked."""
    rec = CAT.get(cid, Controller)
    assert rec.profile_from is None and not rec.performance
    basis = profile_basis(rec, None, "NVMe/FC", CAT)
    assert basis.kind == "hardware relation only" and f"on {rec.cores_per_node} cores per node" in basis.reason
    assert "no public pair of comparable performance figures" in rec.notes


TLC = {"1.92": 1_920_000_000_000, "3.84": 3_840_000_000_000, "7.68": 7_680_000_000_000,
       "15.3": 15_300_000_000_000, "30.6": 30_600_000_000_000}
QLC = {"30.7": 30_700_000_000_000, "61.4": 61_400_000_000_000}


def _drive(size: str, kind: str) -> Drive:
    return CAT.get(f"netapp-nvme-ssd-{size}tb-{kind}", Drive)


@pytest.mark.parametrize("size, kind, marketed", [(s, "tlc", b) for s, b in TLC.items()]
                         + [(s, "qlc", b) for s, b in QLC.items()])
def test_nvme_drives(size, kind, marketed):
    d = _drive(size, kind)
    assert d.interface == "NVMe" and d.media == "SSD"
    assert d.marketed_bytes == marketed
    # right-sized: X447A's TR-3838 ratio (762,847 MiB per 800 GB), whole MiB
    assert d.right_sized_bytes % 2**20 == 0
    assert d.right_sized_bytes == pytest.approx(marketed * 799_903_055_872 / 800_000_000_000, abs=2**20)
    assert d.kind_of("right_sized_bytes") == "derived"
    for field in ("read_service_time_us", "write_service_time_us", "parallelism", "max_read_mbps", "max_write_mbps"):
        assert d.kind_of(field) == "assumed"


def test_the_one_nine_terabyte_right_size_matches_ontaps_display():
    """NetAppDocs ontap 'replace-self-encrypting-disk-task.adoc' shows a 1.9 TB NVMe SED as '1.75TB' (binary)."""
    assert round(_drive("1.92", "tlc").right_sized_bytes / 2**40, 2) == 1.75


def test_max_raw_capacities_are_whole_drives_of_the_largest_sizes():
    """The derivations behind the 30.6 TB TLC and the QLC sizes: key-specification max raw capacities divide into
    whole drives."""
    for raw_tb, size in ((6609.6, 30.6), (14688, 30.6), (2210.4, 61.4), (7368, 61.4), (14736, 61.4), (7368, 30.7)):
        assert (raw_tb / size) == pytest.approx(round(raw_tb / size), abs=1e-9)
    assert 14688 / 30.7 != pytest.approx(round(14688 / 30.7), abs=0.1)  # not 30.7 TB for the A-series


def test_qlc_is_slower_to_write_than_tlc_and_reads_alike():
    tlc, qlc = _drive("30.6", "tlc"), _drive("61.4", "qlc")
    assert qlc.write_service_time_us > 2 * tlc.write_service_time_us
    assert qlc.max_write_mbps < tlc.max_write_mbps
    tlc_iops = tlc.parallelism / (tlc.read_service_time_us * 1e-6)
    qlc_iops = qlc.parallelism / (qlc.read_service_time_us * 1e-6)
    assert qlc_iops == pytest.approx(tlc_iops, rel=0.1)  # 'QLC and TLC will perform nearly identically for read'


def test_platform_rule_names_catalog_controllers():
    for d in CAT:
        if isinstance(d, Drive):
            for cid in d.controllers:
                assert isinstance(CAT.find(cid), Controller), (d.id, cid)
    assert "netapp-aff-c80" in _drive("61.4", "qlc").controllers
    assert "netapp-aff-a20" not in _drive("61.4", "qlc").controllers
    assert "netapp-aff-a1k" in _drive("30.6", "tlc").controllers


def test_a_drive_on_a_controller_it_is_not_sold_for_is_an_error():
    scenario = load_any(examples_dir() / EXAMPLE).scenario
    assert not find_problems(scenario, CAT)
    nodes = [n.model_copy(update={"catalog_id": "netapp-aff-a70"}) if n.kind == "controller" else n
             for n in scenario.nodes]
    errors = [p for p in find_problems(scenario.model_copy(update={"nodes": nodes}), CAT) if p.severity == "error"]
    assert any("is not sold for NetApp AFF A70" in p.message for p in errors), errors


def test_the_c80_example_evaluates_without_warnings_and_renders_a_report():
    project, evaluation = clean_evaluation(EXAMPLE)
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "hardware relation only" and wp.protocol == "NVMe/FC"
    assert wp.latency_at_target_ms is not None and wp.latency_at_target_ms <= wp.slo_ms
    assert_renders_report(project, evaluation)


def test_the_aff_a90_profile_is_derived_from_the_a800_by_netapps_published_iops():
    """AFF A90 'up to 2.4M IOPS per HA pair' (NetApp AIPod hardware section) over the A800's '2,200K IOPS' (seed
    001 §4): ratio 1.09, marked derived for the A800's protocols; its NFS profile is its own, fitted to the
    SPECstorage eda_blended ramp (calibrated), and iSCSI, which neither has, runs on the hardware relation (the
    A800's fitted ONTAP 9.5 FCP CPU cost per core on the A90's cores), not on the NFS profile."""
    a90 = CAT.get("netapp-aff-a90", Controller)
    assert a90.profile_from is not None and a90.profile_from.sibling == "netapp-aff-a800"
    assert a90.profile_from.ratio == pytest.approx(2400 / 2200, abs=0.005)
    text = a90.sources["profile_from"]
    assert a90.kind_of("profile_from") == "derived" and "2.4M IOPS per HA pair" in text and "2,200K IOPS" in text
    fcp = profile_basis(a90, None, "FCP", CAT)
    assert fcp.kind == "derived" and fcp.sibling == "netapp-aff-a800" and fcp.ratio == a90.profile_from.ratio
    # NVMe/FC: the A800's profile / 1.09 too; the A90's 'up to' 2.4M IOPS caps the rate beside the CPU
    basis = profile_basis(a90, None, "NVMe/FC", CAT)
    assert basis.kind == "derived" and basis.sibling == "netapp-aff-a800"
    assert a90.peak_iops == 2_400_000 and basis.ratio == a90.profile_from.ratio
    nfs = profile_basis(a90, None, "NFS", CAT)
    assert nfs.kind == "calibrated" and nfs.sibling == "" and "SPECstorage" in nfs.reason
    iscsi = profile_basis(a90, None, "iSCSI", CAT)
    assert iscsi.kind == "hardware relation only" and "48 cores per node" in iscsi.reason
    profile, _ = controller_profile(a90, CAT, "9.15", "iSCSI")
    assert "AFF A800 HA pair 9.5 FCP" in profile.provenance["cpu_read_us"].source
