"""Another edition of a game's rulebook, compared clause by clause (`*-differences.yaml`).

The file names the variant that plays the other edition and lists each difference with
the clauses it concerns. A difference in effect is either played by that variant
(`encoded_by`: the changes `cairn diff GAME --variant V` lists, as category/key) or
carries the reason it is not; both are checked, so the list and the overlay cannot drift
apart.

Neither text is copied into the file: each entry points at the lines of the two rulebook
files it compares (`en_lines` in the reference, `ja_lines` in the other edition, each with
the digest of the lines' text). The rulebook files are the user's; when they are found in
$CAIRN_RULEBOOKS, `cairn diff` shows the lines themselves, read at run time, and says so
when a file's text is not the one the lines were taken from.
"""
from __future__ import annotations

import os
import re
from pathlib import Path

from .anchors import Spans, parse_lines
from .anchors_text import ENV as RULEBOOKS, RulebookProblem, digest, read_rulebook
from .diagnostics import Diagnostic, suggest
from .load.citations import cited
from .load.files import display_path, read_part

SIDES = {"en": "reference", "ja": "rulebook"}    # an entry's lines -> the file's key at the top


def difference_files(folder: Path) -> list[Path]:
    """Returns a game's edition comparisons (none for a game of a format that read none)."""
    from .load.formats import reads
    from .load.migrate import folder_format
    found = sorted(folder.glob("*-differences.yaml"))
    return [p for p in found if reads(folder_format(folder), p.name)] if found else []


def read(path: Path) -> tuple[dict | None, object, list[Diagnostic]]:
    loaded, problems = read_part(path, display_path(path), "differences")
    return (loaded.data if loaded else None), loaded, problems


def problems(folder: Path) -> list[Diagnostic]:
    """Returns what is wrong with a game's edition comparisons (unknown clauses or
    variant, a difference in effect neither played nor explained, a change that is not
    the variant's)."""
    from .diff import diff, load_spec, model
    out: list[Diagnostic] = []
    for path in difference_files(folder):
        data, loaded, diags = read(path)
        out.extend(diags)
        if data is None:
            continue
        base = load_spec(folder, [])
        variant = data["variant"]
        if variant not in base.variants:
            out.append(loaded.diag(("variant",), f"no variant '{variant}'" + suggest(variant, base.variants)))
            continue
        changed = {f"{c.category}/{c.key}" for c in diff(model(base), model(load_spec(folder, [variant])))}
        clauses = base.sections["clauses"]
        for i, d in enumerate(data["differences"]):
            at = ("differences", i)
            for cid in cited(d["clause"]):
                if clauses and cid not in clauses:
                    out.append(loaded.diag(at + ("clause",), f"no clause '{cid}' in rules.yaml" + suggest(cid, clauses)))
            out.extend(_line_problems(loaded, data, d, at))
            if d["differs_in_effect"] and not d.get("encoded_by") and not d.get("reason"):
                out.append(loaded.diag(at, f"difference '{d['id']}' changes play: say which changes of {variant} "
                                           "play it (encoded_by) or why it is not played (reason)"))
            for j, ref in enumerate(d.get("encoded_by", [])):
                if ref not in changed:
                    out.append(loaded.diag(at + ("encoded_by", j), f"'{ref}' is not a change of {variant}"
                                           + suggest(ref, changed)))
    return out


def _line_problems(loaded, data: dict, d: dict, at: tuple) -> list[Diagnostic]:
    """Returns what is wrong with an entry's line spans: spans out of order, lines without
    their digest (or the reverse), lines of a file the comparison does not name."""
    out = []
    for side, key in SIDES.items():
        text, sealed = d.get(f"{side}_lines"), d.get(f"{side}_digest")
        if text is not None and parse_spans(text) is None:
            out.append(loaded.diag(at + (f"{side}_lines",), f"lines '{text}': give the spans in ascending "
                                                            "order, not overlapping (e.g. \"40-41, 45\")"))
        if (text is None) != (sealed is None):
            have, need = (f"{side}_lines", f"{side}_digest") if sealed is None else (f"{side}_digest", f"{side}_lines")
            out.append(loaded.diag(at + (have,), f"{have} needs {need} beside it"))
        if text is not None and not data.get(key):
            out.append(loaded.diag(at + (f"{side}_lines",), f"{side}_lines: name the file they are lines of "
                                                            f"at the top ({key}: FILE)"))
    return out


def parse_spans(text: str) -> Spans | None:
    """Returns the spans of "7", "12-14" or "40-41, 45" as an anchors file reads them, or
    None when they are not spans in ascending order without overlapping."""
    spans = parse_lines(text)
    return None if isinstance(spans, str) else spans


def rulebook_lines(name: str) -> list[str] | None:
    """Returns the lines of the user's rulebook file `name` in $CAIRN_RULEBOOKS, read as
    `cairn anchors` reads it, or None when the folder is not set or the file is missing or
    refused."""
    folder = os.environ.get(RULEBOOKS)
    if not folder or not name:
        return None
    try:
        return read_rulebook(Path(folder) / Path(name).name)
    except RulebookProblem:
        return None


def cited_lines(data: dict, d: dict) -> dict[str, dict]:
    """Returns, for each side an entry points into, the file and its lines; with the text of
    those lines when the file is found and is the text they were taken from, else a note."""
    out = {}
    for side, key in SIDES.items():
        text = d.get(f"{side}_lines")
        if text is None:
            continue
        name = Path(str(data.get(key) or "")).name
        shown: dict = {"file": name, "lines": text}
        lines, spans = rulebook_lines(name), parse_spans(text)
        if lines is not None and spans is not None:
            if spans[-1][1] <= len(lines) and digest(lines, spans) == d.get(f"{side}_digest"):
                shown["text"] = [t.strip() for a, b in spans for t in lines[a - 1:b] if t.strip()]
            else:
                shown["note"] = f"{name} in ${RULEBOOKS} is not the text these lines were taken from"
        out[side] = shown
    return out


def play_differences(folder: Path, variant: str) -> list[dict]:
    """Returns the differences in effect that a variant plays or explains (for `cairn diff`),
    each with the rulebook lines it compares (`rulebook_lines`, see cited_lines)."""
    out = []
    for path in difference_files(folder):
        data, _loaded, _diags = read(path)
        if data and data["variant"] == variant:
            out.extend(dict(d, rulebook_lines=cited_lines(data, d)) for d in data["differences"]
                       if d["differs_in_effect"])
    return out


def describe(d: dict) -> list[str]:
    """Returns a difference in effect as `cairn diff` prints it: its clauses and our reading,
    the lines it compares (with their text when the rulebook files are found), how it is played."""
    clauses = [d["clause"]] if isinstance(d["clause"], str) else d["clause"]
    out = [f"  {d['id']} [{', '.join(clauses)}]: {d.get('ja_reading', d.get('encoding', ''))}"]
    for shown in d.get("rulebook_lines", {}).values():
        word = "line" if re.fullmatch(r"\d+", shown["lines"]) else "lines"
        head = f"      {shown['file']} {word} {shown['lines']}"
        out.append(head + (f" ({shown['note']})" if "note" in shown else ":" if shown.get("text") else ""))
        out.extend(f"        {t}" for t in shown.get("text", []))
    how = ("played: " + ", ".join(d["encoded_by"])) if d.get("encoded_by") else f"not played: {d.get('reason', '')}"
    return out + [f"      {how}"]
