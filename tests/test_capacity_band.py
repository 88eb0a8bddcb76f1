"""Capacity bands (models.capacity.reduction_band): the data-reduction ratio as P10 / P50 / P90, the effective
capacity and runway it gives, the break-even ratio; checked against a hand calculation, on every bundled example,
in ``evaluate --json``, and through a project file and its text form."""

from __future__ import annotations

import json
import math

import pytest

from models.capacity.reduction_band import PUBLISHED, capacity_band, distribution_for, workload_type
from models.evaluate import evaluate
from models.project.model import DataReductionBand, Settings
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.sizing import needed_effective_bytes
from models.store import load_any

EXAMPLES = sorted(p.name for p in examples_dir().glob("*.toml"))


def _tpce():
    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    return project, evaluate(project)


def test_bands_and_break_even_match_a_hand_calculation():
    """AFF8080 + TPC-E: one database workload, 11.2 TB at 1.5 x 1.067, 2-hourly Snapshot copies kept 24 h at 5%/h
    change, 20%/year growth, 36-month horizon. By hand: the database spread is 2-5x around sqrt(10) (the
    published range), so P10 = r x 2 / sqrt(10), P90 = r x 5 / sqrt(10); one workload, so the effective capacity is
    usable x ratio; physical used = L / r x (1 + 12 copies x 10%); months until full = ln(usable / used) /
    (ln(1.20) / 12), 20% a year being 1.20x after 12 months; the break-even is the larger of need / usable and
    L x 2.2 x 1.20^3 / usable (36 months)."""
    project, evaluation = _tpce()
    band = evaluation.capacity_band
    usable = evaluation.capacity.total.usable_bytes
    logical, r = 11.2e12, 1.5 * 1.067
    low, high = 2.0 / math.sqrt(10.0), 5.0 / math.sqrt(10.0)
    snap = 1 + 12 * (5.0 / 100 * 2.0)  # 12 copies each holding 10% of the physical data
    monthly = 1.20 ** (1 / 12)  # one month's growth at 20 % a year (effective annual: 1.20 after 12 months)

    assert band.data_reduction_ratio_p10 == pytest.approx(r * low, rel=1e-9)
    assert band.data_reduction_ratio_p50 == pytest.approx(r, rel=1e-9)
    assert band.data_reduction_ratio_p90 == pytest.approx(r * high, rel=1e-9)
    assert band.effective_bytes_p10 == pytest.approx(usable * r * low, rel=1e-9)
    assert band.effective_bytes_p50 == pytest.approx(evaluation.capacity.total.effective_bytes, rel=1e-12)
    assert band.effective_bytes_p90 == pytest.approx(usable * r * high, rel=1e-9)
    for ratio, months in ((r * low, band.months_until_full_p10), (r, band.months_until_full_p50),
                          (r * high, band.months_until_full_p90)):
        assert months == pytest.approx(math.log(usable / (logical / ratio * snap)) / math.log(monthly), rel=1e-9)
    assert band.months_until_full_p50 == pytest.approx(evaluation.capacity.total.months_until_full, rel=1e-12)

    need = logical * monthly ** 36
    by_usable = logical * snap * monthly ** 36 / usable
    assert band.break_even_data_reduction_ratio == pytest.approx(max(need / usable, by_usable), rel=1e-9)
    assert band.break_even_binds == "usable"
    assert band.needed_effective_bytes == pytest.approx(needed_effective_bytes(project.scenario,
                                                                               project.requirements), rel=1e-12)
    # the P50 ratio is just above the break-even: this design fits its 36 months with almost nothing to spare
    assert band.data_reduction_ratio_p10 < band.break_even_data_reduction_ratio < band.data_reduction_ratio_p50


def test_break_even_is_where_the_design_stops_fitting():
    """Scale every ratio so that the blended ratio sits just above and just below the break-even: the engine's
    own capacity verdict (effective reaches the need; full no sooner than the horizon) turns at it."""
    from models.capacity import evaluate_capacity
    from models.design import resolve

    project, evaluation = _tpce()
    be = evaluation.capacity_band.break_even_data_reduction_ratio
    for factor, fits in ((1.001, True), (0.999, False)):
        ratio = be * factor
        scenario = project.scenario
        w = scenario.workloads[0]
        changed = w.model_copy(update={"compression_ratio": ratio / w.compaction_ratio, "dedupe_ratio": 1.0})
        altered = project.with_scenario(scenario.model_copy(update={"workloads": [changed]}))
        design = resolve(altered, None, None)
        total = evaluate_capacity(design.scenario, design.catalog).total
        need = needed_effective_bytes(altered.scenario, altered.requirements)
        months = total.months_until_full
        assert (total.effective_bytes >= need and (months is None or months >= 36)) is fits


def test_a_platform_without_data_reduction_has_a_band_of_no_width():
    """E-Series applies no compression or deduplication: its effective capacity is usable, exactly."""
    project = load_any(examples_dir() / "ef600-nvme-ddp-oltp-nvmefc.toml")
    band = evaluate(project).capacity_band
    assert band.effective_bytes_p10 == band.effective_bytes_p50 == band.effective_bytes_p90
    assert all(not w.reduces and w.ratio_p10 == w.ratio_p90 == 1.0 for w in band.workloads)


