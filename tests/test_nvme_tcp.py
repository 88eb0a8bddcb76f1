"""NVMe/TCP: the protocol, its 25/100GbE links and NICs, ONTAP's 9.10.1 minimum, the controller profile it
shares with NVMe/FC, its host stack, the sizer's use of it and the bundled A70 example."""

from __future__ import annotations

import pytest

from models.catalog import Adapter, Controller, LinkType, bundled_catalog
from models.evaluate import evaluate
from models.performance.profiles import controller_profile, find_profile
from models.resources import examples_dir
from models.sizing import size
from models.store import load_any
from models.topology import link_problem

CAT = bundled_catalog()
EXAMPLE = examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml"


def test_links_and_adapters_carry_nvme_tcp():
    for lid, gbps in (("nvme-tcp-25g", 25), ("nvme-tcp-100g", 100)):
        link = CAT.get(lid, LinkType)
        assert link.protocols == ["NVMe/TCP"] and link.medium == "Ethernet" and link.speed_gbps == gbps
        assert link.payload_mbps == CAT.get(f"iscsi-{gbps}g", LinkType).payload_mbps  # same wire, same overhead
    assert "NVMe/TCP" in CAT.get("generic-nic-100gbe-2p", Adapter).protocols
    assert "NVMe/TCP" in CAT.get("generic-nic-25gbe-2p", Adapter).protocols
    assert "NVMe/TCP" not in CAT.get("emulex-lpe32002", Adapter).protocols
    for cid in ("netapp-aff-a20", "netapp-aff-a30", "netapp-aff-a50", "netapp-aff-a70", "netapp-aff-c30",
                "netapp-aff-c60", "netapp-aff-a800"):
        assert "NVMe/TCP" in CAT.get(cid, Controller).protocols, cid


def _a800_over(software: str):
    project = load_any(examples_dir() / "a800-oracle-slob-nvmefc.toml")
    scenario = project.scenario
    nodes = [n.model_copy(update={"software": software}) if n.kind == "controller" else n for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes}), next(n for n in nodes if n.kind == "controller")


@pytest.mark.parametrize("software, refused", [("9.5", True), ("9.9.1", True), ("9.10.1", False), ("9.16.1", False)])
def test_ontap_serves_nvme_tcp_from_9_10_1(software, refused):
    scenario, ctl = _a800_over(software)
    host = next(n for n in scenario.nodes if n.kind == "host")
    host = host.model_copy(update={"adapter": "generic-nic-100gbe-2p"})
    scenario = scenario.model_copy(update={"nodes": [host if n.id == host.id else n for n in scenario.nodes]})
    why = link_problem(scenario, CAT, host.id, ctl.id, "nvme-tcp-100g")
    if refused:
        assert why is not None and f"ONTAP {software}" in why and "9.10.1" in why
    else:
        assert why is None
    # the version rule is NVMe/TCP's alone: NVMe/FC to the same controller is not refused for its version
    assert link_problem(scenario, CAT, "fabric", ctl.id, "nvme-fc-32g") is None


def test_an_fc_hba_does_not_take_nvme_tcp():
    scenario, ctl = _a800_over("9.16.1")
    host = next(n for n in scenario.nodes if n.kind == "host")
    assert "speaks FCP/NVMe/FC" in link_problem(scenario, CAT, host.id, ctl.id, "nvme-tcp-25g")


def test_nvme_tcp_uses_the_nvme_fc_profile_of_the_same_software():
    a800 = CAT.get("netapp-aff-a800", Controller)
    nvme_fc, note = find_profile(a800.performance, "9.5", "NVMe/FC")
    assert note == ""
    tcp, note = find_profile(a800.performance, "9.5", "NVMe/TCP")
    assert tcp is nvme_fc and "NVMe/FC" in note and "NVMe target path" in note
    # iSCSI has no such neighbour: it falls back to the first profile of the software, said so
    other, note = find_profile(a800.performance, "9.5", "iSCSI")
    assert other is not None and "no calibrated profile for iSCSI" in note


def test_the_example_evaluates_over_nvme_tcp_without_warnings():
    project = load_any(EXAMPLE)
    evaluation = evaluate(project)
    (wp,) = evaluation.performance.workloads
    assert wp.protocol == "NVMe/TCP"
    assert not [p for p in evaluation.problems if p.severity in ("error", "warning")]
    assert wp.max_iops_at_slo is not None and wp.max_iops_at_slo >= wp.target_iops


