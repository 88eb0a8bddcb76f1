"""Current NetApp E-Series (EF600, EF300, E2800, E4000): the catalog records' key figures against the NetApp
documentation they cite, the Dynamic Disk Pool rules (an 11-drive pool's usable capacity computed here by hand from
the published rule, preservation capacity, the pool size limit), and the EF600 example.

Sources (NetApp's public documentation sources, as cited in resources/catalog/eseries.toml):
- HW: NetAppDocs e-series, 'getting-started/learn-hardware-concept.adoc'
  (docs.netapp.com/us-en/e-series/getting-started/learn-hardware-concept.html): rack sizes ('2U24', '2U12', '4U60'), 'Up
  to 24 NVMe SSD drives in the controller shelf', EF600 expansion 'not to exceed a total of 420 NL-SAS drive slots',
  EF300 '240', E2800 '3.5" NL-SAS (up to 180)', E4000 '(up to 300)', interfaces ('32Gb NVMe / Fibre Channel', '25Gb
  iSCSI', E2800 '16Gb or 32Gb Fibre Channel').
- SHELVES: NetAppDocs e-series, 'getting-started/learn-shelf-concept.adoc': DE212C 2u12, DE224C 2u24 (E2800, EF280,
  E5700, EF570), DE460C 4u60, NE224 2u24 NVMe.
- BEEGFS: NetAppDocs beegfs, 'second-gen/beegfs-technology-requirements.adoc': EF600 'Memory: 256GB (128GB per
  controller)'.
- E2800_PORTS: NetAppDocs e-series, 'maintenance-e2800/hpp-overview-supertask-concept.adoc': 'two SFP+ (optical)
  baseboard host ports and four SFP+ (optical) HIC ports'; E4000_PORTS: 'install-hw-e4000/complete-setup-12.adoc':
  host ports e1a-e1d and e0a, e0b.
- POOLS: NetAppDocs e-series-santricity, 'sm-storage/how-pools-and-volume-groups-work.adoc': "System Manager
  automatically sets the RAID level at 6 in an 8+2 configuration"; "Pools have a minimum capacity of 11 drives;
  however, one drive's worth of capacity is reserved ... preservation capacity"; "The maximum amount of capacity that
  can be preserved (expressed as a number of drives) is 10"; 'sm-storage/create-pool-manually.adoc': "for every six
  drives in a pool, System Manager reserves one drive for preservation capacity".
- DDP_LIMIT: NetAppDocs e-series, 'whats-new.adoc' (SANtricity 11.90): DDP capacity "12 PB whenever the capacity of
  each of the individual drives within the pool is greater than 23 TB ... If the individual drive capacity is less
  than 23 TB in size, the DDP capacity is 6 PB".
- SEED003: seed 003 'The NETAPP EF550 Flash Array Definition': an E-Series 800 GB SSD 'yielding 744 GB' (744 GiB),
  the right-size ratio the new drives carry.
"""

from __future__ import annotations

import pytest
from example_eval import assert_renders_report

from models.capacity import rules
from models.catalog import Controller, Drive, Shelf, bundled_catalog
from models.evaluate import evaluate
from models.problems import find_problems
from models.project.model import ControllerNode, Link, Scenario, ShelfNode
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
EXAMPLE = examples_dir() / "ef600-nvme-ddp-oltp-nvmefc.toml"
NVME = "netapp-eseries-3840gb-nvme-ssd"


@pytest.mark.parametrize("cid, max_drives, fc_gbps, eth_gbps, protocols", [
    ("netapp-ef600", 24 + 420, 32, 25, {"FCP", "NVMe/FC", "iSCSI"}),   # HW: 24 NVMe + 420 NL-SAS slots
    ("netapp-ef300", 24 + 240, 32, 25, {"FCP", "NVMe/FC", "iSCSI"}),   # HW: 24 NVMe + 240 NL-SAS slots
    ("netapp-e2800", 180, 32, 25, {"FCP", "iSCSI"}),                   # HW: NL-SAS up to 180
    ("netapp-e4000", 300, 32, 25, {"FCP", "iSCSI"}),                   # HW: NL-SAS up to 300
])
def test_controllers_key_figures(cid, max_drives, fc_gbps, eth_gbps, protocols):
    rec = CAT.get(cid, Controller)
    assert rec.family == "E-Series" and rec.nodes == 2
    assert rec.max_drives == max_drives
    assert rec.fc_port_speed_gbps == fc_gbps and rec.ethernet_port_speed_gbps == eth_gbps
    assert set(rec.protocols) == protocols
    assert rec.default_software == "SANtricity 11.90"
    assert "learn-hardware-concept.adoc" in rec.sources["max_drives"]
    # not published in what could be read: said so, with where it was looked for
    assert rec.kind_of("cores_per_node") == "assumed" and "searched" in rec.sources["cores_per_node"]
    # no typical power was found: left unset rather than guessed
    assert rec.typical_power_w is None


