"""Replay every published case (resources/validation/published.toml) through the engines."""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from models.catalog import Catalog, bundled_catalog
from models.resources import validation_dir

from .checks import CaseFunction, Check

SECTIONS = ("capacity", "performance", "relation", "cloud")
"""The sections of published.toml whose cases StorPlan replays (``fact`` rows are catalog data, checked by the
catalog's tests)."""


@dataclass(frozen=True)
class CaseOutcome:
    """The checks of one published case, or the error that stopped it."""

    section: str
    case_id: str
    seed: str
    checks: tuple[Check, ...]
    error: str = ""

    @property
    def passed(self) -> bool:
        """True when the case ran without error, produced at least one check, and every check passed."""
        return not self.error and bool(self.checks) and all(c.passed for c in self.checks)


@lru_cache(maxsize=1)
def published_cases() -> dict[str, list[dict[str, Any]]]:
    """The published cases bundled with StorPlan, by section."""
    with open(validation_dir() / "published.toml", "rb") as handle:
        data = tomllib.load(handle)
    return {section: list(data.get(section, [])) for section in SECTIONS}


def case_functions() -> Mapping[str, CaseFunction]:
    """Case id -> function, from every engine's case module."""
    functions: dict[str, CaseFunction] = {}
    from .capacity_cases import CAPACITY_CASES

    functions.update(CAPACITY_CASES)
    try:
        from .performance_cases import PERFORMANCE_CASES
    except ImportError:  # the performance cases arrive with the queueing engine
        PERFORMANCE_CASES = {}
    functions.update(PERFORMANCE_CASES)
    return functions


def run_validation(catalog: Catalog | None = None, sections: tuple[str, ...] = SECTIONS) -> list[CaseOutcome]:
    """Run every case of the given sections; a case without a model, or whose model raises, fails with its reason."""
    catalog = catalog or bundled_catalog()
    functions = case_functions()
    outcomes = []
    for section in sections:
        for case in published_cases().get(section, []):
            case_id = case["id"]
            seed = f"{case.get('seed', '')} {case.get('section', '')}".strip()
            function = functions.get(case_id)
            if function is None:
                outcomes.append(CaseOutcome(section, case_id, seed, (), "no model for this case yet"))
                continue
            try:
                checks = tuple(function(catalog, case))
            except Exception as exc:  # report, do not crash the whole table
                outcomes.append(CaseOutcome(section, case_id, seed, (), f"{type(exc).__name__}: {exc}"))
                continue
            outcomes.append(CaseOutcome(section, case_id, seed, checks))
    return outcomes
