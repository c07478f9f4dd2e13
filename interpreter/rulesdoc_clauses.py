"""The rules by clause, in the rulebook's order: to read beside the rulebook, a clause at a
time (`cairn rules GAME --by clause`).

Per clause of the index: its section, label and summary, then everything that encodes it
in full (steps, procedures, functions, quantities, abilities, parameters, cards, pieces
and the board), the readings of it, and the scenarios that test it. The HTML page gives
each clause an anchor, and each piece of code links to every clause it carries, so a
checker can go from a rule to its clauses and back. Nothing is cut short.
"""
from __future__ import annotations

import html
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diff import load_spec
from .load.citations import cited, citing
from .load.context import Compiling
from .load.files import display_path, read_part
from .load.spec import Spec, Src
from .rulesdoc import ability_text, flat
from .scenarios import scenario_files


@dataclass
class Encoder:
    what: str                 # step, procedure, function, ability, card, space ...
    name: str
    where: str                # file:line
    text: str                 # what it says, in full
    clauses: list[str]        # every clause it cites


@dataclass
class ClauseEntry:
    id: str
    section: str
    label: str
    kind: str
    summary: str
    applies: dict
    encoders: list[Encoder] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)
    scenarios: list[tuple[str, str]] = field(default_factory=list)    # (name, file:line)


def _entry(src: Src) -> Any:
    """Returns the YAML entry a citation's source points at (groups are merged in place)."""
    data: Any = src.loaded.data
    for key in src.path:
        data = data[key]
    return data


def _text(what: str, item: Any) -> str:
    """Returns an encoding entry in full: its code, formula, value or printed text."""
    if not isinstance(item, dict):
        return flat(item)
    if what == "ability":
        return ability_text(item)
    if what == "parameter":
        return flat(item["value"]) if "value" in item else "by players: " + ", ".join(
            f"{k}: {v}" for k, v in item.get("by_players", {}).items())
    parts = []
    for key in ("text", "if", "while", "until", "times", "expr", "do", "effect", "score", "win_if"):
        if key in item:
            parts.append(str(item[key]).rstrip() if key in ("do", "effect", "expr") else f"{key}: {flat(item[key])}")
    for i, t in enumerate(item.get("tiebreak", []) if what == "scoring" else []):
        parts.append(f"tie-break {i + 1}: {flat(t)}")
    return "\n".join(parts) or flat(item.get("doc", item.get("name", "")))


def entries(folder: Path, variants: list[str] = ()) -> list[ClauseEntry]:
    """Returns every clause of a game's index, in the index's (the rulebook's) order, with
    what encodes it, its readings and its scenarios."""
    spec = load_spec(folder, list(variants))
    rows = {cid: ClauseEntry(cid, c["section"], c.get("label", ""), c["kind"], c["summary"], c.get("applies", {}))
            for cid, (c, _s) in spec.sections["clauses"].items()}
    for what, name, value, src in citing(Compiling(spec, [])):
        ids = [cid for cid in cited(value) if cid in rows]
        if what == "reading":
            for cid in ids:
                rows[cid].readings.append(f"{name}: {flat(spec.sections['readings'][name][0]['reading'])}")
            continue
        if not ids or what == "removal":
            continue
        enc = Encoder(what, name, src.where, _text(what, _entry(src)), ids)
        for cid in ids:
            rows[cid].encoders.append(enc)
    for name, where, ids in _scenarios(folder, list(variants)):
        for cid in ids:
            if cid in rows:
                rows[cid].scenarios.append((name, where))
    return list(rows.values())


def _scenarios(folder: Path, variants: list[str]) -> list[tuple[str, str, list[str]]]:
    """Returns (name, file:line, clause ids) of the scenarios that run with these variants."""
    out = []
    for path in scenario_files(folder):
        loaded, _problems = read_part(path, display_path(path), "scenario")
        if loaded is None:
            continue
        for i, sc in enumerate(loaded.data["scenarios"]):
            if (set(loaded.data.get("variants", [])) | set(sc.get("variants", []))) - set(variants):
                continue
            out.append((sc["name"], f"{loaded.file}:{loaded.pos(('scenarios', i)).line}", cited(sc["rule"])))
    return out


