"""Turns a game folder plus chosen variants into a CompiledGame, or a list of problems.

Pipeline: read and schema-check every file into one Spec (spec.py) -> apply variant
overlays (overlay.py) -> one small compiler per section: ids, objects and board
(objects.py), parameters and variables, procedures with their extensions, the steps of
the turn structure, abilities and triggers (abilities.py), the structure itself
(structure.py), functions and quantities, scoring. Every problem is collected; the
game is returned only when there were none.
"""
from __future__ import annotations

import gc
import hashlib
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

from ..diagnostics import Diagnostic, DefinitionError, blame_overlays, blame_removals, suggest
from ..engine.abilities import fired, quantity
from ..engine.game import CompiledGame
from ..lang.compiler import CALL, RET, Compiler, Env
from ..lang import fast as fastsrc, memo, runner
from ..lang.parser import SyntaxProblem, parse
from ..lang.runtime import WORK_BUDGET
from ..verbs import load_all
from . import abilities, citations, code_cache, objects, structure, terminal
from .context import Compiling
from .expansion import expansion_hints, merge_hints, named
from .files import PART_FILES, display_path, given_once, read_part, resolve_game
from .reader import read_capped
from .overlay import apply_variants
from .spec import Spec, read_spec
from .trees import kept_trees

__all__ = ["build", "example_variants", "load_game", "list_variants", "read_spec"]


def build(folder: Path, variants: list[str], trace: bool = False,
          lean: bool = False) -> tuple[CompiledGame | None, list[Diagnostic]]:
    """Returns the compiled game (or None) and every problem found on the way. With
    `trace`, every step runs as a program of its own (for coverage, which notes them).
    `lean`: a build only checked, never played (cairn validate): no fast forms, fused
    blocks, runners or citation table, and programs shared with the other lean builds of
    the process where they compile alike (lang/memo.py)."""
    load_all()
    with no_cycle_collection(), kept_trees(str(Path(folder).resolve())):
        return _build(folder, variants, trace, lean)


@contextmanager
def no_cycle_collection() -> Iterator[None]:
    """Leaves Python's cycle collector off while a build (or a check made of several)
    allocates: a build makes a great many objects and almost no garbage, and each
    collection walks everything the process holds (a quarter of `cairn validate` went to
    it; reading the kept parse trees alone sets off dozens). Collection resumes after, so
    what garbage a build leaves is still collected: memory stays bounded."""
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()


def _build(folder: Path, variants: list[str], trace: bool, lean: bool = False
           ) -> tuple[CompiledGame | None, list[Diagnostic]]:
    spec, diags = read_spec(folder)
    given = list(variants)            # as named: ids, or overlay files (records keep these)
    variants = overlay_files(spec, variants, diags)
    for vid in variants:
        if vid not in spec.variants:
            diags.append(Diagnostic(display_path(folder), 1, 1, f"no variant '{vid}'"
                                    + suggest(vid, spec.variants)
                                    + (f"; known: {', '.join(sorted(spec.variants))}" if spec.variants else "")))
    if spec.meta_src is None:           # game.yaml unreadable: its own error says so; overlays
        return None, diags              # applied to nothing would only add noise
    variants = apply_variants(spec, variants, diags)
    hints = expansion_hints(given, diags)      # an expansion folder's terminal.yaml
    if spec.meta_src is None or spec.structure is None or spec.scoring is None:
        return None, _blamed(folder, spec, variants, diags, lean)
    # Compile even after problems (entries with schema problems were left out), so one run
    # reports every problem; the game is only returned when there were none.
    game, diags = _compile(Compiling(spec, diags, trace=trace, lean=lean), folder, variants, given, hints)
    return game, _blamed(folder, spec, variants, diags, lean)


