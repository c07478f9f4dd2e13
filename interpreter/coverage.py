"""Which clause of the rulebook is carried by which rule, tested by which scenario, and
reached by how many seeded random games.

A clause is *encoded* when a step, procedure, ability, parameter, object or other entry
cites it (`rule:`); *tested* when a scenario that cites it passes now: coverage runs the
scenarios, so a rule broken in a copy leaves its clause untested, however many scenarios
still name it. A clause is *exercised* in a game when a rule citing it ran there (traced:
the programs, parts of the structure, functions, static abilities and scoring a game ran);
a clause carried only by data (parameters, objects, spaces without an effect) is not
measured that way. Readings (rules.yaml) are listed with the clauses they read.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .diagnostics import DefinitionError
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
    tested_by: list[dict] = field(default_factory=list)     # {name, where, ok, failures}
    exercised: int | None = 0       # None: not measured by random play (see `measured`)
    measured: str = ""              # how: "" (the games asked for), "1 player, --variant v", "n/a: data"
    readings: list[dict] = field(default_factory=list)
    rests_on: dict[str, list[str]] = field(default_factory=dict)   # {reconstructed|invented: encoders}
    origin: str = "rulebook"        # or "invented: <variant>", a clause an example expansion adds
    anchors: list[dict] | None = None   # where it stands in each rulebook (None: the game has no anchors files)

    @property
    def passing(self) -> list[dict]:
        """Returns the scenarios citing this clause that pass now: only they test it."""
        return [t for t in self.tested_by if t["ok"]]

    @property
    def failing(self) -> list[dict]:
        """Returns the scenarios citing this clause that fail now."""
        return [t for t in self.tested_by if not t["ok"]]

    def as_json(self, games: int) -> dict:
        return {"id": self.id, "kind": self.kind, "section": self.section, "label": self.label,
                "summary": self.summary, "encoded_by": self.encoded_by, "tested_by": self.tested_by,
                "tested": bool(self.passing),
                "exercised": self.exercised, "measured": self.measured, "games": games, "readings": self.readings,
                "rests_on": self.rests_on, "origin": self.origin,
                "anchors": None if self.anchors is None else [
                    {k: a[k] for k in ("rulebook", "lines", "where", "digest_ok")} for a in self.anchors]}


def scenario_runs(folder: Path, variants: list[str]) -> list[dict]:
    """Runs the scenarios of a game that run with these variants (a scenario for another
    variant tests that variant's clauses) and returns one verdict each: {clauses, name,
    where (file:line), ok, failures}. A file that does not load is a DefinitionError."""
    from .scenarios import run_file
    chosen = set(variants)
    out = []
    for path in scenario_files(folder) + expansion_scenarios(variants):    # an expansion folder's own too
        loaded, problems = read_part(path, display_path(path), "scenario")
        if loaded is None:
            raise DefinitionError(problems)
        common = set(loaded.data.get("variants", []))
        for outcome in run_file(path, select=lambda sc: not (common | set(sc.get("variants", []))) - chosen):
            file, line, _col = outcome.where.rsplit(":", 2)
            out.append({"clauses": cited(outcome.rule), "name": outcome.name, "where": f"{file}:{line}",
                        "ok": outcome.ok, "failures": outcome.failures})
    return out


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
    _provenance(rows, folder, variants)
    for run in scenario_runs(folder, variants):
        for cid in run["clauses"]:
            if cid in rows:
                rows[cid].tested_by.append({k: run[k] for k in ("name", "where", "ok", "failures")})
    if games > 0:
        from .coverage_play import measure
        for cid, (n, how) in measure(g, folder, variants, players, games, seed).items():
            if cid in rows:
                rows[cid].exercised, rows[cid].measured = n, how
    return list(rows.values()), totals(list(rows.values()), games)


def _provenance(rows: dict[str, ClauseReport], folder: Path, variants: list[str]) -> None:
    """Marks each clause with the reconstructed or invented content its encoders are, and
    the clauses an invented overlay (an example expansion) adds as invented themselves."""
    from .diff import load_spec
    from .provenance import kind_of, of_entries, resting_on
    spec = load_spec(folder, variants)
    table = of_entries(spec)
    invented = {loaded.file: vid for vid, (loaded, _path) in spec.variants.items()
                if kind_of(loaded.data.get("variant", {})) == "invented"}
    for cid, row in rows.items():
        row.rests_on = resting_on(row.encoded_by, table)
        if cid in spec.sections["clauses"]:
            file = spec.sections["clauses"][cid][1].loaded.file
            if file in invented:
                row.origin = f"invented: {invented[file]}"


def totals(rows: list[ClauseReport], games: int) -> dict[str, Any]:
    def tally(rs: list[ClauseReport]) -> dict[str, Any]:
        n = len(rs)
        enc = sum(1 for r in rs if r.encoded_by)
        tested = sum(1 for r in rs if r.passing)
        both = sum(1 for r in rs if r.encoded_by and r.passing)
        out = {"clauses": n, "encoded": enc, "tested": tested, "encoded_and_tested": both,
               "percent": round(100.0 * both / n, 1) if n else 100.0}
        if games:
            out["exercised"] = sum(1 for r in rs if r.exercised)
            out["measured"] = sum(1 for r in rs if r.exercised is not None)
        return out
    failed = {t["where"]: t["name"] for r in rows for t in r.failing}
    by_kind: dict[str, list] = defaultdict(list)
    for r in rows:
        by_kind[r.kind].append(r)
    invented = [r for r in rows if r.origin != "rulebook"]
    return {"all": tally(rows), "by_kind": {k: tally(v) for k, v in sorted(by_kind.items())}, "games": games,
            "failed_scenarios": len(failed),
            "rulebook": tally([r for r in rows if r.origin == "rulebook"]), "invented": tally(invented),
            "resting_on_reconstructed": sum(1 for r in rows if "reconstructed" in r.rests_on)}
