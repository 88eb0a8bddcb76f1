"""A vSAN stretched cluster in the GUI: its site settings are edited in the inspector (the inter-site link rows shown
only when the cluster is stretched) and its site failure is drawn as a failure-state curve with its own colour."""

from __future__ import annotations

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from app.gui.results._common import STATE_COLORS, state_color
from models.present.resilience import state_name
from models.resources import examples_dir

EXAMPLE = "vsan8-esa-stretched-4x4-sqlserver-oltp.toml"


def test_the_stretched_settings_are_edited_in_the_inspector(qtbot):
    document = ProjectDocument(read_project(examples_dir() / EXAMPLE))
    inspector = Inspector(document)
    qtbot.addWidget(inspector)
    inspector.show()
    cluster = next(n.id for n in document.scenario.nodes if n.kind == "hci_cluster")
    inspector.show_selection([cluster], [])
    form = inspector.form
    assert form.row_visible("inter_site_rtt_ms") and form.row_visible("inter_site_gbps")
    assert form.label_for("inter_site_rtt_ms").text().startswith("Inter-site round trip")
    rtt = form.editors["inter_site_rtt_ms"]
    rtt.spin.setValue(3.0)
    assert document.scenario.node(cluster).inter_site_rtt_ms == 3.0
    inspector.form.editors["stretched"].check.setChecked(False)
    assert document.scenario.node(cluster).stretched is False
    inspector.show_selection([cluster], [])
    assert not inspector.form.row_visible("inter_site_rtt_ms")
    document.undo_stack.undo()
    assert document.scenario.node(cluster).stretched is True


def test_the_site_failure_has_its_own_name_and_colour():
    assert state_name("site_failure") == "site failure"
    colours = {c.lower() for c in STATE_COLORS.values()}
    assert len(colours) == len(STATE_COLORS)
    assert state_color("site_failure").name().lower() == STATE_COLORS["site_failure"].lower()
