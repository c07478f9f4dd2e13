"""Rule scenarios as data: given a position, when these choices, then these facts.

A scenario file (`definitions/<game>/scenarios/*.yaml`) lists small named cases, each
citing the rule clause it checks. `given` places objects, sets variables and loads the
dice; `start` is the program to run (a procedure call such as `turn(0)`, or one part of the turn
structure, `{part: turn, player: 0}`) instead of the
whole game; `when` answers decisions by label or number; `then` lists effect-language
conditions that must be true, or facts about the pending decision.
"""
from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .diagnostics import DefinitionError, Diagnostic
from .engine.game import CompiledGame, GameState
from .engine.invariants import conservation_problems
from .engine.state import move_object, new_state
from .engine.vm import FLOW_ENDED, run
from .lang.compiler import Compiler
from .lang.fast import mark_written
from .load.trees import kept_trees
from .lang.runtime import Ctx
from .load.build import load_game
from .load.expansion import with_own_expansion
from .load.files import display_path, read_part, resolve_game
from .scenario_checks import check_facts
from .words import plural


@dataclass
class Outcome:
    """One scenario's verdict."""

    name: str
    rule: Any
    where: str
    failures: list[str]
    seconds: float = 0.0

    @property
    def ok(self) -> bool:
        return not self.failures


def scenario_files(folder: Path) -> list[Path]:
    """Returns the scenario files of a game folder."""
    return sorted((folder / "scenarios").glob("*.yaml")) if (folder / "scenarios").is_dir() else []


def game_key(folder: Path | str, variants: tuple) -> tuple:
    """Returns what names one build of a game: its folder (resolved) and its variants, so
    a caller that built the game already (cairn validate) can hand it over in `games`."""
    found = resolve_game(folder)
    return (str(found.resolve()) if found is not None else str(folder), tuple(variants))


def _game_of(path: Path, data: dict, variants: tuple, games: dict, lean: bool = False) -> CompiledGame:
    here = Path(path).resolve().parents[1]     # a bare file name has no parents of its own
    where = here if (here / "game.yaml").is_file() else data["game"]
    key = game_key(where, variants)
    if key not in games:
        games[key] = load_game(where, list(variants), lean=lean)
    return games[key]


def _variants(path: Path, data: dict, sc: dict) -> tuple:
    # A variant may be an overlay file next to the scenarios (an expansion kept apart).
    # A file of an expansion folder's scenarios/ runs with that expansion (load/expansion.py).
    return with_own_expansion(path, tuple(str(Path(path).parent / v) if v.endswith((".yaml", ".yml")) else v
                                          for v in tuple(data.get("variants", [])) + tuple(sc.get("variants", []))))


def static_problems(path: Path, games: dict | None = None) -> list[Diagnostic]:
    """Returns what a scenario file names that does not exist (clause ids, objects,
    places, players' and game variables, parts and rules it starts), without running it.
    The programs it starts are parsed from the trees kept for its folder, as a game's are."""
    with kept_trees(str(Path(path).resolve().parent)):
        return _static_problems(path, games)


def _static_problems(path: Path, games: dict | None) -> list[Diagnostic]:
    loaded, problems = read_part(path, display_path(path), "scenario")
    if loaded is None:
        return problems
    out: list[Diagnostic] = []
    games = {} if games is None else games
    for i, sc in enumerate(loaded.data["scenarios"]):
        try:
            g = _game_of(path, loaded.data, _variants(path, loaded.data, sc), games, lean=True)
        except DefinitionError as err:
            return err.diagnostics
        at = ("scenarios", i)
        if g.clauses:
            from .load.citations import cited
            for cid in cited(sc["rule"]):
                if cid not in g.clauses:
                    from .diagnostics import suggest
                    out.append(loaded.diag(at + ("rule",), f"no clause '{cid}' in rules.yaml" + suggest(cid, g.clauses)))
        given = sc.get("given", {})
        n = sc.get("players", g.min_players)
        places = set(g.place_ids(n))
        objects = {o for o, _k, _s in g.components}
        for place, objs in given.get("places", {}).items():
            if place not in places:
                out.append(loaded.diag(at + ("given", "places", place), f"no place '{place}' at {plural(n, 'player')}", at_key=True))
            for j, obj in enumerate(objs):
                if obj not in objects:
                    out.append(loaded.diag(at + ("given", "places", place, j), f"no object '{obj}'"))
        for obj, first, second in placed_twice(given.get("places", {})):
            j = [k for k, o in enumerate(given["places"][second]) if o == obj][-1 if first == second else 0]
            out.append(loaded.diag(at + ("given", "places", second, j),
                                   f"'{obj}' is placed at '{first}' and again at '{second}': an object is in one place"))
        for obj in given.get("attrs", {}):
            if obj not in objects and obj not in g.props:
                out.append(loaded.diag(at + ("given", "attrs", obj), f"no object '{obj}'", at_key=True))
        for k in given.get("game", {}):
            if k not in g.game_vars:
                out.append(loaded.diag(at + ("given", "game", k), f"no game variable '{k}'", at_key=True))
        for p, pv in enumerate(given.get("players", [])):
            for k in pv:
                if k not in g.player_vars:
                    out.append(loaded.diag(at + ("given", "players", p, k), f"no player variable '{k}'", at_key=True))
        start = sc.get("start")
        try:
            if isinstance(start, dict):
                _part(g, start)
            elif start:
                _compile_program(g, start, f"scenario:{sc['name']}")
        except (ValueError, DefinitionError) as err:
            msg = err.diagnostics[0].message if isinstance(err, DefinitionError) else str(err)
            out.append(loaded.diag(at + ("start",), f"start: {msg}"))
    return problems + out


