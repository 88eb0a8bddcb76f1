"""Why each validation check has the tolerance it has (``storplan validate -v`` and the GUI's Validation tab print
it beside the tolerance).

The tolerances themselves stay with the published numbers (resources/validation/published.toml and ramps.toml);
this module holds the reason for each case's tolerances, in words. A tolerance chosen by hand says so. The
accuracy targets they refer to are :data:`models.validation.summary.TARGETS` (median error at most 20% on
saturation and 30% on latency for predictions).
"""

from __future__ import annotations

from models.validation.cases import RAMP_SECTIONS
from models.validation.checks import Check

__all__ = ["RAMP_REASON", "TOLERANCE_REASONS", "tolerance_reason"]

_ROUNDING = ("set by hand at about ten times the rounding of the seed's printed figures ({figures}); arithmetic on a "
             "stated configuration should land inside that rounding, so a miss beyond it is a wrong rule or record, "
             "not noise")
_FIT = ("set by hand below StorPlan's prediction targets (20% on saturation, 30% on latency): an in-sample check "
        "tests that a fit reproduces the number it was fitted to, so it must hold more tightly than a prediction")

TOLERANCE_REASONS: dict[str, str] = {
    "aff8080-48x800-adp-raiddp": "2%: " + _ROUNDING.format(figures="25.5 and 12.7 TB: +-0.2%"),
    "ef550-24x800": "2%: " + _ROUNDING.format(figures="744 GB and 17.4 TB: +-0.3%"),
    "spinning-192x300-raid5": "2%: " + _ROUNDING.format(figures="57.6 TB and 0.75: exact"),
    "vsan-sql-provisioned-ftt1": ("1%: the seed's VM sizes are whole GB and the policy factors exact; 1% only absorbs "
                                  "its rounding of 'more than 8TB'"),
    "vsan-sql-space-savings": ("10%: the seed's own figures disagree by that much (5,050 / 2,020 = 2.5 against its "
                               "stated 2.27, 10% apart); tighter would test which of its inconsistent numbers is "
                               "read, not the model"),
    "ontap-efficiency-tpce": ("5%: the seed prints sizes and ratios to one decimal (1.9 TB: +-2.6%; 1.6:1: +-3.1%); "
                              "5% covers that rounding"),
    "ontap-efficiency-customer-db": ("15%: set by hand for the seed's loose Snapshot arithmetic (no single reading "
                                     "of its schedule gives both its 660 GB per copy and its 15:1 total) and its "
                                     "figures rounded to two or three digits"),
    "cvo-azure-license-caps": "0%: a licence cap is an exact published limit; any difference is a wrong unit or record",
    "aff8080-tpce-fcp": ("10% on IOPS, 20% on latency: " + _FIT + "; the host increments (predictions) are held to the "
                         "same 20%, inside the 30% latency target"),
    "a800-slob-select-fcp": "10% on IOPS, 25% on latency: " + _FIT,
    "a800-slob-select-nvmefc": "10% on IOPS, 25% on latency: " + _FIT,
    "a800-nvmefc-vs-fcp-peak": "10%: " + _FIT,
    "a800-nvmefc-vs-fcp-latency": "15%: " + _FIT,
    "a800-ontap95-vs-94-fcp": "10%: " + _FIT,
    "a800-nvmefc-host-cpu": ("10%: the ratio is printed to two digits (0.57) and the catalog constant was taken from "
                             "it; 10% checks that it is carried through the protocol detection"),
    "aff8080-ontap9-vs-831": "10%: " + _FIT,
    "vsan-tpce-raid1": ("25% around the published range and bound: the load is assumed (transactions per second "
                        "converted to IOPS), so the latency at it carries that assumption; inside the 30% latency "
                        "target"),
    "vsan-raid5-vs-raid1-write-latency": ("25%: set by hand for a never-fitted latency ratio, inside StorPlan's 30% "
                                          "latency target"),
    "ef550-sas-mixed": "no tolerance: yes / no conditions",
    "spinning-sas-mixed": "no tolerance: a yes / no condition",
    "cvo-azure-oltp": ("20%: StorPlan's saturation target, used for every row because each VM's profile is fitted "
                       "to all its rows at once (a row need not land on its own number)"),
    "cvo-azure-streaming-read": "20%: as the OLTP rows (one profile per VM fitted to all its rows)",
    "cvo-azure-streaming-write": "20%: as the OLTP rows (one profile per VM fitted to all its rows)",
    "cvo-azure-analytics": "20%: as the OLTP rows (one profile per VM fitted to all its rows)",
    "cvo-fabricpool-cold-read": "0% around the range: the seed's '30-50% lower' is itself the accepted range",
    "cvo-fabricpool-write": ("5%: 'no change' read as a ratio of 1, with 5% for measurement noise the seed does not "
                             "print (the model gives exactly 1 by construction)"),
}
"""Case id -> why its tolerances are what they are (every case of published.toml)."""

RAMP_REASON = ("30% on a latency or a shape ratio and 20% on saturation: StorPlan's prediction targets (median error "
               "at most 30% on latency, 20% on saturation) applied to each load level; a latency printed to one "
               "decimal is widened by half that step over the printed value (0.5 ms stands for 0.45-0.55 ms), a "
               "ratio of two printed latencies by both half steps")
"""Why every measured ramp's checks have their tolerances (models.validation.ramp_cases.ramp_tolerances)."""


def tolerance_reason(check: Check, section: str = "") -> str:
    """Why ``check`` has its tolerance, in words: a yes / no check has none; a measured ramp's check (``section``
    in :data:`RAMP_SECTIONS`, or a case id of the ramps) gives :data:`RAMP_REASON`; any other its case's entry of
    :data:`TOLERANCE_REASONS` ("" for a case without one, which the tests forbid)."""
    if check.kind == "expect":
        return "no tolerance: a yes / no condition"
    if section in RAMP_SECTIONS or check.case_id not in TOLERANCE_REASONS and _is_ramp(check.case_id):
        return RAMP_REASON
    return TOLERANCE_REASONS.get(check.case_id, "")


def _is_ramp(case_id: str) -> bool:
    from models.validation.ramp_cases import RAMP_CASES

    return case_id in RAMP_CASES