def test_published_memory_and_host_ports():
    ef600 = CAT.get("netapp-ef600", Controller)
    assert ef600.memory_gib_per_node * ef600.nodes == 256          # BEEGFS: 256GB (128GB per controller)
    assert ef600.kind_of("memory_gib_per_node") == "sourced"
    assert "128GB per controller" in ef600.sources["memory_gib_per_node"]
    e2800 = CAT.get("netapp-e2800", Controller)
    assert e2800.fc_ports_per_node == 2 + 4                        # E2800_PORTS: 2 baseboard + 4 HIC
    e4000 = CAT.get("netapp-e4000", Controller)
    assert e4000.fc_ports_per_node == 6                            # E4000_PORTS: e1a-e1d, e0a, e0b
    assert e4000.software_versions == ["SANtricity 11.90"]         # the E4000 arrived with 11.90 (whats-new)
    for cid in ("netapp-ef300", "netapp-e2800", "netapp-e4000"):
        assert CAT.get(cid, Controller).kind_of("memory_gib_per_node") == "assumed"


@pytest.mark.parametrize("sid, bays, ru, interface", [
    ("netapp-ne224-controller-bays", 24, 2, "NVMe"),          # EF600 / EF300 controller shelf, 2U24
    ("netapp-eseries-2u12-controller-bays", 12, 2, "SAS"),    # E2812 / E4012
    ("netapp-eseries-2u24-controller-bays", 24, 2, "SAS"),    # E2824
    ("netapp-eseries-4u60-controller-drawers", 60, 4, "SAS"),  # E2860 / E4060
    ("netapp-de212c", 12, 2, "SAS"),
    ("netapp-de224c", 24, 2, "SAS"),
    ("netapp-de460c", 60, 4, "SAS"),
])
def test_shelves(sid, bays, ru, interface):
    shelf = CAT.get(sid, Shelf)
    assert (shelf.bays, shelf.rack_units, shelf.drive_interfaces) == (bays, ru, [interface])
    assert shelf.kind_of("bays") == "sourced" and shelf.kind_of("rack_units") == "sourced"
    assert shelf.internal == ("controller" in sid)


def test_which_shelves_each_controller_takes():
    """E2812 / E2824 / E2860 are the E2800 in three controller shelves; the E4000 has only 12 and 60 drive
    controller shelves (no E4024) and does not take the DE224C (SHELVES names it for the E2800, EF280, E5700,
    EF570); the EF600 / EF300 expand with DE212C / DE224C / DE460C over the SAS expansion card (HW)."""
    e2800 = CAT.get("netapp-e2800", Controller).shelves
    assert {"netapp-eseries-2u12-controller-bays", "netapp-eseries-2u24-controller-bays",
            "netapp-eseries-4u60-controller-drawers", "netapp-de212c", "netapp-de224c", "netapp-de460c"} == set(e2800)
    e4000 = CAT.get("netapp-e4000", Controller).shelves
    assert "netapp-eseries-2u24-controller-bays" not in e4000 and "netapp-de224c" not in e4000
    for cid in ("netapp-ef600", "netapp-ef300"):
        assert set(CAT.get(cid, Controller).shelves) == {"netapp-ne224-controller-bays", "netapp-de212c",
                                                          "netapp-de224c", "netapp-de460c"}


def test_drives_right_size_by_the_published_e_series_ratio():
    """SEED003: 800 GB -> 744 GiB; each new drive's right-sized capacity is its nominal size times that ratio."""
    ratio = 744 * 2**30 / 800e9
    for did in ("netapp-eseries-3840gb-nvme-ssd", "netapp-eseries-15360gb-nvme-ssd", "netapp-eseries-3840gb-sas-ssd",
                "netapp-eseries-16tb-nlsas-hdd"):
        d = CAT.get(did, Drive)
        assert d.right_sized_bytes == pytest.approx(d.marketed_bytes * ratio, abs=1)
        assert d.kind_of("right_sized_bytes") == "derived"
    assert CAT.get("netapp-eseries-16tb-nlsas-hdd", Drive).rpm == 7_200


def _ef600(drives: int, preservation: int, drive: str = NVME, shelf: str = "netapp-ne224-controller-bays",
           shelves: int = 1) -> Scenario:
    ctl = ControllerNode(id="ef600", catalog_id="netapp-ef600", software="SANtricity 11.90", raid_type="ddp",
                         spares_per_node=0, ddp_preservation_drives=preservation)
    nodes = [ctl] + [ShelfNode(id=f"s{k}", catalog_id=shelf, drive=drive, drive_count=drives) for k in range(shelves)]
    link = "pcie-nvme" if shelf == "netapp-ne224-controller-bays" else "sas-12g"
    links = [Link(id=f"l{k}", source="ef600", target=f"s{k}", link_type=link, ports=8) for k in range(shelves)]
    return Scenario(name="s", nodes=nodes, links=links)


