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

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the names this package offers, for the type checker; at run time each loads on first use
    from models.queueing.bounds import asymptotic_bounds, balanced_job_bounds
    from models.queueing.closed_network import ClosedCurve, closed_curve, solve_closed
    from models.queueing.erlang import erlang_b, erlang_c, mmc_response_time_s
    from models.queueing.open_network import OpenCurve, open_curve, solve_open
    from models.queueing.results import ClassResult, ClassStationResult, NetworkResult, StationResult
    from models.queueing.station import DEFAULT_CLASS, Station

_EXPORTS: dict[str, str] = {
    "asymptotic_bounds": "bounds", "balanced_job_bounds": "bounds",
    "ClosedCurve": "closed_network", "closed_curve": "closed_network", "solve_closed": "closed_network",
    "erlang_b": "erlang", "erlang_c": "erlang", "mmc_response_time_s": "erlang",
    "OpenCurve": "open_network", "open_curve": "open_network", "solve_open": "open_network",
    "ClassResult": "results", "ClassStationResult": "results", "NetworkResult": "results", "StationResult": "results",
    "DEFAULT_CLASS": "station", "Station": "station",
}
"""Each name this package offers -> the module of this package it comes from. Importing the package (as importing
any of its modules does) loads none of them; ``from models.queueing import X`` loads X's module when first asked
(:func:`__getattr__`). The performance engine imports only the modules it runs (:mod:`.general_service`,
:mod:`.tail`, :mod:`.arrays`): the solvers, bounds and result records here (about 7 ms of imports) stay out of an
evaluation."""


def __getattr__(name: str) -> Any:
    """The offered name ``name``, its module imported on first use (PEP 562; ``models.lazy.lazy_exports`` written
    out here: this package imports nothing of StorPlan, so that it stands alone against its peers).

    Raises:
        AttributeError: not a name this package offers.
    """
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    import importlib

    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


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
