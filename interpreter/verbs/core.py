"""Verbs and queries on plain values, players, dice and the log."""
from __future__ import annotations

from typing import Any

from ..engine import rng
from ..lang.values import MAX_LOG_LINES
from ..lang.runtime import MAX_SEQUENCE, Ctx, RuntimeProblem, spend, text_of
from ..lang.registry import P, register


def _list(x: Any, who: str) -> list:
    if type(x) is not list:
        raise RuntimeProblem(f"{who}() needs a list, got {x!r}")
    return x


@register("log", P("text", "str"), P("to", "player", None))
def log(c: Ctx, text: Any, to: Any) -> None:
    """Writes a line to the game log; `to=player` (a seat number) keeps it private to that
    seat (and while a seat decides a simultaneous step in secret, every line it writes is
    kept to it). Any other `to` is an error. A log holds at most 100,000 lines: the rules
    may write 99,999, the last is the engine's "game over" line."""
    # `to` is what the views filter by and what a saved state may hold (checkstate), so a
    # line reaches the seat it names and the state reads back; the limit is the reader's.
    if c.s.get("log_on", True):
        if to is None:
            to = c.s.get("frozen")
        elif type(to) is not int or not 0 <= to < c.s["n"]:
            raise RuntimeProblem(f"log(): 'to' must be a seat from 0 to {c.s['n'] - 1} or none, got {_short(to)}")
        lines = c.s["log"]
        if len(lines) >= MAX_LOG_LINES - 1:
            raise RuntimeProblem(f"log(): the game log is full ({MAX_LOG_LINES - 1} lines written by the rules)")
        lines.append([text if type(text) is str else text_of(c, text), to])


def _short(x: Any) -> str:
    """Returns a value as an error names it: its repr, cut to a short excerpt."""
    r = repr(x)
    return r if len(r) <= 40 else r[:37] + "..."


@register("text", P("value"), pure=True)
def text(c: Ctx, value: Any) -> str:
    """Returns how a value reads (an object's name, a player's name, a number)."""
    return text_of(c, value)


@register("plural", P("n", "int"), P("word", "str"), P("words", "any", None), pure=True)
def plural(c: Ctx, n: int, word: str, words: Any) -> str:
    """Returns a count with its noun in the right number: plural(1, "spot") is "1 spot",
    plural(3, "spot") "3 spots"; `words` gives an irregular plural (plural(2, "die", "dice"))."""
    many = words if type(words) is str else word + "s"
    return f"{n} {word if n == 1 else many}"


@register("join", P("items", "list"), P("sep", "str", ", "), pure=True)
def join(c: Ctx, items: list, sep: str) -> str:
    """Returns the items as text, separated by `sep` (objects read as their names)."""
    spend(c, len(_list(items, "join")))
    out = sep.join(text_of(c, x) for x in items)
    spend(c, len(out))
    return out


@register("player_name", P("player", "player"), pure=True)
def player_name(c: Ctx, player: int) -> str:
    """Returns a seat's display name."""
    return c.g.player_name(player)


@register("roll", P("die", "die"))
def roll(c: Ctx, die: str) -> Any:
    """Rolls a die declared in components (uniform over its faces)."""
    faces = c.g.dice.get(die)
    if faces is None:
        raise RuntimeProblem(f"no die named {die!r}")
    forced = c.s.get("forced_rolls")
    if forced:
        # Scenarios load the dice: the next listed results come up first.
        value = forced.pop(0)
        if value not in faces:
            raise RuntimeProblem(f"forced roll {value!r} is not a face of {die!r}")
        return value
    return faces[rng.below(c.s, len(faces))]


@register("random_pick", P("items", "list"))
def random_pick(c: Ctx, items: list) -> Any:
    """Returns one item of a list chosen by the seeded RNG."""
    _list(items, "random_pick")
    if not items:
        raise RuntimeProblem("random_pick() of an empty list")
    return items[rng.below(c.s, len(items))]


@register("shuffled", P("items", "list"))
def shuffled(c: Ctx, items: list) -> list:
    """Returns a shuffled copy of a list (seeded RNG)."""
    out = list(_list(items, "shuffled"))
    spend(c, len(out))
    rng.shuffle(c.s, out)
    return out


@register("players", pure=True)
def players(c: Ctx) -> list[int]:
    """Returns every seat, 0 first."""
    return list(range(c.s["n"]))


@register("players_from", P("start", "player"), P("step", "int", 1), pure=True)
def players_from(c: Ctx, start: int, step: int) -> list[int]:
    """Returns every seat in turn order from `start` (step -1 goes the other way)."""
    n = c.s["n"]
    return [(start + step * i) % n for i in range(n)]


@register("next_player", P("player", "player"), P("step", "int", 1), pure=True)
def next_player(c: Ctx, player: int, step: int) -> int:
    """Returns the seat `step` places after `player` (clockwise is +1)."""
    return (player + step) % c.s["n"]


@register("count_turn", P("player", "player"))
def count_turn(c: Ctx, player: int) -> None:
    """Counts one turn taken (the game's turn total shows in records and simulations)."""
    c.s["turns"] += 1


