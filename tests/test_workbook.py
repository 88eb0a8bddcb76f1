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
    assert book.sheetnames == ["Summary", "Workloads", "Bill of materials", "Capacity waterfall",
                               "Data-reduction bands", "Curves", "Resilience", "Cost and footprint", "Cost by month",
                               "Validation", "Validation summary"]
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


def test_the_data_reduction_band_is_in_the_workbook_as_in_the_json(exported):
    """The capacity band (P10 / P50 / P90 effective capacity and data-reduction ratio, runway and break-even) and
    the per-workload ratios: the XLSX holds the figures ``evaluate --json`` prints."""
    book, data = exported
    rows = {r[0]: r[1] for r in book["Summary"].iter_rows(min_row=2, values_only=True)}
    cap = data["capacity"]
    for p in ("p10", "p50", "p90"):
        assert rows[f"Effective capacity {p.upper()}"] == pytest.approx(cap[f"effective_bytes_band_{p}"] / TIB,
                                                                         abs=1e-4)
        assert rows[f"Data-reduction ratio {p.upper()}"] == pytest.approx(cap[f"data_reduction_ratio_band_{p}"],
                                                                           abs=1e-4)
    assert rows["Months until full P10"] == pytest.approx(cap["months_until_full_band_p10"])
    assert rows["Break-even data-reduction ratio"] == pytest.approx(cap["break_even_data_reduction_ratio"], abs=1e-4)
    sheet = list(book["Data-reduction bands"].iter_rows(values_only=True))
    by_name = {r[0]: r for r in sheet[1:]}
    assert len(by_name) == len(cap["data_reduction_bands"])
    for band in cap["data_reduction_bands"]:
        row = by_name[band["name"]]
        assert row[2:5] == pytest.approx((band["distribution"]["p10"], band["distribution"]["p50"],
                                          band["distribution"]["p90"]), abs=1e-4)  # the published figures
        assert row[5:8] == pytest.approx((band["ratio_p10"], band["ratio_p50"], band["ratio_p90"]), abs=1e-4)
        assert "blog.purestorage.com" in row[9] or "TR-3505" in row[9] or band["distribution"]["assumed"]


def test_curves_and_states_match_the_json(exported):
    book, data = exported
    w = data["workloads"][0]
    normal = [r for r in book["Curves"].iter_rows(min_row=2, values_only=True) if r[1] == "normal"
              and r[2] == "closed ramp"]
    assert [r[3] for r in normal] == pytest.approx([p["iops"] for p in w["curve"]])
    assert [r[4] for r in normal] == pytest.approx([p["latency_ms"] for p in w["curve"]])
    # the sheet says "saturated" where the band's pessimistic edge is past its saturation (null in the JSON)
    assert [r[6] for r in normal] == [pytest.approx(p["latency_band_p90_ms"]) if p["latency_band_p90_ms"] is not None
                                      else "saturated" for p in w["curve"]]
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
    assert float(rows["Usable capacity"]) == expected["Usable capacity"]  # as the XLSX cell holds it (4 decimals)


def test_a_write_to_a_missing_folder_names_the_file(tmp_path):
    with pytest.raises(WorkbookError, match="cannot write .*nowhere"):
        write_xlsx({"Summary": [["a"]]}, tmp_path / "nowhere" / "x.xlsx")


