"""The sizing workbook: exported from a bundled example and read back with openpyxl, it holds the figures
`storplan evaluate --json` prints; the CSV export holds the same rows; a failed write names the file."""

from __future__ import annotations

import csv
import json
import subprocess
import sys

import pytest
from openpyxl import load_workbook

from app.report.workbook import WorkbookError, sizing_sheets, write_xlsx
from models.resources import examples_dir
from models.units import TIB

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    out = tmp_path_factory.mktemp("xlsx") / "aff.xlsx"
    subprocess.run([sys.executable, "-m", "app", "export-xlsx", str(EXAMPLE), "-o", str(out)], check=True,
                   capture_output=True)
    data = json.loads(subprocess.run([sys.executable, "-m", "app", "evaluate", str(EXAMPLE), "--json"],
                                     capture_output=True, text=True).stdout)
    return load_workbook(out), data


def test_summary_holds_the_evaluate_json_figures(exported):
    book, data = exported
    assert book.sheetnames == ["Summary", "Bill of materials", "Capacity waterfall", "Curves", "Resilience",
                               "Validation"]
    rows = {r[0]: (r[1], r[2]) for r in book["Summary"].iter_rows(min_row=2, values_only=True)}
    cap = data["capacity"]
    assert rows["Usable capacity"] == (pytest.approx(cap["usable_bytes"] / TIB, abs=1e-4), "TiB")
    assert rows["Effective capacity"][0] == pytest.approx(cap["effective_bytes"] / TIB, abs=1e-4)
    w = data["workloads"][0]
    name = w["name"]
    assert rows[f"{name}: saturation"][0] == pytest.approx(w["saturation_iops"])
    assert rows[f"{name}: max IOPS at the 1 ms SLO"][0] == pytest.approx(w["max_iops_at_slo"])
    assert rows[f"{name}: saturation band P90"][0] == pytest.approx(w["saturation_iops_band_p90"])
    assert rows[f"{name}: latency at target"][0] == pytest.approx(w["latency_at_target_ms"])


def test_curves_and_states_match_the_json(exported):
    book, data = exported
    w = data["workloads"][0]
    normal = [r for r in book["Curves"].iter_rows(min_row=2, values_only=True) if r[1] == "normal"
              and r[2] == "closed ramp"]
    assert [r[3] for r in normal] == pytest.approx([p["iops"] for p in w["curve"]])
    assert [r[4] for r in normal] == pytest.approx([p["latency_ms"] for p in w["curve"]])
    assert [r[6] for r in normal] == pytest.approx([p["latency_band_p90_ms"] for p in w["curve"]])
    states = {r[1]: r for r in book["Resilience"].iter_rows(min_row=2, values_only=True)}
    by_json = {s["state"].replace("_", " "): s for s in w["states"]}
    assert set(states) == set(by_json)
    for name, row in states.items():
        assert row[2] == pytest.approx(by_json[name]["saturation_iops"])
        assert row[5] == by_json[name]["meets_slo"]


def test_waterfall_ends_at_usable_and_effective(exported):
    book, data = exported
    rows = list(book["Capacity waterfall"].iter_rows(values_only=True))
    assert rows[0][2] == "Before (TiB)"
    by_step = {r[0]: r for r in rows[1:]}
    assert by_step["Usable"][3] == pytest.approx(data["capacity"]["usable_bytes"] / TIB, abs=1e-4)
    assert by_step["Effective"][3] == pytest.approx(data["capacity"]["effective_bytes"] / TIB, abs=1e-4)


def test_csv_export_writes_the_same_rows(tmp_path):
    subprocess.run([sys.executable, "-m", "app", "export-csv", str(EXAMPLE), "-o", str(tmp_path)], check=True,
                   capture_output=True)
    with open(tmp_path / "summary.csv", newline="", encoding="utf-8") as fh:
        rows = {r[0]: r[1] for r in csv.reader(fh)}
    sheets = sizing_sheets(__import__("models.store", fromlist=["load_any"]).load_any(EXAMPLE))
    expected = {r[0]: r[1] for r in sheets["Summary"][1:]}
    assert float(rows["Usable capacity"]) == pytest.approx(expected["Usable capacity"])


def test_a_write_to_a_missing_folder_names_the_file(tmp_path):
    with pytest.raises(WorkbookError, match="cannot write .*nowhere"):
        write_xlsx({"Summary": [["a"]]}, tmp_path / "nowhere" / "x.xlsx")
