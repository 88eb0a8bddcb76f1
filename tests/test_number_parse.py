"""Typed numbers read exactly or refused with a reason (models.number_parse), checked against hand-computed values."""

from __future__ import annotations

from fractions import Fraction

import pytest

from models.number_parse import (
    INT64_MAX,
    NumberEntryError,
    Range,
    format_plain,
    format_with_unit,
    parse_number,
    quantity_for,
)

IOPS = quantity_for("target_iops", is_int=False)
SLO = quantity_for("slo_ms", is_int=False)
PCT = quantity_for("read_pct", is_int=False)
DRIVES = quantity_for("drive_count", is_int=True)
BYTES_TIB = quantity_for("dataset_bytes", is_int=True, capacity_unit="TiB")
BYTES_TB = quantity_for("dataset_bytes", is_int=True, capacity_unit="TB")
BLOCK = quantity_for("block_kib", is_int=False)
HOURS = quantity_for("interval_h", is_int=False)


@pytest.mark.parametrize("text, quantity, expected", [
    ("1e15", IOPS, 10**15),
    ("1000000000000000", IOPS, 10**15),
    ("350K", IOPS, 350_000),
    ("350 k", IOPS, 350_000),
    ("2.5M IOPS", IOPS, 2_500_000),
    ("350,000 IOPS", IOPS, 350_000),
    ("2 ms", SLO, 2),
    ("500 us", SLO, Fraction(1, 2)),
    ("500 µs", SLO, Fraction(1, 2)),
    ("0.25 s", SLO, 250),
    ("70 %", PCT, 70),
    ("70%", PCT, 70),
    ("1.5 TiB", BYTES_TIB, 3 * 2**39),
    ("1.5", BYTES_TIB, 3 * 2**39),  # a bare number is in the display unit
    ("1.5", BYTES_TB, 1_500_000_000_000),
    ("500 GB", BYTES_TIB, 500 * 10**9),
    ("64 GiB", BYTES_TB, 64 * 2**30),
    ("8K", BLOCK, 8),
    ("1 MiB", BLOCK, 1024),
    ("4096 B", BLOCK, 4),
    ("2 d", HOURS, 48),
    ("90 min", HOURS, Fraction(3, 2)),
    ("−3", SLO, -3),  # a typographic minus is a minus
    ("12", DRIVES, 12),
])
def test_parse_reads_exactly(text, quantity, expected):
    assert parse_number(text, quantity) == expected


def test_parse_with_a_shown_suffix_and_locale_marks():
    assert parse_number("30 of 24 bays", DRIVES, strip_suffix=" of 24 bays") == 30
    assert parse_number("1.234,5", SLO, group=".", decimal=",") == Fraction(12345, 10)
    assert parse_number("350\u202f000", IOPS, group="\u202f", decimal=",") == 350_000


@pytest.mark.parametrize("text, quantity, message", [
    ("", SLO, "Enter a number"),
    ("abc", SLO, "'abc' is not a number"),
    ("inf", IOPS, "'inf' is not a finite number"),
    ("nan", IOPS, "'nan' is not a finite number"),
    ("1e999", IOPS, "'1e999' is not a finite number"),
    ("1,5", SLO, "'1,5' is not a number: digits are grouped by three; the decimal point is '.'"),
    ("2.5", DRIVES, "2.5 is not a whole number"),
    ("3 parsecs", SLO, "'3 parsecs': unknown unit 'parsecs' (use ns, us, µs, ms, s, sec, min)"),
    ("2 e", SLO, "'2 e': unknown unit 'e' (use ns, us, µs, ms, s, sec, min)"),
])
def test_parse_refuses_with_a_reason(text, quantity, message):
    with pytest.raises(NumberEntryError) as caught:
        parse_number(text, quantity)
    assert str(caught.value) == message


def test_bytes_round_to_whole_bytes_only():
    assert parse_number("0.1 TiB", BYTES_TIB) == round(2**40 / 10)  # 109,951,162,777.6 bytes -> nearest byte


def test_range_contains_and_describe():
    fmt = lambda v: format_with_unit(v, PCT)  # noqa: E731
    assert Range(0, 100).describe(fmt) == "0 to 100 %"
    assert not Range(0, 100).contains(150) and Range(0, 100).contains(100)
    slo = Range(0, 10_000, low_open=True)
    assert not slo.contains(0) and not slo.contains(-3) and slo.contains(Fraction(1, 1000))
    assert slo.describe(lambda v: format_with_unit(v, SLO)) == "above 0 and at most 10,000 ms"
    assert Range(1, None).describe(str) == "at least 1"
    assert Range(None, 5, high_open=True).describe(str) == "below 5"
    assert Range(0, INT64_MAX).contains(INT64_MAX) and not Range(0, INT64_MAX).contains(INT64_MAX + 1)


def test_format_reads_back_to_the_same_value():
    assert format_plain(350_000.0) == "350,000"
    assert format_plain(1.067) == "1.067"
    assert format_plain(10**15) == "1,000,000,000,000,000"
    assert format_plain(1.5, min_decimals=2) == "1.50"
    assert format_plain(12345.5, group=".", decimal=",") == "12.345,5"
    assert format_with_unit(3 * 2**39, BYTES_TIB) == "1.5 TiB"
    assert format_with_unit(500 * 10**9, BYTES_TB) == "500 GB"
    for value in (0.125, 1e-9, 123456.789, 2 / 3, 1e25):
        assert float(parse_number(format_plain(value), SLO)) == pytest.approx(value, rel=1e-14)


def test_shown_unit_and_a_bare_number_in_it():
    """A capacity under one large unit is shown in the small unit, and a bare number typed there means that unit."""
    from models.number_parse import shown_unit

    tib, tb = quantity_for("dataset_bytes", True, "TiB"), quantity_for("dataset_bytes", True, "TB")
    assert shown_unit(10**12, tib) == ("GiB", 2**30)  # 931.323 GiB
    assert shown_unit(2**40, tib) == ("TiB", 2**40)
    assert shown_unit(999 * 10**9, tb) == ("GB", 10**9)
    assert shown_unit(0, tb) == ("TB", 10**12)  # zero is shown as "0 TB"
    assert parse_number("500", tib, bare_factor=shown_unit(10**12, tib)[1]) == 500 * 2**30
    assert parse_number("500", tib) == 500 * 2**40  # without a shown value: the quantity's unit
    assert parse_number("2 TiB", tib, bare_factor=2**30) == 2 * 2**40  # an explicit unit wins
