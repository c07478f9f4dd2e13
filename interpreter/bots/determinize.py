"""A copy of a game as one seat might imagine it: hidden contents sampled from what the
seat observes, never read from the true arrangement (determinization, as in ISMCTS).

What is redrawn, and why each part:
- objects in places the seat cannot see are pooled by group, sorted by id (so the true
  order does not leak), shuffled with the bot's own RNG and dealt back: each place keeps
  how many objects of each group it holds, and a place holding several groups is put in
  a fresh random order. A group is what a seat could confuse face down: the same kind,
  and the same value of each property the game names in `scoring.bots.tell_apart` for
  that kind (e.g. a clan deck's clan and role: a seat knows its clan deck holds its
  leader, not where);
- other seats' private variables go back to their declared start values;
- a simultaneous step's secret choices already made by other seats are forgotten and
  those seats are asked again after the current one (the structure's `#c:`/`#o:` locals);
- the game's own RNG (future shuffles and dice) is reseeded from the bot's RNG;
- log lines private to other seats, and the list of past actions, are dropped.
Known limits: a seat's memory is not used (a card seen going into a pile is forgotten,
never leaked), and locals of another seat's procedure still running below a decision of
ours keep the ids they hold.
"""
from __future__ import annotations

from typing import Any

from ..engine import rng
from ..engine.game import GameState
from ..engine.state import clone_state, jcopy, set_place
from ..engine.view import visible


class Sampler:
    """Redraws the hidden parts of states for one seat; caches the game's groups."""

    def __init__(self, game: Any):
        self.game = game
        kinds = {o: k for o, k, _s in game.components}
        tell = game.tell_apart
        self._group = {o: (k, *[repr(game.props.get(o, {}).get(p)) for p in tell.get(k, ())])
                       for o, k in kinds.items()}
        self._hidden: dict[tuple[int, int], list[str]] = {}

    def hidden_places(self, n: int, seat: int) -> list[str]:
        """Returns the places the seat cannot see, in the state's fixed place order."""
        key = (n, seat)
        if key not in self._hidden:
            self._hidden[key] = [p for p in self.game.place_ids(n) if not visible(self.game, p, seat)]
        return self._hidden[key]

    def sample(self, state: GameState, seat: int, r: dict) -> GameState:
        """Returns a playable copy of `state` consistent with `seat`'s observation, drawing
        everything hidden with the bot's RNG state `r` (advanced in place)."""
        return self.deal(state, seat).draw(r, last=True)

    def deal(self, state: GameState, seat: int) -> "Deal":
        """Returns what every sample of `state` for `seat` shares, to draw many samples of
        one position (mcts's playouts of one decision) without working it out each time."""
        return Deal(self, state, seat)


class Deal:
    """The part of a sample fixed by the position: the copy with other seats' private
    variables reset, their secret choices forgotten and the log cut to the seat's lines
    (none of which draws at random), and the hidden objects pooled by group. Each draw
    copies that and deals the pools anew: the same draws, in the same order, as one
    sample made from scratch."""

    def __init__(self, sampler: Sampler, state: GameState, seat: int):
        g, d = sampler.game, state.d
        self.game = g
        e = clone_state(d)
        pvars = e["pvars"]
        for q, pv in enumerate(pvars):
            if q != seat and any(k in pv for k in g.private_vars):
                # written anew, as every player variable is (clones share the old dict)
                pvars[q] = {k: (jcopy(g.player_vars.get(k)) if k in g.private_vars else v) for k, v in pv.items()}
        _forget_choices(e, seat)
        e["log"] = [line for line in e["log"] if line[1] is None or line[1] == seat]
        e["log_on"] = False
        e["actions"] = []
        self._base: dict | None = e
        places, group = d["places"], sampler._group
        self._hidden = [p for p in sampler.hidden_places(d["n"], seat) if places[p]]
        pools: dict[tuple, list[str]] = {}
        self._counts: list[list[tuple[tuple, int]]] = []
        for place in self._hidden:
            here: dict[tuple, int] = {}
            for obj in places[place]:
                key = group[obj]
                pools.setdefault(key, []).append(obj)
                here[key] = here.get(key, 0) + 1
            self._counts.append(sorted(here.items()))
        # in a fixed order, each pool sorted: the RNG draws must not follow the true order
        self._pools = [(key, sorted(pools[key])) for key in sorted(pools)]

    def draw(self, r: dict, last: bool = False) -> GameState:
        """Returns one sample, drawn with the bot's RNG state `r` (advanced in place). The
        `last` draws into the deal's own copy, saving a copy; the deal is spent after it."""
        e = self._base
        if e is None:
            raise RuntimeError("this deal's last sample was drawn")
        if last:
            self._base = None
        else:
            e = clone_state(e)
        self._redeal(e, r)
        r["rng"], bits = rng.next_u64(r["rng"])
        e["rng"] = rng.seed_state(bits)
        return GameState(self.game, e)

    def _redeal(self, e: dict, r: dict) -> None:
        """Deals the hidden objects again: each place keeps how many of each group it
        holds; which ones, and their order in the place, come from the bot's RNG."""
        loc = e["loc"]
        pools = {}
        for key, pool in self._pools:
            pool = pool[:]
            rng.shuffle(r, pool)
            pools[key] = pool
        for place, here in zip(self._hidden, self._counts):
            new: list[str] = []
            for key, k in here:
                pool = pools[key]
                new += pool[-k:]
                del pool[-k:]
            if len(here) > 1:
                new.sort()
                rng.shuffle(r, new)
            set_place(e, place, new)
            for obj in new:
                loc[obj] = place


def _forget_choices(e: dict, seat: int) -> None:
    """Clears other seats' secret answers in a simultaneous step under way and has them
    asked again once the current seat has answered (their answers changed nothing yet)."""
    for frame in e["frames"]:
        local = frame["l"]
        for name, choices in local.items():
            if not name.startswith("#c:") or type(choices) is not list:
                continue
            it = local.get("#o:" + name[3:])
            if type(it) is not list or len(it) != 2:
                continue        # the asking is over: the step's resolve makes them known
            again = [q for q, c in enumerate(choices) if c is not None and q != seat]
            for q in again:
                choices[q] = None
            it[0] = list(it[0]) + again
