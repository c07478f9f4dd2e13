"""Abilities at play time: which objects' abilities count now, who controls them, and the
four kinds at work (triggered on events, activated in windows, static modifiers of
quantities, replacements of procedure calls).

An ability counts while its object is in one of the zones it names (`while_in`); a
board space's abilities always count. The controller (`me` in the ability's effect) is
the seat whose per-player zone holds the object, else the object's `owner` attribute.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from ..lang.runtime import WORK_BUDGET, Ctx, RuntimeProblem

ANYWHERE = None
BOARD = "board"        # in while_in: any board space


@dataclass(frozen=True)
class Ability:
    """One compiled ability of one object definition, shared by all its instances."""

    key: str                              # "<object definition id>#<index>"
    kind: str                             # triggered | activated | static | replacement
    objects: tuple[str, ...]              # the instances carrying it (a space: itself)
    zones: frozenset[str] | None          # where it counts; None: anywhere
    name: str = ""
    text: str = ""
    condition: Callable | None = None
    program: str | None = None            # the effect's program key
    event: str | None = None              # triggered
    optional: bool = False
    windows: tuple[str, ...] = ()         # activated
    cost: str | None = None
    can_pay: Callable | None = None
    limit: tuple[str, int, str | None] | None = None   # (per, n, group shared by several abilities)
    target: str | None = None             # static: the quantity; replacement: the procedure
    add: Callable | None = None
    times: Callable | None = None
    set: Callable | None = None
    order: int = 0                        # definition order among the game's abilities
    rank: dict = field(default_factory=dict)   # object -> its place among `objects`


@dataclass
class Filed:
    """Static or replacement abilities of one quantity or procedure. Those whose condition
    starts with `<argument> == this` are filed under that object, so a call only looks at
    the abilities of the object its argument names."""

    plain: list[Ability] = field(default_factory=list)
    by: dict[str, dict[str, list[Ability]]] = field(default_factory=dict)   # argument -> object -> abilities
    _groups: list | None = None        # the plain ones, by the zones they count in (built on first use)
    _mixed: bool = False               # whether what groups() finds must be sorted back
    _flat: dict = field(default_factory=dict)   # players -> flat() (built on first use)

    def groups(self) -> list[tuple[frozenset | None, list[tuple[Ability, str]], dict[str, list[Ability]]]]:
        """The plain abilities' (ability, object) pairs grouped by the zones they count in,
        so one look through a group's zones serves all of its abilities (28 footprint
        cards that count only on a player's board: one look at the boards)."""
        if self._groups is None:
            groups: dict = {}
            for ab in self.plain:
                pairs, by_obj = groups.setdefault(ab.zones, ([], {}))
                for obj in ab.objects:
                    pairs.append((ab, obj))
                    by_obj.setdefault(obj, []).append(ab)
            self._groups = [(z, pairs, by_obj) for z, (pairs, by_obj) in groups.items()]
            # found group by group or by place: put back in definition order (one group
            # counting everywhere is already in it)
            self._mixed = len(self._groups) > 1 or any(z is not None for z in groups)
        return self._groups

    def flat(self, g: Any, n: int) -> list[tuple[Ability, str, frozenset | None]] | None:
        """Returns the plain abilities' (ability, object, places it counts in; None:
        anywhere) in definition order at n players, when some but few of them count only
        somewhere and none of those is a space or counts on `board` (else None: look
        group by group).
        Remembered per player count: a quantity is asked for at nearly every step, and
        asking a handful of objects where they are beats finding the zones' places and
        sizing their contents (a card game: one to three cards per quantity)."""
        hit = self._flat.get(n, False)
        if hit is False:
            hit = _flat_plan(g, n, self.plain)
            self._flat[n] = hit
        return hit

    def candidates(self, d: dict, g: Any, args: dict) -> list[tuple[Ability, str]]:
        """Returns (ability, object) pairs that may apply to a call (their object is where
        they count), in definition order."""
        flat = self._flat.get(d["n"], False)
        if flat is False:
            flat = self.flat(g, d["n"])
        if flat is not None:
            loc = d["loc"]
            out = [(ab, o) for ab, o, places in flat if places is None or loc[o] in places]
        else:
            out = self._grouped(d, g)
        if self.by:
            for name, by_object in self.by.items():
                obj = args.get(name)
                if type(obj) is str:
                    out.extend((ab, obj) for ab in by_object.get(obj, ()) if counts(d, g, ab, obj))
            if (self.plain or len(self.by) > 1) and len(out) > 1:
                out.sort(key=_definition_order)
        return out

    def _grouped(self, d: dict, g: Any) -> list[tuple[Ability, str]]:
        """The plain pairs that count now, found group by group (each group's zones looked
        through when they hold fewer objects than carry its abilities), in definition order."""
        out: list[tuple[Ability, str]] = []
        for zones, pairs, by_obj in self.groups():
            if zones is None:
                out.extend(pairs)
                continue
            places = g.zone_places(d["n"], zones)
            if places is None:
                out.extend((ab, o) for ab, o in pairs if counts(d, g, ab, o))
                continue
            contents = d["places"]
            if sum(map(len, map(contents.__getitem__, places))) >= len(pairs):
                loc = d["loc"]
                out.extend((ab, o) for ab, o in pairs if loc[o] in places)
            else:
                out.extend((ab, o) for pl in places for o in contents[pl] for ab in by_obj.get(o, ()))
        if self._mixed and len(out) > 1:
            out.sort(key=_definition_order)
        return out


