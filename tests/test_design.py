"""One design, one answer: the catalog is resolved by one rule (pinned, user's, bundled, then the project's own
records) for every front door, pinned records reopen exactly, and a project's own record is marked as such.
"""

from __future__ import annotations

import io
import json
import re
from contextlib import redirect_stdout
from pathlib import Path

import pytest

from app.cli import example_paths, main
from models.catalog import CloudDisk, CloudVm, Drive, ManagedService, bundled_catalog
from models.catalog.schema import ENTRY_TYPES
from models.design import PROJECT_SOURCE_PREFIX, REPIN_HINT, resolve
from models.evaluate import evaluate
from models.project import load as load_toml
from models.store import load_project_file, open_project, pinned_catalog, save_project
from models.store import snapshot as snapshot_module
from models.store.records import SnapshotEntry

EXAMPLES = example_paths()
AFF8080 = "netapp-aff8080a-ex"
PROFILE_CPU_FIELDS = ("cpu_read_us", "cpu_write_us", "cpu_per_kib_us")


# --- pinned records reopen exactly ----------------------------------------------------------------------------


def test_every_bundled_record_pinned_in_a_saved_file_reopens_identical(tmp_path: Path, monkeypatch):
    """Pin every record of the bundled catalog (the snapshot normally holds only the records a project uses) in a
    saved .storplan file, reopen it: every record comes back equal, none is dropped as unusable."""
    bundled = bundled_catalog()
    monkeypatch.setattr(snapshot_module, "referenced_ids", lambda project, catalog: {e.id for e in catalog})
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    path = tmp_path / "all.storplan"
    save_project(project, path, catalog=bundled)
    opened = open_project(path)
    assert sorted(opened.catalog_snapshot) == sorted(e.id for e in bundled)
    reopened = pinned_catalog(opened.catalog_snapshot, bundled)
    assert reopened.unusable == ()
    assert reopened.pinned_ids == tuple(sorted(e.id for e in bundled))
    different = [e.id for e in bundled if reopened.get(e.id) != e]
    assert different == []
    assert resolve(project, catalog=reopened).problems == ()  # nothing differs from today's: nothing to say


def test_records_saved_with_every_default_written_out_reopen_identical():
    """Files saved before the snapshot kept only the stated fields hold every default written out; a sourced
    record's defaulted numbers have no source, which made 9 bundled records fail validation on reopen (and be
    dropped silently). They are read back as they were."""
    bundled = bundled_catalog()
    saved = {e.id: SnapshotEntry(e.id, e.kind, bundled.version, e.model_dump(mode="json")) for e in bundled}
    strict = [i for i, s in saved.items() if _validates_strictly(s) is False]
    assert AFF8080 in strict  # the old form really did fail: the test exercises the repair
    reopened = pinned_catalog(saved, bundled)
    assert reopened.unusable == ()
    assert [e.id for e in bundled if reopened.get(e.id) != e] == []


def _validates_strictly(entry: SnapshotEntry) -> bool:
    try:
        ENTRY_TYPES[entry.kind].model_validate(entry.record)
    except ValueError:
        return False
    return True


def test_a_saved_record_that_cannot_be_read_is_no_longer_dropped_silently():
    """A pinned record this StorPlan cannot validate (a schema change since) falls back to today's record of its
    id, with a warning naming it."""
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    drive = bundled_catalog().get(next(n.drive for n in project.scenario.nodes if getattr(n, "drive", None)))
    broken = drive.model_dump(mode="json", exclude_unset=True) | {"right_sized_bytes": -1}
    catalog = pinned_catalog({drive.id: SnapshotEntry(drive.id, "drive", "2020.1", broken)}, bundled_catalog())
    assert catalog.unusable == (drive.id,) and catalog.get(drive.id) == drive
    [problem] = resolve(project, catalog=catalog).problems
    assert problem.severity == "warning" and f"'{drive.id}' cannot be read" in problem.message


