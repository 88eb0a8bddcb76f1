"""The host catalog holds current (2023-2025) two-socket servers and current HBAs and NICs, each number with its
kind and source, and the default example runs on one of them."""

from __future__ import annotations

import pytest

from models.catalog import Adapter, Host, bundled_catalog
from models.resources import examples_dir
from models.store import load_any

CAT = bundled_catalog()


@pytest.mark.parametrize("host_id", ["dell-poweredge-r760", "hpe-proliant-dl380-gen11", "lenovo-thinksystem-sr650-v3"])
def test_a_current_server_with_every_number_sourced_or_assumed(host_id):
    host = CAT.get(host_id, Host)
    assert host.lifecycle == "current" and host.sockets == 2 and host.cores == 64 and host.memory_gib == 512
    for field in ("sockets", "cores", "memory_gib", "stack_latency_us", "cpu_us_per_io", "lifecycle"):
        assert host.provenance[field].kind in ("sourced", "assumed"), field
    assert host.provenance["memory_gib"].kind == "assumed"  # a configuration, not a datasheet figure
    assert set(host.stack_latency_us) == {"FCP", "NVMe/FC", "NVMe/TCP", "iSCSI"}


@pytest.mark.parametrize("adapter_id,speed", [("broadcom-lpe36002", 64), ("marvell-qle2872", 64),
                                              ("nvidia-connectx6-dx-100gbe-2p", 100), ("broadcom-p225p-25gbe-2p", 25)])
def test_a_current_adapter_sourced_from_its_product_brief(adapter_id, speed):
    adapter = CAT.get(adapter_id, Adapter)
    assert adapter.speed_gbps == speed and adapter.ports == 2
    assert adapter.provenance["speed_gbps"].kind == "sourced" and "product brief" in adapter.provenance[
        "speed_gbps"].source


def test_the_a70_example_runs_on_a_current_server():
    project = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    hosts = [n for n in project.scenarios[0].nodes if n.kind == "host"]
    assert [(h.catalog_id, h.adapter) for h in hosts] == [("dell-poweredge-r760", "nvidia-connectx6-dx-100gbe-2p")]
