"""cairn balance: intervals, the JSON report's shape, per-object statistics, a variant
against its base, and the HTML page with its plots."""
from __future__ import annotations

import json

import pytest

from interpreter.balance.report import holdings
from interpreter.balance.stats import diff_rates, mean_ci, wilson
from interpreter.cli.main import main
from interpreter.load.build import load_game


def test_wilson_interval_known_values():
    # Wilson 95% interval for 8 of 10: 0.4902 to 0.9433 (Newcombe 1998, method 3).
    lo, hi = wilson(8, 10)
    assert abs(lo - 0.4902) < 5e-4 and abs(hi - 0.9433) < 5e-4
    assert wilson(0, 0) == (0.0, 1.0)
    lo, hi = wilson(0, 20)
    assert lo == 0.0 and 0.15 < hi < 0.17
    m = mean_ci([1.0, 2.0, 3.0, 4.0])
    assert m["mean"] == 2.5 and m["low"] < 2.5 < m["high"]
    d = diff_rates(10, 20, 15, 20)
    assert d["diff"] == 0.25 and d["low"] < 0.25 < d["high"]


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_balance_json_shape(capsys):
    out = _json(capsys, ["balance", "tic-tac-toe", "--games", "12", "--seats", "first,random", "--json", "--quiet"])
    base = out["base"]
    assert base["players"] == 2 and base["games"] == 12 and base["baseline"] == 0.5
    assert [s["seat"] for s in base["seats"]] == [0, 1]
    for s in base["seats"]:
        w = s["win"]
        assert 0 <= w["low"] <= w["rate"] <= w["high"] <= 1 and w["n"] == 12
    # rotated: each bot held each seat equally, so both bots played 12 seats
    assert set(base["bots"]) == {"first", "random"} and all(b["n"] == 12 for b in base["bots"].values())
    total = sum(s["win"]["rate"] for s in base["seats"])
    assert total <= 1.0 + 1e-9                     # shares of one win per game at most
    assert base["turns"]["min"] <= base["turns"]["median"] <= base["turns"]["max"]
    assert len(base["scores"]["values"]) == 24


def test_same_seed_same_report(capsys):
    a = _json(capsys, ["balance", "pig", "--games", "6", "--seed", "3", "--json", "--quiet"])
    b = _json(capsys, ["balance", "pig", "--games", "6", "--seed", "3", "--json", "--quiet"])
    c = _json(capsys, ["balance", "pig", "--games", "6", "--seed", "4", "--json", "--quiet"])
    assert a == b and a != c


def test_holdings_read_owned_places_and_owners():
    g = load_game("stonefire")
    s = g.new_initial_state(2, seed=1, log=False)
    held = holdings(g, s.d)
    hand0 = {g.props[o].get("def", o) for o in s.d["places"]["hand/0"]}
    assert hand0 and hand0 <= held[0]
    assert "tribal-deck" not in str(held)       # a shared deck belongs to no seat
    g = load_game("big-foot")
    s = g.new_initial_state(2, seed=1, log=False)
    owned = [o for o, a in s.d["attrs"].items() if a.get("owner") == 1]
    assert owned and {g.props[o].get("def", o) for o in owned} <= holdings(g, s.d)[1]


def test_compare_a_variant_and_write_html(capsys, tmp_path):
    pytest.importorskip("matplotlib")
    out = _json(capsys, ["balance", "stonefire", "--games", "10", "--compare", "riverfolk", "--json", "--quiet",
                         "--top", "1", "--card-games", "3", "--html", str(tmp_path / "rep")])
    shift = out["shift"]
    assert shift["variant"] == ["riverfolk"] and len(shift["seats"]) == 2
    for s in shift["seats"]:
        w = s["win"]
        assert w["low"] <= w["diff"] <= w["high"]
    g = load_game("stonefire")
    base_defs = {str(g.props.get(o, {}).get("def", o)) for o, _k, _s in g.components}
    assert all(o["object"] not in base_defs for o in shift["new_objects"])
    page = (tmp_path / "rep" / "index.html").read_text("utf-8")
    pngs = sorted(p.name for p in (tmp_path / "rep").glob("*.png"))
    assert "base-seats.png" in pngs and "variant-seats.png" in pngs
    for name in pngs:
        assert f'src="{name}"' in page
        assert (tmp_path / "rep" / name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_balance_usage_errors(capsys):
    assert main(["balance", "pig", "--games", "0"]) == 2
    assert main(["balance", "pig", "--seats", "mcts:x"]) == 2
    assert "expects a number" in capsys.readouterr().err
    assert main(["balance", "pig", "--compare", "no-such-variant", "--games", "2"]) != 0


def test_report_is_the_same_on_two_workers_and_holdings_match_a_replay(capsys):
    """What seats hold is worked out where the games are played: the report must not
    depend on the number of workers, and must equal what replaying the records gives."""
    argv = ["balance", "stonefire", "--games", "6", "--seed", "5", "--json", "--quiet", "--top", "1"]
    one = _json(capsys, argv)["base"]
    two = _json(capsys, argv + ["--workers", "2"])["base"]
    assert one == two
    from interpreter.balance import report
    from interpreter.balance.run import batch_report
    from interpreter.cli.common import game_folder
    rep, records, _extras = batch_report(str(game_folder("stonefire")), (), 2, 6, 5, ["greedy"])
    assert all("final" not in r for r in records)
    g = load_game("stonefire")
    replayed = []
    for r in records:
        s = g.new_initial_state(r["players"], r["seed"], log=False)
        for a in r["actions"]:
            s.apply_action(a)
        replayed.append(holdings(g, s.d))
    assert any(any(seat) for seat in replayed)
    assert report.build(g, records, replayed)["objects"] == rep["objects"] == one["objects"]
