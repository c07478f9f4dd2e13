"""Compiles the declared turn structure (rounds, turns, phases, steps) into the main program.

Each part may repeat (`while`, `until`, `times`, with a `counter`), run only `if` a
condition holds, and run once for each player (`players`: clockwise, counterclockwise or
a computed order, `from` a first player, `skip` some). A `turn` is a part run for each
player; every part's start and end are announced as events (`turn_start`, `step_end`,
and the qualified `step_end:<id>`) to whatever listens. A step's `do` is its own program
with `p` (the player it runs for) bound. A simultaneous step asks every player in secret:
each `do` returns that player's choice without changing the game, then `resolve` runs
with `choices` (one per seat). Activated abilities whose window names a step are offered
at its start. The result is ordinary VM code, so a game saves and clones anywhere in it.
"""
from __future__ import annotations

from typing import Any, Callable

from ..diagnostics import suggest
from ..engine.abilities import period_ends
from ..lang.runtime import RuntimeProblem
from ..lang.compiler import CALL, EMIT, EXPR, FOR_INIT, FOR_NEXT, JUMP, JUMPF, LET, RET, SETGAME, WINDOW
from .abilities import bearers
from .context import Compiling
from .spec import Node, Src


def _players_of(node: Node) -> Any:
    if "players" in node.data:
        return node.data["players"]
    return "clockwise" if node.kind == "turn" else None


def scopes(cx: Compiling) -> dict[str, bool]:
    """Returns {node id: whether its body runs for a player} and checks ids and keys."""
    out: dict[str, bool] = {}

    def walk(nodes: list[Node], inside: bool) -> None:
        for n in nodes:
            if n.id in out:
                cx.diags.append(n.src.diag(f"the structure uses the id '{n.id}' twice", (n.kind,)))
            mine = inside or _players_of(n) is not None
            out[n.id] = mine
            _check(cx, n, inside)
            walk(n.children, mine)
    walk(cx.spec.structure or [], False)
    return out


def _check(cx: Compiling, n: Node, inside: bool) -> None:
    d = n.data
    if d.get("simultaneous"):
        if _players_of(n) is None:
            cx.diags.append(n.src.diag("a simultaneous step needs players: (who decides)", ("simultaneous",)))
        if n.children or "do" not in d:
            cx.diags.append(n.src.diag("a simultaneous step needs do: (each player's secret decision, returned)"))
    elif "resolve" in d:
        cx.diags.append(n.src.diag("resolve: belongs to a simultaneous step", ("resolve",), at_key=True))
    if "counter" in d and d["counter"] not in cx.spec.game_vars:
        cx.diags.append(n.src.diag(f"counter: no game variable '{d['counter']}' (declare it under vars.game)"
                                   + suggest(d["counter"], cx.spec.game_vars), ("counter",)))
    if ("from" in d or "skip" in d) and _players_of(n) is None:
        cx.diags.append(n.src.diag("from:/skip: need players: on the same part", ("from" if "from" in d else "skip",),
                                   at_key=True))


def events(cx: Compiling, inside: dict[str, bool]) -> dict[str, set[str]]:
    """Returns the events the structure announces, each with the fields it always carries."""
    out: dict[str, set[str]] = {}
    for n in cx.spec.nodes():
        fields = {"id", "p"} if inside.get(n.id) else {"id"}
        if n.data.get("simultaneous"):
            fields = {"id", "p"} if _outer_player(cx, n) else {"id"}
        for edge in ("start", "end"):
            for ev in (f"{n.kind}_{edge}", f"{n.kind}_{edge}:{n.id}"):
                out[ev] = out.get(ev, fields) & fields
    return out


def _outer_player(cx: Compiling, target: Node) -> bool:
    """Whether a player is bound outside this node (an enclosing part runs per player)."""
    def walk(nodes: list[Node], inside: bool) -> bool | None:
        for n in nodes:
            if n is target:
                return inside
            found = walk(n.children, inside or _players_of(n) is not None)
            if found is not None:
                return found
        return None
    return bool(walk(cx.spec.structure or [], False))


