"""The installed design's front end from the data (issue 31, item 6) and one workload's calibration series.

* A LUN is block storage; a counter-table volume's per-protocol operation counters name its protocol (counted
  between the polls, or since the counters started when none moved between them); REST volume statistics do not
  say. The installed design takes that protocol and says where it came from.
* ``import-env --calibration-csv CSV --calibration-workload W`` writes one workload's measured load per interval;
  ``calibrate --workload W`` fits against that workload.

Expected figures are recomputed here from the samples' raw JSON counters."""

from __future__ import annotations

import copy
import json
import re
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from app.cli import main
from models.importers.ontap import counter_protocol, read_ontap
from models.importers.workloads import import_environment
from models.installed import data_protocol, group_calibration_points, installed_design
from models.store import default_catalog, load_project_file

ONTAP = next(p / "shared" / "samples" / "ontap" for p in Path(__file__).resolve().parents
             if (p / "shared" / "samples" / "ontap").is_dir())
TABLES = [ONTAP / "harvest-restperf-volume-counters-1.json", ONTAP / "harvest-restperf-volume-poll-1.json",
          ONTAP / "harvest-restperf-volume-poll-2.json"]
LUNS = ONTAP / "harvest-statperf-lun_data.txt"
KEY1 = ONTAP / "harvest-keyperf-volume-poll-1.json"
KEY2 = ONTAP / "harvest-keyperf-volume-poll-2.json"
PREFIX = {"nfs": "NFS", "cifs": "SMB", "fcp": "FCP", "iscsi": "iSCSI"}


def _protocol_ops(record: dict) -> dict[str, float]:
    """Operations per protocol in one counter-table row: every ``<protocol>.<name>_ops`` counter but total_ops."""
    out: dict[str, float] = {}
    for c in record["counters"]:
        head, _, tail = c["name"].partition(".")
        if head in PREFIX and tail.endswith("_ops") and tail != "total_ops" and isinstance(c.get("value"), int):
            out[PREFIX[head]] = out.get(PREFIX[head], 0) + c["value"]
    return out


def test_counter_table_volumes_take_their_protocol_from_their_counters() -> None:
    rows = [json.loads(p.read_text())["records"] for p in TABLES[1:]]
    inv = read_ontap(*TABLES, interval_s=60)
    by_name = {v.name: v for v in inv.volumes}
    for first, last in zip(*rows, strict=True):
        name = next(p["value"] for p in last["properties"] if p["name"] == "name")
        a, b = _protocol_ops(first), _protocol_ops(last)
        moved = {k: b[k] - a[k] for k in b if b[k] > a[k]}
        counts = moved or {k: v for k, v in b.items() if v > 0}
        volume = by_name[name]
        if not counts:
            assert (volume.protocol, volume.protocol_source) == ("", "")
            continue
        top = max(counts, key=counts.__getitem__)
        assert volume.protocol == top
        when = "between the polls" if moved else "since the counters started"
        assert volume.protocol_source == (f"the counter table's per-protocol operations: {top} {counts[top]:,.0f} "
                                          f"of {sum(counts.values()):,.0f} {when}")
    assert sorted(v.protocol for v in inv.volumes) == ["", "NFS"]  # the sample: one NFS volume, one silent


def test_operations_between_the_polls_outweigh_the_counts_since_start() -> None:
    polls = [{"nfs.read_ops": 900.0, "iscsi.read_ops": 10.0, "nfs.total_ops": 5.0},
             {"nfs.read_ops": 900.0, "iscsi.read_ops": 25.0, "nfs.total_ops": 99.0}]
    assert counter_protocol(polls) == ("iSCSI", "the counter table's per-protocol operations: iSCSI 15 of 15 "
                                                "between the polls")
    assert counter_protocol(polls[:1]) == ("NFS", "the counter table's per-protocol operations: NFS 900 of 910 "
                                                  "since the counters started")
    assert counter_protocol([{"nfs.read_ops": float("nan"), "fcp.write_ops": -3.0}]) == ("", "")


def test_luns_are_block_and_rest_volume_statistics_do_not_say() -> None:
    luns = read_ontap(LUNS)
    assert len(luns.volumes) == 5 and {v.protocol for v in luns.volumes} == {"block"}
    assert all("LUN counters" in v.protocol_source for v in luns.volumes)
    assert {v.protocol for v in read_ontap(KEY1, KEY2).volumes} == {""}


