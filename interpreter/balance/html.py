"""The balance report as one HTML page with PNG plots (matplotlib, Agg backend): win rate
by seat with 95% intervals, the score and game-length distributions, the per-object win
rates of holders, and for a comparison the shifts a variant makes."""
from __future__ import annotations

import html
from pathlib import Path
from typing import Any

from .text import render, render_compare


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


def _save(plt: Any, fig: Any, folder: Path, name: str) -> str:
    fig.tight_layout()
    fig.savefig(folder / name, dpi=90, metadata={"Software": None})
    plt.close(fig)
    return name


def _bars(plt: Any, folder: Path, name: str, labels: list[str], rates: list[dict], baseline: float,
          title: str) -> str:
    fig, ax = plt.subplots(figsize=(6, 0.5 + 0.45 * max(2, len(labels))))
    ys = range(len(labels))
    mid = [r["rate"] or 0 for r in rates]
    err = [[m - r["low"] for m, r in zip(mid, rates)], [r["high"] - m for m, r in zip(mid, rates)]]
    ax.barh(list(ys), mid, xerr=err, color="#6a8caf", capsize=3)
    ax.axvline(baseline, color="#b04040", linestyle="--", label=f"overall {baseline:.2f}")
    ax.set_yticks(list(ys), labels)
    ax.invert_yaxis()
    ax.set_xlim(0, 1)
    ax.set_xlabel("win rate (95% interval)")
    ax.set_title(title)
    ax.legend(loc="lower right", fontsize=8)
    return _save(plt, fig, folder, name)


def _hist(plt: Any, folder: Path, name: str, series: dict[str, list[float]], xlabel: str, title: str) -> str:
    fig, ax = plt.subplots(figsize=(6, 3))
    for label, xs in series.items():
        if xs:
            ax.hist(xs, bins=min(30, max(5, len(set(xs)))), alpha=0.55, label=label)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("count")
    ax.set_title(title)
    if len(series) > 1:
        ax.legend(fontsize=8)
    return _save(plt, fig, folder, name)


def plots(rep: dict[str, Any], folder: Path, prefix: str, other: dict[str, Any] | None = None) -> list[str]:
    """Writes one batch's plots (and, with `other`, the variant's distributions over the
    base's); returns their file names."""
    plt = _plt()
    tag = "base" if not rep["variants"] else "+".join(rep["variants"])
    out = [_bars(plt, folder, f"{prefix}seats.png", [s["name"] for s in rep["seats"]],
                 [s["win"] for s in rep["seats"]], rep["baseline"], f"{rep['game']} ({tag}): win rate by seat")]
    scores = {tag: rep["scores"]["values"]}
    turns = {tag: [float(x) for x in rep["turns"]["values"]]}
    if other is not None:
        otag = "+".join(other["variants"]) or "base"
        scores[otag] = other["scores"]["values"]
        turns[otag] = [float(x) for x in other["turns"]["values"]]
    out.append(_hist(plt, folder, f"{prefix}scores.png", scores, "final score (every seat)", "scores"))
    out.append(_hist(plt, folder, f"{prefix}turns.png", turns, "turns", "game length"))
    rows = rep["objects"][:15]
    if rows:
        overall = sum(s["win"]["rate"] or 0 for s in rep["seats"]) / len(rep["seats"])
        out.append(_bars(plt, folder, f"{prefix}objects.png", [o["object"][:24] for o in rows],
                         [o["win_held"] for o in rows], overall, "win rate of the seats holding it at the end"))
    return out


def write(folder: Path, base: dict[str, Any], other: dict[str, Any] | None = None,
          shift: dict[str, Any] | None = None) -> Path:
    """Writes index.html and its PNGs into `folder`; returns the page's path."""
    folder.mkdir(parents=True, exist_ok=True)
    images = plots(base, folder, "base-", other)
    parts = [f"<h2>{html.escape(base['game'])}</h2><pre>{html.escape(render(base))}</pre>"]
    parts += [f'<img src="{n}" alt="{n}">' for n in images]
    if other is not None and shift is not None:
        images = plots(other, folder, "variant-")
        names = [s["name"] for s in base["seats"]]
        parts.append(f"<h2>with {html.escape(' + '.join(other['variants']))}</h2>"
                     f"<pre>{html.escape(render(other))}</pre>")
        parts += [f'<img src="{n}" alt="{n}">' for n in images]
        parts.append(f"<h2>what it shifts</h2><pre>{html.escape(render_compare(shift, names))}</pre>")
    title = f"Balance: {base['game']}" + (f" vs {' + '.join(other['variants'])}" if other else "")
    page = (f"<!doctype html><html lang=en><meta charset=utf-8><title>{html.escape(title)}</title>"
            "<style>body{font-family:sans-serif;max-width:60em;margin:1em auto}pre{background:#f4f4f4;"
            "padding:.6em;overflow-x:auto}img{max-width:100%;display:block;margin:.5em 0}</style>"
            f"<h1>{html.escape(title)}</h1><p>Made by <code>cairn balance</code>; brackets are 95% intervals "
            "(Wilson for rates). A seat has an object when the game ends with it in one of that seat's own "
            "places or owned by it.</p>" + "".join(parts) + "</html>\n")
    path = folder / "index.html"
    path.write_text(page, "utf-8")
    return path
