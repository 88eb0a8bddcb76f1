"""Every field of Size from Requirements through edit, revert (undo) and an invalid value, with real widgets:
families, protocols and deployments are chosen among the catalog's values (a checkable list), an edit is one undo
step and the form always shows the project's value; an invalid value is refused with a message naming the field
and the valid values, and the project keeps its value."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel

from app.gui.document import ProjectDocument
from app.gui.main_window import read_project
from app.gui.sizer_dialog import SizerDialog
from models.evaluate import project_catalog
from models.project import edits
from models.project.model import SIZER_PROTOCOLS, Requirements
from models.resources import examples_dir
from models.sizing import requirement_choices

EXAMPLE = "aff8080-sqlserver-tpce.toml"  # families = ["ONTAP"], protocols = ["FCP"], deployments = ["on-prem"]


pytestmark = pytest.mark.usefixtures("us_locale")  # tests/gui/conftest.py


def _dialog(qtbot, project=None) -> SizerDialog:
    project = project or read_project(examples_dir() / EXAMPLE)
    dialog = SizerDialog(ProjectDocument(project))
    qtbot.addWidget(dialog)
    dialog.show()
    qtbot.waitExposed(dialog)
    return dialog


def _req(dialog: SizerDialog) -> Requirements:
    return dialog._document.project.requirements


def _type(qtbot, editor, text: str) -> None:
    entry = editor.entry
    entry.setFocus()
    entry.lineEdit().selectAll()
    qtbot.keyClicks(entry.lineEdit(), text)
    qtbot.keyClick(entry.lineEdit(), Qt.Key.Key_Return)


def test_the_choices_are_the_catalogs():
    """Families are what the search matches on, from the catalog: every controller family it searches and their
    vendor, vSAN, CVO and the managed services; "AFF" (a product line, not a family) is not one."""
    choices = requirement_choices(project_catalog(read_project(examples_dir() / EXAMPLE)))
    for family in ("ONTAP", "E-Series", "NetApp", "vSAN", "CVO", "Azure NetApp Files"):
        assert family in choices["families"]
    assert "AFF" not in choices["families"]
    assert choices["protocols"] == list(SIZER_PROTOCOLS) == ["FCP", "NVMe/FC", "NVMe/TCP", "iSCSI", "NFS", "SMB"]
    assert choices["deployments"] == ["on-prem", "hci", "cloud"]


def test_families_ontap_eseries_ontap_keeps_ontap_and_undo_walks_back(qtbot):
    """The issue's sequence (ONTAP -> another -> ONTAP) ends with the project holding ONTAP, as shown."""
    dialog = _dialog(qtbot)
    families = dialog.form.editors["families"]
    assert families.checked() == ["ONTAP"] and families.button.text() == "ONTAP"
    families.toggle("ONTAP")
    assert _req(dialog).families == [] and families.button.text() == "Any"
    families.toggle("E-Series")
    assert _req(dialog).families == ["E-Series"]
    families.toggle("E-Series")
    families.toggle("ONTAP")
    assert _req(dialog).families == ["ONTAP"]  # was ["AFF"]: the last edit was dropped
    assert families.checked() == ["ONTAP"] and families.button.text() == "ONTAP"
    families.toggle("NetApp")
    assert _req(dialog).families == ["NetApp", "ONTAP"]  # in the catalog's order
    undo = dialog._document.undo_stack
    undo.undo()
    assert _req(dialog).families == ["ONTAP"] and families.checked() == ["ONTAP"]
    while undo.canUndo():
        undo.undo()
    assert _req(dialog).families == ["ONTAP"] and families.checked() == ["ONTAP"]
    undo.redo()
    assert _req(dialog).families == [] and families.checked() == [] and families.button.text() == "Any"


def test_an_unknown_family_is_refused_naming_the_valid_ones(qtbot):
    dialog = _dialog(qtbot)
    families = dialog.form.editors["families"]
    dialog.form.sig_field_edited.emit("families", ["AFF"])  # as a typed value would arrive
    assert _req(dialog).families == ["ONTAP"]
    message = families.messages()[0]
    assert message.startswith("Families: 'AFF' is not in the catalog; valid families: ")
    assert "ONTAP" in message and "E-Series" in message
    assert families.checked() == ["ONTAP"]  # the project's value, shown
    with pytest.raises(ValueError, match="Families: 'AFF' is not in the catalog"):
        edits.set_requirement(dialog._document.project, "families", ["AFF"], dialog.choices)


