"""Result widgets the main window embeds: capacity waterfall, performance curves, validation table, scenario
comparison, and the status-bar summary.

Every view has ``set_evaluation(evaluation, capacity_unit)`` and ``set_stale(stale, message="")``.
"""

from .capacity_view import CapacityView
from .compare_view import CompareView
from .performance_view import PerformanceView
from .summary import status_summary
from .validation_view import ValidationView

__all__ = ["CapacityView", "CompareView", "PerformanceView", "ValidationView", "status_summary"]
