"""The bots: seat specs, determinism, hidden-information invariance (a bot's move never
depends on what its seat cannot see), strength against random, greedy's legality."""
from __future__ import annotations

import pytest

from interpreter.agents import RandomAgent, make_agent, make_agents, parse_seat, rotated
from interpreter.batch import simulate
from interpreter.bots.determinize import Sampler
from interpreter.bots.rating import ratings, rewards
from interpreter.engine.state import unshare
from interpreter.engine.view import visible
from interpreter.load.build import load_game
from interpreter.records import play, replay


@pytest.fixture(scope="module")
def games():
    cache: dict = {}

    def get(gid: str):
        if gid not in cache:
            cache[gid] = load_game(gid)
        return cache[gid]
    return get


def test_seat_specs():
    assert parse_seat("mcts:500") == ("mcts", {"playouts": 500})
    assert parse_seat("mcts:50:depth=0:c=1.5") == ("mcts", {"playouts": 50, "depth": 0, "c": 1.5})
    assert parse_seat("greedy") == ("greedy", {})
    for bad, says in [("mcst", "unknown bot"), ("random:3", "takes no options"),
                      ("mcts:x", "expects a number"), ("mcts:10:width=3", "no option 'width'")]:
        with pytest.raises(ValueError, match=says):
            parse_seat(bad)


def test_rotation_gives_each_seat_each_bot():
    seen = {tuple(rotated(["mcts:5", "greedy", "random"], 3, i)) for i in range(3)}
    assert len(seen) == 3
    for seat in range(3):
        assert {s[seat] for s in seen} == {"mcts:5", "greedy", "random"}
    assert rotated(["greedy", "random"], 3, 0) == ["greedy", "random", "random"]


def _position(g, players: int, seed: int, steps: int):
    s = g.new_initial_state(players, seed=seed, log=False)
    r = RandomAgent(seed)
    for _ in range(steps):
        if s.is_terminal():
            break
        s.apply_action(r.step(s))
    while len(s.legal_actions()) == 1:
        s.apply_action(0)
    return s


def _perturbed(state, seat: int):
    """Returns a copy whose hidden information differs: hidden places reversed, objects of
    a kind swapped across hidden places (another seat's hand against a deck), the game's
    RNG and other seats' private variables changed; and how many swaps were made."""
    g = state.game
    e = state.clone()
    d = e.d
    unshare(d)         # its place lists are changed by hand below: not the original's any more
    kinds = {o: k for o, k, _s in g.components}
    hidden = [p for p in d["places"] if d["places"][p] and not visible(g, p, seat)]
    for p in hidden:
        d["places"][p].reverse()
    first: dict[str, tuple[str, int]] = {}
    swaps = 0
    for p in hidden:
        for i, o in enumerate(d["places"][p]):
            key = Sampler(g)._group[o]
            if key in first and first[key][0] != p:
                q, j = first.pop(key)
                a = d["places"][q][j]
                d["places"][q][j], d["places"][p][i] = o, a
                d["loc"][o], d["loc"][a] = q, p
                swaps += 1
            elif kinds[o] and key not in first:
                first[key] = (p, i)
    d["rng"] = (d["rng"] * 7 + 3) % (1 << 64)
    for q, pv in enumerate(d["pvars"]):
        for k in g.private_vars:
            if q != seat and k in pv:
                pv[k] = ["changed"]
    return e, swaps


@pytest.mark.parametrize("gid", ["stonefire", "footprints", "fantastic-trails"])
def test_hidden_information_never_changes_the_move(games, gid):
    g = games(gid)
    swaps = 0
    for seed, steps in [(3, 12), (8, 30)]:
        s = _position(g, 2, seed, steps)
        seat = s.current_player()
        p, k = _perturbed(s, seat)
        swaps += k
        assert p.d["places"] != s.d["places"]            # the true hidden state did change
        sampler = Sampler(g)
        a, b = sampler.sample(s, seat, {"rng": 5}), sampler.sample(p, seat, {"rng": 5})
        assert a.d == b.d                                # so the seat's samples are the same
        assert make_agent("mcts:6:depth=8", 11).step(s) == make_agent("mcts:6:depth=8", 11).step(p)
        assert make_agent("greedy", 11).step(s) == make_agent("greedy", 11).step(p)
    assert swaps > 0