def _blamed(folder: Path, spec: Spec, variants: list[str], diags: list[Diagnostic], lean: bool) -> list[Diagnostic]:
    """Returns the problems of a build with overlays, each blamed on the file that caused
    it: a problem in a base file that the base alone does not have is the overlays' doing,
    put on the removal that caused it (blame_removals) or else on the overlay's id. The
    base is built again only on this path (problems in base files), never for a clean build."""
    applied = [(v, spec.variants[v][0]) for v in variants if v in spec.variants]
    base_files = {display_path(folder / name) for name in (*PART_FILES, "terminal.yaml")}
    if not applied or not any(d.file in base_files for d in diags):
        return diags
    base = set(_build(folder, [], False, lean)[1])
    theirs = [d for d in diags if d in base]
    ours = blame_removals([d for d in diags if d not in base], spec.removed)
    return theirs + blame_overlays(ours, base_files, [(v, loaded.diag(("variant", "id"), "")) for v, loaded in applied])


def content_hash(folder: Path, overlays: list[Path]) -> str:
    """Returns a SHA-256 over the definition files a game was built from (its own files and
    the overlays applied, in order), so a record names exactly the rules it was played by."""
    h = hashlib.sha256()
    for name in sorted(PART_FILES):
        path = folder / name
        if path.is_file():
            h.update(name.encode() + b"\0" + read_capped(path) + b"\0")
    for path in overlays:
        h.update(b"overlay\0" + read_capped(path) + b"\0")
    return h.hexdigest()


def is_overlay_file(variant: str) -> bool:
    """Whether a --variant names an overlay (a file, or an expansion folder) kept outside
    the game folder, rather than one of the game's variant ids (load/expansion.py)."""
    n = named(variant)
    return n.overlay is not None or n.problem is not None


def overlay_files(spec: Spec, variants: list[str], diags: list[Diagnostic]) -> list[str]:
    """Reads the variants given as overlay files; returns every variant as an id."""
    out = []
    for v in variants:
        n = named(v)
        if n.problem is not None:
            diags.append(n.problem)
            continue
        if n.overlay is None:
            out.append(v)
            continue
        path = n.overlay
        if not os.path.lexists(path):      # anything else there is read, and refused with why
            diags.append(Diagnostic(v, 1, 1, "no such overlay file"))
            continue
        loaded, problems = read_part(path, display_path(path), "variant")
        diags.extend(problems)
        if loaded is None:
            continue
        vid = loaded.data["variant"]["id"]
        if vid in spec.variants and spec.variants[vid][1].resolve() != path.resolve():
            diags.append(loaded.diag(("variant", "id"), f"variant id '{vid}' is already a variant of the game"))
            continue
        spec.variants[vid] = (loaded, path)
        out.append(vid)
    out, twice = given_once(out, spec.variants)
    diags.extend(twice)
    return out


