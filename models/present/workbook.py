"""The sizing as tables a spreadsheet takes: summary, where an imported environment was measured, the workloads as
put in, bill of materials, capacity waterfall, curve points, failure states and validation, each a header row and
rows of plain values (numbers as numbers, with the unit in the column header) built from the same presentation
functions as the report and the screen.

:func:`workbook_sheets` returns ``{sheet name: [header, row, ...]}``; ``app.report.workbook`` writes it as XLSX
(openpyxl) or as one CSV per sheet. Capacities are in the project's chosen unit (TB = 10^12 bytes or TiB = 2^40
bytes, never mixed); latencies in ms; IOPS as counts; MB/s as 10^6 bytes per second.

Safe to send (OWASP "CSV Injection"): every cell goes through :func:`safe_cell`, the one guard between the
sizing and a file: no NaN or infinity (an empty cell, or the words "saturated" / "none" in text), no control
character a spreadsheet's XML refuses, no text past a spreadsheet cell's 32,767 characters. Text that a
spreadsheet would read as a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage return:
:func:`looks_like_formula`) is written as text: with a leading ``'`` in CSV (:func:`csv_text`) and as a string
cell in XLSX (``app.report.workbook``).

What StorPlan writes itself never starts with such a character (a check's rule is "at most the published value",
not "≤" or "="; a tolerance is not a "+5%" cell), so a customer sees the ``'`` only before text someone typed into
the project that starts with one (a name "=SUM(...)"): OWASP's CSV-injection guidance and ASVS 1.2.10 prescribe
exactly that single-quote escape for such a field; a leading space instead is not in the guidance and some
spreadsheets trim it before deciding what a cell is, so it is not used (review 53b #21).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from models.catalog import Catalog
from models.costing.inputs import HCI_HOST_RACK_UNITS
from models.formatting import NOT_MET
from models.present.bom import (
    BTU_PER_W,
    NO_PART_NUMBER,
    BomRow,
    Footprint,
    bill_of_materials,
    footprint,
    part_number,
)
from models.present.capacity_text import text_in_unit
from models.present.concurrency import TARGET_CONDITIONAL, target_met_cell
from models.present.dr_copy import dr_copies, dr_copy_months, dr_copy_runway_label
from models.present.iops_bound import bottleneck_words
from models.present.logical_data import LOGICAL_DATA_WITH_SNAPSHOTS, logical_data_withheld
from models.present.resilience import full_words, state_label, takeover_breach, targets_grow
from models.present.summary import MET_CONDITIONAL, profile_kind_text
from models.present.validation import error_text
from models.present.verdicts import (
    CAPACITY_NOT_JUDGED,
    CAPACITY_NOT_MEASURED,
    CAPACITY_UNMEASURED_WORDS,
    GROWTH_NOT_MEASURED_CELL,
    partly_unmeasured_caution,
)
from models.present.waterfall import scenario_waterfall
from models.pricing import IN_CONTROLLER_PRICE, in_controller_price
from models.project.model import (
    capacity_partly_unmeasured,
    capacity_unmeasured,
    data_growth_unmeasured,
    dataset_unmeasured,
    iops_growth_unmeasured,
)
from models.units import CapacityUnit, capacity_decimals
from models.verdict import design_verdict

if TYPE_CHECKING:
    from models.capacity.reduction_band import CapacityBand
    from models.evaluate import Evaluation, Resilience
    from models.project.model import PriceRow, Project, Scenario
    from models.validation.runner import CaseOutcome

Sheet = list[list[Any]]
"""A header row, then data rows: str, int, float, bool or None cells."""


def _band_edge(edge: float | None, other: float | None) -> float | str | None:
    """A max-IOPS-at-the-SLO band edge as its cell: the figure; "not met" when that edge misses the SLO while the
    other edge exists (the GUI's and the report's "P10–P90 not met – 2.39M"; r2 review #8: the cell was empty);
    empty without a band."""
    if edge is not None and math.isfinite(edge):
        return edge
    return NOT_MET if other is not None and math.isfinite(other) else None


def _cap(value: float | None, divisor: float) -> float | None:
    """Bytes in the chosen unit, rounded to 4 decimals, or to two significant digits when that needs more (up to
    8: ``models.units.capacity_decimals``, so a small non-zero capacity never reads 0); None stays None."""
    if value is None:
        return None
    amount = value / divisor
    return round(amount, min(8, capacity_decimals(amount, 4)))


def summary_sheet(project: Project, evaluation: Evaluation, resilience: Resilience | None,
                  unit: CapacityUnit) -> Sheet:
    """Quantity / value / unit rows: the verdict (``models.verdict.design_verdict`` against the project's
    requirements: whether the design meets them, its sentence, each miss), the scenario's capacity totals
    (effective by data reduction, then the logical data incl. Snapshot copies, left out where the capacity
    requirement is missed: ``models.present.logical_data``), each workload's performance figures with
    their uncertainty bands and profile, and the runway."""
    divisor = unit.large_bytes
    rows: Sheet = [["Quantity", "Value", "Unit"], ["Project", project.info.name, ""]]
    if project.info.description:  # where the figures came from (an imported environment's tool, date, method)
        rows.append(["Description", project.info.description, ""])
    rows.append(["Scenario", evaluation.scenario, ""])
    decided = design_verdict(evaluation.capacity, evaluation.performance, resilience, project.requirements, unit,
                             evaluation.protection, len(evaluation.errors))
    met: bool | str | None = decided.met if decided.stated else None
    if met and decided.conditional:  # met only with more outstanding I/O than stated: never a bare TRUE
        met = MET_CONDITIONAL
    text = decided.text
    scenario = project.scenario_named(evaluation.scenario)
    unmeasured = capacity_unmeasured(scenario.workloads, project.requirements.effective_capacity_bytes)
    if unmeasured and met:  # as the report's summary: 0 bytes "fit" anywhere, so capacity is not judged
        met, text = CAPACITY_NOT_JUDGED_CELL, CAPACITY_NOT_JUDGED
    rows += [["Meets the requirements", met, ""], ["Verdict", text, ""]]
    if unmeasured:
        rows.append(["Caution", CAPACITY_UNMEASURED_WORDS, ""])
    partly = partly_unmeasured_caution(capacity_partly_unmeasured(scenario.workloads))
    if partly is not None:  # as the report's summary: some imported workloads' capacity not measured
        rows.append(["Caution", partly.text, ""])
    rows += [[f"Missed: {m.short}", m.line, ""] for m in decided.missed]
    total = evaluation.capacity.total if evaluation.capacity is not None else None
    copies = dr_copies(evaluation.protection)  # a DR copy's runway beside the systems serving workloads' (as the PDF)
    names = {s.system_id: s.system_label or s.system_id for s in evaluation.capacity.systems} \
        if evaluation.capacity is not None else {}
    if total is not None:
        # logical data incl. Snapshot copies is no headline beside a missed capacity: left out, as the Capacity
        # tab's key figure (the Capacity waterfall sheet keeps it under its name); --json keeps the number
        withheld = logical_data_withheld(evaluation, project.requirements, scenario.workloads, resilience)
        rows += [["Raw capacity", _cap(total.raw_bytes, divisor), unit.value],
                 ["Right-sized capacity", _cap(total.right_sized_bytes, divisor), unit.value],
                 ["Usable capacity", _cap(total.usable_bytes, divisor), unit.value],
                 ["Effective capacity", _cap(total.effective_bytes, divisor), unit.value],
                 ["Data-reduction ratio (compression, compaction, deduplication)",
                  round(total.data_reduction_ratio, 4), RATIO],
                 *([] if withheld else [[LOGICAL_DATA_WITH_SNAPSHOTS, _cap(total.effective_with_snapshots_bytes,
                                                                           divisor), unit.value]]),
                 ["Total efficiency ratio with Snapshot copies and clones (logical / physical)",
                  round(total.efficiency_ratio, 4), RATIO],
                 _months_row(FULL_SERVING if copies else "Months until full", total.months_until_full, full_words)]
        rows += [_months_row(dr_copy_runway_label(names.get(system_id, system_id)), copy.runway_months,
                             dr_copy_months) for system_id, copy in copies.items()]
    band = evaluation.capacity_band
    if band is not None:  # the data-reduction band (models.capacity.reduction_band), as the PDF and screen give it
        rows += [["Effective capacity P10", _cap(band.effective_bytes_p10, divisor), unit.value],
                 ["Effective capacity P50", _cap(band.effective_bytes_p50, divisor), unit.value],
                 ["Effective capacity P90", _cap(band.effective_bytes_p90, divisor), unit.value],
                 ["Data-reduction ratio P10", round(band.data_reduction_ratio_p10, 4), RATIO],
                 ["Data-reduction ratio P50", round(band.data_reduction_ratio_p50, 4), RATIO],
                 ["Data-reduction ratio P90", round(band.data_reduction_ratio_p90, 4), RATIO],
                 _months_row("Months until full P10", band.months_until_full_p10, full_words),
                 _months_row("Months until full P50", band.months_until_full_p50, full_words),
                 _months_row("Months until full P90", band.months_until_full_p90, full_words)]
        be = _break_even_cell(band)
        rows.append(["Break-even data-reduction ratio", be, RATIO if _is_number(be) else ""])
    perf = evaluation.performance
    for wp in (perf.workloads if perf is not None else ()):
        name = wp.name
        rows += [[f"{name}: saturation", wp.saturation_iops, "IOPS"],
                 [f"{name}: saturation band P10", wp.saturation_iops_band_p10, "IOPS"],
                 [f"{name}: saturation band P90", wp.saturation_iops_band_p90, "IOPS"],
                 [f"{name}: max IOPS at the {wp.slo_ms:g} ms SLO", wp.max_iops_at_slo, "IOPS"],
                 *([[f"{name}: IOPS within the SLO at the stated {wp.concurrency:,} outstanding I/Os",
                     wp.iops_at_stated_concurrency, "IOPS"]] if wp.iops_at_stated_concurrency is not None
                   and wp.concurrency is not None else []),  # lower than the max IOPS at the SLO: both (review 57)
                 [f"{name}: max IOPS at SLO band P10", _band_edge(wp.max_iops_at_slo_band_p10,
                                                                  wp.max_iops_at_slo_band_p90), "IOPS"],
                 [f"{name}: max IOPS at SLO band P90", _band_edge(wp.max_iops_at_slo_band_p90,
                                                                  wp.max_iops_at_slo_band_p10), "IOPS"],
                 [f"{name}: target", wp.target_iops, "IOPS"],
                 _latency_row(f"{name}: latency at target", wp.latency_at_target_ms, wp.target_iops),
                 [f"{name}: target met", TARGET_CONDITIONAL if target_met_cell(wp) == TARGET_CONDITIONAL
                  else wp.target_met, ""],
                 [f"{name}: bottleneck", bottleneck_words(wp), ""],
                 [f"{name}: profile", profile_kind_text(wp), ""]]
    if resilience is not None:
        rows += [_months_row("Months until the SLO is breached (growing target)", resilience.months_until_slo_breach,
                             _runway_words(resilience), ALREADY_BREACHED),
                 _months_row("Months until saturation (growing target)", resilience.months_until_saturation,
                             _runway_words(resilience), "already saturated")]
        breach = takeover_breach(resilience) if targets_grow(resilience) else None  # as the report's runway
        if breach is not None:
            rows.append(_months_row(f"Months until the SLO is breached in {breach[1]} at the growing target "
                                    "(required)", breach[0], _runway_words(resilience), ALREADY_BREACHED))
    return rows


ALREADY_BREACHED = "already breached"
"""The Unit cell's words beside an SLO breach at month 0 (the target already misses the SLO)."""
FULL_SERVING = "Months until full (the systems serving workloads)"
"""The Summary's months until full where the scenario replicates: the totals count only the systems serving
workloads, each DR copy has its own row (``models.present.dr_copy.dr_copy_runway_label``), as the report's runway."""


CAPACITY_NOT_JUDGED_CELL = "not judged: capacity not measured"
"""The Summary sheet's "Meets the requirements" cell of a design that meets every other requirement while the
imported data's capacity is not measured (the report's headline: ``models.present.verdicts.CAPACITY_NOT_JUDGED``)."""


def _latency_row(label: str, latency: float | None, target: float | None) -> list[Any]:
    """A Summary row of a latency at the target: the number in ms, "saturated" where the target is past
    saturation (the engine gives no finite latency), empty without a target."""
    if latency is not None and math.isfinite(latency):
        return [label, latency, "ms"]
    return [label, "saturated" if target is not None else None, ""]


RATIO = "x:1"
"""The unit of a ratio (data reduction, efficiency: logical / physical) in the Summary's Unit cell and the
Data-reduction bands' headers; one number format for every ratio (:data:`NUMBER_FORMATS`), as the PDF's 1.43:1."""


def _months_row(label: str, months: float | None, words: Callable[[float | None], str],
                now: str = "full now") -> list[Any]:
    """A Summary row of months: the number with the unit "months" (at 0 or less "months (full now)", ``now``: the
    GUI's and the report's words; the number stays for re-computation), or where there is no such month (None: not
    within the runway, no growth) the report's words for it in the Value cell and no unit (review 53b: an empty
    cell beside "months")."""
    if months is not None and math.isfinite(months):
        return [label, months, "months" if months > 0 else f"months ({now})"]
    return [label, words(None), ""]


def _runway_words(resilience: Resilience) -> Callable[[float | None], str]:
    """How the report words a growing target's month that does not come (``models.present.resilience``):
    "not within ten years" (the runway looks ten years ahead), or where no IOPS target grows, that the targets
    do not grow and what today's targets give."""
    from models.present.resilience import static_targets, targets_grow

    static = "" if targets_grow(resilience) else static_targets(resilience)
    return lambda _months: static or "not within ten years"


IN_CONTROLLER_BAYS = f"none: ordered with the controller, {IN_CONTROLLER_PRICE}"
"""The part number cell of a controller's internal drive bays (``models.pricing.in_controller_price``): no part of
their own to order, and priced 0 in a price book's workbook (review 56)."""


def bom_sheet(scenario: Scenario, catalog: Catalog, unit: CapacityUnit, price_book: Sequence[PriceRow] = ()) -> Sheet:
    """The bill of materials (``models.present.bom``): category, quantity, model, part number and where it comes
    from (the price book, or the catalog; "no public part number" where neither gives one), then the unit and
    extended price when the project has a price book (in its currency), key figures, rack units, typical power (W)
    and heat (BTU/hr, 1 W = 3.412142 BTU/hr), a footprint note (what is not known or assumed: a figure the
    catalog does not give is an empty cell, never 0 or a word in a number column) and used by; a last row totals
    the footprint (``models.present.bom.footprint``, "at least" with the items not counted when a figure is
    missing; for a design wholly in the cloud, no rack space or power on site). The catalog's own ids are not
    shown (review 53b: an id such as a 1.8 TB drive's read as an 18 TB one); the model names the part as the
    PDF's bill of materials does. A controller's internal drive bays the book does not price are part of the
    controller (:data:`IN_CONTROLLER_BAYS`, priced 0), never an empty price read as unpriced."""
    currency = price_book[0].currency if price_book else ""
    prices = {row.catalog_id: row.unit_price for row in price_book}
    header = ["Category", "Quantity", "Model", "Part number", "Part number from"]
    if currency:
        header += [f"Unit price ({currency})", f"Extended price ({currency})"]
    rows: Sheet = [header + ["Key figures", "Rack units", "Typical power (W)", "Heat (BTU/hr)", "Footprint note",
                             "Used by"]]
    for r in bill_of_materials(scenario, catalog, unit, price_book):
        number, where = part_number(catalog, r.catalog_id, price_book)
        bays = r.catalog_id not in prices and in_controller_price(catalog, r.catalog_id)  # sold with the controller
        row: list[Any] = [r.category, r.quantity, r.model, number or (IN_CONTROLLER_BAYS if bays else NO_PART_NUMBER),
                          where]
        if currency:
            price = 0.0 if bays else prices.get(r.catalog_id)
            row += [price, None if price is None or r.quantity is None else round(price * r.quantity, 2)]
        rows.append(row + [r.figures, *_footprint_numbers(r), ", ".join(r.used_by)])
    total = footprint(scenario, catalog)
    last: list[Any] = ["Total", None]
    if total.cloud_only:
        last += ["cloud resources", "", ""]
    else:
        last += [total.counted_words, "", ""]
    if currency:
        last += [None, None]
    rows.append(last + ["", *_total_numbers(total), ""])
    return rows


def _total_numbers(total: Footprint) -> list[Any]:
    """The footprint total's rack units, typical W, BTU/hr and note: a design wholly in the cloud has none on
    site (empty cells, the note says why, as the PDF does); a power that is a sum of known figures only is a lower
    bound ("at least", the note names what is not counted), and no power at all is known (vSAN hosts only) is an
    empty cell, never 0 W."""
    if total.cloud_only:
        return [None, None, None, total.text()]
    missing = total.unknown + ((f"power of the {sum(total.hci_hosts)} vSAN hosts",) if total.hci_hosts else ())
    notes = []
    if total.hci_hosts:
        notes.append(f"rack units with the vSAN hosts at {HCI_HOST_RACK_UNITS} U each (assumed: the catalog gives "
                     "no host height)")
    known_power = total.power_w > 0 or not missing
    if missing:
        notes.append(("at least: " if known_power else "not known: ") + "the catalog gives no figure for "
                     + ", ".join(missing))
    if total.sites > 1:
        notes.append("both MetroCluster sites together")
    power = [round(total.power_w, 1), round(total.btu_per_hr, 1)] if known_power else [None, None]
    return [total.total_rack_units, *power, "; ".join(notes)]


def _footprint_numbers(row: BomRow) -> list[Any]:
    """A bill-of-materials row's rack units, typical W and BTU/hr as numbers (an empty cell where the catalog
    gives no figure, never 0 or a word in a number column) and a note saying what is not known or assumed; all
    empty for a row outside the footprint such as link ports."""
    if not row.in_footprint:
        return [None, None, None, ""]
    notes = []
    if row.category.startswith("HCI hosts"):
        notes.append(f"{HCI_HOST_RACK_UNITS} U a host, assumed (the catalog gives no host height)")
    if row.rack_units is None:
        notes.append("height not known (the catalog gives no figure)")
    if row.power_w is None:
        notes.append("power not known (the catalog gives no figure)")
    power = [None, None] if row.power_w is None else [round(row.power_w, 1), round(row.power_w * BTU_PER_W, 1)]
    return [row.rack_units, *power, "; ".join(notes)]


def waterfall_rows(bars: Sequence, unit: CapacityUnit | str) -> Sheet:
    """Waterfall bars (``models.present.WaterfallBar``, as the capacity view draws them) as a sheet: each step's
    capacity before and after and its change in ``unit`` (named in the headers), the rule's source and formula (its
    figures in ``unit`` too: ``models.present.capacity_text``).
    The capacity view's CSV export writes these rows for the system it shows."""
    unit = CapacityUnit(unit)
    divisor = unit.large_bytes
    u = unit.value
    rows: Sheet = [["Step", "Kind", f"Before ({u})", f"After ({u})", f"Change ({u})", "Source", "Formula"]]
    exact = [value for bar in bars for value in (bar.before, bar.after, abs(bar.change))]
    for bar in bars:
        rows.append([bar.label, bar.kind, _cap(bar.before, divisor), _cap(bar.after, divisor),
                     _cap(bar.change, divisor), bar.source, text_in_unit(bar.formula, unit, exact)])
    return safe_rows(rows)


def _break_even_cell(band: CapacityBand) -> float | str | None:
    """The break-even ratio as a number (x:1) where it means something, else its words
    (``models.present.capacity_band.break_even_text``: no ratio below 1:1, none for a platform without data
    reduction); None without a break-even."""
    from models.present.capacity_band import break_even_text, platform_reduces

    be = band.break_even_data_reduction_ratio
    if be is None:
        return None
    return round(be, 4) if be > 1.0 and platform_reduces(band) else break_even_text(band)


def reduction_band_sheet(band: CapacityBand) -> Sheet:
    """One row per workload: its type, the published P10 / P50 / P90, the ratio P10 / P50 / P90 applied to it (x:1,
    numbers), how the two follow and the source of the published figures, as the PDF's data-reduction table gives
    them (``models.present.capacity_band.band_rows``)."""
    from models.capacity.reduction_band import WORKLOAD_TYPES
    from models.present.capacity_band import spread_explanation

    rows: Sheet = [["Workload", "Type", f"Published P10 ({RATIO})", f"Published P50 ({RATIO})",
                    f"Published P90 ({RATIO})", f"Data-reduction ratio P10 ({RATIO})", f"P50 ({RATIO})",
                    f"P90 ({RATIO})", "How this workload's figures follow", "Source"]]
    for w in band.workloads:
        d = w.distribution
        rows.append([w.name, WORKLOAD_TYPES.get(w.workload_type, w.workload_type), round(d.p10, 4), round(d.p50, 4),
                     round(d.p90, 4), round(w.ratio_p10, 4), round(w.ratio_p50, 4), round(w.ratio_p90, 4),
                     spread_explanation(w), d.source])
    return rows


def waterfall_sheet(evaluation: Evaluation, unit: CapacityUnit) -> Sheet:
    """The scenario's capacity waterfall (``models.present.waterfall``, all systems) as :func:`waterfall_rows`."""
    return waterfall_rows(scenario_waterfall(evaluation.capacity) if evaluation.capacity is not None else (), unit)


def curves_sheet(evaluation: Evaluation, resilience: Resilience | None = None) -> Sheet:
    """Every curve point of every workload (normal state, then each failure state): IOPS, storage latency with
    its uncertainty band, MB/s, and whether the point is on the closed ramp or the open model; "saturated" where a
    band edge (or the latency) is past its saturation, never an empty cell."""
    rows: Sheet = [["Workload", "State", "Model", "IOPS", "Latency (ms)", "Band P10 (ms)", "Band P90 (ms)",
                    "Throughput (MB/s)"]]
    perf = evaluation.performance
    for wp in (perf.workloads if perf is not None else ()):
        curves = [("normal", wp)]
        if resilience is not None:
            curves += [(state_label(s), s.performance) for s in resilience.states.get(wp.workload_id, ())]
        for state, w in curves:
            for model, points in (("closed ramp", w.curve), ("open model", w.open_curve)):
                banded = any(p.latency_band_p10_ms is not None for p in points)  # a curve without a band: empty
                for p in points:
                    rows.append([wp.name, state, model, p.iops, _or_saturated(p.latency_ms),
                                 _or_saturated(p.latency_band_p10_ms) if banded else None,
                                 _or_saturated(p.latency_band_p90_ms) if banded else None, p.mbps])
    return rows


def _or_saturated(ms: float | None) -> float | str:
    """A curve point's latency or band edge (ms) for the Curves sheet: the word "saturated" where it has none
    (the band's pessimistic edge past its own saturation: ``evaluate --json`` prints null there), never an empty
    cell."""
    return ms if ms is not None and math.isfinite(ms) else "saturated"


def _ms(value: float | None) -> float | str | None:
    """A latency cell: the number, or "saturated" where the latency is unbounded (the load is past saturation:
    the rule of every output, never an empty cell or infinity)."""
    if isinstance(value, float) and math.isinf(value) and value > 0:
        return "saturated"
    return value


def resilience_sheet(evaluation: Evaluation, resilience: Resilience | None) -> Sheet:
    """Each workload's failure states: saturation, max IOPS at the SLO, latency at the target, SLO met, the
    time to rebuild and the reason."""
    rows: Sheet = [["Workload", "State", "Saturation (IOPS)", "Max IOPS at SLO (IOPS)", "Latency at target (ms)",
                    "SLO met", "Rebuild (hours)", "Reason"]]
    perf = evaluation.performance
    if resilience is None or perf is None:
        return rows
    for wp in perf.workloads:
        for s in resilience.states.get(wp.workload_id, ()):
            sp = s.performance
            latency = _ms(sp.latency_at_target_ms)
            if latency is None and sp.target_iops is not None:
                latency = "saturated"  # a target past saturation in this state: no finite latency
            rows.append([wp.name, state_label(s), sp.saturation_iops, sp.max_iops_at_slo,
                         latency, s.meets_slo, s.rebuild_hours, s.reason])
    return rows


def validation_sheet(outcomes: Sequence[CaseOutcome] | None) -> Sheet:
    """The validation checks as the report's "Model validation" table gives them (the same outcomes: the published
    cases and the measured ramps, ``app.report.validation_outcomes``), numbers as numbers: the published result
    (its title and section, ``models.present.case_titles.case_title``), the quantity in words
    (``models.validation.labels.quantity_label``), when the check passes in words (``rule_text``: "within ±10% of
    the published value", "at most the published value"), published (the bound or the range's low end), published
    to (a range's high end), predicted, the signed error in percent to the report's one decimal (None where the
    check compares no values: a range or an expectation, whose Result says what was found), result ("pass" /
    "fail"), basis (``category_text``: in-sample, definitional arithmetic, yes / no or a never-fitted
    prediction), the leave-one-out prediction and its result where the check has one (what the headline counts
    out-of-sample), and the source: the public document, cited in full (``case_source``). A case that could not
    run has one row saying why."""
    from models.present.case_titles import case_source, case_title
    from models.present.validation import category_text, quantity_label, rule_text

    rows: Sheet = [["Published result", "Quantity", "Passes when", "Published", "Published to", "Predicted",
                    "Error (%)", "Result", "Basis", "Out-of-sample prediction", "Out-of-sample result", "Source"]]
    for outcome in outcomes or ():
        title = case_title(outcome.case_id, outcome.seed, address=False) or outcome.case_id
        source = case_source(outcome.case_id, outcome.seed)
        if outcome.error:
            rows.append([title, None, None, None, None, None, None, f"fail (could not run: {outcome.error})", None,
                         None, None, source])
        for c in outcome.checks:
            kind = c.kind
            expect = kind == "expect"
            high = (c.published_high if c.published_high is not None else c.published) if kind == "range" else None
            error = _percent(c.error) if kind not in ("range", "expect") and _is_number(c.error) else None
            result = "pass" if c.passed else "fail"
            if kind in ("range", "expect"):
                result += f" ({error_text(c)})"
            held = c.out_of_sample_passed
            rows.append([title, quantity_label(c.quantity), rule_text(c), None if expect else c.published, high,
                         None if expect else c.predicted, error, result, category_text(c),
                         c.out_of_sample if _is_number(c.out_of_sample) else None,
                         None if held is None else "pass" if held else "fail", source])
    return rows


def validation_summary_sheet(outcomes: Sequence[CaseOutcome] | None) -> Sheet:
    """The validation headline, one line a row, as the report's "Model validation" section words it
    (``models.present.validation.headline_lines``: each category's pass count, the out-of-sample and never-fitted
    summaries against their targets, the band coverage, the overall result)."""
    from models.present.validation import headline_lines

    rows: Sheet = [["Validation summary"]]
    if outcomes:
        rows += [[line.strip()] for line in headline_lines(outcomes)]
    return rows


def _percent(fraction: float) -> float:
    """A relative error as a percent to one decimal (as the report prints it), 0.0 rather than -0.0 where it rounds
    to zero (-7.9e-11 is no error a reader should see as negative)."""
    return round(fraction * 100, 1) + 0.0


def _is_number(value: object) -> bool:
    """A finite int or float (not a bool)."""
    return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)


