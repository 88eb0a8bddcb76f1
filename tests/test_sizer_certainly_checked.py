"""The sizer solves ahead only the ramps of the designs of a chunk its walk certainly checks (and those its
look-ahead finds), the rest of the chunk when the walk reaches them: the designs past the place where enough meet
are not solved at all, and every figure is the one solving the whole chunk ahead gives, float for float (their
networks have fewer queueing classes than ``SUMMED_IN_ORDER_BELOW``, which the batched engine solves alike in any
batch; a chunk with a larger network is solved ahead whole, as before)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import cast

import pytest

import models.performance.engine as engine
import models.sizing
from models.performance.screening import SUMMED_IN_ORDER_BELOW, DesignPaths
from models.resources import examples_dir
from models.sizing import _queues_few, size
from models.store import load_any


def _search(monkeypatch, example: str, whole_chunks: bool):
    """(size's result, the ramps the search's look-ahead asked the batched engine for) of a bundled example, the
    ramp cache emptied first; ``whole_chunks``: every design of a chunk solved ahead (as if a network of many
    queueing classes were in each chunk)."""
    asked: list[int] = []
    real = models.sizing.solve_requests

    def counted(requests):
        asked.append(len(requests))
        return real(requests)

    monkeypatch.setattr(models.sizing, "solve_requests", counted)
    if whole_chunks:
        monkeypatch.setattr(models.sizing, "_queues_few", lambda design: False)
    engine._CURVE_CACHE.clear()
    try:
        return size(load_any(examples_dir() / f"{example}.toml")), sum(asked)
    finally:
        monkeypatch.undo()


@pytest.mark.parametrize(("example", "saved"), [("vsan8-esa-6host-sqlserver-oltp", 40),
                                                 ("vsan-sqlserver-raid1", 15)])
def test_designs_past_where_enough_meet_are_not_solved_and_the_figures_are_the_same(monkeypatch, example, saved):
    result, asked = _search(monkeypatch, example, whole_chunks=False)
    whole, asked_whole = _search(monkeypatch, example, whole_chunks=True)
    assert result.candidates and result == whole
    assert [c.max_iops_at_slo for c in result.evaluated] == [c.max_iops_at_slo for c in whole.evaluated]
    # 21 designs of the vSAN 8 example's second chunk and their whole clusters (N+1) no longer solved: 96 ramps
    # instead of 138 (vsan-sqlserver-raid1: 104 instead of 120, fewer designs since its vSAN 6.2 host, no longer
    # sold, is not proposed)
    assert asked <= asked_whole - saved


def test_a_network_of_many_queueing_classes_keeps_its_chunk_solved_ahead():
    class Spec:
        def __init__(self, delay: bool) -> None:
            self.delay = delay

    class Path:
        def __init__(self, queues: int) -> None:
            self.stations = (Spec(True), *(Spec(False) for _ in range(queues)), Spec(True))

    def design(*queues: int) -> DesignPaths:
        return cast(DesignPaths, SimpleNamespace(paths=[Path(q) for q in queues]))

    assert _queues_few(design(SUMMED_IN_ORDER_BELOW - 1, 3))
    assert not _queues_few(design(3, SUMMED_IN_ORDER_BELOW))
    assert _queues_few(design())
