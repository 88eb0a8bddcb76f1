"""The PDF sizing report: renders headless for every example, shows the CLI's numbers, embeds its fonts, respects
the paper size, and never damages anything when the destination is unwritable.

This module must not import PySide6: the report runs without a display.
"""

from __future__ import annotations

import io
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from example_reports import example_report, page_texts
from pypdf import PdfReader

from app.report import ReportError, render_report_bytes, validation_outcomes, write_report
from models.evaluate import evaluate
from models.formatting import fmt_max_iops_at_slo
from models.project import load
from models.resources import examples_dir
from models.serialize import evaluation_to_dict
from models.units import format_capacity

EXAMPLES = sorted(examples_dir().glob("*.toml"))
ROOT = Path(__file__).resolve().parents[1]


def _squash(text: str) -> str:
    """Whitespace-normalised text: a phrase wrapped across lines still matches."""
    return " ".join(text.split())


@pytest.fixture(scope="module")
def reports():
    """One evaluation and one rendered report per example (the slow part, done once per process and shared with
    tests/test_customer_citations.py, which reads the very same PDFs: tests/example_reports.py)."""
    return {path.stem: example_report(path) for path in EXAMPLES}


def _text(data: bytes) -> tuple[PdfReader, str]:
    """The PDF's reader and its whole text, whitespace-normalised (pypdf; a PDF read once per process)."""
    return PdfReader(io.BytesIO(data)), _squash("\n".join(page_texts(data)))


@pytest.mark.parametrize("name", [p.stem for p in EXAMPLES])
def test_report_shows_the_cli_numbers(reports, name):
    project, evaluation, data = reports[name]
    assert data.startswith(b"%PDF")
    reader, text = _text(data)
    expected = evaluation_to_dict(evaluation, project.info.name)  # what `storplan evaluate --json` prints
    unit = project.settings.capacity_unit
    capacity = expected["capacity"]
    assert capacity is not None, evaluation.problems
    assert format_capacity(capacity["usable_bytes"], unit) in text
    assert format_capacity(capacity["effective_bytes"], unit) in text
    assert expected["workloads"], "every example has an enabled workload"
    from models.present.iops_bound import bottleneck_words

    shown = {wp.workload_id: bottleneck_words(wp) for wp in evaluation.performance.workloads}
    for workload in expected["workloads"]:
        assert fmt_max_iops_at_slo(workload["max_iops_at_slo"]) in text
        # the CLI's station, as every output names it (an HA pair's IOPS bound: the pair's, review 53b #16)
        assert _squash(shown.get(workload["id"], workload["bottleneck"]) or workload["bottleneck"]) in text
    assert "nan" not in text.split() and "inf" not in text.split()
    assert f"Page 1 of {len(reader.pages)}" in text
    assert 5 <= len(reader.pages) <= 40
    for section in ("Summary", "Topology", "Bill of materials", "Capacity", "Performance", "Assumptions and sources",
                    "Model validation"):
        assert section in text
    assert project.info.name in text


def test_fonts_are_embedded_truetype(reports):
    _, _, data = reports["aff8080-sqlserver-tpce"]
    reader = PdfReader(io.BytesIO(data))
    fonts = {}
    for page in reader.pages:
        for font in page["/Resources"]["/Font"].values():
            font = font.get_object()
            fonts[str(font["/BaseFont"])] = font
    assert fonts
    for name, font in fonts.items():
        descendants = font.get("/DescendantFonts")
        descriptor = (descendants[0].get_object() if descendants else font)["/FontDescriptor"].get_object()
        assert "/FontFile2" in descriptor, f"font {name} is not embedded"


def test_paper_size_is_respected():
    project = load(examples_dir() / "vsan-sqlserver-raid1.toml")
    evaluation = evaluate(project)
    cache = {evaluation.scenario: evaluation}
    validation = validation_outcomes()
    validation = None if isinstance(validation, str) else validation
    for paper, size in (("A4", (595, 842)), ("Letter", (612, 792))):
        reader = PdfReader(io.BytesIO(render_report_bytes(project, paper, evaluation_cache=cache,
                                                          validation=validation)))
        box = reader.pages[0].mediabox
        assert (round(float(box.width)), round(float(box.height))) == size
    letter_project = project.with_changes(settings=project.settings.with_changes(paper="Letter").model_dump())
    reader = PdfReader(io.BytesIO(render_report_bytes(letter_project, evaluation_cache=cache, validation=validation)))
    assert round(float(reader.pages[0].mediabox.width)) == 612
    with pytest.raises(ReportError, match="paper"):
        render_report_bytes(project, "A3", evaluation_cache=cache)