NUMBER_FORMATS: dict[str, str] = {
    "IOPS": "#,##0", "ms": "0.000", "months": "0.0", "hours": "0.0", "MB/s": "#,##0.0",
    "TB": "#,##0.00", "TiB": "#,##0.00", "GB": "#,##0.00", "GiB": "#,##0.00",
    "%": "+0.0;-0.0;0.0", "W": "#,##0", "BTU/hr": "#,##0", "count": "#,##0", "U": "#,##0", "kWh": "#,##0",
    "kg CO2e": "#,##0", "min": "#,##0.0", "Mbit/s": "#,##0",
    "price": "#,##0.00", "ratio": "0.00", RATIO: "0.00", "value": "#,##0.0##"}
"""Spreadsheet number formats by unit (Excel / openpyxl ``number_format`` codes): the rounding a reader sees; the
cell keeps the full value. Capacities (a unit starting with TB, TiB, GB or GiB, also per day) show two decimals,
or more for a small non-zero value so it keeps two significant digits (``models.units.capacity_decimals``, the
PDF's rule: 0.36 TiB/day, never 0.36379788); every ratio two decimals (1.12:1 in every sheet, as the PDF); a
price (a unit or header naming a price or a three-letter currency code) two. CSV files keep the cells' precision
(:func:`csv_value`: at least :data:`CSV_DECIMALS` decimals, whole numbers whole)."""

