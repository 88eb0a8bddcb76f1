"""What a reader sees of the cost and footprint (``models.costing.tco.Tco``): the JSON block, the rows of the
report's and workbook's tables, and the chart's series. The screen, the PDF, the XLSX and ``evaluate --json`` all
lay these out; none computes a figure of its own."""

from __future__ import annotations

import re
from typing import Any

from models.catalog import Catalog, CloudVm
from models.costing.tco import OptionCost, Tco, comparison_order, protocol_words, tco_of
from models.present.bom import footprint
from models.project.model import HciClusterNode, Project, Scenario

__all__ = ["candidate_break_even", "cloud_price_lines", "cost_notes", "design_apart", "design_apart_short",
           "design_line_texts",
           "design_tco", "cost_series", "no_alternative", "uncharted_words", "series_dash", "figure_rows",
           "footprint_rows", "monthly_rows", "option_rows",
           "tco_to_dict",
           "comparison_scope", "design_cost_text", "hardware_budget",
           "unpriced_row",
           "vcpu_rate_carried", "workbook_rows"]


def design_tco(project: Project, scenario: Scenario, catalog: Catalog) -> Tco:
    """``models.costing.tco.tco_of`` of ``scenario`` with its footprint (``models.present.bom.footprint``) and what
    it counts that the cloud options do not (:func:`comparison_scope`)."""
    from dataclasses import replace

    tco = tco_of(project, scenario, catalog, footprint(scenario, catalog))
    scope = comparison_scope(scenario)
    return replace(tco, scope=scope) if scope else tco


def comparison_scope(scenario: Scenario) -> str:
    """What a protected design's cost counts that the cloud options' do not, in one sentence for where the options
    are listed; "" for a design without replication or a second site. The design's total counts every system of
    the scenario (a replication destination, a MetroCluster's partner site: ``models.present.bom.footprint``);
    each cloud option holds one copy of the data at one site (``models.costing.tco.cloud_options``), so the two
    are not like-for-like."""
    from models.project.metrocluster import is_metrocluster

    names = {n.id: n.label or n.id for n in scenario.nodes}
    counted = []
    if is_metrocluster(scenario):
        counted.append("both MetroCluster sites")
    stretched = [n.label or n.id for n in scenario.nodes if isinstance(n, HciClusterNode) and n.stretched]
    if stretched:
        counted.append(f"the hosts at both sites of its stretched vSAN cluster{'s' * (len(stretched) > 1)} "
                       f"({', '.join(stretched)}), which store each byte at both sites")
    targets = list(dict.fromkeys(names.get(r.target, r.target) for r in scenario.replications))
    if targets:
        counted.append(f"its replication destination{'s' * (len(targets) > 1)} ({', '.join(targets)})")
    if not counted:
        return ""
    from models.costing.tco import served_scenario

    held = ("both MetroCluster sites' workloads and data, one copy at one site" if served_scenario(scenario)
            is not scenario else "one copy of the data at one site")
    return (f"This design's cost counts {' and '.join(counted)}; each cloud option is priced for {held}, with no "
            "DR copy or second site, so the options are not like-for-like alternatives to its protection")


def hardware_budget(tco: Tco, option: OptionCost) -> float | None:
    """The most an on-premises design's unpriced hardware may cost for the design to cost no more than ``option``
    over the horizon, with support at the inputs' rate (``models.costing.tco.break_even_hardware_price``, the
    figure ``tco.break_even_hardware`` gives against the cheapest option); None when the design's hardware is
    priced, it is no on-premises design, or its running costs alone cost more than the option."""
    from models.costing.tco import break_even_hardware_price

    if tco.design.deployment != "on-prem" or tco.break_even or not _hardware_unpriced(tco):
        return None
    return break_even_hardware_price(tco.design.total, option.total, tco.inputs.horizon_months,
                                     tco.inputs.support_pct_per_year.value)


def _hardware_unpriced(tco: Tco) -> bool:
    """An on-premises design whose hardware line has no price (no price book)."""
    hardware = next((line for line in tco.design.lines if line.name == "Hardware"), None)
    return hardware is not None and hardware.upfront <= 0


def _counted_words(design: OptionCost) -> str:
    """The lines a design's total counts, in words: ``power, space and support``; "" when none."""
    counted = [line.name.lower() for line in design.lines if line.total > 0]
    return f"{', '.join(counted[:-1])} and {counted[-1]}" if len(counted) > 1 else "".join(counted)


