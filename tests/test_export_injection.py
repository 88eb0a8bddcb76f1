"""Exports safe to send (OWASP CSV injection): a name a customer's spreadsheet would run as a formula is written as
text in every CSV and XLSX export StorPlan makes, and no export holds NaN, infinity or a control character XLSX
refuses.

Hostile names (node labels, workload names, the project's name, price-book part numbers) go through every front
door that writes a spreadsheet: ``storplan export-xlsx`` and ``export-csv`` (summary, bill of materials, capacity
waterfall, curves, resilience and validation sheets), the capacity view's waterfall CSV and the performance view's
curve CSV (tests/gui/test_export_injection_gui.py: they need Qt). Each file is read back with openpyxl (no cell is a
formula, the text is the name) and with the csv module (each such cell carries the ``'`` prefix).
"""

from __future__ import annotations

import csv
import math
import random
from pathlib import Path

import pytest
from openpyxl import load_workbook

from app.cli import main
from app.report.workbook import write_sheet_csv, write_xlsx
from models.project import textformat
from models.project.model import PriceRow
from models.resources import examples_dir

# Written out here, not imported: the test checks the module against OWASP's list, not against itself.
FORMULA_CHARS = ("=", "+", "-", "@", "\t", "\r")
HYPERLINK = '=HYPERLINK("http://example.com","x")'
HOSTILE = ["=1+2", "+1+2", "-1+2", "@SUM(1,1)", "\tcmd", "\rcmd", HYPERLINK]


def _xlsx_text(name: str) -> str:
    """What openpyxl reads back for a name: XML turns a carriage return into a line feed (XML 1.0, 2.11)."""
    return name.replace("\r\n", "\n").replace("\r", "\n")


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def hostile_project(names: list[str] = HOSTILE):
    """The AFF8080 example with every node label, every workload name, the project's name and every price-book
    part number taken from ``names`` (one workload per name, copies of the example's)."""
    project = textformat.load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    scenario = project.scenario
    nodes = [n.model_copy(update={"label": names[i % len(names)]}) for i, n in enumerate(scenario.nodes)]
    template = scenario.workloads[0]
    workloads = [template.model_copy(update={"id": f"w{i}", "name": name, "target_iops": 1000.0 * (i + 1)})
                 for i, name in enumerate(names)]
    ids = sorted({n.catalog_id for n in nodes} | {getattr(n, "adapter", None) for n in nodes} - {None})
    prices = [PriceRow(catalog_id=cid, part_number=names[i % len(names)], unit_price=1000.0 + i, currency="USD")
              for i, cid in enumerate(ids)]
    scenario = scenario.with_changes(nodes=nodes, workloads=workloads)
    return project.with_scenario(scenario).with_changes(info=project.info.with_changes(name=HYPERLINK),
                                                        price_book=prices)


PRINTABLE = [n for n in HOSTILE if n.isprintable()]
"""The names a project file carries as they are; tab and carriage return (which a reader may refuse or replace in
a name) go through the same writers in-process."""


@pytest.fixture(scope="module", params=["command line", "in-process"])
def exported(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path, list]:
    """(workbook, CSV folder, the hostile names in them): ``storplan export-xlsx`` / ``export-csv`` on a TOML
    project file, or the same writers on the sheets of a project built in memory (every name, and a node label
    with NUL and ESC, which openpyxl used to refuse with IllegalCharacterError)."""
    folder = tmp_path_factory.mktemp("hostile")
    if request.param == "command line":
        source = folder / "hostile.toml"
        textformat.dump(hostile_project(PRINTABLE), source)
        assert main(["export-xlsx", str(source), "-o", str(folder / "sizing.xlsx")]) == 0
        assert main(["export-csv", str(source), "-o", str(folder / "csv")]) == 0
        return folder / "sizing.xlsx", folder / "csv", PRINTABLE
    from app.report.workbook import sizing_sheets, write_csv_folder
    from models.validation import run_validation, stored_cross_validation

    project = hostile_project(HOSTILE)
    scenario = project.scenario
    nodes = [scenario.nodes[0].model_copy(update={"label": "\x00NUL\x1bESC"}), *scenario.nodes[1:]]
    project = project.with_scenario(scenario.with_changes(nodes=nodes))
    sheets = sizing_sheets(project, validation=run_validation(cross_validation=stored_cross_validation()[0]))
    write_xlsx(sheets, folder / "sizing.xlsx")
    write_csv_folder(sheets, folder / "csv")
    return folder / "sizing.xlsx", folder / "csv", HOSTILE


def xlsx_cells(path: Path) -> dict[str, list]:
    book = load_workbook(path)
    return {sheet.title: [cell for row in sheet.iter_rows() for cell in row] for sheet in book.worksheets}


