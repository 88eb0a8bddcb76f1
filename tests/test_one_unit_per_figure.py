"""One unit for one kind of figure, as the customer reads it (review 42, items 6, 12, 13 and 21).

* A capacity table or the summary's capacity sentence in the chosen unit throughout: "0.91 TiB of 5.40 TiB", never
  "931.32 GiB of 5.40 TiB"; a small non-zero capacity keeps two significant digits (never "0.00 TiB").
* Months until full within a month of the planning horizon with one decimal (35.6 or 36.4, not "36").
* A server's memory named in its binary unit, GiB, as the assumptions table names it (review 52: not "GB ...
  (binary GB)" beside "GiB").
* A controller's own drive bays are not a shelf with "0 U, 0 W".

Expectations are computed here from the bytes (2^40 per TiB, 10^12 per TB) and the PDF's text (pypdf), not from
the formatter under test.
"""

from __future__ import annotations

import dataclasses
import io
import re

import pytest
from pypdf import PdfReader

from app.report import render_report_bytes
from models.catalog import bundled_catalog
from models.evaluate import evaluate
from models.present.bom import bill_of_materials
from models.present.verdicts import capacity_verdicts
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit, format_capacity
from models.verdict import runway_miss

TIB, TB = 2**40, 10**12


@pytest.mark.parametrize(("value", "unit", "text"), [
    (10**12, "TiB", "0.91 TiB"),  # 10^12 / 2^40 = 0.9095
    (5.4 * TIB, "TiB", "5.40 TiB"),
    (2**30, "TiB", "0.00098 TiB"),  # 1 GiB = 2^-10 TiB = 0.000977
    (55 * 2**30, "TiB", "0.054 TiB"),  # 55 / 1024 = 0.0537
    (0.0, "TiB", "0.00 TiB"),
    (-3 * 2**30, "TiB", "-0.0029 TiB"),
    (931.32e9, "TB", "0.93 TB"),
    (5e10, "TB", "0.050 TB"),
    (12_345 * TB, "TB", "12,345.00 TB"),
])
def test_fixed_capacity_is_in_the_large_unit(value, unit, text):
    assert format_capacity(value, unit, fixed=True) == text


@pytest.mark.parametrize("unit", ["TiB", "TB"])
def test_a_non_zero_capacity_never_reads_zero_and_keeps_two_significant_digits(unit):
    large = TIB if unit == "TiB" else TB
    for exponent in range(3, 19):
        for mantissa in (1.0, 1.04, 4.99, 9.96):
            value = mantissa * 10**exponent
            text = format_capacity(value, unit, fixed=True)
            number, label = text.split(" ")
            assert label == unit, text
            shown = float(number.replace(",", ""))
            assert shown != 0 and abs(shown - value / large) <= 0.05 * value / large, (value, text)


@pytest.fixture(scope="module")
def cvo():
    project = load_any(examples_dir() / "cvo-azure-ds14-ha-oltp.toml")
    evaluation = evaluate(project)
    pdf = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    return project, evaluation, re.sub(r"\s+", " ", text)


def test_the_summary_and_capacity_table_read_one_unit(cvo):
    """The CVO example's data (under 1 TiB) against its usable capacity (over 1 TiB), both in TiB."""
    project, evaluation, text = cvo
    assert project.settings.capacity_unit is CapacityUnit.TIB
    system = next(s for s in evaluation.capacity.systems if s.physical_used_bytes)
    used, usable = system.physical_used_bytes, system.usable_bytes
    assert used < TIB < usable  # the case the review found: one figure under the unit, one over
    assert f"the data needs {used / TIB:,.2f} TiB of {usable / TIB:,.2f} TiB usable" in text
    assert f"{used / 2**30:,.2f} GiB" not in text
    # the table's data-reduction formulas and the sources table in TiB too
    assert f"logical {used / TIB:,.2f} TiB / 1.00 = {used / TIB:,.2f} TiB" in text
    assert not re.search(r"(logical|saves) [\d.,]+ GiB", text)
    assert f"dataset capacity {10**12 / TIB:,.2f} TiB (1,000,000,000,000 bytes)" in text