def design_cost_text(tco: Tco) -> str:
    """The design's own total in words, one statement for every output: its amount and, for an on-premises design
    whose hardware is not priced, that the amount counts its running costs only (``running costs only: 20,630 USD
    (power, space and support); hardware not priced (no price book)``); else the amount with what it does not
    count."""
    money = _money(tco.design.total, tco.currency)
    other = [m for m in tco.design.missing if not m.startswith("hardware (")]
    if tco.design.deployment == "on-prem" and _hardware_unpriced(tco):
        counted = _counted_words(tco.design)
        what = f" ({counted})" if counted else ""
        return (f"running costs only: {money}{what}; {NO_PRICE}"
                + (f"; not counting: {'; '.join(other)}" if other else ""))
    return money + ("" if tco.design.complete else " (not counting: " + "; ".join(tco.design.missing) + ")")


def _money(value: float, currency: str) -> str:
    """``154,400 USD``."""
    return f"{value:,.0f} {currency}"


def _month(month: int | None) -> str:
    """``month 14``, ``at purchase`` or ``not within the horizon``."""
    if month is None:
        return "not within the horizon"
    return "from the start" if month == 0 else f"month {month}"


def candidate_break_even(deployment: str, total: float | None, month: int | None, priced: bool,
                         unpriced: tuple[str, ...] | list[str], cheapest: tuple[str, float] | None,
                         horizon_months: int, support_pct_per_year: float, currency: str) -> dict[str, Any]:
    """What a sizer candidate ranked on total cost (``rank_on = "tco"``) shows of its break-even against the
    cheapest cloud option: ``{"break_even": text, "break_even_hardware_price": amount or None}``.

    Args: deployment: the candidate's ("on-prem", "hci", "cloud"); total: its total cost over the horizon (power and
    space only when ``priced`` is False); month: its break-even month (``models.costing.tco.break_even_month``);
    priced: the project has a price book; unpriced: the parts the book does not price; cheapest: (name, total) of
    the cheapest cloud option or None; horizon_months, support_pct_per_year: the running-cost inputs; currency: the
    amounts'. An unpriced on-premises candidate gets the most its hardware may cost to break even within the
    horizon (``models.costing.tco.break_even_hardware_price``)."""
    from models.costing.tco import break_even_hardware_price

    budget = None
    if deployment == "cloud":
        text = "a cloud design: no break-even month"
    elif cheapest is None:
        text = "no cloud option carries the workloads' I/O: none to break even against"
    elif not priced or total is None:
        budget = break_even_hardware_price(total or 0.0, cheapest[1], horizon_months, support_pct_per_year)
        text = ("hardware not priced (no price book): no break-even month; "
                + (f"it breaks even with {cheapest[0]} within {horizon_months} months if the hardware costs at most "
                   f"{budget:,.0f} {currency}" if budget is not None else
                   f"its power and space alone cost more than {cheapest[0]}"))
    elif month is None:
        text = f"not within the {horizon_months} months against {cheapest[0]}"
    else:
        text = f"{_month(month)} against {cheapest[0]}"
    if priced and unpriced and deployment != "cloud":
        text += f" (not counting what the price book does not price: {', '.join(unpriced)})"
    return {"break_even": text, "break_even_hardware_price": budget}


def _option_dict(option: OptionCost) -> dict[str, Any]:
    """One option as JSON."""
    return {"name": option.name, "deployment": option.deployment, "catalog_id": option.catalog_id,
            "total": option.total, "complete": option.complete, "missing": list(option.missing),
            "meets_workloads": option.meets_workloads, "shortfall": list(option.shortfall),
            "holds_data": not option.data_short,
            "protocols_not_served": list(option.protocol_short),
            "lines": [{"name": line.name, "upfront": line.upfront, "monthly": list(line.monthly), "total": line.total,
                       "basis": line.basis} for line in option.lines],
            "cumulative": list(option.cumulative())}