def test_an_unknown_family_in_the_file_is_shown_and_can_be_unchecked(qtbot):
    project = read_project(examples_dir() / EXAMPLE)
    project = project.model_copy(update={"requirements": project.requirements.with_changes(families=["AFF"])})
    dialog = _dialog(qtbot, project)
    families = dialog.form.editors["families"]
    assert families.button.text() == "AFF (not in catalog)" and families.checked() == ["AFF"]
    assert families.messages() == ["'AFF' is not in the catalog, so it matches no design; uncheck it"]
    families.toggle("AFF")
    assert _req(dialog).families == [] and families.messages() == []


def test_protocols_edit_revert_and_refusal(qtbot):
    dialog = _dialog(qtbot)
    protocols = dialog.form.editors["protocols"]
    assert [a.text() for a in protocols.menu.actions()] == list(SIZER_PROTOCOLS)
    protocols.toggle("NVMe/FC")
    assert _req(dialog).protocols == ["FCP", "NVMe/FC"] and protocols.button.text() == "FCP, NVMe/FC"
    dialog._document.undo_stack.undo()
    assert _req(dialog).protocols == ["FCP"] and protocols.checked() == ["FCP"]
    dialog.form.sig_field_edited.emit("protocols", ["FC"])
    assert _req(dialog).protocols == ["FCP"]
    assert protocols.messages() == ["Protocols: 'FC' is not in the catalog; valid protocols: FCP, NVMe/FC, "
                                    "NVMe/TCP, iSCSI, NFS, SMB"]
    with pytest.raises(ValueError, match="'FC' is not a protocol the sizer designs for; valid protocols: FCP"):
        Requirements(protocols=["FC"])  # the record refuses it too (a project file)


def test_deployments_edit_revert_and_refusal(qtbot):
    dialog = _dialog(qtbot)
    deployments = dialog.form.editors["deployments"]
    assert deployments.checked() == ["on-prem"]
    deployments.toggle("cloud")
    assert _req(dialog).deployments == ["on-prem", "cloud"]
    assert deployments.button.text() == "On-premises arrays, Cloud"
    dialog._document.undo_stack.undo()
    assert _req(dialog).deployments == ["on-prem"] and deployments.checked() == ["on-prem"]
    dialog.form.sig_field_edited.emit("deployments", ["mainframe"])
    assert _req(dialog).deployments == ["on-prem"]
    assert deployments.messages()[0].startswith("Deployments: 'mainframe' is not in the catalog; valid "
                                                "deployments: on-prem, hci, cloud")


NUMBERS = [("effective_capacity_bytes", "2 TiB", 2 * 2**40, "-1 TiB"),
           ("horizon_months", "24", 24, "241"),
           ("n_plus", "2", 2, "5"),
           ("max_rack_units", "12", 12, "-1"),
           ("max_power_w", "3500", 3500.0, "-5"),
           ("budget", "250K", 250_000.0, "-1"),
           ("max_candidates", "5000", 5000, "0")]


@pytest.mark.parametrize("name, typed, value, invalid", NUMBERS, ids=[n[0] for n in NUMBERS])
def test_number_fields_edit_revert_and_refusal(qtbot, name, typed, value, invalid):
    dialog = _dialog(qtbot)
    editor = dialog.form.editors[name]
    before = getattr(_req(dialog), name)
    shown_before = editor.entry.text()
    _type(qtbot, editor, typed)
    assert getattr(_req(dialog), name) == value and editor.messages() == []
    dialog._document.undo_stack.undo()
    assert getattr(_req(dialog), name) == before and editor.entry.text() == shown_before
    _type(qtbot, editor, invalid)
    assert getattr(_req(dialog), name) == before
    assert "is out of range: allowed" in editor.messages()[0]
    assert editor.messages()[0].endswith(f"the value stays {shown_before}")


