"""Graph queries of models.topology and the scenario index they read, checked against hand-drawn designs."""

import copy
import pickle

import pydantic
import pytest

from models import topology
from models.capacity.engine import controller_shelves
from models.catalog import bundled_catalog
from models.performance.paths import build_path, front_end
from models.problems import find_problems
from models.project.model import ControllerNode, HostNode, Link, Scenario, ShelfNode, SwitchNode, Workload

CATALOG = bundled_catalog()


def ctl(i):
    return ControllerNode(id=i, catalog_id="netapp-aff8080a-ex", software="9.0", adp="root-data")


def shelf(i, drives=24):
    return ShelfNode(id=i, catalog_id="netapp-ds2246", drive="netapp-x447a-800gb-ssd", drive_count=drives)


def host(i):
    return HostNode(id=i, catalog_id="fujitsu-primergy-rx300-s7", adapter="qlogic-qle2562")


def switch(i):
    return SwitchNode(id=i, catalog_id="brocade-6510")


def link(a, b, kind="sas-6g", ports=4):
    return Link(id=f"{a}-{b}", source=a, target=b, link_type=kind, ports=ports)


def oltp(target, hosts=()):
    return Workload(id=f"w-{target}", name=f"OLTP on {target}", target=target, hosts=list(hosts), block_kib=8,
                    read_pct=70, random_pct=100, target_iops=20_000, dataset_bytes=10**12)


def test_shelf_ownership_follows_daisy_chains_and_the_first_controller():
    # c1 - s1 - s2 - s3 (a chain); c2 - s4, and c2 also cabled to s2; s5 alone; s6 - s7 with no controller
    scenario = Scenario(
        name="t",
        nodes=[ctl("c1"), ctl("c2"), shelf("s1"), shelf("s2"), shelf("s3"), shelf("s4"), shelf("s5"),
               shelf("s6"), shelf("s7")],
        links=[link("c1", "s1"), link("s1", "s2"), link("s3", "s2"), link("c2", "s4"), link("c2", "s2"),
               link("s6", "s7")],
    )
    topo = topology.of(scenario)
    assert [s.id for s in topo.shelves_of("c1")] == ["s1", "s2", "s3"]
    assert [s.id for s in topo.shelves_of("c2")] == ["s4"]  # s2 and s3 are reached too, but c1 came first
    # c2 reaches s2 directly, then s1 and s3 behind it: all three are c1's
    assert [(s.shelf_id, s.owner, s.other) for s in topo.shared_shelves] == [
        ("s2", "c1", "c2"), ("s1", "c1", "c2"), ("s3", "c1", "c2")]
    assert topo.controller_of_shelf("s3").id == "c1"
    assert topo.controller_of_shelf("s5") is None
    assert [s.id for s in topo.unowned_shelves()] == ["s5", "s6", "s7"]
    # the capacity engine and the problems check read the same ownership
    owned, problems = controller_shelves(scenario)
    assert {k: [s.id for s in v] for k, v in owned.items()} == {"c1": ["s1", "s2", "s3"], "c2": ["s4"]}
    assert sum("is linked to no controller" in p for p in problems) == 3
    messages = [p.message for p in find_problems(scenario, CATALOG) if "not connected to a controller" in p.message]
    assert len(messages) == 3  # s5, and the s6 - s7 chain that reaches no controller


def test_a_daisy_chained_shelf_serves_io_in_the_performance_model():
    direct = Scenario(name="d", nodes=[ctl("c1"), shelf("s1", 12), shelf("s2", 12)],
                      links=[link("c1", "s1"), link("c1", "s2")], workloads=[oltp("c1")])
    chained = Scenario(name="c", nodes=[ctl("c1"), shelf("s1", 12), shelf("s2", 12)],
                       links=[link("c1", "s1"), link("s1", "s2")], workloads=[oltp("c1")])
    one = Scenario(name="o", nodes=[ctl("c1"), shelf("s1", 12)], links=[link("c1", "s1")], workloads=[oltp("c1")])

    def drive_servers(scenario):
        path = build_path(scenario, CATALOG, scenario.workloads[0])
        return sum(s.capacity for s in path.stations if s.kind == "drive")  # drives x parallelism

    assert drive_servers(chained) == drive_servers(direct) > drive_servers(one)


