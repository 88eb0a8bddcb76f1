"""Replication relationships: the bundled SnapMirror example worked out by hand, the refusals, the file round trip."""

from __future__ import annotations

import math

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from models.design import resolve
from models.evaluate import evaluate, with_layouts
from models.project import Replication, Scenario, dumps, load, loads
from models.replication import evaluate_protection
from models.replication.endpoints import endpoint_problem
from models.replication.figures import peak_window_share, workload_change
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.store import load_project_file, save_project
from models.topology import link_problem

EXAMPLE = examples_dir() / "aff-a70-snapmirror-cvo-dr.toml"


def _evaluated(project):
    design = with_layouts(resolve(project))
    return design, evaluate(project, design=design)


def test_example_matches_the_hand_calculation():
    """The worked example (resources/examples/aff-a70-snapmirror-cvo-dr.toml):

    * workload "oltp": 8 TB data set, compression 2:1 (dedupe 1) -> 4 TB on disk and on the wire (SnapMirror keeps
      storage efficiency in transfer: ONTAP REST API reference, "Start a SnapMirror transfer operation",
      storage_efficiency_enabled defaults to true);
    * change 400 GB/day stated, hourly weights 2 for 08:00-18:00 (10 h) and 1 otherwise (14 h): total 34;
      the worst hour holds 2/34 of a day; sent per day 400 / 2 = 200 GB;
    * schedule hourly: largest transfer 200e9 x 2/34 = 11.7647 GB;
    * link 1,000 Mbit/s x 50 % = 500 Mbit/s = 62.5 MB/s; transfer 11.7647e9 / 62.5e6 = 188.24 s;
    * RPO achieved = 60 min + 188.24 s = 63.14 min <= 90 min required (met);
    * bandwidth for the RPO: 11.7647e9 B over (90 - 60) min = 6.536 MB/s = 52.29 Mbit/s, at a 50 % share
      104.58 Mbit/s of link (keeping up needs 11.7647e9 / 3600 s = 26.1 Mbit/s: less);
    * baseline 4e12 / 62.5e6 = 64,000 s (17.8 h);
    * destination: 4e12 baseline + one transfer held 11.7647e9 = 4.01176e12 bytes.
    """
    design, evaluation = _evaluated(load(EXAMPLE))
    assert evaluation.protection is not None
    (f,) = evaluation.protection.relationships
    transfer = 200e9 * 2 / 34
    assert f.change_bytes_per_day == 400e9 and f.sent_bytes_per_day == 200e9
    assert f.transfer_bytes == pytest.approx(transfer, rel=1e-12)
    assert f.available_bytes_per_s == pytest.approx(62.5e6)
    assert f.transfer_seconds == pytest.approx(transfer / 62.5e6)
    assert f.transfer_seconds == pytest.approx(188.235, abs=1e-3)
    assert f.rpo_achieved_minutes == pytest.approx(60 + 188.235294 / 60, abs=1e-6)
    assert f.rpo_met is True
    assert f.bandwidth_needed_mbit_s == pytest.approx(transfer / 1800 * 8 / 1e6 / 0.5, rel=1e-12)
    assert f.bandwidth_needed_mbit_s == pytest.approx(104.575, abs=1e-3)
    assert f.baseline_seconds == pytest.approx(64_000.0)
    assert f.destination_needed_bytes == pytest.approx(4e12 + transfer)
    cvo = evaluation.capacity.system("cvo-dr")
    assert f.destination_free_bytes == pytest.approx(cvo.usable_bytes)  # it serves no workload of its own
    assert f.destination_fits is (f.destination_needed_bytes <= f.destination_free_bytes)
    # runway: 4e12 x 1.3^(m/12) + the held transfer exceeds the free capacity first in month m
    free = f.destination_free_bytes
    month = next(m for m in range(1, 241) if 4e12 * 1.3 ** (m / 12) + transfer > free)
    assert f.runway_months == month
    # the DR system's own capacity holds what replication puts on it: the same copies, the same month
    assert evaluation.capacity.is_replica_only("cvo-dr")
    assert cvo.physical_used_bytes == pytest.approx(4e12 + transfer, rel=1e-12)
    assert cvo.logical_used_bytes == pytest.approx(8e12 + 2 * transfer, rel=1e-12)  # before the 2:1 reduction
    assert cvo.efficiency_ratio == pytest.approx((8e12 + 2 * transfer) / (4e12 + transfer), rel=1e-12)
    assert cvo.months_until_full == month == 18
    assert evaluation.capacity.total.physical_used_bytes == pytest.approx(
        evaluation.capacity.system("a70").physical_used_bytes)  # the copy stays out of the totals
    data = evaluation_to_dict(evaluation)
    (row,) = data["replication"]
    assert row["rpo_achieved_minutes"] == pytest.approx(63.137, abs=1e-3) and row["rpo_met"] is True
    assert row["available_mbit_s"] == pytest.approx(500.0)
    assert row["link_mbit_s"] == 1000.0 and row["replication_share_pct"] == 50.0
    assert row["bandwidth_needed_of_share_mbit_s"] == pytest.approx(transfer / 1800 * 8 / 1e6, rel=1e-12)
    assert {e["role"] for e in row["transfer_load"]} == {"source", "destination"}
    assert all(e["rate_mbps"] == pytest.approx(62.5) for e in row["transfer_load"])