_CAPACITY_UNITS = ("TB", "TiB", "GB", "GiB")
_CURRENCY = re.compile(r"[A-Z]{3}")


def _unit_of_header(header: str) -> str:
    """The unit a column header names: ``Latency (ms)`` -> ``ms``, ``Max IOPS at SLO`` -> ``IOPS``,
    ``Unit price (EUR)`` -> ``price``, ``Quantity`` -> ``count``; ``value`` when none is named."""
    if "price" in header.lower():
        return "price"
    if header.endswith(")") and "(" in header:
        unit = header[header.rindex("(") + 1:-1]
        return "hours" if unit == "hours" else unit
    if "IOPS" in header:
        return "IOPS"
    if header in ("Quantity", "Members", "Import"):  # a count; an import's number (the Measured environment)
        return "count"
    if header == "Rack units":
        return "U"
    return "value"


def _number_format(unit: str, value: float) -> str:
    """The number format of ``value`` in ``unit`` (:data:`NUMBER_FORMATS`; a capacity's decimals by its size; a
    unit with words after it, ``months (full now)``, as its unit)."""
    unit = unit.split(" (")[0]
    if unit.split("/")[0] in _CAPACITY_UNITS:
        return "#,##0." + "0" * capacity_decimals(value, 2)
    if _CURRENCY.fullmatch(unit):
        return NUMBER_FORMATS["price"]
    return NUMBER_FORMATS.get(unit, NUMBER_FORMATS["value"])


