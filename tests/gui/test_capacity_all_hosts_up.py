"""Review 57 #13: a vSAN cluster's "Months until full" on the Capacity tab is its figure with every host up; where the
project requires N+1 the header said "49 months" above the required N+1 verdict's "full in 30 months" with one host
down. The caption now says "all hosts up" and its tooltip gives the N+1 sentence."""

from __future__ import annotations


def test_a_vsan_clusters_months_until_full_says_all_hosts_up_under_n_plus_1(qtbot, sized_example):
    """vSAN OSA hybrid: the header read "Months until full 49 months" above the required N+1's "full in 30 months"
    with one host down."""
    win = sized_example("vsan8-osa-hybrid-4host-oltp.toml", 1366, 768)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: win.worker.last_outcome is not None
                    and win.worker.last_outcome.evaluation.resilience is not None
                    and view._kpis["months"].value.text() == "49 months", timeout=30_000)
    months = view._kpis["months"]
    assert months.caption.text() == "Months until full (all hosts up)"
    assert "With every host up" in months.toolTip()
    assert "with 1 host down" in months.toolTip() and "30 months" in months.toolTip()


def test_a_controller_keeps_its_months_until_full_caption(qtbot, sized_example):
    win = sized_example("a800-oracle-slob-fcp.toml", 1366, 768)
    view = win.results.capacity_view
    qtbot.waitUntil(lambda: win.worker.last_outcome is not None and view._kpis["months"].value.text().endswith(
        "months"), timeout=30_000)
    assert view._kpis["months"].caption.text() == "Months until full"