def test_no_xlsx_cell_is_a_formula_and_names_are_kept(exported):
    sheets = xlsx_cells(exported[0])
    assert {"Summary", "Bill of materials", "Capacity waterfall", "Curves", "Resilience", "Validation"} <= set(sheets)
    cells = [c for cs in sheets.values() for c in cs]
    assert [c.coordinate for c in cells if c.data_type == "f"] == []
    names = exported[2]
    texts = [c.value for c in cells if isinstance(c.value, str)]
    for name in names:
        assert _xlsx_text(name) in texts, f"{name!r} is not in the workbook as written"
    for c in cells:  # every formula-like text cell is a string cell marked "text" (Excel's quote prefix)
        if isinstance(c.value, str) and c.value.startswith(FORMULA_CHARS):
            assert c.data_type == "s" and c.quotePrefix, (c.coordinate, c.value)
    # where each kind of name lands: the workload names in the Curves sheet, part numbers in the bill of materials
    curves = {c.value for c in sheets["Curves"] if c.column == 1}
    assert {_xlsx_text(n) for n in names} <= curves
    bom = {c.value for c in sheets["Bill of materials"]}
    assert {_xlsx_text(n) for n in names[:3]} <= bom
    assert any(isinstance(c.value, (int, float)) for c in sheets["Curves"])  # numbers stay numbers


def test_every_csv_cell_that_would_be_a_formula_has_the_prefix(exported):
    files = sorted(exported[1].glob("*.csv"))
    assert {f.stem for f in files} >= {"summary", "bill-of-materials", "capacity-waterfall", "curves", "resilience",
                                       "validation"}
    cells = []
    for f in files:
        with f.open(newline="", encoding="utf-8") as handle:
            cells += [cell for row in csv.reader(handle) for cell in row]
    live = [c for c in cells if c.startswith(FORMULA_CHARS) and not _is_number(c)]
    assert live == []
    for name in exported[2]:
        assert "'" + name in cells, f"{name!r} is not in the CSV files with the prefix"


def test_no_export_holds_nan_inf_or_control_characters(exported):
    for cells in xlsx_cells(exported[0]).values():
        for c in cells:
            if isinstance(c.value, float):
                assert math.isfinite(c.value), c.coordinate
            if isinstance(c.value, str):
                assert c.value.lower() not in ("nan", "inf", "-inf")
                assert not any(ch in c.value for ch in _ILLEGAL), c.coordinate
    for f in exported[1].glob("*.csv"):
        text = f.read_text(encoding="utf-8")
        assert not any(ch in text for ch in _ILLEGAL), f.name
        for row in csv.reader(text.splitlines()):
            assert not any(cell.strip().lower() in ("nan", "inf", "-inf", "infinity") for cell in row), f.name
    if exported[2] is HOSTILE:  # the in-process project's NUL / ESC label, as U+FFFD, somewhere
        texts = [c.value for cs in xlsx_cells(exported[0]).values() for c in cs if isinstance(c.value, str)]
        assert any("\ufffdNUL\ufffdESC" in t for t in texts)


# --- the writers themselves, fuzzed ----------------------------------------------------------------------------------

_ILLEGAL = [chr(c) for c in range(0x20) if c not in (0x09, 0x0A, 0x0D)]


def _random_name(rng: random.Random) -> str:
    alphabet = "abc XYZ 0189 ()\",;'\n\t\r" + "".join(_ILLEGAL) + "é€😀"
    body = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
    return rng.choice(FORMULA_CHARS + ("", "#", "'", " ")) + body


def _expected_text(name: str) -> str:
    """A name as it should read back: control characters XLSX refuses as U+FFFD (independent of the module)."""
    return "".join("\ufffd" if ch in _ILLEGAL else ch for ch in name)


def test_fuzzed_names_through_both_writers(tmp_path: Path):
    rng = random.Random(20261128)
    names = [_random_name(rng) for _ in range(600)]
    rows = [["Workload", "IOPS"], *[[name, float(k)] for k, name in enumerate(names)],
            ["nan", float("nan")], ["infinite", float("inf")], ["minus", -12.5]]
    write_xlsx({"Curves": rows}, tmp_path / "f.xlsx")
    write_sheet_csv(rows, tmp_path / "f.csv")

    sheet = load_workbook(tmp_path / "f.xlsx")["Curves"]
    got = list(sheet.iter_rows(min_row=2, values_only=False))
    assert len(got) == len(names) + 3
    for name, (text_cell, number_cell) in zip(names, got):
        assert text_cell.data_type != "f" and number_cell.data_type == "n"
        expected = _xlsx_text(_expected_text(name))
        assert (text_cell.value or "") == expected, (name, text_cell.value)
    assert [c.value for c in got[-3]] == ["none", None]  # the word, and an empty cell for the number
    assert [c.value for c in got[-2]] == ["infinite", None]
    assert [c.value for c in got[-1]] == ["minus", -12.5]

    with (tmp_path / "f.csv").open(newline="", encoding="utf-8") as handle:
        back = list(csv.reader(handle))[1:]
    assert len(back) == len(names) + 3
    for name, (text, number) in zip(names, back):
        expected = _expected_text(name)
        if expected.startswith(FORMULA_CHARS):
            assert text == "'" + expected, (name, text)
        else:
            assert text == expected
        assert _is_number(number)
    assert back[-3:] == [["none", ""], ["infinite", ""], ["minus", "-12"]]  # IOPS: whole numbers
