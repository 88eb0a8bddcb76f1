"""Workload presets carry the SLO their workload implies and the data reduction their type shows, each figure with
its source or marked assumed."""

from __future__ import annotations

import pytest

from models.workloads import load_presets

PRESETS = load_presets()
RATIOS = ("compression_ratio", "compaction_ratio", "dedupe_ratio")


@pytest.mark.parametrize("preset_id", ["tpce-oltp", "slob-select", "slob-75-25", "oltp-8k-70-30"])
def test_an_oltp_preset_asks_for_1_ms(preset_id):
    preset = PRESETS[preset_id]
    assert preset.fields["slo_ms"] == 1.0
    assert preset.sources["slo_ms"]


def test_the_oltp_8k_preset_is_1_ms_and_says_where_15_ms_belongs():
    preset = PRESETS["oltp-8k-70-30"]
    assert preset.fields["slo_ms"] == 1.0
    assert preset.sources["slo_ms"].startswith("assumed: 1 ms") and "15 ms" in preset.sources["slo_ms"]
    assert [preset.fields[r] for r in RATIOS] == [1.5, 1.067, 1.0]
    assert all(preset.sources[r].startswith("seed 000 §3.6") for r in RATIOS)


@pytest.mark.parametrize("preset_id", sorted(PRESETS))
def test_every_preset_states_its_data_reduction_sourced_or_assumed(preset_id):
    preset = PRESETS[preset_id]
    stated = [r for r in RATIOS if r in preset.fields]
    assert "compression_ratio" in stated and "dedupe_ratio" in stated
    for ratio in stated:
        source = preset.sources[ratio]
        assert source.startswith(("assumed:", "seed ")), (ratio, source)


def test_throughput_presets_keep_a_throughput_slo():
    assert {PRESETS[p].fields["slo_ms"] for p in ("streaming-read-64k", "streaming-write-64k")} == {20.0}
    assert PRESETS["sas-mixed-analytics"].fields["slo_ms"] == 50.0
