"""The balance report as one HTML page: tables (not a text dump), the names the game's data
gives (not raw ids), and PNG plots (matplotlib, Agg backend) embedded beside them. Every
figure states its bots and number of games in its own title, so a figure copied out of
the page still says what was played. The objects flagged in the table are the ones the
plot draws and the count the text gives (text.shown_objects)."""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .text import setting, shown_objects

DPI = 90


class NoPlots(Exception):
    """matplotlib is not installed (it is the optional extra `balance`)."""


def _plt() -> Any:
    try:
        import matplotlib
    except ImportError:
        raise NoPlots("the HTML report draws its plots with matplotlib: pip install 'cairn[balance]'") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    return plt


def plotting() -> None:
    """Raises NoPlots when matplotlib is missing (checked before any game is played)."""
    _plt()


def _e(x: Any) -> str:
    return html.escape(str(x))


def _pct(r: dict) -> str:
    return "-" if r.get("rate") is None else f"{100 * r['rate']:.1f}%"


def _ci(r: dict, k: float = 100, fmt: str = ".1f") -> str:
    return "-" if r.get("low") is None else f"[{k * r['low']:{fmt}}, {k * r['high']:{fmt}}]"


def _mean(m: dict) -> str:
    return "-" if m.get("mean") is None else f"{m['mean']:.2f} [{m['low']:.2f}, {m['high']:.2f}]"


def _table(head: list[str], rows: list[list[str]], cls: str = "") -> str:
    """Returns an HTML table; cells are escaped here."""
    th = "".join(f"<th>{_e(h)}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{_e(c)}</td>" for c in r) + "</tr>" for r in rows)
    return f'<table class="{cls}"><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>'


def _short(name: str, width: int = 30) -> str:
    """Returns a name for a plot's axis: the part before its bracketed details, cut."""
    base = name.split(" [")[0]
    return base if len(base) <= width else base[:width - 1] + "…"


class Figures:
    """Draws the page's plots into its folder; every title ends with what was played."""

    def __init__(self, folder: Path, prefix: str, rep: dict[str, Any]):
        self.plt, self.folder, self.prefix = _plt(), folder, prefix
        self.played = f"{rep['games']} games, {rep['players']} players, seats {','.join(rep['seats_spec'])} rotated"

    def save(self, fig: Any, name: str) -> str:
        fig.tight_layout()
        fig.savefig(self.folder / f"{self.prefix}{name}", dpi=DPI, metadata={"Software": None})
        self.plt.close(fig)
        return f"{self.prefix}{name}"

    def title(self, ax: Any, what: str, played: str | None = None) -> None:
        ax.set_title(f"{what}\n{played or self.played}", fontsize=9)

    def bars(self, name: str, labels: list[str], rates: list[dict], baseline: float, what: str,
             played: str | None = None) -> str:
        plt = self.plt
        fig, ax = plt.subplots(figsize=(7, 0.9 + 0.42 * max(2, len(labels))))
        mid = [r["rate"] or 0 for r in rates]
        err = [[m - r["low"] for m, r in zip(mid, rates)], [r["high"] - m for m, r in zip(mid, rates)]]
        ys = list(range(len(labels)))
        ax.barh(ys, mid, xerr=err, color="#6a8caf", capsize=3)
        ax.axvline(baseline, color="#b04040", linestyle="--", label=f"reference {baseline:.2f}")
        ax.set_yticks(ys, labels)
        ax.invert_yaxis()
        ax.set_xlim(0, 1)
        ax.set_xlabel("win rate (95% interval)")
        ax.legend(loc="lower right", fontsize=8)
        self.title(ax, what, played)
        return self.save(fig, name)

    def effects(self, name: str, rows: list[dict], what: str, played: str) -> str:
        """A forest plot: each card's effect in points with its interval, 0 marked."""
        plt = self.plt
        fig, ax = plt.subplots(figsize=(7, 0.9 + 0.42 * max(2, len(rows))))
        ys = list(range(len(rows)))
        mid = [100 * (r["effect"]["diff"] or 0) for r in rows]
        lo = [m - 100 * (r["effect"]["low"] or 0) for m, r in zip(mid, rows)]
        hi = [100 * (r["effect"]["high"] or 0) - m for m, r in zip(mid, rows)]
        ax.errorbar(mid, ys, xerr=[lo, hi], fmt="o", color="#2f5f8a", capsize=3)
        ax.axvline(0, color="#b04040", linestyle="--")
        ax.set_yticks(ys, [_short(r["name"]) for r in rows])
        ax.invert_yaxis()
        ax.set_xlabel("win-rate effect, points (95% interval)")
        self.title(ax, what, played)
        return self.save(fig, name)

    def hist(self, name: str, series: dict[str, list[float]], xlabel: str, what: str, played: str) -> str:
        plt = self.plt
        fig, ax = plt.subplots(figsize=(7, 3.2))
        for label, xs in series.items():
            if xs:
                ax.hist(xs, bins=min(30, max(5, len(set(xs)))), alpha=0.55, label=label)
        ax.set_xlabel(xlabel)
        ax.set_ylabel("games" if "turns" in xlabel else "seats")
        if len(series) > 1:
            ax.legend(fontsize=8)
        self.title(ax, what, played)
        return self.save(fig, name)