def test_a_pinned_record_that_differs_from_today_says_so_with_the_repin_step(tmp_path: Path):
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    drive_id = next(n.drive for n in project.scenario.nodes if getattr(n, "drive", None))
    today = bundled_catalog().get(drive_id)
    smaller = int(today.right_sized_bytes * 0.9)
    path = tmp_path / "old.storplan"
    save_project(project, path, catalog=bundled_catalog().with_entries(
        [today.model_copy(update={"right_sized_bytes": smaller})]))
    design = resolve(project, catalog=load_project_file(path).catalog)
    [own] = design.own_records
    assert (own.id, own.origin, own.new) == (drive_id, "pinned", False)
    assert [(d.field, d.project_value, d.catalog_value) for d in own.differences] == [
        ("right_sized_bytes", smaller, today.right_sized_bytes)]
    [problem] = design.problems
    assert problem.severity == "warning"
    assert f"'{drive_id}'" in problem.message and f"right_sized_bytes {smaller} (catalog {today.right_sized_bytes})" \
        in problem.message and REPIN_HINT in problem.message
    # the saved number applies, and its source says it is the file's, not the catalog's
    record = design.catalog.get(drive_id)
    assert record.right_sized_bytes == smaller
    assert record.sources["right_sized_bytes"].startswith(PROJECT_SOURCE_PREFIX)
    assert record.sources["marketed_bytes"] == today.sources["marketed_bytes"]  # what did not change stays sourced


def test_the_one_rule_pinned_then_the_users_then_bundled(tmp_path: Path, qapp):
    """A TOML project (no pins) evaluates against the user's record of a bundled id; a .storplan file saved
    before the user's record existed keeps its pinned (bundled) record over the user's, and says that today's
    data differs; the command line and the app's loader give the same base catalog."""
    from app.gui.project_io import read_project_file
    from models.user_catalog import save_user_record

    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    drive_id = next(n.drive for n in project.scenario.nodes if getattr(n, "drive", None))
    bundled = bundled_catalog().get(drive_id)
    path = tmp_path / "before.storplan"
    save_project(project, path)  # no user record yet: the bundled one is pinned
    users = bundled.model_copy(update={"right_sized_bytes": int(bundled.right_sized_bytes * 0.8)})
    save_user_record(users)

    toml_usable = evaluate(project).capacity.total.usable_bytes
    assert resolve(project).catalog.get(drive_id) == users
    pinned = load_project_file(path).catalog
    assert pinned.get(drive_id) == bundled
    loaded = read_project_file(path, read_only=True)
    assert loaded.base_catalog.get(drive_id) == bundled
    from app.gui.document import ProjectDocument

    document = ProjectDocument()
    document.reset(loaded.project, loaded.path, loaded.base_catalog)  # as the window opens a file
    shown = document.catalog.get(drive_id)  # the saved number, its source marked as the file's
    assert shown.right_sized_bytes == bundled.right_sized_bytes
    assert shown.sources["right_sized_bytes"].startswith(PROJECT_SOURCE_PREFIX)
    file_usable = evaluate(project, catalog=pinned).capacity.total.usable_bytes
    assert toml_usable < file_usable
    assert file_usable == evaluate(project, catalog=bundled_catalog()).capacity.total.usable_bytes
    # today's data is the user's record (what Update on the app's bar would pin): the file says it differs
    [problem] = resolve(project, catalog=pinned).problems
    assert (f"'{drive_id}'" in problem.message and f"right_sized_bytes {bundled.right_sized_bytes} "
            f"(catalog {users.right_sized_bytes})" in problem.message)


# --- a project's own record with a bundled id -----------------------------------------------------------------


def _crafted_aff8080() -> dict:
    """The bundled AFF8080A EX record with every profile's CPU demands divided by 10 and an invented source."""
    record = bundled_catalog().get(AFF8080).model_dump(mode="json", exclude_unset=True)
    for profile in record["performance"]:
        for name in PROFILE_CPU_FIELDS:
            if name in profile:
                profile[name] = profile[name] / 10
        # the crafted record even claims StorPlan's own fit: kinds and fit names kept, sources invented
        profile["provenance"] = {k: {**v, "source": "NetApp datasheet DS-0000 (invented)"}
                                 for k, v in profile["provenance"].items()}
    return record


