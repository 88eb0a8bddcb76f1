"""Review 53b #5, #6, #11, #14, #15, #19, #20, #24: what the exported workbook shows a customer, read back from the
XLSX (openpyxl) and the CSV files `storplan export-xlsx` / `export-csv` write for bundled examples: no 0 W for an
unknown power, no word in a number column, words where a figure is saturated or never reached, no catalog ids,
sources on the embodied-carbon and raw rows, one precision per kind of figure, units (and currencies) named."""

from __future__ import annotations

import contextlib
import csv
import io
import math
import re

import pytest
from openpyxl import load_workbook

from app.cli import main
from models.costing.carbon import DRIVE_SOURCE
from models.evaluate import evaluate, project_catalog
from models.present.bom import footprint
from models.resources import examples_dir
from models.store import load_any

EXAMPLES = ("vsan8-esa-stretched-4x4-sqlserver-oltp", "cvo-azure-e20ds-v5-ha-oltp", "ef600-nvme-ddp-oltp-nvmefc",
            "aff-a70-ns224-oracle-nvmetcp", "fas70-ds460c-nlsas-nfs", "aff-a70-snapmirror-cvo-dr")


@pytest.fixture(scope="module")
def exported(tmp_path_factory, monkeypatch_module):
    """Each example's workbook (openpyxl) and CSV folder, the validation sheets left empty (not what is read here)."""
    monkeypatch_module.setattr("app.report.validation_outcomes", lambda: [])
    folder = tmp_path_factory.mktemp("export_words")
    out = {}
    for name in EXAMPLES:
        path = examples_dir() / f"{name}.toml"
        with contextlib.redirect_stdout(io.StringIO()):
            assert main(["export-xlsx", str(path), "-o", str(folder / f"{name}.xlsx")]) == 0
            assert main(["export-csv", str(path), "-o", str(folder / name)]) == 0
        out[name] = (load_workbook(folder / f"{name}.xlsx"), folder / name)
    return out


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def _rows(book, sheet: str) -> tuple[list, list[tuple]]:
    rows = list(book[sheet].iter_rows(values_only=True))
    return list(rows[0]), rows[1:]