def _img(name: str, alt: str) -> str:
    return f'<figure><img src="{_e(name)}" alt="{_e(alt)}"></figure>'


def section(rep: dict[str, Any], folder: Path, prefix: str, other: dict[str, Any] | None = None) -> str:
    """Returns one batch's part of the page (its plots written into `folder`)."""
    f = Figures(folder, prefix, rep)
    tag = " + ".join(rep["variants"]) or "base game"
    parts = [f"<h2>{_e(rep['game'])}: {_e(tag)}</h2>",
             f"<p class=setting>{_e(setting(rep))}; {rep['finished']} finished; digest <code>{_e(rep['digest'][:16])}</code></p>",
             "<h3>Seats</h3>", _seats(rep)]
    flow = rep.get("flow")
    labels = [s["name"] for s in rep["seats"]] + ([f"turn {o['position'] + 1}" for o in flow["by_turn_order"]] if flow else [])
    rates = [s["win"] for s in rep["seats"]] + ([o["win"] for o in flow["by_turn_order"]] if flow else [])
    parts.append(_img(f.bars("seats.png", labels, rates, rep["baseline"], f"{rep['game']} ({tag}): win rate by seat "
                             "and by turn order"), "win rate by seat and turn order"))
    parts += ["<h3>Length and flow</h3>", _flow(rep)]
    other_tag = " + ".join(other["variants"]) if other else None
    scores = {tag: rep["scores"]["values"], **({other_tag: other["scores"]["values"]} if other else {})}
    turns = {tag: [float(x) for x in rep["turns"]["values"]],
             **({other_tag: [float(x) for x in other["turns"]["values"]]} if other else {})}
    played = f.played + (f"; {other_tag}: the same" if other else "")
    parts.append(_img(f.hist("scores.png", scores, "final score (every seat)", "final scores", played), "scores"))
    parts.append(_img(f.hist("turns.png", turns, "turns a game", "game length", played), "game length"))
    parts += _cards(rep, f)
    parts += _objects(rep, f)
    return "".join(parts)


def _seats(rep: dict[str, Any]) -> str:
    rows = [[s["name"], _pct(s["win"]), _ci(s["win"]), _mean(s["score"])] for s in rep["seats"]]
    out = _table(["seat", "win rate", "95% interval", "mean score [95%]"], rows)
    flow = rep.get("flow")
    if flow:
        rows = [[f"turn {o['position'] + 1}", _pct(o["win"]), _ci(o["win"])] for o in flow["by_turn_order"]]
        out += ("<p>By turn order: the seat that decided first once the first turn began is turn 1 (where a game "
                "picks its first player, seat and turn order differ).</p>" + _table(["turn order", "win rate", "95% interval"], rows))
    if len(rep["bots"]) > 1:
        out += _table(["bot", "win rate", "95% interval", "seats"],
                      [[b, _pct(r), _ci(r), str(r["n"])] for b, r in rep["bots"].items()])
    return out


