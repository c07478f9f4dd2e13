"""Which clause of the rulebook is carried by which rule, tested by which scenario, and
reached by how many seeded random games.

A clause is *encoded* when a step, procedure, ability, parameter, object or other entry
cites it (`rule:`); *tested* when a scenario cites it; *exercised* in a game when a rule
citing it ran there (traced: the programs, parts of the structure, functions, static
abilities and scoring a game ran; parameters and objects without an effect are data). Readings (rules.yaml)
are listed with the clauses they read.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import DefinitionError
from .engine import rng
from .engine.game import CompiledGame
from .load.citations import cited
from .load.expansion import expansion_scenarios
from .load.files import display_path, read_part
from .scenarios import scenario_files


@dataclass
class ClauseReport:
    id: str
    kind: str
    section: str
    summary: str
    label: str = ""
    encoded_by: list[dict] = field(default_factory=list)    # {what, name, where}
    tested_by: list[dict] = field(default_factory=list)     # {name, where}
    exercised: int = 0
    readings: list[dict] = field(default_factory=list)

    def as_json(self, games: int) -> dict:
        return {"id": self.id, "kind": self.kind, "section": self.section, "label": self.label,
                "summary": self.summary, "encoded_by": self.encoded_by, "tested_by": self.tested_by,
                "exercised": self.exercised, "games": games, "readings": self.readings}


def scenario_citations(folder: Path, variants: list[str]) -> list[tuple[list[str], str, str]]:
    """Returns (clause ids, scenario name, file:line) for the scenarios of a game that run
    with these variants (a scenario for another variant tests that variant's clauses)."""
    out = []
    chosen = set(variants)
    for path in scenario_files(folder) + expansion_scenarios(variants):    # an expansion folder's own too
        loaded, _problems = read_part(path, display_path(path), "scenario")
        if loaded is None:
            continue
        for i, sc in enumerate(loaded.data["scenarios"]):
            needs = set(loaded.data.get("variants", [])) | set(sc.get("variants", []))
            if needs - chosen:
                continue
            pos = loaded.pos(("scenarios", i))
            out.append((cited(sc["rule"]), sc["name"], f"{loaded.file}:{pos.line}"))
    return out


def programs_of(g: CompiledGame) -> dict[str, list[str]]:
    """Returns {clause id: program keys} for the rules citing each clause that run as
    programs (steps, procedures, abilities, card effects, triggers)."""
    out: dict[str, list[str]] = defaultdict(list)
    keys = set(g.programs)
    for what, name, ids, _where in g.citations:
        candidates = {"step": [f"step:{name}", f"part:{name}"], "procedure": [f"proc:{name}", f"proc:{name}:body"],
                      "ability": [f"ability:{name}", f"ability:{name}:use", f"ability:{name}:ask"],
                      "function": [f"fn:{name}"], "quantity": [f"fn:{name}"], "scoring": ["scoring"],
                      "card": [f"effect:{name}"], "component": [f"effect:{name}"], "trigger": []}.get(what, [])
        for key in candidates:
            if key in keys or key.startswith(("part:", "fn:", "ability:")) or key == "scoring":
                for cid in ids:
                    out[cid].append(key)
    return out


def exercised(g: CompiledGame, players: int, games: int, seed: int) -> dict[str, int]:
    """Plays `games` seeded random games with the VM noting the programs it enters (the
    game must be built with trace=True, so every step runs as its own program); returns
    {clause id: games in which a rule citing it ran}."""
    from .agents import make_agents
    from .records import play
    by_clause = programs_of(g)
    counts: dict[str, int] = defaultdict(int)
    for i in range(games):
        s = rng.derive(seed, i)
        g.trace = set()
        try:
            play(g, players, s, make_agents(["random"], players, s), log=False)
            ran = g.trace
        finally:
            g.trace = None
        for cid, keys in by_clause.items():
            if any(k in ran for k in keys):
                counts[cid] += 1
    return counts


def report(g: CompiledGame, folder: Path, variants: list[str], players: int, games: int, seed: int
           ) -> tuple[list[ClauseReport], dict]:
    """Returns the report of every clause, and the totals (overall and per kind)."""
    if not g.clauses:
        raise DefinitionError([])
    rows = {cid: ClauseReport(cid, c["kind"], c["section"], c["summary"], c.get("label", ""))
            for cid, c in g.clauses.items()}
    for what, name, ids, where in g.citations:
        for cid in ids:
            if cid in rows:
                (rows[cid].readings if what == "reading" else rows[cid].encoded_by).append(
                    {"what": what, "name": name, "where": where} if what != "reading"
                    else {"id": name, "reading": g.readings[name]["reading"], "where": where})
    for ids, name, where in scenario_citations(folder, variants):
        for cid in ids:
            if cid in rows:
                rows[cid].tested_by.append({"name": name, "where": where})
    if games > 0:
        counts = exercised(g, players, games, seed)
        for cid, n in counts.items():
            if cid in rows:
                rows[cid].exercised = n
    return list(rows.values()), totals(list(rows.values()), games)


def totals(rows: list[ClauseReport], games: int) -> dict[str, Any]:
    def tally(rs: list[ClauseReport]) -> dict[str, Any]:
        n = len(rs)
        enc = sum(1 for r in rs if r.encoded_by)
        tested = sum(1 for r in rs if r.tested_by)
        both = sum(1 for r in rs if r.encoded_by and r.tested_by)
        out = {"clauses": n, "encoded": enc, "tested": tested, "encoded_and_tested": both,
               "percent": round(100.0 * both / n, 1) if n else 100.0}
        if games:
            out["exercised"] = sum(1 for r in rs if r.exercised)
        return out
    by_kind: dict[str, list] = defaultdict(list)
    for r in rows:
        by_kind[r.kind].append(r)
    return {"all": tally(rows), "by_kind": {k: tally(v) for k, v in sorted(by_kind.items())}, "games": games}
