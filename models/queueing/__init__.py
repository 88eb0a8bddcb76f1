"""Queueing-network solver for StorPlan (pure Python + numpy).

Public API:

* `Station` -- a service centre (demand in s/job, servers, delay flag).
* `solve_open`, `open_curve` -- open networks of M/M/c and delay stations.
* `solve_closed`, `closed_curve` -- closed networks: exact MVA (with exact
  multi-server stations), Schweitzer and Linearizer approximate MVA.
* `asymptotic_bounds`, `balanced_job_bounds` -- single-class bounds.
* `erlang_c`, `mmc_response_time_s` -- M/M/c helpers.
* Results: `NetworkResult`, `StationResult`, `ClassStationResult`,
  `ClassResult`, `ClosedCurve`, `OpenCurve`.

Conventions (units, None for saturated values, "default" class name): see
`models.queueing.results`.
"""

from models.queueing.bounds import asymptotic_bounds, balanced_job_bounds
from models.queueing.closed_network import ClosedCurve, closed_curve, solve_closed
from models.queueing.erlang import erlang_b, erlang_c, mmc_response_time_s
from models.queueing.open_network import OpenCurve, open_curve, solve_open
from models.queueing.results import ClassResult, ClassStationResult, NetworkResult, StationResult
from models.queueing.station import DEFAULT_CLASS, Station

__all__ = [
    "Station",
    "DEFAULT_CLASS",
    "solve_open",
    "open_curve",
    "OpenCurve",
    "solve_closed",
    "closed_curve",
    "ClosedCurve",
    "asymptotic_bounds",
    "balanced_job_bounds",
    "erlang_b",
    "erlang_c",
    "mmc_response_time_s",
    "NetworkResult",
    "StationResult",
    "ClassStationResult",
    "ClassResult",
]
