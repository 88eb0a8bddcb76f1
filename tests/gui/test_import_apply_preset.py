"""An import without performance data, through the real import wizard, then the Workloads panel's "Apply preset"
(review 53a items 2 and 3): the imported workloads are capacity-only (their data counted, listed as such), and
applying a preset's profile is one undoable step that gives the workload the preset's I/O mix and its IOPS per byte
times the workload's own data set. Expected figures come from the sample (openpyxl) and the presets' TOML."""

from __future__ import annotations

import os
import tomllib
from pathlib import Path

import openpyxl
import pytest
from PySide6.QtCore import Qt

from models.project.edits import CAPACITY_ONLY_SUFFIX
from models.resources import workloads_dir

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
KUBEV2V = SAMPLES / "rvtools" / "kubev2v-example1.xlsx"


def _vinfo(sheet: str = "vInfo") -> list[dict]:
    """The rows of ``sheet`` that name a machine, as header -> value (openpyxl, apart from StorPlan's reader)."""
    book = openpyxl.load_workbook(KUBEV2V, read_only=True, data_only=True)
    try:
        rows = book[sheet].iter_rows(values_only=True)
        header = next(rows)
        return [dict(zip(header, row, strict=False)) for row in rows if row[0]]
    finally:
        book.close()


def _in_use_bytes() -> int:
    """vInfo's In Use MiB, and a machine's vPartition Consumed MiB where its In Use cell is empty (review 55)."""
    consumed: dict[str, int] = {}
    for r in _vinfo("vPartition"):
        consumed[r["VM"]] = consumed.get(r["VM"], 0) + int(r["Consumed MiB"])
    return sum(int(r["In Use MiB"]) if r["In Use MiB"] is not None else consumed.get(r["VM"], 0)
               for r in _vinfo()) * 2**20


def test_imported_capacity_only_workload_takes_a_preset_in_one_undo_step(example_window, qtbot,
                                                                         wizard_at_grouping) -> None:
    window = example_window
    wizard = wizard_at_grouping(window, [KUBEV2V])
    assert wizard.grouping_page.isComplete()
    notes = " ".join(wizard.grouping_page.notes.text().split())
    machines = _vinfo()
    off = sum(1 for r in machines if str(r["Powerstate"]).casefold() == "poweredoff")
    assert f"{off:,} powered-off machine(s) of {len(machines):,} counted for capacity" in notes  # 12
    assert "growth is not measured" in notes and "count for capacity only" in notes  # 8, 2
    wizard.next()
    wizard.finish_page.replace.setChecked(True)
    wizard.accept()
    workloads = window.document.project.scenario.workloads
    assert all(w.capacity_only and w.enabled for w in workloads)
    assert sum(w.dataset_bytes for w in workloads) == _in_use_bytes()

    outcome = window.worker.force_sync()  # the Capacity tab: the imported data is stored data, growth unmeasured
    assert outcome.error is None and outcome.evaluation.capacity is not None
    assert outcome.evaluation.capacity.total.logical_used_bytes == pytest.approx(_in_use_bytes())
    assert not outcome.evaluation.performance.workloads  # no placeholder mix evaluated as a load
    window._install_result_views()  # the real views, wired to the project as the window wires them
    window.results.capacity_view.set_evaluation(outcome.evaluation)
    verdict = window.results.capacity_view.verdict_label.text()
    assert "growth not measured" in verdict and "no growth planned" not in verdict

    panel = window.workloads
    panel.refresh()
    rows = [panel.list.item(r).text() for r in range(panel.list.count())]
    assert rows and all(r.endswith("·  capacity only") for r in rows), rows
    biggest = max(workloads, key=lambda w: w.dataset_bytes)
    panel.select(biggest.id)
    assert panel.current_id() == biggest.id and panel.apply_button.isEnabled()

    presets = {p["id"]: p for p in tomllib.loads((workloads_dir() / "presets.toml").read_text())["preset"]}
    oltp = next(p for p in presets.values() if p.get("target_iops") and p.get("dataset_bytes"))
    action = next(a for a in panel.apply_menu.actions() if a.data() == oltp["id"])
    assert action.text() == oltp["name"]
    stack = window.document.undo_stack
    steps = stack.count()
    action.trigger()
    assert stack.count() == steps + 1 and stack.undoText().startswith(f"Apply preset {oltp['name']}")
    after = window.document.project.scenario.workload(biggest.id)
    assert after is not None and after.performance_enabled and after.preset == oltp["id"]
    assert (after.block_kib, after.read_pct, after.random_pct) == (oltp["block_kib"], oltp["read_pct"],
                                                                   oltp["random_pct"])
    assert after.target_iops == pytest.approx(oltp["target_iops"] / oltp["dataset_bytes"] * biggest.dataset_bytes)
    assert after.dataset_bytes == biggest.dataset_bytes
    assert after.name == biggest.name.removesuffix(CAPACITY_ONLY_SUFFIX) + f" ({oltp['name']})"
    item = next(panel.list.item(r) for r in range(panel.list.count())
                if panel.list.item(r).data(Qt.ItemDataRole.UserRole) == biggest.id)
    assert item.text().endswith(f"{after.target_iops:,.0f} IOPS")
    if os.environ.get("STORPLAN_SHOTS"):
        panel.grab().save(str(Path(os.environ["STORPLAN_SHOTS"]) / "workloads_apply_preset.png"))
    stack.undo()
    assert window.document.project.scenario.workload(biggest.id) == biggest


def test_the_sizer_sizes_an_import_without_performance_on_capacity_and_says_so(open_window, qtbot, tmp_path) -> None:
    from app.cli import main
    from models.project.textformat import load
    from models.sizing import NO_LOAD_NOTE

    out = tmp_path / "imported.toml"
    assert main(["import-env", str(KUBEV2V), "-o", str(out)]) == 0
    window = open_window(load(out))
    dialog = window.show_sizer()
    qtbot.addWidget(dialog)
    dialog.run()
    qtbot.waitUntil(lambda: dialog.result is not None, timeout=120_000)
    assert dialog.result.candidates and all(c.meets for c in dialog.result.candidates)
    assert dialog.table.item(0, 3).text() == "yes"
    message = " ".join(dialog.message.text().split())
    assert NO_LOAD_NOTE in message and "None meets" not in message
    assert f"{_in_use_bytes() / 2**40:,.2f} TiB effective needed" in message
    assert not any("no HA partner" in r for c in dialog.result.candidates for r in c.reasons)
