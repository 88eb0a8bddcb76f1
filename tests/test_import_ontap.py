"""The ONTAP counters reader against the real samples in ../shared/samples/ontap (NetApp Harvest test data):
counts, and rates recomputed here from the raw counters."""

from __future__ import annotations

import json
import re
from datetime import datetime
from pathlib import Path

import pytest

from models.importers.inventory import InventoryError
from models.importers.ontap import read_ontap
from models.importers.registry import reader

SAMPLES = next(p / "shared" / "samples" / "ontap" for p in Path(__file__).resolve().parents
               if (p / "shared" / "samples" / "ontap").is_dir())
KEY1 = SAMPLES / "harvest-keyperf-volume-poll-1.json"
KEY2 = SAMPLES / "harvest-keyperf-volume-poll-2.json"
SCHEMA = SAMPLES / "harvest-restperf-volume-counters-1.json"
ROWS1 = SAMPLES / "harvest-restperf-volume-poll-1.json"
ROWS2 = SAMPLES / "harvest-restperf-volume-poll-2.json"
LUNS = SAMPLES / "harvest-statperf-lun_data.txt"
CATALOGUE = SAMPLES / "harvest-statperf-lun_counters.txt"


def _records(path: Path) -> dict[str, dict]:
    return {r["name"]: r for r in json.loads(path.read_text())["records"]}


def _seconds(stamp: str) -> float:
    return datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()


def test_keyperf_polls_give_four_volumes_with_rates_from_counter_differences() -> None:
    inv = read_ontap(KEY1, KEY2)
    one, two = _records(KEY1), _records(KEY2)
    assert inv.source == "ontap" and inv.file == KEY1.name and not inv.flags
    assert sorted(v.name for v in inv.volumes) == sorted(one) and len(inv.volumes) == 4
    for vol in inv.volumes:
        a, b = one[vol.name]["statistics"], two[vol.name]["statistics"]
        dt = _seconds(b["timestamp"]) - _seconds(a["timestamp"])
        assert dt == 141
        assert vol.svm == "osc" and vol.kind == "volume"
        assert len(vol.series) == 1
        s = vol.series[0]
        assert s.interval_s == dt
        assert s.read_iops == pytest.approx((b["iops_raw"]["read"] - a["iops_raw"]["read"]) / dt)
        assert s.write_iops == pytest.approx((b["iops_raw"]["write"] - a["iops_raw"]["write"]) / dt)
        assert s.read_mbps == pytest.approx((b["throughput_raw"]["read"] - a["throughput_raw"]["read"]) / dt / 1e6)
        d_ops = b["iops_raw"]["read"] - a["iops_raw"]["read"]
        if d_ops:
            lat = (b["latency_raw"]["read"] - a["latency_raw"]["read"]) / d_ops / 1000
            assert s.read_latency_ms == pytest.approx(lat)
        else:
            assert s.read_latency_ms is None  # no read in the interval: no latency, never 0/0
        average, peak = vol.figures("average"), vol.figures("peak")
        assert average is not None and peak is not None
        assert peak.read_iops == pytest.approx(s.read_iops) and average.write_iops == pytest.approx(s.write_iops)
    osc = next(v for v in inv.volumes if v.name == "osc_vol01")
    # the busiest volume, by hand: (422149966 - 421727167) / 141 s
    assert osc.series[0].read_iops == pytest.approx(422799 / 141)
    assert osc.aggregate == "umeng_aff300_aggr2"
    assert next(v for v in inv.volumes if v.name == "RahulTest").aggregate == "test1, umeng_aff300_aggr2"


def test_keyperf_order_of_files_does_not_matter_and_registry_finds_the_reader() -> None:
    forward, backward = read_ontap(KEY1, KEY2), reader("ontap")(KEY2, KEY1)
    assert {v.name: v.series for v in forward.volumes} == {v.name: v.series for v in backward.volumes}


def _shifted_poll(tmp_path: Path, seconds: int, change: dict[str, int], name: str) -> Path:
    """Poll 2 moved ``seconds`` later with osc_vol01's read counter changed by ``change['read']``."""
    data = json.loads(KEY2.read_text())
    when = datetime.fromisoformat(data["records"][0]["statistics"]["timestamp"].replace("Z", "+00:00"))
    stamp = datetime.fromtimestamp(when.timestamp() + seconds, when.tzinfo).strftime("%Y-%m-%dT%H:%M:%SZ")
    for record in data["records"]:
        record["statistics"]["timestamp"] = stamp
        if record["name"] == "osc_vol01":
            record["statistics"]["iops_raw"]["read"] += change.get("read", 0)
    out = tmp_path / name
    out.write_text(json.dumps(data))
    return out


