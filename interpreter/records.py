"""Game records: what was played (definitions version, variants, seed, every choice), so
`cairn replay` can re-run a game and check it ends the same, byte for byte."""
from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any, Callable

from .engine.game import CompiledGame, GameState, python_version
from .engine.vm import check_waiting
from .engine.state import dumps
from .words import plural

RECORD_FORMAT = 1


def play(game: CompiledGame, players: int, seed: int, agents: list, log: bool = True,
         on_step: Callable[[GameState], None] | None = None, max_actions: int = 1_000_000) -> GameState:
    """Plays one game between agents and returns the final state."""
    state = game.new_initial_state(players, seed, log=log)
    count = 0
    while not state.is_terminal():
        if on_step is not None:
            on_step(state)
        state.apply_action(agents[state.current_player()].step(state))
        count += 1
        if count > max_actions:
            raise RuntimeError(f"game did not end within {max_actions} decisions")
    return state


def make_record(state: GameState, agents: list[str] | None = None) -> dict[str, Any]:
    """Returns the JSON record of a finished (or unfinished) game."""
    g = state.game
    check_waiting(g, state.d)
    extra: dict[str, Any] = {"definitions_sha256": g.content_hash}
    if not is_builtin(g):
        extra["definitions_path"] = g.source_dir
    return {"cairn_record": RECORD_FORMAT, "game": g.id, "definitions_version": g.version, **extra,
            "variants": list(g.variants), "players": state.d["n"], "seed": state.d["seed"],
            "python": python_version(), "agents": agents or [], "actions": list(state.d["actions"]),
            "turns": state.d["turns"], "result": state.d["result"],
            "final_state_sha256": hashlib.sha256(dumps(_without_log(state.d)).encode()).hexdigest()}


def _without_log(d: dict) -> dict:
    # The log depends on whether logging was on; the rules' outcome does not.
    return {k: v for k, v in d.items() if k not in ("log", "log_on")}


def is_builtin(g: CompiledGame) -> bool:
    """Whether a game was built from the definitions shipped with Cairn."""
    from .load.files import definitions_root
    try:
        Path(g.source_dir).resolve().relative_to(definitions_root().resolve())
        return True
    except ValueError:
        return False


class RecordFileError(ValueError):
    """A record file that cannot be read as JSON records; the message names the file."""


def read_records(path: Path) -> list:
    """Returns the records in a file: one JSON record, a JSON list of them, or one a line
    (as `simulate --records` writes); their fields are checked by shape_problem."""
    try:
        text = Path(path).read_text("utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise RecordFileError(f"cannot read record {path}: {err}") from None
    if not text.strip():
        raise RecordFileError(f"{path} is empty: no record to replay")
    try:
        data = json.loads(text)
        records = data if isinstance(data, list) else [data]
    except (json.JSONDecodeError, RecursionError):
        try:
            records = [json.loads(line) for line in text.splitlines() if line.strip()]
        except (json.JSONDecodeError, RecursionError) as err:
            raise RecordFileError(f"cannot read record {path}: {err}") from None
    if not records:
        raise RecordFileError(f"{path} holds no record")
    return records


def shape_problem(record: Any) -> str | None:
    """Returns what makes `record` not a sound Cairn record (its fields' kinds), or None."""
    if not isinstance(record, dict) or record.get("cairn_record") is None:
        return "is not a Cairn game record"
    shape = {"game": str, "players": int, "seed": int, "actions": list, "result": (dict, type(None)),
             "final_state_sha256": str}
    for key, kind in shape.items():
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            return f"field '{key}' is missing or not a {getattr(kind, '__name__', 'record')}"
    if not all(isinstance(a, int) and not isinstance(a, bool) for a in record["actions"]):
        return "'actions' must be a list of option numbers"
    variants = record.get("variants", [])
    if not isinstance(variants, list) or not all(isinstance(v, str) for v in variants):
        return "'variants' must be a list of variant names"
    return None


def replay(game: CompiledGame, record: dict) -> tuple[bool, str]:
    """Re-runs a record; returns (same result, explanation)."""
    recorded = record.get("definitions_sha256")
    if recorded and recorded != game.content_hash:
        return False, (f"the record was played with other definitions (sha256 {recorded[:12]}...), "
                       f"not these ({game.content_hash[:12]}...): replay it with the definitions it names")
    state = game.new_initial_state(record["players"], record["seed"], log=False)
    for i, action in enumerate(record["actions"]):
        if state.is_terminal():
            return False, f"the game ended after {i} of {plural(len(record['actions']), 'choice')}"
        if action not in state.legal_actions():
            return False, f"choice {i} ({action}) is not legal here: {len(state.legal_actions())} options"
        state.apply_action(action)
    again = make_record(state, record.get("agents"))
    if again["result"] != record["result"]:
        return False, f"result differs: recorded {record['result']}, replayed {again['result']}"
    if again["final_state_sha256"] != record["final_state_sha256"]:
        return False, "final state differs (same result, different position)"
    if not state.is_terminal():
        return False, "the record ends before the game does"
    return True, f"replayed {plural(len(record['actions']), 'choice')}: same result, same final state"


def digest(records: list[dict]) -> str:
    """Returns a SHA-256 over canonical JSON of all records (equal seeds, equal digests)."""
    h = hashlib.sha256()
    for r in records:
        r = {k: v for k, v in r.items() if k != "python"}   # our RNG does not depend on it
        h.update(json.dumps(r, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()
