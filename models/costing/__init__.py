"""Running cost, energy, carbon and total cost of ownership of a design over the horizon (Qt-free, pure functions).

:mod:`models.costing.inputs` (the running-cost figures and their sources), :mod:`models.costing.carbon` (embodied
carbon), :mod:`models.costing.cloud_prices` (reference cloud list prices), :mod:`models.costing.tco` (the
computation); what the screen, report, workbook and JSON show of it is ``models.present.cost``.
"""

from models.costing.inputs import RUNNING_DEFAULTS, Figure, RunningInputs, running_inputs
from models.costing.tco import CostLine, Energy, OptionCost, Tco, break_even_month, tco_of

__all__ = ["RUNNING_DEFAULTS", "CostLine", "Energy", "Figure", "OptionCost", "RunningInputs", "Tco",
           "break_even_month", "running_inputs", "tco_of"]
