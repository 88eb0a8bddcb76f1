"""The sources table names a catalog field in words with its unit on the value, and a rate keeps its 'per' unit in
the label ("IOPS per GiB"), never "IOPS per" with "0 GiB" as the value (the review of the ANF report)."""

from app.report.sources import _scalar, _unit_of, field_label
from models.units import CapacityUnit


class _Record:
    pass


def test_a_rate_per_gib_keeps_its_unit_in_the_label_and_none_on_the_value():
    assert field_label("iops_per_gib") == "IOPS per GiB"
    assert _unit_of(_Record(), "iops_per_gib") == ""
    # 0 is no limit published (the schema's words), not zero IOPS (review 57 PDF #10)
    assert _scalar(0, _unit_of(_Record(), "iops_per_gib"), "iops_per_gib", CapacityUnit.TIB) == "no limit published"
    assert _scalar(3, "", "iops_per_gib", CapacityUnit.TIB) == "3"
    # a unit inside the name, in words: not the code key "throughput mibps per TiB"
    assert field_label("throughput_mibps_per_tib") == "throughput per TiB (MiB/s)"


def test_a_unit_word_still_moves_to_the_value():
    assert field_label("memory_gib_per_node") == "memory per node"
    assert _unit_of(_Record(), "memory_gib_per_node") == "GiB per node"
    assert field_label("fixed_latency_us") == "fixed latency"
    assert _scalar(12.5, _unit_of(_Record(), "fixed_latency_us"), "fixed_latency_us", CapacityUnit.TIB) == "12.5 µs"


def test_power_reads_in_watts_on_the_value():
    """The sources table read "typical power w | 2,033.3" (REVIEW43-PDF #17): the unit word in the label, none on
    the value."""
    for field in ("typical_power_w", "max_power_w"):
        assert not field_label(field).endswith(" w")
        assert _unit_of(_Record(), field) == "W"
    assert field_label("typical_power_w") == "typical power"
    assert _scalar(2033.3, _unit_of(_Record(), "typical_power_w"), "typical_power_w", CapacityUnit.TIB) == "2,033.3 W"


def test_a_count_of_devices_is_not_read_as_a_capacity():
    """vSAN OSA's 'max capacity per group | 7' read as a capacity without its unit: it is a number of devices."""
    assert field_label("max_capacity_per_group") == "max capacity devices per disk group"
    assert field_label("HCI: max_capacity_per_group") == "HCI: max capacity devices per disk group"
