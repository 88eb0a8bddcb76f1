"""A port runs at the speed both ends share: a 64Gb FC link into a 32Gb switch carries a 32Gb payload (its
record's payload x 32 / 64), while the same link direct to the hosts keeps its own."""

from __future__ import annotations

import pytest

from models.catalog import LinkType, Switch, bundled_catalog
from models.performance import build_path
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


def _target_port_demand_s(scenario):
    path = build_path(scenario, CAT, scenario.workloads[0])
    (station,) = [s for s in path.stations if s.name == "target ports"]
    return station.read_s


def _on_g630(name: str = "aff-a50-ns224-oracle-nvmefc64.toml"):
    """The bundled 64Gb NVMe/FC example with its 64Gb switch swapped for a 32Gb Brocade G630."""
    scenario = load_any(examples_dir() / name).scenario
    nodes = [n.model_copy(update={"catalog_id": "brocade-g630", "label": "Brocade G630"}) if n.kind == "switch" else n
             for n in scenario.nodes]
    return scenario.model_copy(update={"nodes": nodes})


def test_a_64g_link_into_a_32g_switch_runs_at_32g():
    scenario = _on_g630()
    block = scenario.workloads[0].block_kib * 1024
    link64 = CAT.get("nvme-fc-64g", LinkType)
    switch = CAT.get("brocade-g630", Switch)
    assert switch.speed_gbps == 32 and link64.speed_gbps == 64
    expected_mbps = link64.payload_mbps * 32 / 64  # independent: the record's payload at half its line rate
    assert _target_port_demand_s(scenario) == pytest.approx(block / (expected_mbps * 1e6), rel=1e-12)
    # the same controller linked straight to the hosts over 64Gb: the port keeps its full payload
    hosts = next(n for n in scenario.nodes if n.kind == "host")
    ctl = next(n for n in scenario.nodes if n.kind == "controller")
    links = [ln for ln in scenario.links if "fabric" not in (ln.source, ln.target)]
    links.append(scenario.links[0].model_copy(update={"id": "direct", "source": hosts.id, "target": ctl.id,
                                                      "link_type": "nvme-fc-64g", "ports": 8}))
    nodes = [n for n in scenario.nodes if n.kind != "switch"]
    direct = scenario.model_copy(update={"nodes": nodes, "links": links})
    assert _target_port_demand_s(direct) == pytest.approx(block / (link64.payload_mbps * 1e6), rel=1e-12)


def test_the_64g_examples_run_their_64g_ports_on_a_64g_switch():
    """The bundled NVMe/FC 64G examples sell 64Gb target ports: their switch runs 64Gb (a Brocade G720), so the
    ports run at 64Gb and no link is held back (review 57: the C80 and A50 examples had a 32Gb G630)."""
    link64 = CAT.get("nvme-fc-64g", LinkType)
    for name in ("aff-c80-qlc-vmware-nvmefc64.toml", "aff-a50-ns224-oracle-nvmefc64.toml"):
        scenario = load_any(examples_dir() / name).scenario
        (switch,) = [CAT.get(n.catalog_id, Switch) for n in scenario.nodes if n.kind == "switch"]
        assert switch.speed_gbps >= 64, name
        block = scenario.workloads[0].block_kib * 1024
        assert _target_port_demand_s(scenario) == pytest.approx(block / (link64.payload_mbps * 1e6), rel=1e-12)
