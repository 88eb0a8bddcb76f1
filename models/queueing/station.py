"""The `Station` input record: one service centre of a queueing network.

A station is described by its *service demand* D = V x S (visits per job times
service time per visit, seconds per job), the operational-analysis input of
Lazowska et al. 1984, "Quantitative System Performance" (QSP), ch. 3-4, and
Jain 1991, "The Art of Computer Systems Performance Analysis", ch. 33.
"""

from __future__ import annotations

import math
import numbers
from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

__all__ = ["Station", "DEFAULT_CLASS"]

#: Class name used for single-class workloads in every per-class mapping.
DEFAULT_CLASS = "default"


def _check_demand(station: str, field: str, value: object) -> float:
    # exact float / int first: the numbers.Real check goes through the ABC machinery (the engines build
    # thousands of stations per evaluation)
    exact = type(value) is float or type(value) is int
    if not exact and (isinstance(value, bool) or not isinstance(value, numbers.Real)):
        raise ValueError(f"station {station!r}: {field} must be a real number of seconds, got {value!r}")
    v = float(value)  # type: ignore[arg-type]  # a real number: checked above
    if not math.isfinite(v):
        raise ValueError(f"station {station!r}: {field} must be finite, got {v!r}")
    if v < 0.0:
        raise ValueError(f"station {station!r}: {field} must be >= 0 seconds, got {v!r}")
    return v


@dataclass(frozen=True, slots=True)
class Station:
    """One service centre of a product-form queueing network.

    Args:
        name: non-empty, unique within a network.
        demand_s: service demand D = visits x service time, in seconds per job
            (all visits of one job). A float for single-class workloads (it is
            also used unchanged for every class of a multi-class workload), or a
            mapping ``class name -> seconds`` for multi-class workloads (classes
            missing from the mapping have demand 0 here).
        servers: number of identical servers c >= 1 (an M/M/c-type,
            load-dependent centre with rate min(j, c) / S when holding j jobs;
            QSP ch. 8, Bolch et al. 2006 "Queueing Networks and Markov Chains"
            ch. 8). Ignored when ``delay`` is true.
        delay: infinite-server (pure latency) centre: residence time = demand,
            no queueing (QSP ch. 6 "delay centers").

    Raises:
        ValueError: empty name; ``servers`` not an integer >= 1; a demand that
            is negative, NaN or infinite; a class name that is not a non-empty
            string. The message names the station and the field.

    The mapping form is copied into a read-only mapping, so a Station is
    immutable and hashable.
    """

    name: str
    demand_s: float | Mapping[str, float]
    servers: int = 1
    delay: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name.strip():
            raise ValueError(f"station name must be a non-empty string, got {self.name!r}")
        if type(self.servers) is not int and (isinstance(self.servers, bool)
                                              or not isinstance(self.servers, numbers.Integral)):
            raise ValueError(f"station {self.name!r}: servers must be an integer >= 1, got {self.servers!r}")
        if int(self.servers) < 1:
            raise ValueError(f"station {self.name!r}: servers must be >= 1, got {self.servers!r}")
        object.__setattr__(self, "servers", int(self.servers))
        if not isinstance(self.delay, bool):
            raise ValueError(f"station {self.name!r}: delay must be a bool, got {self.delay!r}")
        demand = self.demand_s
        if type(demand) is dict or (type(demand) is not float and isinstance(demand, Mapping)):
            clean: dict[str, float] = {}
            for cls, value in demand.items():
                if not isinstance(cls, str) or not cls:
                    raise ValueError(f"station {self.name!r}: demand_s class names must be non-empty strings, got "
                                     f"{cls!r}")
                clean[cls] = _check_demand(self.name, f"demand_s[{cls!r}]", value)
            object.__setattr__(self, "demand_s", MappingProxyType(clean))
        else:
            object.__setattr__(self, "demand_s", _check_demand(self.name, "demand_s", self.demand_s))

    def __hash__(self) -> int:
        d = self.demand_s
        key = tuple(sorted(d.items())) if isinstance(d, Mapping) else d
        return hash((self.name, key, self.servers, self.delay))

    def demand_for(self, job_class: str) -> float:
        """Demand in seconds of ``job_class`` here (0 for a class absent from a mapping)."""
        if type(self.demand_s) is float:  # checked and converted by __post_init__
            return self.demand_s
        if isinstance(self.demand_s, Mapping):
            return float(self.demand_s.get(job_class, 0.0))
        return float(self.demand_s)