def _compile(cx: Compiling, folder: Path, variants: list[str], given: list[str], hints: list = ()
             ) -> tuple[CompiledGame | None, list[Diagnostic]]:
    spec = cx.spec
    world = objects.compile_objects(cx)
    params = _params(cx)
    cx.comp = Compiler(_env(spec, world, params))
    cx.comp.env.lean = cx.lean
    if cx.lean:
        memo.watch(cx.comp.env)     # its programs may be taken by, or from, another check's builds
    else:                           # (a lean build runs next to nothing: no code to keep)
        cx.comp.ns["_CODES"] = code_cache.store_for(folder)
    _function_trees(cx)
    inside = structure.scopes(cx)
    _procedures(cx)
    _effects(cx, world)
    structure.compile_steps(cx, inside)
    fields = _event_fields(cx, inside)
    quantities = {k: tuple(v[0].get("params", ())) for k, v in spec.sections["quantities"].items()}
    procedures = {k: tuple(v[0].get("params", ())) for k, v in spec.sections["procedures"].items()}
    table = abilities.compile_abilities(cx, fields, quantities, procedures)
    listened = set(table.listeners) | set(table.targeted)
    windows = {w for w in table.activated if w in inside}
    _check_windows(cx, table, inside)
    citations.check_citations(cx)
    citations.check_applies(cx, base=not variants)
    structure.compile_main(cx, inside, listened, windows)
    if not cx.lean:             # a build only checked never plays: its programs need no runners
        runner.attach(cx.programs, set(table.replacements), listened, cx.comp,
                      fired if runner.RUNNER_EVENTS else None)
    functions = _functions(cx, table, quantities)
    if cx.trace:
        functions = {k: _traced(k, f) for k, f in functions.items()}
    scoring = _scoring(cx)
    heuristic, tell_apart = _bot_hints(cx, {k for _o, k, _s in world.components})
    _check_vars(cx)
    terminal.check_hints(cx, functions, world.props)
    for more in hints:
        terminal.check_hints(cx, functions, world.props, more)
    if cx.diags:
        return None, cx.diags
    fastsrc.seal(cx.comp.env)       # every program is compiled: which attributes are printed only
    meta = spec.meta
    game = CompiledGame(
        id=meta["id"], name=meta["name"], version=meta["version"], variants=tuple(given),
        min_players=meta["players"]["min"], max_players=meta["players"]["max"],
        programs=cx.programs, main="main", functions=functions, effects=world.effects, props=world.props,
        attr_defaults={k: v for k, (v, _) in spec.attributes.items()},
        zones={k: v[0] for k, v in spec.sections["zones"].items()},
        dice={k: list(v[0]["faces"]) for k, v in spec.sections["dice"].items()},
        spaces=list(spec.sections["spaces"]), adj=world.adj, edge_list=[tuple(e) for e, _ in spec.edges],
        components=world.components,
        player_vars=_defaults(spec.player_vars, params), private_vars=set(spec.private),
        game_vars=_defaults(spec.game_vars, params),
        score=scoring[0], tiebreaks=scoring[1], win_if=scoring[2], abilities=table,
        payoff=scoring[3], payoff_range=scoring[4],
        heuristic=heuristic, tell_apart=tell_apart,
        internal_vars=set(spec.internal), legend=spec.legend,
        player_names=list(meta.get("player_names", [])),
        step_budget=spec.limits.get("steps", 200_000), work_budget=spec.limits.get("work", WORK_BUDGET),
        max_depth=spec.limits.get("depth", 64),
        max_trigger_depth=spec.limits.get("trigger_depth", 16),
        source_dir=str(folder), params=params, quantities=set(quantities),
        content_hash=content_hash(folder, [spec.variants[v][1] for v in variants]),
        window_names={n.id: n.data.get("name", n.id) for n in spec.nodes()}, printed=world.printed,
        clauses={k: v for k, (v, _s) in spec.sections["clauses"].items()},
        readings={k: v for k, (v, _s) in spec.sections["readings"].items()},
        # which rule carries which clause, for coverage and the rules' pages (a build
        # only checked, by validate, checks the citations above and keeps none)
        citations=[] if cx.lean else [(what, name, citations.cited(value), src.where)
                                      for what, name, value, src in citations.citing(cx)],
        meta={"rulebook": meta.get("rulebook", ""), "description": meta.get("description", ""),
              "box": {k: v for k, (v, _) in spec.box.items()},
              "variants": {k: v[0].data["variant"]["name"] for k, v in spec.variants.items()}},
    )
    game.kind_index = world.kind_index
    game.terminal = spec.terminal[0] if spec.terminal else {}
    for more, _src in hints:
        game.terminal = merge_hints(game.terminal, more)
    game.env = cx.comp.env
    return game, []


def _params(cx: Compiling) -> dict[str, dict]:
    """Returns the rule constants; a table by player count must cover every player count."""
    spec = cx.spec
    out: dict[str, dict] = {}
    lo, hi = spec.meta["players"]["min"], spec.meta["players"]["max"]
    for name, (entry, src) in spec.sections["params"].items():
        if ("value" in entry) == ("by_players" in entry):
            cx.diags.append(src.diag(f"parameter '{name}' needs either value: or by_players:", at_key=True))
            continue
        if "by_players" in entry:
            missing = [n for n in range(lo, hi + 1) if str(n) not in entry["by_players"]]
            if missing:
                cx.diags.append(src.diag(f"parameter '{name}' has no value for {', '.join(map(str, missing))} "
                                         "player(s)", ("by_players",)))
        out[name] = entry
    return out