def test_a_project_record_redefining_a_bundled_controller_is_marked_as_the_projects(tmp_path: Path):
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    crafted = project.model_copy(update={"custom_catalog": {"controller": [_crafted_aff8080()]}})
    bundled_record = bundled_catalog().get(AFF8080)
    plain, own = evaluate(project), evaluate(crafted)

    # the warning names the record and its differing numbers, each with the catalog's value
    [warning] = [p for p in own.problems if AFF8080 in p.message]
    assert warning.severity == "warning"
    assert warning.message.startswith(f"project record '{AFF8080}' differs from the catalog's: ")
    first = bundled_record.performance[0]
    assert (f"performance[{first.software}/{first.protocol}].cpu_read_us {first.cpu_read_us / 10:g} "
            f"(catalog {first.cpu_read_us:g})") in warning.message
    assert not any(AFF8080 in p.message for p in plain.problems)

    # the project's numbers still apply (the user wanted them): a CPU-bound design saturates much later
    [wp_plain], [wp_own] = plain.performance.workloads, own.performance.workloads
    assert wp_plain.bottleneck.endswith("CPU")
    assert wp_own.saturation_iops > 1.5 * wp_plain.saturation_iops

    # ... but never as a calibrated profile
    assert wp_plain.profile == "calibrated"
    assert wp_own.profile == "assumed"
    assert wp_own.profile_basis.kind == "assumed" and "project file" in wp_own.profile_basis.reason

    # the report's source lines for its numbers say they come from the project file
    from app.report.sources import catalog_numbers

    design = resolve(crafted)
    rows = [n for n in catalog_numbers(design.scenario, design.catalog, project.settings.capacity_unit)
            if n.field.rsplit(": ", 1)[-1] in PROFILE_CPU_FIELDS and bundled_record.name in n.record]
    assert rows and all(n.source.startswith(PROJECT_SOURCE_PREFIX) for n in rows)
    assert all("DS-0000" in n.source for n in rows)  # what the file cites is kept, as the file's claim

    # ... and so does the PDF
    from app.report import render_report_bytes

    text = _pdf_text(render_report_bytes(crafted, validation=[]))
    assert "project file (the project's own value" in text
    assert f"project record '{AFF8080}' differs" in text


@pytest.mark.parametrize("where", ["custom_catalog", "pinned"])
def test_a_project_file_redefining_a_bundled_controller_says_so_from_the_command_line(where, tmp_path: Path):
    """The crafted record in a .storplan file, as the project's own record or as a pinned one: ``storplan
    evaluate --json`` names it in a warning and never calls its profile calibrated."""
    from models.catalog.schema import Controller

    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    path = tmp_path / "crafted.storplan"
    if where == "pinned":
        save_project(project, path, catalog=bundled_catalog().with_entries(
            [Controller.model_validate(_crafted_aff8080())]))
    else:
        save_project(project.model_copy(update={"custom_catalog": {"controller": [_crafted_aff8080()]}}), path)
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(["evaluate", str(path), "--json"]) == 0
    data = json.loads(out.getvalue())
    [warning] = [p for p in data["problems"] if AFF8080 in p["message"]]
    assert warning["severity"] == "warning" and "cpu_read_us" in warning["message"]
    assert (REPIN_HINT in warning["message"]) == (where == "pinned")
    [workload] = data["workloads"]
    assert workload["profile"] == "assumed"
    assert workload["saturation_iops"] > 1.5 * evaluate(project).performance.workloads[0].saturation_iops


def test_a_new_project_record_is_the_projects_own_without_a_warning():
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    record = _crafted_aff8080() | {"id": "lab-aff8080", "name": "Lab AFF8080"}
    design = resolve(project.model_copy(update={"custom_catalog": {"controller": [record]}}))
    [own] = design.own_records
    assert (own.id, own.origin, own.new, own.differences) == ("lab-aff8080", "project", True, ())
    assert design.problems == ()
    marked = design.catalog.get("lab-aff8080")
    assert all(s.startswith(PROJECT_SOURCE_PREFIX) for p in marked.performance for s in p.sources.values())


