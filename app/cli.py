"""The ``storplan`` command line: one ``main()`` for the app and every headless command.

``storplan`` with no arguments opens the desktop app on the AFF8080A EX example; ``storplan PATH`` opens a
project. Headless commands print results and exit 0, 1 when a validation fails, 2 on bad input (with one
clear message, never a traceback).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from dataclasses import asdict
from pathlib import Path

from app.version import __version__

COMMANDS = ("evaluate", "examples", "catalog", "validate", "curve", "import", "export", "report", "calibrate",
            "export-xlsx", "export-csv", "size", "import-prices", "import-env")


RELEASE_AFTER_LOADING = ("evaluate", "size")
"""Commands that release the collector held since start-up (``app.quiet_start``) themselves, once their project
is loaded and the engines imported (:func:`_engines_loaded`; the sizer's in ``_size``, after the project is read);
every other command releases it before it runs."""


def _release_collector() -> None:
    """Freeze what start-up made and turn the cyclic collector back on (``app.quiet_start.release``: a no-op
    unless ``main`` held it)."""
    from app import quiet_start

    quiet_start.release()


def _engines_loaded() -> None:
    """Import the engines an evaluation runs (``models.evaluate`` imports them on first use), then release the
    collector held since start-up (:func:`_release_collector`): the evaluation itself runs with it on."""
    import models.capacity.reduction_band
    import models.performance
    import models.performance.resilience
    import models.verdict  # noqa: F401 - imported for the evaluation that follows

    _release_collector()


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit status 2."""


def app_version() -> str:
    """StorPlan's version (``app.version``, kept equal to pyproject.toml's by a test; no package metadata read)."""
    return __version__


def example_paths() -> dict[str, Path]:
    """Example name -> bundled example file."""
    from models.resources import examples_dir

    return {p.stem: p for p in sorted(examples_dir().glob("*.toml"))}


def resolve_project_path(text: str) -> Path:
    """A project file path, or the path of the bundled example of that name.

    Raises:
        UsageError: neither a file nor an example name.
    """
    path = Path(text)
    if path.exists():
        return path
    examples = example_paths()
    if text in examples:
        return examples[text]
    raise UsageError(f"no project file or example named '{text}' (see 'storplan examples')")


def load_project_file(text: str, *, read_only: bool = False):
    """Load a project (TOML or .storplan) or an example by name, with the catalog it evaluates against
    (``models.store.load_project_file``: a .storplan file's pinned records, then the user's, then the bundled
    catalog), so every command gives the answer the app gives for the same file.

    With ``read_only`` (the commands that only read the project), a ``.storplan`` file another StorPlan has open
    is read as last saved, and one line on stderr says so; the lock is left alone and nothing is written beside
    the file. Without it such a file is refused.

    Returns:
        A ``models.store.ProjectFile`` (``project``, ``catalog``, ``locked_by``).

    Raises:
        UsageError: the file cannot be read or is not a valid project (the message says why and where).
    """
    from models.project import ProjectFormatError
    from models.store import StoreError
    from models.store import load_project_file as load

    path = resolve_project_path(text)
    try:
        loaded = load(path, read_only_if_locked=read_only)
    except (ProjectFormatError, StoreError) as exc:
        raise UsageError(str(exc)) from exc
    _check_own_records(text, loaded)
    if loaded.locked_by is not None:
        _note_open_elsewhere(path, loaded.locked_by)
    return loaded


def _check_own_records(where: str, loaded) -> None:
    """Refuse a project whose own catalog records do not resolve over its base catalog (a record reusing the id of
    another kind's record): every command refuses it in the words ``evaluate`` has always used for it.

    Raises:
        UsageError: ``<where>: project catalog: <what and where>``.
    """
    if not loaded.project.custom_catalog:
        return
    from models.catalog import CatalogError
    from models.design import resolved_catalog

    try:
        resolved_catalog(loaded.project, loaded.catalog)
    except CatalogError as exc:
        raise UsageError(f"{where}: project catalog: {exc}") from exc


def _note_open_elsewhere(path: Path, holder: str) -> None:
    """The one stderr line of a read command on a project another StorPlan holds."""
    print(f"storplan: note: {path} is open in StorPlan elsewhere ({holder}); read as last saved, without the "
          "changes not yet saved there.", file=sys.stderr)


def _refuse_writing_held(project_path: str, output: str) -> None:
    """Refuse an output that is the project file itself while another StorPlan holds it.

    Raises:
        UsageError: ``output`` names the project file and another StorPlan has it open.
    """
    from models.store.lock import held_by_other

    path = Path(project_path)
    holder = held_by_other(path) if path.is_file() else None
    if holder is None:
        return
    out = Path(output)
    try:
        same = out.exists() and os.path.samefile(path, out)
    except OSError:
        same = False
    if same or os.path.realpath(path) == os.path.realpath(out):
        raise UsageError(f"cannot write {out}: it is the project itself, open in StorPlan elsewhere "
                         f"({holder.describe()}). Close it there first; the file is unchanged.")


def load_project(text: str):
    """Load a project (TOML or .storplan) or an example by name (the project of :func:`load_project_file`).

    Raises:
        UsageError: the file cannot be read or is not a valid project (the message says why and where).
    """
    return load_project_file(text).project


def _evaluate(args) -> int:
    from models.design import resolve
    from models.evaluate import evaluate, with_layouts
    from models.present.cost import design_tco, tco_to_dict
    from models.serialize import evaluation_to_dict

    loaded = load_project_file(args.path, read_only=True)
    project = loaded.project
    if args.unit and args.unit != project.settings.capacity_unit.value:  # every sentence in the unit asked for
        from models.units import CapacityUnit  # (the N+k checks are worded as the project's unit while solved)

        project = project.model_copy(update={"settings": project.settings.model_copy(
            update={"capacity_unit": CapacityUnit(args.unit)})})
    try:
        design = with_layouts(resolve(project, args.scenario, loaded.catalog))
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from exc
    _engines_loaded()
    evaluation = evaluate(project, design=design, resilience=True)  # its failure states solved with it
    resilience = evaluation.resilience
    assert resilience is not None  # evaluate adds it when asked
    unit = args.unit or project.settings.capacity_unit.value
    data = evaluation_to_dict(evaluation, project.info.name, resilience, project.requirements, unit)
    tco = design_tco(project, design.scenario, design.catalog)
    data["tco"] = tco_to_dict(tco)
    status = _report_errors(args.path, evaluation)
    if args.json:
        print(json_text(customer_sources(data)))
        return status
    from models.formatting import (
        NOT_MET,
        fmt_capacity,
        fmt_iops,
        fmt_latency_tails,
        fmt_max_iops_at_slo,
        fmt_ratio,
    )
    from models.present.capacity_band import reduction_words
    from models.present.citations import customer_citation
    from models.present.cost import footprint_rows, option_rows
    from models.present.resilience import runway_lines_with_dr_copies, state_verdict
    from models.present.uncertainty import iops_band_text, profile_text, workload_profile_text
    from models.present.verdicts import evaluation_verdict

    print(f"{project.info.name} — scenario '{evaluation.scenario}'")
    decided = evaluation_verdict(evaluation, project.requirements, unit)
    print(f"\n{decided.text}")
    for miss in decided.missed:
        print(f"  missed: {miss.line}")
    from models.present.verdicts import CAUTION, verdicts

    for caution in (v for v in verdicts(evaluation, unit, project.requirements) if v.kind == CAUTION):
        print(f"  caution: {caution.subject}: {caution.text}" if caution.subject else f"  caution: {caution.text}")
    capacity = data["capacity"]
    if capacity:
        print("\nCapacity")
        from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS

        with_snapshots = LOGICAL_DATA_WITH_SNAPSHOTS  # logical data, not capacity: one name in every view
        width = max((len(s["name"]) for s in capacity["steps"]), default=10)
        if capacity["effective_with_snapshots_bytes"] != capacity["effective_bytes"]:
            width = max(width, len(with_snapshots))
        def cap(value: float) -> str:  # one unit down the column (0.91 TiB beside 5.40 TiB, never 931.32 GiB)
            return fmt_capacity(value, unit, fixed=True)

        print("  Raw → usable → effective: each row gives the capacity left after its step.")
        print(f"  {'Step':<{width}}  {'After the step':>14}   Source")
        for step in capacity["steps"]:
            print(f"  {step['name']:<{width}}  {cap(step['bytes_after']):>14}   "
                  f"{customer_citation(step['source'])}")
        print(f"  {'Usable':<{width}}  {cap(capacity['usable_bytes']):>14}")
        print(f"  {'Effective':<{width}}  {cap(capacity['effective_bytes']):>14}   "
              f"data reduction {fmt_ratio(capacity['efficiency_ratio'])} ({reduction_words(evaluation.capacity)})")
        if capacity["effective_with_snapshots_bytes"] != capacity["effective_bytes"]:
            print(f"  {with_snapshots:<{width}}  {cap(capacity['effective_with_snapshots_bytes']):>14}"
                  f"   total efficiency {fmt_ratio(capacity['efficiency_ratio_with_snapshots'])} (logical / physical)")
        copies = [s["system_label"] or s["system_id"] for s in capacity["systems"]
                  if s["system_id"] in capacity.get("replica_only", ())]
        if copies:  # a replication-only destination: its DR copy is not in the totals (Protection and DR below)
            print(f"  Totals of the systems serving workloads: the DR copy on {', '.join(copies)} is not counted "
                  "(see Protection and DR).")
        if evaluation.capacity_band is not None:  # the P10 / P90 band and the break-even (models.present)
            from models.present.capacity_band import band_lines

            for line in band_lines(evaluation.capacity_band, unit):
                print(f"  {line}")
    for w in data["workloads"]:
        print(f"\nWorkload {w['name']} ({w['protocol']})")
        print(f"  saturation            {fmt_iops(w['saturation_iops'])} IOPS")
        on = " p99" if w["slo_statistic"] == "p99" else ""
        from models.present.iops_bound import slo_capped_words

        capped = [slo_capped_words(wp) for wp in (evaluation.performance.workloads if evaluation.performance else ())
                  if wp.workload_id == w["id"]]  # equal to saturation under a published bound: say why (r2 #8)
        from models.present.concurrency import (
            CONDITIONAL_WHY,
            HEADROOM_BASIS,
            TARGET_CONDITIONAL,
            headroom_cell,
            max_iops_with_reach,
            target_met_cell,
        )

        own = [wp for wp in (evaluation.performance.workloads if evaluation.performance else ())
               if wp.workload_id == w["id"]]
        head = max_iops_with_reach(own[0]) if own else fmt_max_iops_at_slo(w["max_iops_at_slo"])
        print(f"  max IOPS at {w['slo_ms']:g} ms{on} SLO  {head}"  # and what the stated concurrency reaches
              + (f" ({capped[0]})" if capped and capped[0] else ""))
        if own and own[0].target_met is not None:  # the words of the report's Performance table
            met = target_met_cell(own[0])
            print(f"  target met            {met}" + (f" ({CONDITIONAL_WHY})" if met == TARGET_CONDITIONAL else ""))
            print(f"  headroom              {headroom_cell(own[0])} ({HEADROOM_BASIS})")
        if w["target_iops"]:
            print(f"  at target {fmt_iops(w['target_iops'])} IOPS: "
                  f"{fmt_latency_tails(w['latency_at_target_ms'], w['latency_p95_ms'], w['latency_p99_ms'])}")
        from models.present.iops_bound import bottleneck_words, iops_bound_words, knee_words

        mine = [wp for wp in (evaluation.performance.workloads if evaluation.performance else ())
                if wp.workload_id == w["id"]]
        held = [iops_bound_words(wp) for wp in mine]  # an IOPS bound: whose figure, per HA pair
        named = bottleneck_words(mine[0]) if mine else w["bottleneck"]  # the HA pair's bound; E-Series controllers
        print(f"  bottleneck            {named or 'none'}" + (f", {held[0]}" if held and held[0] else ""))
        if w.get("profile"):
            found = [wp for wp in (evaluation.performance.workloads if evaluation.performance else ())
                     if wp.name == w["name"]]  # a vSAN cluster or a managed service: the words every view uses
            print(f"  profile               {workload_profile_text(found[0]) if found else profile_text(w['profile'])}")
            basis = w.get("profile_basis") or {}
            if basis.get("sibling"):
                sibling = customer_citation(basis["sibling"])  # the record's name, not its id
                print(f"  derived from          {sibling}, CPU demands / {basis['ratio']:g}")
            slo_band = iops_band_text(w['max_iops_at_slo_band_p10'], w['max_iops_at_slo_band_p90'], NOT_MET)
            if slo_band.startswith(f"{NOT_MET} – ") and not slo_band.endswith(NOT_MET):  # never a range that
                # starts at "not met" (review 57)
                slo_band = ("from none (the pessimistic case misses the SLO at every load) to "
                            f"{slo_band[len(NOT_MET) + 3:]}")
            print("  uncertainty band      "
                  f"{iops_band_text(w['saturation_iops_band_p10'], w['saturation_iops_band_p90'])} IOPS at saturation; "
                  f"{slo_band} IOPS at the SLO (P10-P90 of the prediction)")
        if w.get("knee_note"):
            print(f"  curve shape           {knee_words(mine[0]) if mine else w['knee_note']}")
        normal = next((wp for wp in (evaluation.performance.workloads if evaluation.performance else ())
                       if wp.workload_id == w["id"]), None)  # a state faster than normal says why
        for state in resilience.states.get(w["id"], ()):
            print(f"  {state_verdict(state, normal)}")
    print("\nRunway")
    from models.project.model import growth_unmeasured

    for line in runway_lines_with_dr_copies(resilience, evaluation, growth_unmeasured(design.scenario.workloads)):
        print(f"  {line}")
    print(f"\nCost and footprint over {tco.inputs.horizon_months} months")
    for label, value in footprint_rows(tco):
        print(f"  {label:<32}  {value}")
    for name, total, even in option_rows(tco)[:4]:
        print(f"  {name}: {total}" + (f", break-even {even}" if even else ""))
    if tco.scope:  # a DR copy or a second site the cloud options do not have
        print(f"  {tco.scope}.")
    if evaluation.protection is not None and evaluation.protection.relationships:
        from models.present.protection import lines as protection_lines

        print("\nProtection and DR")
        for line in protection_lines(evaluation.protection, unit):
            print(f"  {line}")
    if data["problems"]:
        print("\nProblems")
        for p in data["problems"]:
            print(f"  [{p['severity']}] {p['message']}")
            if p.get("sources"):  # the limits' sources, as the report and the GUI's tooltip cite them
                print(f"      sources: {customer_citation(p['sources'])}")
    return status


def json_text(data) -> str:
    """``data`` (dicts, lists, strings, numbers, None) as indented JSON text, the text ``json.dumps(data, indent=2)``
    writes (ASCII, non-ASCII characters escaped; NaN and infinities as ``NaN`` / ``Infinity``), written by
    pydantic-core's serializer: about 1 ms for the default example's evaluation against 9-10 ms for the standard
    library's encoder, which runs in pure Python whenever it indents. The one difference: a number below 1e-4 in
    magnitude may be spelled otherwise (``1.9e-5`` or ``0.000019`` for ``1.9e-05``), the same value when read."""
    from pydantic_core import to_json

    return to_json(data, indent=2, ensure_ascii=True).decode("ascii")


_CITED_KEYS = frozenset({"source", "reason", "sources"})
"""Keys of ``evaluate --json`` whose text values are citations or carry them (a capacity step's source, a profile
basis's reason, a problem's sources): :func:`customer_sources` rewrites them; a ``notes`` list's texts likewise."""


def customer_sources(data):
    """``data`` (``evaluate --json``'s dicts and lists) with every source text, profile reason and note as the
    customer reads it in the report and the GUI (``models.present.citations.customer_citation``: seed reports by
    title, public addresses, no research notes, file or module names); every other value the same object. Review
    54 (answers #15): the JSON printed "seed 000 §1.3" and "public_facts.md" where the PDF cites the documents."""
    from models.present.citations import customer_citation

    def walk(value, key: str = ""):
        if isinstance(value, dict):
            return {k: walk(v, k) for k, v in value.items()}
        if isinstance(value, list):
            return [walk(v, key) for v in value]
        if isinstance(value, str) and value and (key in _CITED_KEYS or key == "notes"):
            return customer_citation(value)
        return value

    return walk(data)


def _report_errors(where: str, evaluation) -> int:
    """Print each error-severity problem as one line on stderr; 2 when there are any (bad input), else 0."""
    for problem in evaluation.errors:
        print(f"storplan: {where}: {problem.message}", file=sys.stderr)
    return 2 if evaluation.errors else 0


def _examples(args) -> int:
    from models.project import load as load_toml

    for name, path in example_paths().items():
        project = load_toml(path)
        print(f"{name}\t{project.info.name}")
    return 0


def _catalog(args) -> int:
    from models.catalog import CatalogError
    from models.store import default_catalog

    try:
        catalog = default_catalog()  # a broken user file: the bundled catalog (main printed the warning)
        entries = catalog.of_kind(args.kind) if args.kind else sorted(catalog, key=lambda e: (e.kind, e.name))
    except CatalogError as exc:
        raise UsageError(str(exc)) from exc  # the message lists the known kinds
    chosen = [flag for flag in ("sources", "audit", "evidence") if getattr(args, flag)]
    if len(chosen) > 1:
        raise UsageError(f"give one of --sources, --audit and --evidence (got {', '.join('--' + f for f in chosen)})")
    if args.sources:
        from collections import Counter

        from models.catalog.provenance import catalog_counts, counts_line

        by_kind = catalog_counts(entries)
        for kind, counts in by_kind.items():
            print(counts_line(kind, counts))
        print(counts_line("total", sum(by_kind.values(), Counter())))
        return 0
    if args.audit:
        return _catalog_audit(list(catalog), entries)
    if args.evidence:
        return _catalog_evidence(catalog, entries)
    for entry in sorted(entries, key=lambda e: (e.kind, e.name)):
        print(f"{entry.kind:<11} {entry.id:<38} {entry.name}")
    return 0


def _catalog_evidence(catalog, entries) -> int:
    """``storplan catalog controller --evidence``: per controller and protocol it serves, the profile it runs on
    and the public evidence behind it with its kind (models.performance.evidence)."""
    from models.catalog import Controller
    from models.present.catalog_browser import EVIDENCE_LEGEND, evidence_table

    controllers = sorted((e for e in entries if isinstance(e, Controller)), key=lambda e: e.name)
    if not controllers:
        raise UsageError("--evidence lists controllers: give the kind 'controller' or none")
    print("Per controller (catalog id, software release) and protocol: the performance profile it runs "
          "on, the kind of public evidence behind it (blank: the same words as the profile) and that evidence. "
          f"Profiles: {EVIDENCE_LEGEND}.")
    print(f"  {'Protocol':<9} {'Profile':<23} {'Evidence kind':<23} Evidence")
    for record in controllers:
        print(f"{record.name} ({record.id}, {record.default_software})")
        for line in evidence_table(record, catalog):
            print(f"  {line.protocol:<9} {line.profile:<23} {line.kind:<23} {line.text}")
    return 0


def _footprint_failures(everything) -> list[str]:
    """The audit's footprint rule over every array platform the sizer proposes for the bundled AFF A70 example's
    hosts and workload (the sizer gives hosts the adapters each protocol needs)."""
    from models.catalog import Catalog
    from models.catalog.audit import footprint_failures
    from models.resources import examples_dir
    from models.sizing import array_proposals
    from models.store import load_any

    base = load_any(examples_dir() / "aff-a70-ns224-oracle-nvmetcp.toml").scenario
    return footprint_failures(array_proposals(base, Catalog(everything)))


def _catalog_audit(everything, entries) -> int:
    """``storplan catalog --audit``: per kind, the numbers a sizing depends on with their source kind, the kinds'
    counts, then the consistency rules over the whole catalog; 1 when a rule fails."""
    from models.catalog.audit import consistency_failures, kind_shares, sizing_numbers

    rows = sizing_numbers(sorted(entries, key=lambda e: (e.kind, e.id)))
    kind = ""
    for row in rows:
        if row[0] != kind:
            kind = row[0]
            print(f"== {kind}")
        print(f"  {row[1]:<38} {row[2]:<26} {row[3]:<40} {row[4]}")
    for kind, counts in kind_shares(rows).items():
        print(f"{kind}: " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    failures = consistency_failures(everything) + _footprint_failures(everything)
    for failure in failures:
        print(f"FAIL {failure}")
    print(f"consistency: {len(failures)} failure(s)" if failures else "consistency: every rule holds")
    return 1 if failures else 0


def _print_checks(outcomes, verbose: bool) -> None:
    """The validation table: one row per check (case, quantity, published, predicted, error, result, basis,
    out-of-sample; with ``verbose`` the interpretation and fit notes), a FAIL row per case that did not run."""
    from models.formatting import fmt_signed_pct
    from models.present.validation import error_text, predicted_text, published_text  # the words of the tab and PDF
    from models.validation.tolerances import tolerance_reason

    rows = []
    for outcome in outcomes:
        if outcome.error:
            rows.append((outcome.case_id, "-", "-", "-", "-", "FAIL", "-", "-", outcome.error))
        for check in outcome.checks:
            oos = check.out_of_sample_error
            rows.append(
                (
                    check.case_id,
                    check.quantity,
                    published_text(check),
                    predicted_text(check),
                    error_text(check),
                    "pass" if check.passed else "FAIL",
                    check.sample_mark,
                    (fmt_signed_pct(oos * 100) if oos is not None
                     else "no prediction" if check.out_of_sample is not None else "-"),
                    "; ".join(t for t in (check.interpretation, check.fitted_by, check.arithmetic,
                                          check.out_of_sample_note, "tolerance: " + tolerance_reason(check,
                                                                                                   outcome.section))
                              if t) if verbose else "",
                )
            )
    headers = ("case", "quantity", "published", "predicted", "error", "result", "basis", "out-of-sample", "")
    widths = [max(len(str(r[i])) for r in [headers, *rows]) for i in range(8)]
    for row in [headers, *rows]:
        line = "  ".join(str(v).ljust(widths[i]) for i, v in enumerate(row[:8]))
        print(line.rstrip() + (f"  {row[8]}" if row[8] else ""))


def _validate(args) -> int:
    from models.validation import error_summary, run_validation, stored_cross_validation

    if args.cross_validate:
        from models.validation.cross_validation import cross_validate

        print("cross-validating every fitted performance case (refits the calibration; takes minutes)...", flush=True)
        cv, cv_status = cross_validate(verbose=True), ""
    else:
        cv, cv_status = stored_cross_validation()
    outcomes = run_validation(cross_validation=cv)
    _print_checks(outcomes, args.verbose)
    summary = error_summary(outcomes)
    print("\nperformance, relation and cloud cases (out-of-sample = leave-one-out: the case left out of the "
          "calibration):")
    for text in summary.lines():
        print(text)
    print(summary.predictions.line("predictions (never fitted)"))
    if summary.not_cross_validated and cv is not None:
        print(f"{summary.not_cross_validated} in-sample checks are not cross-validated (constants, inputs or readings "
              "chosen from their numbers; -v says which)")
    if cv_status:
        print(f"cross-validation: {cv_status}")
    ramps = _print_ramps(args.verbose, cv)
    from models.validation.headline_extras import BundledOutcomes, full_headline, headline_extras

    extras = headline_extras(cv)  # each calibrated platform left out: its hardware relation from the others
    print(extras.holdout)
    _print_ladders(args.verbose)
    # the headline last (models.validation.summary.headline): every check once in its category, the failing ones
    # by name, the prediction summaries against their targets (the platforms left out among them), the band
    # coverage measured on the same out-of-sample points, and the verdict that sets the exit status
    head, extra_lines = full_headline(BundledOutcomes([*outcomes, *ramps], extras))
    print()
    for line in head.failing_lines():
        print(line)
    for line in head.lines(out_of_sample_extra=extra_lines):
        print(line)
    return head.exit_status


def _print_ramps(verbose: bool, cv) -> list:
    """The public measured ramps, printed after the seed cases' summaries (models.validation.ramp_cases):
    in-sample where a calibration fits the ramp (with its leave-one-ramp-out prediction), predictions elsewhere,
    each kind with its summary line. Returns their outcomes, which the headline counts."""
    from models.validation import error_summary, run_ramps

    ramps = run_ramps(cross_validation=cv)
    if not ramps:
        return ramps
    print("\nmeasured ramps (public benchmarks; counted in the headline below; out-of-sample = the ramp left out of "
          "the calibration):")
    _print_checks(ramps, verbose)
    summary = error_summary(ramps, sections=("ramp",))
    print(summary.in_sample.line("ramps in-sample"))
    print(summary.out_of_sample.line("ramps out-of-sample"))
    print(summary.predictions.line("ramp predictions (never fitted)"))
    checks = [c for o in ramps for c in o.checks]
    print(f"{sum(c.passed for c in checks)} of {len(checks)} ramp checks within tolerance"
          + "".join(f"; {o.case_id}: {o.error}" for o in ramps if o.error))
    return ramps


def _short(catalog, record_id: str) -> str:
    """A controller's name without the vendor, "HA pair" and what follows the model (the ladder table's width):
    "AFF A20", "E2800"."""
    name = catalog.find(record_id).name.removeprefix("NetApp ").removesuffix(" HA pair")
    for tail in (" all-NVMe", " hybrid", " flash", " ("):
        name = name.split(tail)[0]
    return name


def _own_drives(catalog, step) -> str:
    """"drives differ: ..." when a ladder step's platforms take no common drive (each its own), else ""."""
    if not (step.smaller_drive or step.larger_drive):
        return ""
    return "drives differ: " + ", ".join(f"the {role} on {catalog.find(d).name}" for role, d in
                                         (("smaller", step.smaller_drive), ("larger", step.larger_drive)) if d)


def _cited(step) -> str:
    """A ladder step's cited public figure with what it contradicts on which workloads ("" without one)."""
    if not step.contradicted:
        return ""
    return (f"a cited public figure contradicts its {' and '.join(step.contradicts)} on "
            f"{', '.join(w.upper() for w in step.contradicted_workloads)}: {step.contradicted}")


def _print_ladders(verbose: bool) -> None:
    """The platform ladders (models.validation.ladders), after the ramps and before the seed cases' pass count,
    left out of it and of the exit status: the two summary lines (checks that hold, and, when a step's cited public
    figure contradicts it, the checks that fail only there and those that fail otherwise; platforms whose bundled
    workloads run on the uncalibrated default profile), with ``verbose`` every step with both platforms' numbers
    and every platform's profile basis ("contradicted" for a check that fails only where its figure says so)."""
    from models.catalog import bundled_catalog
    from models.validation.ladders import LATENCY_TOLERANCE, SATURATION_TOLERANCE, platform_bases, run_ladders

    catalog = bundled_catalog()
    run = run_ladders(catalog)
    print("\nplatform ladders (a larger model against the smaller of its family, a successor against the system it "
          "replaces; the same drives, shelf, hosts and front end on both; not in the pass count below nor in the "
          f"exit status for now; holds when saturation is not lower by more than {SATURATION_TOLERANCE:.0%} and "
          f"light-load latency not higher by more than {LATENCY_TOLERANCE:.0%}):")
    if verbose:
        headers = ("smaller", "larger", "workload", "saturation: smaller", "larger", "light-load ms: smaller", "larger",
                   "result", "basis", "")
        rows = [headers]
        for c in run.checks:
            rows.append((_short(catalog, c.step.smaller), _short(catalog, c.step.larger),
                         f"OLTP 8K 70/30 {c.protocol}" if c.workload == "oltp" else "NFS SPEC SFS 2008 mix",
                         f"{c.smaller.saturation:,.0f}", f"{c.larger.saturation:,.0f}",
                         f"{c.smaller.light_ms:.3f}", f"{c.larger.light_ms:.3f}",
                         "holds" if c.holds else "contradicted" if c.contradicted else "FAILS",
                         f"{c.step.relation}: {c.step.basis_kind}",
                         "; ".join(t for t in (c.why, f"profiles {c.smaller.profile} / {c.larger.profile}",
                                               _own_drives(catalog, c.step), _cited(c.step)) if t)))
        widths = [max(len(str(r[i])) for r in rows) for i in range(9)]
        for row in rows:
            print(("  ".join(str(v).ljust(widths[i]) for i, v in enumerate(row[:9])) + f"  {row[9]}").rstrip())
    for step, why in run.errors:
        print(f"not evaluated: {_short(catalog, step.smaller)} < {_short(catalog, step.larger)}: {why}")
    cited = (f", {run.contradicted} fail only where a cited public figure says so (contradicted), "
             f"{len(run.checks) - run.holding - run.contradicted} fail otherwise") if run.contradicted else ""
    print(f"platform ladders: {len(run.checks)} checks, {run.holding} hold{cited} (not in the pass count below)")
    bases = platform_bases(catalog)
    if verbose:
        for b in bases:
            print(f"  {b.kind}: {b.name}: " + ", ".join(f"{p} {label}" for p, label in b.bases))
    kinds = (("controller", "controllers"), ("cloud VM", "Cloud Volumes ONTAP VMs"),
             ("managed service", "managed services"))
    parts = []
    for kind, words in kinds:
        of_kind = [b for b in bases if b.kind == kind]
        parts.append(f"{words} {sum(b.on_default for b in of_kind)} of {len(of_kind)}")
    print(f"platforms on the uncalibrated default: {sum(b.on_default for b in bases)} of {len(bases)} "
          f"({', '.join(parts)}; a platform counts when its OLTP or NFS workload runs on it; managed services run "
          "on their published limits, not on a CPU profile)")


def _curve(args) -> int:
    from models.evaluate import evaluate

    loaded = load_project_file(args.path, read_only=True)
    evaluation = evaluate(loaded.project, catalog=loaded.catalog)
    if evaluation.performance is None:
        raise UsageError("; ".join(p.message for p in evaluation.errors) or "no performance result")
    names = {w.name: w for w in evaluation.performance.workloads} | {
        w.workload_id: w for w in evaluation.performance.workloads
    }
    wp = names.get(args.workload)
    if wp is None:
        raise UsageError(f"no enabled workload named '{args.workload}' (have: {', '.join(sorted(names))})")
    sep = "," if args.csv else "\t"
    print(sep.join(("iops", "latency_ms", "MB/s")))
    for p in wp.curve:
        print(sep.join((f"{p.iops:.1f}", f"{p.latency_ms:.4f}", f"{p.mbps:.2f}")))
    note = _curve_end_note(wp)
    if note:
        print(f"storplan: {note}", file=sys.stderr)
    return 0


def _curve_end_note(wp) -> str:
    """Where ``storplan curve``'s printed curve (the closed ramp) stops relative to the max IOPS at the SLO, in
    words for stderr (the curve on stdout stays plain rows); "" without a curve."""
    if not wp.curve:
        return ""
    last = wp.curve[-1]
    end = (f"the curve is the closed ramp of outstanding I/Os; it ends at {last.iops:,.0f} IOPS "
           f"({last.latency_ms:.3g} ms)")
    slo = f"{wp.slo_ms:g} ms"
    if wp.max_iops_at_slo is None:
        return f"{end}; no load meets the SLO of {slo}"
    at_slo = f"the max IOPS at the SLO of {slo} ({wp.max_iops_at_slo:,.0f} IOPS)"
    if wp.max_iops_at_slo > last.iops * (1 + 1e-9):
        return (f"{end}, below {at_slo}, which the open model gives beyond the ramp (its points up to saturation, "
                f"{wp.saturation_iops:,.0f} IOPS, are the open_curve of storplan evaluate --json)")
    return f"{end}; {at_slo} is on it"


def _import(args) -> int:
    from models.project import ProjectFormatError
    from models.store import StoreError, import_toml

    load_project_file(args.source, read_only=True)  # refused here in the words of every other command
    try:
        import_toml(Path(args.source), Path(args.output))
    except (ProjectFormatError, StoreError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    print(f"wrote {args.output}")
    return 0


def _export(args) -> int:
    from models.store import StoreError, export_toml
    from models.store.lock import held_by_other

    source = Path(args.source)
    holder = held_by_other(source) if source.is_file() else None
    try:
        export_toml(source, Path(args.output), read_only_if_locked=True)
    except (StoreError, OSError) as exc:
        raise UsageError(str(exc)) from exc
    if holder is not None:
        _note_open_elsewhere(source, holder.describe())
    print(f"wrote {args.output}")
    return 0


def _export_sheets(args, xlsx: bool) -> int:
    """``storplan export-xlsx`` / ``export-csv``: the sizing workbook (summary, bill of materials, capacity
    waterfall, curves, failure states, validation) as one XLSX file or one CSV file per sheet."""
    _refuse_writing_held(args.path, args.output)
    loaded = load_project_file(args.path, read_only=True)  # a file refused before the engines are imported
    from app.report import validation_outcomes
    from app.report.workbook import WorkbookError, sizing_sheets, write_csv_folder, write_xlsx

    outcomes = validation_outcomes()  # the report's: the published cases and the measured ramps, with the extras
    validation = None if isinstance(outcomes, str) else outcomes
    try:
        sheets = sizing_sheets(loaded.project, args.scenario, validation=validation, catalog=loaded.catalog)
    except KeyError as exc:
        raise UsageError(str(exc.args[0])) from exc
    try:
        if xlsx:
            write_xlsx(sheets, Path(args.output))
            print(f"wrote {args.output}")
        else:
            for path in write_csv_folder(sheets, Path(args.output)):
                print(f"wrote {path}")
    except WorkbookError as exc:
        raise UsageError(str(exc)) from exc
    return 0


def _with_prices(project, csv_path: str, catalog=None):
    """``project`` with the price book read from ``csv_path`` (validated against the project's catalog, over the
    base ``catalog``: the file's, None for the default).

    Raises:
        UsageError: the file cannot be read or is not a valid price book (the message names line and column).
    """
    from models.evaluate import project_catalog
    from models.pricing import PriceBookError, read_price_book_file

    try:
        rows = read_price_book_file(csv_path, project_catalog(project, catalog))  # bounded: no device, FIFO, 1 GB
    except PriceBookError as exc:
        raise UsageError(str(exc)) from exc
    from models.project.edits import set_price_book

    try:
        return set_price_book(project, rows)
    except ValueError as exc:
        raise UsageError(str(exc)) from exc


def _import_prices(args) -> int:
    """``storplan import-prices``: store a price book CSV in a project (written to ``-o``, TOML or .storplan)."""
    from models.store import FileFingerprint, StoreError, save_project, save_toml_tracked

    _refuse_writing_held(args.path, args.output)
    out = Path(args.output)
    source = Path(args.path)
    in_place = source.is_file() and out.exists() and os.path.samefile(source, out)
    expected = FileFingerprint.of(out) if in_place else None  # before reading: a save meanwhile is not lost
    loaded = load_project_file(args.path, read_only=True)
    project = _with_prices(loaded.project, args.csv, loaded.catalog)
    from models.store.files import file_format_version
    from models.store.schema import SCHEMA_VERSION

    older = 0  # the file format of a .storplan file written over in place, when older than this StorPlan's
    if in_place and out.suffix.lower() != ".toml":
        version = file_format_version(out)
        older = version if 0 < version < SCHEMA_VERSION else 0
    try:
        if out.suffix.lower() == ".toml":
            save_toml_tracked(project, out, expected_fingerprint=expected)
        else:  # a .storplan file keeps its pinned records
            save_project(project, out, catalog=loaded.catalog, expected_fingerprint=expected)
    except (OSError, StoreError) as exc:
        raise UsageError(f"{out}: {exc}") from exc
    print(f"wrote {out} with {len(project.price_book)} prices in {project.price_book[0].currency}")
    if older:
        print(f"note: {out.name} was in file format {older}; it is now in file format {SCHEMA_VERSION}, which older "
              "StorPlan versions cannot open")
    return 0


def _finite(value: float | None) -> float | str | None:
    """``value`` for JSON: "unknown" for an infinite total (a part without a published price), never inf."""
    return None if value is None else value if math.isfinite(value) else "unknown"


def _money(value: float | None, currency: str | None) -> str:
    """``154,400 USD``, or "" without a price book."""
    return f"{value:,.0f} {currency}" if value is not None and currency else ""


def _size(args) -> int:
    """``storplan size``: the configurations that meet the project's requirements, ranked (``models.sizing``)."""
    if args.top < 1:
        raise UsageError(f"--top {args.top}: give how many candidates to list, at least 1")
    loaded = load_project_file(args.path, read_only=True)  # a file refused before the sizer is imported
    from models.present.bom import BTU_PER_W
    from models.present.headroom import effective_words, sizer_headroom_words
    from models.project.textformat import dumps
    from models.sizing import basis_note, ranking_rule, size, takeover_assumed, tie_words

    _release_collector()  # the sizer imported and the project loaded (RELEASE_AFTER_LOADING)
    project = loaded.project
    if args.prices:
        project = _with_prices(project, args.prices, loaded.catalog)
    result = size(project, top=args.top, catalog=loaded.catalog)
    rows = []
    even: dict = {}
    if project.requirements.rank_on == "tco":
        from models.costing.inputs import running_inputs
        from models.present.cost import candidate_break_even

        inputs = running_inputs(project.requirements.running_costs, project.requirements.horizon_months)
    from models.design import resolved_catalog
    from models.pricing import unpriced_names

    names_from = resolved_catalog(project, loaded.catalog) if project.price_book else None  # the project's own too
    for rank, c in enumerate(result.candidates or result.nearest, start=1):
        names = unpriced_names(names_from, c.unpriced)  # what the text says: product names, never catalog ids
        if project.requirements.rank_on == "tco":
            even = candidate_break_even(c.deployment, c.tco, c.break_even_month, bool(project.price_book), names,
                                        result.cheapest_cloud, inputs.horizon_months,
                                        inputs.support_pct_per_year.value, result.currency or "USD")
        candidate_project = project.with_scenario(c.scenario)
        rows.append({"rank": rank, "summary": c.summary, "meets": c.meets, "reasons": list(c.reasons),
                     "deployment": c.deployment, "usable_bytes": c.usable_bytes, "effective_bytes": c.effective_bytes,
                     "max_iops_at_slo": c.max_iops_at_slo, "headroom_pct": c.headroom_pct,
                     "takeover_headroom_pct": c.takeover_headroom_pct, "takeover_state": c.takeover_state or None,
                     "cost": c.cost,
                     "max_iops_at_slo_host_down": c.max_iops_at_slo_host_down,
                     "max_iops_bound": c.bound or None, "performance_basis": c.basis or None,
                     "assumed": [w for w in [takeover_assumed(c, project.requirements)] if w],
                     "currency": result.currency, "unpriced": list(c.unpriced), "unpriced_names": names,
                     "rack_units": c.rack_units,
                     "power_w": c.power_w, "pareto": c.pareto, "variant": c.variant, "tco": c.tco,
                     "listed_cost": _finite(c.listed_cost),
                     "break_even_month": c.break_even_month, **even,
                     "alternatives": [{"summary": a.summary, "variant": a.variant, "meets": a.meets,
                                       "usable_bytes": a.usable_bytes, "effective_bytes": a.effective_bytes,
                                       "max_iops_at_slo": a.max_iops_at_slo, "headroom_pct": a.headroom_pct,
                                       "max_iops_bound": a.bound or None,
                                       "cost": a.cost, "rack_units": a.rack_units, "power_w": a.power_w}
                                      for a in c.alternatives],
                     "tied_with": [t.summary for t in c.ties], "tie_words": tie_words(c),
                     "project": dumps(candidate_project) if args.json else ""})  # the text only for --json
    if args.json:
        cheapest = result.cheapest_cloud
        print(json.dumps({"candidates": rows, "considered": result.considered, "capped": result.capped,
                          "needed_effective_bytes": result.needed_effective_bytes, "notes": list(result.notes),
                          "rank_on": project.requirements.rank_on,
                          "cheapest_cloud": None if cheapest is None else {"name": cheapest[0], "total": cheapest[1]},
                          "destinations": [asdict(d) for d in result.destinations]},
                         indent=2))
        return 0
    need = result.needed_effective_bytes / 2**40
    needed = f"{need:,.2f} TiB" if need > 0 else "unknown (none stated)"
    from models.costing.cloud_prices import PRICE_CURRENCY
    from models.costing.inputs import running_inputs as _running

    horizon = _running(project.requirements.running_costs, project.requirements.horizon_months).horizon_months
    print(f"{result.considered:,} designs considered; effective capacity needed {needed}"
          + (" (search capped by max_candidates)" if result.capped else ""))
    for note in result.notes:
        print(f"note: {note}")
    if result.destinations:
        from models.replication.sizing import proposal_line

        for proposal in result.destinations:
            print(f"destination: {proposal_line(proposal)}")
    if not result.candidates and not result.nearest:  # nothing tried: the notes above say which filter
        print("No configuration meets the requirements: no design was tried (see the note above).")
    elif not result.candidates:
        print("No configuration meets the requirements. The nearest, nearest first (the least short of what is "
              "needed, then the fewest requirements missed, then the ranking rule):")
    else:  # the rule the ranks and the [Pareto] marks follow (the report and the sizer dialog state the same)
        rule = ranking_rule(result.currency is not None, project.requirements.rank_on).replace("★", "[Pareto]")
        print(rule + ".")
        if basis := basis_note(result.candidates):  # what the figures rest on, once (review 57)
            print(f"Basis: {basis}.")
    for row in rows:
        mark = "meets" if row["meets"] else "fails"
        power = (f"{row['power_w']:,.0f} W ({row['power_w'] * BTU_PER_W:,.0f} BTU/hr) typical" if row["power_w"]
                 else "power n/a")
        space = (f"{row['rack_units']} U, {power}" if row["deployment"] != "cloud"
                 else "in the cloud (no rack space or power on site)")
        money = _money(row["cost"], row["currency"])
        if money and row["unpriced"]:  # a partial price is not a cost: nothing priced says so, never "0 USD"
            money = f"partly priced: {money} + unpriced items" if row["cost"] else "not priced"
        money = f", {money}" if money else ""
        if row["listed_cost"] == "unknown":
            money += ", a part without a published price (ranked after the priced ones)"
        elif row["listed_cost"] is not None:
            money += (f", {row['listed_cost']:,.0f} {PRICE_CURRENCY} over {horizon} months at the providers' "
                      "published prices")
        words = sizer_headroom_words(row["headroom_pct"], row["takeover_headroom_pct"], row["takeover_state"] or "")
        room = f", {words}" if words else ""
        room += f" (max IOPS at the SLO bound by the {row['max_iops_bound']})" if row["max_iops_bound"] else ""
        front = " [Pareto]" if row["pareto"] else ""
        capacity = effective_words(row["effective_bytes"], row["usable_bytes"], lambda b: f"{b / 2**40:,.2f} TiB")
        print(f"{row['rank']:>2}. [{mark}] {row['summary']} — {space}{money}, effective {capacity}{room}{front}")
        if row["tco"] is not None:
            print(f"      total cost over the horizon {row['tco']:,.0f}"
                  + (f"; break-even: {row['break_even']}" if row.get("break_even") else ""))
        for reason in row["reasons"]:
            print(f"      {reason}")
        for assumed in row["assumed"]:  # a managed service's takeover: not modelled, said so
            print(f"      {assumed}")
        if row["performance_basis"]:  # an estimate, or a P10 below the target: said in the row (review 57)
            print(f"      performance: {row['performance_basis']}")
        if row["tie_words"]:
            print(f"      {row['tie_words']}")
        if row["alternatives"]:
            variants = [a["variant"] for a in row["alternatives"]]
            more = len(variants) - CLI_ALTERNATIVES
            print(f"      also with: {'; '.join(variants[:CLI_ALTERNATIVES])}"
                  + (f"; and {more} larger variant{'s' * (more > 1)} (--json lists them)" if more > 0 else ""))
        if row["unpriced"]:
            print(f"      no price for: {', '.join(row['unpriced_names'])}")
    return 0




CLI_ALTERNATIVES = 8
"""Variants of a row ``storplan size`` prints after "also with" (the smallest first; ``--json`` lists them all: one
controller with every drive and shelf count can meet with dozens)."""


def _import_env(args) -> int:
    """``storplan import-env``: read a measured environment (RVTools, Live Optics, ONTAP counters, Azure Migrate),
    group and aggregate it into workloads and requirements (``models.importers.workloads``), and write a project
    built on a starting design that ``storplan size`` can replace."""
    from models.importers.inventory import InventoryError
    from models.importers.registry import check_source, detect, flag_summary, nothing_listed, reader
    from models.importers.workloads import (
        IMPORT_BASE_EXAMPLE,
        capacity_words,
        default_group_by,
        guest_words,
        import_environment,
        nothing_measured,
    )
    from models.project.textformat import dumps
    from models.store import StoreError, is_storplan_path, save_project

    if args.interval is not None and not args.interval > 0:
        raise UsageError(f"--interval {args.interval:g}: give the seconds between counter-table polls (> 0)")
    out = Path(args.output)
    if out.suffix.lower() not in (".storplan", ".toml"):
        raise UsageError(f"-o {out.name}: the project must be a .storplan or .toml file")
    inventories = []
    bad: list[str] = []  # review 57 #10: a damaged file is listed and left out, as the wizard does
    try:
        kinds: dict[str, list[Path]] = {}
        for text in args.files:
            path = Path(text)
            if not path.exists():  # a folder may be an RVTools CSV export
                raise UsageError(f"{path.name}: no such file")
            try:
                if args.source:
                    check_source(path, args.source)
                kinds.setdefault(args.source or detect(path), []).append(path)
            except InventoryError as exc:
                bad.append(str(exc))
        for kind, paths in kinds.items():
            try:
                if kind == "ontap":  # the polls of one collection are read together
                    from models.importers.ontap import read_ontap

                    inventories.append(read_ontap(*paths, interval_s=args.interval, require_interval=True))
                    continue
            except InventoryError as exc:
                bad.append(str(exc))
                continue
            for path in paths:
                try:
                    inventories.append(reader(kind)(path))
                except InventoryError as exc:
                    bad.append(str(exc))
        if bad and not inventories:  # nothing to import: every file named, a non-zero exit
            raise InventoryError("; ".join(bad) if len(bad) == 1 else
                                 f"none of the {len(bad)} files can be imported: " + "; ".join(bad))
        if args.group_by in ("svm", "aggregate") and not any(inv.volumes for inv in inventories):
            raise UsageError(f"--group-by {args.group_by}: groups ONTAP volumes and LUNs, and these files list "
                             "machines only: group them by cluster, datastore or tag")
        empty = [message for inv in inventories if (message := nothing_listed(inv))]
        if empty and len(empty) == len(inventories):
            raise InventoryError("; ".join(empty))
        loaded = load_project_file(IMPORT_BASE_EXAMPLE, read_only=True)
        base = loaded.project
        scenario = base.scenario
        target = next(n.id for n in scenario.nodes if n.kind == "controller")
        group_by = args.group_by or default_group_by(inventories)
        result = import_environment(inventories, target, group_by=group_by, stat=args.stat,
                                    keep_names=args.keep_names,
                                    base=base.requirements.with_changes(families=[], protocols=[]))
        refused = nothing_measured(inventories, result, "no project is written")  # the wizard's rule too
        if refused:  # a project with neither a load nor a capacity sizes nothing: say why instead of writing it
            raise InventoryError(refused)
    except InventoryError as exc:
        raise UsageError(str(exc)) from exc
    from datetime import UTC, datetime

    from app.import_today import TodayError, installed_today
    from models.importers.provenance import import_description, rate_words
    from models.installed import starting_design

    start = starting_design(base.with_scenario(scenario.with_changes(workloads=list(result.workloads))),
                            inventories, result.groups)
    base, scenario = start.project, start.project.scenario
    try:
        today = installed_today(args, inventories, result, base, loaded.catalog)
    except TodayError as exc:
        raise UsageError(str(exc)) from exc
    installed = today.scenario if today is not None else None
    flags = [f for inv in inventories for f in inv.flags]
    print("\n".join(flag_summary(flags)), file=sys.stderr, end="\n" if flags else "")
    for message in bad:  # said before the figures and again last, where it is read
        print(f"not imported: {message}", file=sys.stderr)
    now = datetime.now(UTC).replace(microsecond=0).isoformat()
    info = base.info.with_changes(
        name="Imported environment", customer="", author="", created=now, modified=now,
        description=import_description(
            inventories, result, group_by,
            f"The design is the installed system: {today.summary}." if installed is not None else
            f"The design shown is a starting point for sizing, not a recommendation: {start.note}."))
    from models.importers.measured import measured_import

    project = base.with_scenario(installed if installed is not None else scenario).with_changes(
        info=info, requirements=result.requirements, price_book=[],
        measured=[measured_import(inventories, result, group_by)])
    try:
        if is_storplan_path(out):
            save_project(project, out, catalog=loaded.catalog)
        else:
            from models.atomic import write_text_atomic

            write_text_atomic(out, dumps(project))
    except (StoreError, OSError) as exc:
        raise UsageError(f"cannot write {out.name}: {exc}") from exc
    for group in result.groups:
        load = ("capacity only, needs a preset" if group.needs_preset else
                f"{rate_words(group.iops)} IOPS, {group.read_pct:.0f}% read, {group.block_kib:,.1f} KiB, "
                f"{group.mbps:,.1f} MB/s")
        print(f"{group.name} ({group.members}): {load} [{group.method}]; "
              f"{capacity_words(group.used_bytes, group.provisioned_bytes, group.capacity_basis)}")
        for note in group.notes:
            print(f"      {note}")
    if args.group_by is None and group_by != "cluster":
        print(f"note: grouped by {group_by} (the files' Environment column; --group-by cluster for one group)")
    for note in [*result.notes, *(n for inv in inventories for n in inv.notes)]:
        print(f"note: {note}")
    sized = guest_words(result, inventories) or capacity_words(result.capacity_bytes, result.provisioned_bytes,
                                                                result.capacity_basis)  # review 57 #2
    print(f"wrote {out} ({len(result.workloads)} workload(s), {rate_words(result.iops)} IOPS, "
          f"{sized})")
    if today is not None:
        print("\n".join(today.lines))
    for warning in result.warnings:  # last, where they are read: the figures above are too small (review 57 #1)
        print(f"warning: {warning}")
    if bad:  # review 57 #10: the project holds the other files only
        print("warning: not imported (damaged, or not an export StorPlan reads; the project holds the other "
              "files only): " + "; ".join(bad))
    return 0


def _report(args) -> int:
    from app.report import ReportError, write_report

    _refuse_writing_held(args.path, args.output)  # writing over the project itself is the graver mistake: said first
    if Path(args.output).suffix.lower() != ".pdf":
        raise UsageError(f"-o {Path(args.output).name}: the report is a PDF; name it .pdf")
    loaded = load_project_file(args.path, read_only=True)
    try:
        write_report(loaded.project, Path(args.output), paper=args.paper, catalog=loaded.catalog)
    except ReportError as exc:
        raise UsageError(str(exc)) from exc
    print(f"wrote {args.output}")
    return 0


def _calibrate(args) -> int:
    if not args.csv:
        if args.project or args.save:
            raise UsageError("--project and --save go with --csv")
        from models.resources import catalog_dir
        from models.validation.cross_validation import calibrate_and_cross_validate

        cv = calibrate_and_cross_validate(write=args.write)
        if args.write:  # the platforms left out, and the bands' discrepancy from these residuals and them
            from models.catalog import Catalog
            from models.validation.headline_extras import write_validation_tables

            for written in write_validation_tables(cv, Catalog.from_dir(catalog_dir())):
                print(f"wrote {written}")
        return 0
    if not args.project:
        raise UsageError("--csv needs --project: the lab configuration whose first enabled workload was measured")
    from models.catalog import CatalogError
    from models.evaluate import project_catalog
    from models.user_catalog import save_user_record

    loaded = load_project_file(args.project, read_only=True)  # the fit is saved as user hardware, not here
    from models.calibration import CalibrationError, fit_from_csv  # (scipy: imported once the project is read)

    project = loaded.project
    scenario = project.scenario
    if args.workload:  # the measured workload: the fit takes the first enabled one
        if not any(w.id == args.workload for w in scenario.workloads):
            raise UsageError(f"--workload {args.workload}: {args.project} has no workload of that id")
        scenario = scenario.with_changes(workloads=[w.with_changes(enabled=w.id == args.workload)
                                                    for w in scenario.workloads])
    workload = next((w for w in scenario.workloads if w.performance_enabled), None)
    if workload is None or scenario.node(workload.target) is None:
        raise UsageError(f"{args.project}: no enabled workload with a target to calibrate")
    catalog = project_catalog(project, loaded.catalog)
    try:
        profile = fit_from_csv(Path(args.csv), scenario, catalog, host_side=args.host_side)
    except (CalibrationError, OSError, ValueError) as exc:
        raise UsageError(f"{args.csv}: {exc}") from exc
    print(
        f"fitted {profile.software} {profile.protocol}: cpu_read_us={profile.cpu_read_us:.3f} "
        f"cpu_write_us={profile.cpu_write_us:.3f} servers_per_node={profile.servers_per_node} "
        f"fixed_latency_us={profile.fixed_latency_us:.2f}\n  source: {profile.source}"
    )
    if profile.stderr:
        print("  standard errors: " + ", ".join(f"{k} \u00b1{v:.3g}" for k, v in profile.stderr.items())
              + f" ({profile.sources.get('stderr', '')})")
    if args.save:
        from datetime import date

        from models.user_catalog import calibrated_record, user_file_ids

        node = scenario.node(workload.target)
        record = catalog.get(node.catalog_id)
        mine = calibrated_record(record, profile, date.today(), {e.id for e in catalog} | user_file_ids())
        try:
            path = save_user_record(mine)
        except CatalogError as exc:
            raise UsageError(str(exc)) from exc
        print(f"saved to the user catalog: {path} ({mine.kind} '{mine.id}', \"{mine.name}\"); the stock record "
              f"'{record.id}' is unchanged and sizing offers the fit only under its own name.\n"
              f"  To use it, set catalog_id = \"{mine.id}\" on node '{node.id}' of {args.project} "
              f"(or pick it under My hardware in the app).")
    return 0


def _warn_user_catalog() -> None:
    """One stderr line when the user's catalog file is broken (naming the file and line); the command goes on
    without it (``models.store.default_catalog``) and the file is left as it is for repair."""
    from models.user_catalog import user_catalog_problem

    problem = user_catalog_problem()
    if problem:
        print(f"storplan: warning: your own catalog records are left out (the file is kept as it is): {problem}",
              file=sys.stderr)


class _Unused:
    """What :class:`_OneCommand` gives for a sub-command left out: takes its arguments and defaults, builds
    nothing."""

    def add_argument(self, *args: object, **kwargs: object) -> None:
        """Nothing (the sub-command is not parsed)."""

    def set_defaults(self, **kwargs: object) -> None:
        """Nothing (the sub-command is not parsed)."""


class _OneCommand:
    """The sub-parsers action of :func:`build_parser` for one command line whose first argument is a command: that
    command's parser is built (``add_parser``), every other one is :class:`_Unused`."""

    def __init__(self, sub: argparse._SubParsersAction, command: str) -> None:
        self.sub = sub
        self.command = command

    def add_parser(self, name: str, **kwargs: object) -> argparse.ArgumentParser | _Unused:
        return self.sub.add_parser(name, **kwargs) if name == self.command else _Unused()


PROJECT_HELP = "project file (.toml or .storplan) or example name"
"""The help of every command's project argument (``storplan examples`` lists the example names)."""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The ``storplan`` argument parser: one sub-command per name in ``COMMANDS``, each bound to its handler.

    Each sub-command sets ``func`` (called with the parsed arguments; returns the exit status). `main` opens
    the app itself, before parsing, when the first argument is no command.

    With ``command`` (one of ``COMMANDS``: a command line whose first argument is that command, which is then the
    sub-command argparse parses) only that sub-command's parser is built, the same parser as in the whole one (the
    others would be built for nothing: each argument makes argparse ask the terminal's size, each parser look up a
    translation catalogue for its messages, about 2.7 ms of CPU for all 14; ``tests/test_cli_parser_one.py``).
    """
    parser = argparse.ArgumentParser(
        prog="storplan",
        description="StorPlan: offline storage capacity and performance planner. "
        "Run without a command to open the app (or 'storplan PATH' to open a project).",
    )
    parser.add_argument("--version", action="version", version=f"storplan {app_version()}")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    sub = subparsers if command is None else _OneCommand(subparsers, command)

    p = sub.add_parser("evaluate", help="capacity and performance of a project or example")
    p.add_argument("path", help=PROJECT_HELP)
    p.add_argument("--json", action="store_true", help="machine-readable output")
    p.add_argument("--scenario", help="scenario name (default: the active one)")
    p.add_argument("--unit", choices=("TB", "TiB"), help="capacity unit of the text output and of the sentences and "
                   "formulas in --json (its numbers are bytes)")
    p.set_defaults(func=_evaluate)

    p = sub.add_parser("examples", help="list the bundled examples")
    p.set_defaults(func=_examples)

    p = sub.add_parser("catalog", help="list catalog records (optionally of one kind)")
    p.add_argument("kind", nargs="?", help="drive, shelf, controller, host, adapter, link, switch, hci_node, ...")
    p.add_argument("--sources", action="store_true",
                   help="count the numbers by source kind (sourced, calibrated, derived, assumed) per kind "
                        "and in total")
    p.add_argument("--audit", action="store_true",
                   help="print the numbers a sizing depends on with their source kind, and check the catalog's "
                        "consistency rules (exit 1 when one fails)")
    p.add_argument("--evidence", action="store_true",
                   help="per controller and protocol: the profile it runs on (calibrated, derived, hardware "
                        "relation only, assumed) and the public evidence behind it with its kind")
    p.set_defaults(func=_catalog)

    p = sub.add_parser("validate", help="replay the published cases: published vs predicted")
    p.add_argument("-v", "--verbose", action="store_true", help="print each check's interpretation")
    p.add_argument("--cross-validate", action="store_true",
                   help="recompute the leave-one-out cross-validation now (minutes) instead of reading the stored one")
    p.set_defaults(func=_validate)

    words = ("print a workload's latency-vs-IOPS curve (the closed ramp): IOPS, mean storage latency in ms and "
             "throughput in MB/s (10^6 bytes per second); where the curve stops against the max IOPS at the SLO goes "
             "to stderr")
    p = sub.add_parser("curve", help=words, description=words)
    p.add_argument("path", help=PROJECT_HELP)
    p.add_argument("--workload", required=True, help="workload name or id")
    p.add_argument("--csv", action="store_true", help="comma-separated values (default: tab-separated)")
    p.set_defaults(func=_curve)

    p = sub.add_parser("import", help="convert a TOML project to a .storplan file")
    p.add_argument("source", help="the TOML project file to read (.toml)")
    p.add_argument("-o", "--output", required=True, help="the project file to write (.storplan)")
    p.set_defaults(func=_import)

    p = sub.add_parser("export", help="convert a .storplan file to TOML")
    p.add_argument("source", help="the project file to read (.storplan)")
    p.add_argument("-o", "--output", required=True, help="the TOML file to write (.toml)")
    p.set_defaults(func=_export)

    for name, xlsx, what, written in (
            ("export-xlsx", True, "the sizing as an XLSX workbook (-o OUT.xlsx)", "the workbook to write (.xlsx)"),
            ("export-csv", False, "the sizing as CSV files, one per sheet (-o FOLDER)",
             "the folder to write the CSV files into")):
        p = sub.add_parser(name, help=what)
        p.add_argument("path", help=PROJECT_HELP)
        p.add_argument("-o", "--output", required=True, help=written)
        p.add_argument("--scenario", help="scenario name (default: the active one)")
        p.set_defaults(func=lambda args, xlsx=xlsx: _export_sheets(args, xlsx))

    p = sub.add_parser("size", help="ranked configurations that meet the project's [requirements]")
    p.add_argument("path", help=PROJECT_HELP)
    p.add_argument("--json", action="store_true", help="candidates as JSON, each with its project as TOML")
    p.add_argument("--top", type=int, default=5, help="how many candidates (default 5)")
    p.add_argument("--prices", metavar="CSV", help="use this price book for this run (catalog_id, unit_price, "
                                                   "part_number, currency); import-prices keeps it in the project")
    p.set_defaults(func=_size)

    p = sub.add_parser("import-prices", help="store a price book CSV in a project (-o OUT.toml or OUT.storplan)")
    p.add_argument("path", help=PROJECT_HELP)
    p.add_argument("csv", help="price book: header catalog_id, unit_price[, part_number, currency]")
    p.add_argument("-o", "--output", required=True, help="the project file to write (.toml or .storplan)")
    p.set_defaults(func=_import_prices)

    p = sub.add_parser("import-env", help="import a measured environment (RVTools, Live Optics, ONTAP, Azure Migrate) "
                                          "into a project with workloads and requirements")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="the exports to read, told apart by their content: RVTools xlsx workbooks or CSV export "
                        "folders, Live Optics or Azure Migrate xlsx workbooks, ONTAP counter files (REST JSON volume "
                        "statistics, or counter-table polls with their counter schema, or 'statistics show -raw' "
                        "text with its counter catalogue: the polls of one collection together); a file that "
                        "cannot be read is named and left out, the others are imported (exit 2 only when none "
                        "can be)")
    p.add_argument("-o", "--output", required=True, help="the project to write (.storplan or .toml)")
    p.add_argument("--group-by", choices=("cluster", "datastore", "tag", "svm", "aggregate"), default=None,
                   help="machines (RVTools, Live Optics, Azure Migrate): by cluster, datastore or tag; ONTAP "
                        "volumes and LUNs: by svm or aggregate (cluster and tag mean the SVM, datastore the "
                        "aggregate); svm and aggregate need ONTAP files; default tag for Azure Migrate reports "
                        "with an Environment column, else cluster")
    p.add_argument("--stat", choices=("p95", "peak"), default="p95",
                   help="where only per-machine summaries exist, sum their P95 (default) or peak")
    p.add_argument("--keep-names", action="store_true", help="keep the source's names (default: pseudonyms)")
    p.add_argument("--source", choices=("rvtools", "liveoptics", "ontap", "azure-migrate"),
                   help="the tool every file came from (default: told from each file's content)")
    p.add_argument("--interval", type=float, metavar="SECONDS",
                   help="ONTAP counter-table polls: the seconds between them (their rows carry no clock)")
    p.add_argument("--installed", metavar="CONTROLLER",
                   help="the installed controller (catalog id; default: the model the ONTAP data names): the project "
                        "gets its design, and the measured latency is compared with the predicted one at that load")
    p.add_argument("--installed-drive", metavar="DRIVE",
                   help="with an installed controller: its drive (catalog id; default: its default shelf's first)")
    p.add_argument("--calibration-csv", metavar="CSV",
                   help="write the measured (IOPS, latency) per poll interval for 'storplan calibrate --csv CSV "
                        "--project PROJECT'")
    p.add_argument("--calibration-workload", metavar="WORKLOAD",
                   help="with --calibration-csv: write this imported workload's load (its id or name) instead of "
                        "the whole collection's")
    p.set_defaults(func=_import_env)

    p = sub.add_parser("report", help="write the PDF sizing report (no display needed)")
    p.add_argument("path", help=PROJECT_HELP)
    p.add_argument("-o", "--output", required=True, help="the PDF to write (OUT.pdf)")
    p.add_argument("--paper", choices=("A4", "Letter"), help="default: the project's setting")
    p.set_defaults(func=_report)

    p = sub.add_parser(
        "calibrate",
        help="re-derive the catalog's performance parameters from the published results, or fit a controller to lab "
             "points",
    )
    p.add_argument("--write", action="store_true",
                   help="store the fits to the published cases and their cross-validation in the bundled catalog "
                        "and validation data")
    p.add_argument("--csv", help="lab measurements: CSV with columns iops, latency_ms")
    p.add_argument("--project", help="with --csv: the lab configuration (its first enabled workload)")
    p.add_argument("--host-side", action="store_true", help="with --csv: latencies were measured at the host")
    p.add_argument("--workload", metavar="ID",
                   help="with --csv: the workload the points measure (default: the first enabled one)")
    p.add_argument("--save", action="store_true", help="with --csv: save the fit as a user catalog entry")
    p.set_defaults(func=_calibrate)
    return parser


_parsers: dict[str | None, argparse.ArgumentParser] = {}


def _parser(argv: list[str]) -> argparse.ArgumentParser:
    """:func:`build_parser`'s parser for ``argv``, built once per process: building it takes ~5 ms of CPU (14
    sub-commands, argparse looking up a translation catalogue for each of its ~45 messages), as much as refusing a
    broken file, and parsing never changes it (``parse_args`` reads the parser; a ``--help`` formats it afresh, at
    the terminal's width then). Its handlers are bound when it is built (``set_defaults(func=...)``). A command line
    whose first argument is a command gets the parser of that command alone; any other (``--help``, ``--version``)
    the whole one."""
    command = argv[0] if argv and argv[0] in COMMANDS else None
    if command not in _parsers:
        _parsers[command] = build_parser(command)
    return _parsers[command]


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``storplan`` (console script, ``python -m app`` and the frozen app)."""
    if getattr(sys, "frozen", False):  # a frozen build's evaluation worker process starts here
        import multiprocessing  # (only there: ~10 ms of imports every other command would pay for nothing)

        multiprocessing.freeze_support()
    from_command_line = argv is None
    if from_command_line:  # not for callers running several commands in one process (tests)
        from app import quiet_start

        quiet_start.hold()  # no collection walks what start-up imports and loads (released below or by the command)
    argv = list(sys.argv[1:] if argv is None else argv)
    if not argv or (argv[0] not in COMMANDS and not argv[0].startswith("-")):
        # An example name opens that example as a new, unsaved project (never the bundled file itself); no
        # argument opens the default example the same way.
        path = example = None
        if argv:
            try:
                resolved = resolve_project_path(argv[0])
            except UsageError as exc:
                print(f"storplan: {exc}", file=sys.stderr)
                return 2
            if Path(argv[0]).exists():
                path = str(resolved)
            else:
                example = str(resolved)
        try:
            from app.gui import run_gui
        except ImportError as exc:
            print(f"storplan: the desktop app is not available ({exc}); try 'storplan --help'", file=sys.stderr)
            return 2
        return run_gui(path, example=example)
    args = _parser(argv).parse_args(argv)
    if from_command_line:  # (a command: --version and --help have exited, reading no cache)
        from app import method_cache

        method_cache.install("cli")  # dataclasses' methods from the code an earlier command compiled
    if args.command not in RELEASE_AFTER_LOADING:
        _release_collector()
    try:
        if args.command not in ("examples", "validate"):
            _warn_user_catalog()
        return args.func(args)
    except UsageError as exc:
        print(f"storplan: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
