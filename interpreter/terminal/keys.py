"""What a person types to choose, and what the screen marks with it. An option is chosen by
its number, by the one-character key its space shows on a hex map, or by the id or name
of the space or object it names ("a5", "SS", "mushroom-4"), so a choice does not depend
on where the option happens to stand in a list that shifts between decisions."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..lang.runtime import Ctx
from . import names

COMMANDS = frozenset("vluqs?h")
LETTERS = "abcdefgijkmnoprtwxyz"       # the letters no command key uses


def option_space(g: Any, d: dict, option: Any) -> str | None:
    """The board space an option names: by the hints' option_space function, else the
    option itself when it is a space, else the last space in a list (a route's end)."""
    name = g.terminal.get("option_space")
    if name:
        fn, (param,) = g.functions[name], g.env.functions[name]
        try:
            option = fn(Ctx(d, g, {param: option}))
        except Exception:  # a failing hint marks nothing
            return None
    if isinstance(option, list):
        return next((x for x in reversed(option) if _is_space(g, d, x)), None)
    return option if _is_space(g, d, option) else None


def _is_space(g: Any, d: dict, x: Any) -> bool:
    return isinstance(x, str) and (x in g.adj or x in d.get("pos", {}))


def option_object(g: Any, d: dict, option: Any) -> str | None:
    """The object (a card, a piece, not a space) an option names: the option itself, or
    the first object of a list."""
    for x in option if isinstance(option, list) else [option]:
        if isinstance(x, str) and x in g.props and not _is_space(g, d, x) and x in d["loc"]:
            return x
    return None


@dataclass
class Keys:
    """The marks of one decision: the option each space or object stands for, the one
    character a hex cell shows for an option, and every word that chooses an option."""

    spaces: dict[str, int] = field(default_factory=dict)     # space -> option index
    objects: dict[str, int] = field(default_factory=dict)    # object -> option index
    chars: dict[int, str] = field(default_factory=dict)      # option index -> its hex-map key
    words: dict[str, int] = field(default_factory=dict)      # typed word -> option index
    count: int = 0

    def pick(self, raw: str) -> int | None | str:
        """The option a typed word chooses; None when it chooses none; a message when it
        could mean several."""
        raw = raw.strip().lower()
        if raw.isdigit():
            return int(raw) - 1 if 1 <= int(raw) <= self.count else None
        return self.words.get(raw)


def decision_keys(g: Any, d: dict, seat: int | None, taken: set[str] = frozenset()) -> Keys:
    """The marks and words of the decision `seat` faces now (none when it does not decide).
    `taken`: characters the hex map already shows, which a key must not look like."""
    pending = d["pending"]
    if pending is None or pending["player"] != seat:
        return Keys()
    k = Keys(count=len(pending["options"]))
    pool = [c for c in "123456789" + LETTERS if c.lower() not in {t.lower() for t in taken}]
    seen: dict[str, set[int]] = {}
    for i, opt in enumerate(pending["options"]):
        s, obj = option_space(g, d, opt), option_object(g, d, opt)
        if s is not None:
            k.spaces.setdefault(s, i)
            k.chars[i] = pool[i] if i < len(pool) else "+"
        if obj is not None:
            k.objects.setdefault(obj, i)
        shown = [names.name(g, d, x) for x in (s, obj) if x is not None]
        for word in _words(g, opt, s, obj) + [w.lower() for w in shown]:
            seen.setdefault(word, set()).add(i)
    for i, c in k.chars.items():
        if c != "+" and not c.isdigit():
            seen.setdefault(c, set()).add(i)
    k.words = {w: next(iter(ix)) for w, ix in seen.items() if len(ix) == 1 and w not in COMMANDS and not w.isdigit()}
    return k


def _words(g: Any, opt: Any, space: str | None, obj: str | None) -> list[str]:
    """The ids and names that stand for an option: its own text when it is a word, its
    space's id, label and name, its object's id and name."""
    out = [opt] if isinstance(opt, str) else []
    labels = g.terminal.get("board", {}).get("labels", {})
    for x in (space, obj):
        if x is not None:
            out += [x, labels.get(x, x), str(g.props.get(x, {}).get("name", x))]
    return [w.lower() for w in out if w]