def _capacity(scenario: Scenario):
    project = load_any(EXAMPLE)
    return evaluate(project.with_scenario(scenario), scenario.name).capacity.systems[0]


def test_an_11_drive_ddp_pool_on_the_ef600_by_hand():
    """POOLS, computed here by hand: 11 x 3.84 TB NVMe (the minimum pool), one drive's worth of preservation
    capacity, the rest in RAID 6 8+2 stripes: usable = (11 - 1) x right-sized x 8 / 10 = 8 x right-sized, where
    right-sized = 3.84e12 x 744 GiB / 800 GB (SEED003) = 3,834,546,801,868 bytes; 8 x that = 30,676,374,414,944."""
    right_sized = int(3.84e12 * (744 * 2**30) / 800e9)
    assert right_sized == 3_834_546_801_868
    by_hand = (11 - 1) * right_sized * 8 // 10
    assert by_hand == 30_676_374_414_944
    scenario = _ef600(11, 1)
    assert not [p for p in find_problems(scenario, CAT) if p.severity == "error"]
    system = _capacity(scenario)
    assert system.usable_bytes == pytest.approx(by_hand, abs=1)
    assert not system.problems and not [n for n in system.notes if "preservation" in n]  # 1 = the default for 11
    ten = _capacity(_ef600(10, 1))
    assert ten.usable_bytes == 0 and any("at least 11" in p for p in ten.problems)


def test_preservation_capacity_rules():
    """POOLS: one drive's worth for every six drives by default (11 drives keep one), at most 10."""
    assert [rules.ddp_default_preservation(n) for n in (11, 12, 24, 60, 120)] == [1, 2, 4, 10, 10]
    kept = _capacity(_ef600(24, 2))
    assert any("default for a 24-drive pool is 4" in n for n in kept.notes) and not kept.problems
    too_many = _capacity(_ef600(24, 11))
    assert any("at most 10 drives' worth" in p for p in too_many.problems)


def test_the_pool_size_limit():
    """DDP_LIMIT: 420 x 16 TB NL-SAS (the EF600's NL-SAS maximum in seven DE460C) is 6.72 PB, over the 6 PB a pool
    of drives under 23 TB may hold; 360 of them (5.76 PB) fit."""
    big = _capacity(_ef600(60, 10, drive="netapp-eseries-16tb-nlsas-hdd", shelf="netapp-de460c", shelves=7))
    assert any("at most 6 PB" in p and "6.72 PB" in p for p in big.problems)
    fits = _capacity(_ef600(60, 10, drive="netapp-eseries-16tb-nlsas-hdd", shelf="netapp-de460c", shelves=6))
    assert not [p for p in fits.problems if "PB" in p]
    assert rules.ddp_max_pool_bytes(30_720_000_000_000) == 12 * 10**15


def test_the_ef600_example_evaluates_without_warnings_and_renders_a_report():
    project = load_any(EXAMPLE)
    evaluation = evaluate(project)
    assert not evaluation.problems
    system = evaluation.capacity.systems[0]
    assert not system.problems
    # 24 drives, SANtricity's default 4 drives' worth preserved: (24 - 4) x right-sized x 8/10
    assert system.usable_bytes == pytest.approx(20 * CAT.get(NVME, Drive).right_sized_bytes * 0.8)
    wp = evaluation.performance.workloads[0]
    assert wp.protocol == "NVMe/FC" and wp.profile == "hardware relation only"  # no published figure of its own
    assert wp.max_iops_at_slo and wp.max_iops_at_slo > 200_000
    assert_renders_report(project, evaluation)


def test_e_series_drives_are_offered_to_e_series_only_and_warned_elsewhere():
    """The new drives are sold for E-Series (their right-size is SANtricity's): the sizer offers them to E-Series
    controllers only, and the design check warns when an ONTAP system is given one."""
    assert all(CAT.get(d, Drive).families == ["E-Series"] for d in (NVME, "netapp-eseries-16tb-nlsas-hdd"))
    ctl = ControllerNode(id="c1", catalog_id="netapp-aff-a800", software="9.5", raid_type="raid_dp",
                         spares_per_node=1, adp="none")
    bays = ShelfNode(id="bays", catalog_id="netapp-a800-internal-nvme", drive=NVME, drive_count=24)
    scenario = Scenario(name="s", nodes=[ctl, bays], links=[Link(id="l", source="c1", target="bays",
                                                                 link_type="pcie-nvme", ports=24)])
    warned = [p for p in find_problems(scenario, CAT) if "sold for E-Series" in p.message]
    assert warned and warned[0].severity == "warning"