def test_scenario_comparison_when_several_scenarios():
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    base = project.scenario
    shelves = [n.with_changes(drive_count=12) if n.kind == "shelf" else n for n in base.nodes]
    smaller = base.with_changes(name="Half shelves", nodes=[n.model_dump() for n in shelves])
    project = project.with_scenario(smaller)
    cache: dict = {}
    validation = validation_outcomes()
    data = render_report_bytes(project, evaluation_cache=cache,
                               validation=None if isinstance(validation, str) else validation)
    assert set(cache) == {"Base", "Half shelves"}
    _, text = _text(data)
    assert "Scenario comparison" in text and "Half shelves" in text
    for evaluation in cache.values():
        assert format_capacity(evaluation.capacity.total.usable_bytes, project.settings.capacity_unit) in text


def _small_project():
    return load(examples_dir() / "cvo-azure-ds4-single-oltp.toml")


def test_write_report_atomic_and_errors(tmp_path):
    project = _small_project()
    before = project.model_dump()
    target = tmp_path / "report.pdf"
    assert write_report(project, target) == target
    assert target.read_bytes().startswith(b"%PDF")
    assert project.model_dump() == before

    with pytest.raises(ReportError, match="does not exist"):
        write_report(project, tmp_path / "missing" / "r.pdf")
    with pytest.raises(ReportError, match="directory"):
        write_report(project, tmp_path)
    a_file = tmp_path / "plain.txt"
    a_file.write_text("keep me")
    with pytest.raises(ReportError, match="not a folder"):
        write_report(project, a_file / "r.pdf")
    assert a_file.read_text() == "keep me"
    assert project.model_dump() == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["plain.txt", "report.pdf"]  # no temp files left


@pytest.mark.skipif(os.name != "posix" or os.geteuid() == 0, reason="root ignores file permissions")
def test_permission_denied_leaves_existing_file(tmp_path):
    project = _small_project()
    folder = tmp_path / "locked"
    folder.mkdir()
    existing = folder / "report.pdf"
    existing.write_bytes(b"old report")
    folder.chmod(0o500)
    try:
        with pytest.raises(ReportError, match="permission denied"):
            write_report(project, existing)
    finally:
        folder.chmod(0o700)
    assert existing.read_bytes() == b"old report"


def test_thread_safe_concurrent_exports(tmp_path):
    project = _small_project()
    errors: list[BaseException] = []

    def export(i: int) -> None:
        try:
            write_report(project, tmp_path / f"r{i}.pdf")
        except BaseException as exc:  # noqa: BLE001 (collected for the assertion)
            errors.append(exc)

    threads = [threading.Thread(target=export, args=(i,)) for i in range(3)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    for i in range(3):
        assert len(PdfReader(tmp_path / f"r{i}.pdf").pages) >= 5


def test_report_package_never_imports_qt():
    code = "import sys, app.report; assert not any(m.startswith('PySide6') for m in sys.modules), 'Qt imported'"
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr


def test_failed_write_leaves_existing_file(tmp_path, monkeypatch):
    """A full disk while writing (the temporary file is written, its fsync fails): the old file stays, no temp
    file is left behind."""
    import errno

    from models import atomic

    project = _small_project()
    existing = tmp_path / "report.pdf"
    existing.write_bytes(b"old report")

    def full(_fd):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(atomic, "_fsync_fd", full)
    with pytest.raises(ReportError, match="No space left on device"):
        write_report(project, existing)
    assert existing.read_bytes() == b"old report"
    assert [p.name for p in tmp_path.iterdir()] == ["report.pdf"]


def test_report_prints_the_catalog_it_was_given():
    """A project pinned to older catalog data (a .storplan snapshot) reports that data, not today's."""
    import io

    from pypdf import PdfReader

    from app.report import render_report_bytes
    from models.catalog import bundled_catalog
    from models.project import load
    from models.resources import examples_dir

    project = load(examples_dir() / "ef550-sas-analytics.toml")
    bundled = bundled_catalog()
    drive = bundled.get("netapp-eseries-800gb-ssd")
    pinned = bundled.with_entries([drive.model_copy(update={"name": "E-Series 800GB SSD (pinned 2025 data)"})])
    pdf = render_report_bytes(project, catalog=pinned, validation=[])
    text = " ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages)
    assert "pinned 2025 data" in " ".join(text.split())


def _summary_text(project) -> str:
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=[])
    reader = PdfReader(io.BytesIO(data))
    return _squash(reader.pages[1].extract_text())


