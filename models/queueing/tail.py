"""Response-time percentiles (p95, p99) of a path of FCFS queueing stations and fixed delays.

Method, in four steps; every function is pure and vectorised with numpy over any leading shape (load levels):

1. **Waiting time at one station.** An arrival at a station of ``c`` servers with per-server utilisation U waits
   with probability P(W > 0) = C(c, cU), Erlang's C formula, and, given that it waits, for an exponential time
   of mean a / (1 - U), a = s / c (the M/M/c waiting-time distribution
   P(W > t) = C(c, A) e^{-(c mu - lambda) t}: Kleinrock 1975, *Queueing Systems, Vol. 1: Theory*, §3.5;
   Harchol-Balter 2013, *Performance Modeling and Design of Computer Systems*, ch. 14). For general service and
   arrivals the conditional mean is scaled by v = (ca² + cs²) / 2, keeping the exponential shape and the Erlang C
   probability of waiting: the Allen-Cunneen approximation of the mean wait (Allen 1990, *Probability,
   Statistics and Queueing Theory*, 2nd ed., §6.4) with the exponential conditional wait of Whitt 1993,
   "Approximations for the GI/G/m queue", *Production and Operations Management* 2(2), §3 (exact for M/M/c;
   for M/G/1 the exponential conditional wait is Tijms 2003, *A First Course in Stochastic Models*, §2.5).
   At a single-server station the conditional wait is taken as gamma-shaped with the squared coefficient of
   variation that Takács' moments of the M/G/1 waiting time give, E[W] = lambda E[S²] / (2 (1 - U)) and
   E[W²] = 2 E[W]² + lambda E[S³] / (3 (1 - U)) (Takács 1962, *Introduction to the Theory of Queues*, ch. 2;
   Kleinrock 1975 §5.7): with gamma-shaped service of cs², scv = 2U - 1 + 4 (1 + 2 cs²)(1 - U) / (3 (1 + cs²)),
   1 at cs² = 1 (exponential, exact for M/M/1), (1 + 2U) / 3 for constant service (M/D/1), whose conditional
   wait is less variable than an exponential one. Multi-server stations keep the exponential (exact for M/M/c).
2. **Response time at one station** = waiting + own service, independent under FCFS. The service time has mean
   s and squared coefficient of variation cs² and is taken as gamma-shaped for its third moment (exponential at
   cs² = 1, constant at cs² = 0).
3. **A path** is the sum of its stations' response times and its fixed latencies (constants). The sojourn times
   of one job at successive FCFS exponential stations of an open tandem are independent (Reich 1957, "Waiting
   times when queues are in tandem", *Ann. Math. Statist.* 28; Harchol-Balter 2013 ch. 18 on Jackson networks),
   which this module assumes for every path, so the cumulants (mean, variance, third cumulant) of the stations
   add. A read / write mix is a mixture of two such sums (the same waits, each operation's own service times):
   its raw moments are the weighted raw moments of the two.
4. **Percentile from three moments**: the sum is approximated by the *translated (shifted) gamma* with the same
   mean, variance and skewness (Kaas, Goovaerts, Dhaene & Denuit 2008, *Modern Actuarial Risk Theory*, 2nd ed.,
   §2.5.1; exact for one exponential station and for tandems of equal exponential stations, an Erlang sum), and
   its percentile is read from the unit gamma's quantile function: for p95 and p99 from a table of it at 55
   shapes from 10^-1.5 to 10^3 (12 a decade, computed with ``scipy.special.gammaincinv`` and checked against it
   by the tests: within 6e-4 between the shapes, cubic Hermite interpolation of log quantile in log shape), the
   Wilson-Hilferty approximation above (Wilson & Hilferty 1931, "The distribution of chi-square", *PNAS* 17;
   within 2e-6 there), shapes below the table at its first entry; other percentiles from scipy itself. The table
   keeps scipy.special (a slow import) out of an evaluation.
   Where the third cumulant is not positive (a symmetric or left-skewed read / write mixture), the two-moment
   gamma (shift 0) is used instead.

Saturated stations (U >= 1) have no steady state: their percentiles are +inf here and callers report
"saturated". Checked against discrete-event simulations (ciw) of single M/M/1 and M/M/c queues, two- and
three-station tandems, a high-utilisation queue and deterministic service (tests/test_tail_latency.py).
"""

from __future__ import annotations

import math
from functools import lru_cache
from statistics import NormalDist

import numpy as np

from models.queueing.arrays import sorted_unique

__all__ = ["erlang_c_vec", "erlang_c_tabled", "wait_shape", "conditional_wait_scv", "station_cumulants",
           "mixture_cumulants", "unit_gamma_quantile", "gamma_quantile", "gamma_quantiles", "path_quantiles",
           "unit_gamma_cdf", "mixture_quantiles"]

Cumulants = tuple[np.ndarray, np.ndarray, np.ndarray]
"""(kappa1, kappa2, kappa3): mean, variance and third cumulant, seconds, seconds², seconds³, arrays of one shape."""