def _defaults(table: dict[str, tuple[Any, Any]], params: dict[str, dict]) -> dict[str, Any]:
    """Returns variables' start values; `{param: name}` takes a parameter's value."""
    out = {}
    for k, (v, _src) in table.items():
        if isinstance(v, dict) and set(v) == {"param"} and v["param"] in params:
            v = params[v["param"]].get("value")
        out[k] = v
    return out


def _env(spec: Spec, world: objects.World, params: dict[str, dict]) -> Env:
    attributes = {"id", "name", "kind", "def", "text"} | set(spec.player_vars) | set(spec.attributes)
    for p in world.props.values():
        attributes |= set(p)
    fns = {k: tuple(v[0].get("params", ())) for k, v in spec.sections["functions"].items()}
    fns.update({k: tuple(v[0].get("params", ())) for k, v in spec.sections["quantities"].items()})
    zones, spaces = spec.sections["zones"], spec.sections["spaces"]
    return Env(procedures={k: tuple(v[0].get("params", ())) for k, v in spec.sections["procedures"].items()},
               functions=fns, places=set(zones) | set(spaces), zones=set(zones),
               objects={o for o, _k, _s in world.components}, spaces=set(spaces), dice=set(spec.sections["dice"]),
               game_vars=set(spec.game_vars), attributes=attributes, params=params,
               positional=set(spec.sections["functions"]) - set(spec.sections["quantities"]),
               kinds=dict(world.kind_index), props=world.props, player_vars=set(spec.player_vars),
               attr_defaults={k: v for k, (v, _) in spec.attributes.items()})


def _procedures(cx: Compiling) -> None:
    """Compiles each procedure; one with extensions becomes: before parts, body, after parts."""
    for name, (item, src) in cx.spec.sections["procedures"].items():
        params = tuple(item.get("params", ()))
        exts = cx.spec.extensions.get(name)
        if name in cx.comp.env.functions:
            cx.diags.append(src.diag(f"'{name}' is both a procedure and a function", at_key=True))
        if not exts:
            cx.program("proc:" + name, item["do"], src.at("do"), params)
            continue
        body = f"proc:{name}:body"
        cx.program(body, item["do"], src.at("do"), params)
        take = lambda c, ps=params: {k: c.l[k] for k in ps}  # noqa: E731
        code: list[tuple] = []
        afters: list[str] = []
        for i, (ext, esrc) in enumerate(exts):
            if "before" in ext:
                key = f"proc:{name}:before:{i}"
                if cx.program(key, ext["before"], esrc.at("before"), params):
                    code.append((CALL, key, take, None))
            if "after" in ext:
                key = f"proc:{name}:after:{i}"
                if cx.program(key, ext["after"], esrc.at("after"), params + ("result",)):
                    afters.append(key)
        code.append((CALL, body, take, "#result"))
        for key in afters:
            code.append((CALL, key, lambda c, ps=params: {**{k: c.l[k] for k in ps}, "result": c.l["#result"]}, None))
        code.append((RET, lambda c: c.l["#result"]))
        cx.generated("proc:" + name, code, src, params)


def _effects(cx: Compiling, world: objects.World) -> None:
    for key, (text, src) in world.effects_src.items():
        cx.program(f"effect:{key}", text, src, predefined=("me", "this"))


def _event_fields(cx: Compiling, inside: dict[str, bool]) -> dict[str, set[str]]:
    """Returns every event some rule emits or the structure announces, with its sure fields."""
    out = {k: set(v) for k, v in cx.comp.emitted.items()}
    for ev, f in list(structure.events(cx, inside).items()) + list(abilities.emits_of(cx).items()):
        out[ev] = out[ev] & f if ev in out else set(f)
    return out


