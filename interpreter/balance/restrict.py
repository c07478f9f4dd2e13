"""Restricted play: a seat that never chooses an option naming one card or power (or
always chooses one when it can), played by any bot, to measure what that card is worth.

What an option names is read from the data, never from a game's names: an option is a
value (an object id, an ability key such as `ranknok#0`, or a list holding them, like
`["hunt", "gallimimus.2", 2, "hunt_label"]`); it names every object in it by the object's
definition (`gallimimus.2` is a copy of `gallimimus`) and every ability by its key, and an
ability also names the object definition that carries it. A *subject* is a definition id
(a card, whatever it is chosen for: played, hunted, spent) or an ability key (one named
power of a card).

The wrapper shows its bot the same position with the pending decision's options cut to
the allowed ones, and maps the bot's answer back: the bot searches exactly as it would
(greedy and mcts apply the cut options in their copies, since a decision stores the
option value chosen), and the game's state is never changed. A decision whose options all
name the subject (or none do) is left alone: the seat cannot avoid it, or has nothing to avoid.
"""
from __future__ import annotations

from typing import Any

from ..engine.game import CompiledGame, GameState

MODES = ("never", "always")


class Naming:
    """What each option of a game names: object definitions and ability keys."""

    def __init__(self, game: CompiledGame):
        self.defs = {o: str(p.get("def", o)) for o, p in game.props.items()}
        self.spaces = set(game.spaces)
        self.abilities = {k: k.split("#", 1)[0] for k in game.abilities.by_key}
        self._memo: dict[str, tuple[str, ...]] = {}

    def of_text(self, s: str) -> tuple[str, ...]:
        """Returns the subjects one string of an option names (none for a plain word)."""
        hit = self._memo.get(s)
        if hit is None:
            if s in self.abilities:
                hit = (s, self.abilities[s])
            elif s in self.defs and s not in self.spaces:
                hit = (self.defs[s],)
            else:
                hit = ()
            self._memo[s] = hit
        return hit

    def subjects(self, option: Any) -> set[str]:
        """Returns every subject an option names (walking lists and records)."""
        out: set[str] = set()
        stack = [option]
        while stack:
            x = stack.pop()
            if isinstance(x, str):
                out.update(self.of_text(x))
            elif isinstance(x, (list, tuple)):
                stack.extend(x)
            elif isinstance(x, dict):
                stack.extend(x.values())
        return out


def allowed(options: list, subject: str, mode: str, naming: Naming) -> list[int] | None:
    """Returns the indices a restricted seat may choose, or None when the restriction does
    not bite here (no option names the subject, or every option does)."""
    hits = [i for i, o in enumerate(options) if subject in naming.subjects(o)]
    if not hits or len(hits) == len(options):
        return None
    if mode == "always":
        return hits
    avoid = set(hits)
    return [i for i in range(len(options)) if i not in avoid]


class Restricted:
    """A bot that never (or always, when it can) chooses an option naming `subject`."""

    def __init__(self, inner: Any, subject: str, mode: str, naming: Naming):
        if mode not in MODES:
            raise ValueError(f"restricted play is 'never' or 'always', not {mode!r}")
        self.inner, self.subject, self.mode, self.naming = inner, subject, mode, naming
        self.bites = 0           # decisions where the restriction changed what was allowed
        self.name = f"{getattr(inner, 'name', 'bot')}[{mode} {subject}]"

    def step(self, state: GameState) -> int:
        """Returns the inner bot's choice among the allowed options, as an index of all of them."""
        pending = state.d["pending"]
        options = pending["options"]
        keep = allowed(options, self.subject, self.mode, self.naming) if len(options) > 1 else None
        if keep is None:
            return self.inner.step(state)
        self.bites += 1
        if len(keep) == 1:
            return keep[0]
        view = GameState(state.game, {**state.d, "pending": {**pending, "options": [options[i] for i in keep]}})
        return keep[self.inner.step(view)]

    def get_state(self) -> dict:
        return self.inner.get_state()

    def set_state(self, saved: dict) -> None:
        self.inner.set_state(saved)
