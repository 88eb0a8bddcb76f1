"""Every bundled example whose array is current is served by current servers from the catalog, not the 2012 PRIMERGY
RX300 S7 the A800 example used: a presales engineer pairs a new array with hosts still sold. The server swap keeps
the example's figures: a current server's per-protocol I/O stack costs are the same assumed values as the RX300 S7's
(the PDF's sources table says so, tests/test_host_stack_citation.py)."""

from __future__ import annotations

import functools

import pytest

from models.catalog import Controller, Host, bundled_catalog
from models.resources import examples_dir
from models.store import load_any

_EXAMPLES = sorted(examples_dir().glob("*.toml"))


@functools.cache  # a pure function of the bundled files: each example is read once per process
def _controllers_and_hosts(path):
    project = load_any(path)
    catalog = bundled_catalog()
    controllers = [catalog.get(n.catalog_id, Controller) for n in project.scenario.nodes if n.kind == "controller"]
    hosts = [catalog.get(n.catalog_id, Host) for n in project.scenario.nodes if n.kind == "host"]
    return controllers, hosts


def _current_array_examples() -> list[str]:
    names = []
    for path in _EXAMPLES:
        controllers, _hosts = _controllers_and_hosts(path)
        if any(c.lifecycle == "current" for c in controllers):
            names.append(path.name)
    return names


def test_the_examples_with_a_current_array_include_the_ones_that_had_2012_hosts():
    names = set(_current_array_examples())
    assert {"aff-a90-oracle-nvmefc64.toml", "aff-a50-ns224-oracle-nvmefc64.toml", "aff-c80-qlc-vmware-nvmefc64.toml",
            "ef600-nvme-ddp-oltp-nvmefc.toml", "fas70-ds460c-nlsas-nfs.toml"} <= names


@pytest.mark.parametrize("name", _current_array_examples())
def test_an_example_with_a_current_array_has_current_hosts(name):
    controllers, hosts = _controllers_and_hosts(examples_dir() / name)
    assert any(c.lifecycle == "current" for c in controllers)
    assert hosts, name
    rx300 = bundled_catalog().get("fujitsu-primergy-rx300-s7", Host)
    for host in hosts:
        assert host.lifecycle == "current", (name, host.id)
        assert host.provenance["lifecycle"].kind == "sourced", (name, host.id)
        # the example's figures stay those of the RX300 S7 it replaced: the same per-protocol stack costs
        assert host.stack_latency_us == rx300.stack_latency_us, (name, host.id)
        assert host.cpu_us_per_io == rx300.cpu_us_per_io, (name, host.id)


def test_the_a90_example_keeps_its_nvme_fc_host_cost():
    controllers, hosts = _controllers_and_hosts(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    assert [c.id for c in controllers] == ["netapp-aff-a90"]
    assert hosts and all("NVMe/FC" in h.cpu_us_per_io for h in hosts)
