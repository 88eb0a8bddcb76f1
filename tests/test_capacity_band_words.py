"""How the capacity band reads (models.present.capacity_band): no break-even ratio below 1:1, none for a platform
that applies no data reduction, and a data-reduction table whose every figure can be followed back to the
published range it came from (the PDF table, the XLSX sheet)."""

from __future__ import annotations

import math
import re

import pytest

from models.evaluate import evaluate
from models.formatting import fmt_ratio
from models.present.capacity_band import band_lines, band_rows, break_even_text
from models.present.workbook import reduction_band_sheet, summary_sheet
from models.resources import examples_dir
from models.store import load_any
from models.units import CapacityUnit

_BELOW_ONE = re.compile(r"(?<![\d.])0\.\d+:1")


def _band(name: str):
    project = load_any(examples_dir() / name)
    return project, evaluate(project)


@pytest.mark.parametrize("name", ["anf-premium-oracle-nfs.toml", "aff-a70-snapmirror-cvo-dr.toml",
                                  "fas70-ds460c-nlsas-nfs.toml"])
def test_no_break_even_ratio_below_one_is_printed(name):
    project, evaluation = _band(name)
    band = evaluation.capacity_band
    assert band.break_even_data_reduction_ratio < 1.0  # the case the review found printed as "0.30:1"
    line = band_lines(band, "TiB")[-1]
    assert not _BELOW_ONE.search(line), line
    cells = {row[0]: row[1] for row in summary_sheet(project, evaluation, None, CapacityUnit.TIB)}
    assert cells["Break-even data-reduction ratio"] == break_even_text(band)
    if any(w.reduces for w in band.workloads):
        assert "fits without data reduction" in line and break_even_text(band) == "fits without data reduction"
    else:  # Azure NetApp Files stores the data 1:1: a break-even ratio has no meaning there
        assert line.startswith("Break-even data-reduction ratio: not applicable, the platform applies no data")
        assert "the design gives the effective capacity needed" in line


def test_a_break_even_above_one_keeps_its_ratio():
    project, evaluation = _band("aff8080-sqlserver-tpce.toml")
    band = evaluation.capacity_band
    assert band_lines(band, "TiB")[-1].startswith("Break-even data-reduction ratio: 1.52:1")
    cells = {row[0]: row[1] for row in summary_sheet(project, evaluation, None, CapacityUnit.TIB)}
    assert cells["Break-even data-reduction ratio"] == pytest.approx(band.break_even_data_reduction_ratio, abs=1e-4)


def test_the_table_shows_the_published_range_and_how_the_workload_figures_follow():
    """FAS70 file shares: TR-3505's 35% saving is 1/(1-0.35) = 1.538:1 with assumed P10 1.2 and P90 2.5; the
    workload's own ratio r (its compression x compaction x deduplication) is the P50, P10 = r x 1.2 / 1.538,
    P90 = r x 2.5 / 1.538: the table gives both sets and the arithmetic between them."""
    project, evaluation = _band("fas70-ds460c-nlsas-nfs.toml")
    band = evaluation.capacity_band
    w = project.scenario.workloads[0]
    r = w.compression_ratio * w.compaction_ratio * w.dedupe_ratio
    published_p50 = 1 / (1 - 0.35)
    (row,) = band_rows(band)
    assert row[2] == f"1.20 / {published_p50:.2f} / 2.50:1" == "1.20 / 1.54 / 2.50:1"
    assert row[3:6] == (fmt_ratio(r * 1.2 / published_p50), fmt_ratio(r), fmt_ratio(r * 2.5 / published_p50))
    assert row[3:6] == ("1.12:1", "1.43:1", "2.32:1")  # the figures the review could not follow
    assert f"P10 = {r:.2f} x 1.20 / 1.54 = 1.12:1" in row[6] and f"P90 = {r:.2f} x 2.50 / 1.54 = 2.32:1" in row[6]
    assert "TR-3505" in row[7]
    header, data = reduction_band_sheet(band)
    assert header[2:8] == ["Published P10 (x:1)", "Published P50 (x:1)", "Published P90 (x:1)",
                           "Data-reduction ratio P10 (x:1)", "P50 (x:1)", "P90 (x:1)"]
    assert data[2:5] == [1.2, round(published_p50, 4), 2.5]
    assert data[5:8] == [round(r * 1.2 / published_p50, 4), round(r, 4), round(r * 2.5 / published_p50, 4)]


def test_the_database_range_is_pure_storages_2_to_5x_around_the_workloads_own_ratio():
    _, evaluation = _band("aff-a70-snapmirror-cvo-dr.toml")
    (row,) = band_rows(evaluation.capacity_band)
    mean = math.sqrt(2 * 5)
    assert row[2] == f"2.00 / {mean:.2f} / 5.00:1"
    assert row[3:6] == (fmt_ratio(2.0 * 2 / mean), "2.00:1", fmt_ratio(2.0 * 5 / mean))
    assert "not the published P50" in row[6] and "Pure Storage" in row[7]


def test_a_platform_without_data_reduction_says_why_its_band_is_one_to_one():
    _, evaluation = _band("anf-premium-oracle-nfs.toml")
    (row,) = band_rows(evaluation.capacity_band)
    assert row[3:6] == ("1.00:1", "1.00:1", "1.00:1")
    assert row[6].startswith("The platform applies no data reduction")
