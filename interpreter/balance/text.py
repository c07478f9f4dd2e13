"""The balance report as readable text (the CLI prints it; --json prints the data).
Every object row the report flags is listed, so the count said and the rows shown agree
(the HTML page and its plot list the same ones)."""
from __future__ import annotations

from typing import Any

OTHERS_SHOWN = 5     # rated objects shown beyond the flagged ones


def _pct(r: dict) -> str:
    if r.get("rate") is None:
        return "-"
    return f"{100 * r['rate']:5.1f}% [{100 * r['low']:.1f}, {100 * r['high']:.1f}]"


def _mean(m: dict) -> str:
    return "-" if m.get("mean") is None else f"{m['mean']:.2f} [{m['low']:.2f}, {m['high']:.2f}]"


def _shift(x: dict, pct: bool = False) -> str:
    if x.get("diff") is None:
        return "-"
    k = 100 if pct else 1
    sure = "" if x["low"] <= 0 <= x["high"] else "  *"
    return f"{k * x['diff']:+.2f} [{k * x['low']:+.2f}, {k * x['high']:+.2f}]{sure}"


def setting(rep: dict[str, Any]) -> str:
    """Returns what was played: game, variants, players, games, seed and bots."""
    v = f" + {', '.join(rep['variants'])}" if rep["variants"] else ""
    return (f"{rep['game']}{v}: {rep['players']} players, {rep['games']} games (seed {rep['seed']}), "
            f"seats {','.join(rep['seats_spec'])} rotated")


def shown_objects(rep: dict[str, Any]) -> tuple[list[dict], list[dict]]:
    """Returns (the flagged object rows, a few unflagged ones most apart from the rest)."""
    rows = rep["objects"]
    flagged = [o for o in rows if o["flag"]]
    return flagged, [o for o in rows if not o["flag"]][:OTHERS_SHOWN]


def render(rep: dict[str, Any]) -> str:
    """Returns one batch's report as text: 95% intervals in brackets."""
    lines = [f"{setting(rep)}; {rep['finished']} finished; digest {rep['digest'][:16]}",
             f"win rate by seat (equal seats: {100 * rep['baseline']:.1f}%), shared wins split:"]
    for s in rep["seats"]:
        lines.append(f"  {s['name']:12} {_pct(s['win'])}   mean score {_mean(s['score'])}")
    flow = rep.get("flow")
    if flow:
        lines.append("win rate by turn order (who decided first once the first turn began):")
        for o in flow["by_turn_order"]:
            lines.append(f"  {_ordinal(o['position'] + 1):12} {_pct(o['win'])}")
    if len(rep["bots"]) > 1:
        lines.append("win rate by bot:")
        for b, r in rep["bots"].items():
            lines.append(f"  {b:12} {_pct(r)}")
    sc, t = rep["scores"], rep["turns"]
    lines += [f"score: mean {_mean(sc)}, min {sc['min']}, median {sc['median']}, max {sc['max']}; "
              f"winning score {_mean(rep['winning_score'])}",
              f"length: turns {_mean(t)}, min {t['min']}, median {t['median']}, max {t['max']}; "
              f"decisions {_mean(rep['decisions'])}"]
    if flow:
        lines.append(render_flow(flow))
    flagged, others = shown_objects(rep)
    lines.append(f"objects held at the end: {len(rep['objects'])} rated, {rep['flagged']} flagged "
                 "(win rate of the seats holding it vs not):")
    for o in flagged + others:
        mark = f"  <- {o['flag']}" if o["flag"] else ""
        lines.append(f"  {o['name'][:30]:30} held {o['held']:4}  {_pct(o['win_held'])} vs {_pct(o['win_not'])}"
                     f"  score {_mean(o['score_held'])}{mark}")
    return "\n".join(lines)


def render_flow(flow: dict[str, Any]) -> str:
    """Returns draws, lead changes and decisiveness as text lines."""
    lines = [f"draws (no single winner): {_pct(flow['draws'])}"]
    if not flow["readable"]:
        lines.append("lead changes, decisiveness: - (the ratings never move during a game: no score or "
                     "heuristic is readable before the end)")
        return "\n".join(lines)
    lines.append(f"lead changes a game: {_mean(flow['lead_changes'])} (per decision {_mean(flow['lead_change_rate'])}); "
                 f"decided at {_mean(flow['decided_at'])} of the game (1 = only at the end); "
                 f"{flow['readable']} games with a readable trajectory")
    return "\n".join(lines)


def _ordinal(k: int) -> str:
    return f"{k}{'th' if 10 <= k % 100 <= 20 else {1: 'st', 2: 'nd', 3: 'rd'}.get(k % 10, 'th')}"


def render_cards(rep: dict[str, Any]) -> str:
    """Returns the restricted-play table: each card's effect on its seat's win rate."""
    c = rep.get("cards")
    if not c or not c["rows"]:
        return "restricted play: no card measured"
    lines = [f"restricted play ({setting(rep).split(':')[0]}): one {c['bot']} seat {c['mode']} chooses the card"
             f"{' when it can' if c['mode'] == 'always' else ''}, against {','.join(c['seats_spec'])} rotated; "
             f"{c['games']} games a card, each paired with the unrestricted game of the same seed (that seat won "
             f"{_pct(c['free']).strip()} of them). Effect = the seat's win share minus its share in the paired game, "
             "in points, 95% interval; * = the interval excludes 0; strongest first:"]
    for r in c["rows"]:
        name = r["name"] if "#" not in r["subject"] else f"{r['name']} ({r['subject']})"
        name = name if len(name) <= 34 else name[:33] + "…"
        if r["bitten"] == 0:
            lines.append(f"  {name:34} never a choice in {r['games']} games: no effect measurable")
            continue
        lines.append(f"  {name:34} {_shift(r['effect'], True):28} win {_pct(r['win'])}  "
                     f"bit in {r['bitten']} games ({r['bites']['mean']:.1f} decisions a game), "
                     f"changed the outcome of {r.get('changed', '?')}")
    return "\n".join(lines)


def render_compare(c: dict[str, Any], names: list[str]) -> str:
    """Returns what a variant shifts, as text (* marks a shift whose interval excludes 0)."""
    lines = [f"{' + '.join(c['variant']) or 'base'} against {' + '.join(c['base']) or 'base'} "
             "(variant minus base, 95% intervals; * = the interval excludes 0):"]
    for s in c["seats"]:
        lines.append(f"  {names[s['seat']]:12} win rate {_shift(s['win'], True)} points   "
                     f"mean score {_shift(s['score'])}")
    lines.append(f"  all seats    mean score {_shift(c['score'])}; game length in turns {_shift(c['turns'])}")
    ws = c["winning_score"]
    lines.append(f"  winning score {ws['base']:.2f} -> {ws['variant']:.2f}" if ws['base'] is not None and ws['variant'] is not None else "  winning score -")
    if c["new_objects"]:
        lines.append("  objects new in the variant (held at the end):")
        for o in c["new_objects"]:
            mark = f"  <- {o['flag']}" if o["flag"] else ""
            lines.append(f"    {o['name'][:30]:30} held {o['held']:4}  {_pct(o['win_held'])} vs "
                         f"{_pct(o['win_not'])}{mark}")
    return "\n".join(lines)
