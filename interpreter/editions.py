"""Another edition of a game's rulebook, compared clause by clause (`*-differences.yaml`).

The file names the variant that plays the other edition and lists each difference with
the clauses it concerns. A difference in effect is either played by that variant
(`encoded_by`: the changes `cairn diff GAME --variant V` lists, as category/key) or
carries the reason it is not; both are checked, so the list and the overlay cannot drift
apart.
"""
from __future__ import annotations

from pathlib import Path

from .diagnostics import Diagnostic, suggest
from .load.citations import cited
from .load.files import display_path, read_part


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
            if d["differs_in_effect"] and not d.get("encoded_by") and not d.get("reason"):
                out.append(loaded.diag(at, f"difference '{d['id']}' changes play: say which changes of {variant} "
                                           "play it (encoded_by) or why it is not played (reason)"))
            for j, ref in enumerate(d.get("encoded_by", [])):
                if ref not in changed:
                    out.append(loaded.diag(at + ("encoded_by", j), f"'{ref}' is not a change of {variant}"
                                           + suggest(ref, changed)))
    return out


def play_differences(folder: Path, variant: str) -> list[dict]:
    """Returns the differences in effect that a variant plays or explains (for `cairn diff`)."""
    out = []
    for path in difference_files(folder):
        data, _loaded, _diags = read(path)
        if data and data["variant"] == variant:
            out.extend(d for d in data["differences"] if d["differs_in_effect"])
    return out
