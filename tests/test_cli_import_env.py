"""``storplan import-env``: the ONTAP keyperf polls become a project whose workloads carry the peak of sums
computed here from the raw JSON, and ``storplan size`` runs on it with those IOPS as its requirement."""

from __future__ import annotations

import json
import tomllib
from datetime import datetime
from pathlib import Path

import pytest

from app.cli import main
from models.store import load_project_file

SAMPLES = next(p / "shared" / "samples" / "ontap" for p in Path(__file__).resolve().parents
               if (p / "shared" / "samples" / "ontap").is_dir())
POLLS = [SAMPLES / "harvest-keyperf-volume-poll-1.json", SAMPLES / "harvest-keyperf-volume-poll-2.json"]


def _peak_of_sums() -> tuple[float, float]:
    """Read + write IOPS of all volumes over the one interval between the two polls, and its read share (%)."""
    polls = [{r["name"]: r["statistics"] for r in json.loads(p.read_text())["records"]} for p in POLLS]
    a, b = polls
    reads = writes = 0.0
    for name, stats in b.items():
        dt = (datetime.fromisoformat(stats["timestamp"].replace("Z", "+00:00"))
              - datetime.fromisoformat(a[name]["timestamp"].replace("Z", "+00:00"))).total_seconds()
        reads += (stats["iops_raw"]["read"] - a[name]["iops_raw"]["read"]) / dt
        writes += (stats["iops_raw"]["write"] - a[name]["iops_raw"]["write"]) / dt
    return reads + writes, 100 * reads / (reads + writes)


def test_import_env_of_ontap_polls_then_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "env.storplan"
    assert main(["import-env", *map(str, POLLS), "-o", str(out), "--source", "ontap"]) == 0
    printed = capsys.readouterr()
    assert "wrote" in printed.out and printed.err == ""
    project = load_project_file(out).project
    iops, read_pct = _peak_of_sums()
    enabled = [w for w in project.scenario.workloads if w.enabled]
    assert len(enabled) == 1 and enabled[0].target_iops == pytest.approx(iops)
    assert enabled[0].read_pct == pytest.approx(read_pct, abs=1e-4)
    assert enabled[0].name.startswith("svm-") and "osc" not in enabled[0].name
    controllers = {n.id for n in project.scenario.nodes if n.kind == "controller"}
    assert enabled[0].target in controllers
    assert project.info.name == "Imported environment" and str(SAMPLES) not in project.info.description
    assert project.requirements.effective_capacity_bytes == 0  # the volume statistics give no capacity
    assert project.requirements.families == [] and project.requirements.protocols == []
    assert f"{iops:,.0f} IOPS" in project.info.description

    assert main(["size", str(out), "--json", "--top", "2"]) == 0
    sized = json.loads(capsys.readouterr().out)
    assert sized["candidates"]
    for candidate in sized["candidates"]:
        workloads = tomllib.loads(candidate["project"])["workload"]
        assert sum(w.get("target_iops", 0) for w in workloads if w.get("enabled", True)) == pytest.approx(iops)


