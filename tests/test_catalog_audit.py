"""The catalog audit (models.catalog.audit) over the whole bundled catalog, and the platform limits it rests on
(models.catalog.limits): drive limits by NetApp's NS224 shelf-cabling pages and the published maximum raw capacity,
each refusal naming its rule and source."""

from __future__ import annotations

from models.capacity import evaluate_capacity
from models.catalog import Controller, Drive, bundled_catalog
from models.problems import find_problems
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()
A70_EXAMPLE = "aff-a70-ns224-oracle-nvmetcp.toml"


def _design(controller: str, shelves: list[tuple[str, str, int]]):
    """The A70 example's scenario with its controller replaced by ``controller`` and its one shelf by ``shelves``
    (shelf catalog id, drive id, drive count), each linked to the controller."""
    scenario = load_any(examples_dir() / A70_EXAMPLE).scenario
    shelf = next(n for n in scenario.nodes if n.kind == "shelf")
    link = next(lk for lk in scenario.links if lk.target == shelf.id)
    nodes = [n.model_copy(update={"catalog_id": controller}) if n.kind == "controller" else n
             for n in scenario.nodes if n.kind != "shelf"]
    links = [lk for lk in scenario.links if lk.id != link.id]
    for k, (sid, drive, count) in enumerate(shelves):
        nodes.append(shelf.model_copy(update={"id": f"s{k}", "catalog_id": sid, "drive": drive, "drive_count": count}))
        links.append(link.model_copy(update={"id": f"l{k}", "target": f"s{k}"}))
    return scenario.model_copy(update={"nodes": nodes, "links": links})


def _errors(scenario) -> list[str]:
    return [p.message for p in find_problems(scenario, CAT) if p.severity == "error"]


def test_an_aff_a20_takes_one_ns224_shelf_and_two_are_refused_naming_the_rule_and_its_source():
    a20 = CAT.get("netapp-aff-a20", Controller)
    assert (a20.max_drives, a20.max_shelves) == (24 + 1 * 24, 1)
    tlc = "netapp-nvme-ssd-3.84tb-tlc"
    one = _design("netapp-aff-a20", [("netapp-2u24-internal-nvme", tlc, 24), ("netapp-ns224", tlc, 24)])
    assert not _errors(one)
    two = _design("netapp-aff-a20", [("netapp-ns224", tlc, 24), ("netapp-ns224", tlc, 24)])
    errors = _errors(two)
    # one sentence naming both limits; the rule's sources apart (Problem.sources: the tooltip, JSON and report)
    assert any("2 external shelves exceed NetApp AFF A20 HA pair's maximum of 1 direct-attached shelf per HA pair "
               "(5 with switch-attached shelves)" in e for e in errors), errors
    sources = [p.sources for p in find_problems(two, CAT) if "external shelves exceed" in p.message]
    assert len(sources) == 1 and "shelf-cabling rule" in sources[0] \
        and "ns224/cable-aff-systems-hot-add-shelf.html" in sources[0], sources
    capacity = evaluate_capacity(two, CAT)
    assert any("2 external shelves exceed" in p for r in capacity.systems for p in r.problems)


def test_an_aff_c30_above_its_published_raw_capacity_is_refused_naming_the_rule_and_its_source():
    c30 = CAT.get("netapp-aff-c30", Controller)
    qlc = CAT.get("netapp-nvme-ssd-61.4tb-qlc", Drive)
    assert c30.max_raw_bytes == 2_210_400_000_000_000 and c30.max_drives == 72
    shelves = [("netapp-2u24-internal-nvme", qlc.id, 24), ("netapp-ns224", qlc.id, 24), ("netapp-ns224", qlc.id, 24)]
    errors = _errors(_design("netapp-aff-c30", shelves))
    raw = 72 * qlc.marketed_bytes  # 4.4208 PB, twice the published 2.2104 PB
    assert raw == 4_420_800_000_000_000
    assert any("4.4208 PB raw exceeds NetApp AFF C30 HA pair's published maximum raw capacity of 2.2104 PB" in e
               for e in errors), errors
    assert any("c30-key-specifications.html" in p.sources for p in find_problems(_design("netapp-aff-c30", shelves),
                                                                                 CAT))
    ok = [("netapp-2u24-internal-nvme", qlc.id, 24), ("netapp-ns224", qlc.id, 12)]  # 36 x 61.4 TB = 2.2104 PB
    assert not _errors(_design("netapp-aff-c30", ok))