FLAT_MAX = 8      # plain pairs counting only somewhere that flat() still asks one by one


def _flat_plan(g: Any, n: int, plain: list[Ability]) -> list[tuple[Ability, str, frozenset | None]] | None:
    """Filed.flat's answer, worked out: None when more than FLAT_MAX pairs count only
    somewhere (their zones' contents are then fewer to look through), when one counts
    on `board` or is carried by a space (where `counts` has its own reading), or when
    none counts only somewhere (the groups' one list, whole, is cheaper still)."""
    out = []
    zoned = 0
    for ab, o in sorted(((ab, o) for ab in plain for o in ab.objects), key=_definition_order):
        places = None
        if ab.zones is not None:
            places = g.zone_places(n, ab.zones)
            zoned += 1
            if places is None or o in g.adj or zoned > FLAT_MAX:
                return None
        out.append((ab, o, places))
    return out if zoned else None        # all count anywhere: the one group is them all


def _definition_order(pair: tuple[Ability, str]) -> tuple[int, int]:
    return pair[0].order, pair[0].rank.get(pair[1], 0)


@dataclass(frozen=True)
class Listener:
    """A game-level trigger (no objects) or a triggered ability, waiting for one event."""

    program: str
    condition: Callable | None
    ability: Ability | None = None
    order: int = 0                        # definition order among the event's listeners


@dataclass
class AbilityTable:
    """Every ability of a compiled game, indexed the way play looks them up. A triggered
    ability whose condition starts with `<field> == this` (the event names its object:
    `landed(s)` on a space, `played(c)` on a card) is filed under that object, so an
    event reaches only the abilities of the object it names."""

    listeners: dict[str, list[Listener]] = field(default_factory=dict)     # event -> the others
    targeted: dict[str, dict[str, dict[str, list[Listener]]]] = field(default_factory=dict)
    # event -> field -> object -> listeners
    activated: dict[str, list[Ability]] = field(default_factory=dict)      # window -> abilities
    statics: dict[str, Filed] = field(default_factory=dict)          # quantity -> abilities
    replacements: dict[str, Filed] = field(default_factory=dict)     # procedure program key -> abilities
    by_key: dict[str, Ability] = field(default_factory=dict)
    own: dict = field(default_factory=dict)      # (players, zones, seat) -> own_places
    plans: dict = field(default_factory=dict)    # (window, players, seat) -> window_plan

    def count(self) -> int:
        return len(self.by_key)


