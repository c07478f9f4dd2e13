"""The balance report as readable text (the CLI prints it; --json prints the data)."""
from __future__ import annotations

from typing import Any

TOP_OBJECTS = 12


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


def render(rep: dict[str, Any]) -> str:
    """Returns one batch's report as text: 95% intervals in brackets."""
    v = f" + {', '.join(rep['variants'])}" if rep["variants"] else ""
    lines = [f"{rep['game']}{v}: {rep['players']} players, {rep['games']} games (seed {rep['seed']}), "
             f"seats {','.join(rep['seats_spec'])} rotated; {rep['finished']} finished; digest {rep['digest'][:16]}",
             f"win rate by seat (equal seats: {100 * rep['baseline']:.1f}%), shared wins split:"]
    for s in rep["seats"]:
        lines.append(f"  {s['name']:12} {_pct(s['win'])}   mean score {_mean(s['score'])}")
    if len(rep["bots"]) > 1:
        lines.append("win rate by bot:")
        for b, r in rep["bots"].items():
            lines.append(f"  {b:12} {_pct(r)}")
    sc, t = rep["scores"], rep["turns"]
    lines += [f"score: mean {_mean(sc)}, min {sc['min']}, median {sc['median']}, max {sc['max']}; "
              f"winning score {_mean(rep['winning_score'])}",
              f"length: turns {_mean(t)}, min {t['min']}, median {t['median']}, max {t['max']}; "
              f"decisions {_mean(rep['decisions'])}"]
    rows = rep["objects"]
    flagged = [o for o in rows if o["flag"]]
    lines.append(f"objects held at the end ({len(rows)} rated, {len(flagged)} flagged; "
                 f"win rate of the seats holding it vs not):")
    for o in rows[:TOP_OBJECTS]:
        mark = f"  <- {o['flag']}" if o["flag"] else ""
        lines.append(f"  {o['object'][:28]:28} held {o['held']:4}  {_pct(o['win_held'])} vs {_pct(o['win_not'])}"
                     f"  score {_mean(o['score_held'])}{mark}")
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
        lines.append("  objects new in the variant:")
        for o in c["new_objects"][:TOP_OBJECTS]:
            mark = f"  <- {o['flag']}" if o["flag"] else ""
            lines.append(f"    {o['object'][:26]:26} held {o['held']:4}  {_pct(o['win_held'])} vs "
                         f"{_pct(o['win_not'])}{mark}")
    return "\n".join(lines)
