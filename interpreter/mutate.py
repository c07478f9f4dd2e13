"""Mutation testing of an encoding: does any scenario notice a changed rule?

A scenario that cites a clause proves little if the clause's rule can change and the
scenario still passes. Each mutant is one small change of the rules that cite a clause,
written into a fresh copy of the game folder at the exact place in its YAML (so its diff
line shows the change): a parameter one more or one less (a flag flipped), a number in
the effect code off by one, a comparison moved to its neighbour, `and` for `or`, a
condition dropped (an `if` forced true or false, a filter or one side of `and` dropped),
a statement left out, an ability or a step removed (mutate_ops.py, mutate_sites.py).
The scenarios citing the mutant's clauses run against the copy:

- killed: one of them fails (or crashes);
- invalid: the changed game no longer loads (the loader, not a scenario, caught it);
- survived: all still pass. Then N seeded random games are played on the mutant: if
  every decision, turn, result and final state is the original's (mutate_play.py), it
  is *equivalent*, or, for a dropped condition, ability or step, *unreachable*: the
  rule never fired in those games (the readings of its clauses are named, as what may
  keep it). Otherwise it is a survivor: a rule no scenario pins down.

Score = killed / (made - invalid - equivalent - unreachable): a mutant the loader
refuses tests no scenario, and one that plays exactly like the original cannot be
killed by any scenario of play. Mutants are many; `limit` keeps them bounded, chosen by
a seeded shuffle so the same command picks the same mutants. They run in parallel
processes, or on dask (scale.map_batches), each in its own folder.
"""
from __future__ import annotations

import random
import re
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

from .diagnostics import DefinitionError
from .load.citations import applies_of, cited
from .mutate_ops import GUARDS, edits
from .mutate_sites import EXPR_KEYS, Site, sites

_SCALAR = re.compile(r"-?\d+|true|false")
SHOWN = 48


@dataclass(frozen=True)
class Mutant:
    param: str         # what is changed: a parameter, or the rule that holds the change
    file: str          # the file, relative to the game folder
    line: int
    column: int
    old: str           # the text of the file at line:column (up to `end`)
    new: str
    clauses: tuple[str, ...]
    op: str = "parameter"
    end: tuple[int, int] | None = None    # (line, column) just past `old`; None: one scalar
    path: tuple = ()                      # where in the file's data the change lands
    expect: Any = None                    # the value found there once changed (check)
    shown: tuple[str, str] | None = None  # old and new as people read them

    @property
    def change(self) -> str:
        """Returns the mutation as one diff line: file:line: what old -> new."""
        if self.shown is None:
            return f"{self.file}:{self.line}: {self.param} {self.old} -> {self.new}"
        return f"{self.file}:{self.line}: {self.param}: {self.op} {self.shown[0]} -> {self.shown[1]}"


# ---- making mutants -------------------------------------------------------------------

def mutants(folder: Path, clause: str | None = None, variants: list[str] = (),
            params_only: bool = False) -> list[Mutant]:
    """Returns every candidate mutant of a game (those carrying `clause`, if given), in
    the order of the files, unchecked (check() confirms each lands where it says)."""
    from .diff import load_spec
    spec = load_spec(folder, list(variants))
    out = list(_param_mutants(spec, folder))
    if not params_only:
        overlays = [path for vid, (_l, path) in spec.variants.items() if vid in variants]
        for site in sites(folder, overlays):
            out.extend(_site_mutants(site))
    if clause is not None:
        out = [m for m in out if clause in m.clauses]
    return sorted(out, key=lambda m: (m.op != "parameter", m.file, m.line, m.column))   # stable: made order


def _relative(folder: Path, shown: str) -> str:
    """Returns the file a spec entry was read from, relative to the game folder (the base
    game's parameters are in game.yaml, a variant's in variants/)."""
    name = Path(shown).name
    return name if Path(shown).parent.name != "variants" or not (folder / "variants" / name).is_file() \
        else f"variants/{name}"