def controller(d: dict, obj: str) -> int | None:
    """Returns the seat controlling an object (see the module docstring), or None."""
    place = d["loc"].get(obj)
    if place is not None:
        _, sep, owner = place.partition("/")
        if sep:
            return int(owner)
    owner = d["attrs"].get(obj, {}).get("owner")
    return owner if type(owner) is int else None


def counts(d: dict, g: Any, ab: Ability, obj: str) -> bool:
    """Returns whether an ability of this object counts now (its object is where it says)."""
    if ab.zones is None:
        return True
    place = d["loc"].get(obj)
    if place is None:           # a board space carries its own abilities
        return True
    base = place.partition("/")[0]
    return base in ab.zones or (BOARD in ab.zones and place in g.adj)


def counting(d: dict, g: Any, ab: Ability) -> list[str] | tuple[str, ...]:
    """Returns the objects whose copy of an ability counts now, in definition order. When
    the zones it counts in hold fewer objects than carry it, those zones are looked
    through instead of every carrier (a deck of 28 cards, two of them in play)."""
    zones = ab.zones
    if zones is None:
        return ab.objects
    places = g.zone_places(d["n"], zones)
    if places is None:            # `board`: any space; look at every carrier
        return [o for o in ab.objects if counts(d, g, ab, o)]
    contents = d["places"]
    if sum(map(len, map(contents.__getitem__, places))) >= len(ab.objects):
        loc = d["loc"]
        return [o for o in ab.objects if loc[o] in places]
    rank = ab.rank
    found = [o for pl in places for o in contents[pl] if o in rank]
    if len(found) > 1:
        found.sort(key=rank.__getitem__)
    return found


def _locals(d: dict, obj: str, extra: dict) -> dict:
    return {**extra, "me": controller(d, obj), "this": obj}


def fired(g: Any, d: dict, event: str, fields: dict, c: Ctx | None = None) -> list[tuple[str, dict]]:
    """Returns (program, locals) for every trigger and ability answering an event, in order.
    `c`: the running context, in which a trigger's condition is evaluated as in a context
    of its own (its locals, a work budget of its own: a condition only reads those, the
    state and the game), without making one: most events are answered by a trigger whose
    condition does not hold."""
    table = g.abilities
    targeted = table.targeted.get(event)
    if not targeted:
        # Only listeners of every instance of the event: found in definition order, so
        # nothing to sort. A condition reads (never changes) the locals its effect gets.
        found: list[tuple[str, dict]] = []
        for t in table.listeners.get(event, ()):
            ab = t.ability
            if ab is None:
                l = dict(fields)
                cond = t.condition
                if cond is not None:
                    if c is None:
                        holds = cond(Ctx(d, g, l))
                    else:
                        keep_l, keep_w = c.l, c.w
                        c.l, c.w = l, [WORK_BUDGET]
                        try:
                            holds = cond(c)
                        finally:
                            c.l, c.w = keep_l, keep_w
                    if not holds:
                        continue
                found.append((t.program, l))
                continue
            for obj in counting(d, g, ab):
                l = _locals(d, obj, fields)
                if t.condition is None or t.condition(Ctx(d, g, l)):
                    found.append((t.program, l))
        return found
    out: list[tuple[int, str, dict]] = []
    for t in table.listeners.get(event, ()):
        ab = t.ability
        if ab is None:
            if t.condition is None or t.condition(Ctx(d, g, dict(fields))):
                out.append((t.order, t.program, dict(fields)))
            continue
        for obj in counting(d, g, ab):
            l = _locals(d, obj, fields)
            if t.condition is None or t.condition(Ctx(d, g, l)):
                out.append((t.order, t.program, l))
    if targeted:
        mixed = bool(out)
        for name, by_object in targeted.items():
            obj = fields.get(name)
            if type(obj) is not str:
                continue
            for t in by_object.get(obj, ()):
                if counts(d, g, t.ability, obj):
                    l = _locals(d, obj, fields)
                    if t.condition is None or t.condition(Ctx(d, g, l)):
                        out.append((t.order, t.program, l))
        if mixed or len(targeted) > 1:
            out.sort(key=lambda x: x[0])
    return [(program, l) for _o, program, l in out]


