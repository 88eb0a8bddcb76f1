"""Pausing Python's cyclic garbage collector around work that makes many short-lived, acyclic objects.

A solve of the performance engine (tens of thousands of curve points and their tuples) and a project read or
written by the store (about 100,000 row tuples, node dicts and validated records at 10,000 nodes) hold no reference
cycle: with the collector running, every 700 new containers start a collection that walks the young ones again and
promotes the survivors, and a growing heap starts full collections that walk every object of the process (12% of
the 1,000 nodes x 200 workloads evaluation with its states; about a fifth of ``benchmarks/bench_store.py``'s open,
both measured). Paused, the new objects are walked once by the next collection after it; reference counting frees
everything as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def collector_paused() -> Iterator[None]:
    """Run the body with the cyclic collector paused when it was enabled; left alone when someone else turned it
    off (who turns it back on). Raises nothing of its own; the body's exceptions pass through, the collector
    restored."""
    was_enabled = gc.isenabled()
    if was_enabled:
        gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
