"""Result widgets the main window embeds: capacity waterfall, performance curves, validation table, scenario
comparison. They lay out what ``models.present`` derives (waterfall bars, verdicts, comparison rows); the
status-bar summary is ``models.present.status_summary``, re-exported here.

Every view has ``set_evaluation(evaluation, capacity_unit)`` and ``set_stale(stale, message="")``.
"""

from app.gui.results.capacity_view import CapacityView
from app.gui.results.compare_view import CompareView
from app.gui.results.performance_view import PerformanceView
from app.gui.results.validation_view import ValidationView
from models.present import status_summary

__all__ = ["CapacityView", "CompareView", "PerformanceView", "ValidationView", "status_summary"]