def test_keep_names_and_toml_output(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "env.toml"
    assert main(["import-env", *map(str, POLLS), "-o", str(out), "--source", "ontap", "--keep-names"]) == 0
    text = out.read_text()
    assert 'name = "osc (4 volumes, measured)"' in text and str(tmp_path) not in text and "poll-1" not in text
    iops, read_pct = _peak_of_sums()
    assert capsys.readouterr().out.startswith(f"osc (4): {iops:,.0f} IOPS, {read_pct:.0f}% read")
    by_aggr = tmp_path / "aggr.storplan"
    assert main(["import-env", *map(str, POLLS), "-o", str(by_aggr), "--source", "ontap", "--group-by", "aggregate",
                 "--keep-names"]) == 0
    workloads = load_project_file(by_aggr).project.scenario.workloads
    # the volume spread over both aggregates gives neither capacity nor I/O: no workload of nothing (review
    # revimp55 item 4), a note names it
    assert sorted((w.name.split(" (")[0].split(":")[0], w.enabled) for w in workloads) == [
        ("test1", True), ("umeng_aff300_aggr2", True)]
    assert not any(w.capacity_only for w in workloads)
    assert "1 member(s) with neither capacity nor performance figures in the files are left out (test1, " \
           "umeng_aff300_aggr2)" in capsys.readouterr().out


def test_refused_rows_are_summarised_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = []
    for i, poll in enumerate(POLLS):
        data = json.loads(poll.read_text())
        del data["records"][3]["statistics"]  # h_test has no statistics in either poll
        broken.append(tmp_path / f"p{i}.json")
        broken[-1].write_text(json.dumps(data))
    assert main(["import-env", *map(str, broken), "-o", str(tmp_path / "x.storplan"), "--source", "ontap"]) == 0
    err = capsys.readouterr().err
    assert err.startswith("2 value(s) in 2 row(s) (the rest of each row kept) refused; first: p0.json records row 4 "
                          "column 'statistics': volume h_test: no statistics")


@pytest.mark.parametrize(("make", "words"), [
    (lambda d: d / "missing.json", "missing.json: no such file"),
    (lambda d: (d / "bad.json").write_text("{oops") and d / "bad.json", "bad.json: line 1, column 2: not valid JSON"),
])
def test_bad_input_is_one_line_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], make, words: str) -> None:
    path = make(tmp_path)
    assert main(["import-env", str(path), "-o", str(tmp_path / "x.storplan"), "--source", "ontap"]) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"storplan: {words}") and err.count("\n") == 1 and "Traceback" not in err
    assert not (tmp_path / "x.storplan").exists()


def test_output_must_be_a_project_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["import-env", str(POLLS[0]), "-o", str(tmp_path / "x.txt"), "--source", "ontap"]) == 2
    assert capsys.readouterr().err == "storplan: -o x.txt: the project must be a .storplan or .toml file\n"


def test_import_env_of_live_optics_then_size(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 31: the Live Optics sample through ``import-env --stat peak`` and ``size``: the workloads' IOPS are the
    sum of the VMs' own "Peak IOPS" (their coincident read + write peak, not Peak Read IOPS + Peak Write IOPS) with
    each VM's reads its "Avg Read/Write Ratio" share moved into [Peak - Peak Write IOPS, Peak Read IOPS] (review 55
    item 1), and the capacity requirement their used virtual disk space (MiB: the file's "(MB)" columns hold binary
    mebibytes), all computed here from the workbook with openpyxl."""
    import openpyxl

    workbook = SAMPLES.parent / "liveoptics" / "LiveOptics_file.xlsx"
    book = openpyxl.load_workbook(workbook, read_only=True)
    perf = list(book["VM Performance"].iter_rows(values_only=True))
    head = perf[0]
    iops = sum(row[head.index("Peak IOPS")] for row in perf[1:])
    reads = sum(min(max(row[head.index("Peak IOPS")] * float(row[head.index("Avg Read/Write Ratio")].split("%")[0])
                        / 100, row[head.index("Peak IOPS")] - row[head.index("Peak Write IOPS")]),
                    row[head.index("Peak Read IOPS")]) for row in perf[1:])
    vms = list(book["VMs"].iter_rows(values_only=True))
    used = sum(row[vms[0].index("Virtual Disk Used (MB)")] for row in vms[1:]) * 2**20
    book.close()

    out = tmp_path / "env.storplan"
    assert main(["import-env", str(workbook), "-o", str(out), "--stat", "peak"]) == 0
    capsys.readouterr()
    project = load_project_file(out).project
    enabled = [w for w in project.scenario.workloads if w.enabled]
    assert enabled and sum(w.target_iops for w in enabled) == pytest.approx(iops)
    assert sum(w.target_iops * w.read_pct / 100 for w in enabled) == pytest.approx(reads)
    assert project.requirements.effective_capacity_bytes == pytest.approx(used, rel=1e-9)
    assert "hospital" not in out.read_bytes().decode("latin-1")  # machine and host names are pseudonymised

    assert main(["size", str(out), "--json", "--top", "3"]) == 0
    sized = json.loads(capsys.readouterr().out)
    assert sized["candidates"] and sized["needed_effective_bytes"] == pytest.approx(used, rel=1e-9)
    for candidate in sized["candidates"]:
        workloads = tomllib.loads(candidate["project"])["workload"]
        assert sum(w.get("target_iops", 0) for w in workloads if w.get("enabled", True)) == pytest.approx(iops)


def _sheet(path: Path, name: str) -> list[dict]:
    """A sample sheet's data rows keyed by its header, read with openpyxl."""
    import openpyxl

    book = openpyxl.load_workbook(path, read_only=True)
    rows = list(book[name].iter_rows(values_only=True))
    book.close()
    return [dict(zip(rows[0], r, strict=False)) for r in rows[1:] if any(c is not None for c in r)]


