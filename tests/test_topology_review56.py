"""Review 56 (design canvas), model side: protocols end to end across a switch, link ports against the host's
adapters and the controller's published ports, a workload whose hosts cannot reach its target, impossible cabling
refused at the edit, and a met verdict beside design errors.

The designs are the review's (New; DL380 Gen11 + LPe36002 -> Brocade G720 -> AFF A400 -> NS224), drawn here as
records; every expected figure is read from the catalog records themselves (ports, names), not from the engine."""

from __future__ import annotations

import pytest

from models import topology
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.present.summary import verdict_text
from models.present.verdicts import evaluation_verdict
from models.problems import find_problems
from models.project import edits
from models.project.model import (
    ControllerNode,
    HostNode,
    Link,
    Project,
    Scenario,
    ShelfNode,
    SwitchNode,
    Workload,
)
from models.project.names import node_names

CATALOG = bundled_catalog()
A400 = CATALOG.find("netapp-aff-a400")
HBA = CATALOG.find("broadcom-lpe36002")


def host(i="host-1", count=1):
    return HostNode(id=i, catalog_id="hpe-proliant-dl380-gen11", adapter="broadcom-lpe36002", count=count)


def nic_host(i="host-1"):
    return HostNode(id=i, catalog_id="dell-poweredge-r760", adapter="generic-nic-25gbe-2p")


def a400(i="controller-1"):
    return ControllerNode(id=i, catalog_id="netapp-aff-a400", software="9.16.1", adp="root-data-data")


def sas_shelf(i, model):
    return ShelfNode(id=i, catalog_id=model, drive="netapp-x447a-800gb-ssd", drive_count=24)


def ns224(i="shelf-1"):
    return ShelfNode(id=i, catalog_id="netapp-ns224", drive="netapp-nvme-ssd-3.84tb-tlc", drive_count=24)


def oltp(target="controller-1", hosts=()):
    return Workload(id="wl-1", name="OLTP 8K 70/30", preset="oltp-8k-70-30", target=target, hosts=list(hosts),
                    block_kib=8, read_pct=70, random_pct=100, dataset_bytes=10**12)


