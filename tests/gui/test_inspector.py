"""The inspector through its real widgets: items named as the user knows them (never by id), defaults that show
the value used, fields that do not apply hidden, and out-of-range values flagged next to their field."""

from __future__ import annotations

import re

import pytest
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QComboBox, QLabel, QLineEdit

from app.gui.document import ProjectDocument
from app.gui.inspector import Inspector
from app.gui.main_window import read_project
from models.capacity import evaluate_capacity
from models.problems import find_problems
from models.resources import examples_dir

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def _inspector(qtbot, example: str = "aff8080-sqlserver-tpce.toml") -> Inspector:
    inspector = Inspector(ProjectDocument(read_project(examples_dir() / example)))
    qtbot.addWidget(inspector)
    inspector.resize(400, 700)
    inspector.show()
    return inspector


def _select(inspector: Inspector, node_id: str) -> Inspector:
    inspector.show_selection([node_id], [])
    assert inspector.form is not None
    return inspector


def _header(inspector: Inspector) -> str:
    """The header's visible text (tags stripped)."""
    return re.sub(r"<[^>]+>", " ", inspector.header.text()).replace("&amp;", "&")


def _combo_items(inspector: Inspector, field: str) -> list[str]:
    combo = inspector.form.editors[field].combo
    return [combo.itemText(i) for i in range(combo.count())]


def _shown(widget, top) -> bool:
    """True when neither the widget nor a parent up to ``top`` is hidden (a new form is shown by a queued event,
    so posted events are processed first)."""
    QApplication.processEvents()
    while widget is not None and widget is not top:
        if widget.isHidden():
            return False
        widget = widget.parentWidget()
    return True


def _shown_texts(inspector: Inspector) -> list[str]:
    """Every text the inspector shows: header, problems, row labels, editor values, combo items, messages."""
    texts = [_header(inspector), inspector.notice.text()]
    for widget in inspector.findChildren(QLabel):
        if _shown(widget, inspector):
            texts.append(widget.text())
    for widget in inspector.findChildren(QComboBox):
        if _shown(widget, inspector):
            texts += [widget.itemText(i) for i in range(widget.count())]
    for kind in (QAbstractSpinBox, QLineEdit):
        for widget in inspector.findChildren(kind):
            if _shown(widget, inspector) and not isinstance(widget.parentWidget(), QAbstractSpinBox):
                texts.append(widget.text())
    return texts


# --- 1. names, never ids ---------------------------------------------------------------------------------------


