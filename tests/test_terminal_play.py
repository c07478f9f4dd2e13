"""Play that a player would choose (issue 27): the decision's board part always drawn with
its candidates marked by their numbers, changes since the last decision, symbols
explained, ids typed as choices, idle options noted, and private log lines in the third
person for everyone but their seat. The pseudo-terminal tests play each real game at
100 x 40 with NO_COLOR set, so every mark must read without colour."""
from __future__ import annotations

import re

import pytest

from interpreter.agents import make_agents
from interpreter.engine.view import log_lines
from interpreter.engine.vm import decision_text
from interpreter.terminal.layout import side_by_side
from interpreter.terminal.screen import Screens, idle_notes
from test_terminal import game, played
from test_terminal_pty import ANSI, run_in_pty

ROWS, COLS = 40, 100
# Per game: the seed, and what marks the candidates of some decision on the board part
# (a regex over the lines drawn above the options).
PTY = {
    # the spots offered for the first token: their numbers in place of their labels
    "big-foot": (5, r"^ ?1 +-+2 +-3 "),
    # the house slots offered on the hex map: their keys in the map's first column
    "footprints": (5, r"^ +1 [a-zA-Z] [a-zA-Z] "),
    # the cards of the hand that may join the party: their numbers before them
    "stonefire": (5, r"hand of Player 1 \(you\): \[1\] \w"),
    # the spaces a number may go in: the option numbers in the sheet's row, linked
    "fantastic-trails": (5, r"^ *[A-C] +.*\[1\]-.*-\[2\]"),
}


def screens_of(gid: str) -> list[str]:
    seed, _ = PTY[gid]
    screens, out = run_in_pty(["play", gid, "--seats", "human,first,first,first", "--seed", str(seed)], ["1"] * 8,
                              env={"NO_COLOR": "1"}, rows=ROWS, cols=COLS, timeout=60)
    assert "Traceback" not in out and "\x1b[3" not in out, out[-2000:]
    return [ANSI.sub("", s).replace("\r", "") for s in screens]


@pytest.mark.parametrize("gid", list(PTY))
def test_decision_screen_marks_candidates_on_the_board_at_100x40(gid):
    screens = screens_of(gid)
    assert len(screens) >= 6
    sizes = []
    for i, s in enumerate(screens):
        lines = s.split("\n")[(1 if i else 0):]
        sizes.append((len(lines), max(map(len, lines))))
        assert max(map(len, lines)) <= COLS, (gid, i, s)
        # no wrapped column: a table's row holds whole cards (every bracket closed where it
        # opens), two cards side by side each keep to their half (a blank column between)
        for line in lines:
            if re.match(r" [a-z][a-z ]* (of Player \d( \(you\))?)?  ", line):
                assert line.count("[") == line.count("]"), (gid, line)
            if len(re.findall(r"1   2   3   4   5   6", line)) == 2 or len(re.findall(r"(?:^|  )(?:\[\d\] )?[A-C] \S{3}-", line)) == 2:
                assert line[49] == " " and line.index("1   2") < 49 < line.rindex("1   2") if "1   2" in line else line[49] == " ", \
                    (gid, line)
    print(f"\n{gid}: largest screen {max(r for r, _ in sizes)} rows x {max(c for _, c in sizes)} columns")
    assert max(r for r, _ in sizes) <= ROWS
    pattern = PTY[gid][1]
    hits = [s for s in screens if any(re.search(pattern, line) for line in s.split("\n"))]
    assert hits, (gid, "\n=====\n".join(screens))


def test_two_cards_side_by_side_never_run_into_each_other():
    left = ["Title of a card whose text is much longer than its column can hold in one line",
            "      [ ] a task that is long enough to need wrapping within the column of cards → 1 honeydew"]
    lines = [t.plain for t in side_by_side([left, left], 100)]
    assert all(len(x) <= 100 for x in lines)
    assert all(len(x) <= 49 or x[49] == " " for x in lines), "the column between the cards stays blank"
    assert all(x[:49].strip() == "" or not x.startswith(("honeydew", "1 honeydew")) for x in lines)
    assert [x[:49].rstrip() for x in lines] == [x[50:].rstrip() for x in lines], "both cards whole, side by side"