def _design(files: list[Path], interval: float | None = None, controller: str = "netapp-aff-a400"):
    from models.importers.workloads import IMPORT_BASE_EXAMPLE
    from models.resources import examples_dir

    base = load_project_file(examples_dir() / f"{IMPORT_BASE_EXAMPLE}.toml").project
    target = next(n.id for n in base.scenario.nodes if n.kind == "controller")
    inv = read_ontap(*files, interval_s=interval)
    result = import_environment([inv], target, keep_names=True,
                                base=base.requirements.with_changes(families=[], protocols=[]))
    project = base.with_scenario(base.scenario.with_changes(workloads=list(result.workloads)))
    return installed_design(project, controller, default_catalog(), groups=result.groups), result


def test_the_installed_design_serves_the_protocol_the_data_shows() -> None:
    design, result = _design(TABLES, 60.0)
    assert ", NFS over " in design.summary
    nfs = next(g for g in result.groups if g.protocol == "NFS")
    assert design.notes[-1] == f"the front end is NFS, as the data shows ({nfs.name}: {nfs.protocol_source})"
    file_workloads = [w for w in design.scenario.workloads if w.nas is not None]
    noun = "volume" if nfs.members == 1 else "volumes"
    assert [w.name for w in file_workloads] == [f"{nfs.name} ({nfs.members} {noun}, measured)"]
    mix = file_workloads[0].nas.op_mix
    assert file_workloads[0].nas.protocol == "NFSv3"
    assert mix["read"] == pytest.approx(nfs.read_pct) and mix["read"] + mix["write"] == pytest.approx(100.0)

    block, result = _design([LUNS])
    assert "block storage, as the data shows" in block.notes[-1] and "LUN counters" in block.notes[-1]
    assert not any(w.nas for w in block.scenario.workloads) and ", NFS over " not in block.summary

    silent, _ = _design([KEY1, KEY2])
    assert silent.notes[-1] == ("the front end is the first the controller and hosts share: the data does not say "
                                "the protocol")


def test_a_named_block_protocol_is_the_front_end() -> None:
    design, result = _design(TABLES, 60.0)
    groups = [g.__class__(**{**g.__dict__, "protocol": "iSCSI" if g.protocol else "",
                             "protocol_source": "test"}) for g in result.groups]
    chosen = data_protocol(groups)
    assert chosen.protocol == "iSCSI" and not chosen.file_groups
    from models.importers.workloads import IMPORT_BASE_EXAMPLE
    from models.resources import examples_dir

    base = load_project_file(examples_dir() / f"{IMPORT_BASE_EXAMPLE}.toml").project
    project = base.with_scenario(base.scenario.with_changes(workloads=list(result.workloads)))
    iscsi = installed_design(project, "netapp-aff-a400", default_catalog(), groups=groups)
    assert ", iSCSI over " in iscsi.summary and iscsi.notes[-1].startswith("the front end is iSCSI")


def _more_polls(tmp_path: Path) -> list[Path]:
    """Polls 3 and 4 after the sample's two, 141 s apart: every counter advances by 2x and 3x the sample's
    differences, latency counters by 3x and 7.5x."""
    p1, p2 = json.loads(KEY1.read_text()), json.loads(KEY2.read_text())
    first = {r["name"]: r["statistics"] for r in p1["records"]}
    second = {r["name"]: r["statistics"] for r in p2["records"]}
    polls, paths = [p2], []
    for k, (scale, lat_scale) in enumerate(((2.0, 3.0), (3.0, 7.5)), start=3):
        poll = copy.deepcopy(polls[-1])
        for record in poll["records"]:
            st, a, b = record["statistics"], first[record["name"]], second[record["name"]]
            when = datetime.fromisoformat(st["timestamp"].replace("Z", "+00:00")) + timedelta(seconds=141)
            st["timestamp"] = when.strftime("%Y-%m-%dT%H:%M:%SZ")
            for group in ("iops_raw", "throughput_raw", "latency_raw"):
                for d in ("read", "write", "other", "total"):
                    st[group][d] += int((b[group][d] - a[group][d]) * (lat_scale if group == "latency_raw" else scale))
        polls.append(poll)
        paths.append(tmp_path / f"poll-{k}.json")
        paths[-1].write_text(json.dumps(poll))
    return paths