def _imported(tmp_path: Path, capsys: pytest.CaptureFixture[str], *args: str):
    out = tmp_path / "env.toml"
    assert main(["import-env", *args, "-o", str(out)]) == 0
    capsys.readouterr()
    assert main(["evaluate", str(out)]) == 0
    return load_project_file(out).project, out.read_text(), capsys.readouterr().out


def test_vmware_import_gets_esxi_hosts_over_fcp_today_and_says_where_its_numbers_came_from(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 items 4, 6, 18: an imported Live Optics project has ESXi hosts (as many as the VMs sheet names)
    over FCP, not the Oracle example's NVMe/TCP hosts; today's created date; a description naming the tool, the
    file's Details date, the method and the assumptions, with no internal id or menu path."""
    from datetime import UTC

    workbook = SAMPLES.parent / "liveoptics" / "LiveOptics_file.xlsx"
    project, text, evaluated = _imported(tmp_path, capsys, str(workbook))
    hosts = [n for n in project.scenario.nodes if n.kind == "host"]
    named = {r["Host"] for r in _sheet(workbook, "VMs")}
    assert len(hosts) == 1 and hosts[0].count == len(named) == len(_sheet(workbook, "ESX Hosts")) == 5
    # the hosts have only Ethernet NICs (sheet Host Network Adapters: 10/25GbE, no FC): an Ethernet front end
    # (review revimp55 item 12)
    nics = _sheet(workbook, "Host Network Adapters")
    assert nics and not any("fibre" in str(r).lower() or "hba" in str(r).lower() for r in nics)
    assert "ESXi" in hosts[0].label and "iSCSI" in hosts[0].label and "FCP" not in hosts[0].label
    links = [link for link in project.scenario.links if link.source == hosts[0].id]
    assert links and all(link.link_type == "iscsi-25g" for link in links)
    assert "Oracle" not in text and "nvme-tcp" not in text and "NVMe/TCP" not in hosts[0].label
    assert evaluated.count("(iSCSI)") == len(project.scenario.workloads) == 2
    assert project.info.created[:10] == datetime.now(UTC).date().isoformat()
    import openpyxl

    book = openpyxl.load_workbook(workbook, read_only=True)
    date = next(r[1] for r in book["Details"].iter_rows(values_only=True) if r[0] == "Date")
    book.close()
    description = project.info.description
    for words in ("Live Optics (Optical Prime)", f"collected {date}", "sum of per-machine peak",
                  "100% random I/O assumed", "average mix", "starting point", "vmware-vsphere-datastores-top"):
        assert words in description, words
    assert "(liveoptics)" not in description and "Scenario >" not in description and workbook.name not in description


def test_ontap_imports_get_the_protocol_their_counters_show(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 4: restperf counters showing NFS operations give NFS hosts and file workloads over an
    Ethernet link; statperf LUN counters (block, no protocol named) give FCP, said to be assumed."""
    rest = [SAMPLES / f"harvest-restperf-volume-{n}.json" for n in ("counters-1", "poll-1", "poll-2")]
    project, _, evaluated = _imported(tmp_path, capsys, *map(str, rest), "--interval", "60")
    host = next(n for n in project.scenario.nodes if n.kind == "host")
    assert "NFS" in host.label and "Oracle" not in host.label
    assert {link.link_type for link in project.scenario.links if link.source == host.id} == {"iscsi-25g"}
    assert any(w.nas is not None and w.nas.protocol == "NFSv3" for w in project.scenario.workloads)
    assert "front end is NFS, as the data shows" in project.info.description
    # the statperf LUN sample is one poll: no rate and no capacity, so nothing is written (review 55); its starting
    # design from the reader's result is checked in tests/test_import_protocol.py
    lun = [SAMPLES / "harvest-statperf-lun_data.txt", SAMPLES / "harvest-statperf-lun_counters.txt"]
    assert main(["import-env", *map(str, lun), "-o", str(tmp_path / "lun.toml")]) == 2
    assert "nothing measured" in capsys.readouterr().err


def test_azure_migrate_sql_instance_io_is_said_to_be_unused(tmp_path: Path,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 10: sheet SQL_All_Instances' disk read / write operations are not silently dropped: a note
    gives how many instances and operations (counted here with openpyxl) and why they are not used."""
    workbook = SAMPLES.parent / "azure-migrate" / "AzureMigrate_Assessment_Core_Report.xlsx"
    rows = _sheet(workbook, "SQL_All_Instances")
    reads = sum(r["Disk Read (in OPS)"] for r in rows)
    writes = sum(r["Disk Write (in OPS)"] for r in rows)
    out = tmp_path / "az.toml"
    assert main(["import-env", str(workbook), "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    note = next(line for line in printed.splitlines() if "SQL_All_Instances" in line)
    assert f"{len(rows):,} SQL Server instance(s) on {len({r['Machine Name'] for r in rows})} machine(s)" in note
    assert f"{reads:,.0f} read and {writes:,.0f} write operations per second" in note and "not used" in note
    host = next(n for n in load_project_file(out).project.scenario.nodes if n.kind == "host")
    assert "Azure Migrate" in host.label and "Oracle" not in host.label


def test_a_trickle_of_io_is_printed_with_its_digits_and_headroom_capped(tmp_path: Path,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 17: restperf polls 60 s apart carry well under one read or write per second per volume: each
    group's IOPS is printed with two significant digits (never "0 IOPS" beside a total of "1 IOPS"), the groups add
    up to the total printed, and ``size`` says "over 1,000x the target" instead of six-digit multiples."""
    import re

    rest = [SAMPLES / f"harvest-restperf-volume-{n}.json" for n in ("counters-1", "poll-1", "poll-2")]
    out = tmp_path / "r.toml"
    assert main(["import-env", *map(str, rest), "--interval", "60", "-o", str(out)]) == 0
    printed = capsys.readouterr().out
    groups = [float(x) for x in re.findall(r"^\S+ \(\d+\): ([\d.,]+) IOPS", printed, re.MULTILINE)]
    total = float(re.search(r"workload\(s\), ([\d.,]+) IOPS", printed).group(1))
    workloads = load_project_file(out).project.scenario.workloads
    assert len(groups) == 2 and all(0 < g < 1 for g in groups) and "(1): 0 IOPS" not in printed
    assert groups == pytest.approx([float(f"{w.target_iops:.2g}") for w in workloads])
    assert sum(groups) == pytest.approx(total, abs=0.05)
    assert main(["size", str(out), "--top", "5"]) == 0
    sized = capsys.readouterr().out
    assert "headroom over 1,000x the target" in sized and not re.search(r"headroom [\d,]{6,}x", sized)


def test_the_workbook_of_an_import_says_where_its_numbers_came_from(tmp_path: Path,
                                                                    capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 6: export-xlsx of an imported project has a Workloads sheet with each workload as put in
    (compared with the project file read with tomllib) and the description (tool, date, method) in its Summary."""
    import openpyxl

    workbook = SAMPLES.parent / "liveoptics" / "LiveOptics_file.xlsx"
    out, xlsx = tmp_path / "lo.toml", tmp_path / "lo.xlsx"
    assert main(["import-env", str(workbook), "-o", str(out)]) == 0
    assert main(["export-xlsx", str(out), "-o", str(xlsx)]) == 0
    capsys.readouterr()
    saved = tomllib.loads(out.read_text())
    book = openpyxl.load_workbook(xlsx)
    rows = list(book["Workloads"].iter_rows(values_only=True))
    head = rows[0]
    assert head[8] == "Data set (TiB)"
    got = {r[0]: dict(zip(head, r, strict=True)) for r in rows[1:]}
    assert len(got) == len(saved["workload"]) == 2
    for w in saved["workload"]:
        row = got[w["name"]]
        assert row["Target IOPS"] == pytest.approx(w["target_iops"])
        assert row["Read %"] == pytest.approx(w["read_pct"], abs=1e-4)
        assert row["I/O size (KiB)"] == pytest.approx(w["block_kib"], abs=1e-4)
        assert row["Random %"] == 100 and row["Evaluated"] is True
        assert row["Data set (TiB)"] == pytest.approx(w["dataset_bytes"] / 2**40, abs=1e-4)
    summary = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
    assert summary["Description"] == saved["project"]["description"]
    assert "Live Optics (Optical Prime)" in summary["Description"] and "collected 2022/11/14" in summary["Description"]


def test_a_small_imported_capacity_is_stated_in_the_projects_unit(tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 15: the kubev2v RVTools import needs 0.38 TiB: the verdict says "required 0.38 TiB" beside
    the design's TiB, not "386.36 GiB" (its used MiB summed here with openpyxl: vInfo's In Use, and for vm-9, whose
    cell is empty, its vPartition Consumed: review 55 item 5)."""
    import openpyxl

    from models.evaluate import evaluate
    from models.present.verdicts import verdicts

    workbook = SAMPLES.parent / "rvtools" / "kubev2v-example1.xlsx"
    book = openpyxl.load_workbook(workbook, read_only=True)
    rows = list(book["vInfo"].iter_rows(values_only=True))
    parts = list(book["vPartition"].iter_rows(values_only=True))
    book.close()
    consumed = sum(r[parts[0].index("Consumed MiB")] for r in parts[1:] if r[0] == "vm-9")
    used = (sum(r[rows[0].index("In Use MiB")] or 0 for r in rows[1:] if r[0]) + consumed) * 2**20
    out = tmp_path / "k.toml"
    assert main(["import-env", str(workbook), "-o", str(out)]) == 0
    capsys.readouterr()
    project = load_project_file(out).project
    assert project.requirements.effective_capacity_bytes == used
    texts = [v.text for v in verdicts(evaluate(project), project.settings.capacity_unit, project.requirements)]
    line = next(t for t in texts if "reaches the required" in t)
    assert line.endswith(f"reaches the required {used / 2**40:.2f} TiB") and "GiB" not in line, line


def test_the_report_gives_each_imported_workloads_mix_and_data(tmp_path: Path,
                                                              capsys: pytest.CaptureFixture[str]) -> None:
    """Review 53 item 6: the PDF's performance section gives what each imported workload put in: its read share
    (each cluster's reads at its machines' Peak IOPS, the Avg Read/Write Ratio point moved into [Peak - Peak Write
    IOPS, Peak Read IOPS] (review 55 item 1), over its Peak IOPS, from the workbook with openpyxl), the
    assumed random share and its data set; the cover names the tool and the file's date."""
    import io

    from pypdf import PdfReader

    from app.report import render_report_bytes

    workbook = SAMPLES.parent / "liveoptics" / "LiveOptics_file.xlsx"
    perf = _sheet(workbook, "VM Performance")
    reads: dict[str, float] = {}
    totals: dict[str, float] = {}
    for r in perf:
        share = float(r["Avg Read/Write Ratio"].split("%")[0]) / 100
        bounded = min(max(r["Peak IOPS"] * share, r["Peak IOPS"] - r["Peak Write IOPS"]), r["Peak Read IOPS"])
        reads[r["Cluster"]] = reads.get(r["Cluster"], 0.0) + bounded
        totals[r["Cluster"]] = totals.get(r["Cluster"], 0.0) + r["Peak IOPS"]
    out = tmp_path / "lo.toml"
    assert main(["import-env", str(workbook), "-o", str(out)]) == 0
    capsys.readouterr()
    text = " ".join(" ".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(
        render_report_bytes(load_project_file(out).project))).pages).split())
    for cluster, total in totals.items():
        assert f"I/O mix {round(100 * reads[cluster] / total, 1):g}% read, 100% random" in text, cluster
    assert "Live Optics (Optical Prime) export, collected 2022/11/14" in text and "(liveoptics)" not in text
    assert "Scenario >" not in text.split("Customer")[0]  # no menu path on the cover