def test_resolving_a_resolved_catalog_again_changes_nothing():
    project = load_toml(EXAMPLES["aff8080-sqlserver-tpce"])
    crafted = project.model_copy(update={"custom_catalog": {"controller": [_crafted_aff8080()]}})
    once = resolve(crafted)
    twice = resolve(crafted, catalog=once.catalog)
    assert twice.catalog.get(AFF8080) == once.catalog.get(AFF8080)
    assert twice.problems == once.problems


# --- every front door gives one answer ------------------------------------------------------------------------


CAPACITY_FIELDS = ((Drive, "right_sized_bytes"), (CloudDisk, "size_bytes"))
"""Record fields that set usable capacity, tried in this order."""
PERFORMANCE_FIELDS = ((CloudDisk, "iops"), (CloudDisk, "mbps"), (ManagedService, "throughput_mibps_per_tib"),
                      (ManagedService, "max_throughput_mbps"))
"""Where no capacity field moves the usable capacity (a cloud licence cap, a managed service's provisioned
size), record fields that set the saturation, tried in this order; last, a Cloud Volumes ONTAP VM bound by its CPU
gets CPU demands per I/O 1/0.9 as large in its profiles."""


def _altered(project) -> tuple[str, object]:
    """A record the project uses, changed the way an older catalog might have had it, 10% smaller: the first of
    :data:`CAPACITY_FIELDS` (a drive's right-sized capacity, ...) that moves the usable capacity, else the first of
    :data:`PERFORMANCE_FIELDS` that moves a saturation."""
    from models.capacity import evaluate_capacity
    from models.performance import evaluate_performance

    catalog = bundled_catalog()
    scenario = project.scenario
    used = [catalog.find(i) for i in sorted(snapshot_module.referenced_ids(project, catalog))]

    def smaller(record, field):
        value = getattr(record, field)
        return record.model_copy(update={field: type(value)(value * 0.9)})

    usable = evaluate_capacity(scenario, catalog).total.usable_bytes
    for kind, field in CAPACITY_FIELDS:
        for record in used:
            if isinstance(record, kind) and getattr(record, field, None):
                altered = smaller(record, field)
                if evaluate_capacity(scenario, catalog.with_entries([altered])).total.usable_bytes != usable:
                    return record.id, altered
    saturation = [w.saturation_iops for w in evaluate_performance(scenario, catalog, project.settings).workloads]
    for kind, field in PERFORMANCE_FIELDS:
        for record in used:
            if isinstance(record, kind) and getattr(record, field, None):
                altered = smaller(record, field)
                perf = evaluate_performance(scenario, catalog.with_entries([altered]), project.settings)
                if [w.saturation_iops for w in perf.workloads] != saturation:
                    return record.id, altered
    for record in used:
        if isinstance(record, CloudVm) and record.performance:
            slower = [p.model_copy(update={"cpu_read_us": p.cpu_read_us / 0.9, "cpu_write_us": p.cpu_write_us / 0.9})
                      for p in record.performance]
            altered = record.model_copy(update={"performance": slower})
            perf = evaluate_performance(scenario, catalog.with_entries([altered]), project.settings)
            if [w.saturation_iops for w in perf.workloads] != saturation:
                return record.id, altered
    raise AssertionError("no record of the example moves its usable capacity or saturation")


def _pdf_text(data: bytes) -> str:
    from pypdf import PdfReader

    return " ".join((page.extract_text() or "") for page in PdfReader(io.BytesIO(data)).pages)


