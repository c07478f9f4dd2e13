"""Restricted play (what a card is worth), the flow metrics after Ludii's (lead changes,
decisiveness, draws, turn order), and the HTML report: tables, names from the data, one
flagged list, figures that state their bots and games, and a look in a real browser."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from interpreter.agents import make_agents
from interpreter.balance import html as html_report
from interpreter.balance.metrics import game_metrics, summary
from interpreter.balance.play import play_one
from interpreter.balance.restrict import Naming, Restricted, allowed
from interpreter.cli.main import main
from interpreter.engine import rng
from interpreter.load.build import load_game

ROOT = Path(__file__).resolve().parents[1]


def _json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_naming_reads_copies_abilities_and_lists_from_the_data():
    g = load_game("stonefire")
    nm = Naming(g)
    assert nm.subjects("fisher.3") == {"fisher"}                      # a copy names its definition
    assert nm.subjects(["ranknok#0", "ranknok"]) == {"ranknok#0", "ranknok"}   # a power names its card too
    assert nm.subjects(["hunt", "gallimimus.2", 2, "hunt_label"]) == {"gallimimus"}
    assert nm.subjects("done") == set() and nm.subjects(None) == set()
    options = ["fisher.1", "fisher.2", "scout.1", "done"]
    assert allowed(options, "fisher", "never", nm) == [2, 3]
    assert allowed(options, "fisher", "always", nm) == [0, 1]
    assert allowed(["fisher.1", "fisher.2"], "fisher", "never", nm) is None   # cannot be avoided
    assert allowed(["scout.1", "done"], "fisher", "never", nm) is None        # nothing to avoid


class _Spy:
    """Wraps a bot and notes the options it was shown and what it chose."""

    def __init__(self, inner):
        self.inner, self.seen = inner, []

    def step(self, state):
        a = self.inner.step(state)
        self.seen.append(list(state.d["pending"]["options"]))
        return a


@pytest.mark.parametrize("mode", ["never", "always"])
def test_a_restricted_seat_never_or_always_chooses_the_card(mode):
    """Over whole games the wrapped seat's choices obey the restriction wherever it could
    (without the wrapper, random play chooses the card's options freely)."""
    g = load_game("stonefire")
    nm = Naming(g)
    subject = "ranknok" if mode == "never" else "gallimimus"
    bites = chosen_free = 0
    for seed in range(4):
        s = g.new_initial_state(2, seed=seed, log=False)
        bots = make_agents(["random"], 2, seed)
        spy = _Spy(bots[0])
        bots[0] = Restricted(spy, subject, mode, nm)
        while not s.is_terminal():
            p = s.current_player()
            options = list(s.d["pending"]["options"])
            a = bots[p].step(s)
            keep = allowed(options, subject, mode, nm)
            if p == 0 and keep is not None:
                assert a in keep, (options, a)
            elif p == 1 and keep is not None and len(options) > 1:
                chosen_free += (subject in nm.subjects(options[a])) == (mode == "never")
            s.apply_action(a)
        bites += bots[0].bites
    assert bites > 0                       # the restriction had something to do
    assert chosen_free > 0                 # and a free random seat does what it forbids


def test_a_game_the_restriction_never_bites_is_the_same_game():
    """Restricted games are paired with the free ones of the same seed: where the
    restriction never bites, the record is the very same (so the pairing is exact)."""
    g = load_game("stonefire")
    seed = rng.derive(0, 0)
    free = play_one(g, 2, seed, ["greedy", "greedy"], 0)
    never = play_one(g, 2, seed, ["greedy", "greedy"], 0, ("no-such-card", "never"))
    assert never["bites"] == 0 and never["final_state_sha256"] == free["final_state_sha256"]
    bit = play_one(g, 2, seed, ["greedy", "greedy"], 0, ("fisher", "always"))
    assert bit["bites"] > 0 and bit["final_state_sha256"] != free["final_state_sha256"]
    assert bit["agents"] == ["greedy[always fisher]", "greedy"]


def test_paired_effect_interval_never_claims_certainty_from_no_change():
    from interpreter.balance.cards import paired_effect
    e = paired_effect([0.0, 1.0, -1.0, 1.0, 0.0, 0.0])
    assert e["diff"] == round(1 / 6, 4) and e["low"] < e["diff"] < e["high"]
    none_changed = paired_effect([0.0] * 10)           # the normal interval would be [0, 0]
    assert none_changed["diff"] == 0.0 and none_changed["high"] == -none_changed["low"] > 0.25
    assert paired_effect([])["diff"] is None


def test_compare_ranks_the_expansions_new_cards_with_intervals(capsys):
    out = _json(capsys, ["balance", "stonefire", "--games", "6", "--compare", "riverfolk", "--top", "0",
                         "--json", "--quiet"])
    assert out["base"]["cards"]["rows"] == []                      # --top 0: no base card
    table = out["variant"]["cards"]
    assert table["mode"] == "never" and table["bot"] == "greedy" and table["games"] == 6
    rows = table["rows"]
    assert {r["subject"] for r in rows} == {"storyteller", "beast-whisperer", "spirit-guide", "cave"}
    names = {r["subject"]: r["name"] for r in rows}
    assert names["cave"].startswith("The Cave") and names["storyteller"].startswith("Storyteller")
    for r in rows:
        e = r["effect"]
        assert e["low"] <= e["diff"] <= e["high"] and 0 <= r["bitten"] <= 6
    measured = [r["effect"]["diff"] for r in rows if r["bitten"]]
    assert measured == sorted(measured)                             # strongest (most lost) first


def test_cards_option_names_and_checks_them(capsys):
    out = _json(capsys, ["balance", "stonefire", "--games", "4", "--cards", "ranknok#0,fisher", "--json",
                         "--quiet", "--restrict", "always"])
    rows = out["base"]["cards"]["rows"]
    assert {r["subject"] for r in rows} == {"ranknok#0", "fisher"}
    assert next(r for r in rows if r["subject"] == "ranknok#0")["name"] == "Ranknok [clan: Fury / Calm]: Fury (discard an Egg card)"
    assert main(["balance", "stonefire", "--games", "2", "--cards", "fishr", "--quiet"]) == 2
    assert "did you mean 'fisher'" in capsys.readouterr().err
    assert main(["balance", "stonefire", "--games", "2", "--card-games", "3", "--quiet"]) == 2


def test_lead_changes_and_decisiveness_from_a_trajectory():
    # seat 0 leads, then 1, then 0 again: two changes; seat 1 (a loser) peaked at 5, and
    # the winner is rated above 5 from the fourth position of five.
    path = [[1, 0], [2, 3], [3, 5], [6, 4], [9, 4]]
    m = game_metrics(path, [0])
    assert m["lead_changes"] == 2 and m["lead_change_rate"] == 0.4 and m["decided_at"] == 0.8
    assert game_metrics([[0, 0]] * 5, [1]) == {"readable": False, "decisions": 5}
    assert "decided_at" not in game_metrics(path, [0, 1])          # no loser: nothing to be above


def test_turn_order_and_draws_in_the_summary():
    def rec(order, winners):
        return {"players": 2, "order": order, "result": {"winners": winners, "reason": "end", "scores": [0, 0]},
                "metrics": {"readable": False}}
    s = summary([rec([1, 0], [1]), rec([1, 0], [1]), rec([0, 1], [1]), rec([0, 1], [0, 1])])
    first = s["by_turn_order"][0]["win"]
    assert first["rate"] == round((1 + 1 + 0 + 0.5) / 4, 4)        # the seat deciding first won 2.5 of 4
    assert s["draws"]["rate"] == 0.25 and s["readable"] == 0


def test_html_is_tables_with_names_and_one_flagged_list(capsys, tmp_path, monkeypatch):
    pytest.importorskip("matplotlib")
    drawn = {}
    bars = html_report.Figures.bars

    def spy(self, name, labels, *a, **k):
        drawn[self.prefix + name] = labels
        return bars(self, name, labels, *a, **k)
    monkeypatch.setattr(html_report.Figures, "bars", spy)
    out = _json(capsys, ["balance", "stonefire", "--games", "12", "--top", "1", "--card-games", "3", "--json",
                         "--quiet", "--html", str(tmp_path)])
    base = out["base"]
    page = (tmp_path / "index.html").read_text("utf-8")
    text = (tmp_path / "report.txt").read_text("utf-8")
    assert "<pre" not in page and page.count("<table") >= 5
    flagged = [o for o in base["objects"] if o["flag"]]
    assert base["flagged"] == len(flagged) > 0
    table = page.split('<table class="flagged">')[1].split("</table>")[0]
    assert table.count("<tr>") - 1 == len(flagged)                  # header row + one a flagged object
    assert len(drawn["base-objects.png"]) == len(flagged)           # the plot draws the same ones
    assert sum(1 for line in text.splitlines() if "  <- " in line) == len(flagged)
    assert f"{base['flagged']} flagged" in text and f"{base['flagged']} flagged" in page
    for o in flagged:                                               # names from the data, ids beside them
        assert f"<td>{o['name']}</td>" in page.replace("&#x27;", "'")
    assert "greedy" in page and "12 games" in page
    # every figure's title says its games and bots (read back from the PNG's text would need OCR:
    # the titles are checked where they are made)
    assert all(p.stat().st_size > 5000 for p in tmp_path.glob("*.png"))


@pytest.mark.needs("chromium")
def test_balance_page_in_a_headless_browser(tmp_path, capsys):
    """The committed Stonefire report, as a reader sees it: tables, every plot loaded,
    nothing wider than the window (the old page's <pre> ran off its right edge)."""
    import sys
    from playwright.sync_api import sync_playwright
    sys.path.insert(0, str(ROOT / "tools"))
    import web_screenshots as W
    sys.path.pop(0)
    page_file = ROOT / "docs" / "balance" / "stonefire" / "index.html"
    shot = ROOT / "tests" / "screenshots"
    shot.mkdir(exist_ok=True)
    with sync_playwright() as p:
        browser = W.launch(p)
        page = browser.new_page(viewport={"width": 1200, "height": 900})
        page.goto(page_file.as_uri())
        assert page.title().startswith("Balance: stonefire")
        assert page.locator("pre").count() == 0 and page.locator("table").count() >= 10
        images = page.locator("img")
        assert images.count() >= 8
        assert page.evaluate("[...document.images].every(i => i.complete && i.naturalWidth > 0)")
        assert page.evaluate("document.documentElement.scrollWidth") <= 1200
        cards = page.locator("h3", has_text="Restricted play")
        assert cards.count() == 2
        assert page.locator("table.cards td", has_text=re.compile(r"^Storyteller \[")).count() == 1
        page.screenshot(path=str(shot / "balance-stonefire.png"), full_page=True)
        browser.close()
    assert (shot / "balance-stonefire.png").stat().st_size > 50_000
    assert re.search(r"\d+ games", page_file.read_text("utf-8"))