def cell_formats(rows: Sheet) -> list[list[str | None]]:
    """The number format of every cell of a sheet (None for text, booleans and empty cells).

    Args:
        rows: a sheet of :func:`workbook_sheets` (a header row, then data rows).

    Returns:
        one list per row (the header's all None): a :data:`NUMBER_FORMATS` code per numeric cell, by the unit in
        its column header, or in a sheet of figures with a Value and a Unit column (the Summary, Cost and
        footprint) by the row's Unit cell (a ratio where the unit is empty).
    """
    if not rows:
        return []
    header = [str(h) for h in rows[0]]
    units = [_unit_of_header(h) for h in header]
    unit_column = header.index("Unit") if "Value" in header and "Unit" in header else None
    out: list[list[str | None]] = [[None] * len(header)]
    for row in rows[1:]:
        formats: list[str | None] = []
        for k, value in enumerate(row):
            if not _is_number(value):
                formats.append(None)
                continue
            if unit_column is not None and header[k] == "Value" and len(row) > unit_column:
                unit = str(row[unit_column] or "") or "ratio"
            else:
                unit = units[k] if k < len(units) else "value"
            formats.append(_number_format(unit, float(value)))
        out.append(formats)
    return out


CSV_DECIMALS = 4
"""The fewest decimals a CSV file keeps of a number that is not a whole count: the XLSX cell's own precision (a
capacity as the sheet holds it, 4 decimals: ``_cap``; a ratio's 4), so right-sizing (32.7418 -> 32.7378 TiB) and a
month's fraction stay in a file made for re-computation (review cons57 #6: the CSV rounded them to the format's
2 decimals, 32.74 and 32.74), without a float's 17 digits (36.19591670364147)."""


