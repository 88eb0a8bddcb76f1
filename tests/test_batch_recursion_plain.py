"""The batched closed-ramp recursion of a few networks run one by one in plain floats
(``models.queueing.general_service._batch_recursion_plain``): the same floats as the vectorised recursion, bit for
bit (``np.array_equal``, same shapes and strides), on random networks of 1 to 48 classes, saturating (at their
bound), declining (held by the no-decline rule) and neither; and the numpy sums it copies (one contiguous row summed
pairwise, several rows in order) on numpy itself."""

from __future__ import annotations

import numpy as np

import models.queueing.general_service as gs


def _both(monkeypatch, a, m, v, fixed, population, per_station):
    """(vectorised, plain) results of ``_batch_recursion`` on the same arguments."""
    monkeypatch.setattr(gs, "_plain_pays", lambda networks, classes: False)
    vectorised = gs._batch_recursion(a, m, v, fixed, population, per_station)
    monkeypatch.setattr(gs, "_plain_pays", lambda networks, classes: True)
    plain = gs._batch_recursion(a, m, v, fixed, population, per_station)
    return vectorised, plain


def _random_batch(rng, networks: int, classes: int, population: int):
    """``_batch_parts`` of random networks: some classes idle, multi-server and multi-copy classes, variability
    from 0 to 4 (a residual term of either sign), delays and think times or none."""
    s = rng.random((networks, classes)) * 10 ** rng.uniform(-6, -2, (networks, classes))
    s[rng.random((networks, classes)) < 0.15] = 0.0
    s[:, 0] += 1e-5  # every network has work
    c = rng.integers(1, 9, (networks, classes)).astype(float)
    m = rng.integers(1, 30, (networks, classes)).astype(float)
    v = np.where(rng.random((networks, classes)) < 0.5, 1.0, rng.uniform(0.0, 4.0, (networks, classes)))
    delay = rng.random(networks) * 1e-3 * (rng.random(networks) < 0.7)
    think = rng.random(networks) * 1e-3 * (rng.random(networks) < 0.3)
    return gs._batch_parts(s, c, m, v, delay, think, population)


def test_plain_recursion_gives_the_vectorised_floats(monkeypatch):
    rng = np.random.default_rng(5)
    saturated = declined = 0
    for trial in range(200):
        networks = (1, 2, 3, 5)[trial % 4]
        classes = int(rng.integers(1, gs._KERNEL_MAX_CLASSES + 1))
        population = int(rng.choice([1, 2, 9, 64, 150]))
        a, m, v, _par, fixed = _random_batch(rng, networks, classes, population)
        for per_station in (True, False):
            (X1, R1), (X2, R2) = _both(monkeypatch, a, m, v, fixed, population, per_station)
            assert np.array_equal(X1, X2) and np.array_equal(R1, R2)
            assert (X1.shape, X1.strides, R1.shape, R1.strides) == (X2.shape, X2.strides, R2.shape, R2.strides)
        with np.errstate(divide="ignore"):
            bound = np.where(a > 0, m / np.where(a > 0, a, 1.0), np.inf).min(axis=1)
        saturated += int(np.any(X1[:, -1] >= bound))
        declined += int(np.any((np.diff(X1, axis=1) == 0.0) & (X1[:, 1:] < bound[:, None])))  # held, not bound
    assert saturated and declined  # both rules taken, not only the plain recursion


def test_numpy_sums_as_the_kernel_writes_them():
    rng = np.random.default_rng(3)
    for classes in range(1, 49):
        names = [f"t{i}" for i in range(classes)]
        for networks in (1, 2, 4):
            rows = rng.random((classes, networks)) * 10 ** rng.uniform(-6, 0, (classes, networks))
            total = np.empty(networks)
            rows.sum(axis=0, out=total)
            text = gs._numpy_sum_text(names, networks == 1)
            for b in range(networks):
                assert eval(text, {}, dict(zip(names, rows[:, b].tolist()))) == total[b]  # (a text of our own)


def test_only_a_few_networks_run_plain():
    assert gs._plain_pays(1, 16) and gs._plain_pays(3, 16) and gs._plain_pays(4, 14)
    assert not gs._plain_pays(14, 14) and not gs._plain_pays(2, 48)