def test_the_host_stack_sets_nvme_tcp_between_nvme_fc_and_iscsi():
    """At light load, the A70 example over NVMe/TCP and the same design over iSCSI differ in the host stack
    (35 us vs 80 us in the host record) and in the controller's per-operation costs (the A70 has no profile of its
    own: the hardware relation gives NVMe/TCP the fitted NVMe/FC fixed latency and CPU time of one core, iSCSI the
    fitted FCP ones) and rate caps (one rate-cap station per node, 1 / cap of demand each); the storage-side
    difference at the curve's first point is that arithmetic (to 1 us: the queueing there differs a little), and
    the host side adds the stacks' difference; the light-load latencies are read from the curves."""
    from models.performance.paths import build_path, cpu_demand_us

    project = load_any(EXAMPLE)
    tcp = evaluate(project).performance.workloads[0]
    scenario = project.scenario
    links = [ln.model_copy(update={"link_type": "iscsi-100g"}) if ln.link_type == "nvme-tcp-100g" else ln
             for ln in scenario.links]
    iscsi_project = project.with_scenario(scenario.model_copy(update={"links": links}))
    iscsi = evaluate(iscsi_project).performance.workloads[0]
    assert iscsi.protocol == "iSCSI"
    light_tcp, light_iscsi = tcp.curve[0].host_latency_ms, iscsi.curve[0].host_latency_ms
    catalog = bundled_catalog()
    a70 = catalog.get("netapp-aff-a70", Controller)
    p_tcp, _ = controller_profile(a70, catalog, a70.default_software, "NVMe/TCP")
    p_iscsi, _ = controller_profile(a70, catalog, a70.default_software, "iSCSI")
    assert p_tcp.cpu_read_us < p_iscsi.cpu_read_us / 2  # the NVMe fit's CPU time, not FCP's
    w = scenario.workloads[0]
    rf, rnd = w.read_pct / 100, w.random_pct / 100

    def per_op_us(p) -> float:
        return (p.fixed_latency_us + rf * cpu_demand_us(p, w.block_kib, False, rnd)
                + (1 - rf) * cpu_demand_us(p, w.block_kib, True, rnd))

    def caps_us(proj) -> float:
        sc = proj.scenario
        path = build_path(sc, catalog, sc.workloads[0])
        return sum(rf * s.read_s + (1 - rf) * s.write_s for s in path.stations if s.ident.role == "iops_bound") * 1e6

    expected_us = per_op_us(p_tcp) - per_op_us(p_iscsi) + caps_us(project) - caps_us(iscsi_project)
    assert (tcp.curve[0].latency_ms - iscsi.curve[0].latency_ms) * 1000 == pytest.approx(expected_us, abs=1.0)
    storage_us = (tcp.curve[0].latency_ms - iscsi.curve[0].latency_ms) * 1000
    assert (light_iscsi - light_tcp) * 1000 == pytest.approx(80 - 35 - storage_us, abs=1)
    assert iscsi.host_cpu_pct_per_100k_iops > tcp.host_cpu_pct_per_100k_iops  # 15 vs 8 us per I/O


def test_the_sizer_offers_nvme_tcp_only_where_the_hosts_and_the_software_take_it():
    project = load_any(EXAMPLE)
    result = size(project, top=100)
    # one row per controller (its drives and shelves are variants; an ASA tied with its AFF is in the AFF's row)
    rows = [*result.candidates, *(t for c in result.candidates for t in c.ties)]
    assert len(rows) > 5 and all("NVMe/TCP" in c.summary for c in rows)
    controllers = {n.catalog_id for c in rows for n in c.scenario.nodes if n.kind == "controller"}
    assert controllers and "netapp-aff-a800" not in controllers  # its default ONTAP 9.5 predates NVMe/TCP
    # FC-only hosts: an Ethernet candidate gives them a NIC that speaks its protocol, and says so
    fc = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml")
    fc = fc.model_copy(update={"requirements": fc.requirements.model_copy(update={"protocols": ["NVMe/TCP"]})})
    offered = size(fc, top=5).candidates
    assert offered
    for c in offered:
        assert "hosts get Generic dual-port 100GbE NIC" in c.summary, c.summary
        hosts = [n for n in c.scenario.nodes if n.kind == "host"]
        assert hosts and all(h.adapter == "generic-nic-100gbe-2p" for h in hosts)
        links = c.scenario.links
        assert all(link_problem(c.scenario, CAT, ln.source, ln.target, ln.link_type) is None for ln in links)
