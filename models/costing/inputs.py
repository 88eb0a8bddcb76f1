"""The running-cost inputs: the project's figures (``models.project.model.RunningCosts``) or the stated defaults.

Every figure the cost and footprint use is a :class:`Figure` that says what it is worth, in what unit, and where it
comes from: ``user`` (the project states it, with the user's source when given), ``default`` (a published average,
cited by title and address) or ``assumption`` (no public figure fits; an engineering placeholder the user should
replace). The defaults are round published averages; a site's own figures are always better.
"""


from dataclasses import dataclass
from typing import Literal

from models.project.model import RunningCosts

__all__ = ["HOURS_PER_MONTH", "HOURS_PER_YEAR", "RUNNING_DEFAULTS", "Figure", "RunningInputs", "running_inputs"]

HCI_HOST_RACK_UNITS = 2
"""assumed: rack units of one vSAN ReadyNode host (a 2U server; the catalog's host records give no height)."""

HCI_HOST_HEIGHT_WORDS = ("the 2U server form the host model's name states; the catalog cites no published height "
                         "for it")
"""Where :data:`HCI_HOST_RACK_UNITS` comes from, in a customer's words: every vSAN host record's name says "2U"
(review 53b #22: "2U all-NVMe" in the name beside "the catalog gives no host height" read as a contradiction)."""

HOURS_PER_YEAR = 8_760.0
"""Hours in a year of 365 days: a design runs all year."""
HOURS_PER_MONTH = HOURS_PER_YEAR / 12
"""730 hours: the month the cloud providers bill hourly prices by."""

FigureKind = Literal["user", "default", "assumption"]


@dataclass(frozen=True)
class Figure:
    """One input figure with its origin.

    Attributes:
        value: the number, in ``unit``; unit: e.g. "per kWh", "g CO2e/kWh"; kind: "user" (the project's),
        "default" (a published figure) or "assumption" (no public figure: a placeholder to replace); source: the
        public document (title, section, address) or the user's note; "" when the user gave none.
    """

    value: float
    unit: str
    kind: FigureKind
    source: str

    def text(self, unit: str | None = None) -> str:
        """``1.58 (default: Uptime Institute ...)``, ``1.4 (your figure: site meter 2025)``; ``unit`` in place of
        the figure's own (a price with its currency: "USD/kWh")."""
        label = {"user": "your figure", "default": "default", "assumption": "assumption"}[self.kind]
        note = f"{label}: {self.source}" if self.source else label
        return f"{self.value:g} {self.unit if unit is None else unit} ({note})".replace("  ", " ")


RUNNING_DEFAULTS: dict[str, Figure] = {
    "electricity_price_per_kwh": Figure(
        0.13, "per kWh", "default",
        "U.S. Energy Information Administration, Electric Power Monthly, Table 5.6.B 'Average Price of Electricity to "
        "Ultimate Customers by End-Use Sector' (eia.gov/electricity/monthly), commercial sector, 2024: about 13 cents "
        "per kWh (rounded, in US dollars)"),
    "pue": Figure(
        1.58, "", "default",
        "Uptime Institute, 'Global Data Center Survey 2023' (uptimeinstitute.com, July 2023): industry average power "
        "usage effectiveness 1.58"),
    "grid_carbon_g_per_kwh": Figure(
        481.0, "g CO2e/kWh", "default",
        "Ember, 'Global Electricity Review 2024' (ember-climate.org), world average carbon intensity of electricity "
        "generation in 2023: 481 g CO2e per kWh"),
    "rack_unit_cost_per_month": Figure(
        30.0, "per rack unit per month", "assumption",
        "no published average is known; about 1,250 USD a month for a 42U colocation rack with power distribution and "
        "cooling, divided by 42 (replace with the site's own cost)"),
    "support_pct_per_year": Figure(
        15.0, "% of hardware a year", "assumption",
        "no public list figure; a common planning figure for storage support and maintenance (replace with the "
        "quoted support price)"),
}
"""The figure used for each :class:`~models.project.model.RunningCosts` field the project leaves empty."""

_SOURCE_FIELD = {"electricity_price_per_kwh": "electricity_price_source", "pue": "pue_source",
                 "grid_carbon_g_per_kwh": "grid_carbon_source", "rack_unit_cost_per_month": "rack_unit_cost_source",
                 "support_pct_per_year": "support_source"}


@dataclass(frozen=True)
class RunningInputs:
    """The five running-cost figures a cost is computed with (each a :class:`Figure`), and the horizon.

    Attributes:
        electricity_price_per_kwh, pue, grid_carbon_g_per_kwh, rack_unit_cost_per_month, support_pct_per_year: as
        :class:`~models.project.model.RunningCosts`; horizon_months: the months the total cost of ownership covers
        (the requirements' ``horizon_months``; 36 when it is 0); horizon_note: why the horizon differs from the
        requirements' ("" when it does not).
    """

    electricity_price_per_kwh: Figure
    pue: Figure
    grid_carbon_g_per_kwh: Figure
    rack_unit_cost_per_month: Figure
    support_pct_per_year: Figure
    horizon_months: int
    horizon_note: str = ""

    def figures(self) -> tuple[tuple[str, Figure], ...]:
        """(label, figure) of the five inputs, in the order the report lists them."""
        return (("Electricity price", self.electricity_price_per_kwh), ("PUE", self.pue),
                ("Grid carbon intensity", self.grid_carbon_g_per_kwh),
                ("Rack unit cost", self.rack_unit_cost_per_month), ("Support", self.support_pct_per_year))


DEFAULT_HORIZON_MONTHS = 36
"""The horizon a cost covers when the requirements' horizon is 0 (size for now): three years, a common term."""


def running_inputs(running: RunningCosts, horizon_months: int) -> RunningInputs:
    """The figures of ``running`` (a project's :class:`~models.project.model.RunningCosts`), each empty one replaced
    by its :data:`RUNNING_DEFAULTS` entry, and the horizon (``horizon_months``, or 36 months when it is 0)."""
    chosen: dict[str, Figure] = {}
    for name, default in RUNNING_DEFAULTS.items():
        value = getattr(running, name)
        if value is None:
            chosen[name] = default
        else:
            chosen[name] = Figure(float(value), default.unit, "user", getattr(running, _SOURCE_FIELD[name]).strip())
    note = ""
    horizon = horizon_months
    if horizon <= 0:
        horizon = DEFAULT_HORIZON_MONTHS
        note = f"the requirements size for now (horizon 0): costs cover {DEFAULT_HORIZON_MONTHS} months"
    return RunningInputs(chosen["electricity_price_per_kwh"], chosen["pue"], chosen["grid_carbon_g_per_kwh"],
                         chosen["rack_unit_cost_per_month"], chosen["support_pct_per_year"], horizon, note)
