"""Mutation testing of an encoding's parameters: does any scenario notice a changed rule?

A scenario that cites a clause proves little if the clause's rule can change and the
scenario still passes. For every parameter a game defines (a number: one more and one
less; a flag: flipped; a per-player-count number: each count one more and one less),
this writes the game into a fresh folder with that one value changed, runs the scenarios
that cite the parameter's clauses, and calls the mutant *killed* when one of them fails
(or the changed game no longer loads: `invalid`), *survived* when all still pass. A
survivor is a rule no scenario pins down: a better scenario, or a reason the value
cannot matter, is owed. Mutants run in parallel processes, each in its own folder.

Only parameters are mutated here: operators, conditions and statements in the effect
code are not (yet).
"""
from __future__ import annotations

import re
import shutil
import tempfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import DefinitionError
from .load.citations import cited

_SCALAR = re.compile(r"-?\d+|true|false")


@dataclass(frozen=True)
class Mutant:
    param: str
    file: str          # the file, relative to the game folder
    line: int
    column: int
    old: str
    new: str
    clauses: tuple[str, ...]

    @property
    def change(self) -> str:
        """Returns the mutation as one diff line: file:line: param old -> new."""
        return f"{self.file}:{self.line}: {self.param} {self.old} -> {self.new}"


def mutants(folder: Path, clause: str | None = None) -> list[Mutant]:
    """Returns the mutants of a game's parameters (those citing `clause`, if given)."""
    from .diff import load_spec
    spec = load_spec(folder, [])
    out = []
    for name, (entry, src) in spec.sections["params"].items():
        ids = tuple(cited(entry.get("rule")))
        if clause is not None and clause not in ids:
            continue
        rel = Path(src.loaded.file).name          # the base game's parameters are in game.yaml
        values = [((), entry["value"])] if "value" in entry else \
            [(("by_players", k), v) for k, v in entry.get("by_players", {}).items()]
        for sub, value in values:
            pos = src.loaded.pos(src.path + (("value",) if not sub else sub))
            label = name + (f"[{sub[1]} players]" if sub else "")
            for new in _changes(value):
                out.append(Mutant(label, rel, pos.line, pos.column, _yaml(value), new, ids))
    return out


def _changes(value: Any) -> list[str]:
    if isinstance(value, bool):
        return [_yaml(not value)]
    if isinstance(value, int):
        return [str(value + 1), str(value - 1)]
    return []


def _yaml(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def apply(m: Mutant, folder: Path) -> None:
    """Writes the mutant's one change into a copy of the game folder (checked in place:
    the text at its position must be the old value)."""
    path = folder / m.file
    lines = path.read_text("utf-8").split("\n")
    line = lines[m.line - 1]
    found = _SCALAR.match(line, m.column - 1)
    if found is None or found.group() != m.old:
        raise ValueError(f"{m.file}:{m.line}:{m.column}: expected {m.old}, found {line[m.column - 1:][:20]!r}")
    lines[m.line - 1] = line[:found.start()] + m.new + line[found.end():]
    path.write_text("\n".join(lines), "utf-8")


def verdict(m: Mutant, folder: Path) -> dict:
    """Runs one mutant in its own copy of the folder; returns {change, clauses, verdict,
    killed_by}: killed (a scenario failed), invalid (the game does not load) or survived."""
    from .scenarios import run_file, scenario_files
    with tempfile.TemporaryDirectory(prefix="cairn-mutant-") as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy)
        apply(m, copy)
        killed_by: list[str] = []
        ran = 0
        try:
            for path in scenario_files(copy):
                for outcome in run_file(path, select=lambda sc: _cites(sc, m.clauses)):
                    ran += 1
                    if not outcome.ok:
                        killed_by.append(outcome.name)
        except DefinitionError as err:
            return {"change": m.change, "clauses": list(m.clauses), "verdict": "invalid",
                    "killed_by": [str(err.diagnostics[0]) if err.diagnostics else "does not load"], "scenarios": ran}
    return {"change": m.change, "clauses": list(m.clauses), "verdict": "killed" if killed_by else "survived",
            "killed_by": killed_by, "scenarios": ran}


def _cites(sc: dict, clauses: tuple[str, ...]) -> bool:
    """A scenario citing one of the clauses (with whatever variants it plays: they read the
    base game's parameters too)."""
    return bool(set(cited(sc["rule"])) & set(clauses))


def run(folder: Path, clause: str | None = None, jobs: int = 2) -> list[dict]:
    """Returns the verdict of every mutant, in the order of the parameters."""
    found = mutants(folder, clause)
    if jobs <= 1:
        return [verdict(m, folder) for m in found]
    with ProcessPoolExecutor(max_workers=jobs) as pool:
        return list(pool.map(verdict, found, [folder] * len(found)))


def by_clause(verdicts: list[dict]) -> dict[str, dict]:
    """Returns {clause: {mutants, killed, invalid, survived: [changes]}}."""
    out: dict[str, dict] = {}
    for v in verdicts:
        for cid in v["clauses"]:
            row = out.setdefault(cid, {"mutants": 0, "killed": 0, "invalid": 0, "survived": []})
            row["mutants"] += 1
            if v["verdict"] == "survived":
                row["survived"].append(v["change"] + ("" if v["scenarios"] else " (no scenario cites these clauses)"))
            else:
                row[v["verdict"]] += 1
    return out
