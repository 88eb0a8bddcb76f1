"""A vSAN cluster that misses its required N+1 capacity never shows a capacity tick (REVIEW45 #1): the report's
summary and the Capacity tab's verdict say the same as the status bar's "missed: capacity at N+1"."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.present.verdicts import CAUTION, FAIL, PASS, capacity_verdicts, verdicts
from models.resources import examples_dir
from models.store import load_any


def _example(name: str):
    return load_any(examples_dir() / f"{name}.toml")


@pytest.fixture(scope="module")
def hybrid():
    project = _example("vsan8-osa-hybrid-4host-oltp")
    return project, evaluate(project, resilience=True)


def test_the_example_misses_n_plus_capacity(hybrid):
    project, ev = hybrid
    missed = [c for c in ev.resilience.requirement_checks if c.requirement == "n_plus" and not c.subject]
    assert missed and not missed[0].met  # the premise: with 1 host down the data fills within the horizon


def test_no_capacity_tick_beside_the_miss(hybrid):
    project, ev = hybrid
    found = verdicts(ev, "TiB", project.requirements)
    capacity = [v for v in found if v.area == "capacity"]
    assert not [v for v in capacity if v.kind == PASS], [v.line for v in capacity]
    caution = [v for v in capacity if v.kind == CAUTION]
    assert len(caution) == 1
    assert "with every host up" in caution[0].text and "N+1 (required) is missed" in caution[0].text


def test_capacity_tab_verdicts_name_the_miss(hybrid):
    project, ev = hybrid
    found = capacity_verdicts(ev.capacity, "TiB", project.requirements.horizon_months,
                              ev.resilience.requirement_checks)
    kinds = [v.kind for v in found]
    assert kinds == [FAIL, CAUTION]
    assert found[0].text.startswith("N+1 (required): with 1 host down") and "30 months" in found[0].text


def test_a_cluster_that_holds_n_plus_keeps_its_tick():
    project = _example("vsan8-esa-6host-sqlserver-oltp")
    ev = evaluate(project, resilience=True)
    found = capacity_verdicts(ev.capacity, "TiB", project.requirements.horizon_months,
                              ev.resilience.requirement_checks)
    assert [v.kind for v in found] == [PASS]


def test_a_met_n_plus_names_todays_data_as_today():
    """The met N+1 line quotes today's stored data beside the usable capacity and says "today" (a review found
    "still fits ... over the 36-month horizon (X of Y usable ...)" read as if X were the grown data)."""

    project = _example("vsan8-esa-6host-sqlserver-oltp")
    ev = evaluate(project, resilience=True)
    met = [c for c in ev.resilience.requirement_checks if c.requirement == "n_plus" and not c.subject]
    assert met and met[0].met
    assert "still fits the usable capacity over the" in met[0].text
    assert " usable today, full in " in met[0].text or " usable today, no growth planned" in met[0].text
