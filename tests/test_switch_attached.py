"""NS224 shelves cabled as switch-attached storage (review 54, item 1) and the EF600 / EF300 expansion rules (item 4).

NetApp's key specifications give each current NS224 platform a maximum raw capacity two to five times what its
direct-attached shelves hold (AFF A1K 'Max Raw Capacity: 14.6880 PB', four direct-attached NS224 shelves of 30.6 TB
drives hold 96 x 30.6 TB = 2.9376 PB); the rest is reached with the shelves switch-attached through a pair of
storage switches ('Cable shelves as switch-attached storage - NS224 shelves'). The catalog keeps both limits, the
design check names both, a switch-attached design orders its two storage switches (bill of materials, rack units,
power, price) and the sizer proposes such designs. E-Series ('Learn about E-Series hardware'): 'SAS expansion is only
supported on configurations with one host interface card per controller'; SAS SSD expansion 'not to exceed a total
of 96 SAS SSD drive slots'.
"""

from __future__ import annotations

import math

import pytest

from models.catalog import Controller, Drive, Shelf, Switch, bundled_catalog
from models.present.bom import bill_of_materials, footprint
from models.pricing import quantities
from models.problems import find_problems
from models.project.model import ControllerNode, Link, Scenario, ShelfNode
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
TB = 1e12
TLC_30 = "netapp-nvme-ssd-30.6tb-tlc"
A90_EXAMPLE = examples_dir() / "aff-a90-oracle-nvmefc64.toml"
SWITCH = "cisco-nexus-9336c-fx2"


# (controller, internal bays, published max raw PB, largest drive TB the catalog lists for it)
PLATFORMS = [
    ("netapp-aff-a1k", 0, 14.6880, 30.6),
    ("netapp-aff-a90", 48, 6.6096, 30.6),
    ("netapp-aff-a70", 48, 6.6096, 30.6),
    ("netapp-aff-c80", 48, 14.7360, 61.4),
    ("netapp-aff-c60", 24, 7.3680, 61.4),
    ("netapp-aff-a20", 24, 4.0392, 30.6),
    ("netapp-aff-a30", 24, 4.0392, 30.6),
    ("netapp-aff-a50", 24, 4.0392, 30.6),
    ("netapp-aff-a900", 0, 14.6880, 30.6),
    ("netapp-aff-a800", 48, 6.6096, 30.6),
    ("netapp-aff-c800", 48, 7.3680, 61.4),
    ("netapp-aff-a400", 0, 14.6880, 30.6),
]


@pytest.mark.parametrize("cid, internal, max_raw_pb, drive_tb", PLATFORMS)
def test_the_switch_attached_limit_is_the_published_max_raw_over_the_largest_drive(cid, internal, max_raw_pb,
                                                                                   drive_tb):
    rec = CAT.get(cid, Controller)
    drives = max_raw_pb * 1e15 / (drive_tb * TB)  # independent: NetApp's figure / the drive's marketed size
    assert rec.max_drives_switched == round(drives) and abs(drives - round(drives)) < 1e-9
    assert rec.max_shelves_switched == math.ceil((round(drives) - internal) / 24)
    assert rec.max_shelves_switched > rec.max_shelves  # more than the direct-attached cabling count
    assert rec.max_drives == internal + 24 * rec.max_shelves  # max_drives stays the direct-attached limit
    for field in ("max_drives_switched", "max_shelves_switched"):
        assert rec.kind_of(field) == "derived"
        assert "cable-as-switch-attached.html" in rec.sources[field] and "Max Raw Capacity" in rec.sources[field]


def test_the_a1k_reaches_netapps_14_7_pb_only_switch_attached():
    a1k = CAT.get("netapp-aff-a1k", Controller)
    drive = CAT.get(TLC_30, Drive)
    assert a1k.max_drives * drive.marketed_bytes == pytest.approx(2.9376e15)  # 20% of the published maximum
    assert a1k.max_drives_switched * drive.marketed_bytes == pytest.approx(14.688e15)


