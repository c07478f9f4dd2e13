"""Writes the golden game records in tests/golden/ (a few seeded bot games per game).

tests/test_golden.py replays them on every change: a rule that changes silently shows up
as a record that no longer replays. After an intended rule change, run this again and
review the diff of the records. Usage: python3 tools/golden.py [GAME ...]

`--same-play GAME ...` is for a change that keeps play as it was but changes how the state
is written (a re-encoding): each record's choices must replay, legally, to the same result,
and only the final-state hash is written anew; any other difference is an error.
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


def same_play(gid: str) -> None:
    """Re-hashes a game's records after a change that must not change play."""
    from interpreter.records import _without_log  # noqa: PLC2701 - the record's own hashing
    import hashlib
    from interpreter.engine.state import dumps
    for path in sorted((ROOT / "tests" / "golden").glob(f"{gid}-*.json")):
        rec = json.loads(path.read_text("utf-8"))
        g = load_game(ROOT / "definitions" / gid, rec.get("variants", []))
        state = g.new_initial_state(rec["players"], rec["seed"], log=False)
        for i, a in enumerate(rec["actions"]):
            if state.is_terminal() or a not in state.legal_actions():
                raise SystemExit(f"{path.name}: choice {i} no longer replays: play changed")
            state.apply_action(a)
        if not state.is_terminal() or state.d["result"] != rec["result"] or state.d["turns"] != rec["turns"]:
            raise SystemExit(f"{path.name}: the result changed: play changed ({state.d['result']})")
        rec["final_state_sha256"] = hashlib.sha256(dumps(_without_log(state.d)).encode()).hexdigest()
        path.write_text(json.dumps(rec, indent=None, sort_keys=True) + "\n", "utf-8")
        print(f"{path.relative_to(ROOT)}: same play, state hash rewritten")


def main() -> None:
    args = sys.argv[1:]
    if args[:1] == ["--same-play"]:
        for gid in args[1:]:
            same_play(gid)
        return
    out = ROOT / "tests" / "golden"
    out.mkdir(exist_ok=True)
    for gid in args or game_ids():
        for old in out.glob(f"{gid}-*.json"):
            old.unlink()
    for gid in args or game_ids():
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