# ---- activated abilities ------------------------------------------------------------
def _uses(d: dict, per: str) -> dict:
    return d.setdefault("uses", {}).setdefault(per, {})


def _limit_key(ab: Ability, obj: str, p: int | None) -> str:
    """A group limit is counted per controlling seat; an ability's own, per object."""
    group = ab.limit[2]
    return f"{group}@{p}" if group else f"{ab.key}@{obj}"


def own_places(g: Any, table: AbilityTable, n: int, zones: frozenset[str] | None, p: int) -> frozenset[str] | None:
    """Returns seat p's own places of some zones when every one of them is a zone each
    player has (an object there is controlled by that place's owner), else None;
    remembered per (players, zones, seat): activated abilities are looked for at every
    decision that offers a window."""
    key = (n, zones, p)
    hit = table.own.get(key, False)
    if hit is False:
        hit = None
        if zones is not None and all((g.zones.get(z) or {}).get("per_player") for z in zones):
            hit = frozenset(f"{z}/{p}" for z in zones)
        table.own[key] = hit
    return hit


def _carried(g: Any, d: dict, table: AbilityTable, ab: Ability, p: int) -> list[str]:
    """The objects carrying an ability that count now and that p controls, in definition
    order: in the seat's own places where the ability counts only in zones each player
    has (no carrier elsewhere counts, nor has p as its controller), else as `counting`."""
    mine = own_places(g, table, d["n"], ab.zones, p)
    if mine is None:
        return [o for o in counting(d, g, ab) if controller(d, o) == p]
    loc = d["loc"]
    return [o for o in ab.objects if loc.get(o) in mine]


def window_plan(g: Any, table: AbilityTable, window: str, n: int, p: int) -> list | None:
    """Returns (ability, object, seat p's own places it counts in, its limit key) for
    every carrier of a window's activated abilities, in definition order, when each
    counts only in zones each player has (else None); remembered per (window, players,
    seat), so a window asked at every decision costs one look per carrier (a card game:
    eight cards in each player's area) and no limit key is built again."""
    key = (window, n, p)
    hit = table.plans.get(key, False)
    if hit is False:
        hit = []
        for ab in table.activated.get(window, ()):
            mine = own_places(g, table, n, ab.zones, p)
            if mine is None:
                hit = None
                break
            hit.extend((ab, o, mine, _limit_key(ab, o, p) if ab.limit is not None else None) for o in ab.objects)
        table.plans[key] = hit
    return hit


def _window_carried(g: Any, d: dict, table: AbilityTable, window: str, p: int) -> list[tuple[Ability, str, str | None]]:
    """(ability, object, limit key) for each activated ability of a window that counts
    now and that p controls, in definition order: by the window's plan when it has one."""
    plan = window_plan(g, table, window, d["n"], p)
    if plan is None:
        return [(ab, o, _limit_key(ab, o, p) if ab.limit is not None else None)
                for ab in table.activated.get(window, ()) for o in _carried(g, d, table, ab, p)]
    loc = d["loc"]
    return [(ab, o, lk) for ab, o, mine, lk in plan if loc.get(o) in mine]


def usable(g: Any, d: dict, window: str, p: int) -> list[list]:
    """Returns [ability key, object] for each activated ability `p` may use now in a window."""
    out = []
    table = g.abilities
    for ab, obj, lk in _window_carried(g, d, table, window, p):
        if lk is not None and _uses(d, ab.limit[0]).get(lk, 0) >= ab.limit[1]:
            continue
        c = Ctx(d, g, {"p": p, "me": p, "this": obj})       # its controller is p (above)
        if ab.condition is not None and not ab.condition(c):
            continue
        if ab.can_pay is not None and not ab.can_pay(c):
            continue
        out.append([ab.key, obj])
    return out


