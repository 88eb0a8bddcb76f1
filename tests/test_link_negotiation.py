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


def test_a_64g_link_into_a_32g_switch_runs_at_32g():
    project = load_any(examples_dir() / "aff-a50-ns224-oracle-nvmefc64.toml")
    scenario = project.scenario
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