def _spaces_apart(encoders: list[Encoder]) -> tuple[list[Encoder], list[Encoder]]:
    """Returns (board spaces, the rest): spaces are many and short, listed on one line."""
    return [e for e in encoders if e.what == "space"], [e for e in encoders if e.what != "space"]


def markdown(rows: list[ClauseEntry], title: str) -> str:
    """Returns the by-clause document as Markdown."""
    out, section = [f"# {title}: the rules by clause", "In the rulebook's order: each clause, what encodes it, "
                    "its readings and the scenarios that test it."], None
    for r in rows:
        if r.section != section:
            section = r.section
            out.append(f"## {section}")
        out.append(f"### {r.id}" + (f" ({r.label})" if r.label else ""))
        out.append(f"*{r.kind}*" + (f", applies to {_applies(r.applies)}" if r.applies else "") + f": {r.summary}")
        spaces, rest = _spaces_apart(r.encoders)
        for e in rest:
            also = [c for c in e.clauses if c != r.id]
            out.append(f"{e.what} `{e.name}` ({e.where})" + (f", also carries {', '.join(also)}" if also else "")
                       + ":\n\n```text\n" + e.text + "\n```")
        if spaces:
            out.append(f"board spaces ({len(spaces)}): " + ", ".join(e.name for e in spaces))
        out += [f"- reading {x}" for x in r.readings]
        out.append("tested by: " + ("; ".join(f"{n} ({w})" for n, w in r.scenarios) if r.scenarios else "no scenario"))
    return "\n\n".join(out) + "\n"


def _applies(a: dict) -> str:
    parts = [f"{', '.join(map(str, a['players']))} player(s)"] if a.get("players") else []
    v = a.get("variant")
    if v:
        parts.append("--variant " + (v if isinstance(v, str) else ", ".join(v)))
    return " with ".join(parts)


def page(rows: list[ClauseEntry], title: str) -> str:
    """Returns the by-clause document as one HTML page: an anchor per clause
    (#clause-ID), and each encoding links to every clause it carries."""
    esc = html.escape
    body, section = [], None
    for r in rows:
        if r.section != section:
            section = r.section
            body.append(f"<h2>{esc(section)}</h2>")
        body.append(f'<section class="clause" id="clause-{esc(r.id)}"><h3><a href="#clause-{esc(r.id)}">{esc(r.id)}</a>'
                    + (f" <small>{esc(r.label)}</small>" if r.label else "") + "</h3>"
                    f"<p><i>{esc(r.kind)}</i>" + (f", applies to {esc(_applies(r.applies))}" if r.applies else "")
                    + f": {esc(r.summary)}</p>")
        spaces, rest = _spaces_apart(r.encoders)
        for e in rest:
            links = " ".join(f'<a href="#clause-{esc(c)}">{esc(c)}</a>' for c in e.clauses)
            body.append(f'<div class="enc"><b>{esc(e.what)} {esc(e.name)}</b> <small>{esc(e.where)}</small> '
                        f"carries {links}<pre>{esc(e.text)}</pre></div>")
        if spaces:
            body.append(f"<p>board spaces ({len(spaces)}): " + esc(", ".join(e.name for e in spaces)) + "</p>")
        body += [f'<p class="reading">reading {esc(x)}</p>' for x in r.readings]
        body.append("<p>tested by: " + (esc("; ".join(f"{n} ({w})" for n, w in r.scenarios)) if r.scenarios
                                        else '<b class="none">no scenario</b>') + "</p></section>")
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}: the rules by clause</title>
<style>body {{ font-family: sans-serif; margin: 2em; max-width: 75em; }} section.clause {{ border-top: 1px solid #ccc; }}
pre {{ background: #f6f6f6; padding: .6em; overflow-x: auto; white-space: pre-wrap; }} b.none {{ color: #c22; }}
section.clause:target {{ background: #fffbe6; }}</style></head>
<body><h1>{esc(title)}: the rules by clause</h1>{''.join(body)}</body></html>
"""


def spec_title(folder: Path, variants: list[str]) -> str:
    """Returns the game's name, with the variants shown."""
    spec: Spec = load_spec(folder, list(variants))
    return spec.meta["name"] + (f" ({', '.join(variants)})" if variants else "")
