"""A vSAN cluster and a managed service have no controller or cloud VM profile: what the status bar and the
Performance tab say beside their figures names what they run on (assumed vSAN costs, published service limits),
never the controllers' "uncalibrated default", which no catalog platform runs on."""

from __future__ import annotations

import pytest

from app.gui.main_window import read_project
from models.resources import examples_dir


@pytest.mark.parametrize(("example", "words", "amber"), [
    ("vsan8-osa-hybrid-4host-oltp.toml", "assumed vSAN costs", True),
    ("anf-premium-oracle-nfs.toml", "published service limits, assumed latency floor", False),
])
def test_status_bar_and_profile_column_name_what_the_figures_run_on(qtbot, open_window, example, words, amber):
    from app.gui.main_window import ASSUMED_COLOR, MUTED_COLOR

    win = open_window(read_project(examples_dir() / example))
    qtbot.waitUntil(lambda: win.results.last_good is not None, timeout=15_000)
    win.results.setCurrentIndex(1)
    status = win.status_labels["max_iops_at_slo"].text()
    assert f"({words})" in status and "uncalibrated" not in status, status
    assert (ASSUMED_COLOR if amber else MUTED_COLOR) in status
    view = win.results.performance_view
    qtbot.waitUntil(lambda: hasattr(view, "summary_model") and view.summary_model.rowCount() >= 1,
                    timeout=15_000)
    k = view.SUMMARY_COLUMNS.index("Profile")
    shown = {view.summary_model.item(r, k).text() for r in range(view.summary_model.rowCount())}
    assert shown == {words}, shown
