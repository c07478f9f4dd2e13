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

from interpreter.agents import make_agents  # noqa: E402
from interpreter.cli.main import main  # noqa: E402
from interpreter.draw import draw_svg  # noqa: E402
from interpreter.engine.game import GameState  # noqa: E402
from interpreter.load.build import load_game  # noqa: E402
from interpreter.records import make_record  # noqa: E402

# game id -> (players, the choices made before the picture)
GAMES = {"big-foot": (4, 30), "footprints": (3, 40), "stonefire": (2, 30), "fantastic-trails": (2, 30),
         "tic-tac-toe": (2, 4), "connect-four": (2, 6)}
SEED = 1
FOLDER = ROOT / "docs" / "pictures"


def played(game: str) -> GameState:
    """The seeded game between random bots after its first choices."""
    players, step = GAMES[game]
    state = load_game(game).new_initial_state(players, SEED)
    agents = make_agents(["random"], players, SEED)
    while len(state.d["actions"]) < step and not state.is_terminal():
        state.apply_action(agents[state.current_player()].step(state))
    return state


def seat_of(state: GameState) -> int | None:
    """The seat drawn: the one deciding (None, a spectator, once the game is over)."""
    return None if state.is_terminal() else state.current_player()


def write(game: str, tmp: Path) -> int:
    """Records the game's first choices and draws them by the command, SVG and PNG."""
    state = played(game)
    record = tmp / f"{game}.json"
    record.write_text(json.dumps(make_record(state, ["random"] * state.d["n"])), "utf-8")
    seat = seat_of(state)
    for ext in ("svg", "png"):
        args = ["draw", game, "--record", str(record), "-o", str(FOLDER / f"{game}.{ext}")]
        if main(args + ([] if seat is None else ["--seat", str(seat + 1)])) != 0:
            return 1
    return 0


def stale() -> list[str]:
    """The games whose committed SVG differs from what the command would draw now."""
    out = []
    for game in GAMES:
        state = played(game)
        path = FOLDER / f"{game}.svg"
        if not path.is_file() or path.read_text("utf-8") != draw_svg(state.game, state.d, seat_of(state)):
            out.append(game)
    return out


def run(check: bool) -> int:
    if check:
        old = stale()
        if old:
            print(f"not current: {', '.join(old)}; run python3 tools/draw_pictures.py", file=sys.stderr)
        return 1 if old else 0
    FOLDER.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        return max(write(game, Path(tmp)) for game in GAMES)


if __name__ == "__main__":
    sys.exit(run("--check" in sys.argv[1:]))