def test_summary_verdict_meets():
    """The verdict line carries the evaluation's own numbers: the 350K IOPS target at its open-model latency
    (the example's requirements without the SLO in takeover, which it misses: the next test)."""
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    project = project.model_copy(update={"requirements": project.requirements.model_copy(
        update={"meet_slo_in_takeover": False})})
    text = _summary_text(project)
    wp = evaluate(project).performance.workloads[0]
    assert wp.target_iops == 350_000 and 0.2 < wp.latency_at_target_ms < 1.0
    assert "The design meets every stated requirement." in text
    assert f"350K IOPS at {wp.latency_at_target_ms:.2f} ms, within the 1.00 ms mean SLO" in text
    # ... with the cautions a presales engineer must raise: thin headroom, no failover capacity
    assert "Check the cautions below." in text
    for caution in wp.cautions():
        assert caution[:40] in text


def test_summary_verdict_names_a_missed_required_takeover_state():
    """The example requires its SLO in takeover and misses it there (its Resilience section says so): the summary
    says the design does not meet its requirements and names the workload and the state, as the resilience check
    does."""
    from models.evaluate import evaluate_resilience

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    assert project.requirements.meet_slo_in_takeover
    checks = evaluate_resilience(project, evaluate(project)).requirement_checks
    missed = [c for c in checks if not c.met]
    assert [(c.subject, c.state) for c in missed] == [("TPC-E-like OLTP (SQL Server)", "takeover")]
    text = _summary_text(project)
    assert ("The design does not meet its requirements: missed TPC-E-like OLTP (SQL Server) in takeover."
            in text)
    assert "The design meets every stated requirement." not in text
    assert "the 1 ms SLO at 350,000 IOPS in takeover (required): missed" in text


def test_summary_verdict_does_not_meet_names_the_failures():
    """A target beyond saturation and a dataset larger than the system: the verdict says so, per requirement."""
    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    base = project.scenario
    workloads = [w.with_changes(target_iops=2_000_000, dataset_bytes=500 * 10**12).model_dump()
                 for w in base.workloads]
    project = project.with_scenario(base.with_changes(workloads=workloads))
    text = _summary_text(project)
    assert "The design does not meet its requirements: missed AFF8080A EX HA pair capacity;" in text
    assert "misses the 1.00 ms SLO" in text
    assert "but only 25.47 TiB is usable" in text
    assert "The design meets every stated requirement." not in text


def test_summary_shows_an_mbps_target_as_set():
    text = _summary_text(load(examples_dir() / "ef550-sas-analytics.toml"))
    assert "MB/s (9.5K IOPS)" in text


def test_no_raw_ids_or_field_names(reports):
    project, _, data = reports["aff8080-sqlserver-tpce"]
    _, text = _text(data)
    for raw in ("l-hosts", "l-targets", "memory_gib", "cpu_us_per_io", "None", "nan"):
        assert raw not in text.split(), raw
    assert "Link ports 8 x SQL Server 2014 → Brocade 6510" in text  # a link is named by its ends


