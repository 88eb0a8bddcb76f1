"""The pure project edits (models.project.edits), headless: each edit's result and each of its refusals.

No Qt here: the GUI's undo commands only wrap these functions (tests/gui/test_gui_editing.py drives them
through the widgets).
"""

from __future__ import annotations

import math
import subprocess
import sys

import pytest

from models.catalog import bundled_catalog
from models.project import edits
from models.project.model import (
    ControllerNode,
    HostNode,
    Link,
    PriceRow,
    Project,
    Scenario,
    ShelfNode,
    Workload,
)
from models.units import CapacityUnit

CONTROLLER, SHELF, DRIVE = "netapp-aff8080a-ex", "netapp-ds2246", "netapp-x447a-800gb-ssd"


def _system() -> Scenario:
    """A host, a controller and a shelf of 24 drives, host -> controller -> shelf, one workload."""
    return Scenario(
        name="Base",
        nodes=[HostNode(id="host-1", catalog_id="fujitsu-primergy-rx300-s7", x=0, y=0),
               ControllerNode(id="controller-1", catalog_id=CONTROLLER, x=300, y=0),
               ShelfNode(id="shelf-1", catalog_id=SHELF, drive=DRIVE, drive_count=24, x=600, y=0)],
        links=[Link(id="link-1", source="host-1", target="controller-1", link_type="fc-16g"),
               Link(id="link-2", source="controller-1", target="shelf-1", link_type="sas-6g")],
        workloads=[Workload(id="oltp", name="OLTP", target="controller-1", block_kib=8, read_pct=70,
                            random_pct=100, target_iops=50_000)],
    )


def _project() -> Project:
    return Project(scenarios=[_system()])


def test_the_fixture_is_a_design_without_topology_problems():
    """The scenario the edits start from is a real, connected design of bundled records."""
    from models.problems import find_problems

    catalog = bundled_catalog()
    assert all(catalog.find(n.catalog_id) is not None for n in _system().nodes)
    assert [p for p in find_problems(_system(), catalog) if p.severity == "error"] == []


# --- nodes --------------------------------------------------------------------------------------------------------


def test_add_nodes_appends_nodes_and_links_and_keeps_the_original():
    before = _system()
    new = HostNode(id="host-2", catalog_id="fujitsu-primergy-rx300-s7", x=0, y=120)
    link = Link(id="link-3", source="host-2", target="controller-1", link_type="fc-16g", ports=2)
    after = edits.add_nodes(before, [new], [link])
    assert [n.id for n in after.nodes] == ["host-1", "controller-1", "shelf-1", "host-2"]
    assert after.links[-1] == link and len(after.links) == 3
    assert len(before.nodes) == 3  # the argument is untouched


def test_add_nodes_refuses_a_used_id_and_a_link_to_nowhere():
    with pytest.raises(ValueError, match="node id 'host-1' is used twice"):
        edits.add_nodes(_system(), [HostNode(id="host-1", catalog_id="fujitsu-primergy-rx300-s7")])
    with pytest.raises(ValueError, match="no item 'ghost'"):
        edits.add_nodes(_system(), [], [Link(id="link-9", source="ghost", target="shelf-1", link_type="sas-6g")])


def test_set_node_fields_changes_only_that_node():
    after = edits.set_node_fields(_system(), "shelf-1", drive_count=12, label="Shelf A")
    shelf = after.node("shelf-1")
    assert (shelf.drive_count, shelf.label, shelf.drive) == (12, "Shelf A", DRIVE)
    assert after.node("controller-1") == _system().node("controller-1")


def test_set_node_fields_refuses_unknown_id_field_and_bad_value():
    with pytest.raises(ValueError, match="no item 'shelf-9'"):
        edits.set_node_fields(_system(), "shelf-9", drive_count=12)
    with pytest.raises(ValueError, match="drive_count"):
        edits.set_node_fields(_system(), "shelf-1", drive_count=481)  # le=480
    with pytest.raises(ValueError, match="colour"):
        edits.set_node_fields(_system(), "shelf-1", colour="red")


def test_replace_node_refuses_a_node_the_scenario_lacks():
    stranger = ShelfNode(id="shelf-7", catalog_id=SHELF, drive=DRIVE, drive_count=1)
    with pytest.raises(ValueError, match="no item 'shelf-7'"):
        edits.replace_node(_system(), stranger)
    same_id = ShelfNode(id="shelf-1", catalog_id=SHELF, drive=DRIVE, drive_count=6)
    assert edits.replace_node(_system(), same_id).node("shelf-1").drive_count == 6


