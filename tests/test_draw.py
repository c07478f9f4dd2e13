"""Pictures from the data (interpreter/draw, `cairn draw`): every board space drawn with
its id, what a seat may not know never in its picture, option marks for the deciding seat
only, the command's SVG and PNG, a record's step, the committed pictures current."""
from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from interpreter.agents import RandomAgent
from interpreter.cli.main import main
from interpreter.draw import draw_svg
from interpreter.engine.view import observe
from interpreter.load.build import build, list_variants, load_game
from interpreter.terminal.parts import View, zone_layout
from interpreter.terminal.screen import option_space
from test_hidden_info import GAMES as FOLDERS, _game, perturbed

ROOT = Path(__file__).resolve().parents[1]
GAMES = {"big-foot": 4, "footprints": 3, "stonefire": 2, "fantastic-trails": 2, "tic-tac-toe": 2,
         "connect-four": 2, "pig": 2}
_GAMES: dict = {}


def game(gid: str):
    if gid not in _GAMES:
        _GAMES[gid] = load_game(gid)
    return _GAMES[gid]


def played(gid: str, steps: int, seed: int = 5):
    """A state after `steps` random choices (fewer if the game ends)."""
    g = game(gid)
    state = g.new_initial_state(GAMES[gid], seed)
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply_action(agent.step(state))
    return state


