"""The picture's hints: terminal.yaml's `picture:` section over what the terminal's own
hints already say (colours of seats and kinds, glyphs, labels). Every look a game wants
is data here; the drawing code asks this module and never names a game."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from ..terminal.board import Look
from .svg import css

DEFAULT_PLAYERS = ["#d62728", "#e8c21a", "#2ca02c", "#2f6fd0", "#b03cb0", "#17becf"]
SPACE_FILL = "#eeeeee"
PIECE_FILL = "#9a9a9a"


@dataclass
class Hints:
    """One game's picture hints, with the seat's observation for what pieces look like."""

    g: Any
    obs: dict
    marks: dict[str, int] = field(default_factory=dict)     # space -> option index
    object_marks: dict[str, int] = field(default_factory=dict)  # object -> option index

    @property
    def terminal(self) -> dict:
        return self.g.terminal

    @property
    def picture(self) -> dict:
        return self.g.terminal.get("picture", {})

    @property
    def look(self) -> Look:
        return Look(self.g, self.obs)

    def size(self, default: float) -> float:
        return float(self.picture.get("size", default))

    def fill_of(self, key: Any) -> str | None:
        """The CSS colour the hints give a key (a kind, def, id or property value): the
        picture's fills, else the terminal's kind colours."""
        if not isinstance(key, str):
            return None
        own = self.picture.get("fills", {}).get(key)
        if own:
            return css(own)
        return css(self.terminal.get("colours", {}).get("kinds", {}).get(key))

    def player(self, p: Any) -> str | None:
        """A seat's colour: the picture's, else the terminal's, else a default."""
        if type(p) is not int or p < 0:
            return None
        mine = self.picture.get("players")
        if mine and p < len(mine):
            return css(mine[p])
        cols = self.terminal.get("colours", {}).get("players", [])
        if p < len(cols):
            return css(cols[p])
        return DEFAULT_PLAYERS[p % len(DEFAULT_PLAYERS)]

    def space_fills(self, space: str) -> list[str]:
        """A space's colours: one per value of the `fill_by` property (two terrains: two
        halves), else by its kind, else by its glyph; a light grey when nothing says."""
        props = self.g.props.get(space, {})
        by = self.picture.get("fill_by")
        if by:
            values = props.get(by)
            values = values if isinstance(values, list) else [values]
            fills = [f for f in (self.fill_of(v) for v in values) if f]
            if fills:
                return fills
        for key in (space, props.get("kind"), str(props.get("glyph", "")).lower() or None):
            f = self.fill_of(key)
            if f:
                return [f]
        return [SPACE_FILL]

    def label(self, space: str) -> str:
        """The text drawn on a space: the terminal's label for it, else its id."""
        return self.terminal.get("board", {}).get("labels", {}).get(space, space)

    def icon(self, space: str) -> str | None:
        """The small text for a space's `icon_by` property (None when it has none)."""
        by = self.picture.get("icon_by")
        if not by:
            return None
        value = self.g.props.get(space, {}).get(by)
        if value in (None, "", "none", False):
            return None
        return str(self.picture.get("icons", {}).get(str(value), value))

    def piece_fill(self, obj: str) -> str:
        """A piece's colour: the hints' pieces for its id, def or kind, else its own colour property
        (attribute first), else its owner's seat colour (the owner_by attribute or property),
        else its def's or kind's colour, else grey."""
        props, attrs = self.g.props.get(obj, {}), self.obs["attrs"].get(obj, {})
        for key in (obj, props.get("def"), props.get("kind")):
            f = self.picture.get("pieces", {}).get(key) if isinstance(key, str) else None
            if f:
                return css(f) or PIECE_FILL
        for prop in self.colour_props():
            value = attrs.get(prop, props.get(prop))
            own = self.fill_of(value) or css(value)
            if own:
                return own
        by = self.picture.get("owner_by", "owner")
        owner = attrs.get(by, props.get(by))
        return (self.player(owner) or self.fill_of(props.get("def")) or self.fill_of(props.get("kind"))
                or css(props.get("def")) or PIECE_FILL)

    def colour_props(self) -> list[str]:
        by = self.picture.get("colour_by", "colour")
        return [by] if by == "colour" else [by, "colour"]

    def glyph(self, obj: str) -> str:
        """A piece's mark: the picture's glyph for its id, def or kind, else the terminal's."""
        props = self.g.props.get(obj, {})
        own = self.picture.get("glyphs", {})
        for key in (obj, props.get("def"), props.get("kind")):
            if isinstance(key, str) and key in own:
                return own[key]
        return self.look.glyph(obj)

    def card(self) -> dict:
        return self.picture.get("card", {})

    def tip(self, obj: str) -> str:
        """An object's tooltip: its name, its printed text whole, and each of its abilities
        (kind, name, text) as the game's data gives them."""
        props = self.g.props.get(obj, {})
        lines = [str(props.get("name", obj)) + (f": {props['text']}" if props.get("text") else "")]
        for ab in self.g.abilities.by_key.values():
            if obj in ab.objects:
                said = " ".join(x for x in (ab.name, ab.text) if x) or ab.key
                lines.append(f"• {ab.kind}: {said}")
        return "\n".join(lines)