def tco_to_dict(tco: Tco) -> dict[str, Any]:
    """The ``tco`` block of ``storplan evaluate --json``: inputs (value, unit, kind, source), horizon, currency,
    energy and carbon, the design's cost and the cloud options' (each with its lines, month-by-month and cumulative
    amounts), the break-even months and the cheapest option."""
    energy = tco.energy
    return {
        "horizon_months": tco.inputs.horizon_months,
        "currency": tco.currency,
        "inputs": {label: {"value": f.value, "unit": f.unit, "kind": f.kind, "source": f.source}
                   for label, f in tco.inputs.figures()},
        "energy": None if energy is None else {
            "power_w": energy.power_w, "complete": energy.complete, "it_kwh_per_year": energy.it_kwh_per_year,
            "facility_kwh_per_year": energy.facility_kwh_per_year,
            "operational_kg_co2e_per_year": energy.operational_kg_per_year, "rack_units": energy.rack_units,
            "btu_per_hr": energy.btu_per_hr, "not_counted": list(energy.not_counted)},
        "embodied_kg_co2e": tco.embodied.total_kg,
        "embodied": [{"item": line.item, "kg_co2e": line.kg, "basis": line.basis, "assumed": line.assumed}
                     for line in tco.embodied.lines],
        "embodied_not_counted": list(tco.embodied.not_counted),
        "carbon_over_horizon_kg_co2e": tco.carbon_over_horizon_kg,
        "data_bytes_by_month": list(tco.data_bytes),
        "design": _option_dict(tco.design),
        "options": [_option_dict(o) for o in tco.options],
        "break_even": [{"option": name, "month": month} for name, month in tco.break_even],
        "cheapest_cloud_option": tco.cheapest,
        "break_even_hardware_price": tco.break_even_hardware,
        "notes": list(tco.notes),
    }


def figure_rows(tco: Tco) -> list[tuple[str, str]]:
    """(input, value with its kind and source) rows: the five running-cost figures and the horizon. A price reads
    in the currency the cost is computed in (``tco.currency``, ``models.costing.tco.project_currency``):
    "0.13 USD/kWh", "30 USD per rack unit per month", as the GUI's inputs show them."""
    money = {id(tco.inputs.electricity_price_per_kwh): f"{tco.currency}/kWh",
             id(tco.inputs.rack_unit_cost_per_month): f"{tco.currency} per rack unit per month"}
    rows = [(label, figure.text(money.get(id(figure)))) for label, figure in tco.inputs.figures()]
    rows.append(("Horizon", f"{tco.inputs.horizon_months} months"))
    return rows


def footprint_rows(tco: Tco) -> list[tuple[str, str]]:
    """(figure, value) rows of power, energy and carbon (power and energy only for an on-premises design)."""
    rows: list[tuple[str, str]] = []
    energy = tco.energy
    bound = "" if energy is None or energy.power_complete else "at least "
    # a part without a height: the rack units are a lower bound, as the report's "Footprint: at least 5 U" (r2 #4)
    units = "" if energy is None else ("at least " if energy.heights_not_counted else "") + f"{energy.rack_units} U"
    if energy is not None and not energy.power_known:
        unknown = "not known, not counted (no figure for " + ", ".join(energy.power_not_counted) + ")"
        rows += [("Typical power", unknown), ("Rack units", units + (" (assumed host height)" if energy.assumed
                                                                    else "")),
                 ("Energy and operational carbon", "not known: no power figure")]
    elif energy is not None:
        rows += [("Typical power", f"{bound}{energy.power_w:,.0f} W ({energy.btu_per_hr:,.0f} BTU/hr)"),
                 ("Rack units", units),
                 ("Energy a year (IT)", f"{bound}{energy.it_kwh_per_year:,.0f} kWh"),
                 ("Energy a year (facility, x PUE)", f"{bound}{energy.facility_kwh_per_year:,.0f} kWh"),
                 ("Operational carbon a year", f"{bound}{energy.operational_kg_per_year:,.0f} kg CO2e")]
    else:
        rows.append(("Energy and operational carbon", "in the cloud provider's data centre: not estimated here"))
    carbon = tco.carbon_over_horizon_kg
    if carbon is None:
        rows.append(("Embodied and total carbon", "in the cloud provider's hardware and data centre: not known, "
                                                  "not counted"))
        return rows
    # a part not counted (a controller without a height, vSAN hosts, a cloud copy): a lower bound (review 57)
    least = "at least " if tco.embodied.not_counted else ""
    rows.append(("Embodied carbon", f"{least}{tco.embodied.total_kg:,.0f} kg CO2e"
                 + (" (assumed enclosure figures included)" if any(x.assumed for x in tco.embodied.lines) else "")))
    which = "(operational and embodied)" if energy is None or energy.power_known else "(embodied only)"
    rows.append((f"Carbon over {tco.inputs.horizon_months} months",
                 f"{bound or least}{carbon:,.0f} kg CO2e {which}"))
    return rows