def test_the_sizer_uses_one_set_of_controller_bays_and_counts_the_chassis_once():
    """An EF600 has one NE224 controller shelf: the sizer never offers two, and a design of the controller and its
    bays is 2U (the controller-shelf height, on the bays' record), not the controller's default height plus it;
    the project's front-end switches are counted on top (models.topology.front_end_switches)."""
    from models.catalog import Switch
    from models.project.model import SwitchNode
    from models.sizing import size

    project = load_any(EXAMPLE)
    switches_ru = sum(CAT.get(n.catalog_id, Switch).rack_units or 0 for n in project.scenario.nodes
                      if isinstance(n, SwitchNode))
    assert switches_ru > 0  # the example's hosts reach the array through a switch: counted with every design
    result = size(project, top=50)
    assert result.candidates
    for c in result.candidates:
        bays = [n for n in c.scenario.nodes if n.kind == "shelf" and CAT.get(n.catalog_id, Shelf).internal]
        assert len(bays) <= 1, c.summary
        if bays and len([n for n in c.scenario.nodes if n.kind == "shelf"]) == 1:
            assert c.rack_units == CAT.get(bays[0].catalog_id, Shelf).rack_units + switches_ru, c.summary
        ctl = next(n for n in c.scenario.nodes if n.kind == "controller")
        shelves = [n for n in c.scenario.nodes if n.kind == "shelf"]
        drives = sum(n.drive_count for n in shelves)
        assert ctl.ddp_preservation_drives == rules.ddp_default_preservation(drives)


def test_no_profile_is_derived_without_published_claims():
    """The EF550's profile is itself assumed (seed 003 prints throughput only; none of its fields is fitted), and no
    IOPS / throughput claim for the EF600 was found in the sources read: the new arrays name no sibling and run on
    the hardware relation, the EF550's (assumed) SANtricity costs per core on their own cores, and say so."""
    from models.performance.profiles import profile_basis

    assert profile_basis(CAT.get("netapp-ef550", Controller), None, "FCP", CAT).kind == "assumed"
    for cid in ("netapp-ef600", "netapp-ef300", "netapp-e2800", "netapp-e4000"):
        rec = CAT.get(cid, Controller)
        assert rec.profile_from is None and not rec.performance
        basis = profile_basis(rec, None, "FCP", CAT)
        assert basis.kind == "hardware relation only" and "assumed, none fitted" in basis.reason
        assert f"on {rec.cores_per_node} cores per controller" in basis.reason  # SANtricity's word


def test_data_reduction_ratios_on_an_e_series_array_are_warned():
    """SANtricity OS offers no compression, compaction or deduplication (NetApp's SANtricity documentation,
    NetAppDocs e-series-santricity, describes none: no page names either); a workload asking the EF600 for a 2:1
    compression is warned, the example's 1:1 is not."""
    project = load_any(EXAMPLE)
    assert not [p for p in find_problems(project.scenario, CAT) if "SANtricity OS" in p.message]
    workloads = [w.model_copy(update={"compression_ratio": 2.0}) for w in project.scenario.workloads]
    reduced = project.scenario.model_copy(update={"workloads": workloads})
    warned = [p for p in find_problems(reduced, CAT) if "no compression, compaction or deduplication" in p.message]
    assert warned and warned[0].severity == "warning" and warned[0].field == "compression_ratio"


def test_ef600_ssd_pools_count_the_additional_optimization_capacity_given():
    """SANTRICITY_OPTIMIZATION_DOC: EF600 / EF300 SSD pools set aside 'a portion of the usable capacity ... as
    additional optimization capacity'. SANtricity publishes no default figure, so left unset it is named in a note
    and not counted; given (here 10%), it comes off the pool's usable after parity, cited in its step."""
    right_sized = int(3.84e12 * (744 * 2**30) / 800e9)
    after_parity = (11 - 1) * right_sized * 8 / 10
    unset = _capacity(_ef600(11, 1))
    assert unset.step("Additional optimization capacity") is None
    assert sum("additional optimization capacity" in n for n in unset.notes) == 1
    scenario = _ef600(11, 1)
    scenario = scenario.model_copy(update={"nodes": [
        n.model_copy(update={"optimization_capacity_pct": 10.0}) if n.kind == "controller" else n
        for n in scenario.nodes]})
    given = _capacity(scenario)
    step = given.step("Additional optimization capacity")
    assert step is not None and rules.SANTRICITY_OPTIMIZATION_DOC in step.source
    assert step.bytes_before - step.bytes_after == pytest.approx(after_parity * 0.10)
    assert given.usable_bytes == pytest.approx(after_parity * 0.90)
    assert not [n for n in given.notes if "additional optimization capacity" in n]
    assert not rules.has_optimization_capacity(CAT.get("netapp-ef600", Controller).name, "HDD")
