"""HDD positioning time by the span of the drive the data occupy (models.performance.positioning)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from models.catalog import Drive, bundled_catalog
from models.performance import build_path
from models.performance.positioning import (
    REFERENCE_SEEK_MS,
    SEEK_KNEE_SHARE,
    data_span,
    positioning_s,
    reference_curve,
    short_stroke,
    stored_bytes,
)
from models.performance.public_ramps import fas3140_sfs2008

CAT = bundled_catalog()


def _independent_curve() -> tuple[float, float, float, float]:
    """The reference seek curve's constants (in ms) solved with numpy from the datasheet's three figures and the
    knee: a = single track; continuity, full stroke and the weighted average over the triangular distance."""
    t1, avg, full = REFERENCE_SEEK_MS["single_track"], REFERENCE_SEEK_MS["average"], REFERENCE_SEEK_MS["full_stroke"]
    k = 383 / 1962
    m = np.array([[math.sqrt(k), -1.0, -k], [0.0, 1.0, 1.0],
                  [4 / 3 * k ** 1.5 - 4 / 5 * k ** 2.5, (1 - k) ** 2, 1 / 3 - k ** 2 + 2 / 3 * k ** 3]])
    b, c, e = np.linalg.solve(m, np.array([-t1, full, avg - t1 * (2 * k - k * k)]))
    return t1, float(b), float(c), float(e)


def _numeric_mean_seek_ms(span: float) -> float:
    """Mean seek (ms) over two uniform points of [0, span] by numeric integration of the triangular density."""
    a, b, c, e = _independent_curve()
    x = np.linspace(0.0, span, 400_001)
    seek = np.where(x < 383 / 1962, a + b * np.sqrt(x), c + e * x)
    return float(np.trapezoid(seek * 2 * (span - x) / span ** 2, x))


def test_the_reference_curve_reproduces_its_datasheet():
    """Hitachi Deskstar 7K320: single track 1.0 ms, weighted average 12 ms, full stroke 20.0 ms; continuous at
    the Ruemmler & Wilkes knee (383 of 1,962 cylinders)."""
    c = reference_curve()
    assert c.a * 12.0 == pytest.approx(1.0)
    assert c.at(1.0) * 12.0 == pytest.approx(20.0)
    assert c.mean_over_span(1.0) == pytest.approx(1.0, rel=1e-12)
    k = SEEK_KNEE_SHARE
    assert c.a + c.b * math.sqrt(k) == pytest.approx(c.c + c.e * k, rel=1e-12)
    assert _numeric_mean_seek_ms(1.0) == pytest.approx(12.0, rel=1e-5)


@pytest.mark.parametrize("span", [0.05, 0.5, 1.0])
def test_positioning_of_the_sata_drive_by_hand(span: float):
    """NetApp X302A 1 TB SATA 7.2K: catalog 12.0 ms = average seek + half a revolution (30 / 7,200 s = 4.1667
    ms), so its average seek is 7.8333 ms. At a span s the seek is 7.8333 x (mean seek over [0, s]) / 12 (the
    reference curve's proportions) plus 4.1667 ms. By hand (the sqrt branch only, s = 5% < the knee): mean =
    a + b sqrt(s) x 8/15; numerically at 50% and 100%."""
    hdd = CAT.get("netapp-x302a-1tb-sata-7k2", Drive)
    rotation_ms = 30_000 / 7_200
    seek_ms = 12.0 - rotation_ms
    a, b, _, _ = _independent_curve()
    mean_ref = a + b * math.sqrt(span) * 8 / 15 if span < SEEK_KNEE_SHARE else _numeric_mean_seek_ms(span)
    expected_ms = seek_ms * mean_ref / 12.0 + rotation_ms
    got_ms = positioning_s(hdd.read_service_time_us * 1e-6, hdd.rpm, span) * 1e3
    assert got_ms == pytest.approx(expected_ms, rel=1e-5)
    assert {0.05: 6.657, 0.5: 10.324, 1.0: 12.0}[span] == pytest.approx(got_ms, abs=0.001)


def test_shorter_spans_position_faster_and_ssds_are_untouched():
    hdd = CAT.get("netapp-x302a-1tb-sata-7k2", Drive)
    times = [positioning_s(0.012, 7_200, s) for s in (0.001, 0.01, 0.05, 0.2, 0.5, 0.9, 1.0)]
    assert times == sorted(times) and times[0] > 30 / 7_200  # never below half a revolution
    short = short_stroke(hdd, 0.05)
    assert short.read_service_time_us == pytest.approx(positioning_s(0.012, 7_200, 0.05) * 1e6)
    assert short.write_service_time_us == pytest.approx(positioning_s(hdd.write_service_time_us * 1e-6, 7_200,
                                                                      0.05) * 1e6)
    ssd = CAT.get("netapp-x446b-200gb-ssd", Drive)
    assert short_stroke(ssd, 0.05) is ssd and short_stroke(hdd, 1.0) is hdd
    assert data_span(0.0, 1e12) == 1.0 and data_span(5e11, 1e12) == 0.5 and data_span(3e12, 1e12) == 1.0


def test_the_engine_positions_over_the_span_the_data_occupy():
    """FAS3140 SPECsfs2008 scenario: the data set over the RAID groups' data drives gives the span; the HDD
    station's data-read demand uses the short-stroke positioning, and with no data set given the datasheet
    average (the catalog time) is used."""
    sc = fas3140_sfs2008(8.0, 4000)
    w = sc.workloads[0]
    path = build_path(sc, CAT, w)
    span = w.dataset_bytes / sum(g.data * g.member_bytes for g in path.raid_groups)
    assert stored_bytes(sc.workloads, w.target) == w.dataset_bytes
    assert 0.05 < span < 0.08
    hdd = CAT.get("netapp-x302a-1tb-sata-7k2", Drive)
    short_ms = positioning_s(hdd.read_service_time_us * 1e-6, hdd.rpm, span) * 1e3
    assert any(f"occupy {span:.1%}" in n and f"{short_ms:.1f} ms per random read" in n for n in path.notes)
    # a workload with no data set: no span known, the whole drive
    unknown = sc.model_copy(update={"workloads": [w.with_changes(dataset_bytes=0, working_set_bytes=None)]})
    assert not any("occupy" in n for n in build_path(unknown, CAT, unknown.workloads[0]).notes)
    # a fuller system positions more slowly: the HDD stations' demand grows with the data set
    fuller = sc.model_copy(update={"workloads": [w.with_changes(dataset_bytes=w.dataset_bytes * 8)]})
    hd = {s.name: s for s in path.stations}["HDDs (node 1)"]
    hd8 = {s.name: s for s in build_path(fuller, CAT, fuller.workloads[0]).stations}["HDDs (node 1)"]
    assert hd8.read_s > hd.read_s