def test_move_nodes_moves_only_the_named_nodes():
    after = edits.move_nodes(_system(), {"shelf-1": (10, -20.5)})
    assert (after.node("shelf-1").x, after.node("shelf-1").y) == (10.0, -20.5)
    assert (after.node("host-1").x, after.node("host-1").y) == (0.0, 0.0)


def test_move_nodes_refuses_unknown_ids_and_non_finite_points():
    with pytest.raises(ValueError, match="no item 'nope'"):
        edits.move_nodes(_system(), {"nope": (1, 1)})
    with pytest.raises(ValueError, match="not a finite point"):
        edits.move_nodes(_system(), {"shelf-1": (math.nan, 0)})
    with pytest.raises(ValueError, match="not a finite point"):
        edits.move_nodes(_system(), {"shelf-1": (0, math.inf)})


def test_remove_items_takes_the_links_of_removed_nodes_and_keeps_workloads():
    after = edits.remove_items(_system(), ["controller-1", "not-there"])
    assert [n.id for n in after.nodes] == ["host-1", "shelf-1"]
    assert after.links == []  # both links touched the controller
    assert [w.target for w in after.workloads] == ["controller-1"]  # dangling: the problems list says so


def test_remove_items_removes_a_link_alone():
    after = edits.remove_items(_system(), ["link-1"])
    assert [link.id for link in after.links] == ["link-2"] and len(after.nodes) == 3


# --- catalog drops ------------------------------------------------------------------------------------------------


def test_set_part_sets_a_drive_on_a_shelf():
    catalog = bundled_catalog()
    drive = catalog.find("netapp-x439a-1600gb-ssd")
    after = edits.set_part(_system(), "shelf-1", drive)
    assert after.node("shelf-1").drive == "netapp-x439a-1600gb-ssd"


def test_set_part_refuses_the_wrong_item_and_no_item():
    catalog = bundled_catalog()
    drive = catalog.find("netapp-x439a-1600gb-ssd")
    with pytest.raises(ValueError, match="drop it on a shelf"):
        edits.set_part(_system(), "controller-1", drive)
    with pytest.raises(ValueError, match="drop it on a shelf"):
        edits.set_part(_system(), None, drive)
    with pytest.raises(ValueError, match="not a part"):
        edits.set_part(_system(), "shelf-1", catalog.find(CONTROLLER))


def test_add_catalog_node_adds_an_item_with_a_fresh_id_and_defaults():
    catalog = bundled_catalog()
    after, node = edits.add_catalog_node(_system(), catalog, catalog.find(SHELF), 50, 60)
    assert node.id == "shelf-2" and after.node("shelf-2") == node
    assert (node.x, node.y, node.catalog_id) == (50.0, 60.0, SHELF)
    assert node.drive_count == catalog.find(SHELF).bays  # a new shelf starts full


def test_add_catalog_node_refuses_a_link_type_and_a_drive():
    catalog = bundled_catalog()
    with pytest.raises(ValueError, match="is a link: connect two items"):
        edits.add_catalog_node(_system(), catalog, catalog.find("sas-6g"), 0, 0)
    with pytest.raises(ValueError, match="not placed on its own"):
        edits.add_catalog_node(_system(), catalog, catalog.find(DRIVE), 0, 0)


# --- links --------------------------------------------------------------------------------------------------------


def test_add_link_returns_the_new_link():
    after, link = edits.add_link(_system(), "host-1", "controller-1", "fc-32g", ports=4)
    assert link.id == "link-3" and (link.source, link.target, link.ports) == ("host-1", "controller-1", 4)
    assert after.links[-1] == link


def test_add_link_refuses_missing_ends_loops_and_bad_ports():
    with pytest.raises(ValueError, match="no item 'switch-1'"):
        edits.add_link(_system(), "host-1", "switch-1", "fc-16g")
    with pytest.raises(ValueError, match="itself"):
        edits.add_link(_system(), "host-1", "host-1", "fc-16g")
    with pytest.raises(ValueError, match="ports"):
        edits.add_link(_system(), "host-1", "controller-1", "fc-16g", ports=0)


def test_set_link_fields_changes_one_link():
    after = edits.set_link_fields(_system(), "link-1", ports=8, link_type="fc-32g")
    assert (after.links[0].ports, after.links[0].link_type) == (8, "fc-32g")
    assert after.links[1] == _system().links[1]