def compile_steps(cx: Compiling, inside: dict[str, bool]) -> None:
    """Compiles every part's own programs: `do` (and a simultaneous step's `resolve`)."""
    for n in cx.spec.nodes():
        if n.data.get("simultaneous"):
            cx.program(f"step:{n.id}", n.data["do"], n.src.at("do"), ("p",))
            if "resolve" in n.data:
                outer = ("p",) if _outer_player(cx, n) else ()
                cx.program(f"step:{n.id}:resolve", n.data["resolve"], n.src.at("resolve"), ("choices",) + outer)
        elif "do" in n.data:
            cx.program(f"step:{n.id}", n.data["do"], n.src.at("do"), ("p",) if inside[n.id] else ())


class _Asm:
    """Writes the main program's instructions, each with the position of the part it runs."""

    def __init__(self, cx: Compiling):
        self.cx, self.code, self.where = cx, [], []

    def put(self, ins: tuple, src: Src) -> int:
        pos = src.loaded.pos(src.path)
        self.code.append(ins)
        self.where.append((pos.line, pos.column, src.loaded.file))
        return len(self.code) - 1

    def here(self) -> int:
        return len(self.code)

    def patch(self, at: int, target: int) -> None:
        self.code[at] = self.code[at][:-1] + (target,)


def compile_main(cx: Compiling, inside: dict[str, bool], listened: set[str], windows: set[str]) -> None:
    """Adds the program "main" (the whole turn structure, then the end of the game) and a
    program "part:<id>" for one pass of each part (rule scenarios start there): the part's
    body once, for the player `p` when it runs for a player (no if, repetition or turn order)."""
    lapsing = _lapsing(cx)
    asm = _Asm(cx)
    w = _Writer(cx, asm, listened, windows, lapsing)
    for n in cx.spec.structure or []:
        w.node(n, None)
    asm.put((RET, None), cx.spec.structure_src)
    cx.generated("main", asm.code, cx.spec.structure_src)
    cx.programs["main"].where = asm.where
    for n in cx.spec.nodes():
        asm = _Asm(cx)
        w = _Writer(cx, asm, listened, windows, lapsing)
        simultaneous = n.data.get("simultaneous")
        player = "#part" if (_outer_player(cx, n) if simultaneous else inside[n.id]) else None
        if player:
            asm.put((LET, player, lambda c: c.l["p"]), n.src)
        if simultaneous:
            w.simultaneous(n, player)
        else:
            w.body(n, player)
        asm.put((RET, None), n.src)
        cx.generated(f"part:{n.id}", asm.code, n.src, ("p",) if player else ())
        cx.programs[f"part:{n.id}"].where = asm.where


def _lapsing(cx: Compiling) -> frozenset[str]:
    """Returns the periods (turn, round) whose end may have something to lapse: use counts
    of activated abilities limited per that period, and temporary modifiers (verb `modify`,
    which only a game with quantities can use). The end of any other period does nothing."""
    if cx.spec.sections["quantities"]:
        return frozenset({"turn", "round"})
    out = set()
    for _def, _section, _objs, abilities in bearers(cx):
        for a, _src in abilities:
            limit = a.get("limit")
            if "activate" in a and isinstance(limit, dict):
                out.add(limit.get("per"))
    return frozenset(out)


def _const(value: Any) -> Callable:
    """A function of a constant, with the source a runner writes inline for it (no call)."""
    fn = lambda c: value  # noqa: E731
    fn.src, fn.reads = repr(value), ()
    return fn


def _local(name: str) -> Callable:
    """A function reading a local, with its source for a runner to write inline: it fails
    (a KeyError, only in a state made by hand) as the function would."""
    fn = lambda c: c.l[name]  # noqa: E731
    fn.src, fn.reads = f"l[{name!r}]", ()
    return fn


def _raw(fn: Callable, src: str) -> Callable:
    """Gives a function of the structure's own counters its source, for a runner to write
    inline (a repeated part's pass costs no call): written raw, it fails (only in a state
    made by hand) with the very error the function raises (lang/runner.py _Inline)."""
    fn.src, fn.raw = src, True
    return fn


def _nothing(c: Any) -> None:
    """The end of a period where nothing lapses: a runner writes it as no code at all. The
    instruction stays, so the main program's counters (saved in every game) keep their meaning."""


_nothing.src, _nothing.reads = "None", ()


