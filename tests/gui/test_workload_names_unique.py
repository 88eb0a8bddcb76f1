"""Review 57 GUI #1: a workload added from a preset (or imported beside others) never takes a name another workload
of the scenario has: it gets " (2)", " (3)"..., so the legend, the table and the verdict lines tell them apart."""

from __future__ import annotations

from app.gui.document import ProjectDocument
from app.gui.main_window import read_project
from app.gui.workloads_panel import WorkloadsPanel
from models.project.edits import unique_workload_name
from models.resources import examples_dir


def _names(panel: WorkloadsPanel) -> list[str]:
    return [w.name for w in panel.document.scenario.workloads]


def test_adding_the_same_preset_twice_numbers_the_names(qtbot):
    panel = WorkloadsPanel(ProjectDocument(read_project(examples_dir() / "aff8080-sqlserver-tpce.toml")))
    qtbot.addWidget(panel)
    panel.show()
    assert _names(panel) == ["TPC-E-like OLTP (SQL Server)"]
    action = next(a for a in panel.preset_menu.actions() if a.text() == "TPC-E-like OLTP (SQL Server)")
    action.trigger()  # the Add workload menu, as a user picks it
    action.trigger()
    assert _names(panel) == ["TPC-E-like OLTP (SQL Server)", "TPC-E-like OLTP (SQL Server) (2)",
                             "TPC-E-like OLTP (SQL Server) (3)"]
    rows = [panel.list.item(r).text() for r in range(panel.list.count())]
    assert len({r.split("  →")[0] for r in rows}) == 3
    panel.document.undo_stack.undo()  # one undo step removes the third, and its name is free again
    assert _names(panel)[-1] == "TPC-E-like OLTP (SQL Server) (2)"


def test_unique_name_rule():
    assert unique_workload_name("OLTP", []) == "OLTP"
    assert unique_workload_name("OLTP", ["oltp"]) == "OLTP (2)"
    assert unique_workload_name("OLTP", ["OLTP", "OLTP (2)"]) == "OLTP (3)"
    assert len(unique_workload_name("x" * 200, ["x" * 200])) == 200
