"""Immutable result records returned by every solver of this package.

Conventions (all solvers):

* times in seconds, rates in jobs per second;
* ``utilization`` is per server, U = X * D / c (utilisation law, Lazowska et
  al. 1984 QSP ch. 3; Jain 1991 ch. 33). Delay (infinite-server) stations
  report utilisation 0.0 (they never saturate); their mean number of jobs is
  in ``queue_length`` (= X * D);
* ``residence_time_s`` is per job over all its visits; ``queue_length`` counts
  jobs waiting plus in service;
* single-class results use the class name ``"default"`` in ``per_class`` and
  ``classes``;
* no field is ever NaN or infinite except ``saturation_throughput`` of a
  network in which no queueing station has a positive demand (nothing can
  saturate: ``math.inf``, with ``bottleneck`` None). An open network at or
  beyond saturation has ``stable=False``; its ``response_time_s`` and the
  saturated stations' ``residence_time_s`` / ``queue_length`` are ``None``
  ("saturated"), and their ``utilization`` is clipped to 1.0.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

__all__ = ["ClassStationResult", "StationResult", "ClassResult", "NetworkResult"]


@dataclass(frozen=True, slots=True)
class ClassStationResult:
    """One class at one station: utilisation (per server), residence time (s), queue length (jobs).

    ``residence_time_s`` / ``queue_length`` are None only for a saturated
    station of an unstable open network.
    """

    utilization: float
    residence_time_s: float | None
    queue_length: float | None


@dataclass(frozen=True, slots=True)
class StationResult:
    """One station, all classes together.

    Attributes:
        utilization: per server, sum over classes of X_r D_r / c (clipped to
            1.0 only for saturated stations of unstable open networks).
        residence_time_s: per job of the whole workload, Q / X (for one class
            this is the class residence time; for several classes it is the
            throughput-weighted mean of the class residence times). None when
            saturated.
        queue_length: mean number of jobs at the station (waiting + in
            service). None when saturated.
        per_class: class name -> ClassStationResult.
    """

    utilization: float
    residence_time_s: float | None
    queue_length: float | None
    per_class: Mapping[str, ClassStationResult]


@dataclass(frozen=True, slots=True)
class ClassResult:
    """Per-class throughput (jobs/s) and response time (s, excluding think time; None if saturated)."""

    throughput: float
    response_time_s: float | None


@dataclass(frozen=True, slots=True)
class NetworkResult:
    """Solution of an open or closed network.

    Attributes:
        throughput: total jobs/s completed (open and unstable: the saturation
            throughput the network can actually carry).
        response_time_s: mean response time of a job (s), excluding think
            time; for several classes, throughput-weighted. None iff
            ``stable`` is False.
        stable: False only for an open network at or beyond saturation.
        saturation_throughput: jobs/s at which the bottleneck saturates
            (single class: min over queueing stations of c / D; several
            classes: total throughput at which the bottleneck saturates with
            the class mix of this result). ``math.inf`` if nothing can
            saturate.
        bottleneck: name of the station with the largest D / c (several
            classes: the largest utilisation), None if no queueing station
            has positive demand.
        method: "open", "exact-mva", "exact-convolution", "schweitzer",
            "linearizer", or one of those with a "+seidmann" suffix when
            multi-server stations were approximated (see solve_closed).
        converged: False when an iterative method hit its iteration cap.
        population: total closed population, None for open networks.
        arrival_rate: total offered arrival rate (jobs/s) for open networks,
            None for closed ones.
        stations: station name -> StationResult, in input order.
        classes: class name -> ClassResult ("default" for one class).
    """

    throughput: float
    response_time_s: float | None
    stable: bool
    saturation_throughput: float
    bottleneck: str | None
    method: str
    converged: bool
    population: int | None
    arrival_rate: float | None
    stations: Mapping[str, StationResult]
    classes: Mapping[str, ClassResult]
