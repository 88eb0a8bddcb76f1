"""Erlang B/C and M/M/c helpers against direct summation (fractions) and overflow pins."""

import math
from fractions import Fraction

import pytest

from models.queueing import erlang_b, erlang_c, mmc_response_time_s


def erlang_c_direct(c: int, a: Fraction) -> Fraction:
    """Textbook closed form (Jain 1991 ch. 31), exact rational arithmetic."""
    rho = a / c
    tail = a**c / math.factorial(c) / (1 - rho)
    head = sum(a**k / math.factorial(k) for k in range(c))
    return tail / (head + tail)


def erlang_c_logspace(c: int, a: float) -> float:
    """Direct formula with terms a^k / k! as logs (log-sum-exp), no recurrence."""
    logs = [k * math.log(a) - math.lgamma(k + 1) for k in range(c)]
    log_tail = c * math.log(a) - math.lgamma(c + 1) - math.log(1 - a / c)
    m = max(max(logs), log_tail)
    head = sum(math.exp(x - m) for x in logs)
    tail = math.exp(log_tail - m)
    return tail / (head + tail)


@pytest.mark.parametrize("c", [1, 2, 3, 5, 8, 13])
@pytest.mark.parametrize("rho", [Fraction(1, 100), Fraction(1, 3), Fraction(7, 10), Fraction(99, 100)])
def test_erlang_c_matches_direct_summation(c, rho):
    a = rho * c
    assert erlang_c(c, float(a)) == pytest.approx(float(erlang_c_direct(c, a)), rel=1e-12)


def test_erlang_c_small_known_values():
    # M/M/2 at rho = 1/2: P(wait) = 2 rho^2 / (1 + rho) = 1/3; M/M/1: P(wait) = rho
    assert erlang_c(2, 1.0) == pytest.approx(1 / 3, rel=1e-14)
    assert erlang_c(1, 0.37) == pytest.approx(0.37, rel=1e-14)
    assert erlang_b(2, 1.0) == pytest.approx(0.2, rel=1e-14)


def test_mm1_response_time_closed_form():
    s, lam = 0.004, 180.0
    assert mmc_response_time_s(1, s, lam) == pytest.approx(s / (1 - lam * s), rel=1e-13)


def test_mmc_response_time_against_direct_formula():
    c, s, lam = 4, 0.01, 350.0
    a = Fraction(lam * s).limit_denominator(10**9)
    wait = float(erlang_c_direct(c, a)) * s / (c * (1 - lam * s / c))
    assert mmc_response_time_s(c, s, lam) == pytest.approx(s + wait, rel=1e-9)


def test_large_server_counts_do_not_overflow():
    # A^c / c! overflows a float for c > ~170; the recurrence must not.
    for c in (171, 500, 2000, 5000):
        p = erlang_c(c, 0.9 * c)
        assert math.isfinite(p) and 0.0 <= p <= 1.0
    # against the direct formula evaluated in log space (independent of the recurrence)
    for c, a in ((2000, 1800.0), (2000, 1990.0), (500, 250.0)):
        assert erlang_c(c, a) == pytest.approx(erlang_c_logspace(c, a), rel=1e-9)
    assert erlang_c(2000, 1800.0) < 1e-5
    assert erlang_c(2000, 1999.9) > 0.9
    r = mmc_response_time_s(2000, 0.01, 0.9 * 2000 / 0.01)
    assert r is not None and 0.01 <= r < 0.0101


def test_saturated_and_degenerate_loads():
    assert erlang_c(3, 3.0) == 1.0
    assert erlang_c(3, 1e300) == 1.0
    assert erlang_c(3, 0.0) == 0.0
    assert erlang_b(2000, 1e12) == pytest.approx(1.0, rel=1e-6)
    assert mmc_response_time_s(2, 0.5, 4.0) is None
    assert mmc_response_time_s(2, 0.5, 0.0) == 0.5
    assert mmc_response_time_s(2, 0.0, 1e9) == 0.0


@pytest.mark.parametrize(
    "args", [(0, 1.0), (-1, 1.0), (2.5, 1.0), (True, 1.0), (2, -0.1), (2, math.nan), (2, math.inf)]
)
def test_invalid_arguments_raise(args):
    with pytest.raises(ValueError):
        erlang_c(*args)