def test_asa_and_c30_keep_direct_attached_only_where_max_raw_is_reached_direct():
    for cid in ("netapp-aff-c30", "netapp-asa-a20", "netapp-asa-a50", "netapp-asa-a90", "netapp-asa-a1k"):
        rec = CAT.get(cid, Controller)
        largest = max(d.marketed_bytes for d in CAT if isinstance(d, Drive) and cid in d.controllers)
        assert rec.max_drives * largest >= rec.max_raw_bytes, cid  # direct-attached already holds the max raw
        assert rec.max_shelves_switched is None, cid


def test_netapps_storage_switches_carry_ns224():
    for sid in ("cisco-nexus-9336c-fx2", "nvidia-sn2100"):
        rec = CAT.get(sid, Switch)
        assert rec.storage_shelves == ["netapp-ns224"]
        assert "learn-switch-concept.html" in rec.sources["storage_shelves"]


def _a90(shelves: int, switch: str = "", drive: str = TLC_30) -> Scenario:
    """The A90 example with ``shelves`` NS224 shelves of ``drive`` beside its internal bays (switch-attached through
    ``switch``, '' direct-attached)."""
    scenario = load_any(A90_EXAMPLE).scenario
    ns224 = CAT.get("netapp-ns224", Shelf)
    nodes = [n.model_copy(update={"storage_switch": switch}) if n.kind == "controller" else n
             for n in scenario.nodes]
    nodes += [ShelfNode(id=f"ns{k}", catalog_id="netapp-ns224", drive=drive, drive_count=24) for k in range(shelves)]
    links = list(scenario.links) + [Link(id=f"be{k}", source="a90", target=f"ns{k}", link_type=ns224.backend_link,
                                         ports=ns224.backend_lanes) for k in range(shelves)]
    return scenario.model_copy(update={"nodes": nodes, "links": links})


def _errors(scenario: Scenario) -> list[str]:
    return [p.message for p in find_problems(scenario, CAT) if p.severity == "error"]


def test_more_shelves_than_direct_attached_without_switches_is_refused_naming_both_limits():
    errors = _errors(_a90(5))
    shelf_error = next(e for e in errors if "external shelves exceed" in e)
    assert "maximum of 2 direct-attached shelves per HA pair (7 with switch-attached shelves)" in shelf_error
    shelf_sources = next(p.sources for p in find_problems(_a90(5), CAT) if "external shelves exceed" in p.message)
    assert "cable-as-switch-attached.html" in shelf_sources  # the sources apart from the sentence
    drive_error = next(e for e in errors if "drives exceed" in e)
    # the example's 24 internal drives + 5 x 24
    assert ("144 drives exceed NetApp AFF A90 HA pair's maximum of 96 per HA pair with direct-attached shelves "
            "(216 with switch-attached shelves)") in drive_error


def test_switch_attached_shelves_within_the_switched_limit_pass_and_above_it_are_refused():
    assert _errors(_a90(5, SWITCH)) == []
    errors = _errors(_a90(8, SWITCH))
    assert any("8 external shelves exceed NetApp AFF A90 HA pair's maximum of 7 switch-attached" in e for e in errors)
    assert not any("drives exceed" in e for e in errors)  # 24 + 8 x 24 = 216, the switch-attached drive limit
    assert any("is not a storage switch" in e for e in _errors(_a90(3, "brocade-g720")))