def note_use(g: Any, d: dict, key: str, obj: str) -> None:
    """Counts one use of an activated ability against its limit."""
    ab = g.abilities.by_key[key]
    if ab.limit is not None:
        uses = _uses(d, ab.limit[0])
        k = _limit_key(ab, obj, controller(d, obj))
        uses[k] = uses.get(k, 0) + 1


def label(g: Any, key: str, obj: str) -> str:
    ab = g.abilities.by_key[key]
    name = ab.name or str(g.props.get(obj, {}).get("name", obj))
    return f"{name}: {ab.text}" if ab.text else name


# ---- turn and round bookkeeping -----------------------------------------------------
def period_ends(d: dict, per: str) -> None:
    """Ends a turn or round: its use counts and its temporary modifiers lapse."""
    uses = d.get("uses")
    if uses and per in uses:
        del uses[per]
    mods = d.get("mods")
    if mods:
        d["mods"] = [m for m in mods if m["until"] != per]


# ---- static abilities and temporary modifiers ---------------------------------------
def quantity(name: str, base: Callable, params: tuple[str, ...], statics: Filed | None) -> Callable:
    """Returns a quantity function: its base formula changed by every static ability that
    counts (set, then times, then add, each in definition order) and by temporary
    modifiers (verb `modify`) whose arguments match."""
    filed = statics or Filed()

    def value(c: Ctx) -> Any:
        v = base(c)
        d, g, args = c.s, c.g, c.l
        mods = d.get("mods")
        candidates = filed.candidates(d, g, args)
        if not candidates and not mods:
            return v
        sets, times, adds = [], [], []
        for ab, obj in candidates:
            cc = Ctx(d, g, _locals(d, obj, args), c.w)
            if ab.condition is not None and not ab.condition(cc):
                continue
            if g.trace is not None:
                g.trace.add(f"ability:{ab.key}")
            if ab.set is not None:
                sets.append(ab.set(cc))
            if ab.times is not None:
                times.append(ab.times(cc))
            if ab.add is not None:
                adds.append(ab.add(cc))
        for m in mods or ():
            if m["q"] == name and all(args.get(k) == m["args"][i] for i, k in enumerate(params[:len(m["args"])])):
                for op, bucket in (("set", sets), ("times", times), ("add", adds)):
                    if op in m:
                        bucket.append(m[op])
        if sets:
            v = sets[-1]
        try:
            for t in times:
                v = v * t
            for a in adds:
                v = v + a
        except TypeError:
            raise RuntimeProblem(f"cannot modify quantity {name} ({v!r}) by {times + adds!r}") from None
        return v
    if statics is None:
        # no static ability names this quantity in this build: only a temporary modifier
        # (verb `modify`) can change it, and most of the time none of those in force names
        # it (a formula only reads the state, so the modifiers are the same before it)
        def unmodified(c: Ctx) -> Any:
            mods = c.s.get("mods")
            return value(c) if mods and _names(mods, name) else base(c)
        return unmodified
    return value


def _names(mods: list[dict], name: str) -> bool:
    """Whether a temporary modifier in force names a quantity (else its base formula is
    its value: no need to look for static abilities and match arguments)."""
    for m in mods:
        if m["q"] == name:
            return True
    return False


# ---- replacements --------------------------------------------------------------------
def replacement(g: Any, d: dict, key: str, args: dict, done: list | None) -> tuple[str, dict, list] | None:
    """Returns (program, locals, applied) of the first replacement of a procedure call that
    counts, holds and has not already replaced this call, or None."""
    for ab, obj in g.abilities.replacements[key].candidates(d, g, args):
        rid = f"{ab.key}@{obj}"
        if done and rid in done:
            continue
        l = _locals(d, obj, args)
        if ab.condition is not None and not ab.condition(Ctx(d, g, l)):
            continue
        return ab.program, l, (done or []) + [rid]
    return None