def test_months_near_the_horizon_show_a_decimal():
    """36.4 months against a 36-month horizon passes and says so; 35.6 misses and says 35.6, not 36."""
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    capacity = evaluate(project).capacity
    system = next(s for s in capacity.systems if s.physical_used_bytes)

    def with_months(months: float):
        changed = dataclasses.replace(system, months_until_full=months)
        systems = tuple(changed if s is system else s for s in capacity.systems)
        return dataclasses.replace(capacity, systems=systems), changed

    after, _ = with_months(36.4)
    texts = [v.text for v in capacity_verdicts(after, "TiB", 36)]
    assert any("full in 36.4 months at the planned growth, just after the 36-month horizon" in t for t in texts), texts
    at, _ = with_months(36.02)
    assert any("full in 36.0 months at the planned growth, at the 36-month horizon" in v.text
               for v in capacity_verdicts(at, "TiB", 36))
    before, changed = with_months(35.6)
    miss = runway_miss(changed, 36)
    assert miss is not None and miss.text.startswith("full in 35.6 months")
    assert not any(v.text.endswith("horizon") for v in capacity_verdicts(with_months(48.0)[0], "TiB", 36))
    assert any("full in 48 months at the planned growth" in v.text
               for v in capacity_verdicts(with_months(48.0)[0], "TiB", 36))


def test_host_memory_reads_in_gib():
    """The SnapMirror example's hosts: the model name says "512 GB" (memory is sold in binary sizes); the figures
    say the same size in the binary unit, GiB, never a GB that reads as decimal."""
    project = load_any(examples_dir() / "aff-a70-snapmirror-cvo-dr.toml")
    scenario = next(s for s in project.scenarios if s.name == evaluate(project).scenario)
    hosts = [r for r in bill_of_materials(scenario, bundled_catalog()) if r.category == "Hosts"]
    assert hosts
    for row in hosts:
        named = re.search(r"(\d+) GB\)", row.model)
        assert named, row.model
        assert f"{named.group(1)} GiB memory" in row.figures
        assert " GB memory" not in row.figures and "binary GB" not in row.figures


def test_controller_bays_are_not_a_free_shelf():
    """The A90 example's drives sit in the controller's own bays: no "Shelf" row with zero height and power; the
    bays are named as part of the controller chassis, outside the footprint columns, and the PDF's bill of
    materials says so."""
    project = load_any(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    evaluation = evaluate(project)
    scenario = next(s for s in project.scenarios if s.name == evaluation.scenario)
    rows = bill_of_materials(scenario, bundled_catalog())
    assert not [r for r in rows if r.category == "Shelf"]
    bays = [r for r in rows if r.category == "Internal bays (in the controller chassis)"]
    assert len(bays) == 1 and bays[0].footprint_cells() == ("", "", "")
    assert "U" not in bays[0].figures.split(",")[-1]
    pdf = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    text = re.sub(r"\s+", " ", "\n".join(p.extract_text() for p in PdfReader(io.BytesIO(pdf)).pages))
    assert "Internal bays (in the controller chassis)" in text
    assert not re.search(r"Shelf \d+ NetApp 4U chassis, internal", text)


def test_the_spreadsheet_keeps_a_small_capacity_non_zero():
    """The waterfall sheet and its CSV give capacities as numbers in TiB: a 30 MB change (2.7e-5 TiB) stays a
    non-zero number with two significant digits in the cell and in the CSV, not 0.0 after rounding to 4 decimals."""
    from types import SimpleNamespace

    from models.present.workbook import cell_formats, csv_value, waterfall_rows

    bar = SimpleNamespace(label="Snapshot reserve", kind="step", before=5 * TIB, after=5 * TIB - 3e7, change=-3e7,
                          source="", formula="")
    header, row = waterfall_rows([bar], "TiB")
    assert header[4] == "Change (TiB)"
    expected = -3e7 / TIB  # -2.73e-5
    assert row[4] != 0 and abs(row[4] - expected) <= 0.05 * abs(expected)
    assert row[2] == 5.0 and row[3] == round((5 * TIB - 3e7) / TIB, 4)  # the usual 4 decimals otherwise
    number_format = cell_formats([header, row])[1][4]  # the decimals a small capacity needs (two significant)
    assert number_format == "#,##0.000000"
    shown = csv_value(row[4], number_format)
    assert shown != 0 and abs(shown - expected) <= 0.05 * abs(expected)
