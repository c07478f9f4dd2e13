"""Writes the JSON Schemas in schemas/ from one table of shared definitions.

Every entry (a card, an ability, a step of the turn structure) is described once, in the
shared definitions (`defs.schema.json`), whether it stands in a base file or in an
overlay's add/replace; each file kind's schema has them written in, so validation does
not resolve references.
tests/test_packaging.py checks that the committed schemas match this script's output.
Usage: python3 tools/schemas.py [--check]
"""
from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BASE = "https://cairn.invalid/schemas/"
CLAUSE_KINDS = ("setup", "turn", "special", "end", "scoring", "variant", "solo", "components")
EVENT = "^[a-zA-Z_][a-zA-Z0-9_]*(:[a-z0-9][a-z0-9_.-]*)?$"
ID = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.-]*$", "maxLength": 80}
NAME = {"type": "string", "pattern": "^[a-zA-Z_][a-zA-Z0-9_]*$", "maxLength": 60}
# a rulebook's 1-based lines, "7", "12-14" or "40-41, 45", and the digest of their text
LINE_SPANS = {"type": "string", "pattern": "^[0-9]{1,6}(-[0-9]{1,6})?(, [0-9]{1,6}(-[0-9]{1,6})?){0,99}$"}
DIGEST = {"type": "string", "pattern": "^[0-9a-f]{8}$"}


def R(name: str) -> dict:
    """Returns a reference to a shared definition."""
    return {"$ref": f"defs.schema.json#/$defs/{name}"}


def L(name: str) -> dict:
    """Returns a reference inside defs.schema.json itself."""
    return {"$ref": f"#/$defs/{name}"}


def obj(props: dict, required: tuple = (), doc: str = "") -> dict:
    out: dict[str, Any] = {"type": "object", "additionalProperties": False}
    if doc:
        out["description"] = doc
    if required:
        out["required"] = list(required)
    out["properties"] = props
    return out


def table(item: dict, key: dict | None = None) -> dict:
    return {"type": "object", "propertyNames": key or NAME, "additionalProperties": item}


TEXT = {"type": "string", "maxLength": 20000}

ABILITY = obj({
    "on": {"type": "string", "pattern": EVENT, "maxLength": 140,
           "description": "triggered: the event (an engine event such as turn_start or step_end:ID, or one a rule emits)"},
    "activate": {**ID, "description": "activated: the ability's id, unique on its object"},
    "modifies": {**NAME, "description": "static: the quantity it changes"},
    "instead_of": {**NAME, "description": "replacement: the procedure whose call it replaces"},
    "name": {"type": "string"}, "text": {"type": "string"}, "doc": {"type": "string"}, "rule": L("rule"),
    "while_in": {"description": "the zones the object must be in for the ability to count, or 'anywhere'",
                 "anyOf": [{"const": "anywhere"}, L("ids")]},
    "if": L("expr"), "do": L("effect"),
    "optional": {"type": "boolean", "description": "a 'may' ability: its controller is asked first"},
    "window": {"type": "array", "items": L("id"), "minItems": 1, "maxItems": 50,
               "description": "activated: the steps or named windows it may be used in"},
    "limit": obj({"per": {"enum": ["turn", "round", "game"]},
                  "n": {"type": "integer", "minimum": 1, "maximum": 1000},
                  "group": {**ID, "description": "abilities of one group share the limit"}}, ("per", "n")),
    "cost": {**TEXT, "description": "activated: what is paid before the effect"},
    "can_pay": {**TEXT, "description": "activated: whether the cost can be paid now"},
    "add": L("expr"), "times": L("expr"), "set": L("expr"),
}, doc="one ability: triggered (on), activated (activate), static (modifies) or replacement (instead_of)")

NODE = obj({
    "round": L("id"), "turn": L("id"), "phase": L("id"), "step": L("id"),
    "name": {"type": "string"}, "doc": {"type": "string"}, "rule": L("rule"),
    "if": L("expr"), "while": L("expr"), "until": L("expr"), "times": L("expr"),
    "counter": {**NAME, "description": "a game variable set to 1, 2, ... at each repetition"},
    "players": {"description": "run once for each player: clockwise, counterclockwise, or {order: list expression}",
                "anyOf": [{"enum": ["clockwise", "counterclockwise"]}, obj({"order": L("expr")}, ("order",))]},
    "from": {**TEXT, "description": "the first player of the players iteration (default seat 0)"},
    "skip": {**TEXT, "description": "a player for whom this holds is skipped"},
    "simultaneous": {"type": "boolean",
                     "description": "each player decides in secret: do returns the choice and may not change the game; "
                                    "then resolve runs with `choices` (one per seat)"},
    "resolve": L("effect"), "do": L("effect"),
    "steps": {"type": "array", "items": L("node"), "maxItems": 200},
}, doc="a part of the turn structure, named by exactly one of round, turn, phase or step")