def _check_windows(cx: Compiling, table: Any, inside: dict[str, bool]) -> None:
    known = set(inside) | cx.comp.windows
    for w, abs_ in table.activated.items():
        if w not in known:
            for ab in abs_:
                src = _ability_src(cx, ab.key)
                cx.diags.append(src.diag(f"window '{w}' is neither a step of the structure nor a window "
                                         "a rule opens with window(...)" + suggest(w, known), ("window",)))


def _ability_src(cx: Compiling, key: str) -> Any:
    def_id, _, i = key.rpartition("#")
    for d, _section, _objs, abs_ in abilities.bearers(cx):
        if d == def_id:
            return abs_[int(i)][1]
    return cx.spec.meta_src


def _functions(cx: Compiling, table: Any, quantities: dict[str, tuple]) -> dict[str, Any]:
    """The data functions and quantities, each as `f(c)` reading its arguments from c.l
    (for call_function and views); rules call the plain functions positionally."""
    out: dict[str, Any] = {}
    texts = _function_texts(cx)
    for name, (item, src) in cx.spec.sections["functions"].items():
        params = tuple(item.get("params", ()))
        fn = cx.comp.positional(name, texts[name], params)
        cx.report(src.at("expr"))
        if fn is None:
            continue
        if cx.trace:
            fn = cx.comp.ns["_U"][name] = _traced_positional(name, fn)
        out[name] = _by_dict(fn, params)
    for name, (item, src) in cx.spec.sections["quantities"].items():
        params = tuple(item.get("params", ()))
        fn = cx.expression(item["expr"], src.at("expr"), params)
        if fn is not None:
            out[name] = quantity(name, fn, params, table.statics.get(name))
    return out


def _function_texts(cx: Compiling) -> dict[str, str]:
    """Returns each data function's text."""
    return {name: ("true" if e else "false") if type(e) is bool else str(e)
            for name, (item, _src) in cx.spec.sections["functions"].items() for e in [item["expr"]]}


def _function_trees(cx: Compiling) -> None:
    """Gives the compiler every data function's parsed text before anything is compiled, so
    any rule may have one written inline in its fast form (lang/fast.py)."""
    env = cx.comp.env
    env.inline = not cx.trace           # coverage counts each function's calls: none inline
    texts = _function_texts(cx)
    for name, (item, _src) in cx.spec.sections["functions"].items():
        if name in env.positional:
            tree = parse(texts[name], expression=True)
            if not isinstance(tree, SyntaxProblem):
                env.fn_trees[name] = (tuple(item.get("params", ())), tree)


def _by_dict(fn: Any, params: tuple[str, ...]) -> Any:
    """A positional data function called the dict way, with its arguments in c.l."""
    def call(c: Any) -> Any:
        return fn(c, *[c.l[p] for p in params])
    return call


def _traced_positional(name: str, fn: Any) -> Any:
    key = f"fn:{name}"

    def traced(c: Any, *args: Any) -> Any:
        if c.g.trace is not None:
            c.g.trace.add(key)
        return fn(c, *args)
    return traced


def _traced(name: str, fn: Any) -> Any:
    """A function that notes its calls (coverage builds only)."""
    key = f"fn:{name}"

    def traced(c: Any) -> Any:
        if c.g.trace is not None:
            c.g.trace.add(key)
        return fn(c)
    return traced


def _scoring(cx: Compiling) -> tuple[Any, list, Any, Any, tuple[float, float]]:
    scoring, src = cx.spec.scoring
    score = cx.expression(scoring["score"], src.at("score"), ("me",))
    ties = [cx.expression(t, src.at("tiebreak", i), ("me",)) for i, t in enumerate(scoring.get("tiebreak", []))]
    win_if = cx.expression(scoring["win_if"], src.at("win_if"), ("me",)) if "win_if" in scoring else None
    return score, ties, win_if, *_payoff(cx, scoring.get("payoff"), src)