def _param_mutants(spec: Any, folder: Path) -> Iterator[Mutant]:
    for name, (entry, src) in spec.sections["params"].items():
        ids = tuple(cited(entry.get("rule")))
        rel = _relative(folder, src.loaded.file)
        values = [((), entry["value"])] if "value" in entry else \
            [(("by_players", k), v) for k, v in entry.get("by_players", {}).items()]
        for sub, value in values:
            path = src.path + (("value",) if not sub else sub)
            pos = src.loaded.pos(path)
            label = name + (f"[{sub[1]} players]" if sub else "")
            for new in _changes(value):
                yield Mutant(label, rel, pos.line, pos.column, _yaml(value), new, ids, path=path,
                             expect=_value_of(new))


def _changes(value: Any) -> list[str]:
    if isinstance(value, bool):
        return [_yaml(not value)]
    if isinstance(value, int):
        return [str(value + 1), str(value - 1)]
    return []


def _yaml(value: Any) -> str:
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def _value_of(text: str) -> Any:
    return {"true": True, "false": False}.get(text, int(text) if text.lstrip("-").isdigit() else text)


def _site_mutants(site: Site) -> Iterator[Mutant]:
    if site.key in REMOVED_OPS:
        m = _removal(site)
        if m is not None:
            yield m
    elif isinstance(site.value, (bool, int)):
        pos = site.loaded.value_pos.get(site.path)
        if pos is not None:
            for new in _changes(site.value):
                yield Mutant(site.owner, site.file, pos.line, pos.column, _yaml(site.value), new, site.clauses,
                             "flag" if isinstance(site.value, bool) else "number", None, site.path,
                             _value_of(new), (f"{site.key}: {_yaml(site.value)}", f"{site.key}: {new}"))
    else:
        yield from _code_mutants(site)


REMOVED_OPS = ("ability", "step")


def _code_mutants(site: Site) -> Iterator[Mutant]:
    info = site.loaded.scalar_info.get(site.path)
    if info is None or info[0] == "folded":
        return                                   # a folded block's lines are not the text's
    text = site.value
    for e in edits(text, site.key in EXPR_KEYS):
        p1 = site.loaded.locate(site.path, *_line_col(text, e.start))
        p2 = site.loaded.locate(site.path, *_line_col(text, e.end))
        old = _slice(site.loaded, (p1.line, p1.column), (p2.line, p2.column))
        if old is None or _squash(old) != _squash(text[e.start:e.end]):
            continue                             # not where the text says (an escape, a folded line)
        shown = (_short(text[e.start:e.end]), _short(e.new) if e.new else "(removed)")
        new = e.new
        if info[0] == "plain" and (e.start, e.end) == (0, len(text)):
            new = f"'{new}'"                     # still a text, not YAML's true, false or null
        yield Mutant(site.owner, site.file, p1.line, p1.column, old, new, site.clauses, e.op,
                     (p2.line, p2.column), site.path, text[:e.start] + e.new + text[e.end:], shown)


def _line_col(text: str, offset: int) -> tuple[int, int]:
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def _slice(loaded: Any, start: tuple[int, int], end: tuple[int, int]) -> str | None:
    lines = loaded._lines
    if not (1 <= start[0] <= end[0] <= len(lines)):
        return None
    if start[0] == end[0]:
        return lines[start[0] - 1][start[1] - 1:end[1] - 1]
    middle = lines[start[0]:end[0] - 1]
    return "\n".join([lines[start[0] - 1][start[1] - 1:]] + middle + [lines[end[0] - 1][:end[1] - 1]])


def _squash(text: str) -> str:
    return " ".join(text.split())


def _short(text: str) -> str:
    text = _squash(text)
    return text if len(text) <= SHOWN else text[:SHOWN - 3] + "..."


