"""quantity_label: the checks' quantity identifiers as human labels with units (Qt-free)."""

from __future__ import annotations

import pytest

from models.validation import quantity_label, run_validation


@pytest.mark.parametrize(("quantity", "label"), [
    # capacity units, and the noun "capacity" after raw / usable / right-sized / provisioned ...
    ("raw_tb", "Raw capacity (TB)"),
    ("usable_tib", "Usable capacity (TiB)"),
    ("logical_gb", "Logical capacity (GB)"),
    ("right_sized_per_drive_gib", "Right-sized capacity per drive (GiB)"),
    ("data_aggregate_per_node_tib", "Data aggregate per node (TiB)"),
    ("used_after_raid5_gb", "Used capacity after RAID 5 (GB)"),
    ("compression_savings_tb", "Compression savings (TB)"),
    ("snapshot_savings_total_tb", "Total Snapshot savings (TB)"),
    ("provisioned_with_ftt1_raid1_gb_min", "Minimum provisioned capacity with FTT=1 RAID 1 (GB)"),
    ("explore_max_tib", "Explore maximum (TiB)"),
    # latency and throughput; a unit in mid-name moves to the end
    ("write_latency_ms", "Write latency (ms)"),
    ("latency_ms_at_339k_iops", "Latency at 339K IOPS (ms)"),
    ("host_latency_ms_light_load", "Host latency at light load (ms)"),
    ("peak_iops", "Peak IOPS"),
    ("load_levels_within_1ms", "Load levels within 1 ms"),
    ("keeps_up_at_2.5GBps", "Keeps up at 2.5 GB/s"),
    ("effective_pct", "Effective (%)"),
    # cloud VM sizes and the single / HA configurations
    ("Standard_DS14_v2_single_iops", "Standard_DS14_v2 single node IOPS"),
    ("Standard_DS4_v2_ha_latency_ms", "Standard_DS4_v2 HA pair latency (ms)"),
    ("Standard_DS3_v2_single_mbps", "Standard_DS3_v2 single node throughput (MB/s)"),
    ("single_iops", "Single node IOPS"),
    ("ha_mbps", "HA pair throughput (MB/s)"),
    # ratios: A_over_B, unitless; a slash inside A or B switches to a division sign
    ("write_latency_ratio_raid5_over_raid1", "RAID 5 / RAID 1 write latency ratio"),
    ("cold_over_hot_read_iops", "Cold / hot read IOPS ratio"),
    ("tiered_over_untiered_write_mbps", "Tiered / untiered write throughput ratio"),
    ("iops_ratio_at_0.23ms_9.5_over_9.4", "9.5 / 9.4 IOPS ratio at 0.23 ms"),
    ("peak_iops_ratio_nvmefc_over_fcp", "NVMe/FC \u00f7 FCP peak IOPS ratio"),
    ("total_efficiency_ratio", "Total efficiency ratio"),
    ("dedupe_compression_ratio", "Dedupe & compression ratio"),
    ("snapshot_only_savings_ratio", "Snapshot-only savings ratio"),
    # RAID geometry and vSAN failures to tolerate
    ("raid5_3p1_factor", "RAID 5 3+1 factor"),
    ("ftt1_raid1_factor", "FTT=1 RAID 1 factor"),
    # unknown words stay as written; nothing to read stays as it is
    ("frobnication_rate", "Frobnication rate"),
    ("", ""),
])
def test_quantity_label(quantity, label):
    assert quantity_label(quantity) == label


def test_every_bundled_quantity_reads_as_a_label():
    """No published check's label keeps a raw identifier: no underscores outside a VM size, no lower-case unit
    token ("ms" is a unit as written, after a number or in parentheses)."""
    quantities = {check.quantity for outcome in run_validation() for check in outcome.checks}
    assert quantities
    for quantity in quantities:
        label = quantity_label(quantity)
        words = [w for w in label.split() if not w.startswith("Standard_")]
        assert not any("_" in w for w in words), (quantity, label)
        assert not {"tb", "tib", "gb", "gib", "mbps", "iops", "pct"} & set(words), (quantity, label)
        assert label[0].isupper() or label[0].isdigit(), (quantity, label)
