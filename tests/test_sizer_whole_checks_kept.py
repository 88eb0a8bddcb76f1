"""The HCI candidates' whole clusters as shown (``models.sizing._as_evaluated``) take the batched check the search's
N+1 check made of the very same cluster (``_hci_pass``) instead of checking it again: the same result as checking
every one of them again, float for float, with fewer designs checked."""

from __future__ import annotations

import models.performance.engine as engine
import models.sizing
from models.resources import examples_dir
from models.sizing import size
from models.store import load_any

EXAMPLE = "vsan8-esa-6host-sqlserver-oltp"


def _search(monkeypatch, again: bool):
    """(size's result, designs the sizer's ``check_designs`` checked) of the example, the ramp cache emptied first;
    ``again``: the shown whole clusters all checked again (none of the search's checks given)."""
    designs: list[int] = []
    real_check, real_evaluated = models.sizing.check_designs, models.sizing._as_evaluated

    def counted(paths, *args, **kwargs):
        designs.append(len(paths))
        return real_check(paths, *args, **kwargs)

    def without_checks(*args, **kwargs):
        return real_evaluated(*args[:6], **{k: v for k, v in kwargs.items() if k != "checked"})

    monkeypatch.setattr(models.sizing, "check_designs", counted)
    if again:
        monkeypatch.setattr(models.sizing, "_as_evaluated", without_checks)
    engine._CURVE_CACHE.clear()
    try:
        return size(load_any(examples_dir() / f"{EXAMPLE}.toml")), sum(designs)
    finally:
        monkeypatch.undo()


def test_shown_whole_clusters_take_the_search_checks_and_equal_checking_them_again(monkeypatch):
    result, checked = _search(monkeypatch, again=False)
    again, checked_again = _search(monkeypatch, again=True)
    shown = [c for c in result.candidates if c.deployment == "hci"]
    assert shown and all(c.max_iops_at_slo is not None and c.headroom_pct is not None for c in shown)
    assert result == again
    assert [(c.max_iops_at_slo, c.headroom_pct, c.bound) for c in result.evaluated] == \
        [(c.max_iops_at_slo, c.headroom_pct, c.bound) for c in again.evaluated]
    flat = len(shown) + sum(len(c.alternatives) for c in shown)
    assert checked <= checked_again - flat  # every shown whole cluster (and its alternatives) met: none checked again
