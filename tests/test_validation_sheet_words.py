"""Review 53b #2, #19, #21: the workbook's Validation sheet holds the checks of the PDF's "Model validation" section
(the published cases and the measured ramps: SPECstorage, SPECsfs, Azure NetApp Files), in the report's words (the
published result's title, the quantity in words, the rule in words, no case or quantity ids), with the public
document in a Source column; the "Validation summary" sheet holds the report's headline lines (pass counts by
category, in-sample and out-of-sample). Read back from the files `storplan export-xlsx` / `export-csv` write."""

from __future__ import annotations

import contextlib
import csv
import io
import re

import pytest
from example_reports import report_text
from openpyxl import load_workbook

from app.cli import main
from app.report import validation_outcomes
from models.resources import examples_dir

EXAMPLE = "aff-a70-ns224-oracle-nvmetcp"


@pytest.fixture(scope="module")
def exported(tmp_path_factory):
    folder = tmp_path_factory.mktemp("validation_sheet")
    path = examples_dir() / f"{EXAMPLE}.toml"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["export-xlsx", str(path), "-o", str(folder / "book.xlsx")]) == 0
        assert main(["export-csv", str(path), "-o", str(folder / "csv")]) == 0
    outcomes = validation_outcomes()
    assert not isinstance(outcomes, str), outcomes
    return load_workbook(folder / "book.xlsx"), folder / "csv", outcomes


def test_the_sheet_holds_every_check_the_report_counts(exported):
    book, _folder, outcomes = exported
    rows = list(book["Validation"].iter_rows(min_row=2, values_only=True))
    checks = [c for o in outcomes for c in o.checks]
    assert len(rows) == len(checks) > 100  # was 87 rows: the measured ramps were missing
    header = [c.value for c in book["Validation"][1]]
    result, basis, held = header.index("Result"), header.index("Basis"), header.index("Out-of-sample result")
    assert sum(r[result].startswith("fail") for r in rows) == sum(not c.passed for c in checks) > 0
    assert sum(r[basis] == "In-sample" for r in rows) == sum(c.category == "in-sample" for c in checks) > 0
    assert sum(r[held] == "pass" for r in rows) == sum(c.out_of_sample_passed is True for c in checks) > 0
    assert sum(r[held] == "fail" for r in rows) == sum(c.out_of_sample_passed is False for c in checks) > 0
    titles = {r[0] for r in rows}
    for name in ("SPECstorage Solution 2020_swbuild", "SPECsfs2008", "Azure NetApp Files"):
        assert any(name in t for t in titles), name


def test_no_code_ids_and_every_row_cites_its_document(exported):
    book, _folder, outcomes = exported
    sheet = book["Validation"]
    header = [c.value for c in sheet[1]]
    source = header.index("Source")
    rows = list(sheet.iter_rows(min_row=2, values_only=True))
    texts = " | ".join(str(v) for r in rows for v in r if isinstance(v, str))
    ids = {o.case_id for o in outcomes} | {c.quantity for o in outcomes for c in o.checks if "_" in c.quantity
                                           and not c.quantity.startswith("Standard_")}
    assert [i for i in ids if re.search(rf"(?<![\w-]){re.escape(i)}(?![\w-])", texts)] == []
    assert "host_increment_ms_light_load" not in texts and "aff8080-tpce-fcp" not in texts
    assert all(r[source] and ".txt" not in r[source] and "mirror" not in r[source] for r in rows)
    sources = {r[0]: r[source] for r in rows}
    a800 = [s for t, s in sources.items() if t.startswith("NetApp AFF A800 Performance with Oracle Database")]
    assert a800 and all(s.startswith('NetApp report "NetApp AFF A800 Performance with Oracle Database" (2019)')
                        for s in a800)
    sas = [s for t, s in sources.items() if t.startswith("SAS technical paper")]
    assert sas and all("http://support.sas.com/kb/42/197.html" in s for s in sas)  # the public address it prints


def test_the_summary_sheet_gives_the_reports_headline(exported):
    book, _folder, _outcomes = exported
    lines = [r[0] for r in book["Validation summary"].iter_rows(min_row=2, values_only=True)]
    assert any(line.startswith("in-sample") and " of " in line for line in lines)
    assert any(line.startswith("out-of-sample") and " of " in line for line in lines)
    assert lines[-1].startswith("Overall: ")
    pdf = report_text(EXAMPLE)
    for line in lines:  # each line as the PDF's validation section prints it
        assert " ".join(line.split()) in pdf, line


def test_the_csv_shows_no_apostrophe_and_no_negative_zero(exported):
    _book, folder, outcomes = exported
    with open(folder / "validation.csv", newline="", encoding="utf-8") as handle:
        rows = list(csv.reader(handle))
    assert len(rows) - 1 == sum(len(o.checks) for o in outcomes)
    assert not [cell for row in rows for cell in row if cell.startswith("'")]  # was "'=" in every compared row
    error = rows[0].index("Error (%)")
    assert "-0.0" not in {row[error] for row in rows[1:]}
