"""Small statistics for balance reports: win shares, Wilson 95% intervals, means with
normal-approximation intervals, and the difference of two rates."""
from __future__ import annotations

import math

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Returns the Wilson score interval of a proportion (successes may be fractional, as
    shared wins are); (0, 1) when n is 0."""
    if n <= 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: float, n: int) -> dict:
    """Returns {rate, low, high, n} for a proportion, rounded for reports."""
    lo, hi = wilson(successes, n)
    return {"rate": round(successes / n, 4) if n else None, "low": round(lo, 4), "high": round(hi, 4), "n": n}


def mean_ci(xs: list[float], z: float = Z95) -> dict:
    """Returns {mean, low, high, sd, n} (normal approximation; one value has no spread)."""
    n = len(xs)
    if n == 0:
        return {"mean": None, "low": None, "high": None, "sd": None, "n": 0}
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1)) if n > 1 else 0.0
    half = z * sd / math.sqrt(n) if n > 1 else 0.0
    return {"mean": round(m, 4), "low": round(m - half, 4), "high": round(m + half, 4), "sd": round(sd, 4), "n": n}


def diff_rates(a: float, na: int, b: float, nb: int, z: float = Z95) -> dict:
    """Returns the difference of two proportions (b - a) with a normal 95% interval."""
    if na == 0 or nb == 0:
        return {"diff": None, "low": None, "high": None}
    pa, pb = a / na, b / nb
    half = z * math.sqrt(pa * (1 - pa) / na + pb * (1 - pb) / nb)
    return {"diff": round(pb - pa, 4), "low": round(pb - pa - half, 4), "high": round(pb - pa + half, 4)}


def diff_means(xa: list[float], xb: list[float], z: float = Z95) -> dict:
    """Returns the difference of two means (b - a) with a normal (Welch) 95% interval."""
    if len(xa) < 2 or len(xb) < 2:
        return {"diff": None, "low": None, "high": None}
    ma, mb = sum(xa) / len(xa), sum(xb) / len(xb)
    va = sum((x - ma) ** 2 for x in xa) / (len(xa) - 1)
    vb = sum((x - mb) ** 2 for x in xb) / (len(xb) - 1)
    half = z * math.sqrt(va / len(xa) + vb / len(xb))
    return {"diff": round(mb - ma, 4), "low": round(mb - ma - half, 4), "high": round(mb - ma + half, 4)}


def share(record: dict, seat: int) -> float:
    """Returns a seat's share of the win in one game record: 1 alone, 1/k of a k-way
    shared win, 0 for a loss or an aborted game."""
    winners = record["result"]["winners"]
    return 1.0 / len(winners) if seat in winners else 0.0
