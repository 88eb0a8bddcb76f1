"""NetApp FAS (hybrid ONTAP) catalog records against the public figures they cite, the SAS shelves and drives they
take, the rules added for them (drive sizes a shelf takes, internal bays counted once, ONTAP's default RAID type in
the sizer) and the bundled FAS70 + DS460C NL-SAS NFS example."""

from __future__ import annotations

import pytest
from example_eval import clean_evaluation

from models.capacity import rules
from models.catalog import Controller, Drive, Shelf, Switch, bundled_catalog
from models.evaluate import evaluate
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
BTU_W = 0.29307107
EXAMPLE = examples_dir() / "fas70-ds460c-nlsas-nfs.toml"


# (id, HA-pair memory GB, typical BTU/hr of the page, chassis per HA pair, rack units, FC ports / speed,
#  Ethernet ports / speed of the HA pair, minimum ONTAP, max raw PB) from NetAppDocs ontap-systems key specifications
#  (the FAS70 page as revised in December 2025: 'Typical Power: 3392 BTU/hr', the FAS90's figure; earlier 2653)
PUBLISHED = [
    ("netapp-fas2820", 128, 1815, 1, 2, 8, 32, 12, 25, "9.13.1", 3.168),
    ("netapp-fas2750", 64, 1209, 1, 2, 8, 16, 12, 10, "9.4", 2.6832),
    ("netapp-fas50", 128, 2319, 1, 2, 24, 64, 16, 100, "9.16.1", 10.56),
    ("netapp-fas70", 256, 3392, 2, 4, 48, 64, 32, 100, "9.15.1", 15.0),
    ("netapp-fas90", 1024, 3392, 2, 4, 48, 64, 32, 100, "9.15.1", 15.0),
    ("netapp-fas8300", 256, 4024, 1, 4, 32, 32, 20, 100, "9.7", 15.0),
    ("netapp-fas8700", 512, 5430, 1, 4, 32, 32, 20, 100, "9.7", 15.0),
]