@register("len", P("items"), pure=True)
def length(c: Ctx, items: Any) -> int:
    """Returns the number of items in a list, record or string."""
    try:
        return len(items)
    except TypeError:
        raise RuntimeProblem(f"len() of {items!r}") from None


@register("range", P("start", "int"), P("stop", "int", None), pure=True)
def range_(c: Ctx, start: int, stop: int | None) -> list[int]:
    """Returns [start, ..., stop-1], or [0, ..., start-1] with one argument."""
    r = range(start) if stop is None else range(start, stop)
    if len(r) > MAX_SEQUENCE:
        raise RuntimeProblem(f"range() of {len(r)} numbers; the limit is {MAX_SEQUENCE}")
    spend(c, len(r))
    return list(r)


@register("sum", P("items", "list"), pure=True)
def sum_(c: Ctx, items: list) -> Any:
    """Returns the total of a list of numbers (0 when empty)."""
    return sum(_list(items, "sum"))


@register("min", P("items", "list"), P("default", "any", None), pure=True)
def min_(c: Ctx, items: list, default: Any) -> Any:
    """Returns the smallest item, or `default` for an empty list."""
    return min(_list(items, "min")) if items else default


@register("max", P("items", "list"), P("default", "any", None), pure=True)
def max_(c: Ctx, items: list, default: Any) -> Any:
    """Returns the largest item, or `default` for an empty list."""
    return max(_list(items, "max")) if items else default


@register("abs", P("x", "int"), pure=True)
def abs_(c: Ctx, x: int) -> int:
    """Returns the size of a number without its sign."""
    return abs(x)


@register("any", P("items", "list"), pure=True)
def any_(c: Ctx, items: list) -> bool:
    """Returns whether any item is true."""
    return any(_list(items, "any"))


@register("all", P("items", "list"), pure=True)
def all_(c: Ctx, items: list) -> bool:
    """Returns whether every item is true (true for an empty list)."""
    return all(_list(items, "all"))


@register("count", P("items", "list"), P("value"), pure=True)
def count(c: Ctx, items: list, value: Any) -> int:
    """Returns how many items equal `value`."""
    return _list(items, "count").count(value)


@register("first", P("items", "list"), P("default", "any", None), pure=True)
def first(c: Ctx, items: list, default: Any) -> Any:
    """Returns the first item, or `default` for an empty list."""
    return _list(items, "first")[0] if items else default


@register("last", P("items", "list"), P("default", "any", None), pure=True)
def last(c: Ctx, items: list, default: Any) -> Any:
    """Returns the last item, or `default` for an empty list."""
    return _list(items, "last")[-1] if items else default


@register("slice", P("items", "list"), P("start", "int"), P("stop", "int", None), pure=True)
def slice_(c: Ctx, items: list, start: int, stop: int | None) -> list:
    """Returns items[start:stop]."""
    return _list(items, "slice")[start:stop]


@register("reverse", P("items", "list"), pure=True)
def reverse(c: Ctx, items: list) -> list:
    """Returns the items in the opposite order."""
    return list(reversed(_list(items, "reverse")))


@register("sort", P("items", "list"), pure=True)
def sort(c: Ctx, items: list) -> list:
    """Returns the items in ascending order."""
    return sorted(_list(items, "sort"))


# from this many items a dict finds the repeats sooner than the walk (timed: a short list
# walked is twice as quick as a dict built, a list of 16 half as quick)
UNIQUE_BY_DICT = 10


@register("unique", P("items", "list"), pure=True)
def unique(c: Ctx, items: list) -> list:
    """Returns the items without repeats, first occurrence kept (order is stable)."""
    spend(c, len(_list(items, "unique")) ** 2 // 4 + 1)
    if len(items) > UNIQUE_BY_DICT:
        try:
            # values that hash (texts, numbers): a dict's keys keep the first of equal ones,
            # as the walk below does, with no Python step an item
            return list(dict.fromkeys(items))
        except TypeError:           # a list or a record among them: compared one by one
            pass
    out: list = []
    for x in items:
        if x not in out:
            out.append(x)
    return out


@register("index_of", P("items", "list"), P("value"), pure=True)
def index_of(c: Ctx, items: list, value: Any) -> int:
    """Returns the position of `value` in the list, or -1."""
    try:
        return _list(items, "index_of").index(value)
    except ValueError:
        return -1


@register("without", P("items", "list"), P("value"), pure=True)
def without(c: Ctx, items: list, value: Any) -> list:
    """Returns the list with every item equal to `value` left out."""
    return [x for x in _list(items, "without") if x != value]


@register("record", pure=True)
def record(c: Ctx) -> dict:
    """Returns an empty record (fields are set with put())."""
    return {}


@register("put", P("rec"), P("key", "str"), P("value"), pure=True)
def put(c: Ctx, rec: dict, key: str, value: Any) -> dict:
    """Returns a copy of a record with one field set."""
    if type(rec) is not dict:
        raise RuntimeProblem(f"put() needs a record, got {rec!r}")
    if type(key) is not str:
        raise RuntimeProblem(f"put(): a record's keys are text, got {key!r}")
    spend(c, len(rec) + 1)
    out = dict(rec)
    out[key] = value
    return out
