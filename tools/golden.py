"""Writes the golden game records in tests/golden/ (a few seeded bot games per game).

tests/test_golden.py replays them on every change: a rule that changes silently shows up
as a record that no longer replays. After an intended rule change, run this again and
review the diff of the records. Usage: python3 tools/golden.py
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from interpreter.agents import make_agents  # noqa: E402
from interpreter.load.build import load_game  # noqa: E402
from interpreter.load.files import game_ids  # noqa: E402
from interpreter.records import make_record, play  # noqa: E402

SEEDS = (1, 2)


def cases(game_id: str) -> list[tuple[int, int]]:
    """Returns (players, seed) pairs: the smallest and largest player counts, two seeds each."""
    g = load_game(ROOT / "definitions" / game_id)
    counts = sorted({g.min_players, g.max_players})
    return [(n, s) for n in counts for s in SEEDS]


def main() -> None:
    out = ROOT / "tests" / "golden"
    out.mkdir(exist_ok=True)
    for old in out.glob("*.json"):
        old.unlink()
    for gid in game_ids():
        g = load_game(ROOT / "definitions" / gid)
        for n, seed in cases(gid):
            state = play(g, n, seed, make_agents(["random"], n, seed), log=False)
            record = make_record(state, ["random"])
            record.pop("python")
            # Golden records check the rules' outcome, not the files' bytes: an edit that
            # changes no play keeps them valid.
            record.pop("definitions_sha256", None)
            record.pop("definitions_path", None)
            path = out / f"{gid}-{n}p-seed{seed}.json"
            path.write_text(json.dumps(record, indent=None, sort_keys=True) + "\n", "utf-8")
            print(f"wrote {path.relative_to(ROOT)} ({len(record['actions'])} choices)")


if __name__ == "__main__":
    main()
