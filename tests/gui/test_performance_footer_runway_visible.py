"""Review 57 GUI #10: identical verdict, caution and Bad day lines of several workloads are shown once (they pushed
the Bad day and Runway lines out of view at 1366 x 768)."""

from __future__ import annotations


def test_identical_lines_of_two_workloads_are_shown_once(two_workload_chart):
    _win, view = two_workload_chart("aff8080-sqlserver-tpce.toml", 1366, 768)
    text = view.resilience_label.text()
    assert text.count("<b>Bad day</b>") == 1 and "for all 2 workloads" in text
    caution = view.cautions_label.text()
    assert caution.count("controller failover") == 1  # was one ⚠ line per workload, word for word the same
    names = [w.name for w in view.workloads]
    assert f"{names[0]}, {names[1]}" in caution
    assert "<b>Runway</b>" in text