def _points_of(volumes: set[str], files: list[Path]) -> list[tuple[float, float]]:
    """(IOPS, latency ms) per interval of ``volumes`` together, from the raw counters."""
    polls = [{r["name"]: r["statistics"] for r in json.loads(p.read_text())["records"]} for p in files]
    out = []
    for a, b in zip(polls, polls[1:], strict=False):
        ops = lat = 0.0
        dt = 0.0
        for name in volumes:
            x, y = a[name], b[name]
            dt = (datetime.fromisoformat(y["timestamp"].replace("Z", "+00:00"))
                  - datetime.fromisoformat(x["timestamp"].replace("Z", "+00:00"))).total_seconds()
            for d in ("read", "write"):
                n = y["iops_raw"][d] - x["iops_raw"][d]
                if n > 0:
                    ops += n
                    lat += y["latency_raw"][d] - x["latency_raw"][d]
        out.append((ops / dt, lat / ops / 1000.0))
    return out


def test_one_workloads_calibration_series_and_its_fit(tmp_path, capsys) -> None:
    files = [KEY1, KEY2, *_more_polls(tmp_path)]
    inv = read_ontap(*files)
    result = import_environment([inv], "c1", group_by="aggregate", keep_names=True)
    groups = {g.name: g for g in result.groups}
    assert set(groups) == {"test1", "umeng_aff300_aggr2"}  # the idle volume on both: no workload (revimp55 #4)
    aggr = {v.name for v in inv.volumes if v.aggregate == "umeng_aff300_aggr2"}
    expected = _points_of(aggr, files)
    got = group_calibration_points(groups["umeng_aff300_aggr2"])
    assert [v for p in got for v in p] == pytest.approx([v for p in expected for v in p])
    index = [g.name for g in result.groups].index("umeng_aff300_aggr2")
    workload_id = result.workloads[index].id
    out, csv_path = tmp_path / "today.toml", tmp_path / "one.csv"
    assert main(["import-env", *map(str, files), "-o", str(out), "--group-by", "aggregate", "--keep-names",
                 "--installed", "netapp-aff-a400", "--calibration-csv", str(csv_path),
                 "--calibration-workload", "umeng_aff300_aggr2"]) == 0
    printed = capsys.readouterr().out
    assert (f"3 measured interval(s) of workload {workload_id} (umeng_aff300_aggr2)" in printed
            and f"--project {out} --workload {workload_id}" in printed)
    rows = csv_path.read_text().splitlines()
    assert rows[0] == "iops,latency_ms"
    assert [float(v) for r in rows[1:] for v in r.split(",")] == pytest.approx([v for p in expected for v in p])
    assert main(["calibrate", "--csv", str(csv_path), "--project", str(out), "--workload", workload_id]) == 0
    fitted = capsys.readouterr().out
    assert fitted.startswith("fitted ") and "3 points of one.csv" in fitted
    assert float(re.search(r"RMS relative residual ([\d.]+)", fitted).group(1)) < 0.25  # type: ignore[union-attr]