def test_the_bundled_catalog_keeps_every_consistency_rule():
    from models.catalog.audit import consistency_failures, drive_limit_failures, sizing_numbers

    entries = list(CAT)
    assert consistency_failures(entries) == []
    rows = sizing_numbers(entries)
    assert ("controller", "netapp-aff-a90", "fc_ports_per_node", "28", "sourced") in rows
    # the rule is not vacuous: the old AFF A20 limit (72 with one NS224 shelf) and a shelf id that is no shelf fail
    a20 = CAT.get("netapp-aff-a20", Controller)
    bad = [a20.model_copy(update={"max_drives": 72}) if e.id == a20.id else e for e in entries]
    assert drive_limit_failures(bad) == ["netapp-aff-a20: max_drives 72 is not its 24 internal bays + 1 shelves x "
                                         "24 bays = 48"]
    wrong = [a20.model_copy(update={"shelves": ["netapp-aff-a30"]}) if e.id == a20.id else e for e in entries]
    assert "netapp-aff-a20: names shelf 'netapp-aff-a30', which is not a shelf record" in drive_limit_failures(wrong)


def test_every_protocol_needs_ports_of_its_medium():
    """The old AFF A90 record (iSCSI / NFS over 4 x 25 GbE, no FC ports) could not list FCP; the A800 with no
    Ethernet ports could not list NFS."""
    from models.catalog.audit import protocol_port_failures

    a90 = CAT.get("netapp-aff-a90", Controller)
    assert {"FCP", "NVMe/FC", "NFS"} <= set(a90.protocols) and a90.fc_ports_per_node * 2 == 56
    no_fc = a90.model_copy(update={"fc_ports_per_node": 0})
    assert protocol_port_failures([no_fc]) == ["netapp-aff-a90: lists FCP but has no FC ports",
                                               "netapp-aff-a90: lists NVMe/FC but has no FC ports"]
    a800 = CAT.get("netapp-aff-a800", Controller)
    assert "NFS" in a800.protocols and a800.ethernet_ports_per_node == 2 and a800.ethernet_port_speed_gbps == 100
    no_eth = a800.model_copy(update={"ethernet_ports_per_node": 0})
    assert "netapp-aff-a800: lists NFS but has no Ethernet ports" in protocol_port_failures([no_eth])


def test_catalog_audit_command_passes_on_the_bundled_catalog(capsys):
    from app.cli import main

    assert main(["catalog", "--audit"]) == 0
    out = capsys.readouterr().out
    assert "consistency: every rule holds" in out
    assert "netapp-aff-a20" in out and "max_shelves" in out


def test_the_audit_lists_the_power_and_height_the_sizer_counts_for_shelves_drives_and_switches():
    """The sizer's footprint counts shelves' and drives' typical power and front-end switches' height and power:
    the audit lists each of them with its source kind, e.g. the Cisco Nexus 9336C-FX2's sourced 1U and its assumed
    350 W."""
    from models.catalog.audit import sizing_numbers

    rows = {(kind, rid, field): (value, source) for kind, rid, field, value, source in sizing_numbers(CAT)}
    assert rows[("switch", "cisco-nexus-9336c-fx2", "rack_units")] == ("1", "sourced")
    assert rows[("switch", "cisco-nexus-9336c-fx2", "typical_power_w")][1] == "assumed"
    assert rows[("switch", "brocade-g630", "rack_units")] == ("2", "sourced")
    assert ("shelf", "netapp-ns224", "typical_power_w") in rows
    switches = {rid for kind, rid, field in rows if kind == "switch" and field == "typical_power_w"}
    assert switches == {e.id for e in CAT if e.kind == "switch" and e.typical_power_w is not None}


