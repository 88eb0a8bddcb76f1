"""Review 56 (revsize56) items 3 and 5 on screen: the Performance tab's "required" marks name the site-loss check at
the grown target and the SLO in takeover of a managed service as assumed (not a tick, not silence), and the sizer
dialog's Why says the same of an Azure NetApp Files design."""

from __future__ import annotations

from app.gui.results.performance_view import PROVIDER_HA_SHORT
from app.gui.sizer_dialog import COLUMNS
from models.project import load
from models.resources import examples_dir
from models.sizing import size

CVO = examples_dir() / "cvo-azure-ds4-ha-oltp.toml"


def _resilience_text(qtbot, open_window, project) -> tuple[str, str]:
    win = open_window(project)
    win.results.setCurrentIndex(1)
    view = win.results.currentWidget()
    qtbot.waitUntil(lambda: view.summary_model.rowCount() >= 1 and "required" in view.resilience_label.text().lower(),
                    timeout=20_000)
    return view.resilience_label.text(), view.resilience_label.toolTip()


def test_the_performance_tab_marks_a_managed_services_takeover_as_assumed(qtbot, open_window):
    project = load(CVO)
    anf = size(project, top=1).candidates[0]
    assert anf.summary.startswith("Azure NetApp Files")
    text, tip = _resilience_text(qtbot, open_window, project.with_scenario(anf.scenario))
    assert PROVIDER_HA_SHORT in text and "✓" not in text  # was nothing at all: the requirement skipped
    assert "Assumed: OLTP 8K 70/30: the 15 ms SLO in takeover (required): not modelled for a managed service" in tip


def test_the_performance_tab_names_the_site_loss_check_at_the_grown_target(qtbot, open_window):
    project = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    project = project.model_copy(update={"requirements": project.requirements.with_changes(
        meet_slo_after_site_loss=True)})
    first = size(project, top=1).candidates[0]
    assert "MetroCluster IP" in first.summary
    text, tip = _resilience_text(qtbot, open_window, project.with_scenario(first.scenario))
    assert "SLO after losing a site at the target grown over 36 months" in text
    # 250,000 IOPS x 1.3^3 over 36 months = 549,250
    assert "at 549,250 IOPS, the target grown over the 36-month horizon (250,000 today) after losing a site" in tip


def test_the_sizer_dialogs_why_says_the_takeover_is_the_providers(qtbot, open_window):
    from app.gui.main_window import read_project

    win = open_window(read_project(CVO))
    dialog = win.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    assert dialog.result.candidates[0].summary.startswith("Azure NetApp Files")
    why = dialog.table.item(0, COLUMNS.index("Why")).text()
    assert why.startswith("meets every requirement (SLO in takeover (required): not modelled for a managed service")
    cvo = next(r for r, c in enumerate(dialog.result.candidates) if c.summary.startswith("Cloud Volumes ONTAP"))
    assert "not modelled" not in dialog.table.item(cvo, COLUMNS.index("Why")).text()