def test_snapvault_retention_adds_each_kept_day_with_efficiency_kept():
    project = load(EXAMPLE)
    rep = project.scenario.replications[0].with_changes(kind="snapvault", retention_days=30)
    scenario = project.scenario.model_copy(update={"replications": [rep]})
    design = with_layouts(resolve(project.with_scenario(scenario)))
    (f,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    assert f.destination_needed_bytes == pytest.approx(4e12 + 200e9 * 2 / 34 + 30 * 200e9)


def test_missed_rpo_names_the_bandwidth_and_a_too_long_schedule_none():
    project = load(EXAMPLE)
    rep = project.scenario.replications[0]
    # 62 min: 11.76e9 B in 2 min needs 98e6 B/s, under the 20 ms round trip's window limit (2 MiB / 0.02 s =
    # 104.9e6 B/s); 61 min would need 196e6 B/s, above it (no link meets it: see the round-trip test)
    slow = rep.with_changes(bandwidth_mbit_s=100.0, rpo_minutes=62.0)
    design = with_layouts(resolve(project.with_scenario(project.scenario.model_copy(update={"replications": [slow]}))))
    (f,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    transfer = 200e9 * 2 / 34
    assert f.transfer_seconds == pytest.approx(transfer / 6.25e6)  # 1,882 s, under the hour: keeps up
    assert f.rpo_met is False
    assert f.bandwidth_needed_mbit_s == pytest.approx(transfer / 120 * 8 / 1e6 / 0.5)
    assert "misses the 62 min required" in f.text and f"{f.bandwidth_needed_mbit_s:,.0f} Mbit/s" in f.text
    short = rep.with_changes(rpo_minutes=45.0)
    design = with_layouts(resolve(project.with_scenario(project.scenario.model_copy(update={"replications": [short]}))))
    (g,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    assert math.isinf(g.bandwidth_needed_mbit_s) and "shorten the schedule" in g.text


def test_peak_window_share():
    assert peak_window_share([], 1.0) == pytest.approx(1 / 24)
    assert peak_window_share([], 0.25) == pytest.approx(0.25 / 24)
    profile = [0.0] * 24
    profile[9] = 3.0
    profile[10] = 1.0
    assert peak_window_share(profile, 1.0) == pytest.approx(0.75)  # the 09:00 hour alone
    assert peak_window_share(profile, 1.5) == pytest.approx(0.875)  # 09:00-10:30
    assert peak_window_share(profile, 30.0) == pytest.approx(2.0)  # a day and six hours holds both peaks
    assert peak_window_share([], 48.0) == pytest.approx(2.0)


def test_default_change_rate_is_writes_times_the_unique_share_and_says_so():
    workload = load(EXAMPLE).scenario.workload("oltp")
    change = workload_change(workload, None, overwrite_pct=90.0)
    writes = 250_000 * 0.25 * 8 * 1024  # target IOPS x write share x 8 KiB
    assert change.write_bytes_per_s == writes
    assert change.bytes_per_day == pytest.approx(writes * 86_400 * 0.1)
    assert change.is_default and change.basis.startswith("default:")


def test_ends_that_cannot_replicate_are_refused_naming_why():
    base = load(EXAMPLE)
    design = resolve(base)
    scenario, catalog = design.scenario, design.catalog
    assert endpoint_problem(scenario, catalog, "a70", "cvo-dr") is None
    reason = endpoint_problem(scenario, catalog, "a70", "cvo-dr", "active-sync")
    assert reason is not None and "AFF and ASA" in reason and "Cloud Volumes ONTAP DR" in reason
    anf = load(examples_dir() / "anf-premium-oracle-nfs.toml").scenario
    anf_node = next(n for n in anf.nodes if n.kind == "managed_service")
    with_anf = scenario.model_copy(update={"nodes": [*scenario.nodes, anf_node]})
    reason = endpoint_problem(with_anf, catalog, "a70", anf_node.id)
    assert reason is not None and "Azure NetApp Files" in reason and "migrate" in reason
    vsan = load(examples_dir() / "vsan-sqlserver-raid1.toml").scenario
    cluster = next(n for n in vsan.nodes if n.kind == "hci_cluster")
    with_vsan = scenario.model_copy(update={"nodes": [*scenario.nodes, cluster]})
    reason = endpoint_problem(with_vsan, resolve(load(examples_dir() / "vsan-sqlserver-raid1.toml")).catalog,
                              cluster.id, "a70")
    assert reason is not None and "vSAN cluster" in reason
    # the evaluation reports a refused relationship as an error and computes nothing for it
    bad = base.scenario.replications[0].with_changes(kind="active-sync")
    project = base.with_scenario(base.scenario.model_copy(update={"replications": [bad]}))
    _design, evaluation = _evaluated(project)
    assert evaluation.protection is not None and evaluation.protection.relationships == ()
    assert any(p.severity == "error" and "AFF and ASA" in p.message for p in evaluation.problems)


def test_a_host_link_between_an_array_and_a_cloud_vm_is_refused_with_a_clear_message():
    design = resolve(load(EXAMPLE))
    reason = link_problem(design.scenario, design.catalog, "a70", "cvo-dr", "iscsi-25g")
    assert reason is not None
    assert "not a controller to a cloud VM" in reason and "replication link" in reason


def test_relationships_survive_the_text_form_and_the_project_file(tmp_path):
    project = load(EXAMPLE)
    assert loads(dumps(project)) == project
    path = save_project(project, tmp_path / "dr.storplan")
    assert load_project_file(path).project.scenario.replications == project.scenario.replications
    with pytest.raises(ValueError, match="cannot protect a system to itself"):
        Replication(id="r", source="a", target="a")
    with pytest.raises(ValueError, match="replication id 'r' is used twice"):
        Scenario(name="s", replications=[Replication(id="r", source="a", target="b"),
                                         Replication(id="r", source="a", target="c")])


def test_size_on_the_example_proposes_a_destination_that_meets_the_rpo(capsys):
    """`storplan size` proposes, beside the primary's candidates, the CVO destination's disk count (the fewest whose
    free capacity holds the 36-month grown copies: 4e12 x 1.3^3 + one transfer) and a link that meets the RPO."""
    import json

    from app.cli import main

    assert main(["size", str(EXAMPLE), "--top", "1", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    (proposal,) = data["destinations"]
    # the candidate keeps its DR: the relationship now protects the proposed array, to the same destination
    candidate = loads(data["candidates"][0]["project"])
    (carried,) = candidate.scenario.replications
    served = candidate.scenario.workload("oltp").target
    assert (carried.source, carried.target) == (served, "cvo-dr") and served != "a70"
    assert [p.message for p in evaluate(candidate).problems if p.severity == "error"] == []
    grown = 4e12 * 1.3 ** 3 + 200e9 * 2 / 34
    assert proposal["needed_bytes"] == pytest.approx(grown)
    assert proposal["meets"] is True and proposal["rpo_met"] is True
    assert proposal["rpo_achieved_minutes"] <= 90.0
    assert proposal["free_bytes"] >= grown
    # one disk fewer would not hold the grown copies: the proposal is the smallest that does
    from models.replication.sizing import _free_bytes, _with_node

    design = resolve(load(EXAMPLE))
    fewer = _with_node(design.scenario, "cvo-dr", disk_count=proposal["disk_count"] - 1)
    assert _free_bytes(fewer, design.catalog, "cvo-dr") < grown


def test_the_destination_proposal_gives_its_capacity_in_the_projects_unit():
    """The Recommendation's "Replication destination" sentence names the grown copies in the project's unit (the
    review found "8.80 TB" in a TiB report): the same bytes, 8.80e12, as 8.00 TiB with unit TiB, as 8.80 TB with
    TB; the sizer passes the project's setting."""
    import re

    from models.replication.sizing import propose_destination
    from models.sizing import size

    project = load(EXAMPLE)
    design = resolve(project)
    rep = design.scenario.replications[0]
    binary = propose_destination(design.scenario, design.catalog, rep, 36, unit="TiB")
    decimal = propose_destination(design.scenario, design.catalog, rep, 36, unit="TB")
    assert binary.needed_bytes == decimal.needed_bytes
    assert binary.text.endswith(f"copies grown over 36 months {binary.needed_bytes / 2**40:,.2f} TiB.")
    assert decimal.text.endswith(f"copies grown over 36 months {decimal.needed_bytes / 1e12:,.2f} TB.")
    assert not re.search(r"\d (TB|GB)\b", binary.text)
    assert project.settings.capacity_unit == "TiB"
    (proposed,) = size(project, top=1).destinations
    assert proposed.text.endswith(" TiB.") and not re.search(r"\d (TB|GB)\b", proposed.text)


def test_a_slow_link_gets_a_faster_one_proposed_and_a_short_rpo_a_shorter_schedule():
    from models.replication.sizing import propose_destination

    project = load(EXAMPLE)
    design = resolve(project)
    rep = design.scenario.replications[0].with_changes(bandwidth_mbit_s=50.0, rpo_minutes=30.0)
    proposal = propose_destination(design.scenario, design.catalog, rep, 36)
    assert proposal is not None and proposal.schedule_minutes == 15.0  # the longest usual schedule under 30 min
    assert proposal.rpo_met is True and proposal.rpo_achieved_minutes <= 30.0
    # 15-minute window at the peak hour: 200e9 x (2/34) / 4 = 2.94 GB in (30 - 15) min, at a 50 % share of the
    # link: 52.3 Mbit/s, more than the 50 Mbit/s link: the next usual step, 100 Mbit/s
    need = 200e9 * 2 / 34 / 4 / 900 * 8 / 1e6 / 0.5
    assert need == pytest.approx(52.29, abs=0.01)
    assert proposal.bandwidth_mbit_s == 100.0
    assert proposal.rpo_achieved_minutes == pytest.approx(15 + 200e9 * 2 / 34 / 4 / 6.25e6 / 60)


def test_protection_section_in_the_workbook_and_the_pdf(tmp_path):
    """The "Protection and DR" sheet carries the hand-calculated figures; the PDF has the section with its table."""
    from models.present.workbook import workbook_sheets

    project = load(EXAMPLE)
    design, evaluation = _evaluated(project)
    sheets = workbook_sheets(project, evaluation, design.catalog)
    header, row = sheets["Protection and DR"]
    values = dict(zip(header, row, strict=True))
    assert values["Largest transfer (TiB)"] == pytest.approx(200e9 * 2 / 34 / 2**40)  # the project's unit, TiB
    assert values["RPO achieved (min)"] == pytest.approx(60 + 200e9 * 2 / 34 / 62.5e6 / 60)
    assert values["RPO met"] is True and values["Baseline time (hours)"] == pytest.approx(64_000 / 3600)
    # both bandwidths of what replication may use of the link (50 % of 1,000 Mbit/s): 52.29 of 500 Mbit/s
    assert values["Bandwidth for the RPO (Mbit/s)"] == pytest.approx(200e9 * 2 / 34 / 1800 * 8 / 1e6, rel=1e-12)
    assert values["Bandwidth available (Mbit/s)"] == pytest.approx(500.0)
    assert values["Transfer rate (Mbit/s)"] == pytest.approx(500.0) and values["Bounded by the round trip"] is False
    plain = load(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml")
    _d, plain_evaluation = _evaluated(plain)
    assert "Protection and DR" not in workbook_sheets(plain, plain_evaluation, _d.catalog)

    from pypdf import PdfReader

    from app.cli import main

    out = tmp_path / "dr.pdf"
    assert main(["report", str(EXAMPLE), "-o", str(out)]) == 0
    text = "\n".join(page.extract_text() for page in PdfReader(out).pages)
    section = text[text.index("Protection and DR"):]
    assert "63 min" in section and "90 min" in section and "105 Mbit/s" in section and "17.8 h" in section
    assert "Replication destination: DR to Azure" in text


def test_the_figures_line_reads_the_hand_calculation():
    """One sentence per relationship (evaluate's text, the PDF and the Protection tab): 11.76 GB in 3.1 min at
    500 Mbit/s, 105 Mbit/s for the RPO, baseline 4.00 TB in 17.8 h, 4.01 TB needed; in the unit asked for (TB here,
    as the figures were worked by hand; TiB gives 0.011 TiB and 3.64 TiB, the table's figures: one unit throughout)."""
    from models.present.protection import figures_line

    _design, evaluation = _evaluated(load(EXAMPLE))
    (f,) = evaluation.protection.relationships
    line = figures_line(f, "TB")
    # one unit in one sentence: the transfer in TB beside the destination's TB, with two significant digits
    assert line.startswith("DR to Azure: largest transfer 0.012 TB in 3.1 min at 500 Mbit/s;")
    # both figures on one basis, what replication may use of the link, and the link it takes beside them
    assert ("bandwidth for the RPO 52 Mbit/s of the 500 Mbit/s available to replication (50% of the 1,000 Mbit/s "
            "link: a link of 105 Mbit/s meets it)") in line
    assert "baseline 4.00 TB in 17.8 h" in line and "destination needs 4.01 TB of " in line
    assert f"runway {f.runway_months:,.0f} months" in line and "bounded by the round trip" not in line
    binary = figures_line(f, "TiB")
    assert binary.startswith(f"DR to Azure: largest transfer {f.transfer_bytes / 2**40:,.3f} TiB in 3.1 min")
    assert f"baseline {f.baseline_bytes / 2**40:,.2f} TiB in 17.8 h" in binary


@pytest.mark.parametrize(("unit", "other"), [("TiB", ("TB", "GB")), ("TB", ("TiB", "GiB"))])
def test_the_protection_section_gives_every_capacity_in_the_chosen_unit(unit, other):
    """The SnapMirror example's Protection and DR table and the sentences under it name capacities in one unit
    family, the project's (the review found the table in TiB / GiB and its sentences in TB / GB for the same
    quantities), and the same quantity prints the same text in both."""
    import re

    from models.present.protection import lines, table_rows
    from models.units import format_capacity

    _design, evaluation = _evaluated(load(EXAMPLE))
    text = " ".join(" ".join(row) for row in table_rows(evaluation.protection, unit))
    text += " " + " ".join(lines(evaluation.protection, unit))
    text = re.sub(r"\(Premium_LRS, [\d,]+ GiB\)", "", text)  # a product's name (Azure sells a P40 disk as 2,048 GiB)
    units = set(re.findall(r"\d (TiB|GiB|TB|GB|MiB|MB)\b", text))
    assert units & {"TiB", "GiB", "TB", "GB"} == {unit}, units  # one unit throughout (not GiB beside TiB)
    (f,) = evaluation.protection.relationships
    for quantity in (f.transfer_bytes, f.destination_needed_bytes, f.destination_free_bytes, f.change_bytes_per_day):
        assert text.count(format_capacity(quantity, unit, fixed=True)) >= 2  # the table's cell and the sentence alike


def test_a_version_7_file_migrates_to_one_with_an_empty_replication_table(tmp_path):
    import sqlite3

    from models.store import open_project
    from models.store.schema import DDL_V7, SCHEMA_VERSION, migrate, schema_problems

    conn = sqlite3.connect(":memory:")
    conn.executescript(DDL_V7)
    assert "replication" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    migrate(conn, 7)
    assert schema_problems(conn, SCHEMA_VERSION) == []
    assert conn.execute("SELECT COUNT(*) FROM replication").fetchone() == (0,)
    # a saved file whose replication table is dropped and version set back to 7 opens, with no relationship
    project = load(EXAMPLE)
    path = save_project(project, tmp_path / "v7.storplan")
    old = sqlite3.connect(path)
    old.executescript("DROP TABLE replication; DROP TABLE IF EXISTS measured; "
                      "ALTER TABLE workload DROP COLUMN cold_data_pct; "
                      "ALTER TABLE workload DROP COLUMN cold_read_pct; PRAGMA user_version = 7;")
    old.close()
    opened = open_project(path).project
    assert opened.scenario.replications == [] and opened.scenario.nodes == project.scenario.nodes


def test_active_sync_has_zero_rpo_needs_the_writes_bandwidth_and_adds_the_round_trip():
    """Two AFF systems 5 ms apart: zero RPO when the link carries the writes at target (250,000 IOPS x 25 % x
    8 KiB = 512 MB/s = 4,096 Mbit/s, sent as written); every write waits the 5 ms round trip."""
    project = load(EXAMPLE)
    a70 = project.scenario.node("a70")
    partner = a70.with_changes(id="a70-b", label="AFF A70 site B", y=600.0)
    rep = project.scenario.replications[0].with_changes(target="a70-b", kind="active-sync", rtt_ms=5.0,
                                                        bandwidth_mbit_s=5_000.0, replication_share_pct=50.0)
    scenario = project.scenario.model_copy(update={"nodes": [*project.scenario.nodes, partner],
                                                   "replications": [rep]})
    design = with_layouts(resolve(project.with_scenario(scenario)))
    (f,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    writes = 250_000 * 0.25 * 8 * 1024
    assert f.write_latency_added_ms == 5.0
    assert f.bandwidth_needed_mbit_s == pytest.approx(writes * 8 / 1e6 / 0.5)  # 8,192 Mbit/s of link at 50 %
    # 5,000 Mbit/s at 50 % gives 2,500 Mbit/s, short of the writes' 4,096: the RPO is not zero, and it says so
    assert math.isinf(f.rpo_achieved_minutes) and f.rpo_met is False
    assert f.text.startswith("Zero RPO needs a link of 8,192 Mbit/s at the 50% replication share for the writes; "
                             "the link is 5,000 Mbit/s")
    enough = rep.with_changes(bandwidth_mbit_s=20_000.0)
    design = with_layouts(resolve(project.with_scenario(scenario.model_copy(update={"replications": [enough]}))))
    (g,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    assert g.rpo_achieved_minutes == 0.0 and g.rpo_met is True and g.text.startswith("Zero RPO holds")


def test_transfers_load_both_ends_as_workloads_of_their_own():
    """During the transfer window the A70 reads and the CVO writes 62.5 MB/s; the protected workload's latency at
    its target does not fall with the extra load."""
    _design, evaluation = _evaluated(load(EXAMPLE))
    loads_by_role = {e.role: e for e in evaluation.protection.loads}
    assert set(loads_by_role) == {"source", "destination"}
    source, destination = loads_by_role["source"], loads_by_role["destination"]
    assert (source.system_id, destination.system_id) == ("a70", "cvo-dr")
    assert source.rate_mbps == destination.rate_mbps == pytest.approx(62.5)
    assert source.transfer_latency_ms is not None and destination.transfer_latency_ms is not None
    (own,) = source.own_workloads
    assert own[2] >= own[1]
    assert 0 < destination.utilization_pct <= 100


_BASE = load(EXAMPLE)


def _figures(rep):
    from models.replication.figures import replication_figures

    return replication_figures(_BASE.scenario, rep)


@settings(max_examples=60, deadline=None)
@example(bandwidth=1.0, schedule=1440.0, rpo=1441.0, share=1.0, profile=[0.0] * 23 + [1.0])  # round-trip bound
@given(bandwidth=st.floats(1.0, 100_000.0), schedule=st.sampled_from([5.0, 15.0, 60.0, 240.0, 1440.0]),
       rpo=st.floats(1.0, 3000.0), share=st.floats(1.0, 100.0),
       profile=st.lists(st.floats(0.0, 10.0), min_size=24, max_size=24).filter(lambda p: sum(p) > 0.1))
def test_the_bandwidth_for_the_rpo_meets_it_and_more_bandwidth_never_hurts(bandwidth, schedule, rpo, share, profile):
    rep = _BASE.scenario.replications[0].with_changes(
        bandwidth_mbit_s=bandwidth, schedule_minutes=schedule, rpo_minutes=rpo, replication_share_pct=share,
        change=[{"workload": "oltp", "bytes_per_day": 400_000_000_000, "hourly_profile": profile}])
    f = _figures(rep)
    # the worst window holds at least the average share of the day, at most all of it
    assert schedule / 1440 - 1e-9 <= f.peak_window_share <= max(1.0, schedule / 1440) + 1e-9
    faster = _figures(rep.with_changes(bandwidth_mbit_s=bandwidth * 2))
    assert faster.rpo_achieved_minutes <= f.rpo_achieved_minutes
    if math.isfinite(f.bandwidth_needed_mbit_s) and f.bandwidth_needed_mbit_s <= 10_000_000:
        at_need = _figures(rep.with_changes(bandwidth_mbit_s=max(f.bandwidth_needed_mbit_s * (1 + 1e-9), 1e-6)))
        assert at_need.rpo_met is True
    else:
        # no link meets the RPO only when the schedule is as long as the RPO, or when the rate the RPO needs (the
        # worst transfer within the RPO's slack after the schedule) is above the round trip's bound on the streams
        needed_rate = max(f.transfer_bytes / ((rpo - schedule) * 60.0), f.transfer_bytes / (schedule * 60.0)) \
            if rpo > schedule else math.inf
        assert rpo <= schedule or needed_rate > f.window_limit_bytes_per_s, (needed_rate, f.window_limit_bytes_per_s)


def test_round_trip_bounds_the_transfers_by_the_window_per_stream():
    """A long fat network: the example's link at 100 ms round trip, one protected workload (one TCP stream) of a
    2 MB window (ONTAP's documented SnapMirror default, "Configure a TCP window size for SnapMirror relationships").

    By hand: window limit 2 x 1,048,576 B / 0.1 s = 20,971,520 B/s (167.77 Mbit/s) < the share's 62.5e6 B/s, so the
    worst transfer 200e9 x 2/34 = 11.7647e9 B takes 11.7647e9 / 20,971,520 = 560.98 s; RPO 60 + 9.35 = 69.35 min;
    the baseline 4e12 / 20,971,520 = 190,735 s (53 h). The 90 min RPO needs 11.7647e9 / 1,800 s = 6.54e6 B/s: under
    the window limit, so a link (104.6 Mbit/s) still meets it. An RPO of 61 min needs 11.7647e9 / 60 s = 196e6 B/s:
    above the window's 20.97e6 B/s, so no link meets it and the sentence says the round trip bounds it.
    """
    project = load(EXAMPLE)
    rep = project.scenario.replications[0].with_changes(rtt_ms=100.0)
    design = with_layouts(resolve(project.with_scenario(project.scenario.model_copy(update={"replications": [rep]}))))
    (f,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    window = 2 * 1_048_576 / 0.1
    transfer = 200e9 * 2 / 34
    assert f.streams == 1 and f.window_limited is True
    assert f.window_limit_bytes_per_s == pytest.approx(window, rel=1e-12)
    assert f.transfer_bytes_per_s == pytest.approx(window, rel=1e-12)
    assert f.available_bytes_per_s == pytest.approx(62.5e6)
    assert f.transfer_seconds == pytest.approx(transfer / window, rel=1e-12)
    assert f.transfer_seconds == pytest.approx(560.98, abs=0.01)
    assert f.rpo_achieved_minutes == pytest.approx(60 + 560.98 / 60, abs=1e-3)
    assert f.baseline_seconds == pytest.approx(4e12 / window, rel=1e-12)
    assert f.bandwidth_needed_mbit_s == pytest.approx(transfer / 1800 * 8 / 1e6 / 0.5, rel=1e-12)
    assert any("bounds the transfers" in n for n in f.notes)
    tight = rep.with_changes(rpo_minutes=61.0)
    design = with_layouts(resolve(project.with_scenario(project.scenario.model_copy(update={"replications": [tight]}))))
    (g,) = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships
    assert math.isinf(g.bandwidth_needed_mbit_s)
    assert "the round trip bounds the transfers to 168 Mbit/s" in g.text
    # no round trip: the link's share (the worked example's 20 ms leaves 104.9e6 B/s per stream: the link bounds)
    (h,) = evaluate_protection(*_design_with(project, rep.with_changes(rtt_ms=0.0)), with_load=False).relationships
    assert math.isinf(h.window_limit_bytes_per_s) and h.transfer_bytes_per_s == pytest.approx(62.5e6)


def _design_with(project, rep):
    design = with_layouts(resolve(project.with_scenario(project.scenario.model_copy(update={"replications": [rep]}))))
    return design.scenario, design.catalog


def test_sizer_shortens_the_schedule_when_the_round_trip_bounds_the_rpo():
    """At 100 ms a 61 min RPO cannot be met hourly by any link (above); the proposal's shorter schedule (30 min:
    the transfer halves... at most 200e9 x 2/34 / 2 per half hour) meets it within the window limit."""
    from models.replication.sizing import propose_destination

    project = load(EXAMPLE)
    rep = project.scenario.replications[0].with_changes(rtt_ms=100.0, rpo_minutes=61.0)
    scenario, catalog = _design_with(project, rep)
    proposal = propose_destination(scenario, catalog, scenario.replications[0], 36)
    assert proposal is not None and proposal.schedule_minutes < 60
    assert proposal.rpo_met is True and proposal.rpo_achieved_minutes <= 61


def test_an_on_premises_destination_is_searched_like_cvo():
    """The worked example with an on-premises AFF as its destination: the sizer proposes the smallest catalog array
    (rack units, then power, then raw capacity) whose free capacity holds the copies grown over 36 months
    (4e12 baseline + the held transfer, x 1.3^3 for the data: 8.80 TB) and that takes the transfer's writes
    (62.5 MB/s) within reach; every smaller-footprint design that is not chosen cannot hold them (capacity engine,
    evaluated here one by one)."""
    from models.capacity import evaluate_capacity
    from models.catalog.describe import storage_summary
    from models.project.model import ControllerNode, Requirements
    from models.replication import destination_free_bytes
    from models.replication.onprem_destination import _args, _base, _raw_bytes
    from models.replication.sizing import grown_copies_bytes, propose_destination
    from models.sizing import _array_specs

    project = load(EXAMPLE)
    dr = ControllerNode(id="cvo-dr", catalog_id="netapp-aff-a20", label="DR array", x=400, y=400)
    scenario = project.scenario.model_copy(update={"nodes": [dr if n.id == "cvo-dr" else n
                                                             for n in project.scenario.nodes]})
    design = with_layouts(resolve(project.with_scenario(scenario)))
    rep = design.scenario.replications[0]
    told = propose_destination(design.scenario, design.catalog, rep, 36)
    assert told.design == "" and "at least 8.80 TB free" in told.text  # without the sizer's designs: told
    proposal = propose_destination(design.scenario, design.catalog, rep, 36, _array_specs)
    needed = 4e12 * 1.3 ** 3 + 200e9 * 2 / 34
    assert proposal.needed_bytes == pytest.approx(needed, rel=1e-9)
    assert proposal.design and proposal.meets and proposal.free_bytes >= needed
    assert proposal.design in proposal.text and "8.80 TB" in proposal.text
    assert " over " not in proposal.design  # the destination has no hosts: no front end is named
    figures = evaluate_protection(design.scenario, design.catalog, with_load=False).relationships[0]
    assert grown_copies_bytes(figures, 36) == pytest.approx(needed, rel=1e-9)
    specs = list(_array_specs(_base(design.scenario, "cvo-dr", figures), design.catalog,
                              Requirements(families=["ONTAP"])))
    chosen = next(s for s in specs if storage_summary(*_args(s)[2:7]) == proposal.design)
    key = (chosen.ru, chosen.power, _raw_bytes(chosen))
    smaller = [s for s in specs if (s.ru, s.power, _raw_bytes(s)) < key and _raw_bytes(s) >= needed]
    for spec in smaller:
        array = next(n for n in spec.scenario.nodes if n.kind == "controller")
        free = destination_free_bytes(evaluate_capacity(spec.scenario, design.catalog), array.id)
        assert free is None or free < needed, spec.summary
    chosen_free = destination_free_bytes(evaluate_capacity(chosen.scenario, design.catalog), "array")
    assert chosen_free == pytest.approx(proposal.free_bytes)


def test_an_asa_r2_system_replicates_only_to_another():
    """NetAppDocs asa-r2, "Replicate snapshots to a remote cluster from ASA r2 storage systems": to and from another
    ASA r2 system only."""
    project = load(EXAMPLE)
    design = resolve(project)
    scenario = design.scenario
    asa = scenario.model_copy(update={"nodes": [n.with_changes(catalog_id="netapp-asa-a50") if n.id == "a70" else n
                                                for n in scenario.nodes]})
    reason = endpoint_problem(asa, design.catalog, "a70", "cvo-dr")
    assert reason is not None and "ASA r2 system" in reason and "Cloud Volumes ONTAP DR" in reason
    both = asa.model_copy(update={"nodes": [*asa.nodes, asa.node("a70").with_changes(id="dr2", label="DR ASA")]})
    assert endpoint_problem(both, design.catalog, "a70", "dr2") is None
    aff = asa.model_copy(update={"nodes": [*asa.nodes, asa.node("a70").with_changes(
        id="dr3", catalog_id="netapp-aff-a50", label="DR AFF")]})
    assert "DR AFF is not one" in endpoint_problem(aff, design.catalog, "a70", "dr3")