def csv_value(value: object, number_format: str | None) -> object:
    """A cell as a CSV file writes it: a number whose format is a whole number (``#,##0``: IOPS, W, a count) as
    a whole number; any other rounded to its format's decimals or :data:`CSV_DECIMALS`, whichever is more
    (``0.0`` -> 4 decimals, ``#,##0.000000`` -> 6); other values as they are."""
    if number_format is None or isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value):
        return value
    section = number_format.split(";")[0]
    decimals = len(section.split(".")[1]) if "." in section else 0
    if decimals == 0:
        return int(round(float(value)))
    return round(float(value), max(decimals, CSV_DECIMALS))


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""First characters that make a spreadsheet read a cell's text as a formula (OWASP CSV-injection guidance)."""

CSV_TEXT_PREFIX = "'"
"""What a CSV file puts before text that :func:`looks_like_formula`: the standard prefix, which spreadsheets
read as "this cell is text" (OWASP)."""

MAX_CELL_CHARS = 32_767
"""The most characters a spreadsheet cell holds (Excel's limit); longer text is cut with an ellipsis."""

_ILLEGAL_CHARS = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f]")
"""Control characters XML 1.0 (and so XLSX, openpyxl's ``IllegalCharacterError``) refuses; tab, line feed and
carriage return are allowed. A carriage return inside text reaches an XLSX file as it is and reads back as a line
feed: XML 1.0, section 2.11 (end-of-line handling), has every parser turn CR and CR LF into LF; only the character
reference ``&#13;`` would keep it, and openpyxl 3.1 writes the raw character. The cell stays text (never a
formula) and shows a line break either way; CSV keeps the CR."""