def erlang_c_vec(servers: np.ndarray, utilisation: np.ndarray) -> np.ndarray:
    """Erlang C, the probability that an arrival waits in an M/M/c queue, vectorised over servers and load.

    Args:
        servers: (..., K) servers per queue, integers >= 1 (broadcast against ``utilisation``).
        utilisation: (..., K) per-server utilisation U = lambda s / c, >= 0.

    Returns:
        C(c, cU) in [0, 1], by the Erlang B recurrence B(k) = A B(k-1) / (k + A B(k-1)) and
        C = B / (1 - U (1 - B)) (Jagerman 1974; Bolch et al. 2006, *Queueing Networks and Markov Chains*, ch. 6);
        1.0 where U >= 1 and U itself where c = 1. One recurrence of c steps per distinct c, on its entries.
    """
    u = np.asarray(utilisation, dtype=float)
    c = np.broadcast_to(np.asarray(servers, dtype=float), np.broadcast_shapes(np.shape(servers), u.shape))
    u = np.broadcast_to(u, c.shape)
    b = np.ones(c.shape)
    # one recurrence per distinct server count, on its entries only (a path has few: no masking at every step)
    for servers_k in sorted_unique(c[c > 1.0]):
        at = c == servers_k
        b[at] = _erlang_b(int(servers_k), servers_k * u[at])
    with np.errstate(divide="ignore", invalid="ignore"):
        out = b / (1.0 - u * (1.0 - b))
    out = np.where(u >= 1.0, 1.0, np.where(c <= 1.0, u, out))
    return np.clip(np.nan_to_num(out, nan=1.0), 0.0, 1.0)


def _erlang_b(c: int, a: np.ndarray) -> np.ndarray:
    """Erlang B of ``c`` servers at offered loads ``a`` (Erlangs), by the recurrence."""
    b = np.ones(a.shape)
    for k in range(1, c + 1):
        ab = a * b
        b = ab / (k + ab)
    return b


def erlang_c_tabled(servers: np.ndarray, utilisation: np.ndarray, counts: np.ndarray | None = None) -> np.ndarray:
    """:func:`erlang_c_vec` for many load levels at once, cheaply: for a server count above 8, C(c, cU) is read
    from a table of it at 2,049 utilisations in [0, 1] (built once per c; linear interpolation, within 1e-5 of
    the recurrence), so a curve of hundreds of load levels at a station of 90 servers costs one lookup instead of
    90 steps. Arguments and result as :func:`erlang_c_vec`; ``counts``: the distinct server counts in ``servers``
    when the caller knows them (else found here)."""
    u = np.asarray(utilisation, dtype=float)
    c = np.broadcast_to(np.asarray(servers, dtype=float), np.broadcast_shapes(np.shape(servers), u.shape))
    u = np.broadcast_to(u, c.shape)
    out = np.where(c <= 1.0, np.clip(u, 0.0, 1.0), 1.0)
    for servers_k in (sorted_unique(c[c > 1.0]) if counts is None else counts[counts > 1.0]):
        at = c == servers_k
        if servers_k <= 8:
            out[at] = erlang_c_vec(np.full(int(at.sum()), servers_k), u[at])
        else:
            out[at] = np.interp(u[at], _TABLE_U, _erlang_c_table(int(servers_k)), right=1.0)
    return out


_TABLE_U = np.linspace(0.0, 1.0, 2049)


@lru_cache(maxsize=64)
def _erlang_c_table(servers: int) -> np.ndarray:
    """C(c, cU) at every :data:`_TABLE_U` for c = ``servers`` (cached)."""
    return erlang_c_vec(np.full(_TABLE_U.shape, float(servers)), _TABLE_U)


