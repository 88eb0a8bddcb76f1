"""A summary's performance tick says when its max IOPS is a prediction not fitted to the system's own measurements
(review of session 39: the A90 and EF600 reports' summaries stated "up to 3.12M IOPS" / "up to 1.23M IOPS" with no
word that the figure was derived from another system, beside a P10-P90 band four times wide)."""

from __future__ import annotations

import pytest

from models.evaluate import evaluate
from models.formatting import format_iops
from models.present import verdicts
from models.present.concurrency import reach_words
from models.project import load
from models.resources import examples_dir


def _performance(name: str):
    evaluation = evaluate(load(examples_dir() / name))
    found = [v for v in verdicts(evaluation) if v.area == "performance" and "within the" in v.text]
    return evaluation.performance.workloads[0], found[0].text


@pytest.mark.parametrize("name, words", [
    ("aff-a90-oracle-nvmefc64.toml", "derived from a related system's measurements and held at NetApp's published "
                                     "'up to' 2.40M IOPS for the AFF A90 HA pair"),  # review 42, finding 19
    # review 52 #1: no E-Series profile is fitted, so not "its family's calibrated systems"
    ("ef600-nvme-ddp-oltp-nvmefc.toml", "estimated from its family's catalogued software costs, none fitted to a "
                                        "measurement"),
    ("vsan8-esa-6host-sqlserver-oltp.toml", "assumed vSAN costs"),  # review 42: not "the engine's uncalibrated
    # ..."; review 44 #10: the words of the GUI table and status bar (models.present.NO_PROFILE_WORDS)
])
def test_an_unfitted_profile_says_so_with_its_band(name, words):
    wp, text = _performance(name)
    assert wp.profile in ("derived", "hardware relation only", "assumed")
    def edge(iops):  # an edge whose prediction misses the SLO at any load has no max IOPS at the SLO
        return "not met" if iops is None else format_iops(iops)

    band = f" {edge(wp.max_iops_at_slo_band_p10)} – {edge(wp.max_iops_at_slo_band_p90)}"
    if wp.max_iops_at_slo_band_p10 is None:  # review 57: never a range "not met – 2.11M" that starts at "not met"
        band = (": pessimistic case misses the SLO at every load; optimistic up to "
                f"{format_iops(wp.max_iops_at_slo_band_p90)}")
    # revgui55 #12: a headline at the top of its own range says it is the optimistic end
    end = (f": {format_iops(wp.max_iops_at_slo)} is its optimistic end"
           if wp.max_iops_at_slo_band_p90 is not None and wp.max_iops_at_slo >= 0.995 * wp.max_iops_at_slo_band_p90
           and not (wp.max_iops_at_slo_band_p10 or 0) >= 0.995 * wp.max_iops_at_slo else "")
    # after "at the SLO" the IOPS the stated outstanding I/Os reach may follow (review 57), then the basis
    assert f"at the SLO; {reach_words(wp)}; " in text or "at the SLO; not measured" in text
    assert text.endswith(f"; not measured on this system: {words}, uncertainty P10–P90{band}{end})")


@pytest.mark.parametrize("name", ["aff8080-sqlserver-tpce.toml", "gcnv-premium-oracle-nfs.toml"])
def test_a_calibrated_profile_or_a_services_published_limits_add_nothing(name):
    wp, text = _performance(name)
    assert "not measured on this system" not in text
    # review 57: a service's latency rests on an assumed light-load floor (GCNV's catalogued 500 us), said so
    assert text.endswith("at the SLO)" if "gcnv" not in name else
                         "at the SLO; latency from an assumed 0.50 ms light-load floor, not a published figure)")


def test_a_cvo_wafl_step_without_a_release_reads_as_words():
    """The CVO reports' WAFL reserve step read "(aggregate on ONTAP 9.16.1 (current release: none set))"."""
    evaluation = evaluate(load(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml"))
    steps = [s for system in evaluation.capacity.systems for s in system.steps if s.name == "WAFL reserve"]
    assert steps and all("none set" not in s.formula for s in steps)
    assert any(s.formula.endswith(", the current release: the design names none)") for s in steps)


def test_a_system_that_fills_within_the_horizon_misses_its_capacity_as_the_sizer_says():
    """The AFF8080 NFS example fills in 8 months of a 36-month horizon; its summary said "meets every stated
    requirement" while the sizer rejects any candidate that fills before the horizon ("capacity full in N months,
    before the 36-month horizon", ``models.sizing.capacity_reasons``, which says it applies the verdict's rules):
    one design, one answer, so the verdict misses it too."""
    from models.present.verdicts import evaluation_verdict
    from models.sizing import capacity_reasons, needed_effective_bytes

    project = load(examples_dir() / "aff8080-nfs-file-services.toml")
    evaluation = evaluate(project)
    system = evaluation.capacity.systems[0]
    horizon = project.requirements.horizon_months
    assert 0 < system.months_until_full < horizon  # 8 of 36 months
    decided = evaluation_verdict(evaluation, project.requirements)
    assert not decided.met
    (miss,) = [m for m in decided.missed if m.area == "capacity"]
    assert miss.subject == system.system_label
    assert miss.text == (f"full in {system.months_until_full:.1f} months at the planned growth, within the "
                         f"{horizon}-month horizon: it holds today's data, not the data grown over the horizon")
    need = needed_effective_bytes(project.scenario, project.requirements)
    assert any("before the 36-month horizon" in r
               for r in capacity_reasons(evaluation.capacity.total, need, horizon))
    # the miss is not repeated as a caution beside it
    assert not [v for v in verdicts(evaluation, "TiB", project.requirements)
                if v.kind == "caution" and v.area == "capacity"]


def test_a_system_with_room_over_the_horizon_gets_no_capacity_caution():
    project = load(examples_dir() / "aff-a90-oracle-nvmefc64.toml")
    evaluation = evaluate(project)
    assert evaluation.capacity.systems[0].months_until_full > project.requirements.horizon_months
    assert not [v for v in verdicts(evaluation, "TiB", project.requirements)
                if v.kind == "caution" and v.area == "capacity"]


def test_cloud_recommendations_read_cloud_not_0_u_and_power_n_a(capsys):
    """`storplan size` and the report's Recommendation listed FSx and NetApp Volumes options as "0 U, power n/a"."""
    from app.cli import main

    main(["size", str(examples_dir() / "cvo-aws-m5-4xlarge-ha-oltp.toml"), "--top", "3"])
    lines = [line for line in capsys.readouterr().out.splitlines() if "[meets]" in line or "[fails]" in line]
    assert lines and all("0 U" not in line and "power n/a" not in line for line in lines)
    assert all("— in the cloud (no rack space or power on site)" in line for line in lines)


def test_the_reports_capacity_table_says_a_system_full_within_the_horizon_does_not_fit():
    """The report's "Capacity requirement" table said "Fits: Yes" for the AFF8080 NFS example beside the summary's
    capacity miss (full in 8.8 of 36 months); a system full after the horizon still says Yes."""
    import io

    from pypdf import PdfReader

    from app.report import render_report_bytes

    def row(name: str) -> str:
        project = load(examples_dir() / name)
        text = " ".join((p.extract_text() or "") for p in PdfReader(io.BytesIO(render_report_bytes(project))).pages)
        text = " ".join(text.split())
        table = text[text.index("Capacity requirement"):]
        return table[:table.index("Physical used: the workloads'")]

    assert "TiB No 8.8 months" in row("aff8080-nfs-file-services.toml")
    assert "TiB Yes" in row("aff-a90-oracle-nvmefc64.toml")