def test_takeover_and_rank_on_edit_and_revert(qtbot):
    dialog = _dialog(qtbot)
    takeover = dialog.form.editors["meet_slo_in_takeover"]
    assert takeover.check.isChecked() and _req(dialog).meet_slo_in_takeover
    takeover.check.click()
    assert not _req(dialog).meet_slo_in_takeover
    rank_on = dialog.form.editors["rank_on"]
    rank_on.choose("p90")
    assert _req(dialog).rank_on == "p90"
    dialog._document.undo_stack.undo()
    dialog._document.undo_stack.undo()
    assert _req(dialog).rank_on == "p50" and _req(dialog).meet_slo_in_takeover
    assert rank_on.combo.currentIndex() == rank_on.index_of("p50") and takeover.check.isChecked()


def test_a_limit_of_zero_reads_no_limit_and_takes_numbers_and_the_words_back(qtbot):
    """The requirements' 0 means "none" for the limits and "the workloads' data sets" for the effective capacity:
    the form says so instead of "0" / "0 TiB" (a user read "Max rack units: 0" as zero allowed). A number typed is
    taken and shown as a number; the words typed back enter 0 again; Up from "no limit" steps to 1."""
    dialog = _dialog(qtbot)
    req = _req(dialog)
    assert (req.max_rack_units, req.max_power_w, req.budget, req.effective_capacity_bytes) == (0, 0.0, 0.0, 0)
    shown = {name: dialog.form.editors[name].entry.text()
             for name in ("max_rack_units", "max_power_w", "budget", "effective_capacity_bytes")}
    assert shown == {"max_rack_units": "no limit", "max_power_w": "no limit", "budget": "no limit",
                     "effective_capacity_bytes": "from the workloads"}
    assert dialog.form.editors["n_plus"].entry.text() == "0"  # N+0 is a number, not "none"
    rack = dialog.form.editors["max_rack_units"]
    _type(qtbot, rack, "12")
    assert _req(dialog).max_rack_units == 12 and rack.entry.text() == "12"
    _type(qtbot, rack, "No limit")
    assert _req(dialog).max_rack_units == 0 and rack.entry.text() == "no limit"
    rack.entry.setFocus()
    rack.entry.stepBy(1)
    assert _req(dialog).max_rack_units == 1 and rack.entry.text() == "1"
    labels = {w.text() for w in dialog.form.findChildren(QLabel)}
    assert "Max power:" in labels and "Max power w:" not in labels  # the unit goes to the field: "1,200 W"
    power = dialog.form.editors["max_power_w"]
    _type(qtbot, power, "1200")
    assert _req(dialog).max_power_w == 1200 and power.entry.text() == "1,200 W"


def test_the_failure_state_checkbox_names_the_searched_platforms_state(qtbot):
    """"Meet SLO in takeover" is an ONTAP HA pair's word: a cloud-only search judges a Cloud Volumes ONTAP HA pair's
    failover, an E-Series-only one its controller failover, an HCI-only one no such state (N+k answers there), and
    the label follows the deployments and families as the user checks them (the words the report's Recommendation
    uses, models.present.resilience.ha_state_words)."""
    from models.present.resilience import ha_state_words

    dialog = _dialog(qtbot)
    label = dialog.form.label_for("meet_slo_in_takeover")
    box = dialog.form.editors["meet_slo_in_takeover"]
    deployments, families = dialog.form.editors["deployments"], dialog.form.editors["families"]

    def shows(words: str) -> None:
        req = _req(dialog)
        assert label.text() == f"Meet SLO in {words or 'takeover'}:"
        assert box.isEnabled() == bool(words)
        said = ha_state_words(req)
        assert (words.split(" / ")[-1] in said) if words and req.meet_slo_in_takeover else said == ""

    assert _req(dialog).deployments == ["on-prem"] and _req(dialog).meet_slo_in_takeover
    shows("takeover")
    deployments.toggle("cloud")
    shows("takeover / failover")
    deployments.toggle("on-prem")
    shows("failover")
    deployments.toggle("hci")
    deployments.toggle("cloud")
    assert _req(dialog).deployments == ["hci"]
    shows("")
    deployments.toggle("on-prem")
    deployments.toggle("hci")
    families.toggle("ONTAP")
    families.toggle("E-Series")
    assert _req(dialog).deployments == ["on-prem"] and _req(dialog).families == ["E-Series"]
    shows("controller failover")