def _until(gid, n, seed, seat, want, steps=400):
    g = game(gid)
    s = g.new_initial_state(n, seed)
    bots = make_agents(["random"], n, seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        if s.current_player() == seat and want(g, s):
            return g, s
        s.apply_action(bots[s.current_player()].step(s))
    raise AssertionError(f"no such decision in {steps} steps")


def test_board_redrawn_after_bots_move_with_the_changes_named():
    g = game("big-foot")
    s = g.new_initial_state(4, 5)
    bots = make_agents(["first"], 4, 5)
    scr = Screens(g, 0, 100, False, rows=38)
    shown = []
    while len(shown) < 4:
        if s.current_player() == 0:
            shown.append("\n".join(scr.screen(s.d, [])))
        s.apply_action(bots[s.current_player()].step(s))
    later = shown[-1]
    assert "since your last decision:" in later and "→" in later
    assert "BF" in later and "MT" in later, "the board is drawn again"
    assert "nothing else changed" not in later


def test_ids_typed_choose_like_numbers():
    g, s = played("big-foot", 4, 0)
    scr = Screens(g, 0, 100, False)
    scr.screen(s.d, [])
    options = s.d["pending"]["options"]
    assert scr.keys.pick("a5") == options.index("a5")
    assert scr.keys.pick("SS") == options.index(next(x for x in options if g.props[x]["name"] == "Supply Store"))
    assert scr.keys.pick("3") == 2 and scr.keys.pick("999") is None and scr.keys.pick("v") is None
    g, s = _until("fantastic-trails", 4, 5, 0, lambda g, s: "write 3 in the small" in str(decision_text(g, s.d)[1]))
    scr = Screens(g, 0, 100, False)
    scr.screen(s.d, [])
    label = decision_text(g, s.d)[1][1]
    cell = re.search(r"\b[A-C][1-6]\b", label).group()
    assert scr.keys.pick(cell.lower()) == 1


def test_an_option_that_would_do_nothing_says_so():
    def stuck(g, s):
        d = s.d
        return d["pending"]["options"] == ["top", "bottom"] and 0 in idle_notes(g, d, 0, "Step 2:")
    g, s = _until("footprints", 4, 5, 0, stuck)
    text = "\n".join(Screens(g, 0, 100, False).screen(s.d, []))
    assert re.search(r"\[1\] top: .* would not move", text), text
    before = s.serialize()
    idle_notes(g, s.d, 0, "Step 2:")
    assert s.serialize() == before, "trying the options leaves the game as it was"


def test_prompts_and_panel_name_skills_alike():
    g, s = _until("footprints", 4, 5, 0, lambda g, s: "skills:" in str(s.d["pending"].get("prompt", "")) or
                  "Step 1: play which clan card" in "\n".join(Screens(g, 0, 100, False).screen(s.d, [])))
    text = "\n".join(Screens(g, 0, 100, False).screen(s.d, []))
    panel = re.search(r"Blue \(you\)  .*?skill: ([a-z ]+) \d", text, re.S).group(1)
    prompt = re.search(r"\(skills: ([a-z ]+) \d", text).group(1)
    assert panel == prompt == "grey", text


def test_symbols_explained_tokens_told_apart_no_copy_numbers():
    g = game("big-foot")
    s = g.new_initial_state(2, 5)
    bots = make_agents(["first"], 2, 5)
    scr = Screens(g, 0, 100, False)
    text = ""
    for _ in range(12):
        if s.current_player() == 0:
            text += "\n".join(scr.screen(s.d, [])) + "\n"
        s.apply_action(bots[s.current_player()].step(s))
    assert "r1" in text and "r2" in text and re.search(r"key: .*r1 r2 .*= token", text)
    assert re.search(r"SS Supply Store", text) and "paths between spots" in text
    g, s = played("stonefire", 4, 20)
    text = "\n".join(Screens(g, 0, 100, False).whole(s.d))
    assert not re.search(r"\] \d", text), "no copy number after a card's name"


def test_a_private_line_reads_in_the_third_person_for_everyone_else():
    g, s = played("footprints", 3, 40)
    mine = [(t, to) for t, to in s.d["log"] if to is not None and re.search(r"\byour?\b", t)]
    assert mine, "the rules write lines to one seat"
    everyone = log_lines(g, s.d, None, everything=True)
    assert not any(re.search(r"\byou(r)?\b", line) for line in everyone), everyone
    text, seat = mine[0]
    assert text in log_lines(g, s.d, seat), "the seat itself still reads 'you'"
    assert any(g.player_name(seat) in line for line in everyone)