def _removal(site: Site) -> Mutant | None:
    """An ability or step left out: its lines of a block list removed (the list's only
    entry: the list written `[]`)."""
    pos = site.loaded.value_pos.get(site.path)
    parent = site.path[:-1]
    key_pos = site.loaded.key_pos.get(parent)
    lines = site.loaded._lines
    if pos is None or key_pos is None:
        return None
    dash = lines[pos.line - 1][:pos.column - 1].rstrip()
    if not dash.endswith("-"):
        return None                              # a flow list: not removed by lines
    indent = len(dash) - 1
    end = pos.line
    while end < len(lines) and (not lines[end].strip() or lines[end].lstrip().startswith("#")
                                or len(lines[end]) - len(lines[end].lstrip()) > indent):
        end += 1
    while end > pos.line and (not lines[end - 1].strip() or lines[end - 1].lstrip().startswith("#")):
        end -= 1                                 # trailing blank lines and comments stay
    siblings = _list_at(site.loaded.data, parent)
    if siblings is not None and len(siblings) == 1:
        key_line = lines[key_pos.line - 1]
        colon = key_line.find(":", key_pos.column - 1)
        if colon < 0:
            return None
        start, stop, new = (key_pos.line, colon + 2), (end, len(lines[end - 1]) + 1), " []"
    else:
        start, stop, new = (pos.line, 1), (end + 1, 1), ""
        if end >= len(lines):
            return None
    old = _slice(site.loaded, start, stop)
    if old is None:
        return None
    first = _short(lines[pos.line - 1].strip().lstrip("-").strip())
    return Mutant(site.owner, site.file, start[0], start[1], old, new, site.clauses,
                  site.key, stop, site.path, ("drop", site.path[-1]), (first, "(removed)"))


def _list_at(data: Any, path: tuple) -> list | None:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data if isinstance(data, list) else None


# ---- choosing and checking ------------------------------------------------------------

def choose(found: list[Mutant], folder: Path, limit: int | None = None, per_clause: int | None = None,
           seed: int = 0) -> tuple[list[Mutant], int]:
    """Returns (the mutants to run, how many candidates there were): all of them, or a
    seeded shuffle's first `limit` overall and/or `per_clause` of each clause, each one
    checked to land where it says (those that do not are passed over); in file order."""
    order = list(range(len(found)))
    if limit is not None or per_clause is not None:
        random.Random(seed).shuffle(order)
    checker = _Checker(folder)
    kept: list[int] = []
    each: dict[str, int] = {}
    for i in order:
        if limit is not None and len(kept) >= limit:
            break
        m = found[i]
        if per_clause is not None and all(each.get(c, 0) >= per_clause for c in m.clauses):
            continue
        if not checker.lands(m):
            continue
        kept.append(i)
        for c in m.clauses:
            each[c] = each.get(c, 0) + 1
    return [found[i] for i in sorted(kept)], len(found)


