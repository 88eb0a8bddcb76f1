"""One project, one answer on every surface (review cons57): ``storplan evaluate --json``, the workbook's Summary
(XLSX and CSV) and the bill of materials name each figure the report and the screen give.

* #1 the DR copy filling in 18 months beside the serving systems' 128 (aff-a70-snapmirror-cvo-dr): a Summary row
  with the report's words, the JSON runway's ``dr_copies`` / ``first_to_fill``;
* #4 the takeover runway ("... in takeover at the growing target (required): 53 months"): a JSON key and a row;
* #5 a "Months until full P50" row; #6 the CSV at the XLSX cells' precision and "full now" beside a 0;
* #2 one name, "Effective incl. Snapshot copies", left out of the Summary where capacity is missed;
* #7 in TB a right-sized drive never reads as its marketed size.
Figures checked against the JSON and, for the takeover month, against the growth formula worked here.
"""

from __future__ import annotations

import csv
import json
import math

import pytest
from openpyxl import load_workbook

from app import cli
from app.report.workbook import sizing_sheets, write_csv_folder, write_xlsx
from models.resources import examples_dir
from models.store import load_any

TIB = 2**40
DR = "aff-a70-snapmirror-cvo-dr"


def _json(capsys, example: str) -> dict:
    assert cli.main(["evaluate", example, "--json"]) in (0, 1)
    return json.loads(capsys.readouterr().out)


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    """example -> (XLSX Summary {label: (value, unit)}, CSV Summary {label: (value, unit)})."""
    out = {}
    for example in (DR, "aff8080-nfs-file-services", "a800-oracle-slob-fcp", "aff8080-sqlserver-tpce"):
        folder = tmp_path_factory.mktemp(example)
        sheets = sizing_sheets(load_any(examples_dir() / f"{example}.toml"))
        write_xlsx(sheets, folder / "book.xlsx")
        write_csv_folder(sheets, folder / "csv")
        book = load_workbook(folder / "book.xlsx")
        xlsx = {r[0]: (r[1], r[2]) for r in book["Summary"].iter_rows(min_row=2, values_only=True) if r[0]}
        with open(folder / "csv" / "summary.csv", newline="", encoding="utf-8") as fh:
            rows = {r[0]: (r[1], r[2]) for r in list(csv.reader(fh))[1:] if r}
        out[example] = (xlsx, rows)
    return out


def test_the_dr_copy_and_the_serving_systems_each_named(capsys, exported):
    data = _json(capsys, DR)
    (relationship,) = data["replication"]
    runway = data["runway"]
    assert runway["months_until_full"] == data["capacity"]["months_until_full"] == pytest.approx(127.98, abs=0.01)
    assert runway["dr_copies"] == [{"system_id": "cvo-dr", "system_label": "Cloud Volumes ONTAP DR (Azure)",
                                    "months_until_full": relationship["destination_runway_months"]}]
    systems = {s["system_id"]: s["months_until_full"] for s in data["capacity"]["systems"]}
    assert runway["first_to_fill"] == {"system_id": "cvo-dr", "system_label": "Cloud Volumes ONTAP DR (Azure)",
                                       "dr_copy": True, "months_until_full": min(systems.values())}
    assert runway["first_to_fill"]["months_until_full"] == 18.0
    xlsx, rows = exported[DR]
    label = "Months until the DR copy on Cloud Volumes ONTAP DR (Azure) is full"
    assert xlsx[label] == (relationship["destination_runway_months"], "months")
    assert float(rows[label][0]) == 18.0 and rows[label][1] == "months"
    serving = "Months until full (the systems serving workloads)"  # the report's runway words
    assert "Months until full" not in xlsx
    assert xlsx[serving][0] == pytest.approx(runway["months_until_full"])
    assert float(rows[serving][0]) == round(runway["months_until_full"], 4)


def test_the_takeover_runway_in_json_and_summary(capsys, exported):
    data = _json(capsys, DR)
    (workload,) = data["workloads"]
    takeover = next(s for s in workload["states"] if s["state"] == "takeover")
    growth = load_any(examples_dir() / f"{DR}.toml").scenarios[0].workloads[0].iops_growth_pct_per_year
    worked = 12 * math.log(takeover["max_iops_at_slo"] / workload["target_iops"]) / math.log(1 + growth / 100)
    runway = data["runway"]
    assert runway["months_until_slo_breach_in_takeover"] == pytest.approx(worked, rel=1e-9)
    assert worked == pytest.approx(53.2, abs=0.05) and runway["slo_in_takeover_state"] == "takeover"
    xlsx, rows = exported[DR]
    label = "Months until the SLO is breached in takeover at the growing target (required)"
    assert xlsx[label] == (pytest.approx(worked, rel=1e-9), "months")
    assert float(rows[label][0]) == round(worked, 4)


