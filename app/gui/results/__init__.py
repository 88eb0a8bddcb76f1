"""Result widgets the main window embeds: capacity waterfall, performance curves, validation table, scenario
comparison. They lay out what ``models.present`` derives (waterfall bars, verdicts, comparison rows); the
status-bar summary is ``models.present.status_summary``, re-exported here.

Every view has ``set_evaluation(evaluation, capacity_unit)`` and ``set_stale(stale, message="")``.

Each view's module is imported when its class is first asked for (``from app.gui.results import CapacityView``
imports the capacity view only): the start installs the view shown, and the Validation tab's engine, for one, is
not imported before that tab is shown.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from app.gui.results.capacity_view import CapacityView
    from app.gui.results.compare_view import CompareView
    from app.gui.results.performance_view import PerformanceView
    from app.gui.results.validation_view import ValidationView
    from models.present import status_summary

__all__ = ["CapacityView", "CompareView", "PerformanceView", "ValidationView", "status_summary"]

_MODULES = {
    "CapacityView": "app.gui.results.capacity_view",
    "CompareView": "app.gui.results.compare_view",
    "PerformanceView": "app.gui.results.performance_view",
    "ValidationView": "app.gui.results.validation_view",
    "status_summary": "models.present",
}


def __getattr__(name: str) -> Any:
    """The view class ``name``, its module imported on first use (PEP 562)."""
    module = _MODULES.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value