def _flow(rep: dict[str, Any]) -> str:
    sc, t, flow = rep["scores"], rep["turns"], rep.get("flow")
    rows = [["turns a game", _mean(t), f"{t['min']} / {t['median']} / {t['max']}"],
            ["decisions a game", _mean(rep["decisions"]), ""],
            ["final score (every seat)", _mean(sc), f"{sc['min']} / {sc['median']} / {sc['max']}"],
            ["winning score", _mean(rep["winning_score"]), ""]]
    if flow:
        rows.append(["draws (no single winner)", f"{_pct(flow['draws'])} {_ci(flow['draws'])}", ""])
        if flow["readable"]:
            rows += [["lead changes a game", _mean(flow["lead_changes"]), f"per decision {_mean(flow['lead_change_rate'])}"],
                     ["decided at (share of the game)", _mean(flow["decided_at"]),
                      f"{flow['readable']} games with a readable trajectory"]]
        else:
            rows.append(["lead changes, decisiveness", "-", "no score or heuristic moves before the end"])
    return (_table(["measure", "mean [95% interval]", "min / median / max, or note"], rows) +
            "<p>Lead changes and decisiveness follow Ludii's metrics, from each seat's rating (the game's bot "
            "heuristic, else its score) after every decision: a lead change is a change in which seats are rated "
            "highest; a game is decided once a winner is rated above anything a non-winner ever reached.</p>")


def _cards(rep: dict[str, Any], f: Figures) -> list[str]:
    c = rep.get("cards")
    if not c:
        return []
    out = ["<h3>Restricted play: what each card is worth</h3>"]
    if not c["rows"]:
        return out + ["<p>No card measured.</p>"]
    played = (f"{c['games']} games a card, one {c['bot']} seat restricted, seats {','.join(c['seats_spec'])} rotated")
    out.append(f"<p>One {_e(c['bot'])} seat <b>{_e(c['mode'])}</b> chooses an option naming the card"
               f"{' when it can' if c['mode'] == 'always' else ''}; the other seats play freely. Each game is paired "
               f"with the unrestricted game of the same seed (that seat won {_pct(c['free'])} {_ci(c['free'])} of them); "
               "the effect is the seat's win share minus its share in the paired game, in points, with its 95% "
               "interval (where no outcome changed, the interval is the most a change could be: Wilson's bound "
               "for 0 changes in that many games). Strongest first. A game where the restriction never bites "
               "is the same game.</p>")
    rows = []
    for r in c["rows"]:
        e = r["effect"]
        sure = "yes" if e["low"] is not None and not e["low"] <= 0 <= e["high"] else ""
        rows.append([r["name"], r["subject"], f"{100 * (e['diff'] or 0):+.1f}", _ci(e, 100, "+.1f"), sure,
                     f"{_pct(r['win'])} {_ci(r['win'])}", f"{r['bitten']} / {r['games']}",
                     str(r.get("changed", "-")), str(r["played"])])
    out.append(_table(["card or power", "id", "effect (points)", "95% interval", "interval excludes 0",
                       "restricted seat's win rate", "games it bit", "outcomes it changed", "chosen in the free games"],
                      rows, "cards"))
    measured = [r for r in c["rows"] if r["bitten"]]
    if measured:
        tag = " + ".join(rep["variants"]) or "base game"
        out.append(_img(f.effects("cards.png", measured, f"{rep['game']} ({tag}): win-rate effect when a seat "
                                  f"{c['mode']} chooses the card", played), "restricted-play effects"))
    return out


def _objects(rep: dict[str, Any], f: Figures) -> list[str]:
    flagged, others = shown_objects(rep)
    out = [f"<h3>Held at the end: {len(rep['objects'])} objects rated, {rep['flagged']} flagged</h3>",
           "<p>The win rate of the seats that had the object at the end of the game (in one of their own places, "
           "or owned by them) against those that did not. Flagged: the holders' interval lies wholly above or below "
           "the overall rate (or mean score). Holding is not causing: restricted play above measures that.</p>"]

    def row(o: dict) -> list[str]:
        return [o["name"], o["object"], str(o["held"]), f"{_pct(o['win_held'])} {_ci(o['win_held'])}",
                f"{_pct(o['win_not'])} {_ci(o['win_not'])}", _mean(o["score_held"]), o["flag"]]
    head = ["object", "id", "seat-games held", "win rate held", "win rate not held", "mean score held", "flag"]
    out.append(_table(head, [row(o) for o in flagged], "flagged"))
    if flagged:
        overall = sum(s["win"]["rate"] or 0 for s in rep["seats"]) / len(rep["seats"])
        tag = " + ".join(rep["variants"]) or "base game"
        out.append(_img(f.bars("objects.png", [_short(o["name"]) for o in flagged], [o["win_held"] for o in flagged],
                               overall, f"{rep['game']} ({tag}): the {len(flagged)} flagged objects, win rate of "
                               "their holders"), "flagged objects"))
    if others:
        out.append("<p>Unflagged, the furthest from the overall rate (all rows in report.json):</p>")
        out.append(_table(head, [row(o) for o in others], "others"))
    return out