def test_validation_failures_are_shown_as_failing():
    from models.validation import CaseOutcome, Check

    good = Check("case-a", "usable_tib", 25.5, 25.47, 0.02)
    bad = Check("case-b", "peak_iops", 100_000, 150_000, 0.10)
    bound = Check("case-c", "latency_ms", 1.0, 0.31, 0.0, kind="upper_bound")
    expect = Check("case-e", "keeps_up_at_2.5GBps", 1.0, 1.0, 0.0, kind="expect", expect_passed=True)
    outcomes = [CaseOutcome("capacity", "case-a", "", (good,)), CaseOutcome("performance", "case-b", "", (bad,)),
                CaseOutcome("performance", "case-c", "", (bound,)), CaseOutcome("performance", "case-e", "", (expect,)),
                CaseOutcome("performance", "case-d", "", (), "no model for this case yet")]
    project = _small_project()
    _, text = _text(render_report_bytes(project, validation=outcomes))
    # The headline validate prints: each check once in its category, the missed target and the case that did not run.
    assert "never-fitted predictions: 2 of 3 pass" in text and "yes / no: 1 of 1 pass" in text
    assert "never-fitted published cases saturation: 1 point, median error 50.0% (target at most 20%): MISSED" in text
    assert "Overall: 1 case could not run; 1 prediction summary misses its target." in text
    assert "exit status" not in text  # the CLI's wording stays out of the customer's report
    assert "Keeps up at 2.5 GB/s expected yes as expected" in text  # an expectation reads yes / no, not 1
    assert "Outside tolerance" in text
    assert "case-b, Peak IOPS: published 100,000, predicted 150,000 (+50.0%, tolerance ±10%)" in text
    assert "Usable capacity (TiB)" in text and "usable_tib" not in text
    assert "case-d: could not run (no model for this case yet)" in text
    assert "≤ 1" in text


def test_cvo_report_lists_the_nvram_disk_in_the_bill_of_materials_and_sources():
    """The write path goes through the VM's NVRAM disk: the report's bill of materials and its sources table
    name it (the disk tier is an assumption, flagged as such)."""
    from models.catalog import CloudDisk, CloudVm, bundled_catalog

    project = load(examples_dir() / "cvo-azure-ds4-ha-oltp.toml")
    catalog = bundled_catalog()
    disk = catalog.get(catalog.get("azure-standard-ds4-v2", CloudVm).nvram_disk, CloudDisk)
    _, text = _text(render_report_bytes(project, validation=[]))
    assert "NVRAM disk (1 per node)" in text
    assert text.count(disk.name) >= 2  # bill of materials and sources


def test_validation_section_marks_in_sample_checks_and_prints_the_headline():
    from models.validation import CaseOutcome, Check

    fitted = Check("case-f", "peak_iops", 100_000, 104_000, 0.10, fitted_by="calibration: test fit",
                   out_of_sample=120_000)
    predicted = Check("case-p", "latency_ms_at_peak", 1.0, 1.1, 0.2)
    outcomes = [CaseOutcome("performance", "case-f", "", (fitted,)),
                CaseOutcome("relation", "case-p", "", (predicted,))]
    _, text = _text(render_report_bytes(_small_project(), validation=outcomes))
    assert "in-sample (a fitted, chosen or input value set from the check's own number): 1 of 1 pass" in text
    assert "out-of-sample published cases saturation: 1 point, median error 20.0% (target at most 20%): met" in text
    assert "never-fitted published cases latency: 1 point, median error 10.0% (target at most 30%): met" in text
    assert "in-sample" in text.split("Basis", 1)[1] and "prediction" in text.split("Basis", 1)[1]


def test_report_has_a_resilience_section_with_each_state(reports):
    """The AFF8080 report: a "Resilience" section whose table gives each failure state's saturation and the
    verdict sentence the CLI prints, and the runway."""
    from models.evaluate import evaluate_resilience
    from models.present.resilience import state_verdict

    project, evaluation, data = reports["aff8080-sqlserver-tpce"]
    _, text = _text(data)
    assert "Resilience" in text and "Runway" in text
    res = evaluate_resilience(project, evaluation)
    for state in res.states[evaluation.performance.workloads[0].workload_id]:
        assert _squash(state_verdict(state)) in text
    assert "Months until full: 39 months" in text
    assert "Resilience requirements" in text
    for check in res.requirement_checks:
        assert _squash(("Met " if check.met else "Missed ") + check.text) in text