@pytest.mark.parametrize("name", EXAMPLES)
def test_every_example_has_the_band_and_break_even_in_its_json(name):
    project = load_any(examples_dir() / name)
    evaluation = evaluate(project)
    capacity = evaluation_to_dict(evaluation, project.info.name, None, project.requirements)["capacity"]
    p10, p50, p90 = (capacity[f"effective_bytes_band_{q}"] for q in ("p10", "p50", "p90"))
    assert 0 < p10 <= p50 <= p90
    assert p50 == pytest.approx(capacity["effective_bytes"], rel=1e-12)
    r10, r50, r90 = (capacity[f"data_reduction_ratio_band_{q}"] for q in ("p10", "p50", "p90"))
    assert 1.0 <= r10 <= r50 <= r90
    m10, m50, m90 = (capacity[f"months_until_full_band_{q}"] for q in ("p10", "p50", "p90"))
    if m50 is not None:
        assert m10 <= m50 <= m90 and m50 == pytest.approx(capacity["months_until_full"], rel=1e-9)
    be = capacity["break_even_data_reduction_ratio"]
    assert isinstance(be, float) and be > 0 and math.isfinite(be)
    assert capacity["data_reduction_bands"]
    for system in capacity["systems"]:
        assert system["effective_bytes_band_p10"] <= system["effective_bytes"] <= system["effective_bytes_band_p90"]


def test_evaluate_json_on_the_command_line_carries_the_band(capsys):
    from app.cli import main

    assert main(["evaluate", "aff8080-sqlserver-tpce", "--json"]) == 0
    capacity = json.loads(capsys.readouterr().out)["capacity"]
    assert capacity["effective_bytes_band_p10"] < capacity["effective_bytes"] < capacity["effective_bytes_band_p90"]
    # the hand calculation of test_bands_and_break_even_match_a_hand_calculation: L x 2.2 x 1.20^3 / usable
    assert capacity["break_even_data_reduction_ratio"] == pytest.approx(1.5204, abs=1e-3)


def test_workload_types_follow_presets_names_and_protocol():
    project, _ = _tpce()
    w = project.scenario.workloads[0]
    assert workload_type(w) == "database"
    assert workload_type(w.model_copy(update={"preset": None, "name": "Horizon VDI pool"})) == "vdi"
    assert workload_type(w.model_copy(update={"preset": None, "name": "VMware datastores"})) == "vm"
    assert workload_type(w.model_copy(update={"preset": None, "name": "Workload 7"})) == "general"
    assert distribution_for(w) is PUBLISHED["database"]


def test_the_users_figures_replace_the_published_ones_and_a_workload_row_wins():
    project, evaluation = _tpce()
    w = project.scenario.workloads[0]
    by_type = DataReductionBand(applies_to="database", p10=1.0, p50=2.0, p90=4.0)
    by_id = DataReductionBand(applies_to=w.id, p10=1.5, p50=1.5, p90=3.0, source="customer's own measurement")
    assert distribution_for(w, [by_type]).p90 == 4.0
    chosen = distribution_for(w, [by_type, by_id])
    assert (chosen.p10, chosen.p90, chosen.user) == (1.5, 3.0, True)
    assert "customer's own measurement" in chosen.source
    band = capacity_band(project.scenario, evaluation.capacity, [by_id], project.requirements)
    r = 1.5 * 1.067
    assert band.data_reduction_ratio_p10 == pytest.approx(r, rel=1e-9)  # P10 = P50: no downside stated
    assert band.data_reduction_ratio_p90 == pytest.approx(r * 2.0, rel=1e-9)


def test_a_band_row_out_of_order_or_given_twice_is_refused_with_its_name():
    with pytest.raises(ValueError, match="data-reduction band 'vdi': P10 5 <= P50 4"):
        DataReductionBand(applies_to="vdi", p10=5.0, p50=4.0, p90=6.0)
    row = DataReductionBand(applies_to="vdi", p10=3.0, p50=4.0, p90=6.0)
    with pytest.raises(ValueError, match="'vdi' given more than once"):
        Settings(data_reduction_bands=[row, row])


def test_the_users_bands_survive_a_save_and_an_old_file_opens(tmp_path):
    from models.project import dumps, loads
    from models.store import save_project

    project, _ = _tpce()
    row = DataReductionBand(applies_to="database", p10=1.2, p50=1.8, p90=3.5, source="PoC on the customer's data")
    changed = project.model_copy(update={"settings": project.settings.model_copy(
        update={"data_reduction_bands": [row]})})
    path = tmp_path / "p.storplan"
    save_project(changed, path)
    assert load_any(path).settings.data_reduction_bands == [row]
    assert loads(dumps(changed)).settings.data_reduction_bands == [row]
    # a file written before the setting existed holds no such row: it opens with the published figures
    assert load_any(examples_dir() / "aff8080-sqlserver-tpce.toml").settings.data_reduction_bands == []