def test_set_link_fields_refuses_unknown_link_bad_value_and_a_dangling_end():
    with pytest.raises(ValueError, match="no link 'link-9'"):
        edits.set_link_fields(_system(), "link-9", ports=2)
    with pytest.raises(ValueError, match="ports"):
        edits.set_link_fields(_system(), "link-1", ports=257)
    with pytest.raises(ValueError, match="no item 'ghost'"):
        edits.set_link_fields(_system(), "link-1", target="ghost")


# --- workloads ----------------------------------------------------------------------------------------------------


def _backup() -> Workload:
    return Workload(id="backup", name="Backup", target="controller-1", block_kib=256, read_pct=0, random_pct=0)


def test_add_remove_and_set_workloads():
    added = edits.add_workload(_system(), _backup())
    assert [w.id for w in added.workloads] == ["oltp", "backup"]
    changed = edits.set_workload_fields(added, "oltp", target_iops=80_000, slo_ms=0.5)
    assert (changed.workload("oltp").target_iops, changed.workload("oltp").slo_ms) == (80_000, 0.5)
    assert changed.workload("backup") == _backup()
    removed = edits.remove_workload(changed, "oltp")
    assert [w.id for w in removed.workloads] == ["backup"]
    replaced = edits.set_workloads(removed, [])
    assert replaced.workloads == []


def test_workload_edits_refuse_duplicates_unknown_ids_and_bad_values():
    with pytest.raises(ValueError, match="workload id 'oltp' is used twice"):
        edits.add_workload(_system(), _system().workloads[0])
    with pytest.raises(ValueError, match="no workload 'gone'"):
        edits.remove_workload(_system(), "gone")
    with pytest.raises(ValueError, match="no workload 'gone'"):
        edits.set_workload_fields(_system(), "gone", slo_ms=2)
    with pytest.raises(ValueError, match="read_pct"):
        edits.set_workload_fields(_system(), "oltp", read_pct=101)


# --- paste --------------------------------------------------------------------------------------------------------


def test_paste_copies_nodes_and_the_links_among_them_with_new_ids():
    base = _system()
    nodes = [base.node("controller-1"), base.node("shelf-1")]
    after, new_ids = edits.paste_nodes(base, nodes, base.links)
    assert new_ids == ["controller-2", "shelf-2"]
    copy = after.node("shelf-2")
    assert (copy.x, copy.y, copy.drive_count) == (640.0, 40.0, 24)
    pasted = [link for link in after.links if link.id not in {"link-1", "link-2"}]
    assert [(link.source, link.target) for link in pasted] == [("controller-2", "shelf-2")]  # host-1 not copied


def test_paste_refuses_a_non_finite_offset():
    with pytest.raises(ValueError, match="offset"):
        edits.paste_nodes(_system(), [_system().node("host-1")], [], offset=math.nan)


# --- layout -------------------------------------------------------------------------------------------------------


def test_auto_layout_puts_each_kind_in_its_column_centred():
    base = edits.add_nodes(_system(), [HostNode(id="host-2", catalog_id="fujitsu-primergy-rx300-s7")])
    positions = edits.auto_layout(base, column_gap=100, row_gap=10)
    assert positions["host-1"] == (0.0, 0.0) and positions["host-2"] == (0.0, 10.0)  # hosts: column 0
    assert positions["controller-1"] == (200.0, 5.0)  # systems: column 2, one item centred on two rows
    assert positions["shelf-1"] == (300.0, 5.0)  # shelves: column 3


def test_lay_out_and_needs_layout():
    stacked = edits.move_nodes(_system(), {"host-1": (0, 0), "controller-1": (10, 10), "shelf-1": (500, 0)})
    assert edits.needs_layout(stacked)  # two items in one 40-unit cell
    laid = edits.lay_out(stacked)
    assert not edits.needs_layout(laid)
    assert {n.id: (n.x, n.y) for n in laid.nodes} == edits.auto_layout(stacked)


# --- scenarios ----------------------------------------------------------------------------------------------------


def test_unique_scenario_name_counts_up():
    project = _project()
    assert edits.unique_scenario_name(project, "Other") == "Other"
    assert edits.unique_scenario_name(project, "Base") == "Base (2)"
    twice, _ = edits.add_scenario(project, _system(), "Base")
    assert edits.unique_scenario_name(twice, "Base") == "Base (3)"