def _payoff(cx: Compiling, payoff: dict | None, src: Any) -> tuple[Any, tuple[float, float]]:
    """The payoff a game declares: None for win flags (the default), "zero-sum", or a
    compiled expression of `me`; with the range the adapters announce. A declared payoff
    other than win must say its range: OpenSpiel's algorithms rely on the bounds."""
    if not payoff or payoff.get("of") == "win":
        return None, (0.0, 1.0)
    where = src.at("payoff")
    lo_hi = payoff.get("range")
    if lo_hi is None or lo_hi[0] > lo_hi[1]:
        cx.diags.append(where.diag("payoff needs range: [least, most] (the least and the most a seat can get)"))
        return None, (0.0, 1.0)
    rng = (float(lo_hi[0]), float(lo_hi[1]))
    if payoff["of"] == "zero-sum":
        return "zero-sum", rng
    return cx.expression(payoff["of"], where.at("of"), ("me",)), rng


def _bot_hints(cx: Compiling, kinds: set[str]) -> tuple[Any, dict[str, tuple[str, ...]]]:
    """Returns the bots' hints in scoring.bots: the heuristic (compiled like the score, with
    `me`) and, by kind, the properties a seat can tell on a face-down object; a kind the
    game does not have is a problem at load."""
    scoring, src = cx.spec.scoring
    bots = scoring.get("bots") or {}
    here = src.at("bots")
    heuristic = cx.expression(bots["heuristic"], here.at("heuristic"), ("me",)) if "heuristic" in bots else None
    tell: dict[str, tuple[str, ...]] = {}
    for kind, props in (bots.get("tell_apart") or {}).items():
        if kind not in kinds:
            cx.diags.append(here.diag(f"tell_apart names kind '{kind}', which no component has"
                                      + suggest(kind, kinds), ("tell_apart", kind), at_key=True))
        tell[kind] = tuple(props)
    return heuristic, tell


def _check_vars(cx: Compiling) -> None:
    spec = cx.spec
    for table in (spec.game_vars, spec.player_vars, spec.attributes):
        for name, (value, src) in table.items():
            if isinstance(value, str) and value.lower() in ("none", "nil"):
                cx.diags.append(src.diag(f"'{name}: {value}' is the text \"{value}\" in YAML; write null "
                                         "for no value (the effect language's none)"))
            if isinstance(value, dict) and set(value) == {"param"} and value["param"] not in spec.sections["params"]:
                cx.diags.append(src.diag(f"no parameter '{value['param']}' for the start value of '{name}'"
                                         + suggest(str(value["param"]), spec.sections["params"])))
    for name in spec.internal:
        if name not in spec.game_vars and name not in spec.player_vars:
            cx.diags.append(spec.meta_src.diag(f"vars.internal names '{name}', which is not a variable"
                                               + suggest(name, list(spec.game_vars) + list(spec.player_vars))))


def load_game(spec: str | Path, variants: list[str] | tuple[str, ...] = (), lean: bool = False) -> CompiledGame:
    """Returns the compiled game for an id or folder; raises DefinitionError with every
    problem. `lean`: only to be checked (see build)."""
    folder = resolve_game(spec)
    if folder is None:
        raise DefinitionError([Diagnostic(str(spec), 1, 1, f"no game '{spec}' (a game id or a folder with game.yaml)")])
    game, diags = build(folder, list(variants), lean=lean)
    if game is None:
        raise DefinitionError(diags)
    return game


def list_variants(spec: str | Path) -> dict[str, str]:
    """Returns {variant id: name} for a game, without compiling it."""
    folder = resolve_game(spec)
    if folder is None:
        return {}
    s, _ = read_spec(folder)
    return {k: v[0].data["variant"]["name"] for k, v in s.variants.items()}


def example_variants(spec: str | Path) -> list[str]:
    """Returns the ids of a game's example expansions: variants whose content is invented
    for Cairn (`provenance: {kind: invented}`), not from the rulebook or a published product."""
    folder = resolve_game(spec)
    if folder is None:
        return []
    s, _ = read_spec(folder)
    return [k for k, v in s.variants.items()
            if (v[0].data["variant"].get("provenance") or {}).get("kind") == "invented"]
