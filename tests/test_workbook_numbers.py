"""Numbers as numbers in every sheet of the sizing workbook, rounded by number formats (the cell keeps the full
value), and the CSV files at the cells' precision (at least 4 decimals): read back with openpyxl and the csv module."""

from __future__ import annotations

import csv
import math

import pytest
from openpyxl import load_workbook

from app.report import validation_outcomes
from app.report.workbook import sizing_sheets, write_csv_folder, write_xlsx
from models.evaluate import evaluate, evaluate_resilience, project_catalog
from models.resources import examples_dir
from models.store import load_any

EXAMPLE = examples_dir() / "aff8080-sqlserver-tpce.toml"


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    """The AFF8080 example's workbook with the validation checks, as XLSX and as CSV files."""
    folder = tmp_path_factory.mktemp("numbers")
    project = load_any(EXAMPLE)
    outcomes = validation_outcomes()
    assert not isinstance(outcomes, str), outcomes
    sheets = sizing_sheets(project, validation=outcomes)
    write_xlsx(sheets, folder / "book.xlsx")
    write_csv_folder(sheets, folder / "csv")
    return project, outcomes, load_workbook(folder / "book.xlsx"), folder / "csv"


def _csv(folder, name: str) -> list[list[str]]:
    with open(folder / name, newline="", encoding="utf-8") as fh:
        return list(csv.reader(fh))


def test_the_validation_sheet_holds_numbers(written):
    """Published, predicted and the signed error are numbers (were '38.4' and '+0.0%' as text); the error is
    (predicted - published) / published in percent to the report's one decimal, computed here from the two
    cells; the rule is in words (was '=', which a CSV showed as "'=")."""
    _project, outcomes, book, _folder = written
    sheet = book["Validation"]
    header = [c.value for c in sheet[1]]
    assert header == ["Published result", "Quantity", "Passes when", "Published", "Published to", "Predicted",
                      "Error (%)", "Result", "Basis", "Out-of-sample prediction", "Out-of-sample result", "Source"]
    checks = [c for o in outcomes for c in o.checks]
    rows = list(sheet.iter_rows(min_row=2))
    assert len(rows) == len(checks) > 0
    compared = 0
    for row, check in zip(rows, checks):
        _case, _q, rule, published, high, predicted, error = (c.value for c in row[:7])
        if check.kind == "expect":
            assert rule == "the case's condition holds" and published is None and predicted is None and error is None
            continue
        if check.predicted is None or not math.isfinite(check.predicted):  # no prediction: empty, not 0
            assert predicted is None and error is None and published == pytest.approx(check.published, rel=1e-12)
            continue
        assert isinstance(published, (int, float)) and isinstance(predicted, (int, float))
        assert published == pytest.approx(check.published, rel=1e-12)
        assert predicted == pytest.approx(check.predicted, rel=1e-12)
        if check.kind == "range":
            assert rule.startswith("inside the published range") and isinstance(high, (int, float)) and error is None
            continue
        assert rule.startswith(("within \u00b1", "at most the published value", "at least the published value"))
        if published != 0:
            exact = (predicted - published) / abs(published) * 100
            assert error == round(exact, 1) and str(error) != "-0.0"
            assert row[6].number_format == "+0.0;-0.0;0.0"
            compared += 1
    assert compared > 10
    assert all(not isinstance(c.value, str) or not c.value.rstrip("%").lstrip("+-").replace(".", "").isdigit()
               for r in rows for c in r[3:7])  # no number stored as text


def test_every_numeric_cell_is_a_number_with_a_format(written):
    """In every sheet, no cell holds a number as text, and every number carries the number format of its unit."""
    _project, _outcomes, book, _folder = written
    for sheet in book.worksheets:
        for row in sheet.iter_rows(min_row=2):
            for cell in row:
                if isinstance(cell.value, str):
                    text = cell.value.replace(",", "").strip()
                    with pytest.raises(ValueError):
                        float(text.rstrip("%"))  # would be a number stored as text
                elif isinstance(cell.value, (int, float)) and not isinstance(cell.value, bool):
                    assert cell.number_format != "General", (sheet.title, cell.coordinate, cell.value)


def test_summary_values_are_rounded_by_their_format_and_keep_their_full_value(written):
    project, _outcomes, book, folder = written
    evaluation = evaluate(project)
    resilience = evaluate_resilience(project, evaluation, evaluation.scenario, project_catalog(project))
    cells = {r[0].value: r[1] for r in book["Summary"].iter_rows(min_row=2)}
    wp = evaluation.performance.workloads[0]
    saturation = cells[f"{wp.name}: saturation"]
    assert saturation.value == pytest.approx(wp.saturation_iops) and saturation.number_format == "#,##0"
    latency = cells[f"{wp.name}: latency at target"]
    assert latency.value == pytest.approx(wp.latency_at_target_ms) and latency.number_format == "0.000"
    usable = cells["Usable capacity"]
    assert usable.number_format == "#,##0.00"  # two decimals, as the PDF (review 53b: 83.819 TiB, 0.36379788)
    csv_rows = {r[0]: r[1] for r in _csv(folder, "summary.csv")[1:]}
    assert csv_rows[f"{wp.name}: saturation"] == str(round(wp.saturation_iops))
    assert float(csv_rows[f"{wp.name}: latency at target"]) == round(wp.latency_at_target_ms, 4)
    # the cell's own 4 decimals, not the format's 2 (review cons57 #6: right-sizing vanished from the CSV)
    assert float(csv_rows["Usable capacity"]) == round(evaluation.capacity.total.usable_bytes / 2**40, 4)
    months = [("Months until the SLO is breached (growing target)", resilience.months_until_slo_breach),
              ("Months until saturation (growing target)", resilience.months_until_saturation),
              ("Months until full", evaluation.capacity.total.months_until_full)]
    shown = 0
    for label, value in months:
        if value is None or not math.isfinite(value):  # the report's words, never an empty cell (review 53b #11)
            assert isinstance(cells[label].value, str) and cells[label].value and csv_rows[label] == cells[label].value
            continue
        assert cells[label].value == pytest.approx(value) and cells[label].number_format == "0.0"
        assert csv_rows[label] == str(round(value, 4))  # was 36.19591670364147, then 36.2 (review cons57 #6)
        shown += 1
    assert shown >= 1


def test_the_validation_csv_holds_rounded_numbers(written):
    _project, outcomes, _book, folder = written
    rows = _csv(folder, "validation.csv")
    assert rows[0][3:7] == ["Published", "Published to", "Predicted", "Error (%)"]
    checks = [c for o in outcomes for c in o.checks]
    for row, check in zip(rows[1:], checks):
        if check.predicted is None or not math.isfinite(check.predicted):  # no prediction: the cells are empty
            assert row[5] == row[6] == ""
            continue
        if check.kind in ("value", "upper_bound", "lower_bound") and check.published != 0:
            assert float(row[6]) == round(check.error * 100, 1) and row[6] != "-0.0"
            assert float(row[3]) == pytest.approx(check.published, rel=1e-3, abs=1e-3)
