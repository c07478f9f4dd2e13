"""`cairn sweep`: one rule parameter over a range of values, the same bot games for each
value: win rates by seat, turn order and bot, game length and how the lead moves.

Each value is set through the overlay machinery, exactly as an expansion's `set: params:`
sets it (load/overlay.py): a one-line overlay is written for the value, so its type is
checked, it combines with `--variant` overlays (and two that set the parameter to
different values are refused, naming both), and the value reaches every rule that reads
`params.NAME`. The overlay travels to the workers as text and each worker writes it into a
private folder of its own, so the games run on processes or a dask cluster elsewhere
(`--scheduler`) as `cairn simulate` does. Every value plays the same seeds, so the values
are compared on the same deals wherever the parameter leaves them alike.
"""
from __future__ import annotations

import atexit
import hashlib
import json
import shutil
import tempfile
from pathlib import Path
from typing import Any, Callable

from .balance import metrics, report
from .balance.play import play_span
from .balance.run import split
from .batch import compiled, in_batches, keep
from .engine.game import CompiledGame
from .records import digest, is_builtin

_FOLDER: list[Path] = []


class SweepError(ValueError):
    """A --param that cannot be swept (the message says why)."""


def parse_param(text: str, game: CompiledGame) -> tuple[str, list[Any]]:
    """Returns (name, values) of `NAME=LO..HI` (whole numbers) or `NAME=a,b,c`; checks the
    parameter exists and takes values of that kind."""
    name, eq, values = text.partition("=")
    name = name.strip()
    if not eq or not name or not values.strip():
        raise SweepError(f"--param expects NAME=LO..HI or NAME=a,b,c, got {text!r}")
    if name not in game.params:
        from .diagnostics import suggest
        raise SweepError(f"{game.id} has no parameter '{name}'{suggest(name, game.params)}; "
                         f"its parameters: {', '.join(sorted(game.params))}")
    out = _values(values.strip(), text)
    kinds = _kinds(game.params[name])
    for v in out:
        if type(v).__name__ not in kinds:
            raise SweepError(f"parameter '{name}' holds {' or '.join(sorted(kinds)) or 'no value'}, "
                             f"not {type(v).__name__} ({v!r}): only numbers and flags are swept")
    return name, out


def _values(text: str, whole: str) -> list[Any]:
    lo, dots, hi = text.partition("..")
    try:
        if dots:
            a, b = int(lo), int(hi)
            if b < a or b - a > 100:
                raise SweepError(f"--param {whole}: LO..HI needs LO <= HI and at most 101 values")
            return list(range(a, b + 1))
        return [_scalar(x.strip()) for x in text.split(",") if x.strip()]
    except ValueError as err:
        if isinstance(err, SweepError):
            raise
        raise SweepError(f"--param {whole}: values are whole numbers (LO..HI or a,b,c) or true/false") from None


def _scalar(x: str) -> Any:
    if x in ("true", "false"):
        return x == "true"
    return int(x)


def _kinds(entry: dict) -> set[str]:
    vals = list(entry["by_players"].values()) if "by_players" in entry else [entry.get("value")]
    return {type(v).__name__ for v in vals if type(v) in (int, bool)}


def overlay_text(name: str, value: Any) -> str:
    """Returns the overlay that sets one parameter (YAML; JSON values are YAML)."""
    label = f"{name} = {json.dumps(value)}"
    return (f"variant: {{id: sweep-{name.replace('_', '-')}, name: {json.dumps(label)}, "
            f"description: {json.dumps('cairn sweep: ' + label)}}}\n"
            f"set:\n  params: {{{name}: {json.dumps(value)}}}\n")


def overlay_file(text: str) -> str:
    """Returns the path of a file holding `text` in this process's own private folder
    (made 0700 by mkdtemp, removed at exit), written once per text."""
    if not _FOLDER:
        _FOLDER.append(Path(tempfile.mkdtemp(prefix="cairn-sweep-")))
        atexit.register(shutil.rmtree, _FOLDER[0], True)
    path = _FOLDER[0] / f"{hashlib.sha256(text.encode()).hexdigest()[:24]}.yaml"
    if not path.is_file():
        path.write_text(text, "utf-8")
    return str(path)


def shown_variants(variants: tuple[str, ...], name: str, value: Any) -> list[str]:
    """Returns the variants a record of the sweep names: the overlay as `params.NAME=V`
    (its file's path differs from one process to the next)."""
    return [*variants, f"params.{name}={json.dumps(value)}"]


def sweep_span(where: str, variants: tuple[str, ...], text: str, name: str, value: Any, players: int,
               master: int, start: int, stop: int, agents: list[str]) -> list[dict]:
    """Plays games start..stop-1 of one value (where the batch runs: the overlay is
    written here)."""
    records = play_span(where, (*variants, overlay_file(text)), players, master, start, stop, agents)
    for r in records:
        r["variants"] = shown_variants(variants, name, value)
    return records


def load_value(spec: str, variants: tuple[str, ...], name: str, value: Any) -> CompiledGame:
    """Returns the game with the value set (a DefinitionError when the overlay does not fit)."""
    return compiled(spec, (*variants, overlay_file(overlay_text(name, value))))


def play_value(spec: str, variants: tuple[str, ...], name: str, value: Any, players: int, games: int,
               master: int, agents: list[str], *, workers: int = 1, scheduler: str | None = None,
               progress: Callable[[int], None] | None = None) -> tuple[dict[str, Any], list[dict]]:
    """Returns (the value's row, its records)."""
    text = overlay_text(name, value)
    g = load_value(spec, variants, name, value)
    where = g.id if is_builtin(g) else spec
    keep(where, (*variants, overlay_file(text)), g)

    records = in_batches(sweep_span, lambda s, e: (where, tuple(variants), text, name, value, players, master,
                                                   s, e, list(agents)),
                         games, g, workers=workers, scheduler=scheduler, progress=progress)
    extras = split(records)
    rep = report.build(g, records, [e["final"] for e in extras])
    flow = metrics.summary([{**r, **e} for r, e in zip(records, extras)])
    row = {"value": value, "games": games, "finished": rep["finished"],
           "seats": [{"name": s["name"], "win": s["win"]} for s in rep["seats"]],
           "by_turn_order": flow["by_turn_order"], "bots": rep["bots"],
           "turns": {k: rep["turns"][k] for k in ("mean", "low", "high", "min", "median", "max")},
           "decisions": rep["decisions"], "score": {k: rep["scores"][k] for k in ("mean", "low", "high")},
           "winning_score": rep["winning_score"], "draws": flow["draws"], "readable": flow["readable"],
           "lead_changes": flow["lead_changes"], "decided_at": flow["decided_at"], "digest": digest(records)}
    return row, records