NO_BREAK_EVEN = "none: it cannot carry the workloads' I/O, so it is no alternative to this design"
"""The break-even column of a cloud option that cannot carry the workloads' I/O from the first month (review 54:
a break-even price against it was given); the GUI shows the cell blank with this in its tooltip, the report and
the workbook print it."""

NO_BREAK_EVEN_DATA = "none: it cannot hold the data, so it is no alternative to this design"
"""The break-even column of a cloud option whose largest size is below the data itself from the first month (review
57: such an option read "cannot carry the workloads' I/O" although its I/O was within its limits)."""

NO_BREAK_EVEN_PROTOCOL = "none: it does not serve the workloads' protocol, so it is no alternative to this design"
"""The break-even column of a managed service that does not serve the workloads' front-end protocol (review 57: a
file-only service listed as the cheapest alternative to an iSCSI design)."""

NO_BREAK_EVENS = (NO_BREAK_EVEN, NO_BREAK_EVEN_DATA, NO_BREAK_EVEN_PROTOCOL)
"""Both texts of an option that is no alternative to the design (the GUI shows its cell blank, the report too)."""


def no_break_even(option: OptionCost) -> str:
    """:data:`NO_BREAK_EVEN_DATA` for an option whose largest size is below the data (``data_short``), else
    :data:`NO_BREAK_EVEN`; :data:`NO_BREAK_EVEN_PROTOCOL` for one that does not serve the workloads' protocol."""
    if option.protocol_short:
        return NO_BREAK_EVEN_PROTOCOL
    return NO_BREAK_EVEN_DATA if option.data_short else NO_BREAK_EVEN


def short_mark(option: OptionCost) -> str:
    """The mark after a cloud option's total that falls short: " (cannot hold the data)" or " (cannot carry the I/O)"
    from the first month, " (holds the data to month m)" or " (carries the I/O to month m)" from a later one, ""
    when it does not fall short; " (NFS/SMB only: no iSCSI)" for a service that does not serve the workloads'
    protocol (``models.costing.tco.protocol_words``)."""
    if option.protocol_short:
        return f" ({protocol_words(option)})"
    if option.short_from_month is None:
        return ""
    if option.short_from_month == 1:
        return " (cannot hold the data)" if option.data_short else " (cannot carry the I/O)"
    what = "holds the data" if option.data_short else "carries the I/O"
    return f" ({what} to month {option.short_from_month - 1})"


DESIGN_NOT_PRICED = "n/a (design not priced)"
"""The break-even column of a cloud option for a design that is neither a cloud design nor an on-premises one
(whose rows give the break-even month, or with its hardware not priced the most its hardware may cost to break even
against each option: :func:`hardware_budget`); the cloud option itself is priced."""


def option_rows(tco: Tco) -> list[tuple[str, str, str]]:
    """(option, total over the horizon, break-even month of the design against it) rows: the design first, then
    the cloud options in the comparison's order (those that carry the workloads' I/O longest, from the cheapest;
    an option that falls short is marked); "" where no break-even applies (every row of a cloud design: the
    column is then left out)."""
    horizon = tco.inputs.horizon_months
    rows = [(tco.design.name, design_cost_text(tco), "")]
    for option in comparison_order(tco.options):
        if tco.design.deployment == "cloud":
            even = ""  # a cloud design buys nothing up front: the column is left out
        elif option.short_from_month == 1 and tco.design.deployment == "on-prem":
            even = no_break_even(option)  # no alternative to the design: no price or month to break even against it
        elif tco.break_even:
            even = _month(tco.break_even_with(option.name))
        elif tco.design.deployment == "on-prem" and _hardware_unpriced(tco):
            budget = hardware_budget(tco, option)  # each option's own figure, not only the cheapest's
            even = ("at no hardware price" if budget is None else
                    f"if the hardware costs at most {_money(budget, tco.currency)}")
        else:
            even = DESIGN_NOT_PRICED
        marks = ("" if option.complete else " (incomplete)") + short_mark(option)
        rows.append((option.name, _money(option.total, tco.currency) + marks, even))
    del horizon
    return rows


