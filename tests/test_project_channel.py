"""The project sent to the worker process as what changed (app.gui.evaluation.ProjectChannel): what the worker
process unpacks equals what the GUI packed, the records an edit kept are sent as places, and a message written
against a project the worker does not hold is refused, never misread."""

from __future__ import annotations

import pickle
from pathlib import Path

import pytest

from app.gui.evaluation import ProjectChannel, StaleBaseError, evaluate_task, unpack
from app.gui.task_process import TaskState
from models.catalog import bundled_catalog
from models.project import edits, load
from models.resources import examples_dir


def _project():
    return load(Path(examples_dir()) / "aff8080-sqlserver-tpce.toml")


def _edited(project, drives: int):
    shelf = next(n for n in project.scenario.nodes if n.kind == "shelf")
    return edits.replace_scenario(project, edits.set_node_fields(project.scenario, shelf.id, drive_count=drives))


def test_an_edit_is_sent_as_what_changed_and_unpacks_to_the_same_project():
    first = _project()
    channel = ProjectChannel()
    whole = channel.pack(first, None)
    assert whole.base is None
    got, catalog = unpack(whole)
    assert got == first and catalog is None
    second = _edited(first, 20)
    delta = channel.pack(second, None)
    assert delta.base == whole.token and delta.token > whole.token
    assert len(delta.payload) < len(pickle.dumps(second, protocol=pickle.HIGHEST_PROTOCOL))
    got2, _ = unpack(delta)
    assert got2 == second and got2 != got
    changed = {n.id for n in second.scenario.nodes if n not in first.scenario.nodes}
    assert len(changed) == 1
    for node in got2.scenario.nodes:  # the worker's own records of the kept nodes, the edited one anew
        before = got.scenario.node(node.id)
        assert (node is before) == (node.id not in changed)
    assert got2.scenario.links[0] is got.scenario.links[0]


def test_a_catalog_is_sent_once_while_it_stays_the_same():
    project = _project()
    catalog = bundled_catalog()
    channel = ProjectChannel()
    got = unpack(channel.pack(project, catalog))[1]
    assert got is not None and got is not catalog and list(got) == list(catalog) and got.version == catalog.version
    again = channel.pack(_edited(project, 20), catalog)
    assert again.same_catalog
    assert unpack(again)[1] is got  # the one the worker process holds
    other = channel.pack(_edited(project, 22), None)
    assert not other.same_catalog and unpack(other)[1] is None


def test_a_message_against_a_project_not_received_is_refused_and_a_reset_sends_it_whole():
    project = _project()
    channel = ProjectChannel()
    unpack(channel.pack(project, None))
    channel.pack(_edited(project, 20), None)  # never delivered (a run cancelled before it started)
    third = _edited(project, 22)
    stale = channel.pack(third, None)
    with pytest.raises(StaleBaseError):
        unpack(stale)
    outcome = evaluate_task(TaskState(1), stale, (third.active_scenario,), 5, None)
    assert outcome.stale_base and outcome.generation == 5 and outcome.evaluations == ()
    channel.reset()
    whole = channel.pack(third, None)
    assert whole.base is None
    assert unpack(whole)[0] == third
    outcome = evaluate_task(TaskState(2), channel.pack(_edited(third, 24), None), (third.active_scenario,), 6, None)
    assert not outcome.stale_base and outcome.error is None
    assert outcome.evaluation is not None and outcome.evaluation.capacity is not None