def test_a_switch_attached_design_orders_two_storage_switches_with_their_space_power_and_price():
    direct, switched = _a90(2), _a90(2, SWITCH)
    sw = CAT.get(SWITCH, Switch)
    rows = [r for r in bill_of_materials(switched, CAT) if r.category == "Storage switches"]
    assert len(rows) == 1 and rows[0].quantity == 2 and rows[0].catalog_id == SWITCH
    assert rows[0].rack_units == 2 * sw.rack_units and rows[0].power_w == pytest.approx(2 * sw.typical_power_w)
    assert not [r for r in bill_of_materials(direct, CAT) if r.category == "Storage switches"]
    a, b = footprint(direct, CAT), footprint(switched, CAT)
    assert b.rack_units - a.rack_units == 2 and b.power_w - a.power_w == pytest.approx(700.0)
    assert quantities(switched, CAT)[0][SWITCH] == 2 and SWITCH not in quantities(direct, CAT)[0]
    controller = next(r for r in bill_of_materials(switched, CAT) if r.category == "Controller system")
    assert "switch-attached shelves (2 × Cisco Nexus 9336C-FX2" in controller.figures


def test_the_4_pb_sizing_offers_switch_attached_a70_a90_a1k_designs_with_their_switches():
    """Review 54: with 4 PB effective the sizer offered no AFF A70, A90 or A1K (their 96-drive direct-attached limit
    holds 2.94 PB raw of 30.6 TB drives); now it offers them switch-attached, two storage switches in their bill."""
    from models.sizing import size
    from models.topology import front_end_switches

    project = load_any(A90_EXAMPLE)
    project = project.model_copy(update={"requirements": project.requirements.model_copy(
        update={"effective_capacity_bytes": 4_000_000_000_000_000})})
    result = size(project, top=60, catalog=CAT)
    offered = {}
    for cand in result.candidates:
        ctl = next(n for n in cand.scenario.nodes if isinstance(n, ControllerNode))
        if ctl.catalog_id in ("netapp-aff-a70", "netapp-aff-a90", "netapp-aff-a1k") and cand.meets:
            offered.setdefault(ctl.catalog_id, (cand, ctl))
    assert set(offered) == {"netapp-aff-a70", "netapp-aff-a90", "netapp-aff-a1k"}
    for cand, ctl in offered.values():
        assert ctl.storage_switch == SWITCH and "switch-attached through 2 x Cisco Nexus 9336C-FX2" in cand.summary
        rows = [r for r in bill_of_materials(cand.scenario, CAT) if r.category == "Storage switches"]
        assert rows and rows[0].quantity == 2
        fabric = front_end_switches(project.scenario, CAT).rack_units  # the hosts' FC switch, counted by the sizer
        assert cand.rack_units == footprint(cand.scenario, CAT).rack_units + fabric
        assert not _errors(cand.scenario)


# --- E-Series: one host interface card with SAS expansion; 96 SAS SSD slots in expansion shelves ---------------


def _ef(cid: str, host_ports: int, ssd_shelves: int) -> Scenario:
    """An EF600 / EF300 with its 24 NVMe bays, ``ssd_shelves`` DE224C shelves of 24 SAS SSDs and ``host_ports`` FC
    ports cabled from a host group."""
    ctl = ControllerNode(id="ef", catalog_id=cid, software="SANtricity 11.90", raid_type="ddp", spares_per_node=0)
    host = load_any(examples_dir() / "ef600-nvme-ddp-oltp-nvmefc.toml").scenario.nodes[0]
    nodes = [host, ctl, ShelfNode(id="bays", catalog_id="netapp-ne224-controller-bays",
                                  drive="netapp-eseries-3840gb-nvme-ssd", drive_count=24)]
    nodes += [ShelfNode(id=f"x{k}", catalog_id="netapp-de224c", drive="netapp-eseries-3840gb-sas-ssd", drive_count=24)
              for k in range(ssd_shelves)]
    links = [Link(id="fe", source=host.id, target="ef", link_type="nvme-fc-32g", ports=host_ports),
             Link(id="lb", source="ef", target="bays", link_type="pcie-nvme", ports=24)]
    links += [Link(id=f"lx{k}", source="ef", target=f"x{k}", link_type="sas-12g", ports=8) for k in range(ssd_shelves)]
    return Scenario(name="s", nodes=nodes, links=links)