def test_calibration_workload_errors_are_one_line(tmp_path, capsys) -> None:
    out = tmp_path / "p.toml"
    assert main(["import-env", str(KEY1), str(KEY2), "-o", str(out), "--calibration-csv", str(tmp_path / "c.csv"),
                 "--calibration-workload", "nope"]) == 2
    err = capsys.readouterr().err
    assert "--calibration-workload nope: no imported workload of that id or name (imported: imported-1 (" in err
    assert main(["import-env", str(KEY1), str(KEY2), "-o", str(out), "--calibration-workload", "imported-1"]) == 2
    assert "--calibration-workload goes with --calibration-csv" in capsys.readouterr().err
    assert main(["import-env", str(KEY1), str(KEY2), "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["calibrate", "--csv", str(tmp_path / "c.csv"), "--project", str(out), "--workload", "x"]) == 2
    assert "--workload x: " in capsys.readouterr().err and not (tmp_path / "c.csv").exists()


def _volume_block(name: str, svm: str, end: str, counters: dict[str, int]) -> str:
    """One ``statistics show -raw -object volume`` instance in the layout of the sample's LUN text."""
    rows = "\n".join(f"    {k:<32} {v:>32}" for k, v in sorted({**counters, "instance_name": name,
                                                                  "vserver_name": svm,
                                                                  "parent_aggr": "aggr1"}.items()))
    return (f"\nObject: volume\nInstance: {name}\nStart-time: {end}\nEnd-time: {end}\nScope: {svm}\n"
            f"    Counter                                                     Value\n"
            f"    -------------------------------- --------------------------------\n{rows}\n")


def test_statistics_text_volumes_take_their_protocol_and_rates(tmp_path) -> None:
    first = {"nfs": {"read_ops": 1000, "write_ops": 500, "read_data": 8_192_000, "write_data": 4_096_000,
                     "read_latency": "200000us", "write_latency": "150000us", "nfs_read_ops": 1000,
                     "nfs_write_ops": 500, "nfs_getattr_ops": 90, "nfs_total_ops": 1590, "cifs_read_ops": 7000},
             "smb": {"read_ops": 10, "write_ops": 10, "read_data": 40_960, "write_data": 40_960,
                     "read_latency": "1000us", "write_latency": "1000us", "cifs_read_ops": 10,
                     "cifs_write_ops": 10}}
    step = {"nfs": {"read_ops": 6000, "write_ops": 3000, "read_data": 49_152_000, "write_data": 24_576_000,
                    "read_latency": 1_800_000, "write_latency": 1_500_000, "nfs_read_ops": 6000,
                    "nfs_write_ops": 3000, "nfs_getattr_ops": 600, "nfs_total_ops": 9600, "cifs_read_ops": 0},
            "smb": {"read_ops": 1200, "write_ops": 600, "read_data": 4_915_200, "write_data": 2_457_600,
                    "read_latency": 600_000, "write_latency": 900_000, "cifs_read_ops": 1200,
                    "cifs_write_ops": 600}}

    def later(vol: str) -> dict[str, object]:
        out: dict[str, object] = {}
        for k, v in first[vol].items():
            base = int(str(v).removesuffix("us"))
            out[k] = f"{base + step[vol][k]}us" if str(v).endswith("us") else base + step[vol][k]
        return out

    text = "".join(_volume_block(f"vol_{v}", "svm1", "6/11/2025 18:50:00", first[v]) for v in first)
    text += "".join(_volume_block(f"vol_{v}", "svm1", "6/11/2025 18:51:00", later(v)) for v in first)
    path = tmp_path / "volume_data.txt"
    path.write_text(text)
    inv = read_ontap(path)
    by_name = {v.name: v for v in inv.volumes}
    assert set(by_name) == {"vol_nfs", "vol_smb"}
    nfs, smb = by_name["vol_nfs"], by_name["vol_smb"]
    assert (nfs.protocol, smb.protocol) == ("NFS", "SMB")
    assert nfs.protocol_source == ("the statistics text's per-protocol operations: NFS 9,600 of 9,600 between the "
                                   "polls")  # nfs_total_ops is not counted twice; cifs did not move
    (sample,) = nfs.series
    assert sample.interval_s == 60.0 and nfs.aggregate == "aggr1" and nfs.svm == "svm1"
    assert (sample.read_iops, sample.write_iops) == pytest.approx((6000 / 60, 3000 / 60))
    assert sample.read_mbps == pytest.approx(49_152_000 / 1e6 / 60)
    assert sample.read_latency_ms == pytest.approx(1_800_000 / 6000 / 1000)
    assert sample.write_latency_ms == pytest.approx(1_500_000 / 3000 / 1000)
    design, result = _design([path])
    (group,) = result.groups
    assert group.protocol == "NFS" and any("several protocols: NFS taken (also SMB (1))" in n for n in group.notes)
    assert ", NFS over " in design.summary and design.notes[-1].startswith("the front end is NFS, as the data shows")


def test_an_smb_volume_is_modelled_as_smb_and_the_note_says_how_the_design_lists_it(tmp_path) -> None:
    first = {"read_ops": 10, "write_ops": 10, "read_data": 40_960, "write_data": 40_960, "read_latency": "1000us",
             "write_latency": "1000us", "cifs_read_ops": 10, "cifs_write_ops": 10}
    second = {**first, "read_ops": 1210, "write_ops": 610, "read_data": 4_956_160, "write_data": 2_498_560,
              "read_latency": "601000us", "write_latency": "901000us", "cifs_read_ops": 1210, "cifs_write_ops": 610}
    path = tmp_path / "smb.txt"
    path.write_text(_volume_block("v", "s", "6/11/2025 18:50:00", first)
                    + _volume_block("v", "s", "6/11/2025 18:51:00", second))
    design, result = _design([path])
    (workload,) = design.scenario.workloads
    assert workload.nas is not None and workload.nas.protocol == "SMB3"
    assert workload.nas.op_mix["read"] == pytest.approx(100 * 1200 / 1800)
    assert design.notes[-1].startswith("the front end is SMB, as the data shows (") and design.notes[-1].endswith(
        "SMB 1,800 of 1,800 between the polls); the design's file front end is listed as NFS, its file workloads "
        "are modelled as SMB 3")
