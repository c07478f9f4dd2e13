"""cairn sweep: one parameter over a range, set through the overlay machinery, the same
seeds for every value, the same rows on one process, several, or dask."""
from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main
from interpreter.load.build import load_game
from interpreter.sweep import SweepError, load_value, overlay_text, parse_param


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0, capsys.readouterr().err
    return json.loads(capsys.readouterr().out)


def test_param_values_are_parsed_and_checked_against_the_game():
    g = load_game("stonefire")
    assert parse_param("hand_size=4..6", g) == ("hand_size", [4, 5, 6])
    assert parse_param("hand_size=3,7", g) == ("hand_size", [3, 7])
    assert parse_param("hard_mode_removed=0..1", g)[1] == [0, 1]     # a table by player count, set whole
    for bad, says in [("hand_sise=4..6", "did you mean 'hand_size'"), ("hand_size", "NAME=LO..HI"),
                      ("hand_size=6..4", "LO <= HI"), ("hand_size=x", "whole numbers"),
                      ("party_colours=1..2", "only numbers and flags"), ("hand_size=true", "not bool")]:
        with pytest.raises(SweepError, match=says):
            parse_param(bad, g)


def test_the_value_is_set_as_an_overlays_set_params_would():
    from interpreter.cli.common import game_folder
    g = load_value(str(game_folder("stonefire")), (), "hand_size", 7)
    assert g.params["hand_size"]["value"] == 7
    assert g.params["hand_size"]["rule"] == ["setup-3-deal", "draw-up"]      # the clauses stay cited
    assert "set:\n  params: {hand_size: 7}" in overlay_text("hand_size", 7)
    s = g.new_initial_state(2, seed=1, log=False)
    assert len(s.d["places"]["hand/0"]) == 7                                 # the rules read it


def test_sweep_rows_and_the_default_value_plays_the_base_games(capsys):
    out = _json(capsys, ["sweep", "stonefire", "--param", "hand_size=4..5", "--games", "6", "--json", "--quiet"])
    assert out["param"] == "hand_size" and out["values"] == [4, 5] and out["seats_spec"] == ["greedy"]
    rows = {r["value"]: r for r in out["rows"]}
    for r in rows.values():
        assert len(r["seats"]) == 2 and r["games"] == 6
        for s in r["seats"]:
            assert 0 <= s["win"]["low"] <= s["win"]["rate"] <= s["win"]["high"] <= 1
        assert r["turns"]["min"] <= r["turns"]["mean"] <= r["turns"]["max"]
    # hand_size 5 is the base game's value: the same seeds give the base games' results
    base = _json(capsys, ["balance", "stonefire", "--games", "6", "--json", "--quiet", "--top", "0"])["base"]
    assert [s["win"] for s in rows[5]["seats"]] == [s["win"] for s in base["seats"]]
    assert rows[5]["turns"]["mean"] == base["turns"]["mean"]
    assert rows[4]["digest"] != rows[5]["digest"]


def test_sweep_text_and_errors(capsys):
    assert main(["sweep", "pig", "--param", "nope=1..2", "--games", "1", "--quiet"]) == 2
    assert "has no parameter 'nope'" in capsys.readouterr().err
    # Riverfolk sets hand_size to 6 itself: another value contradicts it, and the overlay
    # machinery says so (naming both) before any game is played.
    assert main(["sweep", "stonefire", "--variant", "riverfolk", "--param", "hand_size=5..6", "--games", "1",
                 "--quiet"]) == 1
    err = capsys.readouterr().err
    assert "both change parameter 'hand_size'" in err and "Traceback" not in err
    assert main(["sweep", "stonefire", "--param", "hand_size=6", "--variant", "riverfolk", "--games", "2",
                 "--quiet"]) == 0
    out = capsys.readouterr().out
    assert "stonefire + riverfolk: hand_size over 6" in out and "Player 1 wins" in out


def test_sweep_is_the_same_on_processes_and_dask(capsys):
    """On dask the workers are processes of their own (spawned, sharing no file with this
    one): each writes the value's overlay itself, and the rows are the same."""
    pytest.importorskip("distributed")
    from interpreter.scale import _local_cluster
    argv = ["sweep", "stonefire", "--param", "hand_size=4..5", "--games", "3", "--json", "--quiet"]
    one = _json(capsys, argv)
    two = _json(capsys, argv + ["--workers", "2"])
    cluster = _local_cluster(1)
    try:
        dask = _json(capsys, argv + ["--scheduler", cluster.scheduler_address])
    finally:
        cluster.close()
    assert one == two == dask
    assert len({r["digest"] for r in one["rows"]}) == 2


def test_sweep_stores_each_value_as_a_run(capsys, tmp_path):
    pytest.importorskip("duckdb")
    db = tmp_path / "r.duckdb"
    _json(capsys, ["sweep", "stonefire", "--param", "hand_size=4..5", "--games", "2", "--json", "--quiet",
                   "--store", str(db)])
    from interpreter.results import summary
    runs = summary(db)
    assert [r["command"] for r in runs] == ["sweep", "sweep"]
    assert sorted(r["variants"][0] for r in runs) == ["params.hand_size=4", "params.hand_size=5"]
    assert all(r["games"] == 2 for r in runs)