def test_a_counter_going_backwards_is_flagged_never_a_negative_rate(tmp_path: Path) -> None:
    third = _shifted_poll(tmp_path, 141, {"read": -422_000_000}, "poll-3.json")  # a reset after poll 2
    inv = read_ontap(KEY1, KEY2, third)
    osc = next(v for v in inv.volumes if v.name == "osc_vol01")
    assert len(osc.series) == 1 and all(s.read_iops >= 0 for s in osc.series)
    assert [f.column for f in inv.flags] == ["iops_raw.read"]
    assert "backwards" in inv.flags[0].message and inv.flags[0].file == "poll-3.json"
    others = [v for v in inv.volumes if v.name != "osc_vol01"]
    assert all(len(v.series) == 2 for v in others)


def test_two_polls_at_the_same_time_are_flagged(tmp_path: Path) -> None:
    same = _shifted_poll(tmp_path, 0, {"read": 5}, "same.json")
    inv = read_ontap(KEY2, same)
    assert len(inv.flags) == 4 and all("same time" in f.message for f in inv.flags)
    assert all(not v.series and not v.perf for v in inv.volumes)


def _counters(path: Path) -> dict[str, dict[str, float]]:
    out = {}
    for r in json.loads(path.read_text())["records"]:
        name = next(p["value"] for p in r["properties"] if p["name"] == "name")
        out[name] = {c["name"]: c["value"] for c in r["counters"] if isinstance(c.get("value"), int | float)}
    return out


def test_counter_tables_use_the_schema_units_and_base_counters() -> None:
    inv = read_ontap(SCHEMA, ROWS1, ROWS2, interval_s=60.0)
    schema = {c["name"]: c for c in json.loads(SCHEMA.read_text())["counter_schemas"]}
    one, two = _counters(ROWS1), _counters(ROWS2)
    assert sorted(v.name for v in inv.volumes) == sorted(one) == ["harvest", "svm_root"]
    for vol in inv.volumes:
        a, b = one[vol.name], two[vol.name]
        s = vol.series[0]
        assert s.read_iops == pytest.approx((b["total_read_ops"] - a["total_read_ops"]) / 60)
        assert s.other_iops == pytest.approx((b["total_other_ops"] - a["total_other_ops"]) / 60)
        assert schema["bytes_read"]["unit"] == "b_per_sec"
        assert s.read_mbps == pytest.approx((b["bytes_read"] - a["bytes_read"]) / 60 / 1e6)
        base = schema["read_latency"]["denominator"]["name"]
        assert schema["read_latency"]["unit"] == "microsec"
        expected = (b["read_latency"] - a["read_latency"]) / (b[base] - a[base]) / 1000
        assert s.read_latency_ms == pytest.approx(expected)
        assert s.write_latency_ms is None  # no write between the polls
    harvest = next(v for v in inv.volumes if v.name == "harvest")
    assert (harvest.svm, harvest.node, harvest.aggregate) == ("arunima-test", "umeng-aff300-01", "umeng_aff300_aggr2")


def test_counter_tables_without_interval_or_schema_say_so() -> None:
    inv = read_ontap(ROWS1, ROWS2)
    assert len(inv.volumes) == 2 and all(not v.series for v in inv.volumes)
    assert any("no counter schema" in n for n in inv.notes) and any("interval" in n for n in inv.notes)
    with pytest.raises(InventoryError, match="interval"):
        read_ontap(ROWS1, ROWS2, interval_s=0.0)


def test_statistics_show_raw_text_gives_five_luns() -> None:
    inv = read_ontap(LUNS, CATALOGUE)
    text = LUNS.read_text()
    instances = re.findall(r"^Instance: (.+)$", text, re.MULTILINE)
    assert len(inv.volumes) == len(instances) == 5
    assert [v.name for v in inv.volumes] == instances and all(v.kind == "lun" for v in inv.volumes)
    assert [v.svm for v in inv.volumes] == ["osc"] + ["ostack-iscsi-dnd"] * 4
    assert all(not v.series for v in inv.volumes)  # one poll: no rate invented
    assert any("one poll" in n for n in inv.notes)