def test_inspector_header_names_the_item_not_its_id(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    header = _header(inspector)
    assert "AFF8080A EX HA pair" in header
    assert "ONTAP controller · NetApp AFF8080A EX HA pair" in header
    assert "aff8080" not in header  # the id (lower case; the model name is "AFF8080A")
    assert "controller · aff8080" not in inspector.header.text()
    assert "netapp-aff8080a-ex" not in header
    assert "aff8080" in inspector.header.toolTip()  # the id stays reachable where it helps: the tooltip


def test_inspector_unlabelled_node_and_link_are_named_by_catalog_and_ends(qtbot):
    inspector = _select(_inspector(qtbot), "shelf-1")
    label = inspector.form.editors["label"].line
    assert label.placeholderText() == "NetApp DS2246 (24 x 2.5-inch SAS, IOM6)"  # what an empty label shows
    label.setText("")
    label.editingFinished.emit()
    assert inspector.document.scenario.node("shelf-1").label == ""
    header = _header(inspector)
    assert "NetApp DS2246 (24 x 2.5-inch SAS, IOM6)" in header and "Shelf" in header
    assert "shelf-1" not in header

    inspector.show_selection([], ["l-hosts"])
    header = _header(inspector)
    assert "8 x SQL Server 2014 — Brocade 6510" in header
    assert "Link · 8Gb Fibre Channel (FCP)" in header
    assert not {"l-hosts", "sql-servers", "fabric", "fc-8g"} & set(re.findall(r"[\w-]+", header))
    assert _combo_items(inspector, "link_type")[inspector.form.editors["link_type"].combo.currentIndex()] == \
        "8Gb Fibre Channel (FCP)"


@pytest.mark.parametrize("example", EXAMPLES)
def test_inspector_shows_no_ids_for_any_example_item(qtbot, example):
    inspector = _inspector(qtbot, example)
    scenario = inspector.document.scenario
    catalog_ids = {e.id for e in inspector.document.catalog}
    for item in [*scenario.nodes, *scenario.links]:
        if hasattr(item, "kind"):
            inspector.show_selection([item.id], [])
            ids = {item.catalog_id,
                   *(v for v in (getattr(item, f, None) for f in ("drive", "adapter", "disk", "licence")) if v)}
        else:
            inspector.show_selection([], [item.id])
            ids = {item.link_type, item.source, item.target}
        ids |= {item.id} | catalog_ids
        words = set(re.findall(r"[\w.-]+", " ".join(_shown_texts(inspector))))
        # ids that are also plain words ("array") can appear as words; all others never do
        assert not {i for i in ids if re.search(r"[-\d_]", i)} & words, (item.id, words & ids)
        assert not any("(not in catalog)" in t for t in _shown_texts(inspector))


# --- 2. defaults show the value the engines use ---------------------------------------------------------------


def test_inspector_defaults_show_the_values_the_engines_use(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    editors = inspector.form.editors
    node = inspector.document.scenario.node("aff8080")
    assert node.nodes is None and node.raid_group_size is None and node.wafl_reserve_pct is None
    assert editors["nodes"].spin.text() == "default (2)"  # the catalog's nodes
    assert editors["raid_group_size"].spin.text() == "default (23)"  # X447A 800GB SSD RAID DP rule (TR-3838)
    assert "NetApp X447A 800GB SAS SSD" in editors["raid_group_size"].spin.toolTip()
    assert editors["root_partition_bytes"].spin.text() == "default (55.00 GiB)"
    assert editors["wafl_reserve_pct"].spin.text() == "default (10 %)"

    # the software version left at the catalog default names it
    editors["software"].choose(None)
    assert inspector.document.scenario.node("aff8080").software is None
    assert editors["software"].combo.currentText() == "default (9.0)"

    # what the capacity engine used is what the inspector shows
    result = next(r for r in evaluate_capacity(inspector.document.scenario, inspector.document.catalog).systems
                  if r.system_id == "aff8080")
    parity = next(s for s in result.steps if s.name == "RAID DP parity")
    assert parity.inputs["RAID group size"] == "23"
    wafl = next(s for s in result.steps if s.name == "WAFL reserve")
    assert wafl.inputs["rule"].startswith("10%")


def test_inspector_default_follows_the_raid_type_and_drives(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    inspector.form.editors["raid_type"].choose("raid_tec")
    assert inspector.form.editors["raid_group_size"].spin.text() == "default (24)"  # RAID DP default + 1 parity
    inspector.document.remove_items(["shelf-1", "shelf-2"])  # no drives: the size depends on drives to come
    assert inspector.form.editors["raid_group_size"].spin.text() == "default (set by the drives)"

    ef550 = _select(_inspector(qtbot, "ef550-sas-analytics.toml"), "ef550")
    ef550.form.editors["raid_type"].choose("raid6")
    spin = ef550.form.editors["raid_group_size"].spin
    assert spin.text() == "default (24)"  # one volume group of the 24 drives
    ef550.form.editors["spares_per_node"].spin.setValue(2)  # 2 x 2 controllers = 4 hot spares
    assert spin.text() == "default (20)"


def test_inspector_steps_from_the_default_value_and_back(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    document = inspector.document
    spin = inspector.form.editors["raid_group_size"].spin
    spin.stepBy(1)
    assert document.scenario.node("aff8080").raid_group_size == 24  # from 23, not from the bottom of the range
    document.undo_stack.undo()
    assert document.scenario.node("aff8080").raid_group_size is None
    assert spin.text() == "default (23)"
    spin.stepBy(-1)
    assert document.scenario.node("aff8080").raid_group_size == 22
    spin.setValue(spin.minimum())  # the lowest step is the default again
    assert document.scenario.node("aff8080").raid_group_size is None

    nodes = inspector.form.editors["nodes"].spin
    nodes.stepBy(-1)
    assert document.scenario.node("aff8080").nodes == 1


def test_inspector_vsan_slack_space_default(qtbot):
    inspector = _select(_inspector(qtbot, "vsan-sqlserver-raid1.toml"), "vsan")
    assert inspector.document.scenario.node("vsan").slack_space_pct is None
    assert inspector.form.editors["slack_space_pct"].spin.text() == "default (30 %)"


# --- 3. fields that do not apply are hidden --------------------------------------------------------------------


def test_inspector_hides_ddp_fields_on_ontap_and_ontap_fields_on_e_series(qtbot):
    ontap = _select(_inspector(qtbot), "aff8080")
    form = ontap.form
    assert not form.row_visible("ddp_preservation_drives")
    assert form.label_for("ddp_preservation_drives").isHidden()
    for field in ("adp", "root_partition_bytes", "wafl_reserve_pct", "snapshot_reserve_pct", "raid_group_size"):
        assert form.row_visible(field), field
    form.editors["adp"].choose("none")
    assert not ontap.form.row_visible("root_partition_bytes")  # no ADP, no root partition
    labels = {w.text() for w in ontap.findChildren(QLabel) if _shown(w, ontap)}
    assert "DDP preservation drives:" not in labels and "RAID group size:" in labels

    eseries = _select(_inspector(qtbot, "ef550-sas-analytics.toml"), "ef550")
    form = eseries.form
    form.editors["raid_type"].choose("ddp")
    assert eseries.document.scenario.node("ef550").raid_type == "ddp"
    assert form.row_visible("ddp_preservation_drives")
    for field in ("adp", "root_partition_bytes", "wafl_reserve_pct", "snapshot_reserve_pct", "raid_group_size"):
        assert not form.row_visible(field), field
    form.editors["raid_type"].choose("raid6")
    assert not form.row_visible("ddp_preservation_drives") and form.row_visible("raid_group_size")


def test_inspector_greys_out_raid_types_the_family_does_not_offer(qtbot):
    ontap = _select(_inspector(qtbot), "aff8080")
    raid = ontap.form.editors["raid_type"]
    assert [v for v in raid.values if raid.is_allowed(v)] == ["raid4", "raid_dp", "raid_tec"]
    assert "not offered by ONTAP" in raid.combo.itemData(raid.index_of("ddp"), 3)  # ToolTipRole
    raid.choose("ddp")  # a greyed-out choice is never applied
    assert ontap.document.scenario.node("aff8080").raid_type == "raid_dp"
    assert raid.combo.currentText() == "RAID DP"

    eseries = _select(_inspector(qtbot, "ef550-sas-analytics.toml"), "ef550")
    raid = eseries.form.editors["raid_type"]
    assert [v for v in raid.values if raid.is_allowed(v)] == ["none", "raid0", "raid5", "raid6", "raid10", "ddp"]


def test_inspector_flags_a_raid_type_loaded_for_the_wrong_family(qtbot):
    inspector = _inspector(qtbot)
    assert inspector.document.set_node_field("aff8080", "raid_type", "ddp") is None  # e.g. from a text project
    _select(inspector, "aff8080")
    editor = inspector.form.editors["raid_type"]
    assert editor.combo.currentText() == "DDP (Dynamic Disk Pool)"  # the value is shown, not replaced
    assert editor.messages() == ["NetApp AFF8080A EX HA pair does not offer DDP; computed as RAID DP"]
    assert not inspector.form.row_visible("ddp_preservation_drives")


def test_inspector_cloud_vm_shows_raid_and_cold_data_only_when_they_matter(qtbot):
    inspector = _select(_inspector(qtbot, "cvo-azure-ds4-ha-oltp.toml"), "cvo")
    form = inspector.form
    assert not form.row_visible("raid_type")  # always RAID0 over cloud disks
    assert not form.row_visible("cold_data_pct")
    form.editors["tiering"].choose("auto")
    assert form.row_visible("cold_data_pct")


def test_inspector_host_adapter_count_only_with_an_adapter(qtbot):
    inspector = _select(_inspector(qtbot), "sql-servers")
    assert inspector.form.row_visible("adapters_per_host")
    inspector.form.editors["adapter"].choose(None)
    assert inspector.document.scenario.node("sql-servers").adapter is None
    assert not inspector.form.row_visible("adapters_per_host")


# --- 4. out-of-range values are flagged next to their field, never lost ----------------------------------------


def test_inspector_flags_drive_count_above_the_bays_inline(qtbot):
    inspector = _select(_inspector(qtbot), "shelf-1")
    editor = inspector.form.editors["drive_count"]
    assert editor.spin.text() == "24 of 24 bays"
    assert editor.error.isHidden()
    editor.spin.setValue(30)
    assert inspector.document.scenario.node("shelf-1").drive_count == 30  # kept, not clamped or dropped
    assert editor.spin.text() == "30 of 24 bays"
    assert not editor.error.isHidden()
    assert editor.error.text() == "30 drives do not fit 24 bays"  # problems.py's wording, without the id
    assert "NetApp DS2246 (24 x 2.5-inch SAS, IOM6) has 24 bays" in editor.spin.toolTip()
    assert inspector.notice.isHidden()  # shown by its field, not repeated under the header
    editor.spin.setValue(20)
    assert editor.error.isHidden()


def test_drive_count_problem_is_the_one_problems_py_reports(qtbot):
    inspector = _inspector(qtbot)
    assert inspector.document.set_node_field("shelf-1", "drive_count", 30) is None
    problems = [p for p in find_problems(inspector.document.scenario, inspector.document.catalog)
                if p.node_id == "shelf-1"]
    assert [(p.field, p.message) for p in problems] == \
        [("drive_count", "DS2246 (node 1): 30 drives do not fit 24 bays")]
    _select(inspector, "shelf-1")
    assert inspector.form.editors["drive_count"].messages() == ["30 drives do not fit 24 bays"]


def test_inspector_problem_of_no_single_field_shows_under_the_header(qtbot):
    inspector = _select(_inspector(qtbot), "shelf-2")
    inspector.document.remove_items(["l-shelf-2"])
    assert not inspector.notice.isHidden()
    assert inspector.problems_text() == ["Shelf is not connected to a controller"]
    assert "shelf-2" not in inspector.notice.text()


def test_inspector_raid_group_size_over_the_drive_rule_is_flagged(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    editor = inspector.form.editors["raid_group_size"]
    editor.spin.setValue(30)
    assert inspector.document.scenario.node("aff8080").raid_group_size == 30
    assert editor.messages() == [
        "RAID group size 30 is larger than the 23 drives available per node",  # problems.py
        "RAID DP groups of NetApp X447A 800GB SAS SSD hold at most 28 drives; 28 is used",  # the drive's rule
    ]


def test_inspector_refused_edit_names_the_limit_not_the_field(qtbot):
    inspector = _select(_inspector(qtbot), "aff8080")
    nodes = inspector.form.editors["nodes"]
    nodes.sig_value_edited.emit("nodes", 99)  # beyond le=24: the model refuses
    assert inspector.document.scenario.node("aff8080").nodes is None
    assert nodes.messages() == ["At most 24"]


def test_selecting_on_the_canvas_fills_the_inspector(example_window):
    win = example_window
    win.scene.select_ids(["shelf-1"])
    editor = win.inspector.form.editors["drive_count"]
    editor.spin.setValue(25)
    assert win.document.scenario.node("shelf-1").drive_count == 25
    assert editor.error.text() == "25 drives do not fit 24 bays"
    win.document.undo_stack.undo()
    assert editor.spin.text() == "24 of 24 bays" and editor.error.isHidden()


@pytest.mark.parametrize("example, offered, refused", [
    ("aff-a70-ns224-oracle-nvmetcp.toml", "NetApp 3.8TB NVMe SSD (TLC)", "QLC"),
    ("aff-c80-qlc-vmware-nvmefc64.toml", "QLC", "TLC"),
])
def test_a_shelf_offers_the_drives_its_controller_is_sold_with(qtbot, example, offered, refused):
    """The drive list of a shelf holds what the shelf takes (interface, size, vendor: no vSAN server devices, no
    E-Series drives in an NS224 of an AFF) and what its controller is sold with (QLC only on the C-series)."""
    inspector = _inspector(qtbot, example)
    shelf = next(n for n in inspector.document.scenario.nodes if n.kind == "shelf")
    items = _combo_items(_select(inspector, shelf.id), "drive")
    assert any(offered in i for i in items), items
    assert not any(refused in i for i in items if "not" not in i), items
    assert not any("KIOXIA" in i or "E-Series" in i for i in items), items


def test_the_aggregate_snapshot_reserve_field_names_its_default_by_metrocluster(qtbot):
    """Left empty, the aggregate Snapshot reserve reads as the engine's rule: 5 % on the MetroCluster IP example's
    mirrored aggregates, 0 % on a single-site pair (rules.aggregate_snapshot_reserve)."""
    mirrored = _select(_inspector(qtbot, "aff-a70-metrocluster-ip-oracle-nvmetcp.toml"), "a70")
    field = mirrored.form.editors["snapshot_reserve_pct"]
    assert field.default_text() == "default (5 %)"
    assert "SyncMirror or MetroCluster" in field.spin.toolTip()
    single = _select(_inspector(qtbot, "aff-a70-ns224-oracle-nvmetcp.toml"), "a70")
    single.form.editors["snapshot_reserve_pct"].set_value(None)
    assert single.form.editors["snapshot_reserve_pct"].default_text() == "default (0 %)"