@pytest.mark.parametrize("example", [DR, "aff8080-nfs-file-services"])
def test_months_until_full_p50_row(capsys, exported, example):
    capacity = _json(capsys, example)["capacity"]
    xlsx, rows = exported[example]
    for edge in ("p10", "p50", "p90"):
        months = capacity[f"months_until_full_band_{edge}"]
        assert xlsx[f"Months until full {edge.upper()}"][0] == pytest.approx(months)
        assert float(rows[f"Months until full {edge.upper()}"][0]) == round(months, 4)


def test_csv_keeps_the_xlsx_precision_and_says_full_now(capsys, exported):
    capacity = _json(capsys, "a800-oracle-slob-fcp")["capacity"]
    xlsx, rows = exported["a800-oracle-slob-fcp"]
    for label, key in (("Raw capacity", "raw_bytes"), ("Right-sized capacity", "right_sized_bytes")):
        assert float(rows[label][0]) == round(capacity[key] / TIB, 4) == xlsx[label][0]
    assert rows["Raw capacity"][0] != rows["Right-sized capacity"][0]  # 32.7418 and 32.7378, not 32.74 twice
    assert float(rows["Months until full"][0]) == round(capacity["months_until_full"], 4)
    band = _json(capsys, "aff8080-nfs-file-services")["capacity"]
    assert band["months_until_full_band_p10"] == 0  # the pessimistic edge is full now
    xlsx, rows = exported["aff8080-nfs-file-services"]
    assert xlsx["Months until full P10"] == (0, "months (full now)")
    assert rows["Months until full P10"] == ("0.0", "months (full now)")


def test_logical_data_one_name_and_left_out_beside_a_missed_capacity(capsys, exported):
    met = _json(capsys, "aff8080-sqlserver-tpce")
    xlsx, rows = exported["aff8080-sqlserver-tpce"]
    assert not any(m["area"] == "capacity" for m in met["verdict"]["missed"])
    assert xlsx["Effective incl. Snapshot copies"] == (
        round(met["capacity"]["effective_with_snapshots_bytes"] / TIB, 4), "TiB")
    assert not any("Effective capacity with Snapshot" in label for label in xlsx)
    missed = _json(capsys, "aff8080-nfs-file-services")
    assert any(m["area"] == "capacity" for m in missed["verdict"]["missed"])  # full in 8.8 months, 36 required
    assert missed["capacity"]["effective_with_snapshots_bytes"] / TIB == pytest.approx(278.74, abs=0.005)
    for summary in exported["aff8080-nfs-file-services"]:
        assert not any("Snapshot copies" in label and "ratio" not in label for label in summary)
        assert "Effective capacity" in summary  # the capacity as sold stays


def test_a_right_sized_drive_in_tb_never_reads_as_its_marketed_size():
    from models.catalog import Drive
    from models.design import resolve
    from models.present.bom import bill_of_materials
    from models.units import CapacityUnit

    design = resolve(load_any(examples_dir() / f"{DR}.toml"), None, None)
    drives = [r for r in bill_of_materials(design.scenario, design.catalog, CapacityUnit.TB) if r.category == "Drives"]
    assert drives
    for row in drives:
        record = design.catalog.find(row.catalog_id)
        assert isinstance(record, Drive) and record.right_sized_bytes < record.marketed_bytes
        marketed, right_sized = row.figures.split(", right-sized ")[0], row.figures.split(", right-sized ")[1]
        shown = float(right_sized.removesuffix(" TB"))
        assert shown != float(marketed.split(" TB")[0])  # 3.8395 TB beside 3.84 TB, not 3.84 twice
        decimals = len(right_sized.removesuffix(" TB").split(".")[1])
        assert shown == round(record.right_sized_bytes / 1e12, decimals) and decimals in (3, 4)
    tib = [r for r in bill_of_materials(design.scenario, design.catalog, CapacityUnit.TIB) if r.category == "Drives"]
    assert all(r.figures.endswith("right-sized 3.49 TiB") for r in tib)  # in TiB two decimals say it already