def test_report_recommends_a_configuration_when_the_project_states_requirements():
    from models.project.model import Requirements
    from models.sizing import size

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    project = project.model_copy(update={"requirements": Requirements(horizon_months=24)})
    evaluation = evaluate(project)
    data = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    _, text = _text(data)
    best = size(project, top=1).candidates[0]
    assert "Recommendation" in text and _squash(f"First ranked: {best.summary}") in text
    import re

    from models.sizing import ranking_rule

    # the rule the command line and the dialog state (read across a page break: the running header and footer out)
    furniture = re.escape(project.info.name) + r" Sizing report StorPlan \S+ · catalog \S+ \S+ Page \d+ of \d+ "
    flowing = re.sub(furniture, "", text)
    assert _squash(ranking_rule(False).split(" ★")[0]) in flowing
    bare = project.model_copy(update={"requirements": Requirements()})
    plain = render_report_bytes(bare, validation=None)
    assert "Recommendation" not in _text(plain)[1]  # no requirements stated: no search
    from models.project import PriceRow

    book = [PriceRow(catalog_id=i, unit_price=p, currency="EUR") for i, p in (
        ("netapp-aff-a20", 41_000), ("netapp-aff-a50", 90_000), ("netapp-aff-a70", 140_000),
        ("netapp-ns224", 9_000), ("netapp-1500gb-nvme-ssd-a800", 1_200))]
    priced = project.model_copy(update={"price_book": book})
    cheapest = size(priced, top=1).candidates[0]
    _, text = _text(render_report_bytes(priced, validation=None))
    assert _squash(f"{cheapest.cost:,.0f} EUR") in text and "Ranked by the lowest cost" in text


def test_runway_series_cross_100_at_the_runway_months():
    """The runway chart's capacity line crosses 100% at the months until full; a workload's line is its growing
    target over its max IOPS at the SLO."""
    from models.evaluate import evaluate_resilience
    from models.present.resilience import runway_series

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    res = evaluate_resilience(project, evaluation)
    series = dict(runway_series(evaluation, res, project.scenario, months=60))
    capacity = series["capacity used / usable"]
    full = res.months_until_full
    below = [m for m, v in capacity if v < 100.0]
    assert max(below) == int(full)  # the line passes 100% between the whole months around months until full
    wp = evaluation.performance.workloads[0]
    line = series[f"{wp.name}: target / max IOPS at SLO"]
    assert line[0][1] == pytest.approx(100 * wp.target_iops / wp.max_iops_at_slo)


def test_the_report_shows_the_search_it_is_given_and_searches_only_without_one(monkeypatch):
    """A report given the sizer's result shows its candidates and does not search again; without one it searches
    exactly once."""
    import models.sizing
    from models.sizing import size

    project = load(examples_dir() / "aff8080-sqlserver-tpce.toml")
    evaluation = evaluate(project)
    result = size(project, top=10)  # the GUI's search asks for ten
    calls = []
    real = models.sizing.size

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(models.sizing, "size", counted)
    given = render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None,
                                sizing=result)
    assert calls == []
    _, text = _text(given)
    assert _squash(f"First ranked: {result.candidates[0].summary}") in text
    assert _squash(f"{result.considered:,} configurations from the catalog were considered") in text
    assert all(_squash(c.summary) in text for c in result.candidates[:5])
    assert _squash(result.candidates[5].summary) not in text  # the report's table keeps five
    render_report_bytes(project, evaluation_cache={evaluation.scenario: evaluation}, validation=None)
    assert len(calls) == 1


def test_the_report_carries_the_capacity_band_in_its_capacity_section(reports):
    _project, evaluation, data = reports["aff8080-sqlserver-tpce"]
    pages = [" ".join((page.extract_text() or "").split()) for page in PdfReader(io.BytesIO(data)).pages]
    page = next(p for p in pages if "Data-reduction band" in p)
    band = evaluation.capacity_band
    assert page.index("Capacity") < page.index("Data-reduction band")
    assert f"Effective capacity P10-P90: {band.effective_bytes_p10 / 2**40:,.2f} TiB" in page
    assert "Break-even data-reduction ratio: 1.52:1" in page
    assert "2.00 / 3.16 / 5.00:1 1.01:1 1.60:1 2.53:1" in page  # the published range, then this workload's
    assert "P10 = 1.60 x 2.00 / 3.16 = 1.01:1" in page
    assert "Introducing the Dedupe Ticker" in page