def run_file(path: Path, select: Any = None) -> list[Outcome]:
    """Runs every scenario of a file (or those `select` accepts); a malformed file raises
    DefinitionError."""
    loaded, problems = read_part(path, display_path(path), "scenario")
    if loaded is None:
        raise DefinitionError(problems)
    data = loaded.data
    out: list[Outcome] = []
    games: dict[tuple, CompiledGame] = {}
    for i, sc in enumerate(data["scenarios"]):
        if select is not None and not select(sc):
            continue
        pos = loaded.pos(("scenarios", i))
        where = f"{loaded.file}:{pos.line}:{pos.column}"
        start = time.perf_counter()
        outcome = run_one(_game_of(path, data, _variants(path, data, sc), games), sc, where)
        outcome.seconds = time.perf_counter() - start
        out.append(outcome)
    return out


def _compile_program(g: CompiledGame, text: str, name: str) -> str:
    comp = Compiler(g.env)
    prog = comp.program(name, text)
    if prog is None:
        e = comp.errors[0]
        raise DefinitionError([Diagnostic(name, e.line, e.column, e.message)])
    prog.file = name
    g.programs[name] = prog
    return name


def _part(g: CompiledGame, start: dict) -> str:
    """Returns the program of one part of the turn structure (`start: {part: id, player: p}`)."""
    key = f"part:{start['part']}"
    if key not in g.programs:
        from .diagnostics import suggest
        parts = [k[5:] for k in g.programs if k.startswith("part:")]
        raise ValueError(f"start: no part '{start['part']}' in the turn structure" + suggest(start["part"], parts))
    takes = g.programs[key].params
    if takes and "player" not in start:
        raise ValueError(f"start: part '{start['part']}' runs for a player; add player: <seat>")
    if not takes and "player" in start:
        raise ValueError(f"start: part '{start['part']}' runs for no player; leave player out")
    return key


def setup_state(g: CompiledGame, sc: dict) -> GameState:
    """Returns the scenario's starting state: objects at their start places, then `given`."""
    n = sc.get("players", g.min_players)
    places: dict[str, list[str]] = {p: [] for p in g.place_ids(n)}
    for obj, _kind, start in g.components:
        places[start].append(obj)
    start = sc.get("start")
    if isinstance(start, dict):
        main = _part(g, start)
    else:
        main = _compile_program(g, start, f"scenario:{sc['name']}") if start else g.main
    d = new_state(n, sc.get("seed", 0), places, g.player_vars, g.game_vars, main)
    if isinstance(start, dict) and "player" in start:
        d["frames"][0]["l"] = {"p": start["player"]}
    given = sc.get("given", {})
    twice = placed_twice(given.get("places", {}))
    if twice:
        obj, first, second = twice[0]
        raise ValueError(f"given.places: '{obj}' is placed at '{first}' and again at '{second}': "
                         "an object is in one place")
    for place, objs in given.get("places", {}).items():
        if place not in d["places"]:
            raise ValueError(f"given.places: no place '{place}'")
        for obj in objs:
            if obj not in d["loc"]:
                raise ValueError(f"given.places: no object '{obj}'")
            move_object(d, obj, place)
    for obj, attrs in given.get("attrs", {}).items():
        d["attrs"].setdefault(obj, {}).update(attrs)
        for name in attrs:
            mark_written(g.env, name)       # a printed value may now be hidden (lang/fast.py)
    for p, pv in enumerate(given.get("players", [])):
        for k, v in pv.items():
            if k not in d["pvars"][p]:
                raise ValueError(f"given.players[{p}]: no player variable '{k}'")
            d["pvars"][p][k] = v
    for k, v in given.get("game", {}).items():
        if k not in d["gvars"]:
            raise ValueError(f"given.game: no game variable '{k}'")
        d["gvars"][k] = v
    d["forced_rolls"] = list(given.get("dice", []))
    state = GameState(g, d)
    if given.get("run"):
        d["frames"].append({"p": _compile_program(g, given["run"], f"given:{sc['name']}"),
                            "pc": 0, "l": {}, "d": 0, "r": None})
    run(g, d)
    _part_over(state, sc)
    return state