class _Writer:
    def __init__(self, cx: Compiling, asm: _Asm, listened: set[str], windows: set[str],
                 lapsing: frozenset[str] = frozenset({"turn", "round"})):
        self.cx, self.asm, self.listened, self.windows = cx, asm, listened, windows
        self.lapsing = lapsing

    def cond(self, n: Node, key: str, player: str | None) -> Callable:
        fn = self.cx.expression(n.data[key], n.src.at(key), ("p",) if player else ())
        return fn or (lambda c: False)

    def node(self, n: Node, player: str | None) -> None:
        """Writes one part: if, repetition, players, then its announced body."""
        a, d = self.asm, n.data
        skip_all = a.put((JUMPF, self.cond(n, "if", player), -1), n.src) if "if" in d else None
        loop = self.repeat_head(n, player)
        if d.get("simultaneous"):
            self.simultaneous(n, player)
        elif _players_of(n) is not None:
            self.per_player(n, player)
        else:
            self.body(n, player)
        self.repeat_tail(n, player, loop)
        if skip_all is not None:
            a.patch(skip_all, a.here())

    # -- repetition ---------------------------------------------------------------------
    def repeat_head(self, n: Node, player: str | None) -> tuple[int, list[int]] | None:
        """Writes the head of a repeated part; returns (loop head, jumps that leave the loop)."""
        a, d = self.asm, n.data
        if not any(k in d for k in ("while", "until", "times", "counter")):
            return None
        k, t = f"#k:{n.id}", f"#t:{n.id}"
        a.put((LET, k, _const(0)), n.src)
        if "times" in d:
            a.put((LET, t, self.cond(n, "times", player)), n.src)
        head = a.here()
        exits = []
        if "times" in d:
            exits.append(a.put((JUMPF, _raw(lambda c: c.l[k] < c.l[t], f"l[{k!r}] < l[{t!r}]"), -1), n.src))
        if "while" in d:
            exits.append(a.put((JUMPF, self.cond(n, "while", player), -1), n.src))
        a.put((LET, k, _raw(lambda c: c.l[k] + 1, f"l[{k!r}] + 1")), n.src)
        if "counter" in d:
            a.put((SETGAME, d["counter"], _raw(lambda c: c.l[k], f"l[{k!r}]")), n.src)
        return head, exits

    def repeat_tail(self, n: Node, player: str | None, loop: tuple[int, list[int]] | None) -> None:
        if loop is None:
            return
        a, d = self.asm, n.data
        head, exits = loop
        if "until" in d:
            a.put((JUMPF, self.cond(n, "until", player), head), n.src)
        elif "while" in d or "times" in d:
            a.put((JUMP, head), n.src)
        # (a counter alone: one pass)
        for at in exits:
            a.patch(at, a.here())

    # -- players -------------------------------------------------------------------------
    def order(self, n: Node, player: str | None) -> Callable:
        how = _players_of(n)
        first = self.cond(n, "from", player) if "from" in n.data else (lambda c: 0)
        if isinstance(how, dict):
            fn = self.cx.expression(how["order"], n.src.at("players", "order"), ("p",) if player else ())
            return fn or (lambda c: [])
        step = 1 if how == "clockwise" else -1
        if "from" not in n.data:
            # from the first seat: the same order at every pass for a number of players
            known: dict[int, list[int]] = {}

            def fixed(c: Any) -> list[int]:
                n_ = c.s["n"]
                seats = known.get(n_)
                if seats is None:
                    seats = known[n_] = [(step * i) % n_ for i in range(n_)]
                return seats[:]              # the loop's own list, as a new order is
            return fixed

        def order(c: Any) -> list[int]:
            n_, f = c.s["n"], first(c)
            if type(f) is not int:
                raise RuntimeProblem(f"from: needs a seat, got {f!r}")
            return [(f + step * i) % n_ for i in range(n_)]
        return order

    def per_player(self, n: Node, player: str | None) -> None:
        a = self.asm
        it, slot = f"#o:{n.id}", f"#p:{n.id}"
        a.put((FOR_INIT, it, self.order(n, player)), n.src)
        head = a.put((FOR_NEXT, it, slot, -1), n.src)
        a.put((LET, "p", _local(slot)), n.src)
        if "skip" in n.data:
            skip = self.cond(n, "skip", slot)
            a.put((JUMPF, lambda c, f=skip: not f(c), head), n.src)
        self.body(n, slot)
        a.put((JUMP, head), n.src)
        a.patch(head, a.here())
        if player is not None:      # the enclosing part's player again
            a.put((LET, "p", _local(player)), n.src)

    def simultaneous(self, n: Node, player: str | None) -> None:
        a = self.asm
        choices, it, slot, got = f"#c:{n.id}", f"#o:{n.id}", f"#p:{n.id}", f"#r:{n.id}"
        self.announce(n, "start", player)
        a.put((LET, choices, lambda c: [None] * c.s["n"]), n.src)
        a.put((FOR_INIT, it, self.order(n, player)), n.src)
        head = a.put((FOR_NEXT, it, slot, -1), n.src)
        a.put((LET, "p", lambda c, s=slot: c.l[s]), n.src)
        if "skip" in n.data:
            skip = self.cond(n, "skip", slot)
            a.put((JUMPF, lambda c, f=skip: not f(c), head), n.src)
        a.put((EXPR, lambda c, s=slot: c.s.__setitem__("frozen", c.l[s])), n.src)
        a.put((CALL, f"step:{n.id}", lambda c, s=slot: {"p": c.l[s]}, got), n.src)
        a.put((EXPR, _unfreeze), n.src)
        a.put((EXPR, lambda c, s=slot: c.l[choices].__setitem__(c.l[s], c.l[got])), n.src)
        a.put((JUMP, head), n.src)
        a.patch(head, a.here())
        if player is not None:
            a.put((LET, "p", lambda c, s=player: c.l[s]), n.src)
        if "resolve" in n.data:
            a.put((CALL, f"step:{n.id}:resolve", self.args(player, {"choices": choices}), None),
                  n.src.at("resolve"))
        self.announce(n, "end", player)

    # -- the body of one pass ----------------------------------------------------------------
    def args(self, player: str | None, extra: dict[str, str] | None = None) -> Callable:
        names = dict(extra or {})
        if player is not None:
            names["p"] = player
        items = tuple(names.items())
        return lambda c: {k: c.l[v] for k, v in items}

    def announce(self, n: Node, edge: str, player: str | None) -> None:
        for ev in (f"{n.kind}_{edge}", f"{n.kind}_{edge}:{n.id}"):
            if ev in self.listened:
                nid = n.id
                if player is not None:
                    self.asm.put((EMIT, ev, lambda c, s=player: {"id": nid, "p": c.l[s]}), n.src)
                else:
                    self.asm.put((EMIT, ev, lambda c: {"id": nid}), n.src)

    def single(self, n: Node) -> tuple | None:
        """The one instruction a step's program runs, if it runs one call or emit and stops."""
        prog = self.cx.programs.get(f"step:{n.id}")
        if self.cx.trace or prog is None or len(prog.code) != 2 or prog.code[1] != (RET, None):
            return None
        ins = prog.code[0]
        return ins if ins[0] in (CALL, EMIT) else None

    def body(self, n: Node, player: str | None) -> None:
        a = self.asm
        if self.cx.trace:
            key = f"part:{n.id}"
            a.put((EXPR, lambda c: c.g.trace is not None and c.g.trace.add(key)), n.src)
        if n.kind == "turn":
            a.put((EXPR, _turn_begins), n.src)
        self.announce(n, "start", player)
        if n.id in self.windows:
            if player is None:
                self.cx.diags.append(n.src.diag(f"step '{n.id}' is an ability window but runs for no player "
                                                "(give it, or a part around it, players:)"))
            else:
                nid = n.id
                a.put((CALL, WINDOW, lambda c, s=player: {"w": nid, "p": c.l[s]}, None), n.src)
        if "do" in n.data:
            single = self.single(n)
            if single is not None:
                # A step that only calls a procedure (or emits an event) does so from here:
                # no frame of its own. The part it belongs to is noted for views.
                a.put((LET, "#step", _const(n.id)), n.src.at("do"))
                a.put(single, n.src.at("do"))
            else:
                a.put((CALL, f"step:{n.id}", self.args(player), None), n.src.at("do"))
        for child in n.children:
            self.node(child, player)
        self.announce(n, "end", player)
        if n.kind in ("turn", "round"):
            a.put((EXPR, _ends(n.kind) if n.kind in self.lapsing else _nothing), n.src)


def _turn_begins(c: Any) -> None:
    c.s["turns"] += 1


# written inline by a runner (a saved state's `turns` is an int: checkstate)
_turn_begins.src, _turn_begins.reads = "c.s.__setitem__('turns', c.s['turns'] + 1)", ()


def _unfreeze(c: Any) -> None:
    c.s.pop("frozen", None)


def _ends(per: str) -> Callable:
    def ends(c: Any) -> None:
        d = c.s
        if "uses" in d or "mods" in d:
            period_ends(d, per)
    return ends
