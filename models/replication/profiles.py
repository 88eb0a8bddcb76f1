"""Named shapes of a workload's daily change profile (the 24 hourly weights of ``ChangeRate.hourly_profile``) and
the check of 24 weights typed by hand, for the Inspector's profile editor.

The shapes are planning assumptions, not measurements: "even" spreads the change over the day (the default, an
empty profile); "daytime" (business hours) puts twice the rate in 08:00-18:00 (10 hours); "overnight" (a batch
window) puts four times the rate in 22:00-06:00 (8 hours). Only the weights' shares matter, so the worst hour of
"daytime" holds 2/34 of the day's change and that of "overnight" 4/48 = 1/12.
"""

from __future__ import annotations

from collections.abc import Sequence

HOURS = 24

PROFILE_SHAPES: dict[str, tuple[str, list[float]]] = {
    "even": ("Even", []),
    "business-hours": ("Daytime", [2.0 if 8 <= h < 18 else 1.0 for h in range(HOURS)]),
    "overnight-batch": ("Overnight", [4.0 if h >= 22 or h < 6 else 1.0 for h in range(HOURS)]),
}
"""Shape key -> (its short name on screen, its 24 weights; [] is even)."""

SHAPE_DESCRIPTIONS: dict[str, str] = {
    "even": "the same change every hour of the day",
    "business-hours": "business hours: twice the change from 08:00 to 18:00 as in the other hours",
    "overnight-batch": "an overnight batch: four times the change from 22:00 to 06:00 as in the other hours",
}
"""Shape key -> what it means, for a tooltip."""

CUSTOM = "custom"
"""The key of a profile that is none of :data:`PROFILE_SHAPES`."""


def shape_of(profile: Sequence[float]) -> str:
    """The key in :data:`PROFILE_SHAPES` whose weights have the same shares as ``profile`` (24 weights or empty),
    or :data:`CUSTOM`. A flat profile ([k] * 24) is "even"."""
    if not profile or (len(profile) == HOURS and max(profile) == min(profile) and profile[0] > 0):
        return "even"
    total = sum(profile)
    for key, (_, weights) in PROFILE_SHAPES.items():
        if weights and len(profile) == HOURS and total > 0:
            ref = sum(weights)
            if all(abs(p / total - w / ref) <= 1e-9 for p, w in zip(profile, weights, strict=True)):
                return key
    return CUSTOM


def parse_profile(texts: Sequence[str]) -> list[float]:
    """24 weights read from the texts typed for hours 0 to 23 (an empty cell is 0).

    Raises:
        ValueError: not 24 texts, a text that is not a number, a negative or non-finite weight (the message names
            the hour, e.g. "Hour 07:00-08:00: -1 is negative"), or every weight 0.
    """
    if len(texts) != HOURS:
        raise ValueError(f"A daily profile has {HOURS} hourly weights, got {len(texts)}")
    out: list[float] = []
    for hour, text in enumerate(texts):
        where = f"Hour {hour:02d}:00-{(hour + 1) % HOURS:02d}:00"
        stripped = text.strip().replace(",", ".")
        try:
            value = float(stripped) if stripped else 0.0
        except ValueError:
            raise ValueError(f"{where}: '{text.strip()}' is not a number") from None
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError(f"{where}: '{text.strip()}' is not a finite number")
        if value < 0:
            raise ValueError(f"{where}: {value:g} is negative (a weight is 0 or more)")
        out.append(value)
    if sum(out) <= 0:
        raise ValueError("Every hour's weight is 0: give at least one hour a weight above 0")
    return out


__all__ = ["CUSTOM", "HOURS", "PROFILE_SHAPES", "SHAPE_DESCRIPTIONS", "parse_profile", "shape_of"]