def test_an_ef600_with_two_host_interface_cards_and_expansion_is_refused():
    assert CAT.get("netapp-ef600", Controller).ports_per_node_expanded == 4
    assert not any("host ports are cabled" in e for e in _errors(_ef("netapp-ef600", 16, 0)))  # 2 HICs, no expansion
    errors = _errors(_ef("netapp-ef600", 16, 1))
    assert any("16 FC host ports are cabled, but NetApp EF600" in e and "has 8 (4 per controller" in e
               and "one host interface card per controller" in e for e in errors), errors
    assert not any("host ports are cabled" in e for e in _errors(_ef("netapp-ef600", 8, 1)))


@pytest.mark.parametrize("cid", ["netapp-ef600", "netapp-ef300"])
def test_sas_ssd_expansion_is_capped_at_96_slots(cid):
    rec = CAT.get(cid, Controller)
    assert rec.max_expansion_ssd == 96 and "96 SAS SSD drive slots" in rec.sources["max_expansion_ssd"]
    ports = 8
    assert not any("SSDs in expansion shelves" in e for e in _errors(_ef(cid, ports, 4)))  # 4 x 24 = 96
    errors = _errors(_ef(cid, ports, 5))
    assert any(f"120 SSDs in expansion shelves exceed {rec.name}'s maximum of 96" in e for e in errors), errors


# --- storage-switch ports: how many pairs a switch-attached design needs (review 54, left open by item 1) -------
#
# NetApp, 'Replace Cisco Nexus 9336C-FX2 and 9336C-FX2-T storage switches', 'storage shelf port show': shelf 3.20
# ports 0-3 on 'Ethernet1/5 S1', 'Ethernet1/5 NS2', 'Ethernet1/6 S1', 'Ethernet1/6 NS2' -> 2 ports per shelf on each
# switch. Each controller: four 100 Gb ENET storage ports in NetApp's examples, 2 per switch (assumed: NetApp gives
# no per-platform count outside the Hardware Universe). A 9336C-FX2 has 36 ports, an SN2100 16.
SHELF_PORTS, CONTROLLER_PORTS, CONTROLLERS = 2, 2, 2


def _a1k(shelves: int, pairs: int = 1, switch: str = SWITCH) -> Scenario:
    """The A90 example turned into an AFF A1K HA pair (no internal bays) with ``shelves`` switch-attached NS224
    shelves of 30.6 TB drives over ``pairs`` pairs of ``switch``."""
    scenario = _a90(shelves, switch)
    nodes = [n.model_copy(update={"catalog_id": "netapp-aff-a1k", "storage_switch_pairs": pairs, "software": ""})
             if n.kind == "controller" else n for n in scenario.nodes if n.id != "nvme-bays"]
    return scenario.model_copy(update={"nodes": nodes, "links": [ln for ln in scenario.links if ln.id != "l-bays"]})


def _pairs_needed(switch_ports: int, shelves: int) -> int:
    """Independent: each pair carries both controllers and its share of the shelves."""
    per_pair = (switch_ports - CONTROLLER_PORTS * CONTROLLERS) // SHELF_PORTS
    return math.ceil(shelves / per_pair)


def test_an_a1k_with_20_switch_attached_shelves_needs_two_pairs_of_9336c_fx2():
    ports = CAT.get(SWITCH, Switch).ports
    assert ports == 36
    need = SHELF_PORTS * 20 + CONTROLLER_PORTS * CONTROLLERS  # 44 ports on each switch of one pair
    assert need == 44 and _pairs_needed(ports, 20) == 2 and _pairs_needed(ports, 16) == 1
    errors = [e for e in _errors(_a1k(20)) if "ports" in e]
    assert len(errors) == 1
    assert "need 44 ports on each storage switch" in errors[0] and "has 36 ports per switch" in errors[0]
    assert "2 pairs needed" in errors[0]
    assert _errors(_a1k(20, pairs=2)) == []
    assert _errors(_a1k(16)) == []  # 2 x 16 + 4 = 36: one pair is full
    sn = CAT.get("nvidia-sn2100", Switch)
    assert sn.ports == 16 and _pairs_needed(16, 20) == 4  # (16 - 4) / 2 = 6 shelves per pair
    assert any("need 44 ports" in e and "has 16 ports" in e and "4 pairs needed" in e
               for e in _errors(_a1k(20, switch="nvidia-sn2100")))
    assert not [e for e in _errors(_a1k(20, pairs=4, switch="nvidia-sn2100")) if "ports" in e]