def test_a_sample_keeps_what_the_seat_sees(games):
    g = games("stonefire")
    s = _position(g, 3, 4, 20)
    seat = s.current_player()
    x = Sampler(g).sample(s, seat, {"rng": 9})
    obs, xobs = s.observation(seat), x.observation(seat)
    assert obs["places"] == xobs["places"] and obs["player_vars"] == xobs["player_vars"]
    assert x.d["rng"] != s.d["rng"]
    hidden = [p for p in s.d["places"] if not visible(g, p, seat) and len(s.d["places"][p]) > 1]
    assert any(x.d["places"][p] != s.d["places"][p] for p in hidden)
    assert all(x.d["loc"][o] == p for p, objs in x.d["places"].items() for o in objs)


def test_other_seats_secret_choices_are_asked_again(games):
    g = games("fantastic-trails")
    s = g.new_initial_state(2, seed=5, log=False)
    r = RandomAgent(3)
    for _ in range(3):
        s.apply_action(r.step(s))
    chosen = [(k, v) for fr in s.d["frames"] for k, v in fr["l"].items()
              if k.startswith("#c:") and "#o:" + k[3:] in fr["l"] and v[0] is not None]
    assert chosen and s.current_player() == 1
    x = Sampler(g).sample(s, 1, {"rng": 2})
    local = next(fr["l"] for fr in x.d["frames"] if chosen[0][0] in fr["l"])
    assert local[chosen[0][0]][0] is None and local["#o:" + chosen[0][0][3:]][0][-1] == 0
    while not x.is_terminal():
        x.apply_action(r.step(x))
    assert x.d["result"]["reason"] != "aborted"


def test_mcts_is_seeded(games):
    g = games("stonefire")
    s = _position(g, 2, 6, 16)
    moves = {make_agent("mcts:10:depth=10", 4).step(s) for _ in range(2)}
    assert len(moves) == 1
    assert s.legal_actions()[0] <= moves.pop() <= s.legal_actions()[-1]


def test_mcts_beats_random_at_tic_tac_toe(games):
    records = simulate("tic-tac-toe", (), 2, 8, 3, ["mcts:60", "random"], rotate=True)
    won = sum(1.0 / len(r["result"]["winners"]) for r in records for p in r["result"]["winners"]
              if r["agents"][p] == "mcts:60")
    assert won >= 6, won                         # random against random wins about 4 of 8 shares
    assert [r["agents"][0] for r in records[:2]] == ["mcts:60", "random"]
    g = games("tic-tac-toe")
    assert all(replay(g, r)[0] for r in records)


def test_greedy_is_legal_and_seeded(games):
    g = games("pig")
    a = play(g, 2, 7, make_agents(["greedy", "random"], 2, 7), log=False)
    b = play(g, 2, 7, make_agents(["greedy", "random"], 2, 7), log=False)
    assert a.d["actions"] == b.d["actions"] and a.is_terminal()
    g = games("stonefire")
    s = play(g, 2, 2, make_agents(["greedy"], 2, 2), log=False)
    assert s.is_terminal() and s.d["result"]["reason"] != "aborted"


def test_heuristics_and_rewards(games):
    g = games("footprints")
    assert g.heuristic is not None and g.tell_apart == {"clan-card": ("clan", "role")}
    s = _position(g, 3, 2, 60)
    h = ratings(s)
    assert len(h) == 3 and any(x != 0 for x in h)     # the score (total) is still 0 for all
    assert s.scores() == [0, 0, 0] and not s.is_terminal()
    r = rewards(s)
    assert all(0.0 <= x <= 1.0 for x in r) and abs(sum(r) - 1.5) < 1e-9


def test_rotated_seats_do_not_depend_on_workers():
    one = simulate("tic-tac-toe", (), 2, 6, 9, ["greedy", "random"], workers=1, rotate=True)
    two = simulate("tic-tac-toe", (), 2, 6, 9, ["greedy", "random"], workers=2, rotate=True)
    assert one == two
    assert [r["agents"] for r in one[:3]] == [["greedy", "random"], ["random", "greedy"], ["greedy", "random"]]


def test_bot_hints_are_checked_at_load(tmp_path):
    import shutil
    from interpreter.diagnostics import DefinitionError
    from interpreter.load.files import definitions_root
    folder = tmp_path / "pig-copy"
    shutil.copytree(definitions_root() / "pig", folder)
    game = folder / "game.yaml"
    text = game.read_text("utf-8")
    assert "    heuristic: me.score\n" in text
    game.write_text(text.replace("    heuristic: me.score\n",
                                 "    heuristic: me.score\n    tell_apart: {dye: [colour]}\n"), "utf-8")
    with pytest.raises(DefinitionError) as err:
        load_game(folder)
    (diag,) = err.value.diagnostics
    assert "tell_apart names kind 'dye'" in str(diag) and "game.yaml:" in str(diag)