@pytest.mark.parametrize("cid, mem, btu, chassis, ru, fc, fc_gbps, eth, eth_gbps, first, raw_pb", PUBLISHED)
def test_key_specifications(cid, mem, btu, chassis, ru, fc, fc_gbps, eth, eth_gbps, first, raw_pb):
    rec = CAT.get(cid, Controller)
    assert rec.family == "ONTAP" and rec.nodes == 2
    assert rec.memory_gib_per_node * 2 == mem
    assert (rec.fc_ports_per_node * 2, rec.fc_port_speed_gbps) == (fc, fc_gbps)
    assert (rec.ethernet_ports_per_node * 2, rec.ethernet_port_speed_gbps) == (eth, eth_gbps)
    assert rec.rack_units == ru
    assert rec.typical_power_w == pytest.approx(chassis * btu * BTU_W, abs=0.1)
    assert rec.software_versions[0] == first and rec.software_versions[-1] == "9.16.1"
    assert rec.default_software == "9.16.1"
    # maximum drives derived from the maximum raw capacity and the largest NL-SAS drive (22 TB)
    assert rec.max_drives == int(raw_pb * 1000 // 22 + 1e-9) or cid == "netapp-fas2750"
    for name in ("memory_gib_per_node", "fc_ports_per_node", "ethernet_ports_per_node", "rack_units"):
        assert rec.kind_of(name) == "sourced", (cid, name)
    for name in ("typical_power_w", "max_drives", "backend_lanes_per_node"):
        assert rec.kind_of(name) == "derived", (cid, name)
    assert "BTU/hr" in rec.sources["typical_power_w"]
    assert rec.kind_of("cores_per_node") == "assumed" and "searched" in rec.sources["cores_per_node"]
    assert rec.nvram_gib_per_node is None  # not published: left unset, not guessed
    assert rec.adp == ["root-data"] and "root-data-partitioning-concept" in rec.sources["adp"]


def test_fas2750_maximum_drives_from_its_raw_capacity():
    """2.6832 PB = 24 internal x 1.8 TB + 120 x 22 TB exactly: 144 drives."""
    assert 24 * 1.8 + 120 * 22 == pytest.approx(2683.2)
    assert CAT.get("netapp-fas2750", Controller).max_drives == 144


def test_flash_cache_of_fas70_and_fas90_from_their_module_sizes():
    """'The FAS70 supports 2TB caching modules and FAS90 supports 4TB caching modules', one or two per carrier."""
    for cid, tb in (("netapp-fas70", 2), ("netapp-fas90", 4)):
        rec = CAT.get(cid, Controller)
        assert rec.flash_cache_gib_per_node == pytest.approx(2 * tb * 1e12 / 2**30, abs=0.1)
        assert rec.kind_of("flash_cache_gib_per_node") == "derived"
    for cid in ("netapp-fas2820", "netapp-fas2750", "netapp-fas50", "netapp-fas8300", "netapp-fas8700",
                "netapp-fas8200"):
        rec = CAT.get(cid, Controller)
        assert rec.flash_cache_gib_per_node and rec.kind_of("flash_cache_gib_per_node") == "assumed"


def test_fas8200_says_what_is_assumed_and_leaves_unknown_footprint_unset():
    rec = CAT.get("netapp-fas8200", Controller)
    assert rec.rack_units is None and rec.typical_power_w is None
    assert rec.kind_of("fc_ports_per_node") == "sourced"  # onboard 0g+0h (ONTAP SAN docs)
    assert rec.kind_of("memory_gib_per_node") == "assumed"
    assert "no key specifications page" in rec.sources["memory_gib_per_node"]


def test_shelves_and_their_drive_sizes():
    ds224c, ds212c, ds460c = (CAT.get(i, Shelf) for i in ("netapp-ds224c", "netapp-ds212c", "netapp-ds460c"))
    assert (ds224c.bays, ds212c.bays, ds460c.bays) == (24, 12, 60)
    assert (ds224c.rack_units, ds212c.rack_units, ds460c.rack_units) == (2, 2, 4)
    assert ds460c.kind_of("bays") == "sourced"  # five drawers of 12 slots
    assert ds224c.kind_of("bays") == "sourced" and "bays 18-23" in ds224c.sources["bays"]
    assert all(s.backend_link == "sas-12g" for s in (ds224c, ds212c, ds460c))
    nlsas = CAT.get("netapp-16tb-nlsas-7k2", Drive)
    ssd = CAT.get("netapp-384tb-sas-ssd", Drive)
    assert not ds224c.takes(nlsas) and ds224c.takes(ssd)  # 3.5-inch NL-SAS does not fit a 2.5-inch shelf
    assert ds212c.takes(nlsas) and ds460c.takes(nlsas) and ds212c.takes(ssd)
    old = CAT.get("netapp-x477a-4tb-nlsas-7k2", Drive)  # no size given: only the interface is checked
    assert old.form_factor == "" and ds224c.takes(old)
    assert CAT.get("netapp-fas2820-internal", Shelf).internal and CAT.get("netapp-fas2750-internal", Shelf).bays == 24


@pytest.mark.parametrize("did, marketed", [
    ("netapp-960gb-sas-ssd", 960e9), ("netapp-192tb-sas-ssd", 1.92e12), ("netapp-384tb-sas-ssd", 3.84e12),
    ("netapp-76tb-sas-ssd", 7.68e12), ("netapp-153tb-sas-ssd", 15.36e12), ("netapp-8tb-nlsas-7k2", 8e12),
    ("netapp-12tb-nlsas-7k2", 12e12), ("netapp-16tb-nlsas-7k2", 16e12), ("netapp-18tb-nlsas-7k2", 18e12),
    ("netapp-22tb-nlsas-7k2", 22e12), ("netapp-18tb-sas-10k", 1.8e12), ("netapp-24tb-sas-10k", 2.4e12)])
def test_drives_carry_right_sized_capacity_and_say_it_is_assumed(did, marketed):
    d = CAT.get(did, Drive)
    assert d.marketed_bytes == marketed and d.right_sized_bytes % 2**20 == 0  # whole MiB, as ONTAP right-sizes
    assert 0.97 < d.right_sized_bytes / d.marketed_bytes <= 1.0
    assert d.kind_of("right_sized_bytes") == "assumed" and "searched" in d.sources["right_sized_bytes"]
    assert {"raid4", "raid_dp", "raid_tec"} <= set(d.raid_group_sizes)
    if d.media == "HDD":
        assert d.rpm == (7_200 if "nlsas" in did else 10_000) and d.parallelism == 1
        assert d.form_factor == ("3.5" if "nlsas" in did else "2.5")


def test_ontap_default_raid_is_raid_tec_for_capacity_hdd_of_6tb_or_more():
    """NetAppDocs ontap 'default-raid-policies-aggregates-concept.adoc'."""
    assert rules.ontap_default_raid(CAT.get("netapp-16tb-nlsas-7k2", Drive)) == "raid_tec"
    assert rules.ontap_default_raid(CAT.get("netapp-x316a-6tb-nlsas-7k2", Drive)) == "raid_tec"
    assert rules.ontap_default_raid(CAT.get("netapp-x477a-4tb-nlsas-7k2", Drive)) == "raid_dp"
    assert rules.ontap_default_raid(CAT.get("netapp-24tb-sas-10k", Drive)) == "raid_dp"
    assert rules.ontap_default_raid(CAT.get("netapp-153tb-sas-ssd", Drive)) == "raid_dp"


def test_a_35_inch_drive_in_a_25_inch_shelf_is_an_error():
    project = load_any(EXAMPLE)
    nodes = [n.model_copy(update={"catalog_id": "netapp-ds224c", "drive_count": 24}) if n.kind == "shelf" else n
             for n in project.scenario.nodes]
    bad = evaluate(project.with_scenario(project.scenario.model_copy(update={"nodes": nodes})))
    assert any(p.severity == "error" and "2.5-inch drives" in p.message and "3.5-inch" in p.message
               for p in bad.problems)


def test_the_example_evaluates_without_warnings_with_flash_cache_and_raid_tec():
    project, evaluation = clean_evaluation(EXAMPLE)
    wp = evaluation.performance.workloads[0]
    assert wp.profile == "hardware relation only" and wp.protocol == "NFS"
    assert any("Flash Cache" in station for station in wp.utilization)
    assert "HDD" in wp.bottleneck
    aggregates = [a for s in evaluation.capacity.systems for a in s.aggregates]
    assert len(aggregates) == 2 and all(a.raid_type == "raid_tec" for a in aggregates)
    assert wp.max_iops_at_slo >= wp.target_iops


def test_internal_bays_are_counted_once_in_the_footprint_and_the_sizer():
    """A FAS2820's internal slots sit in its 2U chassis: the bill of materials counts the controller's 2U once,
    and the sizer offers one set of internal bays, never several."""
    from models.present.bom import footprint
    from models.project.model import Link, ShelfNode
    from models.sizing import MAX_SHELVES, _array_candidates

    project = load_any(EXAMPLE)
    sc = project.scenario
    ctl = next(n for n in sc.nodes if n.kind == "controller").model_copy(
        update={"catalog_id": "netapp-fas2820", "raid_type": "raid_dp", "spares_per_node": 1})
    bays = ShelfNode(id="bays", catalog_id="netapp-fas2820-internal", label="internal", x=0, y=0,
                     drive="netapp-8tb-nlsas-7k2", drive_count=12)
    nodes = [n for n in sc.nodes if n.kind not in ("controller", "shelf")] + [ctl, bays]
    links = [link for link in sc.links if not link.id.startswith("l-shelf")] + [
        Link(id="l-bays", source=ctl.id, target="bays", link_type="sas-12g", ports=8)]
    total = footprint(sc.model_copy(update={"nodes": nodes, "links": links}), CAT)
    switches = [CAT.get(n.catalog_id, Switch) for n in nodes if n.kind == "switch"]
    drive = CAT.get("netapp-8tb-nlsas-7k2", Drive)
    # the chassis once (its bays add no height or enclosure power), the 12 drives and the design's switches
    assert total.rack_units == 2 + sum(s.rack_units or 0 for s in switches)
    assert total.power_w == pytest.approx(1815 * BTU_W + 12 * drive.typical_power_w
                                          + sum(s.typical_power_w or 0 for s in switches), abs=0.1)
    assert not total.unknown
    internal = [s for s, *_ in _array_candidates(sc, CAT, project.requirements)
                if any(n.catalog_id == "netapp-fas2820-internal" for n in s.nodes)]
    assert internal and MAX_SHELVES > 1
    # one set of internal bays per design (external shelves may follow them)
    assert all(sum(n.catalog_id == "netapp-fas2820-internal" for n in s.nodes) == 1 for s in internal)


def _fas2820(internal: int, external: int, adp: str = "root-data"):
    """A FAS2820 with ``internal`` 8TB NL-SAS drives in its bays and ``external`` more in a DS212C stack."""
    from models.project.model import Link, ShelfNode

    project = load_any(EXAMPLE)
    sc = project.scenario
    ctl = next(n for n in sc.nodes if n.kind == "controller").model_copy(
        update={"catalog_id": "netapp-fas2820", "raid_type": "raid_dp", "spares_per_node": 1, "adp": adp,
                "root_partition_bytes": 100 * 2**30})
    shelves = [ShelfNode(id="bays", catalog_id="netapp-fas2820-internal", label="internal", x=0, y=0,
                         drive="netapp-8tb-nlsas-7k2", drive_count=internal)]
    if external:
        shelves.append(ShelfNode(id="ext", catalog_id="netapp-ds212c", label="DS212C", x=0, y=0,
                                 drive="netapp-8tb-nlsas-7k2", drive_count=external))
    links = [link for link in sc.links if not link.id.startswith("l-shelf")] + [
        Link(id=f"l-{s.id}", source=ctl.id, target=s.id, link_type="sas-12g", ports=8) for s in shelves]
    nodes = [n for n in sc.nodes if n.kind not in ("controller", "shelf")] + [ctl, *shelves]
    return project.with_scenario(sc.model_copy(update={"nodes": nodes, "links": links}))


def _roots(system) -> float:
    return sum(s.bytes_before - s.bytes_after for s in system.steps if s.name == "ADP root partitions")


def test_entry_fas_partitions_only_its_internal_drives():
    """ONTAP documentation: 'For entry-level platforms, only the internal drives are partitioned'. A FAS2820 with
    12 internal and 12 external 8TB drives, 1 spare per node: each node partitions its 6 internal drives (6 of its 11
    drives left after the spare) and uses the external ones whole."""
    from models.capacity import evaluate_capacity

    both = evaluate_capacity(_fas2820(12, 12).scenario, CAT).systems[0]
    assert _roots(both) == pytest.approx(12 * 100 * 2**30)
    assert any("only the internal drives are partitioned" in n for n in both.notes)
    alone = evaluate_capacity(_fas2820(12, 0).scenario, CAT).systems[0]
    assert _roots(alone) == pytest.approx(10 * 100 * 2**30)  # 12 - 2 spares
    # an AFF (or a FAS without internal bays) partitions external drives too: the rule is for entry FAS only
    from models.capacity.ontap import entry_internal_drives
    assert entry_internal_drives(CAT.get("netapp-fas70", Controller), [], CAT) is None
    assert entry_internal_drives(CAT.get("netapp-aff-a800", Controller), [], CAT) is None
    assert entry_internal_drives(CAT.get("netapp-fas2820", Controller), [], CAT) == {}


def test_the_sizer_builds_ontap_candidates_as_ontap_would():
    """RAID-TEC and two spares per node for NL-SAS of 6 TB or more, RAID DP and one spare for SSD."""
    from models.sizing import _array_candidates

    project = load_any(EXAMPLE)
    seen = set()
    for scenario, *_ in _array_candidates(project.scenario, CAT, project.requirements):
        ctl = next(n for n in scenario.nodes if n.kind == "controller")
        shelf = next(n for n in scenario.nodes if n.kind == "shelf")
        drive = CAT.get(shelf.drive, Drive)
        if ctl.catalog_id != "netapp-fas70":
            continue
        seen.add(drive.id)
        if drive.id == "netapp-22tb-nlsas-7k2":
            assert (ctl.raid_type, ctl.spares_per_node) == ("raid_tec", 2)
        if drive.id == "netapp-384tb-sas-ssd":
            assert (ctl.raid_type, ctl.spares_per_node) == ("raid_dp", 1)
    assert {"netapp-22tb-nlsas-7k2", "netapp-384tb-sas-ssd"} <= seen


# 'Storage networking supported' of each page (NetAppDocs ontap-systems key specifications; FAS2820: no NVMe/FC, FCoE)
NETWORKING = {
    "netapp-fas50": ("fas50/overview.html", {"FC", "iSCSI", "NFS v3", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}),
    "netapp-fas70": ("fas70-key-specifications.html",
                     {"FC", "iSCSI", "NFS v3", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}),
    "netapp-fas90": ("fas90-key-specifications.html",
                     {"FC", "iSCSI", "NFS v3", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}),
    "netapp-fas8300": ("fas8300-key-specifications.html",
                       {"FC", "iSCSI", "NFS v3", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}),
    "netapp-fas8700": ("fas8700-key-specifications.html",
                       {"FC", "iSCSI", "NFS v3", "NVMe/FC", "NVMe/TCP", "S3", "SMB 3.1.1"}),
    "netapp-fas2820": ("fas2800/overview.html", {"FC", "FCoE", "iSCSI", "NFS v3", "NVMe/TCP", "S3", "SMB 3.1.1"}),
}
AS_MODELLED = {"FC": "FCP", "iSCSI": "iSCSI", "NFS v3": "NFS", "NVMe/FC": "NVMe/FC", "NVMe/TCP": "NVMe/TCP",
               "SMB 3.1.1": "SMB"}


@pytest.mark.parametrize("cid", sorted(NETWORKING))
def test_fas_offers_every_block_and_file_protocol_its_page_lists(cid):
    """The FAS50/70/90 records lacked NVMe/TCP although their pages list it (review 57): the sizer never offered a FAS
    for an NVMe/TCP request. Each record now lists what its page does (S3, FCoE: listed, not sized, and said so) and
    cites the page's 'Storage networking supported' section."""
    from models.sizing import _front_end

    page, listed = NETWORKING[cid]
    rec = CAT.get(cid, Controller)
    assert set(rec.protocols) == {AS_MODELLED[p] for p in listed if p in AS_MODELLED}
    assert rec.kind_of("protocols") == "sourced"
    source = rec.sources["protocols"]
    assert page in source and "Storage networking supported" in source
    assert all(f"'{p}'" in source for p in listed)
    assert "S3 object access" in source and "not sized" in source
    assert _front_end(rec, "NVMe/TCP", CAT) is not None  # an Ethernet link the sizer can propose
