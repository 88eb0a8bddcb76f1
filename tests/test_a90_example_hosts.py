"""The AFF A90 example (a 2024 array) is served by a current server from the catalog, not the 2012 PRIMERGY RX300 S7
its A800 parent used: a presales engineer pairs a new array with hosts still sold."""

from __future__ import annotations

from models.catalog import Controller, Host, bundled_catalog
from models.resources import examples_dir
from models.store import load_any


def test_the_a90_example_pairs_the_array_with_a_current_host():
    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    catalog = bundled_catalog()
    controllers = [catalog.get(n.catalog_id, Controller) for n in project.scenario.nodes if n.kind == "controller"]
    hosts = [(n, catalog.get(n.catalog_id, Host)) for n in project.scenario.nodes if n.kind == "host"]
    assert [c.id for c in controllers] == ["netapp-aff-a90"] and controllers[0].lifecycle == "current"
    assert hosts
    for _node, host in hosts:
        assert host.lifecycle == "current", host.id
        assert host.provenance["lifecycle"].kind == "sourced"
        assert "NVMe/FC" in host.cpu_us_per_io  # the example's protocol has a per-I/O host cost for this server