def test_the_sentences_name_the_band_the_runway_and_the_break_even():
    from models.present.capacity_band import band_lines

    _, evaluation = _tpce()
    band = evaluation.capacity_band
    effective, runway, break_even = band_lines(band, "TiB")
    assert effective.startswith(f"Effective capacity P10-P90: {band.effective_bytes_p10 / 2**40:,.2f} TiB to "
                                f"{band.effective_bytes_p90 / 2**40:,.2f} TiB")
    assert runway == "Months until full P10-P90: 9.2 months to 70 months (P50 39 months)."
    # 1.5204 and 1.6005 print apart at two decimals: no three-decimal form is needed to show the gap
    assert "Break-even data-reduction ratio: 1.52:1 (below it" in break_even
    assert break_even.endswith("the design fits at the P50 ratio but not at P10.")


def test_a_break_even_that_prints_as_the_p50_ratio_gets_three_decimals():
    """1.5953 and 1.6005 both print as 1.60:1: the sentence shows three decimals so the reader sees the gap."""
    from dataclasses import replace

    from models.present.capacity_band import band_lines

    _, evaluation = _tpce()
    band = replace(evaluation.capacity_band, break_even_data_reduction_ratio=1.5953)
    assert band.data_reduction_ratio_p50 == pytest.approx(1.6005)
    break_even = band_lines(band, "TiB")[2]
    assert "Break-even data-reduction ratio: 1.595:1 (P50 1.600:1)" in break_even
    assert break_even.endswith("the design fits at the P50 ratio but not at P10.")



def test_any_ratios_and_user_figures_keep_the_band_ordered_and_p50_on_the_engine():
    """For 40 drawn workload ratios, growths and user spreads (a seeded generator: the same cases every run, cheap
    beside hypothesis' start-up): P10 <= P50 <= P90 for effective capacity and ratio, the runway the same way
    round (a lower ratio fills sooner), and P50 equals the engine's figures."""
    import random

    from models.capacity import evaluate_capacity
    from models.design import resolve

    project = load_any(examples_dir() / "aff8080-sqlserver-tpce.toml")
    base = project.scenario.workloads[0]
    catalog = resolve(project, None, None).catalog  # the workloads do not change the catalog
    draw = random.Random(30)
    for _ in range(40):
        w = base.model_copy(update={"compression_ratio": draw.uniform(1.0, 8.0), "dedupe_ratio": draw.uniform(1.0, 4.0),
                                    "growth_pct_per_year": draw.choice([0.0, draw.uniform(0.0, 80.0)])})
        low = draw.uniform(1.0, 4.0)
        mid = low + draw.uniform(0.0, 3.0)
        row = DataReductionBand(applies_to="database", p10=low, p50=mid, p90=mid + draw.uniform(0.0, 5.0))
        scenario = project.scenario.model_copy(update={"workloads": [w]})
        capacity = evaluate_capacity(scenario, catalog)
        band = capacity_band(scenario, capacity, [row], project.requirements)
        assert band.effective_bytes_p10 <= band.effective_bytes_p50 <= band.effective_bytes_p90
        assert 1.0 <= band.data_reduction_ratio_p10 <= band.data_reduction_ratio_p50 <= band.data_reduction_ratio_p90
        assert band.effective_bytes_p50 == pytest.approx(capacity.total.effective_bytes, rel=1e-12)
        months = (band.months_until_full_p10, band.months_until_full_p50, band.months_until_full_p90)
        if capacity.total.months_until_full is None:
            assert months[1] is None
        else:
            assert months[1] == pytest.approx(capacity.total.months_until_full, rel=1e-9)
            assert months[0] <= months[1] <= months[2]


def test_the_reports_waterfall_draws_the_band_on_the_effective_bar():
    """The PDF waterfall: an outlined box from P10 to P90 on the Effective bar, on the chart's own scale (its x
    axis reaches past P90), and none on the other bars."""
    from reportlab.graphics.shapes import Rect

    from app.report import graphics as g
    from app.report.fonts import register_fonts
    from models.present import system_waterfall
    from models.present.waterfall import with_effective_band
    from models.units import CapacityUnit

    _, evaluation = _tpce()
    system = evaluation.capacity.systems[0]
    band = evaluation.capacity_band
    bars = with_effective_band(system_waterfall(system), band, system.system_id)
    register_fonts()
    drawing = g.waterfall_drawing(bars, CapacityUnit.TIB, 480.0)
    boxes = [r for r in drawing.contents if isinstance(r, Rect) and r.fillColor is None]
    (box,) = boxes
    bars_drawn = [r for r in drawing.contents if isinstance(r, Rect) and r.fillColor is not None and r.width > 5]
    # the box spans P10..P90 on the same scale as the bars: its ends divide like the band's figures
    scale = box.width / (band.effective_bytes_p90 - band.effective_bytes_p10)
    left_edge = box.x - band.effective_bytes_p10 * scale  # where zero bytes sits
    assert any(abs(r.x - left_edge) < 0.5 and abs(r.width - band.effective_bytes_p50 * scale) < 0.5
               for r in bars_drawn), "the Effective bar starts at zero and ends at P50 on the box's scale"
