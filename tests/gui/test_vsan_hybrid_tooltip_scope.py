"""The Performance table's tooltip gives a hybrid vSAN workload's notes as the report does: the all-flash blog
cited by its title with its scope, never a seed file's name (REVIEW45 #8)."""

from __future__ import annotations

from app.gui.main_window import read_project
from models.present.citations import HYBRID_SCOPE
from models.resources import examples_dir


def test_the_table_tooltip_cites_the_blog_with_its_scope(qtbot, open_window):
    win = open_window(read_project(examples_dir() / "vsan8-osa-hybrid-4host-oltp.toml"))
    win.results.setCurrentIndex(1)
    view = win.results.currentWidget()
    qtbot.waitUntil(lambda: view.summary_model.rowCount() == 1, timeout=10_000)
    tip = view.summary_model.item(0, 0).toolTip()
    assert "All-Flash Virtual SAN" in tip and HYBRID_SCOPE in tip
    # once, in one short sentence (REVIEW46: a long clause after each of the two citing notes)
    assert tip.count(HYBRID_SCOPE) == 1 and tip.count("all-flash") == 1
    assert "seed 002" not in tip