def _later_lun_poll(seconds: int, grow: dict[str, int]) -> str:
    """The LUN text one minute later, the first LUN's counters in ``grow`` raised (widths kept)."""
    text = LUNS.read_text().replace("End-time: 6/11/2025 18:51:00", f"End-time: 6/11/2025 18:{51 + seconds // 60}:00")
    first, rest = text.split("Object: lun", 2)[1], text.split("Object: lun", 2)[2]
    for counter, add in grow.items():
        def bump(m: re.Match[str], add: int = add) -> str:
            unit = m.group(3) or ""
            value = str(int(m.group(2)) + add) + unit
            return m.group(1) + value.rjust(len(m.group(2) + unit))
        first = re.sub(rf"^( {{4}}{counter}\s+)(\d+)(us|%)?$", bump, first, count=1, flags=re.MULTILINE)
    return text.split("Object: lun")[0] + "Object: lun" + first + "Object: lun" + rest


def test_two_lun_polls_give_rates_with_the_catalogue_bases(tmp_path: Path) -> None:
    later = tmp_path / "lun_later.txt"
    later.write_text(_later_lun_poll(60, {"read_ops": 600, "write_ops": 1200, "read_data": 600 * 8192,
                                          "write_data": 1200 * 4096, "avg_read_latency": 600 * 250,
                                          "avg_write_latency": 1200 * 500}))
    inv = read_ontap(LUNS, later, CATALOGUE)
    assert len(inv.volumes) == 5 and not inv.flags
    first = inv.volumes[0]
    s = first.series[0]
    assert (s.interval_s, s.read_iops, s.write_iops) == (60, 10, 20)
    assert s.read_mbps == pytest.approx(600 * 8192 / 60 / 1e6)
    assert s.read_latency_ms == pytest.approx(0.25) and s.write_latency_ms == pytest.approx(0.5)
    assert all(v.series[0].read_iops == 0 for v in inv.volumes[1:])


def test_lun_counter_reset_is_flagged(tmp_path: Path) -> None:
    later = tmp_path / "lun_reset.txt"
    later.write_text(_later_lun_poll(60, {"read_ops": -3_000_000}))
    inv = read_ontap(LUNS, later)
    assert [f.column for f in inv.flags] == ["read_ops"] and not inv.volumes[0].series


@pytest.mark.parametrize(("content", "words"), [
    ("", "empty"),
    ("{not json", "not valid JSON"),
    ('{"records": []}', "no records"),
    ('{"hello": 1}', "not ONTAP volume statistics"),
    ("just some text\n", "not ONTAP counters"),
])
def test_files_that_are_not_ontap_counters_get_one_message(tmp_path: Path, content: str, words: str) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    with pytest.raises(InventoryError, match=words) as info:
        read_ontap(bad)
    assert str(tmp_path) not in str(info.value) and "bad.json" in str(info.value)


def test_non_finite_or_negative_counters_and_absurd_latency_are_flagged(tmp_path: Path) -> None:
    data = json.loads(KEY2.read_text())
    data["records"][0]["statistics"]["iops_raw"]["read"] = float("nan")  # json writes NaN, Python reads it back
    data["records"][1]["statistics"]["iops_raw"]["write"] = -5
    data["records"][2]["statistics"]["latency_raw"]["write"] += 10**15  # 10^15 us over ~18,000 writes
    nan = tmp_path / "nan.json"
    nan.write_text(json.dumps(data))
    inv = read_ontap(KEY1, nan)
    by_column = {f.column: f for f in inv.flags}
    assert set(by_column) == {"iops_raw.read", "iops_raw.write", "latency_raw.write"}
    assert by_column["iops_raw.read"].refused and "not a number" in by_column["iops_raw.read"].message
    assert "not a measurement" in by_column["latency_raw.write"].message
    assert [v.name for v in inv.volumes if v.series] == ["h_test"]
    deep = tmp_path / "deep.json"
    deep.write_text("{" + '"a":[' * 100_000 + "]" * 100_000 + "}")
    with pytest.raises(InventoryError, match="deep.json"):
        read_ontap(deep)