def cost_series(tco: Tco, options: int = 4) -> list[tuple[str, tuple[float, ...]]]:
    """(name, cumulative cost at months 0..horizon) of the design and the first ``options`` cloud options in the
    comparison's order (``models.costing.tco.comparison_order``: those that carry the workloads' I/O longest, from
    the cheapest): what the chart of cumulative cost draws."""
    cheapest = [o for o in comparison_order(tco.options) if not no_alternative(o)][:options]
    return [(tco.design.name, tco.design.cumulative())] + [(o.name, o.cumulative()) for o in cheapest]


def no_alternative(option: OptionCost) -> bool:
    """The option is no alternative to the design from the first month: it cannot hold the data, carry the
    workloads' I/O or serve their protocol (marked :func:`short_mark`, no break-even: :func:`no_break_even`); the
    cost chart leaves it out, as a cheaper line beside the design would read as a cheaper way to do the job (review
    57: all 11 options of the A90 example drawn below the design)."""
    return option.short_from_month == 1


def uncharted_words(tco: Tco) -> str:
    """Why options are listed but not drawn, in one sentence (no final full stop): those that are no alternative
    (:func:`no_alternative`), with the reasons; "" when every option is an alternative."""
    out = [o for o in tco.options if no_alternative(o)]
    if not out:
        return ""
    reasons = []
    if any(o.protocol_short for o in out):
        unserved = ", ".join(dict.fromkeys(p for o in out for p in o.protocol_short))
        reasons.append(f"do not serve the workloads' {unserved}")
    if any(o.data_short and not o.protocol_short for o in out):
        reasons.append("cannot hold the data")
    if any(not o.data_short and not o.protocol_short for o in out):
        reasons.append("cannot carry the workloads' I/O")
    many = len(out) > 1
    when = "" if all(o.protocol_short for o in out) else " from the first month"
    head = f"The {len(out)} options that" if many else "The option that"
    return (f"{head} {' or '.join(reasons)}{when} {'are' if many else 'is'} listed, not charted: "
            f"{'they are' if many else 'it is'} no alternative to this design")


NOT_CHARTED = " (not charted)"
"""The mark after an option's total in the options' table when the cost chart does not draw it (the total's column
has the room on a laptop; a design left out of the chart says it after its name, :func:`unpriced_row`)."""


def table_rows(tco: Tco) -> list[tuple[str, str, str]]:
    """The options' table as the Cost tab and the report show it: a design without a hardware price first, marked
    "not charted" (:func:`unpriced_row`), else the design's :func:`option_rows` row; then every option, whose total
    is marked "(not charted)" where the chart (:func:`cost_series`: the first four) does not draw it. Every option
    keeps its exact name, the chart legend's."""
    apart = design_apart(tco)
    rows = [unpriced_row(tco), *option_rows(tco)[1:]] if apart else option_rows(tco)
    drawn = {name for name, _values in cost_series(tco)}
    return [rows[0]] + [(name, total if name in drawn else total + NOT_CHARTED, even) for name, total, even in rows[1:]]


SERIES_DASHES = ("solid", "dash", "dot", "dashdot")
"""The line styles of the cost chart's series in turn, with their colours: two options whose cumulative costs run
alike (Azure NetApp Files and Google Cloud NetApp Volumes at their top service levels, within 2% of each other over
36 months on the DR example) would otherwise draw one line where the table lists two."""


def series_dash(index: int, design_first: bool = True) -> str:
    """The line style of the cost chart's series ``index`` (0 = the first drawn): ``"solid"``, ``"dash"``, ``"dot"``
    or ``"dashdot"``; with ``design_first`` the design (series 0) is solid and the options take the styles from the
    second on, so no option shares the design's style. The GUI's Cost tab and the report's chart both read it."""
    return SERIES_DASHES[(index + (0 if design_first else 1)) % len(SERIES_DASHES)]


SERIES_MARKERS = ("circle", "square", "triangle", "diamond")
"""The marks along each cost line (:func:`mark_months`), in turn with :data:`SERIES_DASHES`: two options whose
costs run within a line's width of each other (ANF Ultra and GCNV Extreme on the DR example) still show two kinds
of mark, side by side."""