def placed_twice(places: dict[str, list[str]]) -> list[tuple[str, str, str]]:
    """Returns (object, first place, second place) for every object `given.places` puts
    in two places (or twice in one): moved in turn, the last would silently win and the
    scenario would test another position than the one written."""
    seen: dict[str, str] = {}
    out = []
    for place, objs in places.items():
        for obj in objs:
            if obj in seen:
                out.append((obj, seen[obj], place))
            else:
                seen[obj] = place
    return out


def _part_over(state: GameState, sc: dict) -> bool:
    """Returns whether the part (or program) a scenario started has run to its end. Its
    end is not the game's: the VM finishes a game whose flow runs out, which is right for
    the whole game, but a scenario that runs one part asks what that part does, so the
    game goes on (`terminal: false`) unless the rules ended it (`end_game`)."""
    d = state.d
    if sc.get("start") is None or not d["terminal"] or (d["result"] or {}).get("reason") != FLOW_ENDED:
        return False
    d["terminal"], d["result"] = False, None
    if d["log"] and d["log"][-1][0].startswith(f"game over ({FLOW_ENDED})"):
        d["log"].pop()                  # the line finish() wrote: no game ended
    return True


def _choose(state: GameState, step: Any) -> str | None:
    """Answers the pending decision; returns a failure message or None."""
    dec = state.decision()
    if dec is None:
        return f"no decision is pending for step {step!r}"
    want = step["choose"] if isinstance(step, dict) else step
    by = step.get("by") if isinstance(step, dict) else None
    if by is not None and dec["player"] != by:
        return f"decision belongs to player {dec['player']}, not {by} ({dec['prompt']})"
    if isinstance(want, int):
        if not 0 <= want < len(dec["labels"]):
            return f"option {want} out of range ({len(dec['labels'])} options)"
        state.apply_action(want)
        return None
    if want not in dec["labels"]:
        return f"{want!r} is not an option of '{dec['prompt']}': {dec['labels']}"
    state.apply_action(dec["labels"].index(want))
    return None


def run_one(g: CompiledGame, sc: dict, where: str) -> Outcome:
    """Runs one scenario and returns its verdict."""
    failures: list[str] = []
    try:
        state = setup_state(g, sc)
    except (ValueError, DefinitionError) as err:
        return Outcome(sc["name"], sc["rule"], where, [f"given: {err}"])
    for step in sc.get("when", []):
        if state.is_terminal():
            failures.append(f"game ended before step {step!r}: {state.d['result']}")
            break
        if sc.get("start") is not None and not state.d["frames"]:
            failures.append(f"the part started ran to its end before step {step!r}")
            break
        problem = _choose(state, step)
        _part_over(state, sc)
        if problem:
            failures.append(problem)
            break
    d = state.d
    if d["result"] and d["result"].get("aborted"):
        failures.append(f"aborted: {d['result']['aborted']}")
    failures.extend(conservation_problems(g, d))
    for check in sc.get("then", []):
        failures.extend(_check(g, state, check))
    return Outcome(sc["name"], sc["rule"], where, failures)


def _check(g: CompiledGame, state: GameState, check: Any) -> list[str]:
    d = state.d
    if isinstance(check, str):
        comp = Compiler(g.env)
        fn = comp.expression(check)
        if fn is None:
            return [f"then {check!r}: {comp.errors[0].message}"]
        try:
            ok = fn(Ctx(d, g, {}))
        except Exception as err:  # a failing check is reported, not raised
            return [f"then {check!r}: {type(err).__name__}: {err}"]
        return [] if ok is True else [f"expected true: {check}  (got {ok!r})"]
    return check_facts(state, check)
