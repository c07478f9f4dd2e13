"""A balance report from game records: win rates by seat and by bot with 95% intervals,
score and game-length distributions, and per-object statistics.

Per-object statistics need no game's names: a seat "has" an object when the game ends
with it in one of that seat's own places (a per-player zone such as a hand, a village or a
pile of completed cards) or with an `owner` attribute naming the seat. Copies of one card
(`tracker.1`, `tracker.2`) count together under their definition (`def`). For each object,
the seats that had it are compared with those that did not: win share and mean score,
with intervals; an object is flagged when its holders' interval lies wholly above or
below the overall win rate (or mean score).
"""
from __future__ import annotations

from typing import Any

from ..engine.game import CompiledGame
from .names import label
from .stats import mean_ci, rate, share

MIN_HELD = 5        # seat-games an object must be held in to be rated at all


def holdings(game: CompiledGame, final: dict) -> list[set[str]]:
    """Returns, per seat, the objects (by definition) it has at the end of a game."""
    n = final["n"]
    out: list[set[str]] = [set() for _ in range(n)]
    for place, objs in final["places"].items():
        base, _, owner = place.partition("/")
        zone = game.zones.get(base)
        seat = int(owner) if owner and zone is not None and zone.get("per_player") else None
        for obj in objs:
            held = seat
            if held is None:
                o = final["attrs"].get(obj, {}).get("owner")
                held = o if type(o) is int and 0 <= o < n else None
            if held is not None:
                out[held].add(str(game.props.get(obj, {}).get("def", obj)))
    return out


def build(game: CompiledGame, records: list[dict], held: list[list[set[str]]]) -> dict[str, Any]:
    """Returns the report of one batch (records in game order, holdings per game)."""
    n = records[0]["players"]
    games = len(records)
    finished = [r for r in records if r["result"]["reason"] != "aborted"]
    seats = []
    for p in range(n):
        won = sum(share(r, p) for r in records)
        scores = [float(r["result"]["scores"][p]) for r in finished]
        seats.append({"seat": p, "name": game.player_name(p), "win": rate(won, games),
                      "score": mean_ci(scores)})
    bots: dict[str, list[float]] = {}
    for r in records:
        names = r["agents"] or ["random"]
        for p in range(n):
            bots.setdefault(names[min(p, len(names) - 1)], []).append(share(r, p))
    all_scores = [float(s) for r in finished for s in r["result"]["scores"]]
    rows = objects(records, held)
    for row in rows:
        row["name"] = label(game, row["object"])
    return {
        "game": game.id, "variants": list(game.variants), "players": n, "games": games,
        "finished": len(finished), "baseline": round(1 / n, 4),
        "seats": seats,
        "bots": {b: rate(sum(xs), len(xs)) for b, xs in bots.items()},
        "scores": {**mean_ci(all_scores), **_spread(all_scores), "values": all_scores},
        "winning_score": mean_ci([max(r["result"]["scores"]) for r in finished]),
        "turns": {**mean_ci([r["turns"] for r in records]), **_spread([r["turns"] for r in records]),
                  "values": [r["turns"] for r in records]},
        "decisions": {**mean_ci([len(r["actions"]) for r in records]),
                      **_spread([len(r["actions"]) for r in records])},
        "objects": rows,
        "flagged": sum(1 for row in rows if row["flag"]),
    }


def _spread(xs: list[float]) -> dict:
    if not xs:
        return {"min": None, "median": None, "max": None}
    s = sorted(xs)
    mid = len(s) // 2
    median = s[mid] if len(s) % 2 else (s[mid - 1] + s[mid]) / 2
    return {"min": s[0], "median": median, "max": s[-1]}


def objects(records: list[dict], held: list[list[set[str]]]) -> list[dict]:
    """Returns per-object rows (holders vs the rest), most telling first: flagged ones,
    then by how far the holders' win rate is from the overall one."""
    seat_games = [(r, p, held[i][p]) for i, r in enumerate(records) for p in range(r["players"])]
    total = len(seat_games)
    overall = sum(share(r, p) for r, p, _h in seat_games) / total if total else 0.0
    mean_score = sum(float(r["result"]["scores"][p]) for r, p, _h in seat_games) / total if total else 0.0
    names = sorted({o for _r, _p, h in seat_games for o in h})
    rows = []
    for o in names:
        yes = [(r, p) for r, p, h in seat_games if o in h]
        no = [(r, p) for r, p, h in seat_games if o not in h]
        if len(yes) < MIN_HELD or not no:
            continue            # held too rarely to say anything, or held by every seat always
        w_yes = rate(sum(share(r, p) for r, p in yes), len(yes))
        w_no = rate(sum(share(r, p) for r, p in no), len(no))
        s_yes = mean_ci([float(r["result"]["scores"][p]) for r, p in yes])
        s_no = mean_ci([float(r["result"]["scores"][p]) for r, p in no])
        flags = (["wins more"] if w_yes["low"] > overall else ["wins less"] if w_yes["high"] < overall else [])
        if s_yes["n"] > 1 and s_yes["low"] > mean_score:
            flags.append("scores more")
        elif s_yes["n"] > 1 and s_yes["high"] < mean_score:
            flags.append("scores less")
        rows.append({"object": o, "held": len(yes), "win_held": w_yes, "win_not": w_no,
                     "score_held": s_yes, "score_not": s_no, "flag": ", ".join(flags)})
    rows.sort(key=lambda x: ("win" not in x["flag"], x["flag"] == "",
                             -abs((x["win_held"]["rate"] or 0) - overall),
                             -abs((x["score_held"]["mean"] or 0) - mean_score), x["object"]))
    return rows
