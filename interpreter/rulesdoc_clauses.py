"""The rules by clause, in the rulebook's order: to read beside the rulebook, a clause at a
time (`cairn rules GAME --by clause`).

Per clause of the index: its section, label and summary, then everything that encodes it
in full (steps, procedures, functions, quantities, abilities, parameters, cards, pieces
and the board), the readings of it, and the scenarios that test it. The HTML page gives
each clause an anchor, and each piece of code links to every clause it carries, so a
checker can go from a rule to its clauses and back. Nothing is cut short.

Where the game has anchors files (anchors.py), each clause shows where it stands in the
rulebook and, when the rulebook file is found, its lines, read from the user's file as
the page is made (never kept in the project); the clauses are then in the rulebook's line
order. `side_by_side` sets the rulebook's lines and marks on the left, the encoding on the right.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .anchors_text import RulebookView
from .diff import load_spec
from .load.citations import cited, citing
from .load.context import Compiling
from .load.files import display_path, read_part
from .load.spec import Spec, Src
from .rulesdoc import ability_text, flat
from .scenarios import scenario_files


UNCITED = "no-clause"     # the last entry's id: what the rules call but no clause carries


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
    places: list[dict] | None = None    # where it stands in the rulebooks (None: the game has no anchors)


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


def entries(folder: Path, variants: list[str] = (), book: RulebookView | None = None) -> list[ClauseEntry]:
    """Returns every clause of a game's index, in the index's (the rulebook's) order, with
    what encodes it, its readings and its scenarios; with `book`, where each stands in the
    rulebooks, in the order of the primary rulebook's lines."""
    spec = load_spec(folder, list(variants))
    rows = {cid: ClauseEntry(cid, c["section"], c.get("label", ""), c["kind"], c["summary"], c.get("applies", {}))
            for cid, (c, _s) in spec.sections["clauses"].items()}
    # what cites no clause (text for the screen, bookkeeping) closes the document, so that
    # every rule of the game is in it once
    helpers = ClauseEntry(UNCITED, "Not tied to a clause", "", "", "Helpers the rules call that carry no clause "
                          "of their own: text for the screen, bookkeeping.", {})
    for what, name, value, src in citing(Compiling(spec, [])):
        ids = [cid for cid in cited(value) if cid in rows]
        if what == "reading":
            for cid in ids:
                rows[cid].readings.append(f"{name}: {flat(spec.sections['readings'][name][0]['reading'])}")
            continue
        if what == "removal":
            continue
        enc = Encoder(what, name, src.where, _text(what, _entry(src)), ids)
        if not ids:
            helpers.encoders.append(enc)
        for cid in ids:
            rows[cid].encoders.append(enc)
    for name, where, ids in _scenarios(folder, list(variants)):
        for cid in ids:
            if cid in rows:
                rows[cid].scenarios.append((name, where))
    out = list(rows.values()) if book is None else by_line(list(rows.values()), book)
    return out + ([helpers] if helpers.encoders else [])


def by_line(rows: list[ClauseEntry], book: RulebookView) -> list[ClauseEntry]:
    """Returns the clauses with their places, in the order of their first line in the
    primary rulebook; a clause it does not anchor stays after the one before it in the index."""
    keyed, line = [], 0
    for i, r in enumerate(rows):
        r.places = book.places.get(r.id, [])
        if r.places and r.places[0]["rulebook"] == book.primary:
            line = r.places[0]["spans"][0][0]
        keyed.append(((line, i), r))
    return [r for _k, r in sorted(keyed, key=lambda kr: kr[0])]


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
        if r.id == UNCITED:
            out += [f"## {r.section}", r.summary] + _encoders_md(r)
            continue
        if r.section != section:
            section = r.section
            out.append(f"## {section}")
        out.append(f"### {r.id}" + (f" ({r.label})" if r.label else ""))
        out.append(f"*{r.kind}*" + (f", applies to {_applies(r.applies)}" if r.applies else "") + f": {r.summary}")
        if r.places is not None:
            out += _places_md(r.places)
        out += _encoders_md(r)
        out += [f"- reading {x}" for x in r.readings]
        out.append("tested by: " + ("; ".join(f"{n} ({w})" for n, w in r.scenarios) if r.scenarios else "no scenario"))
    return "\n\n".join(out) + "\n"


def _encoders_md(r: ClauseEntry) -> list[str]:
    """Returns what encodes a clause, each entry in full (board spaces on one line)."""
    spaces, rest = _spaces_apart(r.encoders)
    out = []
    for e in rest:
        also = [c for c in e.clauses if c != r.id]
        out.append(f"{e.what} `{e.name}` ({e.where})" + (f", also carries {', '.join(also)}" if also else "")
                   + ":\n\n```text\n" + e.text + "\n```")
    if spaces:
        out.append(f"board spaces ({len(spaces)}): " + ", ".join(e.name for e in spaces))
    return out


def _place_head(p: dict) -> str:
    """Returns where a clause stands in one rulebook, as a line of text."""
    lines = f"line {p['lines']}" if re.fullmatch(r"[0-9]+", p["lines"]) else f"lines {p['lines']}"
    return f"{p['rulebook']} {lines} ({p['where']})" + (" — the digest does not match: the rulebook file differs"
                                                          if p["digest_ok"] is False else "")


def _places_md(places: list[dict]) -> list[str]:
    """Returns a clause's places in Markdown: each rulebook's lines, the text when read."""
    if not places:
        return ["rulebook: **no anchor**"]
    out = []
    for p in places:
        out.append("rulebook: " + _place_head(p))
        if p["text"]:
            out.append("\n".join(f"> {n}: {t.strip()}" for n, t in p["text"] if t.strip()))
    return out


def _applies(a: dict) -> str:
    parts = [f"{', '.join(map(str, a['players']))} player(s)"] if a.get("players") else []
    v = a.get("variant")
    if v:
        parts.append("--variant " + (v if isinstance(v, str) else ", ".join(v)))
    return " with ".join(parts)


_STYLE = """body { font-family: sans-serif; margin: 2em; max-width: 75em; } section.clause { border-top: 1px solid #ccc; }
pre { background: #f6f6f6; padding: .6em; overflow-x: auto; white-space: pre-wrap; } b.none { color: #c22; }
section.clause:target, tr:target { background: #fffbe6; } blockquote.book { border-left: 3px solid #88a; margin: .5em 0;
padding: .2em .8em; background: #f4f4fb; } .ln { display: flex; gap: .7em; margin: .15em 0; }
.ln .n { flex: 0 0 2.2em; text-align: right; color: #889; }
table.sbs { border-collapse: collapse; width: 100%; table-layout: fixed; } table.sbs td { border-top: 1px solid #ccc;
vertical-align: top; padding: .4em .6em; } table.sbs td.book { width: 42%; background: #f8f8fc; }
table.sbs tr.mark td { color: #666; font-size: 90%; } table.sbs section.clause { border-top: none; }
table.sbs section.clause h3 { margin-top: .1em; }
body.sbs { max-width: none; }"""


def _code_id(e: Encoder) -> str:
    """Returns the HTML id of an encoding entry's block (made of its kind and name)."""
    return "code-" + re.sub(r"[^A-Za-z0-9_.-]", "_", f"{e.what}-{e.name}")


def _book_lines(text: list[tuple[int, str]], seen: set[int]) -> str:
    """Returns numbered rulebook lines as HTML, whole; a line's id only where it first shows."""
    out = []
    for n, t in text:
        if not t.strip():
            continue
        ident = "" if n in seen else f' id="line-{n}"'
        seen.add(n)
        out.append(f'<div class="ln"{ident}><span class="n">{n}</span>{html.escape(t.strip())}</div>')
    return "".join(out)


def _places_html(places: list[dict] | None, seen: set[int], text: bool = True) -> str:
    """Returns a clause's places as HTML (with each rulebook's lines when read and `text`)."""
    if places is None:
        return ""
    if not places:
        return '<p class="place"><b class="none">no anchor</b> in the rulebook</p>'
    return "".join(f'<p class="place">rulebook: {html.escape(_place_head(p))}</p>'
                   + (f'<blockquote class="book">{_book_lines(p["text"], seen)}</blockquote>' if text and p["text"] else "")
                   for p in places)


def _clause_html(r: ClauseEntry, shown: set[str], seen: set[int], text: bool = True) -> str:
    """Returns one clause's section: its anchor (#clause-ID), summary, places, everything
    that encodes it (each linking to every clause it carries; the first showing of an
    entry has the id the clauses link back to), its readings and scenarios."""
    esc = html.escape
    body = [f'<section class="clause" id="clause-{esc(r.id)}"><h3><a href="#clause-{esc(r.id)}">{esc(r.id)}</a>'
            + (f" <small>{esc(r.label)}</small>" if r.label else "") + "</h3>"
            f"<p><i>{esc(r.kind)}</i>" + (f", applies to {esc(_applies(r.applies))}" if r.applies else "")
            + f": {esc(r.summary)}</p>", _places_html(r.places, seen, text)]
    spaces, rest = _spaces_apart(r.encoders)
    if rest:
        body.append('<p class="encoded">encoded by: ' + ", ".join(
            f'<a href="#{_code_id(e)}">{esc(e.what)} {esc(e.name)}</a>' for e in rest) + "</p>")
    for e in rest:
        links = " ".join(f'<a href="#clause-{esc(c)}">{esc(c)}</a>' for c in e.clauses)
        ident = "" if _code_id(e) in shown else f' id="{_code_id(e)}"'
        shown.add(_code_id(e))
        body.append(f'<div class="enc"{ident}><b>{esc(e.what)} {esc(e.name)}</b> <small>{esc(e.where)}</small> '
                    f"carries {links}<pre>{esc(e.text)}</pre></div>")
    if spaces:
        body.append(f"<p>board spaces ({len(spaces)}): " + esc(", ".join(e.name for e in spaces)) + "</p>")
    body += [f'<p class="reading">reading {esc(x)}</p>' for x in r.readings]
    body.append("<p>tested by: " + (esc("; ".join(f"{n} ({w})" for n, w in r.scenarios)) if r.scenarios
                                    else '<b class="none">no scenario</b>') + "</p></section>")
    return "".join(body)


def _html(title: str, body: str, extra: str = "") -> str:
    esc = html.escape
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{esc(title)}: the rules by clause</title>
<style>{_STYLE}</style></head>
<body{extra}><h1>{esc(title)}: the rules by clause</h1>{body}</body></html>
"""


def page(rows: list[ClauseEntry], title: str) -> str:
    """Returns the by-clause document as one HTML page: an anchor per clause
    (#clause-ID), and each encoding links to every clause it carries."""
    body, section, shown, seen = [], None, set(), set()
    for r in rows:
        if r.section != section:
            section = r.section
            body.append(f"<h2>{html.escape(section)}</h2>")
        if r.id == UNCITED:
            body.append(f"<p>{html.escape(r.summary)}</p>")
        body.append(_clause_html(r, shown, seen))
    return _html(title, "".join(body))


def side_by_side(rows: list[ClauseEntry], title: str, book: RulebookView) -> str:
    """Returns one HTML page of rows in the primary rulebook's line order: on the left the
    rulebook's lines (read from the user's file now), on the right the clause they carry
    with everything that encodes it, or what the lines are (a heading, an example...).
    A clause the rulebook does not anchor has its row where the index puts it."""
    esc = html.escape
    items: list[tuple[tuple[int, int], str]] = []
    shown: set[str] = set()
    line = 0
    for i, r in enumerate(rows):
        here = [p for p in (r.places or []) if p["rulebook"] == book.primary]
        line = here[0]["spans"][0][0] if here else line
        left = _book_lines(here[0]["text"], set()) if here else '<b class="none">no anchor</b>'
        right = _clause_html(r, shown, set(), text=False)
        items.append(((line, 2 * i + 1), f'<tr class="clause" id="row-{esc(r.id)}"><td class="book">{left}</td>'
                                         f"<td>{right}</td></tr>"))
    for m in book.marks:
        what = esc(m["kind"]) + (f' of <a href="#clause-{esc(m["clause"])}">{esc(m["clause"])}</a>' if m["clause"] else "")
        items.append(((m["spans"][0][0], 0), f'<tr class="mark"><td class="book">{_book_lines(m["text"], set())}</td>'
                                             f"<td>{what} <small>({esc(m['where'])})</small></td></tr>"))
    table = "".join(row for _k, row in sorted(items, key=lambda kr: kr[0]))
    head = (f"<p>On the left {esc(book.primary)}, read from your file as this page was made; on the right "
            "what encodes each clause. Lines that carry no clause are marked with what they are.</p>")
    return _html(title, head + f'<table class="sbs"><tbody>{table}</tbody></table>', ' class="sbs"')


def spec_title(folder: Path, variants: list[str]) -> str:
    """Returns the game's name, with the variants shown."""
    spec: Spec = load_spec(folder, list(variants))
    return spec.meta["name"] + (f" ({', '.join(variants)})" if variants else "")
