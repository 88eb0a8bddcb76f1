"""Review 57 (revimp57) items 1, 3, 4 and 7 in the real File > Import Environment wizard, driven with qtbot on the
real samples (copies changed in tmp_path); expected figures from the files with openpyxl or json.

1. The grouping page warns that LiveOptics_file.xlsx lists 6 of the 156 machines its hosts report, and that
   zColo_08's host peaks (40,377 IOPS) exceed its machines' (6,779).
3. An ONTAP import (no capacity) replacing the workloads of a project with a stated capacity: the Finish page says
   "capacity not measured" and the capacity stays.
4. (d) A renamed 'Peak IOPS' header is a warning row on the preview page.
7. A text counter: the grouping page names the volume without a load."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

SAMPLES = next((p / "shared" / "samples" for p in Path(__file__).resolve().parents
                if (p / "shared" / "samples").is_dir()), Path(__file__).resolve().parents[3] / "shared" / "samples")
LIVE = SAMPLES / "liveoptics" / "LiveOptics_file.xlsx"
POLLS = [SAMPLES / "ontap" / "harvest-keyperf-volume-poll-1.json",
         SAMPLES / "ontap" / "harvest-keyperf-volume-poll-2.json"]
TIB = 2**40


def _sheet(path: Path, name: str) -> list[dict]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        rows = list(book[name].iter_rows(values_only=True))
    finally:
        book.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if r and r[0] is not None]


def test_the_grouping_page_warns_of_an_incomplete_export(window, qtbot, wizard_at_grouping) -> None:
    guests = sum(h["Guest VM Count"] for h in _sheet(LIVE, "ESX Hosts"))
    listed = len(_sheet(LIVE, "VMs"))
    peaks = sum(h["Peak IOPS"] for h in _sheet(LIVE, "ESX Performance") if h["Cluster"] == "zColo_08")
    wizard = wizard_at_grouping(window, [LIVE])
    page = wizard.grouping_page
    page.keep_names.setChecked(True)
    assert wizard.runner.wait(60)
    assert page.warning_row.isVisible()
    lines = page.warning.text().split("\n")
    assert lines[0].startswith(f"Incomplete export: the Live Optics export lists {listed} machine(s), but its 5 "
                               f"host(s) report {guests}")
    assert "cluster zColo_08" in lines[1] and f"{peaks:,} IOPS" in lines[1] and "6,779 IOPS" in lines[1]
    assert not page.warning_icon.pixmap().isNull()
    wizard.next()  # said again where the user commits
    assert "Warning: the files list fewer machines" in wizard.finish_page.summary.text()


def test_an_import_without_capacity_leaves_the_stated_capacity(example_window, qtbot, wizard_at_grouping) -> None:
    window = example_window
    project = window.document.project
    stated = 5 * TIB
    window.document.push(project.with_changes(requirements=project.requirements.with_changes(
        effective_capacity_bytes=stated)), "capacity")
    wizard = wizard_at_grouping(window, POLLS)
    assert wizard.imported is not None and wizard.imported.capacity_bytes == 0
    wizard.next()
    page = wizard.finish_page
    assert page.replace.isChecked()
    text = page.summary.text()
    assert "capacity not measured" in text and "0.00" not in text, text
    assert "effective capacity stays 5.00\u00a0TiB" in text, text
    wizard.accept()
    assert window.document.project.requirements.effective_capacity_bytes == stated
    assert not wizard.grouping_page.warning.text()  # every volume has a load: nothing to warn of


def test_a_renamed_peak_iops_header_is_a_flag_on_the_preview(window, qtbot, tmp_path) -> None:
    book = openpyxl.load_workbook(LIVE)
    ws = book["VM Performance"]
    k = [c.value for c in ws[1]].index("Peak IOPS") + 1
    ws.cell(row=1, column=k).value = "Peak IO"
    bad = tmp_path / "renamed.xlsx"
    book.save(bad)
    window.act_import_env.trigger()
    wizard = window._import_wizard
    wizard.add_files([bad])
    assert wizard.runner.wait(30)
    wizard.next()
    page = wizard.preview_page
    rows = [[page.flags.item(r, c).text() for c in range(6)] for r in range(page.flags.rowCount())]
    header = [r for r in rows if r[2] == "1"]
    assert len(header) == 1
    assert header[0][:5] == ["renamed.xlsx", "VM Performance", "1", "Peak IOPS", "no (warning)"]
    assert header[0][5].startswith("no column 'Peak IOPS'")
    assert page.sources.item(0, 5).text() == str(sum(r[4] == "no (warning)" for r in rows))


def test_the_grouping_page_names_a_volume_without_its_load(window, qtbot, tmp_path, wizard_at_grouping) -> None:
    polls = [json.loads(p.read_text(encoding="utf-8")) for p in POLLS]
    dt = 141.0
    rates = {}
    for a, b in zip(polls[0]["records"], polls[1]["records"], strict=True):
        x, y = a["statistics"]["iops_raw"], b["statistics"]["iops_raw"]
        rates[a["name"]] = (y["read"] - x["read"] + y["write"] - x["write"]) / dt
    next(r for r in polls[1]["records"] if r["name"] == "osc_vol01")["statistics"]["iops_raw"]["read"] = "lots"
    changed = tmp_path / "poll-2.json"
    changed.write_text(json.dumps(polls[1]), encoding="utf-8")
    wizard = wizard_at_grouping(window, [POLLS[0], changed])
    page = wizard.grouping_page
    assert page.warning_row.isVisible()
    rest = sum(v for n, v in rates.items() if n != "osc_vol01")
    (group,) = wizard.imported.groups
    assert page.warning.text() == (f"{group.name}: 1 of {len(rates)} volumes without a load (osc_vol01): their load "
                                   f"is missing from its {rest:,.0f} IOPS (the Preview lists the values left out).")
    assert group.iops == pytest.approx(rest)