def series_marker(index: int, design_first: bool = True) -> str:
    """The end mark of the cost chart's series ``index`` (:func:`series_dash`'s rule): ``"circle"``, ``"square"``,
    ``"triangle"`` or ``"diamond"``; the GUI's Cost tab, its table's swatches and the report's chart read it."""
    return SERIES_MARKERS[(index + (0 if design_first else 1)) % len(SERIES_MARKERS)]


MARK_EVERY = 6
"""Months between two marks on a cost line (:func:`mark_months`)."""


def mark_months(index: int, count: int, horizon: int) -> list[int]:
    """The months where series ``index`` of ``count`` carries its mark: every :data:`MARK_EVERY` months, each series
    shifted by its share of the step, so two lines that run on top of each other still show both marks side by
    side (one mark at the end of each hid the one under it)."""
    shift = (index * MARK_EVERY) // max(count, 1)
    return [m for m in range(MARK_EVERY // 2 + shift, horizon + 1, MARK_EVERY)]


def workbook_rows(tco: Tco) -> list[list[Any]]:
    """The workbook's "Cost and footprint" sheet: (figure, value, unit, kind, source) rows of the inputs, power,
    energy, carbon, each option's total over the horizon and the break-even months."""
    from models.costing.carbon import DRIVE_SOURCE, ENCLOSURE_SOURCE

    rows: list[list[Any]] = [["Figure", "Value", "Unit", "Kind", "Source"]]
    for label, f in tco.inputs.figures():
        unit = f.unit.strip() or "ratio"
        if unit.startswith("per "):  # a price: its currency named (review 53b: "0.13 per kWh")
            unit = f"{tco.currency} {unit}"
        rows.append([label, f.value, unit, f.kind, f.source])
    rows.append(["Horizon", tco.inputs.horizon_months, "months", "requirements", ""])
    energy = tco.energy
    if energy is not None:
        def known(missing: tuple[str, ...]) -> str:
            return "catalog (lower bound: " + ", ".join(missing) + ")" if missing else "catalog"

        rows += [["Typical power", energy.power_w, "W", known(energy.power_not_counted), ""],
                 ["Rack units", energy.rack_units, "U", known(energy.heights_not_counted), ""],
                 ["Energy a year (IT)", energy.it_kwh_per_year, "kWh", "computed", "typical W x 8,760 h"],
                 ["Energy a year (facility)", energy.facility_kwh_per_year, "kWh", "computed", "IT energy x PUE"],
                 ["Operational carbon a year", energy.operational_kg_per_year, "kg CO2e", "computed",
                  "facility energy x grid carbon intensity"]]
    for line in tco.embodied.lines:  # the basis and what it rests on, as the PDF's embodied-carbon table cites it
        rows.append([f"Embodied carbon: {line.item}", line.kg, "kg CO2e", "assumption" if line.assumed else "published",
                     f"{line.basis} ({ENCLOSURE_SOURCE if line.assumed else DRIVE_SOURCE})"])
    rows.append(["Embodied carbon", tco.embodied.total_kg, "kg CO2e",
                 "computed (lower bound: not counted " + "; ".join(tco.embodied.not_counted) + ")"
                 if tco.embodied.not_counted else "computed", ""])
    rows.append([f"Total cost: {tco.design.name}", tco.design.total, tco.currency,
                 "complete" if tco.design.complete else design_cost_text(tco),
                 "; ".join(f"{line.name}: {line.basis}" for line in tco.design.lines)])
    for option in comparison_order(tco.options):
        rows.append([f"Total cost: {option.name}", option.total, tco.currency,
                     ("complete" if option.complete else "incomplete")
                     + ("" if option.meets_workloads else
                        ("; does not serve the workloads' protocol: " if option.protocol_short else
                         "; cannot hold the data: " if option.data_short else "; cannot carry the workloads' I/O: ")
                        + "; ".join(option.shortfall)),
                     "; ".join(f"{line.name}: {line.basis}" for line in option.lines)])
    for name, month in tco.break_even:
        rows.append([f"Break-even month against {name}", month, "months", "computed",
                     "" if month is not None else "not within the horizon"])
    support = tco.inputs.support_pct_per_year.value
    for option in comparison_order(tco.options) if not tco.break_even and _hardware_unpriced(tco) else ():
        if tco.design.deployment != "on-prem":
            break
        if option.short_from_month == 1:
            rows.append([f"Break-even hardware price against {option.name}", None, tco.currency, "computed",
                         no_break_even(option)])
            continue
        budget = hardware_budget(tco, option)
        rows.append([f"Break-even hardware price against {option.name}", budget, tco.currency, "computed",
                     f"the most the hardware may cost (with support at {support:g}% a year) for the design to cost "
                     f"no more than this option over {tco.inputs.horizon_months} months" if budget is not None else
                     "none: the design's running costs alone cost more than this option"])
    if tco.scope:
        rows.append(["Comparison basis", tco.scope, "", "note", ""])
    from models.costing.tco import OUTGROWN_NOTE_START

    rows += [["Comparison basis", note, "", "note", ""] for note in tco.notes if note.startswith(OUTGROWN_NOTE_START)]
    return rows


def monthly_rows(tco: Tco) -> list[list[Any]]:
    """The workbook's "Cost by month" sheet: one row per month 0..horizon with each option's cumulative cost
    (the design first, then the cloud options from the cheapest)."""
    options = [tco.design] + comparison_order(tco.options)
    rows: list[list[Any]] = [["Month"] + [f"{o.name} (cumulative price, {tco.currency})" for o in options]]
    series = [o.cumulative() for o in options]
    for month in range(tco.inputs.horizon_months + 1):
        rows.append([month] + [values[month] for values in series])
    return rows


def design_apart(tco: Tco) -> str:
    """Why the design is left out of the cost chart and the ranking of the options, in one sentence; "" when it is
    in. An on-premises design whose hardware is not priced (no price book) has no price: its total counts only its
    power, space and support (a share of the unknown hardware price), so drawn beside cloud options that count
    everything they need it would look nearly free (REVIEW45 #2); it is listed with this reason instead
    (:func:`unpriced_row`)."""
    design, energy = tco.design, tco.energy
    if design.deployment != "on-prem":
        return ""
    hardware = next((line for line in design.lines if line.name == "Hardware"), None)
    if hardware is None or hardware.upfront > 0:
        return ""
    what = _counted_words(design) or "nothing"
    power = [m for m in design.missing if m.startswith("power of ")]
    unknown = energy is None or not energy.power_known
    other = [m for m in design.missing if m not in power and not m.startswith("hardware (")]
    budget = ("" if tco.break_even_hardware is None else
              ". The table's last column gives the most its hardware may cost to break even")
    return (_apart_reason(tco, unknown, power)
            + (f" (not counted either: {'; '.join(other)})" if other else "")
            + f", so its {_money(design.total, tco.currency)} over {tco.inputs.horizon_months} months counts only "
            f"{what} and cannot be set against the cloud options, which count everything they need{budget}")


def _apart_reason(tco: Tco, power_unknown: bool, power: list[str]) -> str:
    """The head of :func:`design_apart`'s sentence: the design is left out, and what it lacks (a hardware price, and
    its power when that is not known)."""
    return (f"{tco.design.name} is left out of the chart and of the ranking of the options: its hardware is not "
            f"priced (no price book)"
            + (f" and the {' and the '.join(power) or 'power'} is not known" if power_unknown else ""))


def design_apart_short(tco: Tco) -> str:
    """:func:`design_apart` in short for a screen's notes: why the design is left out (its hardware is not priced),
    one sentence ending in a full stop, pointing at the design's row for what its total counts; "" when the design
    is in. An unknown power is left to the cost notes' own line (``models.costing.tco``: "power and energy are not
    known: ...", REVIEW46: the notes said it three times). The long sentence stays on that row's tooltip and in the
    PDF."""
    if not design_apart(tco):
        return ""
    return _apart_reason(tco, False, []) + "; its row's tooltip says what its total counts."


NO_PRICE = "hardware not priced (no price book)"
"""What the total of a design without a hardware price says it lacks, in the options' table (:func:`unpriced_row`,
:func:`design_cost_text`)."""


def unpriced_row(tco: Tco) -> tuple[str, str, str]:
    """The options' table's row for a design left out of the chart (:func:`design_apart`): its name marked "not
    charted" and its total as every output states it (:func:`design_cost_text`: running costs only, hardware not
    priced); each option's row gives what its hardware may cost to break even."""
    return (f"{tco.design.name} (not charted)", design_cost_text(tco), "")


_RATE_VM = re.compile(r": (\S+) (?:about )?[\d.,]+ per hour")
"""The VM a per-vCPU reference price was read from, in its source (``models.costing.cloud_prices.VCPU_PRICES``:
"...: n2-standard-8 about 0.39 per hour / 8 vCPU")."""


def vcpu_rate_carried(vms: list[CloudVm]) -> str:
    """For compute priced at a provider's reference per-vCPU rate (``models.costing.cloud_prices.VCPU_PRICES``):
    the words marking the rate as assumed for each VM of ``vms`` other than the one it was read from
    (" (assumed: n2-standard-8's rate per vCPU applied to n2-standard-32)"), "" when every VM is that one or the
    provider has no reference rate."""
    from models.costing.cloud_prices import VCPU_PRICES

    carried: dict[str, list[str]] = {}
    for vm in vms:
        price = VCPU_PRICES.get(vm.provider)
        found = _RATE_VM.search(price.source) if price is not None else None
        if found is not None and found.group(1) != vm.vm_size:
            carried.setdefault(found.group(1), [])
            if vm.vm_size not in carried[found.group(1)]:
                carried[found.group(1)].append(vm.vm_size)
    return "".join(f" (assumed: {source}'s rate per vCPU applied to {', '.join(sizes)})"
                   for source, sizes in carried.items())


def _line_text(line_name: str, basis: str, vms: list[CloudVm]) -> str:
    """``compute: <basis>`` with a carried per-vCPU rate marked (:func:`vcpu_rate_carried`)."""
    mark = vcpu_rate_carried(vms) if line_name == "Compute" and "vCPU x 730 h" in basis else ""
    return f"{line_name.lower()}: {basis}{mark}"


def cloud_price_lines(tco: Tco, catalog: Catalog) -> list[str]:
    """The report's "Cloud prices" bullets: each price basis of the cloud options, in the comparison's order, led
    by the options it prices ("Cloud Volumes ONTAP, GCP n2-standard-32 single node, ... — compute: 32 vCPU x
    730 h x 0.049 USD per vCPU-hour (...) (assumed: n2-standard-8's rate per vCPU applied to n2-standard-32)"); a
    basis several options share is one bullet naming them all."""
    texts: dict[str, list[str]] = {}
    for option in comparison_order(tco.options):
        vm = catalog.find(option.catalog_id) if option.catalog_id else None
        vms = [vm] if isinstance(vm, CloudVm) else []
        for line in option.lines:
            names = texts.setdefault(_line_text(line.name, line.basis, vms), [])
            if option.name not in names:
                names.append(option.name)
    return [f"{'; '.join(names)} — {text}" for text, names in texts.items()]


def design_line_texts(tco: Tco, scenario: Scenario, catalog: Catalog) -> list[str]:
    """The design's cost lines as the report lists them under the table ("Compute: 2 x 16 vCPU x ..."), a per-vCPU
    rate carried from another VM to the design's cloud VMs marked (:func:`vcpu_rate_carried`)."""
    vms = [vm for vm in (catalog.find(n.catalog_id) for n in scenario.nodes if n.kind == "cloud_vm")
           if isinstance(vm, CloudVm)]
    out = []
    for line in tco.design.lines:
        mark = vcpu_rate_carried(vms) if line.name == "Compute" and "vCPU x 730 h" in line.basis else ""
        out.append(f"{line.name}: {line.basis}{mark}")
    return out


_NO_OPTION_WHOLE = "no cloud option carries the workloads' i/o over the whole horizon"  # compared lower-case


def cost_notes(tco: Tco) -> list[str]:
    """The comparison's notes (``Tco.notes``) as the report lists them, each once: after the first note saying that
    no cloud option carries the workloads' I/O over the whole horizon, a later note opening with the same clause
    keeps only what it adds ("the cheapest of those that carry it the longest (until month 33) is compared")."""
    out: list[str] = []
    said = False
    for note in tco.notes:
        lower = note.lower()
        if said and lower.startswith(_NO_OPTION_WHOLE):
            rest = note[len(_NO_OPTION_WHOLE):].lstrip(",; ")
            rest = rest.removeprefix("so ")
            if rest:
                out.append(rest)
            continue
        if _NO_OPTION_WHOLE in lower or lower.startswith("none of the") and "over the whole horizon" in lower:
            said = True
        out.append(note)
    return out