def switched(host_link="fc-32g", target_link="fc-32g", host_ports=1, target_ports=1, switch="brocade-g720",
             first_host=None) -> Scenario:
    """The review's design: host -> switch -> A400 -> NS224, one workload."""
    return Scenario(name="Base", nodes=[first_host or host(), SwitchNode(id="switch-1", catalog_id=switch), a400(),
                                        ns224()],
                    links=[Link(id="link-1", source="host-1", target="switch-1", link_type=host_link,
                                ports=host_ports),
                           Link(id="link-2", source="switch-1", target="controller-1", link_type=target_link,
                                ports=target_ports),
                           Link(id="link-3", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                    workloads=[oltp()])


def run(scenario: Scenario):
    project = Project(scenarios=[scenario], active_scenario=scenario.name)
    return project, evaluate(project)


def errors(scenario: Scenario) -> list[str]:
    return [p.message for p in find_problems(scenario, CATALOG) if p.severity == "error"]


# --- 1. protocols end to end --------------------------------------------------------------------------------


@pytest.mark.parametrize(("host_link", "target_link", "factory", "ours", "theirs"), [
    ("fc-32g", "nvme-fc-32g", host, "FCP", "NVMe/FC"),
    ("iscsi-25g", "nvme-tcp-25g", nic_host, "iSCSI", "NVMe/TCP"),
])
def test_a_host_and_controller_with_no_protocol_in_common_is_an_error_and_not_evaluated(
        host_link, target_link, factory, ours, theirs):
    scenario = switched(host_link, target_link, first_host=factory(), switch="brocade-g720" if "fc" in host_link
                        else "cisco-nexus-5596")
    names = node_names(scenario.nodes, CATALOG)
    found = [m for m in errors(scenario) if names["host-1"] in m and names["controller-1"] in m]
    assert len(found) == 1, errors(scenario)
    assert ours in found[0] and theirs in found[0]
    # the old engine labelled the workload with the controller side's protocol and showed its NVMe latency
    _project, evaluation = run(scenario)
    assert evaluation.performance.for_workload("wl-1") is None
    assert [u[0] for u in evaluation.performance.unserved] == ["wl-1"]


def test_the_workload_protocol_is_one_its_host_carries_not_the_controller_sides_first():
    # the controller has a 4-port NVMe/FC link and a 2-port FCP link to the switch; the host's HBA link is FCP
    scenario = switched("fc-32g", "nvme-fc-32g", target_ports=4)
    scenario = scenario.model_copy(update={"links": [*scenario.links, Link(
        id="link-4", source="switch-1", target="controller-1", link_type="fc-32g", ports=2)]})
    assert topology.protocol_of(scenario, CATALOG, scenario.workloads[0]) == "FCP"
    assert not errors(scenario)
    _project, evaluation = run(scenario)
    assert evaluation.performance.for_workload("wl-1").protocol == "FCP"


def test_an_inter_switch_link_carries_every_protocol_of_its_medium():
    # host -(NVMe/FC)- sw1 -(an FCP-typed ISL)- sw2 -(NVMe/FC)- A400: NVMe/FC end to end, no error
    scenario = Scenario(name="Base", nodes=[host(), SwitchNode(id="sw1", catalog_id="brocade-g720"),
                                            SwitchNode(id="sw2", catalog_id="brocade-g720"), a400(), ns224()],
                        links=[Link(id="l1", source="host-1", target="sw1", link_type="nvme-fc-32g"),
                               Link(id="l2", source="sw1", target="sw2", link_type="fc-32g"),
                               Link(id="l3", source="sw2", target="controller-1", link_type="nvme-fc-32g"),
                               Link(id="l4", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                        workloads=[oltp()])
    assert not errors(scenario)
    assert topology.protocol_of(scenario, CATALOG, scenario.workloads[0]) == "NVMe/FC"


def test_connecting_a_controller_link_no_host_can_use_is_refused_with_both_protocols():
    scenario = switched().model_copy(update={"links": [switched().links[0], switched().links[2]]})
    assert topology.connect_problem(scenario, CATALOG, "switch-1", "controller-1", "fc-32g") is None
    reason = topology.connect_problem(scenario, CATALOG, "switch-1", "controller-1", "nvme-fc-32g")
    assert reason is not None and "FCP" in reason and "NVMe/FC" in reason
    # the static rule alone let it through (the old canvas's check)
    assert topology.link_problem(scenario, CATALOG, "switch-1", "controller-1", "nvme-fc-32g") is None


def test_a_link_serving_one_host_is_drawn_and_the_stranded_host_is_reported():
    two = Scenario(name="Base", nodes=[host("h-fcp"), host("h-nvme"), SwitchNode(id="switch-1",
                                                                                  catalog_id="brocade-g720"),
                                       a400(), ns224()],
                   links=[Link(id="l1", source="h-fcp", target="switch-1", link_type="fc-32g"),
                          Link(id="l2", source="h-nvme", target="switch-1", link_type="nvme-fc-32g"),
                          Link(id="l4", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                   workloads=[oltp()])
    assert topology.connect_problem(two, CATALOG, "switch-1", "controller-1", "nvme-fc-32g") is None
    drawn, _ = edits.add_link(two, "switch-1", "controller-1", "nvme-fc-32g")
    names = node_names(drawn.nodes, CATALOG)
    assert [m for m in errors(drawn) if names["h-fcp"] in m and "FCP" in m]
    assert not [m for m in errors(drawn) if names["h-nvme"] in m]
    assert topology.protocol_of(drawn, CATALOG, drawn.workloads[0]) == "NVMe/FC"


# --- 2. link ports against the adapters and the controller's ports ------------------------------------------


def test_host_link_ports_beyond_the_hosts_adapters_are_an_error_naming_asked_and_available():
    available = 1 * 1 * HBA.ports  # 1 host x 1 adapter x its ports
    assert available == 2
    assert not [m for m in errors(switched(host_ports=available)) if "host ports" in m]
    found = [m for m in errors(switched(host_ports=16)) if "host ports are asked" in m]
    assert len(found) == 1 and "16 host ports" in found[0] and f"has {available} " in found[0]
    assert "Brocade G720" in found[0]  # the link is named by its ends
    # a host group: 4 hosts x 2 adapters x 2 ports = 16 ports, exactly enough
    group = switched(host_ports=16, first_host=host().model_copy(update={"count": 4, "adapters_per_host": 2}))
    assert not [m for m in errors(group) if "host ports are asked" in m]


def test_controller_link_ports_beyond_its_published_ports_are_an_error():
    total = A400.fc_ports_per_node * A400.nodes  # the platform's published FC ports, per node x 2
    assert total == 24
    assert not [m for m in errors(switched(target_ports=total)) if "host ports are cabled" in m]
    found = [m for m in errors(switched(target_ports=64)) if "host ports are cabled" in m]
    assert len(found) == 1 and "64 FC host ports" in found[0] and f"has {total}" in found[0]


# --- 3. the switch in the middle deleted --------------------------------------------------------------------


def test_a_workload_whose_hosts_reach_no_target_is_not_evaluated_and_not_met():
    scenario = edits.remove_items(switched(), ["switch-1"])
    project, evaluation = run(scenario)
    assert evaluation.performance.for_workload("wl-1") is None  # it read 560K IOPS, faster than with the switch
    decided = evaluation_verdict(evaluation, project.requirements)
    assert not decided.met
    assert [m.short for m in decided.missed] == ["OLTP 8K 70/30 (no path)"]
    assert "no host reaches" in decided.missed[0].text
    assert verdict_text(evaluation, project.requirements) == "missed: OLTP 8K 70/30 (no path)"
    assert any("its I/O has no path" in p.message for p in evaluation.errors)


def test_a_design_without_hosts_is_still_evaluated_at_the_controller():
    scenario = Scenario(name="Base", nodes=[a400(), ns224()],
                        links=[Link(id="l", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                        workloads=[oltp()])
    _project, evaluation = run(scenario)
    assert evaluation.performance.for_workload("wl-1") is not None
    assert evaluation.performance.unserved == ()


def test_a_workload_naming_a_host_that_does_not_reach_its_target_is_not_evaluated():
    scenario = switched()
    scenario = scenario.model_copy(update={"nodes": [*scenario.nodes, host("host-2")],
                                           "workloads": [oltp(hosts=["host-2"])]})
    _project, evaluation = run(scenario)
    assert evaluation.performance.for_workload("wl-1") is None
    assert "none of its hosts" in evaluation.performance.unserved[0][2]


# --- 4. impossible cabling refused at the edit ---------------------------------------------------------------


def test_a_controller_is_not_cabled_to_a_shelf_it_does_not_take():
    scenario = Scenario(name="Base", nodes=[a400(), sas_shelf("s", "netapp-ds2246")])
    assert "netapp-ds2246" not in A400.shelves
    reason = topology.connect_problem(scenario, CATALOG, "controller-1", "s", "sas-6g")
    assert reason == f"{A400.name} does not take {CATALOG.find('netapp-ds2246').name}"
    # nor to a shelf chained behind one it does take
    chained = Scenario(name="Base", nodes=[a400(), ns224(), sas_shelf("s", "netapp-ds2246")],
                       links=[Link(id="l", source="controller-1", target="shelf-1", link_type="pcie-nvme")])
    assert topology.connect_problem(chained, CATALOG, "s", "shelf-1", "sas-6g") is not None


def test_a_shelf_cabled_to_one_controller_is_not_cabled_to_a_second():
    scenario = Scenario(name="Base", nodes=[a400(), a400("controller-2"), ns224(), ns224("shelf-2")],
                        links=[Link(id="l", source="controller-1", target="shelf-1", link_type="pcie-nvme")])
    reason = topology.connect_problem(scenario, CATALOG, "controller-2", "shelf-1", "pcie-nvme")
    assert reason is not None and "already cabled" in reason
    assert topology.connect_problem(scenario, CATALOG, "controller-1", "shelf-1", "pcie-nvme") is None  # 2nd path
    assert topology.connect_problem(scenario, CATALOG, "shelf-1", "shelf-2", "pcie-nvme") is None  # a chain


def test_an_nvme_shelf_is_not_chained_to_a_sas_shelf_and_a_saved_one_is_an_error():
    a700 = ControllerNode(id="controller-1", catalog_id="netapp-aff-a700", software="9.16.1")
    scenario = Scenario(name="Base", nodes=[a700, ns224(), sas_shelf("s", "netapp-ds224c")],
                        links=[Link(id="l1", source="controller-1", target="shelf-1", link_type="pcie-nvme")])
    assert "netapp-ds224c" in CATALOG.find("netapp-aff-a700").shelves  # the controller takes both shelves
    reason = topology.connect_problem(scenario, CATALOG, "shelf-1", "s", "sas-12g")
    assert reason is not None and "NVMe" in reason and "SAS" in reason
    saved, _ = edits.add_link(scenario, "shelf-1", "s", "sas-12g")  # a file written before the rule
    assert [m for m in errors(saved) if "one back end" in m]


def test_a_sas_drive_dropped_on_an_nvme_shelf_is_refused_in_the_design_checks_words():
    scenario = Scenario(name="Base", nodes=[ns224()])
    drive = CATALOG.find("netapp-x439a-1600gb-ssd")
    with pytest.raises(ValueError, match="cannot take SAS drive") as refused:
        edits.set_part(scenario, "shelf-1", drive, CATALOG)
    saved = scenario.model_copy(update={"nodes": [ns224().model_copy(update={"drive": drive.id})]})
    check = next(p.message for p in find_problems(saved, CATALOG) if p.field == "drive")
    assert check.split(": ", 1)[1] in str(refused.value)  # the same words as the Problems list
    fitting = CATALOG.find("netapp-nvme-ssd-3.84tb-tlc")
    assert edits.set_part(scenario, "shelf-1", fitting, CATALOG, A400).node("shelf-1").drive == fitting.id


# --- 10. "met" beside design errors --------------------------------------------------------------------------


def test_a_met_verdict_beside_design_errors_says_so_everywhere():
    e2800 = ControllerNode(id="controller-1", catalog_id="netapp-e2800", raid_type="ddp")
    scenario = Scenario(name="Base", nodes=[e2800, ns224()],
                        links=[Link(id="l", source="controller-1", target="shelf-1", link_type="pcie-nvme")],
                        workloads=[oltp()])
    project, evaluation = run(scenario)
    count = len(evaluation.errors)
    assert count >= 1
    decided = evaluation_verdict(evaluation, project.requirements)
    assert decided.met and decided.errors == count
    assert f"but it has {count} design error" in decided.text
    assert verdict_text(evaluation, project.requirements) == f"met, but {count} design error" + (
        "s" if count != 1 else "")
    from models.serialize import evaluation_to_dict

    assert evaluation_to_dict(evaluation, requirements=project.requirements)["verdict"]["text"] == decided.text
