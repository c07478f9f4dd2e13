"""An expansion is a folder (overlay.yaml, scenarios/, NOTES.md) kept anywhere: every
command that takes a game takes it with --variant DIR, finds its overlay and its own
scenarios, and `cairn new-expansion` writes one that validates. The folder used here is
the tutorial's Lucky Charm (docs/modding/), moved outside definitions/."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from interpreter.cli.main import main

ROOT = Path(__file__).resolve().parents[1]
MODDING = ROOT / "docs" / "modding"


@pytest.fixture
def lucky(tmp_path) -> str:
    """DIR/overlay.yaml and DIR/scenarios/rules.yaml, outside definitions/. The scenarios
    no longer name the overlay in `variants:`: the folder applies itself."""
    folder = tmp_path / "lucky-charm"
    (folder / "scenarios").mkdir(parents=True)
    (folder / "overlay.yaml").write_text((MODDING / "lucky-charm.yaml").read_text("utf-8"), "utf-8")
    text = (MODDING / "scenarios.yaml").read_text("utf-8")
    assert "variants: [lucky-charm.yaml]\n" in text
    (folder / "scenarios" / "rules.yaml").write_text(text.replace("variants: [lucky-charm.yaml]\n", ""), "utf-8")
    (folder / "NOTES.md").write_text("# Lucky Charm\n\nInvented for the tutorial.\n", "utf-8")
    return str(folder)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_validate_checks_the_folders_overlay_and_its_scenario_files(lucky, capsys):
    assert run(capsys, "validate", "big-foot", "--variant", lucky)[0] == 0
    rules = Path(lucky) / "scenarios" / "rules.yaml"
    rules.write_text(rules.read_text("utf-8").replace("{a5: [red.1], deck:", "{a55: [red.1], deck:"), "utf-8")
    code, out, _ = run(capsys, "validate", "big-foot", "--variant", lucky)
    assert code == 1 and f"{rules}:7:16: no place 'a55' at 2 players" in out


def test_scenarios_runs_the_games_and_the_expansions_own(lucky, capsys):
    code, out, _ = run(capsys, "scenarios", "big-foot", "--variant", lucky, "--json")
    doc = json.loads(out)
    mine = [r for r in doc["scenarios"] if r["where"].startswith(lucky)]
    assert code == 0 and doc["failed"] == 0
    assert [r["name"] for r in mine][:1] == ["a Lucky Charm drawn is kept face up"] and len(mine) == 4
    assert len(doc["scenarios"]) > len(mine)           # the game's own (the base) ran too


def test_coverage_counts_the_expansions_scenarios(lucky, capsys):
    code, out, _ = run(capsys, "coverage", "big-foot", "--variant", lucky, "--games", "0", "--json")
    rows = {r["id"]: r for r in json.loads(out)["clauses"]}
    assert code == 0 and rows["lucky-charm-keep"]["encoded_by"]
    assert len(rows["lucky-charm-keep"]["tested_by"]) == 1 and len(rows["lucky-charm-escape"]["tested_by"]) == 3


def test_manifest_lists_the_expansions_cards(lucky, capsys):
    base = json.loads(run(capsys, "manifest", "big-foot", "--json")[1])["components"]
    code, out, _ = run(capsys, "manifest", "big-foot", "--variant", lucky, "--json")
    assert code == 0 and json.loads(out)["components"]["card"] == base["card"] + 2   # the two Lucky Charms


def test_rules_renders_the_expansion(lucky, capsys):
    code, out, _ = run(capsys, "rules", "big-foot", "--variant", lucky)
    assert code == 0 and "Lucky Charm" in out and "lucky-charm-keep" in out


def test_diff_lists_what_the_folder_changes(lucky, capsys):
    code, out, _ = run(capsys, "diff", "big-foot", "--variant", lucky, "--json")
    assert code == 1 and "lucky-charm" in out and "double_factor" in out


def test_simulate_plays_with_the_folder(lucky, capsys):
    code, out, _ = run(capsys, "simulate", "big-foot", "--variant", lucky, "--games", "3", "--seed", "1", "--json", "--quiet")
    doc = json.loads(out)
    base = json.loads(run(capsys, "simulate", "big-foot", "--games", "3", "--seed", "1", "--json", "--quiet")[1])
    assert code == 0 and doc["variants"] == [lucky] and doc["finished"] == 3 and not doc["aborted"]
    assert doc["digest"] != base["digest"]          # the expansion's rules were played


def test_balance_plays_with_the_folder(lucky, capsys):
    code, out, _ = run(capsys, "balance", "big-foot", "--variant", lucky, "--games", "2", "--seed", "1", "--json", "--quiet")
    assert code == 0 and json.loads(out)["base"]


def test_play_records_the_folder_and_the_record_replays(lucky, capsys, tmp_path):
    record = tmp_path / "g.json"
    code, out, _ = run(capsys, "play", "big-foot", "--variant", lucky, "--seats", "random,random", "--seed", "3",
                       "--record", str(record))
    assert code == 0 and json.loads(record.read_text("utf-8"))["variants"] == [lucky]
    assert run(capsys, "replay", str(record))[0] == 0


def test_draw_draws_a_game_with_the_folder(lucky, capsys, tmp_path):
    out = tmp_path / "b.svg"
    code, text, _ = run(capsys, "draw", "big-foot", "--variant", lucky, "--seat", "1", "-o", str(out), "--json")
    assert code == 0 and json.loads(text)["variants"] == [lucky] and out.read_text("utf-8").startswith("<")


def test_serve_offers_the_expansion_in_the_form(lucky):
    import urllib.request
    from interpreter.web.app import create_app
    from interpreter.web.games import Catalogue
    from interpreter.web.server import start_in_thread
    running = start_in_thread(create_app(Catalogue([ROOT / "definitions" / "big-foot"], [lucky]), game="big-foot"))

    def call(path: str, body: dict | None = None) -> dict:
        req = urllib.request.Request(running.url.rstrip("/") + path, None if body is None else json.dumps(body).encode(),
                                     {"Content-Type": "application/json", "Origin": running.url.rstrip("/")})
        with urllib.request.urlopen(req, timeout=60) as fh:
            return json.loads(fh.read())
    try:
        games = call("/api/games")
        row = next(r for r in games["games"] if r["id"] == "big-foot")
        assert games["default"] == "big-foot" and row["variants"]["lucky-charm"] == "Lucky Charm"
        made = call("/api/tables", {"game": "big-foot", "variants": ["lucky-charm"], "players": 2, "seat": 0, "bot": "random"})
        assert made["table"] and made["variants"] == [lucky]
    finally:
        running.stop()


def test_serve_without_a_game_refuses_a_variant(lucky, capsys):
    code, _, err = run(capsys, "serve", "--variant", lucky)
    assert code == 2 and "--variant needs the game" in err


@pytest.mark.parametrize("command", [["validate", "big-foot"], ["simulate", "big-foot", "--games", "1"],
                                     ["scenarios", "big-foot"], ["rules", "big-foot"]])
def test_a_folder_without_overlay_yaml_is_one_clear_error(tmp_path, capsys, command):
    empty = tmp_path / "not-an-expansion"
    empty.mkdir()
    code, out, err = run(capsys, *command, "--variant", str(empty))
    said = [line for line in (out + err).splitlines() if "overlay.yaml" in line]
    assert code == 1 and len(said) == 1 and said[0].startswith(f"{empty}:1:1: the folder {empty} holds no overlay.yaml")
    assert "Traceback" not in out + err


def test_new_expansion_writes_a_skeleton_that_validates_and_passes(tmp_path, capsys):
    folder = tmp_path / "My-Expansion"
    assert run(capsys, "new-expansion", "big-foot", str(folder))[0] == 0
    overlay = (folder / "overlay.yaml").read_text("utf-8")
    assert "id: my-expansion" in overlay and "format: 2" in overlay and "invented" in (folder / "NOTES.md").read_text("utf-8")
    assert run(capsys, "validate", "big-foot", "--variant", str(folder))[0] == 0
    code, out, _ = run(capsys, "scenarios", "big-foot", "--variant", str(folder), "-k", "my-expansion", "--json")
    doc = json.loads(out)
    assert code == 0 and doc["passed"] == 1 and doc["scenarios"][0]["clauses"] == ["my-expansion-example"]
    code, out, _ = run(capsys, "coverage", "big-foot", "--variant", str(folder), "--games", "0", "--json")
    row = next(r for r in json.loads(out)["clauses"] if r["id"] == "my-expansion-example")
    assert row["encoded_by"] and row["tested_by"]


def test_new_expansion_refuses_a_folder_that_is_not_empty(tmp_path, capsys):
    (tmp_path / "taken").mkdir()
    (tmp_path / "taken" / "x.txt").write_text("mine", "utf-8")
    code, _, err = run(capsys, "new-expansion", "big-foot", str(tmp_path / "taken"))
    assert code == 2 and "not an empty folder" in err and (tmp_path / "taken" / "x.txt").read_text("utf-8") == "mine"


def test_the_folders_terminal_hints_join_the_games(lucky, capsys):
    from interpreter.load.build import load_game
    hints = Path(lucky) / "terminal.yaml"
    hints.write_text("terminal:\n  glyphs: {lucky-charm: $}\n  picture:\n    pieces: {lucky-charm: '#ffd700'}\n", "utf-8")
    base, g = load_game("big-foot"), load_game("big-foot", [lucky])
    assert g.terminal["glyphs"] == {**base.terminal["glyphs"], "lucky-charm": "$"}
    assert g.terminal["picture"]["pieces"] == {**base.terminal["picture"]["pieces"], "lucky-charm": "#ffd700"}
    assert g.terminal["picture"]["fills"] == base.terminal["picture"]["fills"]      # the game's kept
    hints.write_text("terminal:\n  hide: [no_such_var]\n", "utf-8")
    code, out, _ = run(capsys, "validate", "big-foot", "--variant", lucky)
    assert code == 1 and f"{hints}:2:10: terminal hide names 'no_such_var', which is not a variable" in out


def test_a_missing_folder_is_one_clear_error(tmp_path, capsys):
    gone = tmp_path / "gone"
    code, out, err = run(capsys, "validate", "big-foot", "--variant", str(gone))
    assert code == 1 and f"{gone}:1:1: no expansion folder {gone}" in out and "Traceback" not in out + err