def _verdict(evaluation, requirements) -> str:
    """The design's one verdict (``models.verdict.design_verdict`` of the evaluation with its failure states,
    against the project's requirements), as every front door prints it."""
    from models.present.verdicts import evaluation_verdict

    assert evaluation.resilience is not None  # the required failure states are part of the verdict
    return evaluation_verdict(evaluation, requirements).text


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_every_front_door_gives_one_answer_for_a_file_with_a_pinned_record_that_differs(name, tmp_path, monkeypatch):
    """``storplan evaluate --json``, the app's evaluation of the opened file, the PDF report and the XLSX export
    give the same usable capacity, saturation and verdict, and that answer is the pinned record's."""
    from openpyxl import load_workbook

    from app.gui.evaluation import run_evaluation
    from app.gui.project_io import read_project_file

    project = load_toml(EXAMPLES[name])
    record_id, altered = _altered(project)
    path = tmp_path / f"{name}.storplan"
    save_project(project, path, catalog=bundled_catalog().with_entries([altered]))

    # the app: open the file as the window does, evaluate on the worker's function
    loaded = read_project_file(path, read_only=True)
    outcome = run_evaluation(loaded.project, (loaded.project.scenario.name,), catalog=loaded.base_catalog)
    assert outcome.error is None
    gui = outcome.evaluation
    assert any(record_id in p.message and p.severity == "warning" for p in gui.problems)
    usable = gui.capacity.total.usable_bytes
    saturation = [wp.saturation_iops for wp in gui.performance.workloads]
    met = [wp.target_met for wp in gui.performance.workloads]
    verdict = _verdict(gui, project.requirements)

    # the pinned record is what counts: today's catalog gives another answer
    today = evaluate(project)
    assert (usable, saturation) != (today.capacity.total.usable_bytes,
                                    [wp.saturation_iops for wp in today.performance.workloads])

    # storplan evaluate --json
    out = io.StringIO()
    with redirect_stdout(out):
        status = main(["evaluate", str(path), "--json"])
    assert status == 0
    data = json.loads(out.getvalue())
    assert data["capacity"]["usable_bytes"] == pytest.approx(usable, rel=1e-12)
    assert [w["saturation_iops"] for w in data["workloads"]] == pytest.approx(saturation, rel=1e-9)
    assert [w["target_met"] for w in data["workloads"]] == met
    assert any(record_id in p["message"] for p in data["problems"])
    assert data["verdict"]["text"] == verdict

    # storplan export-xlsx (the validation sheet left empty: not what is compared, and slow)
    monkeypatch.setattr("app.report.validation_outcomes", lambda: [])
    xlsx = tmp_path / "out.xlsx"
    with redirect_stdout(io.StringIO()):
        assert main(["export-xlsx", str(path), "-o", str(xlsx)]) == 0
    book = load_workbook(xlsx, read_only=True)
    rows = {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True)}
    book.close()
    unit = project.settings.capacity_unit
    assert rows["Usable capacity"] == pytest.approx(round(usable / unit.large_bytes, 4))
    for wp, sat, ok in zip(gui.performance.workloads, saturation, met, strict=True):
        assert rows[f"{wp.name}: saturation"] == pytest.approx(sat, rel=1e-9)
        # a target met only with more outstanding I/O than the workload states reads "Conditional" (review 57)
        from models.present.concurrency import TARGET_CONDITIONAL, target_met_cell

        conditional = target_met_cell(wp) == TARGET_CONDITIONAL
        assert rows[f"{wp.name}: target met"] == (TARGET_CONDITIONAL if conditional else ok)
        assert not conditional or ok  # conditional only where the open model meets it
    assert rows["Verdict"] == verdict

    # the PDF report, as `storplan report` writes it: the usable capacity and the verdict it prints
    from app.report import render_report_bytes
    from models.formatting import fmt_capacity

    cache: dict = {}
    text = _pdf_text(render_report_bytes(loaded.project, evaluation_cache=cache, validation=[],
                                         catalog=load_project_file(path).catalog))
    report = cache[loaded.project.scenario.name]
    assert report.capacity.total.usable_bytes == usable
    assert [wp.saturation_iops for wp in report.performance.workloads] == saturation
    assert fmt_capacity(usable, unit) in re.sub(r"\s+", " ", text)
    assert verdict in re.sub(r"\s+", " ", text)