class _Checker:
    """Confirms a mutant changes exactly what it says: the file, changed, read as YAML
    has the expected value at the mutant's path and is otherwise the same there."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.texts: dict[str, str] = {}
        self.data: dict[str, Any] = {}

    def lands(self, m: Mutant) -> bool:
        import yaml
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        if m.file not in self.texts:
            self.texts[m.file] = (self.folder / m.file).read_text("utf-8")
            self.data[m.file] = yaml.load(self.texts[m.file], Loader=loader)
        try:
            changed = yaml.load(_applied(m, self.texts[m.file]), Loader=loader)
        except (yaml.YAMLError, ValueError):
            return False
        if isinstance(m.expect, tuple) and m.expect[:1] == ("drop",):
            before, after = _list_at(self.data[m.file], m.path[:-1]), _list_at(changed, m.path[:-1])
            return before is not None and after == before[:m.expect[1]] + before[m.expect[1] + 1:]
        found = _list_at_value(changed, m.path)
        if isinstance(found, str) and isinstance(m.expect, str):
            return found.rstrip() == m.expect.rstrip()    # a literal block keeps one final newline
        return found == m.expect and type(found) is type(m.expect)


def _list_at_value(data: Any, path: tuple) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _applied(m: Mutant, text: str) -> str:
    """Returns the file's text with the mutant's change; ValueError if the text there is
    not the old text."""
    lines = text.split("\n")
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line) + 1)
    if not 1 <= m.line <= len(lines):
        raise ValueError(f"{m.file}:{m.line}: no such line")
    begin = starts[m.line - 1] + m.column - 1
    if m.end is None:
        found = _SCALAR.match(text, begin)
        if found is None or found.group() != m.old:
            raise ValueError(f"{m.file}:{m.line}:{m.column}: expected {m.old}, found {text[begin:begin + 20]!r}")
        stop = found.end()
    else:
        stop = starts[m.end[0] - 1] + m.end[1] - 1
        if text[begin:stop] != m.old:
            raise ValueError(f"{m.file}:{m.line}:{m.column}: expected {_short(m.old)!r}, "
                             f"found {_short(text[begin:stop])!r}")
    return text[:begin] + m.new + text[stop:]


def apply(m: Mutant, folder: Path) -> None:
    """Writes the mutant's one change into a copy of the game folder (checked in place:
    the text at its position must be the old text)."""
    path = folder / m.file
    path.write_text(_applied(m, path.read_text("utf-8")), "utf-8")


# ---- running --------------------------------------------------------------------------

@dataclass(frozen=True)
class Plan:
    """What every mutant's run needs besides the mutant: the seeded games that tell an
    equivalent survivor (none when games is 0) and the original's digest of them, by
    player count (a mutant of a clause about other counts only is played at those:
    a solo rule never fires in a 3-player game)."""

    variants: tuple[str, ...] = ()
    games: int = 20
    seed: int = 0
    players: int | None = None
    digests: tuple[tuple[int, str], ...] = ()


def players_for(m: Mutant, clauses: dict[str, dict], default: int) -> int:
    """Returns the player count of a mutant's seeded games: the default, unless every
    clause it carries applies to other counts only (then the least of those)."""
    counts = [applies_of(clauses[c])[0] for c in m.clauses if c in clauses]
    if counts and all(counts) and not any(default in c for c in counts):
        return min(n for c in counts for n in c)
    return default


def verdict(m: Mutant, folder: Path | str, plan: Plan = Plan(games=0), players: int | None = None) -> dict:
    """Runs one mutant in its own copy of the folder; returns {change, op, rule, clauses,
    verdict, killed_by, scenarios}: killed, invalid, survived, equivalent or unreachable."""
    from .mutate_play import play_digest
    folder = Path(folder)
    out = {"change": m.change, "op": m.op, "rule": m.param, "clauses": list(m.clauses)}
    with tempfile.TemporaryDirectory(prefix="cairn-mutant-") as tmp:
        copy = Path(tmp) / folder.name
        shutil.copytree(folder, copy)
        apply(m, copy)
        try:
            killed_by, ran = _scenarios(copy, m.clauses)
        except DefinitionError as err:
            return {**out, "verdict": "invalid", "scenarios": 0,
                    "killed_by": [str(err.diagnostics[0]) if err.diagnostics else "does not load"]}
        out.update(killed_by=killed_by, scenarios=ran)
        if killed_by:
            return {**out, "verdict": "killed"}
        original = dict(plan.digests).get(players)
        if plan.games and original:
            try:
                same = play_digest(copy, list(plan.variants), plan.games, plan.seed, players) == original
            except DefinitionError:
                same = False
            if same:
                return {**out, "verdict": "unreachable" if m.op in GUARDS else "equivalent"}
    return {**out, "verdict": "survived"}


def _scenarios(copy: Path, clauses: tuple[str, ...]) -> tuple[list[str], int]:
    """Runs the scenarios citing the clauses; returns (the names of those that failed or
    crashed, how many ran). DefinitionError: the game does not load."""
    from .scenarios import run_file, scenario_files
    killed_by: list[str] = []
    ran = 0
    for path in scenario_files(copy):
        try:
            outcomes = run_file(path, select=lambda sc: _cites(sc, clauses))
        except DefinitionError:
            raise
        except Exception as err:                 # the mutant broke a rule at run time
            killed_by.append(f"{path.name}: {type(err).__name__}")
            continue
        for outcome in outcomes:
            ran += 1
            if not outcome.ok:
                killed_by.append(outcome.name)
    return killed_by, ran


def _cites(sc: dict, clauses: tuple[str, ...]) -> bool:
    """A scenario citing one of the clauses (with whatever variants it plays: they read the
    base game's rules too)."""
    return bool(set(cited(sc["rule"])) & set(clauses))


def run(folder: Path, chosen: list[Mutant], jobs: int = 2, plan: Plan = Plan(games=0),
        scheduler: str | None = None, progress: Callable[[int], None] | None = None) -> list[dict]:
    """Returns the verdict of every mutant, in their order: in `jobs` processes here, or
    on the dask scheduler at `scheduler` (whose workers must see `folder` at the same path)."""
    from .load.build import load_game
    from .mutate_play import default_players, play_digest
    from .scale import map_batches
    g = load_game(folder, list(plan.variants))
    default = plan.players or default_players(g.min_players, g.max_players)
    counts = [players_for(m, g.clauses, default) if plan.players is None else default for m in chosen]
    if plan.games:
        known = dict(plan.digests)
        for n in sorted(set(counts) - set(known)):
            known[n] = play_digest(folder, list(plan.variants), plan.games, plan.seed, n)
        plan = Plan(plan.variants, plan.games, plan.seed, plan.players, tuple(sorted(known.items())))
    done = [0]

    def tick(_v: dict) -> None:
        done[0] += 1
        if progress is not None:
            progress(done[0])
    return map_batches(verdict, [(m, str(folder), plan, n) for m, n in zip(chosen, counts)], workers=jobs,
                       scheduler=scheduler, on_done=tick)


# ---- reporting ------------------------------------------------------------------------

NOT_COUNTED = ("invalid", "equivalent", "unreachable")


def score(verdicts: list[dict]) -> dict:
    """Returns the totals and the score: killed / (made - invalid - equivalent - unreachable)."""
    counts = {k: sum(1 for v in verdicts if v["verdict"] == k)
              for k in ("killed", "invalid", "survived", "equivalent", "unreachable")}
    counted = len(verdicts) - sum(counts[k] for k in NOT_COUNTED)
    return {"mutants": len(verdicts), **counts, "counted": counted,
            "score": round(100.0 * counts["killed"] / counted, 1) if counted else None}


def by_clause(verdicts: list[dict]) -> dict[str, dict]:
    """Returns {clause: {mutants, killed, invalid, equivalent, unreachable, survived: [changes]}}."""
    out: dict[str, dict] = {}
    for v in verdicts:
        for cid in v["clauses"]:
            row = out.setdefault(cid, {"mutants": 0, "killed": 0, "invalid": 0, "equivalent": 0,
                                       "unreachable": 0, "survived": []})
            row["mutants"] += 1
            if v["verdict"] == "survived":
                row["survived"].append(v["change"] + ("" if v["scenarios"] else " (no scenario cites these clauses)"))
            else:
                row[v["verdict"]] += 1
    return out


def unreachable(verdicts: list[dict], readings: dict[str, dict]) -> list[dict]:
    """Returns the rules whose dropped condition, ability or step played exactly like the
    original: {rule, clauses, readings (ids of the readings of those clauses), changes}."""
    out: dict[str, dict] = {}
    for v in verdicts:
        if v["verdict"] != "unreachable":
            continue
        row = out.setdefault(v["rule"], {"rule": v["rule"], "clauses": [], "readings": [], "changes": []})
        row["changes"].append(v["change"])
        for cid in v["clauses"]:
            if cid not in row["clauses"]:
                row["clauses"].append(cid)
            for rid, r in readings.items():
                if cid in cited(r.get("clause")) and rid not in row["readings"]:
                    row["readings"].append(rid)
    return list(out.values())