_NON_FINITE_WORDS = re.compile(r"(?<![\w.])([-+]?)(inf|INF|nan|NAN)(?![\w])")
"""A non-finite number formatted into text as Python writes it (``inf``, ``-inf``, ``nan``; ``INF`` with ``:G``)."""


def looks_like_formula(text: str) -> bool:
    """True when a spreadsheet would read ``text`` as a formula: it starts with one of :data:`FORMULA_STARTS`."""
    return text.startswith(FORMULA_STARTS)


def _no_non_finite_word(match: re.Match[str]) -> str:
    sign, word = match.groups()
    return "saturated" if word.lower().startswith("inf") and sign != "-" else "none"


def safe_cell(value: object) -> object:
    """A cell as every export writes it: a non-finite float (a latency past saturation, a band edge that
    saturates) as None (an empty cell, as ``evaluate --json`` prints null); in text, control characters XLSX
    refuses as U+FFFD, ``inf`` / ``nan`` written as words ("saturated" / "none"), and at most
    :data:`MAX_CELL_CHARS` characters. Numbers, booleans and None are kept as they are; formula-like text is
    kept too (each writer marks it as text: :func:`csv_text`, ``app.report.workbook.write_xlsx``)."""
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if not isinstance(value, str):
        return value
    text = _NON_FINITE_WORDS.sub(_no_non_finite_word, _ILLEGAL_CHARS.sub("\ufffd", value))
    return text if len(text) <= MAX_CELL_CHARS else text[:MAX_CELL_CHARS - 1] + "\u2026"