def _csv(folder, name: str) -> list[list[str]]:
    with open(folder / name, newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


NUMBER_COLUMNS = ("Rack units", "Typical power (W)", "Heat (BTU/hr)")


def test_no_unknown_power_reads_zero_and_number_columns_hold_numbers(exported):
    """#6, #20: the vSAN hosts' power was 0 W / 0 BTU/hr in the total, 'unknown' text in the W and BTU/hr columns."""
    for name, (book, folder) in exported.items():
        header, rows = _rows(book, "Bill of materials")
        assert "Footprint note" in header
        for column in NUMBER_COLUMNS:
            k = header.index(column)
            assert all(r[k] is None or isinstance(r[k], (int, float)) for r in rows), (name, column)
        total = rows[-1]
        assert total[0] == "Total"
        project = load_any(examples_dir() / f"{name}.toml")
        foot = footprint(project.scenario, project_catalog(project))
        power = total[header.index("Typical power (W)")]
        if foot.cloud_only or (foot.power_w == 0 and (foot.unknown or foot.hci_hosts)):
            assert power is None and total[header.index("Heat (BTU/hr)")] is None, name
        else:
            assert power == pytest.approx(foot.power_w, abs=0.05)
        csv_rows = _csv(folder, "bill-of-materials.csv")
        assert not [c for r in csv_rows[1:] for c in r if c == "unknown"], name
    _header, rows = _rows(exported["vsan8-esa-stretched-4x4-sqlserver-oltp"][0], "Bill of materials")
    header = _header
    assert rows[-1][header.index("Typical power (W)")] is None  # was 0
    assert "power of the 8 vSAN hosts" in rows[-1][header.index("Footprint note")]


def test_a_cloud_design_says_it_has_no_footprint_on_site(exported):
    """#24: the CVO total read "controllers, shelves, drives and switches: 0 U, 0 W"."""
    header, rows = _rows(exported["cvo-azure-e20ds-v5-ha-oltp"][0], "Bill of materials")
    total = rows[-1]
    assert [total[header.index(c)] for c in NUMBER_COLUMNS] == [None, None, None]
    assert "controllers, shelves" not in " ".join(str(v) for v in total)
    assert "no rack space or power on site" in total[header.index("Footprint note")]


def test_the_ef600_chassis_is_said_as_counted(exported):
    """#5: the note named the bays' node ("24 x 3.84TB NVMe SSD") as not counted while its drives' 288 W were, and
    the embodied carbon booked that node at the shelf rate with no controller line."""
    book, _folder = exported["ef600-nvme-ddp-oltp-nvmefc"]
    header, rows = _rows(book, "Bill of materials")
    note = rows[-1][header.index("Footprint note")]
    assert "24 x 3.84TB NVMe SSD" not in note
    drives = next(r for r in rows if r[0] == "Drives")
    watts = drives[header.index("Typical power (W)")]
    assert watts == 288 and f"the drives' {watts:,.0f} W are counted" in note and "EF600 chassis" in note
    _h, cost = _rows(book, "Cost and footprint")
    carbon = [r for r in cost if str(r[0]).startswith("Embodied carbon: ")]
    assert not [r for r in carbon if "24 x 3.84TB NVMe SSD (" in r[0]]
    chassis = [r for r in carbon if "EF600 chassis" in r[0]]
    assert len(chassis) == 1 and "controllers" in chassis[0][0] and "shelf-enclosure figure" in chassis[0][4]


def test_embodied_carbon_and_raw_rows_cite_their_sources(exported):
    """#15: the drives' carbon row gave only the formula (the PDF cites Tannu & Nair, HotCarbon 2022); the raw
    waterfall row had no source."""
    for name in ("aff-a70-ns224-oracle-nvmetcp", "ef600-nvme-ddp-oltp-nvmefc", "fas70-ds460c-nlsas-nfs"):
        book, _folder = exported[name]
        _h, cost = _rows(book, "Cost and footprint")
        published = [r for r in cost if str(r[0]).startswith("Embodied carbon: ") and r[3] == "published"]
        assert published and all(DRIVE_SOURCE in r[4] and "Tannu" in r[4] for r in published), name
        header, rows = _rows(book, "Capacity waterfall")
        raw = next(r for r in rows if r[0] == "Raw (marketed)")
        assert raw[header.index("Source")], name


def test_words_where_a_figure_is_saturated_or_never_comes(exported):
    """#11: Curves 'Band P90' was empty past saturation (192 rows of the A70); the FAS70's months until the SLO is
    breached and until saturation were empty beside the unit "months"."""
    book, folder = exported["aff-a70-ns224-oracle-nvmetcp"]
    header, rows = _rows(book, "Curves")
    p90 = header.index("Band P90 (ms)")
    assert sum(r[p90] == "saturated" for r in rows) > 100
    assert not [r for r in rows if r[p90] is None and r[header.index("Band P10 (ms)")] is not None]
    curves = _csv(folder, "curves.csv")
    assert sum(r[p90] == "saturated" for r in curves[1:]) > 100
    evaluation = evaluate(load_any(examples_dir() / "fas70-ds460c-nlsas-nfs.toml"))
    assert evaluation.resilience is None or evaluation.resilience.months_until_slo_breach is None
    _h, summary = _rows(exported["fas70-ds460c-nlsas-nfs"][0], "Summary")
    for label in ("Months until the SLO is breached (growing target)", "Months until saturation (growing target)"):
        value, unit = next((r[1], r[2]) for r in summary if r[0] == label)
        assert isinstance(value, str) and "do not grow" in value and unit in ("", None), (label, value)


def _decimals(number_format: str) -> int:
    section = number_format.split(";")[0]
    return len(section.split(".")[1]) if "." in section else 0


def test_one_precision_per_kind_of_figure(exported):
    """#19: 0.36379788 TiB/day and 83.819 TiB (format #,##0.00######), a ratio 1.12 in the Summary but 1.115 in the
    data-reduction bands, 20,629.547 USD."""
    for name, (book, folder) in exported.items():
        for sheet in book.worksheets:
            header = [str(c.value) for c in sheet[1]]
            for row in sheet.iter_rows(min_row=2):
                for cell in row:
                    value = cell.value
                    if not isinstance(value, (int, float)) or isinstance(value, bool):
                        continue
                    column = header[cell.column - 1]
                    unit = column[column.rfind("(") + 1:-1] if column.endswith(")") else ""
                    if "Value" in header and "Unit" in header and column == "Value":
                        unit = str(row[header.index("Unit")].value or "")
                    if unit.split("/")[0] in ("TB", "TiB"):  # two decimals, more only for two significant digits
                        wanted = 2 if value == 0 else max(2, 1 - math.floor(math.log10(abs(value))))
                        assert _decimals(cell.number_format) == wanted, (name, sheet.title, cell.coordinate)
                    if unit == "x:1":
                        assert cell.number_format == "0.00", (name, sheet.title, cell.coordinate)
                    if re.fullmatch(r"[A-Z]{3}", unit):
                        assert cell.number_format == "#,##0.00", (name, sheet.title, cell.coordinate)
        protection = folder / "protection-and-dr.csv"
        if protection.exists():
            rows = _csv(folder, "protection-and-dr.csv")
            for k, column in enumerate(rows[0]):
                if column.endswith("(TiB)") or column.endswith("(TB)"):
                    for r in rows[1:]:
                        if r[k]:
                            value = float(r[k])
                            # the cell's 4 decimals (review cons57 #6), more only for two significant digits;
                            # never a float's 8 or 17 (0.36379788)
                            wanted = 4 if value == 0 else max(4, 1 - math.floor(math.log10(abs(value))))
                            assert len(r[k].split(".")[1]) <= wanted if "." in r[k] else True, (column, r[k])
    header, rows = _rows(exported["fas70-ds460c-nlsas-nfs"][0], "Data-reduction bands")
    assert all(h.endswith("(x:1)") for h in header[2:8])


def test_units_are_named(exported):
    """#20: Resilience 'Max IOPS at SLO' and the Summary ratios had no unit; '0.13 per kWh' named no currency."""
    book, _folder = exported["aff-a70-ns224-oracle-nvmetcp"]
    header, _rows_ = _rows(book, "Resilience")
    assert "Max IOPS at SLO (IOPS)" in header
    _h, summary = _rows(book, "Summary")
    ratios = [r for r in summary if re.search(r"\bratio\b", str(r[0])) and isinstance(r[1], (int, float))]
    assert ratios and all(r[2] == "x:1" for r in ratios)
    _h, cost = _rows(book, "Cost and footprint")
    units = {r[0]: r[2] for r in cost}
    assert units["Electricity price"] == "USD per kWh"
    assert units["Rack unit cost"] == "USD per rack unit per month"
