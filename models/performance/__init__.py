"""Storage performance engine: queueing stations on each workload's I/O path, closed ramps and operating points.

Entry point: :func:`evaluate_performance` (scenario + catalog + settings -> :class:`ScenarioPerformance`).
:func:`curve_rows` turns a workload's curve into plain rows for the CLI.
"""

from models.performance.engine import (
    Ramp,
    curve_rows,
    evaluate_performance,
    iops_at_latency,
    latency_at_iops,
    ramp,
    saturation_iops,
    solve_workload,
    target_rate,
)
from models.performance.paths import PathError, StationSpec, WorkloadPath, build_path, protocol_of
from models.performance.results import CurvePoint, ScenarioPerformance, StationLoad, WorkloadPerformance
from models.performance.stations import StationId

__all__ = [
    "CurvePoint",
    "PathError",
    "Ramp",
    "ScenarioPerformance",
    "StationId",
    "StationLoad",
    "StationSpec",
    "WorkloadPath",
    "WorkloadPerformance",
    "build_path",
    "curve_rows",
    "evaluate_performance",
    "iops_at_latency",
    "latency_at_iops",
    "protocol_of",
    "ramp",
    "saturation_iops",
    "solve_workload",
    "target_rate",
]