def _shift(x: dict, k: float = 1) -> list[str]:
    if x.get("diff") is None:
        return ["-", "-", ""]
    return [f"{k * x['diff']:+.2f}", f"[{k * x['low']:+.2f}, {k * x['high']:+.2f}]",
            "" if x["low"] <= 0 <= x["high"] else "yes"]


def compare_section(base: dict[str, Any], other: dict[str, Any], shift: dict[str, Any]) -> str:
    """Returns what the variant shifts, as tables."""
    names = [s["name"] for s in base["seats"]]
    rows = [[f"{names[s['seat']]} win rate (points)", *_shift(s["win"], 100)] for s in shift["seats"]]
    rows += [[f"{names[s['seat']]} mean score", *_shift(s["score"])] for s in shift["seats"]]
    rows += [["mean score, all seats", *_shift(shift["score"])], ["turns a game", *_shift(shift["turns"])]]
    out = [f"<h2>What {_e(' + '.join(shift['variant']))} shifts</h2>",
           f"<p>Variant minus base: {other['games']} games each, seats {_e(','.join(base['seats_spec']))} rotated, "
           "the same seeds; 95% intervals.</p>",
           _table(["measure", "shift", "95% interval", "interval excludes 0"], rows)]
    if shift["new_objects"]:
        out.append("<p>Objects new in the variant, held at the end:</p>")
        out.append(_table(["object", "id", "seat-games held", "win rate held", "win rate not held", "flag"],
                          [[o["name"], o["object"], str(o["held"]), f"{_pct(o['win_held'])} {_ci(o['win_held'])}",
                            f"{_pct(o['win_not'])} {_ci(o['win_not'])}", o["flag"]] for o in shift["new_objects"]]))
    return "".join(out)


STYLE = ("body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;line-height:1.4}"
         "table{border-collapse:collapse;margin:.6em 0;font-size:.92em}th,td{border:1px solid #ccc;padding:.25em .5em;"
         "text-align:left;vertical-align:top}th{background:#eef2f6}td:nth-child(n+3){white-space:nowrap}"
         "figure{margin:.6em 0}img{max-width:100%;height:auto}.setting{color:#444}code{background:#f4f4f4}")


def write(folder: Path, base: dict[str, Any], other: dict[str, Any] | None = None,
          shift: dict[str, Any] | None = None, command: str = "") -> Path:
    """Writes index.html and its PNGs into `folder`; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    parts = [section(base, folder, "base-", other)]
    if other is not None and shift is not None:
        parts.append(section(other, folder, "variant-"))
        parts.append(compare_section(base, other, shift))
    title = f"Balance: {base['game']}" + (f" vs {' + '.join(other['variants'])}" if other else "")
    made = f" with <code>{_e(command)}</code>" if command else ""
    page = (f"<!doctype html><html lang=en><head><meta charset=utf-8><title>{_e(title)}</title>"
            f"<style>{STYLE}</style></head><body><h1>{_e(title)}</h1>"
            f"<p>Made by <code>cairn balance</code>{made}. Bots: {_e(','.join(base['seats_spec']))}, seats rotated "
            f"game by game; {base['games']} games a batch. Brackets are 95% intervals (Wilson for rates). Bots "
            "measure what their play reaches, not what a person's would.</p>" + "".join(parts) + "</body></html>\n")
    path = folder / "index.html"
    path.write_text(page, "utf-8")
    return path

