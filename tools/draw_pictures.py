"""Regenerates docs/pictures/<game>.svg and .png, one picture per game's board, by the
`cairn draw` command: the first choices of a seeded game between random bots are
recorded, then drawn where they end, as the seat deciding there sees it (so its options
are marked).

    python3 tools/draw_pictures.py          # writes them
    python3 tools/draw_pictures.py --check  # exit 1 if an SVG is not current (no PNGs made)
"""
from __future__ import annotations

import json
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.cli.main import main  # noqa: E402
from interpreter.agents import make_agents  # noqa: E402
from interpreter.load.build import load_game  # noqa: E402
from interpreter.records import make_record  # noqa: E402

# game id -> (players, the step of the recorded game drawn)
GAMES = {"big-foot": (4, 30), "footprints": (3, 40), "stonefire": (2, 30), "fantastic-trails": (2, 30),
         "tic-tac-toe": (2, 4), "connect-four": (2, 6)}
SEED = 1


def draw(game: str, folder: Path, outputs: list[Path]) -> int:
    """Records the seeded game's first choices, then draws where they end once per
    output; returns the exit status."""
    players, step = GAMES[game]
    g = load_game(game)
    state = g.new_initial_state(players, SEED)
    agents = make_agents(["random"], players, SEED)
    while len(state.d["actions"]) < step and not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    record = folder / f"{game}.json"
    record.write_text(json.dumps(make_record(state, ["random"] * players)), "utf-8")
    seat = [] if state.is_terminal() else ["--seat", str(state.current_player() + 1)]
    for out in outputs:
        if main(["draw", game, "--record", str(record), *seat, "-o", str(out)]) != 0:
            return 1
    return 0


def run(check: bool) -> int:
    folder = ROOT / "docs" / "pictures"
    folder.mkdir(parents=True, exist_ok=True)
    stale = []
    with tempfile.TemporaryDirectory() as tmp:
        for game in GAMES:
            fresh = Path(tmp) / f"{game}.svg"
            outs = [fresh] if check else [folder / f"{game}.svg", folder / f"{game}.png"]
            if draw(game, Path(tmp), outs) != 0:
                return 1
            if check and fresh.read_text("utf-8") != (folder / f"{game}.svg").read_text("utf-8"):
                stale.append(game)
    if stale:
        print(f"not current: {', '.join(stale)}; run python3 tools/draw_pictures.py", file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(run("--check" in sys.argv[1:]))
