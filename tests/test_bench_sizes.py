"""The benchmark projects exist at every size the benchmarks offer: ``bench_gui.py 10 1`` failed because the
project builder always added ten switches and 200 workloads on 200 distinct hosts."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

from bench_store import MIN_NODES, project_with


@pytest.mark.parametrize("n_nodes", [MIN_NODES, 10, 37, 100, 1000, 2000])
def test_the_benchmark_project_has_exactly_the_nodes_asked_for(n_nodes):
    scenario = project_with(n_nodes).scenario
    kinds = [n.kind for n in scenario.nodes]
    assert len(kinds) == n_nodes
    assert kinds.count("controller") == 2 and kinds.count("shelf") >= 1 and kinds.count("host") >= 1
    assert kinds.count("switch") == min(10, max(1, n_nodes // 100))
    hosts = {n.id for n in scenario.nodes if n.kind == "host"}
    assert all(set(w.hosts) <= hosts for w in scenario.workloads) and len(scenario.workloads) == 200


def test_the_1000_node_project_is_the_one_the_targets_were_set_on():
    """600 hosts, 10 switches, 388 shelves: the save / open and GUI figures stay comparable."""
    kinds = [n.kind for n in project_with(1000).scenario.nodes]
    assert (kinds.count("host"), kinds.count("switch"), kinds.count("shelf")) == (600, 10, 388)


def test_too_few_nodes_is_refused():
    with pytest.raises(ValueError, match="at least 5 nodes"):
        project_with(4)