def test_reach_passes_through_switches_only_and_finds_the_front_end():
    # h1 - sw1 - c1; h2 - c1 directly; h3 - h1 (hosts do not relay); h4 on sw2, not linked to c1
    scenario = Scenario(
        name="t",
        nodes=[host("h3"), host("h1"), host("h2"), host("h4"), switch("sw1"), switch("sw2"), ctl("c1"),
               shelf("s1")],
        links=[link("h1", "sw1", "fc-16g"), link("sw1", "c1", "fc-16g"), link("h2", "c1", "fc-16g"),
               link("h3", "h1", "fc-16g"), link("h4", "sw2", "fc-16g"), link("c1", "s1")],
    )
    topo = topology.of(scenario)
    reach = topo.reach("c1")
    assert [lk.id for lk in reach["h1"]] == ["sw1-c1", "h1-sw1"]  # target side first
    assert "h3" not in reach and "h4" not in reach and "s1" in reach
    assert [h.id for h in topo.hosts_reaching("c1")] == ["h1", "h2"]  # scenario order
    everyone = topo.front_end("c1")
    assert [h.id for h in everyone.hosts] == ["h1", "h2"]
    assert [[lk.id for lk in p] for p in everyone.paths] == [["h1-sw1", "sw1-c1"], ["h2-c1"]]
    assert [lk.id for lk in everyone.host_links] == ["h1-sw1", "h2-c1"]
    assert [lk.id for lk in everyone.target_links] == ["sw1-c1", "h2-c1"]
    only_h2 = topo.front_end("c1", ["h2"])
    assert [h.id for h in only_h2.hosts] == ["h2"] and [lk.id for lk in only_h2.target_links] == ["h2-c1"]
    # the performance paths ask the same question once per scenario, target and protocol: the links carrying it
    workload = oltp("c1", ["h2"])
    served = front_end(scenario, CATALOG, workload, "FCP")
    assert served is front_end(scenario, CATALOG, workload, "FCP") is topo.served_front_end(CATALOG, "c1", ("h2",),
                                                                                             "FCP")
    assert served.hosts == only_h2.hosts and served.target_links == only_h2.target_links


def test_link_rules_come_from_the_kind_table():
    from models.project.model import CloudVmNode, HciClusterNode

    scenario = Scenario(name="t", nodes=[
        host("h1"), host("h2"), switch("sw1"), SwitchNode(id="eth1", catalog_id="cisco-nexus-5596"), ctl("c1"),
        shelf("s1"),
        HciClusterNode(id="v1", catalog_id=CATALOG.of_kind("hci_node")[0].id),
        CloudVmNode(id="vm1", catalog_id=CATALOG.of_kind("cloud_vm")[0].id, licence="cvo-standard",
                    disk="azure-premium-lrs-p30"),
    ])
    topo = topology.of(scenario)
    assert topo.link_problem(CATALOG, "h1", "sw1", "fc-16g") is None
    assert topo.link_problem(CATALOG, "c1", "s1", "sas-6g") is None
    assert topo.link_problem(CATALOG, "h1", "h2", "fc-16g") == "two hosts do not connect to each other for storage"
    assert topo.link_problem(CATALOG, "sw1", "v1", "fc-16g") == "a vSAN cluster connects over Ethernet"
    assert topo.link_problem(CATALOG, "sw1", "vm1", "fc-16g") == \
        "a cloud VM is reached over its network (iSCSI / Ethernet)"
    assert topo.link_problem(CATALOG, "eth1", "v1", "iscsi-10g") is None
    assert topo.link_problem(CATALOG, "sw1", "eth1", "iscsi-10g").endswith("is an FC switch; it does not take 10GbE "
                                                                           "(iSCSI, NFS)")
    assert "back-end link" in topo.link_problem(CATALOG, "h1", "sw1", "sas-6g")
    assert topo.link_problem(CATALOG, "h1", "s1", "fc-16g").startswith("a shelf connects to a controller")
    assert topo.link_problem(CATALOG, "h1", "ghost", "fc-16g") == "both ends of a link must be on the canvas"
    assert "does not speak" in topo.link_problem(CATALOG, "sw1", "c1", "nvme-fc-32g")


def test_the_index_follows_edits_and_never_changes_equality():
    scenario = Scenario(name="t", nodes=[ctl("c1"), shelf("s1")], links=[link("c1", "s1")])
    same = Scenario(name="t", nodes=[ctl("c1"), shelf("s1")], links=[link("c1", "s1")])
    assert scenario.node("s1").id == "s1" and scenario.node("nope") is None
    assert [lk.id for lk in scenario.links_of("c1")] == ["c1-s1"] and scenario.neighbours("s1") == ["c1"]
    assert scenario == same and same == scenario  # one indexed, one not
    edited = scenario.model_copy(update={"nodes": [ctl("c1"), shelf("s1"), shelf("s2")],
                                         "links": [link("c1", "s1"), link("s1", "s2")]})
    assert edited.node("s2") is not None and scenario.node("s2") is None
    assert [s.id for s in topology.of(edited).shelves_of("c1")] == ["s1", "s2"]
    assert [s.id for s in topology.of(scenario).shelves_of("c1")] == ["s1"]
    validated = scenario.with_changes(links=[])
    assert validated.links_of("c1") == [] and topology.of(validated).shelves_of("c1") == []
    for copied in (pickle.loads(pickle.dumps(scenario)), copy.deepcopy(scenario)):
        assert copied == scenario and copied.node("c1") == scenario.node("c1")
    with pytest.raises(pydantic.ValidationError, match="frozen"):
        scenario.nodes = []  # still a frozen record
