"""Review 56, residual items: a workload where only some of its hosts reach its target over its protocol, a
controller with links of two protocols into one fabric, and the sizer's Recommendation sentence beside design
errors.

The engine counts only the hosts that reach the target over the workload's protocol, and only the links that
carry it (``Topology.served_front_end``). Every expected figure is computed here from the catalog records (link
payload rate, adapter ports) or from a second design with the cut-off hosts, links or switches removed altogether,
which must give the same maximum IOPS at the SLO."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from models import topology
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.performance.paths import build_path
from models.present.labels import carried_protocols
from models.present.recommendation import design_placement, design_sentence, relation_lines
from models.present.verdicts import evaluation_verdict
from models.problems import find_problems
from models.project import edits
from models.project.model import ControllerNode, HostNode, Link, Project, Scenario, ShelfNode, SwitchNode, Workload
from models.project.names import node_names

CATALOG = bundled_catalog()
HBA = CATALOG.find("broadcom-lpe36002")
FC32 = CATALOG.find("fc-32g")
BLOCK = 8 * 1024


def host(i, count=1):
    return HostNode(id=i, catalog_id="hpe-proliant-dl380-gen11", adapter="broadcom-lpe36002", count=count)


def a400():
    return ControllerNode(id="controller-1", catalog_id="netapp-aff-a400", software="9.16.1", adp="root-data-data")


def ns224():
    return ShelfNode(id="shelf-1", catalog_id="netapp-ns224", drive="netapp-nvme-ssd-3.84tb-tlc", drive_count=24)


def oltp(hosts=()):
    return Workload(id="wl-1", name="OLTP 8K 70/30", preset="oltp-8k-70-30", target="controller-1", hosts=list(hosts),
                    block_kib=8, read_pct=70, random_pct=100, dataset_bytes=10**12)


def design(nodes, links, hosts=()) -> Scenario:
    """``nodes`` and ``links`` (front end) beside an A400 with one NS224, one OLTP workload."""
    return Scenario(name="Base", nodes=[*nodes, a400(), ns224()],
                    links=[*links, Link(id="l-shelf", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                    workloads=[oltp(hosts)])


def switch(i="switch-1"):
    return SwitchNode(id=i, catalog_id="brocade-g720")


def performance(scenario: Scenario):
    evaluation = evaluate(Project(scenarios=[scenario], active_scenario=scenario.name))
    wp = evaluation.performance.for_workload("wl-1")
    assert wp is not None, evaluation.performance.unserved
    return wp


def ports(scenario: Scenario) -> dict[str, tuple[int, float]]:
    """Port station -> (its ports, the service time of one 8 KiB I/O there, s)."""
    path = build_path(scenario, CATALOG, scenario.workloads[0])
    return {s.name: (s.multiplicity, s.read_s) for s in path.stations if s.kind == "port"}


def warnings(scenario: Scenario) -> list[str]:
    return [p.message for p in find_problems(scenario, CATALOG) if p.severity == "warning"]


PORT_S = BLOCK / (FC32.payload_mbps * 1e6)
"""One 8 KiB I/O on one 32Gb FC port, s (the link type's payload rate)."""


def test_the_figures_are_port_bound_on_one_32g_port():
    # the designs below are sized so one 32Gb FC port is the bottleneck, below the A400's own limit
    one_port = design([host("h-fcp"), switch()],
                      [Link(id="l1", source="h-fcp", target="switch-1", link_type="fc-32g", ports=1),
                       Link(id="l2", source="switch-1", target="controller-1", link_type="fc-32g", ports=4)])
    assert performance(one_port).saturation_iops == pytest.approx(1 / PORT_S, rel=1e-9)


# --- (b) some hosts cut off --------------------------------------------------------------------------------


def by_protocol(with_cut_off: bool) -> Scenario:
    """h-fcp (1 FCP port) and, when asked, h-nvme (2 NVMe/FC ports, 4 hosts) on one switch; the A400's links FCP."""
    nodes = [host("h-fcp"), switch()]
    links = [Link(id="l1", source="h-fcp", target="switch-1", link_type="fc-32g", ports=1),
             Link(id="l3", source="switch-1", target="controller-1", link_type="fc-32g", ports=4)]
    if with_cut_off:
        nodes.insert(1, host("h-nvme", count=4))
        links.insert(1, Link(id="l2", source="h-nvme", target="switch-1", link_type="nvme-fc-32g", ports=2))
    return design(nodes, links)


def test_a_host_cut_off_by_protocol_is_left_out_of_the_host_ports_and_said_so():
    scenario = by_protocol(True)
    # host ports: the hosts that reach the A400 over FCP (1 host) x 1 link port (<= 1 adapter x 2 ports), 32G each
    expected = 1 * min(1, 1 * HBA.ports)
    host_ports, service = ports(scenario)["host ports"]
    assert host_ports == expected  # the old engine counted the NVMe/FC hosts' 2 ports too: 3
    assert service == pytest.approx(PORT_S, rel=1e-12)
    alone = by_protocol(False)
    assert performance(scenario).max_iops_at_slo == pytest.approx(performance(alone).max_iops_at_slo, rel=1e-12)
    assert performance(scenario).saturation_iops == pytest.approx(expected / PORT_S, rel=1e-9)
    names = node_names(scenario.nodes, CATALOG)
    found = [m for m in warnings(scenario) if "leave out" in m]
    assert len(found) == 1
    assert f"{names['h-nvme']} (it shares no protocol with {names['controller-1']})" in found[0]
    assert found[0].endswith(f"host I/O stack of {names['h-fcp']} only")


def test_a_host_whose_second_fabric_lost_its_link_to_the_controller_counts_only_the_first():
    # h is cabled into two fabrics; fabric 2's link to the A400 was deleted: its port carries none of the I/O
    scenario = design([host("h"), switch("sw1"), switch("sw2")],
                      [Link(id="l1", source="h", target="sw1", link_type="fc-32g", ports=1),
                       Link(id="l2", source="h", target="sw2", link_type="fc-32g", ports=1),
                       Link(id="l3", source="sw1", target="controller-1", link_type="fc-32g", ports=4)])
    assert ports(scenario)["host ports"][0] == 1  # the old engine counted 2 (every FC link of the host)
    without = edits.remove_items(scenario, ["sw2"])
    assert len(without.links) == len(scenario.links) - 1
    assert performance(scenario).max_iops_at_slo == pytest.approx(performance(without).max_iops_at_slo, rel=1e-12)
    assert performance(scenario).saturation_iops == pytest.approx(1 / PORT_S, rel=1e-9)


def test_a_named_host_whose_link_was_deleted_is_named_in_a_warning():
    scenario = design([host("h1"), host("h2"), switch()],
                      [Link(id="l1", source="h1", target="switch-1", link_type="fc-32g", ports=1),
                       Link(id="l3", source="switch-1", target="controller-1", link_type="fc-32g", ports=4)],
                      hosts=["h1", "h2"])
    names = node_names(scenario.nodes, CATALOG)
    found = [m for m in warnings(scenario) if "leave out" in m]
    assert len(found) == 1 and f"{names['h2']} (it does not reach {names['controller-1']})" in found[0]
    alone = design([host("h1"), switch()], scenario.links[:2], hosts=["h1"])
    assert performance(scenario).max_iops_at_slo == pytest.approx(performance(alone).max_iops_at_slo, rel=1e-12)
    # every host served: no such warning
    assert not [m for m in warnings(alone) if "leave out" in m]


# --- (c) a controller with links of two protocols into one fabric ------------------------------------------


def two_protocols(with_nvme: bool) -> Scenario:
    """8 FCP hosts (16 ports); the A400's links to the switch: 8 NVMe/FC ports (first) and 1 FCP port."""
    links = [Link(id="l1", source="h", target="switch-1", link_type="fc-32g", ports=16),
             Link(id="l3", source="switch-1", target="controller-1", link_type="fc-32g", ports=1)]
    if with_nvme:
        links.insert(1, Link(id="l2", source="switch-1", target="controller-1", link_type="nvme-fc-32g", ports=8))
    return design([host("h", count=8), switch()], links)


def test_only_the_controllers_links_of_the_workloads_protocol_are_its_target_ports():
    scenario = two_protocols(True)
    assert topology.protocol_of(scenario, CATALOG, scenario.workloads[0]) == "FCP"
    target_ports, service = ports(scenario)["target ports"]
    assert target_ports == 1  # the FCP link's port; the old engine counted the NVMe/FC link's 8
    assert service == pytest.approx(PORT_S, rel=1e-12)
    assert performance(scenario).saturation_iops == pytest.approx(1 / PORT_S, rel=1e-9)
    alone = two_protocols(False)
    assert performance(scenario).max_iops_at_slo == pytest.approx(performance(alone).max_iops_at_slo, rel=1e-12)
    # the canvas labels the FCP link with the workload's protocol, not the NVMe/FC link
    assert carried_protocols(scenario, CATALOG) == {"l1": "FCP", "l3": "FCP"}


def test_a_host_in_two_fabrics_reaches_the_controllers_links_in_both():
    # host -> sw1 -> A400 and host -> sw2 -> A400, 1 port each: 2 host ports and 2 target ports, as one fabric
    # of 2-port links
    dual = design([host("h"), switch("sw1"), switch("sw2")],
                  [Link(id="l1", source="h", target="sw1", link_type="fc-32g", ports=1),
                   Link(id="l2", source="h", target="sw2", link_type="fc-32g", ports=1),
                   Link(id="l3", source="sw1", target="controller-1", link_type="fc-32g", ports=1),
                   Link(id="l4", source="sw2", target="controller-1", link_type="fc-32g", ports=1)])
    assert ports(dual)["host ports"][0] == 2
    assert ports(dual)["target ports"][0] == 2  # the old engine counted fabric 1's target link only: 1
    single = design([host("h"), switch("sw1")],
                    [Link(id="l1", source="h", target="sw1", link_type="fc-32g", ports=2),
                     Link(id="l3", source="sw1", target="controller-1", link_type="fc-32g", ports=2)])
    assert performance(dual).max_iops_at_slo == pytest.approx(performance(single).max_iops_at_slo, rel=1e-12)


# --- (d) the Recommendation sentence beside design errors --------------------------------------------------


def test_the_recommendation_says_meets_but_has_design_errors_in_the_verdicts_words():
    e2800 = ControllerNode(id="controller-1", catalog_id="netapp-e2800", raid_type="ddp")
    scenario = Scenario(name="Base", nodes=[e2800, ns224()],
                        links=[Link(id="l", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                        workloads=[oltp()])
    project = Project(scenarios=[scenario], active_scenario=scenario.name)
    evaluation = evaluate(project)
    count = len(evaluation.errors)
    decided = evaluation_verdict(evaluation, project.requirements)
    assert decided.met and count >= 1
    words = f"meets every stated requirement, but it has {count} design error{'s' if count != 1 else ''}"
    assert words in decided.text
    order, _ = design_placement(scenario, CATALOG, project.requirements, project.price_book)
    first = SimpleNamespace(summary="NetApp AFF A20", order=order or (0,), headroom_pct=None, scenario=scenario)
    result = SimpleNamespace(candidates=[first], nearest=[], currency=None)
    no_cost = SimpleNamespace(options=[], currency="USD", inputs=SimpleNamespace(horizon_months=36))
    lines = relation_lines(project, CATALOG, evaluation, result, tco=lambda: no_cost)
    assert words in lines[1] and "too" not in lines[1]  # it read "meets every stated requirement too (Summary)"
    none_meet = relation_lines(project, CATALOG, evaluation, SimpleNamespace(candidates=[], nearest=[],
                                                                              currency=None))
    assert words in none_meet[0]
    # without design errors the sentence is as before
    assert design_sentence(True, True, "here", "") == "This report's design meets every stated requirement too " \
                                                      "(Summary); here."