def test_every_platform_the_sizer_proposes_fits_its_limits_and_reports_its_footprint():
    """The sizer's array proposals keep their platform limits (no AFF C30 above its 2.2104 PB: 24 internal 61.4 TB
    drives are 1.47 PB, one more NS224 shelf of them 2.95 PB), and report at least the rack units of the chassis and
    shelves and the controller's typical power (independent sum over the proposal's records)."""
    from models.catalog.audit import footprint_failures
    from models.sizing import array_proposals

    base = load_any(examples_dir() / A70_EXAMPLE).scenario
    proposals = list(array_proposals(base, CAT))
    assert len(proposals) > 100
    assert footprint_failures(proposals) == []
    c30_qlc = [sum(n for _, _, n in shelves) for _, c, shelves, _, _, _ in proposals
               if c.id == "netapp-aff-c30" and shelves[0][1].id == "netapp-nvme-ssd-61.4tb-qlc"]
    assert c30_qlc and max(c30_qlc) == 24
    a20 = [p for p in proposals if p[1].id == "netapp-aff-a20"]
    # direct-attached: 24 internal + 1 NS224 shelf; switch-attached: its 132-drive limit (4.0392 PB / 30.6 TB) in
    # full shelves, 24 + 4 x 24 (a fifth full shelf would be 144)
    assert a20 and max(sum(n for _, _, n in p[2]) for p in a20 if p[5] is None) == 48
    assert max(sum(n for _, _, n in p[2]) for p in a20 if p[5] is not None) == 24 + 4 * 24
    summary, controller, shelves, ru, power, switch = a20[0]
    parts = controller.rack_units + sum(s.rack_units for s, _, _ in shelves if not s.internal)
    short = footprint_failures([(summary, controller, shelves, parts - 1, power, switch)])
    assert short == [f"{summary}: reports {parts - 1} rack units, below its parts' {parts}"]
    assert footprint_failures([(summary, controller, shelves, ru, None, switch)])  # the A20's typical power


def test_the_audit_lists_the_hardware_that_drives_performance(capsys):
    """Review 57: the audit left out the cores and NVRAM per node, assumed for every current ONTAP and E-Series
    system, although the hardware relation runs ONTAP's per-core costs on the record's cores. It lists them now
    with the other performance-driving fields, each with its source kind (FAS70: 32 cores assumed, its two 2 TB
    Flash Cache modules per controller derived, 2 x 2 x 10^12 bytes = 3,725.3 GiB)."""
    from app.cli import main
    from models.catalog.audit import sizing_numbers

    rows = {(kind, rid, field): (value, source) for kind, rid, field, value, source in sizing_numbers(CAT)}
    assert rows[("controller", "netapp-fas70", "cores_per_node")] == ("32", "assumed")
    assert rows[("controller", "netapp-aff-a800", "nvram_gib_per_node")] == ("32", "assumed")
    assert rows[("controller", "netapp-fas70", "flash_cache_gib_per_node")] == (f"{2 * 2e12 / 2**30:.1f}", "derived")
    assert rows[("controller", "netapp-aff-a90", "nodes")][0] == "2"
    current = {e.id for e in CAT if isinstance(e, Controller) and e.lifecycle == "current"}
    assert current and all(("controller", cid, "cores_per_node") in rows for cid in current)
    assert main(["catalog", "controller", "--audit"]) == 0
    out = capsys.readouterr().out
    assert any(line.split()[:2] == ["netapp-fas70", "cores_per_node"] and line.split()[-1] == "assumed"
               for line in out.splitlines())
    assert any(line.split()[:2] == ["netapp-aff-a800", "nvram_gib_per_node"] for line in out.splitlines())


def test_the_parts_list_says_an_assumed_core_count_is_not_published():
    """The parts list printed '2 nodes × 32 cores' for the FAS70, whose cores NetApp does not publish (an assumed
    count): it says so now, and a published count would read without the words."""
    from models.present.bom import bill_of_materials

    scenario = load_any(examples_dir() / "fas70-ds460c-nlsas-nfs.toml").scenario
    row = next(r for r in bill_of_materials(scenario, CAT) if r.category == "Controller system")
    assert row.figures.startswith("2 nodes × 32 cores (assumed: not published), ")
    fas70 = CAT.get("netapp-fas70", Controller)
    published = fas70.model_copy(update={"provenance": {**fas70.provenance, "cores_per_node": fas70.provenance[
        "cores_per_node"].model_copy(update={"kind": "sourced"})}})
    row = next(r for r in bill_of_materials(scenario, CAT.with_entries([published]))
               if r.category == "Controller system")
    assert row.figures.startswith("2 nodes × 32 cores, ")
