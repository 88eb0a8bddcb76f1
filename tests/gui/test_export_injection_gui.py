"""The views' own CSV exports are safe to send (tests/test_export_injection.py covers the workbook's): the
performance view's curve points and the capacity view's waterfall, for a project whose node labels and workload
names a spreadsheet would read as formulas, read back with the csv module."""

from __future__ import annotations

import csv
import math
from pathlib import Path

from test_export_injection import FORMULA_CHARS, HOSTILE, hostile_project

from app.gui.results import CapacityView, PerformanceView
from models.evaluate import evaluate


def _is_number(text: str) -> bool:
    try:
        return math.isfinite(float(text))
    except ValueError:
        return False


def _cells(path: Path) -> list[list[str]]:
    with path.open(newline="", encoding="utf-8") as handle:
        return list(csv.reader(handle))


def test_curve_and_waterfall_csv_write_formula_like_names_as_text(qtbot, tmp_path: Path):
    evaluation = evaluate(hostile_project())
    performance = PerformanceView()
    qtbot.addWidget(performance)
    performance.set_evaluation(evaluation, "TiB")
    performance.export_csv(tmp_path / "curves.csv")
    rows = _cells(tmp_path / "curves.csv")
    assert rows[0][:2] == ["workload_id", "workload"]
    names = {r[1] for r in rows[1:]}
    assert names == {"'" + n for n in HOSTILE}  # every workload's points, each name with the prefix
    assert all(_is_number(r[2]) and _is_number(r[3]) for r in rows[1:])  # numbers stay numbers, all finite

    capacity = CapacityView()
    qtbot.addWidget(capacity)
    capacity.set_evaluation(evaluation, "TiB")
    with qtbot.waitSignal(capacity.sig_csv_written, timeout=10_000) as written:
        assert capacity.export_waterfall_csv(tmp_path / "waterfall.csv")
    waterfall = _cells(Path(written.args[0]))
    assert len(waterfall) > 3

    for table in (rows, waterfall):
        live = [c for r in table for c in r if c.startswith(FORMULA_CHARS) and not _is_number(c)]
        assert live == []
