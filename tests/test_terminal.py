"""The readable terminal: text boards from the data, screens that show only what a seat
may know and only what changed, reasons for missing options, undo, save and resume, the
pass screen between people."""
from __future__ import annotations

import io
import json
import random
import re
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.cli.main import main
from interpreter.load.build import load_game
from interpreter.terminal.board import Look, _place_labels, draw_board
from interpreter.terminal.screen import Screens, marks, view_parts, why_not
from interpreter.terminal.session import Quit, Session, load_save
from interpreter.terminal.style import plain
from answers import scripted
from test_hidden_info import perturbed

ROOT = Path(__file__).resolve().parents[1]
REAL = ("big-foot", "footprints", "stonefire", "fantastic-trails")
_GAMES: dict = {}


def game(gid: str):
    if gid not in _GAMES:
        _GAMES[gid] = load_game(ROOT / "definitions" / gid)
    return _GAMES[gid]


def played(gid: str, n: int, steps: int, seed: int = 3):
    g = game(gid)
    s = g.new_initial_state(n, seed)
    bots = make_agents(["random"], n, seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(bots[s.current_player()].step(s))
    return g, s


def board_text(g, s, seat=0, marked=True) -> list[str]:
    return plain(draw_board(Look(g, s.observation(seat), marks(g, s.d, seat) if marked else {}), s.d.get("pos")), 200)


# ---- layouts ---------------------------------------------------------------------

def test_big_foot_spots_drawn_with_their_ids_on_paths():
    g, s = played("big-foot", 4, 0)
    lines = board_text(g, s, marked=False)
    text = "\n".join(lines)
    labels = g.terminal["board"]["labels"]
    for space in g.spaces:
        assert re.search(rf"(?<![a-z0-9]){re.escape(labels.get(space, space))}(?![0-9])", text, re.I), space
    assert max(map(len, lines)) <= 100 and len(lines) <= 24
    assert set("-|/\\") & set(text), "the paths are drawn"


def test_pieces_stand_on_their_spots():
    """A piece's glyph right after its spot's label, else right before it, else under or
    over it; a seat's two tokens by two glyphs (r1, r2), never by a capitalised label."""
    g, s = played("big-foot", 2, 6)
    lines = board_text(g, s, marked=False)
    placed = [(o, sp) for sp in g.spaces for o in s.d["places"][sp] if g.props[o]["kind"] == "token"]
    assert placed
    labels = g.terminal["board"]["labels"]
    look = Look(g, s.observation(0))
    assert len({look.glyph(o) for o, _ in placed}) == len(placed), "each token has its own glyph"
    at = {}
    for y, line in enumerate(lines):
        for m in re.finditer(r"[A-Za-z0-9@]+", line):
            at.setdefault(m.group(), []).append((m.start(), y))
    for obj, sp in placed:
        lab, gl = labels.get(sp, sp), look.glyph(obj)
        ok = [(x + len(lab), y) for x, y in at.get(lab, [])] + [(x - len(gl), y) for x, y in at.get(lab, [])] \
            + [(x, y + dy) for x, y in at.get(lab, []) for dy in (1, -1)]
        found = [(x, y) for y, line in enumerate(lines) for x in range(len(line)) if line.startswith(gl, x)]
        assert set(ok) & set(found) or re.search(rf"{re.escape(lab + gl)}|{re.escape(gl + lab)}", "\n".join(lines)), \
            (obj, sp, "\n".join(lines))
    assert not re.search(r"\b[A-Z][0-9]\b", "\n".join(lines)), "no capitalised spot label"


def test_crowded_labels_are_moved_apart():
    cells = _place_labels({"a1": (0, 0), "a2": (1, 0), "a3": (2, 0)}, {"a1": "a1", "a2": "a2", "a3": "a3"})
    taken = [(c + i, r) for s, (c, r) in cells.items() for i in range(2)]
    assert len(taken) == len(set(taken)), cells


def test_hex_map_rows_shift_and_offered_cells_show_the_key():
    g, s = played("footprints", 2, 40)
    lines = board_text(g, s, s.current_player())
    pos = s.d["pos"]
    assert len(lines) == len({r for _, r in pos.values()})
    mk = marks(g, s.d, s.current_player())
    for space, key in mk.items():
        q, r = pos[space]
        x0 = min(2 * qq + rr for qq, rr in pos.values())
        row = lines[r - min(rr for _, rr in pos.values())]
        assert row[2 + 2 * q + r - x0] == key, (space, key)


def test_grid_marks_free_cells_with_their_option_keys():
    g = game("tic-tac-toe")
    s = g.new_initial_state(2, 1)
    s.apply_action(4)
    s.apply_action(0)
    lines = board_text(g, s, s.current_player())
    assert [l.split() for l in lines] == [["O", "1", "2"], ["3", "X", "4"], ["5", "6", "7"]]


def test_connect_four_marks_the_cell_a_disc_would_fall_to():
    g = game("connect-four")
    s = g.new_initial_state(2, 1)
    s.apply_action(0)
    lines = board_text(g, s, s.current_player())
    assert lines[-1].split()[0] == "R" and lines[-2].split()[0] == "1" and lines[-1].split()[1] == "2"


def test_tables_of_card_rows_and_cards_side_by_side():
    g, s = played("stonefire", 4, 30)
    parts = {p.key: p for p in view_parts(g, s.d, 0)}
    names = [t["name"] for t in g.terminal["tables"]]
    shown = "\n".join(plain(p.items, 100)[0] for k, p in parts.items() if k.startswith("table:"))
    assert any(n in shown for n in names)
    g, s = played("fantastic-trails", 4, 60)
    floor = parts = {p.key: p for p in view_parts(g, s.d, 0)}["zone:floor/0"]
    lines = plain(floor.items, 100)
    cards = s.d["places"]["floor/0"]
    first_line = next(l for l in lines if g.props[cards[0]]["name"] in l)
    assert g.props[cards[1]]["name"] in first_line, "two cards side by side"
    assert max(map(len, lines)) <= 100


def test_no_internal_variables_and_names_from_the_data():
    g, s = played("footprints", 4, 60)
    text = "\n".join(Screens(g, 0, 100, False).whole(s.d))
    for var in ("res3", "end_reason", "solo_result", "board_info", "first:", "tiles"):
        assert var not in text
    for p in range(4):
        assert g.player_name(p) in text
    assert "Player 1" not in text


# ---- screens -----------------------------------------------------------------------

def _decisions(g, s, seat, bots, count):
    """Plays on, yielding the state at each decision of `seat`."""
    while count and not s.is_terminal():
        if s.current_player() == seat:
            yield s
            count -= 1
        s.apply_action(bots[s.current_player()].step(s))


@pytest.mark.parametrize("gid", REAL)
def test_screens_fit_and_show_what_changed(gid):
    g = game(gid)
    s = g.new_initial_state(4, 2)
    bots = make_agents(["random"], 4, 2)
    scr = Screens(g, 0, 100, False)
    sizes, first = [], None
    for st in _decisions(g, s, 0, bots, 12):
        lines = scr.screen(st.d, [])
        sizes.append(len(lines))
        first = first or "\n".join(lines)
        assert len(lines) <= 40 and max(map(len, lines)) <= 100, "\n".join(lines)
    assert "changed" in first or len(sizes) > 1
    whole = Screens(g, 0, 100, False).whole(s.d)
    assert min(sizes[1:]) < len(whole), "later screens show less than the whole view"


@pytest.mark.parametrize("gid", REAL)
def test_a_seat_screen_shows_nothing_it_may_not_know(gid):
    g = game(gid)
    s = g.new_initial_state(4, 21)
    bots = make_agents(["random"], 4, 21)
    rnd = random.Random(4)
    for step in range(90):
        if s.is_terminal():
            break
        if step % 15 == 0:
            for seat in range(4):
                e = perturbed(g, s.d, seat, rnd)
                assert Screens(g, seat, 100, False).whole(e) == Screens(g, seat, 100, False).whole(s.d), \
                    f"seat {seat}'s screen shows hidden data at step {step}"
                assert Screens(g, seat, 100, False).screen(e, []) == Screens(g, seat, 100, False).screen(s.d, [])
        s.apply_action(bots[s.current_player()].step(s))


def test_a_token_that_cannot_move_is_explained():
    g = game("big-foot")
    for seed in range(40):
        s = g.new_initial_state(2, seed)
        bots = make_agents(["random"], 2, seed)
        for _ in range(120):
            if s.is_terminal():
                break
            dec = s.decision()
            said = why_not(g, s.d, dec["player"], dec["prompt"])
            if said:
                mine = [o for o in g.objects_of_kind("token") if s.d["attrs"].get(o, {}).get("owner") == dec["player"]
                        and s.d["loc"][o] in g.adj]
                stuck = [o for o in mine if g.props[o]["name"] in said[0]]
                assert stuck and stuck[0] not in dec["options"]
                screen = "\n".join(Screens(g, dec["player"], 100, False).screen(s.d, []))
                assert "not offered: " + said[0][:60] in screen.replace("\n    ", " ")
                return
            s.apply_action(bots[s.current_player()].step(s))
    pytest.fail("no decision with a token that cannot move in 40 seeds")


# ---- sessions: undo, save and resume, passing ---------------------------------------

def session(gid, seats, answers, **kw):
    g = game(gid)
    return Session(g, len(seats), 5, seats, out=io.StringIO(), ask=scripted(answers), **kw)


def play_until_quit(s):
    with pytest.raises(Quit):
        s.run()
    return s


def test_undo_replays_the_same_game_without_the_last_decision():
    straight = play_until_quit(session("big-foot", ["human", "random", "random"], ["1", "2", "1", "1", "1", "q"]))
    undone = play_until_quit(session("big-foot", ["human", "random", "random"],
                                     ["1", "1", "u", "2", "1", "1", "u", "1", "1", "q"]))
    assert undone.state.d["actions"] == straight.state.d["actions"]
    assert undone.state.digest() == straight.state.digest()
    assert "undone: back to your decision" in undone.out.getvalue()


def test_undo_is_refused_with_two_people():
    s = play_until_quit(session("tic-tac-toe", ["human", "human"], ["1", "u", "q"]))
    assert "undo works only when the other seats are bots" in s.out.getvalue()


def test_save_and_resume_continue_the_same_game(tmp_path):
    path = tmp_path / "g.save.json"
    first = play_until_quit(session("footprints", ["human", "random", "random"], ["1"] * 6 + ["q"], save_path=path))
    resumed = load_save(path, lambda gid, v: load_game(gid, v), out=io.StringIO(), ask=scripted(["1"] * 5 + ["q"]))
    assert resumed.state.d["actions"] == first.state.d["actions"] and resumed.seats == first.seats
    assert [b.get_state() for b in resumed.bots] == [b.get_state() for b in first.bots]
    play_until_quit(resumed)
    again = play_until_quit(session("footprints", ["human", "random", "random"], ["1"] * 11 + ["q"]))
    assert resumed.state.d["actions"] == again.state.d["actions"]


def test_cli_save_on_quit_and_resume(tmp_path, monkeypatch, capsys):
    path = tmp_path / "s.json"
    monkeypatch.setattr("builtins.input", scripted(["1", "1", "q"]))
    assert main(["play", "tic-tac-toe", "--seats", "human,first", "--seed", "1", "--save", str(path)]) == 0
    assert "cairn resume" in capsys.readouterr().err
    saved = json.loads(path.read_text())["record"]["actions"]
    assert len(saved) == 4
    monkeypatch.setattr("builtins.input", scripted(["1"] * 5))
    assert main(["resume", str(path)]) == 0
    out = capsys.readouterr().out
    assert "resumed from" in out and "Winner(s):" in out
    assert json.loads(path.read_text())["record"]["actions"][:4] == saved
    path.write_text("{}")
    assert main(["resume", str(path)]) == 2
    assert "not a Cairn save" in capsys.readouterr().err


def test_several_people_pass_the_terminal_and_see_their_own_seat():
    s = play_until_quit(session("stonefire", ["human", "human"], ["1"] * 60 + ["q"]))
    out = s.out.getvalue()
    chunks = out.split("Pass the terminal to ")[1:]
    assert len(chunks) >= 3
    for chunk in chunks:
        who = chunk.split(" (seat")[0]
        seat = s.g.player_names.index(who) if who in s.g.player_names else int(who.split()[-1]) - 1
        other = 1 - seat
        assert f"{s.g.player_name(seat)} (you)" in chunk and f"{s.g.player_name(other)} (you)" not in chunk
        shown = re.findall(rf"hand of {s.g.player_name(other)}: (.*)", chunk)
        assert all(re.fullmatch(r"\d+ hidden", x) for x in shown), shown
        assert re.search(rf"hand of {s.g.player_name(seat)} \(you\): \w", chunk) or "hand of" not in chunk


def test_whole_view_key_shows_every_part_a_page_at_a_time():
    answers = iter(["1", "1", "1", "v"] + [""] * 6 + ["q"])
    marks_at: list[int] = []
    s = session("fantastic-trails", ["human", "first", "first", "first"], [])

    def ask(prompt=""):
        if prompt == "> " and not marks_at:
            marks_at.append(len(s.out.getvalue()))
        answer = next(answers)
        if answer == "v":
            marks_at.append(len(s.out.getvalue()))
        return answer
    s.ask = ask
    play_until_quit(s)
    out = s.out.getvalue()
    short, whole = out[:marks_at[-1]], out[marks_at[-1]:]
    assert "-- more" not in short
    for p in range(4):
        for card in s.state.d["places"][f"floor/{p}"]:
            assert s.g.props[card]["name"] + " (Tasks:" in whole, card
    assert whole.count("(Tasks:") > short.split("Player 1: ")[-2].count("(Tasks:")


def test_ctrl_c_saves_where_asked(tmp_path, ctrl_c_after, capsys):
    ctrl_c_after(2)
    path = tmp_path / "s.json"
    assert main(["play", "big-foot", "--seats", "human,random", "--seed", "2", "--save", str(path)]) == 130
    assert len(json.loads(path.read_text())["record"]["actions"]) >= 2
    assert "cairn resume" in capsys.readouterr().err


def test_a_typo_in_the_hints_is_a_load_error_at_its_line(tmp_path):
    import shutil
    from interpreter.load.build import build
    folder = tmp_path / "bf"
    shutil.copytree(ROOT / "definitions" / "big-foot", folder)
    text = (folder / "terminal.yaml").read_text()
    (folder / "terminal.yaml").write_text(text.replace("function: why_blocked", "function: why_blockd")
                                          .replace("hide: [first,", "hide: [firts,").replace("layout: spots", "layout: spot"))
    g, diags = build(folder, [])
    said = [str(d) for d in diags]
    assert g is None
    assert any("terminal.yaml" in d and "'spot' is not one of" in d for d in said), said
    (folder / "terminal.yaml").write_text(text.replace("function: why_blocked", "function: why_blockd")
                                          .replace("hide: [first,", "hide: [firts,"))
    said = [str(d) for d in build(folder, [])[1]]
    assert any("terminal.yaml" in d and "no function 'why_blockd'" in d and "why_blocked" in d for d in said), said
    assert any("terminal.yaml" in d and "'firts'" in d for d in said), said