DEFS: dict[str, Any] = {
    "id": ID, "name": NAME, "effect": TEXT,
    "expr": {"type": ["string", "integer", "boolean"], "maxLength": 20000,
             "description": "an expression of the effect language (a plain number or true/false too)"},
    "names": {"type": "array", "items": L("name"), "maxItems": 20},
    "ids": {"type": "array", "items": L("id"), "maxItems": 500},
    # One schema, not anyOf of three: the array keywords only apply to arrays and the
    # object ones to objects, so it means the same, and a validator checks one branch
    # instead of failing two (a card grid of values checks 10x faster).
    "value": {"type": ["string", "integer", "boolean", "null", "array", "object"],
              "maxItems": 500, "items": L("value"), "maxProperties": 200, "additionalProperties": L("value")},
    "rule": {"description": "the rulebook clause(s) this entry carries",
             "anyOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}, "maxItems": 50}]},
    "provenance": obj({"kind": {"enum": ["rulebook", "reconstructed", "external", "invented"],
                                "description": "rulebook: given by it; reconstructed: named by it, filled in by the encoding; "
                                               "external: another stated source; invented: made up for Cairn (example expansions)"},
                       "section": {"type": "string"}, "source": {"type": "string"}, "note": {"type": "string"}},
                      ("kind",)),
    "props": table(L("value")),
    "zone": obj({"id": L("id"), "per_player": {"type": "boolean"},
                 "visibility": {"enum": ["public", "owner", "hidden"]}, "doc": {"type": "string"},
                 "display": {"enum": ["list", "count", "none"],
                             "description": "how the readable view shows the zone (default list)"},
                 "show": {**NAME, "description": "a function of one object giving the text the readable view shows for it"},
                 "rule": L("rule")},
                ("id",)),
    "die": obj({"id": L("id"), "faces": {"type": "array", "minItems": 1, "maxItems": 100,
                                         "items": {"type": ["integer", "string"]}},
                "provenance": L("provenance")}, ("id", "faces")),
    "ability": ABILITY,
    "abilities": {"type": "array", "items": L("ability"), "maxItems": 50},
    "component": obj({"id": L("id"), "kind": L("id"), "name": {"type": "string"},
                      "count": {"type": "integer", "minimum": 1, "maximum": 1000}, "start": L("id"),
                      "text": {"type": "string"}, "props": L("props"), "effect": L("effect"),
                      "abilities": L("abilities"), "provenance": L("provenance"), "printed": L("printed"),
                      "rule": L("rule")},
                     ("id", "kind", "start", "provenance")),
    "card": obj({"id": L("id"), "name": {"type": "string"}, "kind": L("id"),
                 "count": {"type": "integer", "minimum": 1, "maximum": 1000}, "start": L("id"),
                 "text": {"type": "string"}, "effect": L("effect"), "abilities": L("abilities"),
                 "props": L("props"), "provenance": L("provenance"), "printed": L("printed"), "rule": L("rule")},
                ("id", "name", "start", "provenance")),
    "printed": {"type": "boolean",
                "description": "printed on another component (an icon on a board or card): an object with an id, "
                               "text and abilities, but not a piece of the box inventory"},
    "space": obj({"id": L("id"), "kind": L("id"), "name": {"type": "string"},
                  "at": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
                  "text": {"type": "string"}, "abilities": L("abilities"), "props": L("props"), "rule": L("rule")},
                 ("id", "kind")),
    "edge": {"type": "array", "items": L("id"), "minItems": 2, "maxItems": 2},
    "procedure": obj({"params": L("names"), "do": L("effect"), "doc": {"type": "string"}, "rule": L("rule")},
                     ("do",)),
    "function": obj({"params": L("names"), "expr": L("expr"), "doc": {"type": "string"}, "rule": L("rule"),
                     "fixed": {"type": "string", "minLength": 1, "maxLength": 500,
                               "description": "why a function that computes a number from rule data is "
                                              "deliberately not a quantity (cairn lint's quantity check)"}},
                    ("expr",)),
    "trigger": obj({"on": {"type": "string", "pattern": EVENT, "maxLength": 140}, "if": L("expr"),
                    "do": L("effect"), "doc": {"type": "string"}, "rule": L("rule"), "params": L("names")},
                   ("on", "do")),
    "param": obj({"value": L("value"),
                  "by_players": {"type": "object", "propertyNames": {"pattern": "^[1-9][0-9]?$"},
                                 "additionalProperties": L("value")},
                  "doc": {"type": "string"}, "rule": L("rule")},
                 doc="a rule constant: one value, or a table by player count"),
    "param_value": {"description": "a new value for a parameter, or {by_players: {...}}",
                    "anyOf": [{"type": ["string", "integer", "boolean", "null", "array"]},
                              obj({"by_players": {"type": "object", "propertyNames": {"pattern": "^[1-9][0-9]?$"},
                                                  "additionalProperties": L("value")}, "rule": L("rule"),
                                   "doc": {"type": "string"}}, ("by_players",)),
                              obj({"value": L("value"), "rule": L("rule"), "doc": {"type": "string"}}, ("value",))],
                    "$comment": "rule: clauses the new value carries, cited besides the parameter's own; "
                                "doc: replaces the parameter's"},
    "node": NODE,
    "structure": {"type": "array", "items": L("node"), "minItems": 1, "maxItems": 200},
    "scoring": obj({"score": L("expr"), "tiebreak": {"type": "array", "items": L("expr"), "maxItems": 10},
                    "doc": {"type": "string"}, "rule": L("rule"),
                    "win_if": {**TEXT, "description": "a seat with the best score wins only if this holds for it"},
                    "payoff": obj({"of": {**L("expr"), "description": "win (1 for each winner, 0 for the "
                                          "others: the default), zero-sum (a seat's score less the mean "
                                          "score), or an expression of `me`"},
                                   "range": {"type": "array", "items": {"type": "number"}, "minItems": 2,
                                             "maxItems": 2, "description": "the least and the most a seat "
                                             "can get (OpenSpiel's min and max utility)"},
                                   "doc": {"type": "string"}}, ("of",),
                                  doc="what each seat gets when the game ends (state.returns(), the adapters)"),
                    "bots": obj({"heuristic": {**L("expr"), "description": "how bots rate a seat's standing "
                                               "mid-game (default: the score formula); higher is better"},
                                 "tell_apart": {**table({"type": "array", "items": L("name"), "maxItems": 20}, ID),
                                                "description": "by kind: the properties a seat can tell on a "
                                                "face-down object (bots sample hidden objects only among those "
                                                "alike in them)"},
                                 "doc": {"type": "string"}},
                                doc="hints for the bots (greedy, mcts); no rule reads them")},
                   ("score",)),
    "vars": obj({"game": table(L("value")), "player": table(L("value")),
                 "private": {"type": "array", "items": L("name")},
                 "internal": {"type": "array", "items": {"type": "string"},
                              "description": "variables kept out of the readable view (bookkeeping)"}}),
    "attributes": table(L("value")),
    "box": table({"type": "integer", "minimum": 0}, ID),
    "procedures": table(L("procedure")),
    "functions": table(L("function")),
    "params": table(L("param")),
    "triggers": {"type": "array", "items": L("trigger"), "maxItems": 500},
    "clause": obj({"id": L("id"), "section": {"type": "string", "description": "the rulebook's section"},
                   "label": {"type": "string", "description": "the rulebook's own numbering, e.g. 'Setup 6'"},
                   "kind": {"enum": list(CLAUSE_KINDS)},
                   "summary": {"type": "string", "description": "what the clause says, in our own words"},
                   "applies": obj({"players": {"type": "array", "items": {"type": "integer", "minimum": 1, "maximum": 64},
                                               "minItems": 1, "maxItems": 64,
                                               "description": "the player counts the clause is about, e.g. [1] for solo"},
                                   "variant": {"anyOf": [L("id"), {"type": "array", "items": L("id"), "minItems": 1, "maxItems": 20}],
                                               "description": "the variant(s) that must be on for the clause to apply"}},
                                  doc="the games the clause is about: coverage measures random play in those"),
                   "doc": {"type": "string"}},
                  ("id", "section", "kind", "summary"), doc="one clause of the rulebook"),
    "clauses": {"type": "array", "items": L("clause"), "maxItems": 2000},
    "reading": obj({"id": L("id"), "clause": L("rule"),
                    "reading": {"type": "string", "description": "the choice made where the text is ambiguous or silent"},
                    "why": {"type": "string"}},
                   ("id", "clause", "reading"), doc="a reading of an ambiguous or silent clause"),
    "readings": {"type": "array", "items": L("reading"), "maxItems": 1000},
    "zones": {"type": "array", "items": L("zone"), "maxItems": 500},
    "dice": {"type": "array", "items": L("die"), "maxItems": 50},
    "components": {"type": "array", "items": L("component"), "maxItems": 5000},
    "cards": {"type": "array", "items": L("card"), "maxItems": 5000},
    "spaces": {"type": "array", "items": L("space"), "maxItems": 5000},
    "edges": {"type": "array", "items": L("edge"), "maxItems": 20000},
}

TEMPLATE_ID = {"type": "string", "pattern": "^[a-z0-9{][a-z0-9_.{}-]*$", "maxLength": 80,
               "description": "the id of each entry made, with {v} for a range variable's value"}
BOUND = {"type": ["integer", "string"], "minimum": -10000, "maximum": 10000, "pattern": NAME["pattern"],
         "maxLength": 60, "description": "a whole number, or an earlier range variable"}
EACH = {"type": "object", "propertyNames": NAME, "minProperties": 1, "maxProperties": 6,
        "additionalProperties": {"type": "array", "items": BOUND, "minItems": 2, "maxItems": 2},
        "description": "range variables in order, each [first, last] (both included): the entry is made once "
                       "for every combination; {v} in its id, name, text and props is the value "
                       "(interpreter/load/ranges.py)"}


def ranged(kind: str) -> dict:
    """Returns the shape of an entry generated from ranges (`each:`): the entry's own keys,
    its id a template."""
    shape = DEFS[kind]
    return {**shape, "description": f"{kind}s made from ranges: one for every combination of `each`",
            "required": [*shape["required"], "each"],
            "properties": {"each": EACH, **shape["properties"], "id": TEMPLATE_ID}}


for _kind in ("card", "component"):
    DEFS[f"{_kind}_range"] = ranged(_kind)
    DEFS[f"{_kind}_item"] = {"if": {"type": "object", "required": ["each"]}, "then": L(f"{_kind}_range"),
                             "else": L(_kind)}
DEFS["cards"] = {"type": "array", "items": L("card_item"), "maxItems": 5000}
DEFS["components"] = {"type": "array", "items": L("component_item"), "maxItems": 5000}


def _item(kind: str) -> str:
    """Returns the name of what an entry list of `kind` holds: an entry, or a range of them."""
    return f"{kind}_item" if f"{kind}_item" in DEFS else kind


def groups(kind: str) -> dict:
    """Returns the schema of `groups:` (entries sharing defaults) for cards or components.
    The loader merges each entry onto its defaults before checking it as a whole entry."""
    shape = DEFS[kind]["properties"]
    defaults = obj({k: v for k, v in shape.items() if k != "id"},
                   doc="keys every entry of the group starts from (props are merged, abilities added)")
    group = obj({"doc": {"type": "string"}, "defaults": defaults,
                 "entries": {"type": "array", "items": L(_item(kind)), "maxItems": 5000}}, ("defaults", "entries"))
    return {"type": "array", "items": group, "maxItems": 200}


DEFS["card_groups"] = groups("card")
DEFS["component_groups"] = groups("component")
DEFS["space_groups"] = groups("space")

FORMAT = {"type": "integer", "minimum": 1, "description": "the version of the definition format the file was written "
          "for (interpreter/load/formats.py; docs/FORMAT.md, Format versions); default: the current one, or an older "
          "one whose keys the file uses"}
GAME_META = obj({"id": R("id"), "name": {"type": "string"}, "version": {"type": "string"}, "format": FORMAT,
                 "description": {"type": "string"}, "rulebook": {"type": "string"},
                 "players": obj({"min": {"type": "integer", "minimum": 1}, "max": {"type": "integer", "maximum": 12}},
                                ("min", "max")),
                 "player_names": {"type": "array", "items": {"type": "string"}},
                 "provenance": R("provenance")}, ("id", "name", "version", "players", "rulebook"))

LIMITS = obj({"steps": {"type": "integer", "minimum": 100, "maximum": 10_000_000},
              "work": {"type": "integer", "minimum": 1000, "maximum": 50_000_000,
                       "description": "work allowed between two decisions: items built, iterations, characters"},
              "depth": {"type": "integer", "minimum": 4, "maximum": 500},
              "trigger_depth": {"type": "integer", "minimum": 1, "maximum": 100}})

# Sections an overlay may add or replace, with their shapes.
KEYED = {"zones": "zones", "dice": "dice", "components": "components", "cards": "cards", "spaces": "spaces"}
NAMED = {"procedures": "procedures", "functions": "functions", "quantities": "functions", "params": "params"}


def overlay_entries(kind: str) -> dict:
    """Returns an overlay's list of new cards, components or spaces: each item an entry, or
    a group (`defaults:` and `entries:`, as in a base file; the loader merges each entry
    onto its defaults before checking it as a whole entry)."""
    entry = R(_item(kind))
    if kind == "space":     # a new space may take the place of an edge
        entry = {**DEFS["space"], "properties": {**DEFS["space"]["properties"], "between": {
            **R("edge"), "description": "two joined spaces: the new space goes between them (the edge between "
                                        "them is replaced by one to each)"}}}
    group = obj({"doc": {"type": "string"}, "defaults": DEFS[f"{kind}_groups"]["items"]["properties"]["defaults"],
                 "entries": {"type": "array", "items": entry, "maxItems": 5000}}, ("defaults", "entries"))
    item = {"if": {"type": "object", "required": ["entries"]}, "then": group, "else": entry}
    return {"type": "array", "items": item, "maxItems": 5000}


BOX_DELTA = {**table({"type": "integer", "minimum": -10000, "maximum": 10000}, ID),
             "description": "how many of each kind the overlay adds to the box (a negative number takes "
                            "some out); a kind the box does not have yet starts at 0"}


PROP_PATH = {"type": "string", "pattern": "^[a-z0-9][a-z0-9_.-]*\\.[a-zA-Z_][a-zA-Z0-9_]*$", "maxLength": 140}
SET_PROP = {"description": "a new value for an object's property (a record only in the long form {value: ...})",
            "anyOf": [{"type": ["string", "integer", "boolean", "null", "array"]},
                      obj({"value": R("value"), "rule": R("rule")}, ("value",))],
            "$comment": "rule: clauses the new value carries, cited besides the object's own"}


def overlay_section(mode: str) -> dict:
    props: dict[str, Any] = {k: R(v) for k, v in {**KEYED, **NAMED}.items()}
    props.update({k: overlay_entries(k[:-1]) for k in ("components", "cards", "spaces")})
    props.update({"clauses": R("clauses"), "readings": R("readings"),
                  "edges": R("edges"), "triggers": R("triggers"), "structure": R("structure"),
                  "scoring": R("scoring"), "vars": R("vars"), "attributes": R("attributes"),
                  "box": BOX_DELTA if mode == "add" else R("box"),
                  "steps": table(R("node"), R("id"))})
    return obj(props)


def removal() -> dict:
    names = {"type": "array", "items": {"type": "string", "maxLength": 140}, "maxItems": 500}
    return obj({**{k: names for k in (*KEYED, *NAMED, "triggers", "steps")},
                "edges": {"type": "array", "items": R("edge"), "maxItems": 500,
                          "description": "edges by their two ends (either way round)"},
                "rule": {**R("rule"), "description": "the clause(s) the removal carries"}})


COLOURS = ["default", "black", "red", "green", "yellow", "blue", "magenta", "cyan", "white", "bright_black",
           "bright_red", "bright_green", "bright_yellow", "bright_blue", "bright_magenta", "bright_cyan",
           "bright_white"]
COLOUR = {"enum": COLOURS, "description": "a terminal colour (shown only where the terminal has colour)"}


CSS = {"type": "string", "pattern": "^(#[0-9a-fA-F]{3}|#[0-9a-fA-F]{6}|[a-z_]+)$", "maxLength": 20,
       "description": "a CSS colour: #rgb, #rrggbb, or a colour word (the terminal's names, orange, brown, pink, "
                      "purple, grey, gold, silver)"}
KEY = {"type": "string", "pattern": "^[a-zA-Z0-9][a-zA-Z0-9_.-]*$", "maxLength": 80}


def picture_schema() -> dict:
    """Returns the shape of terminal.yaml's `picture:`: hints for `cairn draw` (interpreter/draw/)."""
    card = obj({
        "width": {"type": "number", "minimum": 60, "maximum": 400, "description": "pixels (default 150)"},
        "fields": {"type": "array", "items": NAME, "maxItems": 12,
                   "description": "the properties shown as its numbers (default: every whole-number property not 0)"},
        "text": {**NAME, "description": "the property holding its printed text (default text)"},
        "lines": {"type": "integer", "minimum": 1, "maximum": 30, "description": "lines of text at most (default 5)"},
    }, doc="how a card (an object with printed text) is drawn from its data")
    prop = {**NAME, "description": "an attribute or property of the card"}
    grid = obj({
        "cells": {**NAME, "description": "the property {cell: {row, col, ...}} of its cells"},
        "group": {**NAME, "description": "the field of a cell naming its group (cells of a group share a colour)"},
        "groups": {**prop, "description": "{group: {colour, ...}}: each group's colour"},
        "group_label": {**NAME, "description": "the field of a group written small in its cells"},
        "links": {**prop, "description": "[[cell, cell], ...]: the cells joined by a line"},
        "printed": {**prop, "description": "{cell: number}: numbers printed on the card (circled)"},
        "written": {**prop, "description": "{cell: number}: numbers written in play (in ink)"},
        "flagged": {**prop, "description": "the groups marked with a red W"},
        "notes": {**prop, "description": "a list of notes (texts, or records with note_field) listed under the grid"},
        "note_field": {**NAME, "description": "the field of a note record holding its text"},
        "done": {**prop, "description": "the indices of the notes done (ticked)"},
    }, ("cells",), "a card drawn as its grid of cells")
    return obj({
        "doc": {"type": "string"},
        "size": {"type": "number", "minimum": 8, "maximum": 120,
                 "description": "spots and grid: pixels per unit of `at`; hexes: a hex's radius in pixels "
                                "(defaults 30, 44, 22)"},
        "scale": {"type": "array", "items": {"type": "number", "minimum": 0.25, "maximum": 8}, "minItems": 2,
                  "maxItems": 2, "description": "spots: stretch of `at` across and down (default [1, 1])"},
        "fills": {**table(CSS, KEY), "description": "colours of spaces by id, kind, glyph or the value of fill_by "
                                                    "(e.g. a terrain), and of cards by their colour property"},
        "pieces": {**table(CSS, KEY), "description": "colours of pieces, tokens and tiles by id, def or kind (before "
                                                     "their own colour property and their owner's seat colour)"},
        "fill_by": {**NAME, "description": "the space property whose value picks its fill (a list of two: two "
                                           "halves); default its kind"},
        "icon_by": {**NAME, "description": "a space property drawn as a small text on it (none, empty or false: "
                                           "nothing)"},
        "icons": {**table({"type": "string", "maxLength": 12}, KEY),
                  "description": "the text drawn for an icon_by value (default the value)"},
        "players": {"type": "array", "items": CSS, "maxItems": 12,
                    "description": "one colour per seat (default the terminal's)"},
        "owner_by": {**NAME, "description": "the property (or attribute) of a piece naming the seat it belongs to, "
                                            "drawn in that seat's colour (default owner)"},
        "colour_by": {**NAME, "description": "the property (or attribute) of a piece or card naming its colour "
                                             "(default colour)"},
        "glyphs": {**table({"type": "string", "maxLength": 2}, KEY),
                   "description": "a piece's mark in the picture by id, def or kind (before the terminal's glyphs)"},
        "card": card,
        "grids": {**table(grid, KEY), "description": "cards of these kinds or defs that carry a grid of cells in "
                                                     "their data, drawn as that grid"},
    }, doc="hints for `cairn draw` (interpreter/draw/): pictures of the board, cards and tokens; colours and "
           "glyphs not given here are taken from the terminal's")


def terminal_schema() -> dict:
    """Returns the shape of terminal.yaml: hints for the readable terminal (how the board is
    laid out in text, colours, which variables and zones show and how), never rules."""
    board = obj({
        "layout": {"enum": ["spots", "hexes", "grid"],
                   "description": "spots: each space's label placed by its `at` with the edges drawn as paths; "
                                  "hexes: the assembled hex map, a glyph a cell; grid: cells of a fixed width by `at`"},
        "scale": {"type": "array", "items": {"type": "number", "minimum": 0.5, "maximum": 8}, "minItems": 2,
                  "maxItems": 2, "description": "spots: columns and rows per unit of `at` (default [2, 1])"},
        "cell": {"type": "integer", "minimum": 1, "maximum": 12, "description": "grid: columns a cell (default 3)"},
        "labels": {"type": "object", "propertyNames": ID, "additionalProperties": {"type": "string", "maxLength": 6},
                   "description": "spots: the text drawn for a space (default its id)"},
        "empty": {"type": "string", "maxLength": 6, "description": "grid: what an empty cell shows (default .)"},
        "paths": {"type": "boolean", "description": "spots: draw the edges between spaces (default true)"},
        "doc": {"type": "string"}}, ("layout",))
    zone = obj({"name": {"type": "string", "maxLength": 40, "description": "how the screen calls the zone"},
                "layout": {"enum": ["list", "cards", "count", "none"],
                           "description": "list: names in a line; cards: each object's show text as a block, "
                                          "side by side; count: only how many; none: not shown"},
                "width": {"type": "integer", "minimum": 12, "maximum": 100, "description": "cards: a block's width"},
                "show": {**NAME, "description": "cards: a function of one object giving its block's text "
                                                "(default: the zone's own show function)"},
                "others": {"enum": ["full", "names", "count"],
                           "description": "how another seat's copy of a per-player zone shows on the short screen "
                                          "(the whole view shows it in full)"}})
    hints = obj({
        "doc": {"type": "string"},
        "board": board,
        "glyphs": {"type": "object", "propertyNames": ID, "additionalProperties": {"type": "string", "maxLength": 2},
                   "description": "a piece's mark on a drawn board, by object id or kind (a glyph attribute or prop wins)"},
        "colours": obj({"players": {"type": "array", "items": COLOUR, "maxItems": 12, "description": "one per seat"},
                        "kinds": {"type": "object", "propertyNames": {"type": "string", "maxLength": 80},
                                  "additionalProperties": COLOUR,
                                  "description": "spaces and pieces by kind (hex cells also by glyph)"}}),
        "hide": {"type": "array", "items": NAME, "maxItems": 200,
                 "description": "game and player variables never shown (besides vars.internal)"},
        "names": {"type": "object", "propertyNames": NAME, "additionalProperties": {"type": "string", "maxLength": 40},
                  "description": "how a variable is called on screen"},
        "zones": {"type": "object", "propertyNames": ID, "additionalProperties": zone},
        "tables": {"type": "array", "maxItems": 20, "items": obj({
            "name": {"type": "string", "maxLength": 40},
            "rows": {"type": "array", "items": ID, "minItems": 1, "maxItems": 30,
                     "description": "zones, one row each (a per-player zone: a row per seat)"}}, ("name", "rows")),
            "description": "tables of card rows: each zone's objects side by side, one zone a row"},
        "why_not": {"type": "array", "maxItems": 50, "items": obj({
            "prompt": {"type": "string", "maxLength": 200,
                       "description": "the decision it explains: a part of its prompt"},
            "function": {**NAME, "description": "a function of (player, options) giving the texts that say why "
                                                "an expected option is missing (empty: nothing to say); it must "
                                                "read only what that player may know"}}, ("prompt", "function")),
            "description": "reasons given under a decision when an option one might expect is not offered"},
        "legend": {"type": "object", "propertyNames": {"type": "string", "minLength": 1, "maxLength": 40},
                   "additionalProperties": {"type": "string", "maxLength": 200}, "maxProperties": 60,
                   "description": "what the symbols of the rules' own drawings mean (symbols separated by "
                                  "blanks): an entry shows under the screen when one of its symbols is drawn on it"},
        "key_names": {"type": "object", "propertyNames": NAME, "additionalProperties": NAME,
                      "description": "a record variable -> a function of one key giving how the screen names "
                                     "that key (as the prompts and cards name it)"},
        "idle": {"type": "array", "maxItems": 50, "items": obj({
            "prompt": {"type": "string", "maxLength": 200, "description": "the decisions it looks at: a part of their prompt"},
            "says": {"type": "string", "minLength": 1, "maxLength": 200,
                     "description": "a part of the log line the rules write when an option does nothing (each "
                                    "option is tried on a copy of the game)"},
            "note": {"type": "string", "maxLength": 120, "description": "what the option's label then says"}},
            ("prompt", "says", "note")),
            "description": "options that would do nothing, noted in their labels"},
        "option_space": {**NAME, "description": "a function of one option giving the board space it names "
                                               "(default: the option if it is a space, the last of a list)"},
        "picture": picture_schema(),
    })
    return {"title": "Hints for the readable terminal (terminal.yaml): layout, colours, what shows",
            **obj({"terminal": hints}, ("terminal",))}


MARK_KINDS = ("title", "contents", "heading", "example", "flavour", "picture", "credits", "advice", "cross-reference")


def anchors_schema() -> dict:
    """An anchors file: clause ids and marks tied to line spans of one rulebook text file."""
    lines = {"type": ["string", "integer"], "maxLength": 2000,
             "description": "1-based line numbers and inclusive ranges of the rulebook file, e.g. \"40-41, 45\""}
    digest = {"type": ["string", "integer"], "maxLength": 8,
              "description": "the first 8 hex digits of the SHA-256 of the spans' text (docs/FORMAT.md)"}
    clause = obj({"lines": lines, "digest": digest, "doc": {"type": "string"}}, ("lines", "digest"),
                 "where the clause stands in the rulebook")
    mark = obj({"lines": lines, "kind": {"enum": list(MARK_KINDS)}, "digest": digest, "clause": ID,
                "doc": {"type": "string"}}, ("lines", "kind", "digest"), "lines that carry no clause, and what they are")
    return {"title": "Where each clause stands in one rulebook text file (anchors/*.yaml)",
            **obj({"rulebook": {"type": "string", "maxLength": 200,
                                "description": "the rulebook file's bare name, e.g. my-game.en.txt"},
                   "clauses": {"type": "object", "propertyNames": ID, "additionalProperties": clause,
                               "maxProperties": 5000},
                   "marks": {"type": "array", "items": mark, "maxItems": 20000},
                   "doc": {"type": "string"}}, ("rulebook", "clauses"))}


SCHEMAS: dict[str, dict] = {
    "defs": {"title": "Shared definitions of the Cairn definition format", "$defs": DEFS},
    "game": {"title": "A game's identity, parameters, variables, turn structure, procedures and scoring (game.yaml)",
             **obj({"game": GAME_META, "limits": LIMITS, "vars": R("vars"), "attributes": R("attributes"),
                    "box": R("box"), "params": R("params"), "procedures": R("procedures"),
                    "functions": R("functions"), "quantities": {**R("functions"),
                                                                "description": "functions that static abilities may modify"},
                    "triggers": R("triggers"), "structure": R("structure"), "scoring": R("scoring")},
                   ("game", "structure", "scoring"))},
    "components": {"title": "Zones, dice and pieces (components.yaml)",
                   **obj({"zones": R("zones"), "dice": R("dice"), "components": R("components"),
                          "groups": R("component_groups")})},
    "cards": {"title": "Cards (cards.yaml)", **obj({"cards": R("cards"), "groups": R("card_groups")})},
    "board": {"title": "The board graph (board.yaml)",
              **obj({"board": obj({"provenance": R("provenance"), "spaces": R("spaces"), "edges": R("edges"),
                                   "groups": R("space_groups"),
                                   "doc": {"type": "string"},
                                   "assembled_in_play": {"type": "boolean",
                                                         "description": "the spaces are linked in play (e.g. by place_tile "
                                                                        "and link_hex), so the edges need not connect them"},
                                   "legend": {"type": "string", "description": "a key to the glyphs of the drawn map"}},
                                  ("spaces", "edges", "provenance"))}, ("board",))},
    "rules": {"title": "The clause index of a game's rulebook (rules.yaml)",
              **obj({"rulebook": {"type": "string", "maxLength": 300,
                                  "description": "the rulebook the clauses index: the bare name of its text file "
                                                 "(e.g. my-game.en.txt), or what the rules are when none is printed"},
                     "clauses": R("clauses"), "readings": R("readings"),
                     "doc": {"type": "string"}}, ("rulebook", "clauses"))},
    "anchors": anchors_schema(),
    "differences": {"title": "Where another edition's rulebook differs, and how a variant encodes it (*-differences.yaml)",
                    **obj({"variant": R("id"),
                           "rulebook": {"type": "string", "description": "the other edition's rulebook file name"},
                           "reference": {"type": "string", "description": "the reference rulebook's file name"},
                           "provenance": {"type": "string"}, "doc": {"type": "string"},
                           "differences": {"type": "array", "maxItems": 1000, "items": obj({
                               "id": R("id"), "clause": R("rule"),
                               "en_lines": {**LINE_SPANS, "description": "the reference rulebook's lines it compares"},
                               "en_digest": DIGEST,
                               "ja_lines": {**LINE_SPANS, "description": "the other edition's lines it compares"},
                               "ja_digest": DIGEST,
                               "ja_reading": {"type": "string", "description": "what the other edition's lines say, "
                                                                               "in our own words"},
                               "differs_in_effect": {"type": "boolean"},
                               "encoding": {"type": "string"},
                               "encoded_by": {"type": "array", "items": {"type": "string", "pattern": "^[a-z]+/[^/]+$"},
                                              "description": "the changes of the variant that play it, as category/key "
                                                             "(cairn diff --json), e.g. parameters/solo_bonus_mode"},
                               "reason": {"type": "string", "description": "why a difference in effect is not played"}},
                               ("id", "clause", "differs_in_effect"))}}, ("variant", "differences"))},
    "variant": {"title": "A variant or expansion: an overlay on the base game (variants/*.yaml)",
                **obj({"variant": obj({"id": R("id"), "name": {"type": "string"}, "description": {"type": "string"},
                                       "version": {"type": "string"}, "format": FORMAT,
                                       "requires": {"type": "array", "items": R("id")},
                                       "conflicts": {"type": "array", "items": R("id"),
                                                     "description": "expansions it cannot be played with"},
                                       "excludes": {"type": "array", "items": R("id"),
                                                    "description": "the older name of conflicts"},
                                       "players": obj({"min": {"type": "integer"}, "max": {"type": "integer"}}),
                                       "provenance": R("provenance")}, ("id", "name", "description")),
                       "remove": removal(), "replace": overlay_section("replace"), "add": overlay_section("add"),
                       "set": obj({"params": table(R("param_value")),
                                   "objects": {**table(SET_PROP, PROP_PATH),
                                               "description": "OBJECT.PROPERTY: a new value for a property of a "
                                                              "card, component or board space (OBJECT.kind: a "
                                                              "space's kind)"}}),
                       "extend": obj({
                           "procedures": table(obj({"before": R("effect"), "after": R("effect"),
                                                    "doc": {"type": "string"}, "rule": R("rule")})),
                           "objects": table(obj({"abilities": R("abilities")}, ("abilities",)), R("id"))}),
                       "insert": {"type": "array", "maxItems": 200, "items": obj({
                           "before": R("id"), "after": R("id"), "into": R("id"),
                           "at": {"enum": ["start", "end"]},
                           "steps": {"type": "array", "items": R("node"), "minItems": 1, "maxItems": 50},
                           "doc": {"type": "string"}}, ("steps",))}},
                      ("variant",))},
}


VARIANT_REF = {"type": "string", "pattern": "^[a-zA-Z0-9_./-]+$", "maxLength": 300,
               "description": "a variant id, or an overlay file (path relative to this file)"}


def scenario_schema() -> dict:
    step = {"anyOf": [{"type": "string"}, {"type": "integer"},
                      obj({"choose": {"type": ["string", "integer"]}, "by": {"type": "integer"},
                           "prompt": {"type": "string"}}, ("choose",))]}
    check = {"anyOf": [{"type": "string", "maxLength": 20000},
                       obj({"illegal": {"type": "string"}, "options": {"type": "array"},
                            "options_set": {"type": "array", "description": "the options in any order"},
                            "prompt": {"type": "string"}, "decides": {"type": "integer"}, "terminal": {"type": "boolean"},
                            "part_ended": {"type": "boolean", "description": "the part or program started ran to its end"},
                            "winners": {"type": "array"}, "log": {"type": "string"},
                            "no_log": {"type": "string", "description": "no log line contains this"},
                            "seat": {"type": "integer", "minimum": 0}, "sees": {"type": "string"},
                            "hides": {"type": "string"}})]}
    given = obj({"places": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
                 "players": {"type": "array", "items": {"type": "object"}}, "game": {"type": "object"},
                 "attrs": {"type": "object"}, "run": {"type": "string", "maxLength": 20000},
                 "dice": {"type": "array", "items": {"type": ["integer", "string"]}}})
    one = obj({"name": {"type": "string"}, "rule": R("rule"), "players": {"type": "integer", "minimum": 1},
               "seed": {"type": "integer"}, "variants": {"type": "array", "items": VARIANT_REF}, "given": given,
               "when": {"type": "array", "items": step}, "then": {"type": "array", "items": check},
               "start": {"anyOf": [{"type": "string", "maxLength": 20000},
                                   obj({"part": R("id"), "player": {"type": "integer", "minimum": 0}}, ("part",))],
                         "description": "what to run instead of the whole game: effect text, or one part "
                                        "of the turn structure"}}, ("name", "rule"))
    return {"title": "Rule scenarios: given a position, when these choices, then these facts",
            **obj({"game": {"type": "string", "pattern": "^[a-zA-Z0-9_./-]+$", "maxLength": 300,
                            "description": "a game id, or the path of a game folder"},
                   "variants": {"type": "array", "items": VARIANT_REF},
                   "scenarios": {"type": "array", "items": one}}, ("game", "scenarios"))}


RECURSIVE = {"value", "node", "structure"}   # kept as references (they contain themselves)


def bundled(body: Any, used: set[str]) -> Any:
    """Returns a schema with the shared definitions written in place (a reference costs a
    lookup at every use; validating a game checks thousands of entries), except those that
    contain themselves, which become local references (collected in `used`)."""
    if isinstance(body, dict):
        ref = body.get("$ref")
        if isinstance(ref, str) and "#/$defs/" in ref:
            name = ref.rsplit("/", 1)[1]
            if name in RECURSIVE:
                if name not in used:
                    used.add(name)
                    bundled(DEFS[name], used)
                return {"$ref": f"#/$defs/{name}"}
            return bundled(DEFS[name], used)
        return {k: bundled(v, used) for k, v in body.items()}
    if isinstance(body, list):
        return [bundled(v, used) for v in body]
    return body


def documents() -> dict[str, dict]:
    """Returns {file name: schema document} for every schema file: the shared definitions
    (for reading) and each file kind's schema with them written in."""
    out = {}
    for kind, body in {**SCHEMAS, "scenario": scenario_schema(), "terminal": terminal_schema()}.items():
        if kind != "defs":
            used: set[str] = set()
            body = bundled(body, used)
            if used:
                # the recursive ones, written in too, referring to themselves locally
                body["$defs"] = {}
                while True:
                    todo = sorted(used - set(body["$defs"]))
                    if not todo:
                        break
                    for name in todo:
                        body["$defs"][name] = bundled(DEFS[name], used)
        out[f"{kind}.schema.json"] = {"$schema": "https://json-schema.org/draft/2020-12/schema",
                                      "$id": f"{BASE}{kind}.schema.json", **body}
    return out


def main() -> int:
    check = "--check" in sys.argv[1:]
    stale = []
    for name, doc in documents().items():
        text = json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
        path = ROOT / "schemas" / name
        if check:
            if not path.is_file() or path.read_text("utf-8") != text:
                stale.append(name)
        else:
            path.write_text(text, "utf-8")
    if stale:
        print("out of date (run python3 tools/schemas.py): " + ", ".join(stale), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
