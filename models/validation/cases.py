"""The published cases bundled with StorPlan (resources/validation/published.toml, and the public measured ramps
of resources/validation/ramps.toml) and the engines' case functions that replay them: what the runner and the
cross-validation both read."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from functools import lru_cache
from typing import Any

from models.performance.public_ramps import ramp_cases
from models.resources import validation_dir
from models.validation.checks import CaseFunction

SECTIONS = ("capacity", "performance", "relation", "cloud")
"""The sections of published.toml whose cases StorPlan replays (``fact`` rows are catalog data, checked by the
catalog's tests)."""

RAMP_SECTIONS = ("ramp",)
"""The section of the public measured ramps (ramps.toml, models.validation.ramp_cases): run and listed after
:data:`SECTIONS`, counted with them in ``storplan validate``'s headline by category, in-sample where a calibration
fits them."""


@lru_cache(maxsize=1)
def published_cases() -> dict[str, list[dict[str, Any]]]:
    """The published cases bundled with StorPlan, by section: :data:`SECTIONS` from published.toml and the
    ramps (:data:`RAMP_SECTIONS`) from ramps.toml (:func:`models.performance.public_ramps.ramp_cases`, which the
    calibration reads too)."""
    with open(validation_dir() / "published.toml", "rb") as handle:
        data = tomllib.load(handle)
    return {section: list(data.get(section, [])) for section in SECTIONS} | {"ramp": ramp_cases()}


def case_functions() -> Mapping[str, CaseFunction]:
    """Case id -> function, from every engine's case module."""
    functions: dict[str, CaseFunction] = {}
    from models.validation.capacity_cases import CAPACITY_CASES

    functions.update(CAPACITY_CASES)
    from models.validation.performance_cases import PERFORMANCE_CASES

    functions.update(PERFORMANCE_CASES)
    from models.validation.ramp_cases import RAMP_CASES

    functions.update(RAMP_CASES)
    return functions