def csv_text(value: object) -> object:
    """A cell as a CSV file writes it after :func:`safe_cell`: text that :func:`looks_like_formula` gets the
    :data:`CSV_TEXT_PREFIX`, so a spreadsheet opening the file shows it as text and never runs it; numbers stay
    numbers (a negative number is a number, not a formula)."""
    value = safe_cell(value)
    if isinstance(value, str) and looks_like_formula(value):
        return CSV_TEXT_PREFIX + value
    return value


def safe_rows(rows: Sheet) -> Sheet:
    """``rows`` with every cell through :func:`safe_cell` (the guard every sheet passes before it is returned)."""
    return [[safe_cell(v) for v in row] for row in rows]


def cost_sheets(project: Project, scenario: Scenario, catalog: Catalog) -> dict[str, Sheet]:
    """The "Cost and footprint" and "Cost by month" sheets (``models.costing.present``)."""
    from models.present.cost import design_tco, monthly_rows, workbook_rows

    tco = design_tco(project, scenario, catalog)
    return {"Cost and footprint": workbook_rows(tco), "Cost by month": monthly_rows(tco)}


def workloads_sheet(project: Project, scenario: Scenario, catalog: Catalog, unit: CapacityUnit) -> Sheet:
    """One row per workload of ``scenario`` with what was put in: its name, the system serving it, whether it is
    evaluated, target IOPS and MB/s, I/O size, read and random shares, data set and provisioned capacity (the
    project's unit), yearly growth of data and IOPS, and latency SLO (an imported environment's workloads read
    here as the import gave them; a data set the import did not measure reads "not measured", never 0:
    ``models.project.model.dataset_unmeasured``, and so does a growth it did not measure, with the 0% applied:
    ``data_growth_unmeasured``, ``iops_growth_unmeasured``)."""
    from models.project.names import node_names

    names = node_names(scenario.nodes, catalog)
    divisor = unit.large_bytes
    rows: Sheet = [["Workload", "Served by", "Evaluated", "Target IOPS", "Target MB/s", "I/O size (KiB)", "Read %",
                    "Random %", f"Data set ({unit.value})", f"Provisioned ({unit.value})", "Data growth (% a year)",
                    "IOPS growth (% a year)", "Latency SLO (ms)"]]
    for w in scenario.workloads:
        rows.append([w.name, names.get(w.target, w.target), w.enabled, w.target_iops, w.target_mbps,
                     round(w.block_kib, 4), round(w.read_pct, 4), round(w.random_pct, 4),
                     CAPACITY_NOT_MEASURED if dataset_unmeasured(w) else _cap(w.dataset_bytes, divisor),
                     _cap(w.provisioned_bytes, divisor),
                     GROWTH_NOT_MEASURED_CELL if data_growth_unmeasured(w) else w.growth_pct_per_year,
                     GROWTH_NOT_MEASURED_CELL if iops_growth_unmeasured(w) else w.iops_growth_pct_per_year, w.slo_ms])
    return rows