def test_duplicate_scenario_copies_the_active_one_and_activates_it():
    after, name = edits.duplicate_scenario(_project())
    assert name == "Base copy" and after.active_scenario == "Base copy"
    assert after.scenario.nodes == _system().nodes and [s.name for s in after.scenarios] == ["Base", "Base copy"]
    again, second = edits.duplicate_scenario(edits.switch_scenario(after, "Base"))
    assert second == "Base copy (2)"
    long_name = edits.replace_scenario(_project(), _system())  # the default name always fits
    renamed = long_name.model_copy(update={"scenarios": [_system().model_copy(update={"name": "x" * 120})],
                                           "active_scenario": "x" * 120})
    assert len(edits.duplicate_scenario(renamed)[1]) == 115


def test_duplicate_scenario_refuses_a_too_long_name():
    with pytest.raises(ValueError, match="name"):
        edits.duplicate_scenario(_project(), "y" * 121)


def test_add_scenario_without_activating():
    after, name = edits.add_scenario(_project(), Scenario(name="Empty"), activate=False)
    assert name == "Empty" and after.active_scenario == "Base" and after.scenario_named("Empty").nodes == []


def test_switch_scenario_refuses_an_unknown_name():
    with pytest.raises(ValueError, match="no scenario named 'Nope' \\(this project has: 'Base'\\)"):
        edits.switch_scenario(_project(), "Nope")


def test_replace_scenario_swaps_by_name():
    changed = edits.set_node_fields(_system(), "shelf-1", drive_count=6)
    after = edits.replace_scenario(_project(), changed)
    assert after.scenario.node("shelf-1").drive_count == 6 and len(after.scenarios) == 1


# --- settings, info, requirements, prices -------------------------------------------------------------------------


def test_set_setting_info_and_requirement():
    project = edits.set_setting(_project(), "capacity_unit", CapacityUnit.TB)
    assert project.settings.capacity_unit is CapacityUnit.TB
    project = edits.set_info(project, "customer", "Contoso")
    assert project.info.customer == "Contoso" and project.info.name == "Untitled"
    project = edits.set_requirement(project, "horizon_months", 60)
    assert project.requirements.horizon_months == 60
    assert project.scenarios == _project().scenarios


def test_settings_info_and_requirements_refuse_bad_values():
    with pytest.raises(ValueError, match="default_slo_ms"):
        edits.set_setting(_project(), "default_slo_ms", 0)
    with pytest.raises(ValueError, match="name"):
        edits.set_info(_project(), "name", "")
    with pytest.raises(ValueError, match="horizon_months"):
        edits.set_requirement(_project(), "horizon_months", 241)
    with pytest.raises(ValueError, match="paper"):
        edits.set_setting(_project(), "paper", "A3")


def test_set_price_book_stores_and_clears_rows():
    rows = [PriceRow(catalog_id=CONTROLLER, unit_price=100_000, currency="USD"),
            PriceRow(catalog_id=DRIVE, unit_price=1_500, currency="USD")]
    project = edits.set_price_book(_project(), rows)
    assert project.price_book == rows
    assert edits.set_price_book(project, []).price_book == []


def test_set_price_book_refuses_duplicates_and_mixed_currencies():
    row = PriceRow(catalog_id=DRIVE, unit_price=1_500, currency="USD")
    with pytest.raises(ValueError, match="priced more than once"):
        edits.set_price_book(_project(), [row, row])
    with pytest.raises(ValueError, match="one currency per book"):
        edits.set_price_book(_project(), [row, PriceRow(catalog_id=SHELF, unit_price=9, currency="EUR")])


def test_every_edit_result_is_a_valid_project():
    """The snapshots the edits return pass the project's own validation (none is a half-valid copy)."""
    project = _project()
    project = edits.replace_scenario(project, edits.paste_nodes(project.scenario, project.scenario.nodes,
                                                                project.scenario.links)[0])
    project, _ = edits.duplicate_scenario(project)
    project = edits.set_price_book(project, [PriceRow(catalog_id=DRIVE, unit_price=1, currency="USD")])
    assert Project.model_validate(project.model_dump()) == project


def test_edits_import_no_qt():
    """Importing the edits (and what they import) loads no Qt: a fresh interpreter checks it."""
    code = ("import sys, models.project.edits; "
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('PySide6', 'shiboken6', 'app')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