@pytest.mark.parametrize("example", ["vsan-sqlserver-raid5", "cvo-azure-ds4-ha-oltp", "ef550-sas-analytics"])
def test_a_tb_workbook_holds_every_figure_of_evaluate_json(example, tmp_path):
    """Read back in TB (10^12 bytes, the project's unit switched from TiB), the workbook holds the capacity totals,
    every workload's performance figures and every curve point with its band that `evaluate --json` prints."""
    from models.store import load_any

    path = examples_dir() / f"{example}.toml"
    data = json.loads(subprocess.run([sys.executable, "-m", "app", "evaluate", str(path), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    project = load_any(path)
    project = project.model_copy(update={"settings": project.settings.model_copy(update={"capacity_unit": "TB"})})
    write_xlsx(sizing_sheets(project), tmp_path / "tb.xlsx")
    book = load_workbook(tmp_path / "tb.xlsx")
    rows = {r[0]: (r[1], r[2]) for r in book["Summary"].iter_rows(min_row=2, values_only=True)}
    cap = data["capacity"]
    for label, key in (("Raw capacity", "raw_bytes"), ("Right-sized capacity", "right_sized_bytes"),
                       ("Usable capacity", "usable_bytes"), ("Effective capacity", "effective_bytes"),
                       ("Effective incl. Snapshot copies", "effective_with_snapshots_bytes")):
        assert rows[label] == (pytest.approx(cap[key] / 1e12, abs=1e-4), "TB"), label
    assert rows["Data-reduction ratio (compression, compaction, deduplication)"][0] == pytest.approx(
        cap["efficiency_ratio"], abs=1e-4)
    assert rows["Total efficiency ratio with Snapshot copies and clones (logical / physical)"][0] == pytest.approx(
        cap["efficiency_ratio_with_snapshots"], abs=1e-4)
    months = cap["months_until_full"]
    if months is None:  # no month: the report's words for it, never an empty cell beside "months"
        assert isinstance(rows["Months until full"][0], str) and rows["Months until full"][1] == ""
    else:
        assert rows["Months until full"][0] == pytest.approx(months)
    header = next(book["Capacity waterfall"].iter_rows(values_only=True))
    assert header[2:5] == ("Before (TB)", "After (TB)", "Change (TB)")
    curves = list(book["Curves"].iter_rows(min_row=2, values_only=True))
    from models.evaluate import evaluate
    from models.present import profile_kind_text

    shown = {wp.name: profile_kind_text(wp) for wp in evaluate(project).performance.workloads}
    for w in data["workloads"]:
        name = w["name"]
        assert rows[f"{name}: saturation"][0] == pytest.approx(w["saturation_iops"])
        assert rows[f"{name}: max IOPS at the {w['slo_ms']:g} ms SLO"][0] == pytest.approx(w["max_iops_at_slo"])
        assert rows[f"{name}: max IOPS at SLO band P10"][0] == pytest.approx(w["max_iops_at_slo_band_p10"])
        latency = w["latency_at_target_ms"]
        assert rows[f"{name}: latency at target"][0] == (
            pytest.approx(latency) if latency is not None else "saturated" if w["target_iops"] is not None else None)
        assert rows[f"{name}: bottleneck"][0] == w["bottleneck"]
        assert rows[f"{name}: profile"][0] == shown[name]  # r2 #2: the words of the GUI and the report
        for model, key in (("closed ramp", "curve"), ("open model", "open_curve")):
            got = [r[3:8] for r in curves if r[0] == name and r[1] == "normal" and r[2] == model]
            want = [(p["iops"], p["latency_ms"], p["latency_band_p10_ms"],  # a P90 past saturation: the word
                     "saturated" if p["latency_band_p90_ms"] is None and p["latency_band_p10_ms"] is not None
                     else p["latency_band_p90_ms"], p["mbps"]) for p in w[key]]
            assert len(got) == len(want) > 0
            for g, e in zip(got, want):  # null in the JSON is "saturated" in the sheet
                assert list(g) == [pytest.approx(v) if v is not None else "saturated" for v in e], (model, g, e)


def test_bill_of_materials_names_part_numbers_and_prices(tmp_path):
    """Part numbers come from the catalog record's name (QLE2562, X447A on the AFF8080 example) or, first, from
    the project's price book, which also prices each row (unit price x quantity)."""
    from models.project.model import PriceRow
    from models.store import load_any

    project = load_any(EXAMPLE)
    sheet = sizing_sheets(project)["Bill of materials"]
    # review 53b #14: no catalog id column (an id such as netapp-18tb-sas-10k, a 1.8 TB drive, misleads a reader)
    assert sheet[0][:5] == ["Category", "Quantity", "Model", "Part number", "Part number from"]
    assert "Catalog id" not in sheet[0]
    rows = {r[0]: r for r in sheet[1:]}
    assert rows["Drives"][1] == 48 and rows["Drives"][3:5] == ["X447A", "catalog"]
    assert not [c for r in sheet for c in r if c == "netapp-x447a-800gb-ssd"]
    assert rows["Host adapters"][3:5] == ["QLE2562", "catalog"]
    assert rows["Controller system"][3:5] == ["no public part number", ""]  # the catalog gives none: none made up
    book = [PriceRow(catalog_id="netapp-x447a-800gb-ssd", part_number="X447A-R6", unit_price=2500.0, currency="EUR"),
            PriceRow(catalog_id="netapp-aff8080a-ex", part_number="AFF8080A-EX-HA", unit_price=90000.0,
                     currency="EUR")]
    priced = sizing_sheets(project.model_copy(update={"price_book": book}))["Bill of materials"]
    assert priced[0][5:7] == ["Unit price (EUR)", "Extended price (EUR)"]
    rows = {r[0]: r for r in priced[1:]}
    assert rows["Drives"][3:7] == ["X447A-R6", "price book", 2500.0, 48 * 2500.0]
    assert rows["Controller system"][3:7] == ["AFF8080A-EX-HA", "price book", 90000.0, 90000.0]
    assert rows["Shelf"][5:7] == [None, None]