def workbook_sheets(project: Project, evaluation: Evaluation, catalog: Catalog, resilience: Resilience | None = None,
                    validation: Sequence[CaseOutcome] | None = None,
                    unit: CapacityUnit | str | None = None) -> dict[str, Sheet]:
    """Every sheet of the sizing workbook, in order (module docstring).

    Args:
        project: the project; evaluation: its evaluated scenario (``models.evaluate.Evaluation``); catalog: the
        catalog it was evaluated against; resilience: ``models.evaluate.Resilience`` or None; validation: the
        validation outcomes or None; unit: the capacity unit (default: the project's setting).
    """
    unit = CapacityUnit(unit or project.settings.capacity_unit)
    scenario = project.scenario_named(evaluation.scenario)
    from models.present.measured import MEASURED_SHEET, measured_sheet

    measured = measured_sheet(project, scenario)  # the report's "Measured environment" section, in its words
    sheets = {
        "Summary": summary_sheet(project, evaluation, resilience, unit),
        **({MEASURED_SHEET: measured} if len(measured) > 1 else {}),
        "Workloads": workloads_sheet(project, scenario, catalog, unit),
        "Bill of materials": bom_sheet(scenario, catalog, unit, project.price_book),
        "Capacity waterfall": waterfall_sheet(evaluation, unit),
        **({"Data-reduction bands": reduction_band_sheet(evaluation.capacity_band)}
           if evaluation.capacity_band is not None else {}),
        "Curves": curves_sheet(evaluation, resilience),
        "Resilience": resilience_sheet(evaluation, resilience),
        **cost_sheets(project, scenario, catalog),
        "Validation": validation_sheet(validation),
        "Validation summary": validation_summary_sheet(validation),
    }
    if evaluation.protection is not None:  # replication relationships (models.present.protection)
        from models.present.protection import sheet_rows

        sheets["Protection and DR"] = sheet_rows(evaluation.protection, unit, project.requirements.horizon_months)
    return {name: safe_rows(rows) for name, rows in sheets.items()}