def parsed(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def attr_values(root: ET.Element, name: str) -> list[str]:
    return [e.get(name) for e in root.iter() if e.get(name) is not None]


@pytest.mark.parametrize("gid", list(GAMES))
def test_every_board_space_and_every_piece_on_it_is_drawn(gid):
    state = played(gid, 6)
    g, d = game(gid), state.d
    root = parsed(draw_svg(g, d, None))
    drawn = attr_values(root, "data-space")
    assert sorted(drawn) == sorted(set(drawn)), "a space drawn twice"
    board = set(g.spaces) | set(d.get("pos", {}))
    assert set(drawn) == board
    if gid == "footprints":
        assert len(d["pos"]) >= 150 and set(d["pos"]) <= set(drawn)    # the assembled map
    objects = set(attr_values(root, "data-object"))
    on_board = {o for s in g.spaces for o in d["places"][s]}
    assert on_board <= objects
    for group in root.iter():
        if group.get("data-space"):
            # the space's label: its id, or the hints' label for it
            label = g.terminal.get("board", {}).get("labels", {}).get(group.get("data-space"), group.get("data-space"))
            assert label in "".join(group.itertext()), group.get("data-space")


@pytest.mark.parametrize("gid", ["stonefire", "fantastic-trails", "footprints"])
def test_every_visible_object_off_the_board_is_drawn(gid):
    state = played(gid, 8)
    g = game(gid)
    for seat in (None, 0):
        obs = observe(g, state.d, seat)
        root = parsed(draw_svg(g, state.d, seat))
        drawn = set(attr_values(root, "data-object"))
        for objs in (e.get("data-objects") for e in root.iter() if e.get("data-objects")):
            drawn.update(objs.split())
        v = View(g, state.d, seat, obs)
        shown = {o for place, content in obs["places"].items() if isinstance(content, list) and place not in g.adj
                 and zone_layout(v, place.partition("/")[0]) not in ("none", "count") for o in content}
        assert shown
        assert shown - drawn == set()


@pytest.mark.parametrize("gid", ["stonefire", "footprints", "fantastic-trails", "big-foot"])
def test_what_a_seat_may_not_know_never_changes_its_picture(gid):
    g = game(gid)
    rnd = random.Random(3)
    state = played(gid, 10)
    d = state.d
    for seat in [None, *range(d["n"])]:
        e = perturbed(g, d, seat, rnd)
        assert draw_svg(g, e, seat) == draw_svg(g, d, seat), f"seat {seat}'s picture shows hidden data"


def test_another_seats_hand_is_not_in_a_picture():
    g = game("stonefire")
    d = played("stonefire", 6).d
    hand = d["places"]["hand/0"]
    assert hand
    mine = set(attr_values(parsed(draw_svg(g, d, 0)), "data-object"))
    theirs = set(attr_values(parsed(draw_svg(g, d, 1)), "data-object"))
    watcher = draw_svg(g, d, None)
    assert set(hand) <= mine
    assert not set(hand) & theirs
    assert not any(f'"{o}"' in watcher for o in hand)


def test_options_are_marked_for_the_deciding_seat_only():
    g = game("tic-tac-toe")
    d = played("tic-tac-toe", 2).d
    decider = d["pending"]["player"]
    root = parsed(draw_svg(g, d, decider))
    marked = {e.get("data-space"): int(e.get("data-option")) for e in root.iter() if e.get("data-option")}
    assert len(marked) == len(d["pending"]["options"]) == 7
    for space, i in marked.items():
        assert option_space(g, d, d["pending"]["options"][i]) == space
    for seat in (1 - decider, None):
        assert "data-option" not in draw_svg(g, d, seat)


def test_an_option_that_is_an_object_marks_that_object():
    g = game("big-foot")
    state, agent = g.new_initial_state(2, 5), RandomAgent(5)
    while not any(isinstance(o, str) and o in g.props and o not in g.adj for o in state.d["pending"]["options"]):
        state.apply_action(agent.step(state))     # to a choice of token
    d = state.d
    options = d["pending"]["options"]
    root = parsed(draw_svg(g, d, d["pending"]["player"]))
    marked = {e.get("data-object"): int(e.get("data-option")) for e in root.iter()
              if e.get("data-option") and e.get("data-object")}
    assert marked and all(options[i] == obj for obj, i in marked.items())


def test_pictures_are_deterministic_and_escape_text():
    g = game("footprints")
    d = played("footprints", 3).d
    assert draw_svg(g, d, 1) == draw_svg(g, d, 1)
    g2 = load_game("big-foot")
    g2.props["a1"] = {**g2.props["a1"], "name": 'a <b> & "c"'}
    svg = draw_svg(g2, played("big-foot", 0).d, None)
    assert "&lt;b&gt; &amp;" in svg and 'a <b>' not in svg
    parsed(svg)


def run(capsys, *argv: str) -> tuple[int, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, err


def test_the_command_writes_svg(tmp_path, capsys):
    rc, err = run(capsys, "draw", "tic-tac-toe", "--seed", "2", "--seat", "1", "-o", str(tmp_path / "t.svg"))
    assert rc == 0, err
    root = parsed((tmp_path / "t.svg").read_text("utf-8"))
    assert len(attr_values(root, "data-space")) == 9 and len(attr_values(root, "data-option")) == 9
    svg = str(tmp_path / "t.svg")
    for bad, said in [(["-o", str(tmp_path / "t.txt")], ".svg or .png"), (["--seat", "3", "-o", svg], "1..2"),
                      (["--step", "2", "-o", str(tmp_path / "t.svg")], "--step needs --record")]:
        rc, err = run(capsys, "draw", "tic-tac-toe", *bad)
        assert rc == 2 and said in err


@pytest.mark.needs("cairo")
def test_the_command_writes_png(tmp_path, capsys):
    assert main(["draw", "tic-tac-toe", "--seat", "2", "--json", "-o", str(tmp_path / "t.png")]) == 0
    said = json.loads(capsys.readouterr().out)
    assert said["seat"] == 2 and said["format"] == "png" and said["step"] == 0
    png = (tmp_path / "t.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000


def test_a_records_step_is_drawn(tmp_path, capsys):
    record = tmp_path / "g.json"
    assert main(["play", "tic-tac-toe", "--seats", "random,random", "--seed", "3", "--record", str(record)]) == 0
    capsys.readouterr()
    actions = json.loads(record.read_text())["actions"]
    for step in (0, 3, len(actions)):
        out = tmp_path / f"s{step}.svg"
        rc, err = run(capsys, "draw", "tic-tac-toe", "--record", str(record), "--step", str(step), "-o", str(out))
        assert rc == 0, err
        root = parsed(out.read_text("utf-8"))
        on_board = [o for s in root.iter() if s.get("data-space") for o in s.iter() if o.get("data-object")]
        assert len(on_board) == step
    rc, err = run(capsys, "draw", "tic-tac-toe", "--record", str(record), "--step", "99", "-o", str(tmp_path / "x.svg"))
    assert rc == 2 and "--step 99" in err
    rc, err = run(capsys, "draw", "big-foot", "--record", str(record), "-o", str(tmp_path / "x.svg"))
    assert rc == 2 and "record of tic-tac-toe" in err


def test_a_typo_in_the_picture_hints_is_a_load_error(tmp_path):
    import shutil
    folder = tmp_path / "fp"
    shutil.copytree(ROOT / "definitions" / "footprints", folder)
    text = (folder / "terminal.yaml").read_text()
    (folder / "terminal.yaml").write_text(text.replace("fill_by: terrains", "fill_by: terrain"))
    g, diags = build(folder, [])
    said = [str(x) for x in diags]
    assert g is None and any("terminal.yaml" in x and "'terrain'" in x and "terrains" in x for x in said), said
    (folder / "terminal.yaml").write_text(text.replace("glyphs: {cave-token: T", "glyphs: {cave-tokn: T"))
    said = [str(x) for x in build(folder, [])[1]]
    assert any("terminal.yaml" in x and "'cave-tokn'" in x and "cave-token" in x for x in said), said
    (folder / "terminal.yaml").write_text(text.replace("size: 26", "size: 2"))
    g, diags = build(folder, [])
    assert g is None and any("terminal.yaml" in str(x) for x in diags)


def test_the_committed_pictures_are_current():
    """docs/pictures/*.svg are what tools/draw_pictures.py draws now (it says how to redo them)."""
    import importlib.util
    spec = importlib.util.spec_from_file_location("draw_pictures", ROOT / "tools" / "draw_pictures.py")
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    assert tool.stale() == [], "run python3 tools/draw_pictures.py"


def test_a_grid_card_shows_its_printed_and_written_numbers():
    """Fantastic Trails' forest floor cards (picture grids hint): each written number in
    ink, each printed one circled, in the card's own group."""
    from interpreter.draw.grids import INK
    from interpreter.draw.svg import SVG_NS
    g = game("fantastic-trails")
    state = played("fantastic-trails", 30)
    d = state.d
    root = parsed(draw_svg(g, d, None))
    cards = {e.get("data-object"): e for e in root.iter() if e.get("data-object")}
    floors = [c for p in range(d["n"]) for c in d["places"][f"floor/{p}"]]
    written = [c for c in floors if d["attrs"].get(c, {}).get("written")]
    assert written, "no number written after 30 choices"
    for c in floors:
        inked = sorted(t.text for t in cards[c].iter(f"{{{SVG_NS}}}text") if t.get("fill") == INK)
        assert inked == sorted(str(v) for v in d["attrs"].get(c, {}).get("written", {}).values())
        circled = len([x for x in cards[c].iter(f"{{{SVG_NS}}}circle") if x.get("r") == "8.5"])
        assert circled == len([v for v in g.props[c]["printed"].values() if v])


VARIANTS = [(f, v) for f in FOLDERS for v in [(), *((x,) for x in sorted(list_variants(f)))]]


@pytest.mark.parametrize("folder,variants", VARIANTS,
                         ids=lambda x: getattr(x, "name", None) or "+".join(x) or "base")
def test_every_variant_draws_at_its_first_decision(folder, variants):
    g = _game(folder, variants)      # built once for this and the hidden-information tests
    state = g.new_initial_state(max(2, g.min_players), 1)
    for seat in (None, state.current_player()):
        root = parsed(draw_svg(g, state.d, seat))
        assert set(attr_values(root, "data-space")) == set(g.spaces) | set(state.d.get("pos", {}))
    d = state.d
    named = [o for o in d["pending"]["options"] if option_space(g, d, o) or (isinstance(o, str) and o in g.props)]
    assert bool(attr_values(root, "data-option")) == bool(named)    # the decider sees what its options name