def wait_shape(service_s: np.ndarray, servers: np.ndarray, utilisation: np.ndarray, v: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray]:
    """The waiting time of a G/G/c station (step 1 of the module): P(wait) and the mean wait given a wait.

    Args:
        service_s: (..., K) mean service time s of one visit, seconds; servers: (..., K) c >= 1;
        utilisation: (..., K) per-server utilisation U; v: (..., K) variability factor (ca² + cs²) / 2
        (1 for M/M/c). All broadcast together.

    Returns:
        (p_wait, conditional_mean_s): Erlang C(c, cU) and v s / (c (1 - U)) seconds; +inf where U >= 1.
        Mean wait = p_wait x conditional mean (Allen-Cunneen's mean, with Erlang C as the waiting probability).
    """
    s = np.asarray(service_s, dtype=float)
    c = np.asarray(servers, dtype=float)
    u = np.asarray(utilisation, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        cond = np.asarray(v, dtype=float) * s / (c * (1.0 - u))
    cond = np.where(u >= 1.0, np.inf, cond)
    return erlang_c_vec(c, u), cond


def conditional_wait_scv(servers: np.ndarray, utilisation: np.ndarray, scv_service: np.ndarray) -> np.ndarray:
    """Squared coefficient of variation of the wait given a wait (step 1 of the module): Takács' M/G/1 moments
    at a single server, 2U - 1 + 4 (1 + 2 cs²)(1 - U) / (3 (1 + cs²)), and 1 (exponential) at several.

    Args:
        servers, utilisation, scv_service: (..., K) c, per-server utilisation U (clipped to [0, 1]) and the
        service's cs² >= 0, broadcast together.
    """
    u = np.clip(np.asarray(utilisation, dtype=float), 0.0, 1.0)
    cs2 = np.asarray(scv_service, dtype=float)
    single = 2.0 * u - 1.0 + 4.0 * (1.0 + 2.0 * cs2) * (1.0 - u) / (3.0 * (1.0 + cs2))
    return np.where(np.asarray(servers, dtype=float) <= 1.0, np.maximum(single, 1e-6), 1.0)


def station_cumulants(service_s: np.ndarray, scv_service: np.ndarray, p_wait: np.ndarray,
                      conditional_wait_s: np.ndarray, wait_scv: np.ndarray | float = 1.0) -> Cumulants:
    """Cumulants of one station's response time, wait + own service (step 2 of the module).

    Args:
        service_s: (...) mean service time, seconds (0 for none); scv_service: (...) its cs² >= 0 (gamma-shaped:
        third moment s³ (1 + cs²)(1 + 2 cs²)); p_wait: (...) probability of waiting, 0..1;
        conditional_wait_s: (...) mean of the wait given a wait, seconds (+inf: saturated);
        wait_scv: (...) its squared coefficient of variation (1: exponential; :func:`conditional_wait_scv`).

    Returns:
        (kappa1, kappa2, kappa3) of wait + service; the wait, 0 with probability 1 - p and gamma-shaped (mean
        theta, scv w) with p, has raw moments p theta, p theta² (1 + w), p theta³ (1 + w)(1 + 2w) (p n! theta^n
        for the exponential); the gamma service has kappa2 = cs² s², kappa3 = 2 cs⁴ s³.
    """
    s = np.asarray(service_s, dtype=float)
    cs2 = np.asarray(scv_service, dtype=float)
    p = np.asarray(p_wait, dtype=float)
    th = np.asarray(conditional_wait_s, dtype=float)
    w = np.asarray(wait_scv, dtype=float)
    with np.errstate(invalid="ignore"):
        th = np.where(p > 0.0, th, 0.0)  # no wait: its size does not matter (and may be inf x 0)
        m1 = p * th
        m2 = m1 * th * (1.0 + w)
        m3 = m2 * th * (1.0 + 2.0 * w)
        m1_sq = m1 * m1
        k1 = m1 + s
        k2 = (m2 - m1_sq) + cs2 * s * s
        k3 = (m3 - m1 * (3.0 * m2 - 2.0 * m1_sq)) + 2.0 * cs2 * cs2 * s * s * s
    return k1, k2, k3


def mixture_cumulants(weights: tuple[float | np.ndarray, ...], parts: tuple[Cumulants, ...]) -> Cumulants:
    """Cumulants of a mixture: with probability ``weights[i]`` (a number, or an array broadcast against the
    cumulants: one mixture per load level) the variable has cumulants ``parts[i]`` (e.g. reads and writes). Raw
    moments mix linearly: mu1 = k1, mu2 = k2 + k1², mu3 = k3 + 3 k1 k2 + k1³; +inf cumulants (saturated) give
    non-finite results."""
    m1 = m2 = m3 = np.zeros(np.shape(parts[0][0]))
    with np.errstate(invalid="ignore", over="ignore"):
        for w, (k1, k2, k3) in zip(weights, parts):
            m1 = m1 + w * k1
            m2 = m2 + w * (k2 + k1 * k1)
            m3 = m3 + w * (k3 + 3.0 * k1 * k2 + k1 ** 3)
        return (np.asarray(m1, dtype=float), np.asarray(m2 - m1 * m1, dtype=float),
                np.asarray(m3 - 3.0 * m1 * m2 + 2.0 * m1 ** 3, dtype=float))


_LOG_SHAPES = np.log(10.0) * (-1.5 + np.arange(55) / 12.0)
"""The table's shapes k = 10^(-1.5 + j / 12), j = 0..54, as ln k (k = 1 is an entry: exact for one exponential)."""
_UNIT_QUANTILES = {
    0.95: np.array([
    0.1283592388295946, 0.17913145112208168, 0.23977451905208058, 0.31025704103190804, 0.3905154029153404,
    0.4805382912209844, 0.5804351053231342, 0.6904931297910066, 0.8112285945128372, 0.9434360342937393,
    1.0882394441579741, 1.2471479483255745, 1.4221181844398816, 1.6156253959356628, 1.83074534889971,
    2.0712496595460896, 2.3417179259209835, 2.64767115488101, 2.9957322735539895, 3.393820906722904,
    3.851391010706245, 4.379721381377105, 4.992270599898623, 5.705109824800298, 6.537449192073199,
    7.5122766347240795, 8.657131828740662, 10.005042837762025, 11.595658996168021, 13.476620812175815,
    15.705216422115459, 18.3503846892265, 21.495137798549774, 25.23949162464073, 29.704010812581828,
    35.03409810660249, 41.40518482047011, 49.02901248082033, 58.16123581246541, 69.11062585513048, 82.25021089849706,
    98.03076427054637, 116.99713444616246, 139.80801764874957, 167.25989996182986, 200.31604963213184,
    240.14162640272198, 288.1462002361329, 346.03524499851255, 415.87250366278107, 500.15552257124443,
    601.9071380802343, 724.7862874267352, 873.2222286387042, 1052.5771180823206,
    ]),
    0.99: np.array([
    0.8047499996059119, 0.918789122682701, 1.039216638439091, 1.1661008488328148, 1.2996551900293998,
    1.4402582512389495, 1.5884778179295, 1.7450997489878186, 1.9111624043646025, 2.0879972850302977,
    2.277276533594451, 2.4810679927057975, 2.701898668476189, 2.9428277505714147, 3.207530854744704,
    3.5003979170973483, 3.8266481852322465, 4.192466973172739, 4.60517018598809, 5.073403980426759,
    5.607388257525065, 6.219214018372565, 6.923206089261918, 7.736364537071576, 8.67890045966783, 9.774884924787925,
    11.053033775530658, 12.547655931374662, 14.299798816159223, 16.358631810650312, 18.783117393312533,
    21.64403020719638, 25.026397059847593, 29.03244629962498, 33.78517368850594, 39.43265450033417,
    46.153258950660735, 54.16196122104793, 63.71797250072204, 75.13397711352442, 88.78730972285113,
    105.13348298552384, 124.7225614907208, 148.21898256246843, 176.42555138867655, 210.31249164857724,
    251.05261901628214, 300.0639304933245, 359.0611757933128, 430.118308053971, 515.7441122060908, 618.973795190095,
    743.4799108153637, 893.7067051350799, 1075.032832086435,
    ]),
}
"""The p-quantile of the unit-scale gamma of shape k at each :data:`_LOG_SHAPES` (``scipy.special.gammaincinv(k,
p)``), for p = 0.95 and 0.99."""
_LOG_TABLES = {p: (np.log(q), np.gradient(np.log(q), _LOG_SHAPES, edge_order=2)) for p, q in _UNIT_QUANTILES.items()}
_NORMAL_QUANTILES = {0.95: 1.6448536269514722, 0.99: 2.3263478740408408}
"""z_p of the standard normal (Wilson-Hilferty's input)."""
_LARGEST_SHAPE = np.exp(_LOG_SHAPES[-1])
"""The table's largest shape (above it, Wilson-Hilferty)."""


def unit_gamma_quantile(shape: np.ndarray, p: float) -> np.ndarray:
    """The p-quantile of the gamma distribution of shape ``shape`` (> 0) and scale 1, vectorised.

    For p = 0.95 and 0.99: the table (module, step 4) between shapes 10^-1.5 and 10^3 (shapes below it at its
    first entry), Wilson-Hilferty, k (1 - 1/(9k) + z_p / (3 sqrt k))³, above; other p: ``scipy.special.gammaincinv``.
    """
    k = np.asarray(shape, dtype=float)
    if p not in _LOG_TABLES:
        from scipy.special import gammaincinv  # only for a percentile the table does not hold

        return np.asarray(gammaincinv(k, p), dtype=float)
    return _unit_gamma_quantile(_UnitGammaShape(k), p)


class _UnitGammaShape:
    """What :func:`unit_gamma_quantile` computes of the shapes alone (the table's interval and position in it, the
    Wilson-Hilferty operands), once for every percentile asked of the same shapes (:func:`gamma_quantiles`): the same
    operations, so the same floats."""

    __slots__ = ("k", "i", "h", "t", "t2", "t3", "beyond", "big", "root")

    def __init__(self, k: np.ndarray) -> None:
        xs = _LOG_SHAPES
        x = np.clip(np.log(np.maximum(k, 1e-300)), xs[0], xs[-1])
        i = np.clip(xs.searchsorted(x) - 1, 0, len(xs) - 2)
        self.k, self.i = k, i
        self.h = xs[i + 1] - xs[i]
        self.t = t = (x - xs[i]) / self.h
        self.t2, self.t3 = t * t, t * t * t
        self.beyond = k > _LARGEST_SHAPE
        """Which shapes lie above the table (Wilson-Hilferty's); the operands below only when any does (a curve's
        rows of the translated gamma are mostly within it: the same floats, np.where picks the table's there)."""
        self.big: np.ndarray | None = None
        self.root: np.ndarray | None = None
        if self.beyond.any():
            self.big = np.maximum(k, 1.0)
            self.root = np.sqrt(self.big)


def _unit_gamma_quantile(shape: _UnitGammaShape, p: float) -> np.ndarray:
    """:func:`unit_gamma_quantile` at ``p`` (one of the table's) of the shapes :class:`_UnitGammaShape` holds."""
    log_q, slope = _LOG_TABLES[p]
    i, h, t, t2, t3, big, root = shape.i, shape.h, shape.t, shape.t2, shape.t3, shape.big, shape.root
    log_value = ((2 * t3 - 3 * t2 + 1) * log_q[i] + (t3 - 2 * t2 + t) * h * slope[i]
                 + (3 * t2 - 2 * t3) * log_q[i + 1] + (t3 - t2) * h * slope[i + 1])
    if big is None or root is None:  # every shape within the table
        return np.exp(log_value)
    wilson = big * (1.0 - 1.0 / (9.0 * big) + _NORMAL_QUANTILES[p] / (3.0 * root)) ** 3
    return np.where(shape.beyond, wilson, np.exp(log_value))


def gamma_quantile(cumulants: Cumulants, p: float) -> np.ndarray:
    """The p-quantile (0 < p < 1) of the translated gamma with these cumulants (:func:`gamma_quantiles`)."""
    return gamma_quantiles(cumulants, (p,))[0]


def gamma_quantiles(cumulants: Cumulants, probabilities: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """The quantiles at ``probabilities`` (each 0 < p < 1) of the translated gamma with these cumulants (step 4
    of the module), one fit for all of them.

    Shape k = 4 kappa2³ / kappa3², scale theta = kappa3 / (2 kappa2), shift kappa1 - k theta (Kaas et al. 2008
    §2.5.1): the quantile shift + theta Q_p(k), Q_p the unit gamma's (:func:`unit_gamma_quantile`). Above shape
    1,000 it is written kappa1 + sqrt(kappa2) sqrt(k) (3a + 3a² + a³), a = z_p / (3 sqrt k) - 1 / (9k), Wilson-
    Hilferty's form without the cancellation of shift and k theta; as kappa3 falls to 0 (k to infinity) this tends
    to the normal kappa1 + z_p sqrt(kappa2), which is used where kappa3 <= 0 (a read / write mixture can be
    symmetric or left-skewed), so the quantile is continuous in the cumulants. The mean itself where kappa2 = 0
    (constant); +inf where a cumulant is not finite (saturated). Never below 0.
    """
    k1, k2, k3 = (np.asarray(x, dtype=float) for x in cumulants)
    finite = np.isfinite(k1) & np.isfinite(k2) & np.isfinite(k3)
    all_finite = bool(finite.all())  # (then the masks below would pick every value as it is)
    k1f = k1 if all_finite else np.where(finite, k1, 0.0)
    k2f = np.maximum(k2, 0.0) if all_finite else np.where(finite, np.maximum(k2, 0.0), 0.0)
    k3f = k3 if all_finite else np.where(finite, k3, 0.0)
    varied = k2f > 1e-12 * np.maximum(k1f * k1f, 1e-300)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        theta = np.where(varied & (k3f > 0.0), k3f / (2.0 * k2f), 0.0)
        shape = np.where(theta > 0.0, k2f / (theta * theta), np.inf)
    shape = np.where(np.isnan(shape), np.inf, shape)
    tabled = shape <= _WILSON_FROM
    # every shape within the translated gamma's range (a curve's rows mostly are): Wilson-Hilferty's operands and
    # the normal's are not computed, np.where would pick the gamma's floats everywhere
    every = bool(tabled.all())
    small = shape if every else np.where(tabled, shape, 1.0)
    out = []
    # what does not depend on the percentile, once (the same operations for each: the same floats)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        if not every:
            big = np.where(tabled, _WILSON_FROM, shape)  # inf where kappa3 <= 0: the normal
            root = np.sqrt(big)
            finite_big = np.isfinite(big)
            sd = np.sqrt(k2f)
        shift = k1f - small * theta
        small_shape = _UnitGammaShape(small)
    for p in probabilities:
        z = _NORMAL_QUANTILES.get(p)
        if z is None:
            z = NormalDist().inv_cdf(p)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            if not every:
                a = z / (3.0 * root) - 1.0 / (9.0 * big)
                excess = np.where(finite_big, root * (3.0 * a + 3.0 * a * a + a * a * a), z)
            unit = _unit_gamma_quantile(small_shape, p) if p in _LOG_TABLES else unit_gamma_quantile(small, p)
            gamma = shift + theta * unit
        q = gamma if every else np.where(tabled, gamma, k1f + sd * excess)
        q = np.where(varied, np.maximum(q, 0.0), k1f)
        out.append(q if all_finite else np.where(finite, q, np.inf))
    return tuple(out)


_WILSON_FROM = 1000.0
"""Above this shape the translated gamma's quantile is Wilson-Hilferty's (:func:`gamma_quantiles`)."""


def path_quantiles(delay_s: np.ndarray, service_s: np.ndarray, scv_service: np.ndarray, p_wait: np.ndarray,
                   conditional_wait_s: np.ndarray, probabilities: tuple[float, ...],
                   class_weights: tuple[float, ...] = (1.0,), wait_scv: np.ndarray | float = 1.0
                   ) -> tuple[np.ndarray, ...]:
    """Percentiles of a path's response time at many load levels (the whole module's method).

    Args:
        delay_s: (L,) or scalar fixed latency per job (pure delays, no queueing), seconds.
        service_s: (J, K) mean service time per job class j (e.g. read, write) at each queueing station k,
            seconds (0 where a class does not visit); scv_service: (J, K) or (K,) its cs².
        p_wait, conditional_wait_s: (L, K) per load level and station (:func:`wait_shape`); a job's wait does
            not depend on its own class under FCFS.
        probabilities: the percentiles wanted, e.g. (0.95, 0.99).
        class_weights: (J,) share of the jobs of each class, summing to 1;
        wait_scv: (L, K) or scalar, the conditional wait's cs² (:func:`conditional_wait_scv`; 1: exponential).

    Returns:
        one (L,) array per probability, seconds; +inf where a station is saturated.
    """
    s = np.atleast_2d(np.asarray(service_s, dtype=float))
    cs2 = np.broadcast_to(np.asarray(scv_service, dtype=float), s.shape)
    d = np.asarray(delay_s, dtype=float)
    # the waits do not depend on the job's class and the services not on the load: each summed once
    w1, w2, w3 = station_cumulants(np.zeros(1), np.zeros(1), p_wait, conditional_wait_s, wait_scv)
    w1, w2, w3 = w1.sum(axis=-1) + d, w2.sum(axis=-1), w3.sum(axis=-1)
    parts = tuple((w1 + float(sj.sum()), w2 + float((cj * sj * sj).sum()), w3 + float((2.0 * cj * cj * sj ** 3).sum()))
                  for sj, cj in zip(s, cs2))
    total = parts[0] if len(parts) == 1 else mixture_cumulants(tuple(class_weights), parts)
    return gamma_quantiles(total, probabilities)


# ------------------------------------------------------------------------------------------ mixture percentiles

_CDF_LOG_SHAPES = np.log(10.0) * (-1.5 + np.arange(85) / 24.0)
"""The CDF table's shapes, 24 a decade from 10^-1.5 to 10^2 (as ln k), then the normal (k = infinity)."""
_CDF_Z = np.linspace(-6.0, 8.0, 281)
"""The CDF table's Wilson-Hilferty scores z = 3 sqrt(k) ((x / k)^(1/3) - 1 + 1 / (9k)) = 3 k^(1/6) x^(1/3) - b,
step 0.05 (the unit gamma's CDF is nearly the normal's of z, so it changes little from one shape to the next)."""


def _cdf_offset(k: np.ndarray) -> np.ndarray:
    """b in z = 3 k^(1/6) x^(1/3) - b (:data:`_CDF_Z`): 3 sqrt(k) (1 - 1 / (9k))."""
    return 3.0 * np.sqrt(k) * (1.0 - 1.0 / (9.0 * k))
_CDF_TERMS = 80
"""Terms of the series and continued fraction the table is computed with (within 1e-12 of scipy.special.gammainc
at every entry)."""


def _lower_regularised_gamma(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(a, x), the regularised lower incomplete gamma function (the unit gamma's CDF), in numpy: its power series
    below x = a + 1 and Legendre's continued fraction for 1 - P above, by the modified Lentz method (Press et al.
    2007, *Numerical Recipes*, 3rd ed., §6.2), :data:`_CDF_TERMS` terms each; 0 at x <= 0."""
    lg = np.array([math.lgamma(v) for v in a.ravel()]).reshape(a.shape)
    tiny = 1e-300
    with np.errstate(divide="ignore", invalid="ignore", over="ignore", under="ignore"):
        front = np.exp(a * np.log(np.maximum(x, tiny)) - x - lg)
        term = 1.0 / a
        total = term.copy()
        for n in range(1, _CDF_TERMS):
            term = term * x / (a + n)
            total = total + term
        b = x + 1.0 - a
        c = np.full(x.shape, 1.0 / tiny)
        d = 1.0 / np.where(b == 0.0, tiny, b)
        h = d.copy()
        for i in range(1, _CDF_TERMS):
            an = -i * (i - a)
            b = b + 2.0
            d = an * d + b
            d = np.where(np.abs(d) < tiny, tiny, d)
            c = b + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            d = 1.0 / d
            h = h * d * c
        value = np.where(x < a + 1.0, front * total, 1.0 - front * h)
    return np.where(x <= 0.0, 0.0, np.clip(value, 0.0, 1.0))


@lru_cache(maxsize=1)
def _cdf_table() -> np.ndarray:
    """The unit gamma's CDF at every (:data:`_CDF_LOG_SHAPES`, :data:`_CDF_Z`), and the standard normal's as the
    last row (k = infinity): (86, 281), computed once (about 15 ms)."""
    k = np.exp(_CDF_LOG_SHAPES)[:, None]
    x = (np.maximum(_CDF_Z[None, :] + _cdf_offset(k), 0.0) / (3.0 * k ** (1.0 / 6.0))) ** 3
    gamma = _lower_regularised_gamma(np.broadcast_to(k, x.shape).copy(), x)
    normal = np.array([0.5 * math.erfc(-z / math.sqrt(2.0)) for z in _CDF_Z])
    return np.vstack([gamma, normal[None, :]])


class _CdfShape:
    """What the CDF table's interpolation needs of the shapes alone (their row position and the Wilson-Hilferty
    coefficients), once for every point it is evaluated at."""

    __slots__ = ("row", "weight", "a", "b", "c", "any_normal")

    def __init__(self, k: np.ndarray) -> None:
        step = _CDF_LOG_SHAPES[1] - _CDF_LOG_SHAPES[0]
        last = len(_CDF_LOG_SHAPES) - 1
        with np.errstate(divide="ignore", invalid="ignore"):
            # ln k along the table to 10^2, then 1 / sqrt(k) from 10^2 (0.1) to the normal row (0)
            position = np.where(k <= np.exp(_CDF_LOG_SHAPES[-1]),
                                (np.log(np.maximum(k, 1e-300)) - _CDF_LOG_SHAPES[0]) / step,
                                last + 1.0 - np.exp(_CDF_LOG_SHAPES[-1] / 2.0) / np.sqrt(k))
        position = np.clip(np.nan_to_num(position, nan=last + 1.0), 0.0, last + 1.0)
        row = np.minimum(position.astype(np.intp), last)
        self.row = row * len(_CDF_Z)
        self.weight = position - row
        kk = np.where(np.isfinite(k), k, 1.0)
        # the table's column of x: (z - z0) / dz with z = a x^(1/3) - b (gamma, :data:`_CDF_Z`), here a and b in
        # steps; at k = infinity (normal, x standardised) z = x: c selects
        self.a = np.where(np.isfinite(k), 3.0 * kk ** (1.0 / 6.0), 0.0) * _INV_DZ
        self.b = np.where(np.isfinite(k), _cdf_offset(kk), 0.0) * _INV_DZ - _Z0_STEPS
        self.c = ~np.isfinite(k)
        self.any_normal = bool(self.c.any())


def _corners(shape: _CdfShape, at: np.ndarray) -> tuple[np.ndarray, ...]:
    """The bilinear cell of the CDF table around each column position ``at`` (in z steps, clipped to the table) on
    the shapes' rows: (fraction along z, the cell's four corners t00, t01 (this row), t10, t11 (the next row))."""
    flat = _cdf_flat()
    at = np.minimum(np.maximum(at, 0.0), len(_CDF_Z) - 1.000001)
    col = at.astype(np.intp)
    i = shape.row + col
    j = i + len(_CDF_Z)
    return at - col, flat[i], flat[i + 1], flat[j], flat[j + 1]


def _table_cdf(shape: _CdfShape, x: np.ndarray) -> np.ndarray:
    """The unit gamma's CDF at ``x`` for the shapes in ``shape`` (bilinear in the table: its row position and z)."""
    root = np.cbrt(np.maximum(x, 0.0))
    at = shape.a * root - shape.b
    if shape.any_normal:
        at = np.where(shape.c, x * _INV_DZ + _Z0_STEPS, at)
    frac, t00, t01, t10, t11 = _corners(shape, at)
    low = t00 + frac * (t01 - t00)
    value = low + shape.weight * (t10 + frac * (t11 - t10) - low)
    if shape.any_normal:
        return np.where((x <= 0.0) & ~shape.c, 0.0, value)
    return value * (x > 0.0)  # P(k, x) = 0 at x <= 0


def _table_cdf_slope(shape: _CdfShape, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_table_cdf` and its derivative in x (the bilinear table's slope in z times dz / dx), for Newton's
    method in :func:`mixture_quantiles`."""
    positive = np.maximum(x, 0.0)
    root = np.cbrt(positive)
    at = shape.a * root - shape.b
    # d(at)/dx = a / (3 x^(2/3)) (a tiny floor keeps it finite at 0)
    steps_per_x = shape.a / (3.0 * np.maximum(root * root, 1e-12))
    if shape.any_normal:
        at = np.where(shape.c, x * _INV_DZ + _Z0_STEPS, at)
        steps_per_x = np.where(shape.c, _INV_DZ, steps_per_x)
    frac, t00, t01, t10, t11 = _corners(shape, at)
    d0, d1 = t01 - t00, t11 - t10
    low = t00 + frac * d0
    value = low + shape.weight * (t10 + frac * d1 - low)
    slope = (d0 + shape.weight * (d1 - d0)) * steps_per_x
    outside = (x <= 0.0) & ~shape.c if shape.any_normal else x <= 0.0
    return np.where(outside, 0.0, value), np.where(outside, 0.0, slope)


@lru_cache(maxsize=1)
def _cdf_flat() -> np.ndarray:
    """:func:`_cdf_table` as one flat array (gathers by flat index)."""
    return _cdf_table().ravel()


_INV_DZ = 1.0 / (_CDF_Z[1] - _CDF_Z[0])
_Z0_STEPS = -_CDF_Z[0] * _INV_DZ


def unit_gamma_cdf(shape: np.ndarray, x: np.ndarray) -> np.ndarray:
    """P(k, x), the CDF at ``x`` of the gamma of shape ``shape`` and scale 1, vectorised, from a table: bilinear in
    (ln k, the score z of x, :data:`_CDF_Z`) between shapes 10^-1.5 and 10^2 and in 1 / sqrt(k) from 10^2 to the
    normal, which Wilson-Hilferty's z follows ever closer as k grows (Wilson & Hilferty 1931); within 2e-4 of
    ``scipy.special.gammainc`` from shape 1 up and 5e-4 in the upper tail (P >= 0.8) from shape 0.1 (the tests);
    in the bulk of a shape below 1, whose CDF rises steeply from 0 at x = 0, only to about 0.1 (there x itself is
    within a small fraction of the scale of 0, so a quantile hardly moves); shapes below the table at its first
    row."""
    k = np.asarray(shape, dtype=float)
    return _table_cdf(_CdfShape(k), np.asarray(x, dtype=float))


_MIXTURE_ITERATIONS = 40
"""The most Newton steps :func:`mixture_quantiles` takes (it stops once every root's bracket is within
:data:`_MIXTURE_WIDTH` of it or its CDF within :data:`_MIXTURE_TOLERANCE` of p; a few steps on the examples)."""
_MIXTURE_WIDTH = 1e-6
"""Relative width of a root's bracket at which :func:`mixture_quantiles` stops."""
_MIXTURE_TOLERANCE = 1e-7
"""Distance of the mixture's CDF from p at which :func:`mixture_quantiles` stops (the table's own error is 1e-4)."""



def mixture_quantiles(weights: tuple[float | np.ndarray, ...], parts: tuple[Cumulants, ...],
                      probabilities: tuple[float, ...]) -> tuple[np.ndarray, ...]:
    """Quantiles of a finite mixture: with probability ``weights[i]`` the variable is the translated gamma with the
    cumulants ``parts[i]`` (:func:`gamma_quantiles`), e.g. an I/O served from cache and one that reads the drives.

    A mixture's CDF is the weighted sum of its components' CDFs, F(t) = sum w_i F_i(t) (a k-point mixture:
    Klugman, Panjer & Willmot 2012, *Loss Models: From Data to Decisions*, 4th ed., §4.2.3; a hyperexponential
    response time is the mixture of exponentials, Harchol-Balter 2013, *Performance Modeling and Design of
    Computer Systems*, ch. 21), and its p-quantile the t with F(t) = p. That t lies between the smallest and the
    largest of the components' own p-quantiles (at the first every F_i <= p, at the last every F_i >= p): from
    that bracket's top the root is found by Newton's method on log(1 - F) kept inside the bracket, bisecting
    where a step would leave it (Press et al. 2007, *Numerical Recipes*, 3rd ed., §9.4, rtsafe), on every row and
    percentile at once, with each F_i and its density from :func:`unit_gamma_cdf`'s table. Unlike one translated
    gamma fitted to the mixture's three moments, this keeps a minority of slow components (an I/O that misses
    the cache and waits for a disk) in the tail: the p99 of a mix of 88% 1 ms hits and 12% 10 ms disk reads is
    the disk reads' own 92nd percentile, not near the moments' fit.

    Args:
        weights: one per component, a number or an (L,) array, >= 0 and summing to 1 on every row;
        parts: one (kappa1, kappa2, kappa3) per component, each (L,) (or broadcast to it), seconds;
        probabilities: the percentiles wanted (0 < p < 1).

    Returns:
        one (L,) array per probability; +inf on a row where a component of weight above 0 has a non-finite
        cumulant (saturated).
    """
    given = np.broadcast_shapes(*(np.shape(c) for part in parts for c in part), *(np.shape(w) for w in weights))
    size = int(np.prod(given))

    def rows(values: list) -> np.ndarray:
        """(C, 1, size): one row per component (its values flat), broadcast over the percentiles."""
        if all(np.shape(v) == given for v in values):
            return np.stack([np.asarray(v, dtype=float).reshape(size) for v in values])[:, None, :]
        return np.stack([np.broadcast_to(np.asarray(v, dtype=float), given).reshape(size) for v in values])[:, None, :]

    w = rows(list(weights))
    k1, k2, k3 = (rows([part[j] for part in parts]) for j in range(3))
    used = w > 0.0
    finite = np.isfinite(k1) & np.isfinite(k2) & np.isfinite(k3)
    saturated = (used & ~finite).any(axis=0)[0]
    if not finite.all():
        k1, k2, k3 = (np.where(finite, v, 0.0) for v in (k1, k2, k3))
    k2 = np.maximum(k2, 0.0)
    p = np.asarray(probabilities, dtype=float)[:, None]  # (n, 1)
    q = np.stack(gamma_quantiles((k1[:, 0], k2[:, 0], k3[:, 0]), probabilities), axis=1)  # (C, n, size)
    # each component's translated gamma: shift + theta G(k); a constant component (no variance) a step at its mean
    varied = k2 > 1e-12 * np.maximum(k1 * k1, 1e-300)
    with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
        skewed = varied & (k3 > 0.0)
        theta = np.where(skewed, k3 / (2.0 * k2), 1.0)
        k = np.where(skewed, k2 / (theta * theta), np.inf)
        scale = np.where(skewed, theta, np.sqrt(np.where(varied, k2, 1.0)))  # the unit gamma's, or the normal's
        shift = np.where(skewed, k1 - k2 / theta, k1)  # k1 - k theta
    inv_scale = 1.0 / scale
    offset = shift * inv_scale
    slope_scale = w * inv_scale
    cdf_shape = _CdfShape(k)
    constant = ~varied
    any_constant = bool(constant.any())

    def cdf(t: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """The mixture's CDF minus p at t (n, size), and its density (a constant component: a step, no density)."""
        each, slope = _table_cdf_slope(cdf_shape, t * inv_scale - offset)
        if any_constant:
            each = np.where(constant, (t >= k1).astype(float), each)
            slope = np.where(constant, 0.0, slope)
        return (w * each).sum(axis=0) - p, (slope_scale * slope).sum(axis=0)

    lo = np.where(used, q, np.inf).min(axis=0)
    hi = np.where(used, q, -np.inf).max(axis=0)
    lo, hi = np.minimum(lo, hi), np.maximum(hi, lo)
    # Newton's method on the log of the survival function, log(1 - F) = log(1 - p), nearly linear in t where the
    # slowest components' tails are nearly exponential (a CDF's own Newton steps overshoot), from the bracket's
    # top and kept inside the bracket (bisection where a step would leave it)
    root = hi
    done = hi - lo <= _MIXTURE_WIDTH * hi
    keep = 1.0 - p
    for _ in range(_MIXTURE_ITERATIONS):
        f, density = cdf(root)
        done = done | (np.abs(f) <= _MIXTURE_TOLERANCE)
        if done.all():
            break
        below = f < 0.0
        lo = np.where(below, root, lo)
        hi = np.where(below, hi, root)
        with np.errstate(divide="ignore", invalid="ignore", over="ignore"):
            survival = np.maximum(keep - f, 1e-300)
            step = root + np.log(survival / keep) * survival / density
        root = np.where(done, root, np.where((step > lo) & (step < hi), step, 0.5 * (lo + hi)))
        done = done | (hi - lo <= _MIXTURE_WIDTH * hi)
    root = np.maximum(root, 0.0)
    return tuple(np.where(saturated, np.inf, r).reshape(given) for r in root)
