"""Game records: what was played (definitions version, variants, seed, every choice), so
`cairn replay` can re-run a game and check it ends the same, byte for byte."""
from __future__ import annotations

import hashlib
import json
import os
import stat
from pathlib import Path
from typing import Any, Callable

from .engine.game import CompiledGame, GameState, python_version
from .engine.vm import check_waiting
from .engine.state import dumps
from .lang.values import MAX_ACTIONS
from .words import plural

RECORD_FORMAT = 1            # the format this Cairn writes
RECORD_FORMATS = (1,)        # the formats it reads


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


def read_bounded(path: Path, limit: int) -> str:
    """Returns a regular file's text, read only up to `limit` bytes: a save or a record is
    input like any other, so a FIFO, a device or a huge file is refused, never read whole.
    Raises OSError, UnicodeDecodeError or ValueError (too big, not a regular file)."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as fh:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise ValueError("not a regular file")
        chunks, size = [], 0
        while size <= limit:                 # in pieces: no buffer of `limit` bytes made up front
            chunk = fh.read(min(2 ** 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    if size > limit:
        raise ValueError(f"larger than {limit:,} bytes, the most Cairn reads")
    return b"".join(chunks).decode("utf-8")


def read_records(path: Path) -> list:
    """Returns the records in a file: one JSON record, a JSON list of them, or one a line
    (as `simulate --records` writes); their fields are checked by shape_problem."""
    try:
        text = read_bounded(Path(path), MAX_RECORD_BYTES)
    except (OSError, UnicodeDecodeError, ValueError) as err:
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


_TEXT_LIMIT = 4096
MAX_RECORD_BYTES = 256 * 2 ** 20   # a record file read whole, at most this big


def excerpt(x: Any, limit: int = 40) -> str:
    """Returns a value as an error shows it: its JSON text, cut to a short excerpt."""
    try:
        text = json.dumps(x, ensure_ascii=False)
    except (TypeError, ValueError, RecursionError):
        text = type(x).__name__
    return text if len(text) <= limit else text[:limit - 3] + "..."


def _whole(x: Any, low: int, high: int) -> bool:
    return type(x) is int and low <= x < high


def _texts(x: Any, limit: int = 1000) -> bool:
    return type(x) is list and len(x) <= limit and all(type(v) is str and len(v) <= _TEXT_LIMIT for v in x)


def _sha(x: Any) -> bool:
    return type(x) is str and len(x) == 64 and all(ch in "0123456789abcdef" for ch in x)


# field -> (required, check, what it must be)
RECORD_FIELDS: dict[str, tuple[bool, Callable[[Any], bool], str]] = {
    "cairn_record": (True, lambda x: x in RECORD_FORMATS, "a record version"),
    "game": (True, lambda x: type(x) is str and 0 < len(x) <= 200, "a game id"),
    "definitions_version": (False, lambda x: type(x) is str and len(x) <= 200, "text"),
    "definitions_sha256": (False, _sha, "64 hex digits"),
    "definitions_path": (False, lambda x: type(x) is str and 0 < len(x) <= _TEXT_LIMIT, "a folder"),
    "variants": (False, lambda x: _texts(x, 100) and len(set(x)) == len(x), "a list of variant names, each once"),
    "players": (True, lambda x: _whole(x, 1, 1000), "a number of players"),
    "seed": (True, lambda x: type(x) is int, "a whole number"),     # any the engine takes (--seed)
    "python": (False, lambda x: type(x) is str and len(x) <= 20, "a Python version"),
    "agents": (False, _texts, "a list of seat kinds"),
    "actions": (True, lambda x: type(x) is list and len(x) <= MAX_ACTIONS
                and all(type(a) is int and 0 <= a < 2 ** 31 for a in x), f"a list of at most {MAX_ACTIONS:,} option numbers"),
    "turns": (False, lambda x: _whole(x, 0, 2 ** 63), "a number of turns"),
    "result": (True, lambda x: x is None or type(x) is dict, "a result or null"),
    "final_state_sha256": (True, _sha, "64 hex digits"),
    "final": (False, lambda x: True, "anything"),           # batch.play_batch's summary of the end
}


def shape_problem(record: Any) -> str | None:
    """Returns what makes `record` not a sound Cairn record (its fields' kinds), or None:
    every field known and of its kind, the format one this Cairn reads."""
    if not isinstance(record, dict) or "cairn_record" not in record:
        return "is not a Cairn game record"
    version = record["cairn_record"]
    if type(version) is not int:
        return f"field 'cairn_record' must be a whole number (the record's format), got {excerpt(version)}"
    if version not in RECORD_FORMATS:
        return (f"is a record of format {excerpt(version)}; this Cairn reads record format "
                + " and ".join(map(str, RECORD_FORMATS)))
    for key, (required, check, what) in RECORD_FIELDS.items():
        if key not in record:
            if required:
                return f"field '{key}' is missing"
        elif not check(record[key]):
            return f"field '{key}' must be {what}, got {excerpt(record[key])}"
    unknown = sorted(k for k in record if k not in RECORD_FIELDS)
    if unknown:
        return f"unknown field {excerpt(unknown[0])} (a record has {', '.join(RECORD_FIELDS)})"
    return None


def replay(game: CompiledGame, record: dict) -> tuple[bool, str]:
    """Re-runs a record (its fields checked by shape_problem); returns (same result, explanation)."""
    state, problem = verify(game, record)
    if problem is not None:
        return False, problem
    if not state.is_terminal():
        return False, "the record ends before the game does"
    return True, f"replayed {plural(len(record['actions']), 'choice')}: same result, same final state"


def verify(game: CompiledGame, record: dict, what: str = "record", log: bool = False,
           deciders: list | None = None) -> tuple[GameState | None, str | None]:
    """Returns the state a record's choices make on these definitions, and what differs
    from what the record says (None when nothing does): its definitions, variants,
    players, every choice, the result and the final state's hash, which binds the seed
    and every choice, so no change to either goes unseen. `record` has passed shape_problem.
    `deciders`, when given, gets the seat deciding before each choice and at the end (None
    once the game is over)."""
    if record["game"] != game.id:
        return None, f"the {what} is of {excerpt(record['game'])}, not of {game.id}"
    recorded = record.get("definitions_sha256")
    if recorded is not None and recorded != game.content_hash:
        return None, (f"the {what} was played with other definitions of {game.id} (sha256 {recorded[:12]}...), "
                      f"not these ({game.content_hash[:12]}...): use the definitions it names")
    variants = record.get("variants", [])
    if variants != list(game.variants):
        return None, f"the {what} names variants {excerpt(variants)}, but these definitions have {list(game.variants)}"
    n = record["players"]
    if not game.min_players <= n <= game.max_players:
        return None, f"the {what} has {plural(n, 'player')}; {game.id} takes {game.min_players} to {game.max_players}"
    state = game.new_initial_state(n, record["seed"], log=log)
    for i, action in enumerate(record["actions"]):
        if state.is_terminal():
            return None, f"the game ended after {i} of the {what}'s {plural(len(record['actions']), 'choice')}"
        if action not in state.legal_actions():
            return None, f"choice {i + 1} ({action}) is not legal there: {plural(len(state.legal_actions()), 'option')}"
        if deciders is not None:
            deciders.append(state.current_player())
        state.apply_action(action)
    if deciders is not None:
        deciders.append(None if state.is_terminal() else state.current_player())
    again = make_record(state, record.get("agents"))
    if again["result"] != record["result"]:
        return None, (f"result differs: recorded {excerpt(record['result'], 80)}, replayed "
                      f"{excerpt(again['result'], 80)}; the {what} was changed or made by other definitions")
    if again["final_state_sha256"] != record["final_state_sha256"]:
        return None, (f"the choices replay to state sha256 {again['final_state_sha256'][:12]}..., but the {what} "
                      f"says {record['final_state_sha256'][:12]}...; the {what} was changed or made by other definitions")
    if "turns" in record and record["turns"] != again["turns"]:
        return None, f"the {what} says {record['turns']} turns, the choices replay to {again['turns']}"
    return state, None


def digest(records: list[dict]) -> str:
    """Returns a SHA-256 over canonical JSON of all records (equal seeds, equal digests)."""
    h = hashlib.sha256()
    for r in records:
        r = {k: v for k, v in r.items() if k != "python"}   # our RNG does not depend on it
        h.update(json.dumps(r, sort_keys=True, separators=(",", ":")).encode())
        h.update(b"\n")
    return h.hexdigest()