def test_two_pairs_of_storage_switches_are_ordered_counted_and_priced():
    sw = CAT.get(SWITCH, Switch)
    one, two = _a1k(20, pairs=1), _a1k(20, pairs=2)
    rows = [r for r in bill_of_materials(two, CAT) if r.category == "Storage switches"]
    assert len(rows) == 1 and rows[0].quantity == 4
    assert rows[0].rack_units == 4 * sw.rack_units and rows[0].power_w == pytest.approx(4 * sw.typical_power_w)
    a, b = footprint(one, CAT), footprint(two, CAT)
    assert b.rack_units - a.rack_units == 2 * sw.rack_units and b.power_w - a.power_w == pytest.approx(700.0)
    assert quantities(two, CAT)[0][SWITCH] == 4
    controller = next(r for r in bill_of_materials(two, CAT) if r.category == "Controller system")
    assert "switch-attached shelves (4 × Cisco Nexus 9336C-FX2" in controller.figures


def test_the_sizer_gives_a_switch_attached_design_the_pairs_its_ports_need():
    from models.sizing import _array_controller, _design_footprint, _design_summary

    a1k, ns224, drive = CAT.get("netapp-aff-a1k", Controller), CAT.get("netapp-ns224", Shelf), CAT.get(TLC_30, Drive)
    sw = CAT.get(SWITCH, Switch)
    for count in (16, 17, 20):
        node = _array_controller(a1k, None, ns224, drive, count, None, sw)
        assert node.storage_switch == SWITCH and node.storage_switch_pairs == _pairs_needed(36, count)
    ru16, w16 = _design_footprint(a1k, None, ns224, 16, drive, sw)
    ru17, w17 = _design_footprint(a1k, None, ns224, 17, drive, sw)
    # the 17th shelf brings its own 2 U and a second pair of 1 U switches
    assert ru17 - ru16 == ns224.rack_units + 2 * sw.rack_units
    assert w17 - w16 == pytest.approx(ns224.typical_power_w + 24 * drive.typical_power_w + 2 * sw.typical_power_w)
    link = next(e for e in CAT if type(e).__name__ == "LinkType")
    assert "switch-attached through 4 x Cisco Nexus 9336C-FX2" in _design_summary(a1k, None, ns224, drive, 20,
                                                                                   "NVMe/FC", link, switch=sw)


def test_the_one_hic_with_expansion_error_cites_netapp_in_its_sources_not_in_the_message():
    """REVIEW57 (revcat57 #6): the message is one sentence naming the controller and the limit; the record's source
    (a documentation file name and a field name as the catalog keeps them) goes to ``sources``, shown through
    ``customer_citation``, not pasted into the sentence."""
    from models.present.citations import customer_citation

    found = [p for p in find_problems(_ef("netapp-ef600", 16, 1), CAT) if "host ports are cabled" in p.message]
    assert len(found) == 1, found
    p = found[0]
    assert p.severity == "error" and p.node_id == "ef"
    assert ("16 FC host ports are cabled, but NetApp EF600" in p.message and "has 8 (4 per controller" in p.message
            and "SAS expansion only with one host interface card per controller" in p.message)
    assert ".adoc" not in p.message and "fc_ports_per_node" not in p.message
    cited = customer_citation(p.sources)
    assert "docs.netapp.com/us-en/e-series/getting-started/learn-hardware-concept.html" in cited
    assert "'SAS expansion is only supported on configurations with one host interface card per controller'" in cited
