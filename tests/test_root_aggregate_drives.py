"""ONTAP without ADP: each node's root aggregate on whole drives of the shelves counted, as its own waterfall step,
apart from the hot spares (the FAS70 + DS460C example: 2 hot spares and a 3-drive root aggregate per node), so the
drive-failure text counts the hot spares left from the real spare count."""

from __future__ import annotations

import pytest

from models.catalog import Drive
from models.evaluate import evaluate
from models.project import load
from models.resources import examples_dir


@pytest.fixture(scope="module")
def fas70():
    project = load(examples_dir() / "fas70-ds460c-nlsas-nfs.toml")
    return project, evaluate(project)


def test_root_aggregate_drives_are_their_own_step_beside_two_hot_spares(fas70):
    from models.catalog.catalog import bundled_catalog

    project, evaluation = fas70
    node = project.scenario.node("fas70")
    assert (node.spares_per_node, node.root_aggregate_drives, node.adp) == (2, 3, "none")
    rs = float(bundled_catalog().get("netapp-16tb-nlsas-7k2", Drive).right_sized_bytes)
    steps = {s.name: s for s in evaluation.capacity.systems[0].steps}
    spares_step = steps["Spares"]
    root_step = steps["Root aggregates"]
    assert spares_step.bytes_before - spares_step.bytes_after == pytest.approx(2 * 2 * rs)
    assert root_step.bytes_before - root_step.bytes_after == pytest.approx(2 * 3 * rs)
    assert "3 drives x" in root_step.formula and "on node 2" in root_step.formula
    # the 120 drives less 2 x (2 + 3): 110 in the data aggregates, as before (RAID-TEC 2 x (16+3), 4 x (15+3) per
    # the performance notes)
    notes = " ".join(evaluation.performance.workloads[0].notes)
    assert "RAID-TEC 2 x (16+3), 4 x (15+3)" in notes


def test_drive_failure_leaves_one_hot_spare_per_node(fas70):
    from models.evaluate import evaluate_resilience

    project, evaluation = fas70
    resilience = evaluate_resilience(project, evaluation)
    text = next(s.text for s in resilience.capacity_states if s.state == "drive_rebuild")
    assert "(1 spare per node left" in text


def test_root_aggregate_drives_ignored_with_adp_and_default_none():
    from models.project.model import ControllerNode

    assert ControllerNode(id="c", catalog_id="netapp-fas70").root_aggregate_drives == 0
