"""The workbook's "Protection and DR" sheet follows the project's capacity unit, named in each capacity header
(STOP41 "Left": its headers were in GB while every other sheet was in the project's TB or TiB).

The expected figures are the worked example's hand calculation (tests/test_replication.py): 400 GB changed a day,
200 GB sent after the 2:1 reduction, the largest hourly transfer 200e9 x 2/34 bytes, the baseline 4e12 bytes and
the destination's need 4e12 + that transfer; here divided by 10^12 (TB) or 2^40 (TiB), read back with openpyxl.
"""

from __future__ import annotations

import pytest
from openpyxl import load_workbook

from app.report.workbook import sizing_sheets, write_xlsx
from models.project import load
from models.project.edits import set_setting
from models.resources import examples_dir

EXAMPLE = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"
TRANSFER = 200e9 * 2 / 34  # bytes: the worst hour's 2/34 of the 200 GB sent a day


@pytest.mark.parametrize(("unit", "size"), [("TB", 10**12), ("TiB", 2**40)])
def test_the_protection_sheet_is_in_the_projects_unit(unit, size, tmp_path):
    project = set_setting(load(EXAMPLE), "capacity_unit", unit)
    write_xlsx(sizing_sheets(project), tmp_path / "p.xlsx")
    book = load_workbook(tmp_path / "p.xlsx")
    header, row = list(book["Protection and DR"].iter_rows(values_only=True))[:2]
    assert not [h for h in header if "GB" in h or "GiB" in h], header
    values = dict(zip(header, row, strict=True))
    expected = {"Change per day": 400e9, "Sent per day": 200e9, "Largest transfer": TRANSFER, "Baseline": 4e12,
                "Destination needs": 4e12 + TRANSFER}
    for name, in_bytes in expected.items():
        assert values[f"{name} ({unit})"] == pytest.approx(in_bytes / size, rel=1e-9), name
    assert values[f"Destination free ({unit})"] > values[f"Destination needs ({unit})"]
    # the capacity columns show as the other sheets' capacities do (the unit's number format)
    capacity_columns = [i for i, h in enumerate(header) if h.endswith(f"({unit})")]
    assert len(capacity_columns) == 6
    cells = list(book["Protection and DR"].iter_rows(min_row=2, max_row=2))[0]
    # two decimals, or two significant digits for a small figure (review 53b: no 0.36379788 TiB/day)
    for i in capacity_columns:
        decimals = len(cells[i].number_format.split(".")[1])
        assert cells[i].number_format.startswith("#,##0.") and decimals >= 2
        assert decimals == 2 or abs(cells[i].value) < 0.1
