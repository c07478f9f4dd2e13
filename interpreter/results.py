"""Results kept in a DuckDB file (`--store results.duckdb`): each simulate or balance run
appends one row to `runs` and one row a game to `games`, so runs made on different days,
with other variants, bots or definitions, are compared with SQL or pandas instead of by
reading printed reports side by side. `cairn results FILE` prints a summary per run.

The file is the user's input like any other: a file that is not a DuckDB database, or
one whose tables are not the ones written here, is refused with one message."""
from __future__ import annotations

import json
import uuid
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Sequence

SCHEMA_VERSION = 1
RUNS = {"run_id": "VARCHAR", "started": "TIMESTAMPTZ", "command": "VARCHAR", "game": "VARCHAR",
        "definitions_sha256": "VARCHAR", "variants": "VARCHAR[]", "players": "INTEGER", "games": "INTEGER",
        "master_seed": "BIGINT", "bots": "VARCHAR[]", "rotate": "BOOLEAN", "schema_version": "INTEGER"}
GAMES = {"run_id": "VARCHAR", "game_index": "INTEGER", "seed": "UBIGINT", "seats": "VARCHAR[]",
         "scores": "DOUBLE[]", "winners": "INTEGER[]", "reason": "VARCHAR", "turns": "INTEGER",
         "decisions": "INTEGER", "final_state_sha256": "VARCHAR", "holdings": "JSON"}
TABLES = {"runs": RUNS, "games": GAMES}
SAFE = {"enable_external_access": False, "autoload_known_extensions": False, "autoinstall_known_extensions": False}


class ResultsError(Exception):
    """A results file that cannot be opened or is not one Cairn wrote (the message names it)."""


def _duckdb() -> Any:
    try:
        import duckdb
    except ImportError:
        raise ResultsError("--store and `cairn results` need DuckDB: pip install 'cairn[results]'") from None
    return duckdb


def connect(path: Path, *, create: bool) -> Any:
    """Returns a connection to a results file whose tables are checked (created if asked)."""
    duckdb = _duckdb()
    if Path(path).exists() and not Path(path).is_file():
        raise ResultsError(f"{path}: not a regular file")
    if not create and not Path(path).is_file():
        raise ResultsError(f"{path}: no such results file")
    try:
        # The file is input: its views may not read other files, nor load extensions.
        con = duckdb.connect(str(path), read_only=not create, config=SAFE)
    except duckdb.Error as err:
        raise ResultsError(f"{path}: not a DuckDB results file ({_first_line(err)})") from None
    try:
        _check_tables(con, path, create)
    except BaseException:
        con.close()
        raise
    return con


def _first_line(err: Exception) -> str:
    return str(err).strip().splitlines()[0][:200] if str(err).strip() else type(err).__name__


def _check_tables(con: Any, path: Path, create: bool) -> None:
    kinds = dict(con.execute("SELECT table_name, table_type FROM information_schema.tables").fetchall())
    for name in TABLES:
        if kinds.get(name, "BASE TABLE") != "BASE TABLE":
            raise ResultsError(f"{path}: '{name}' is a {kinds[name].lower()}, not a table: not a file written by --store")
    have = {name: dict(con.execute("SELECT column_name, data_type FROM information_schema.columns "
                                   "WHERE table_name = ? ORDER BY ordinal_position", [name]).fetchall())
            for name in TABLES}
    for name, columns in TABLES.items():
        if not have[name]:
            if not create:
                raise ResultsError(f"{path}: has no table '{name}': not a file written by --store")
            con.execute(f"CREATE TABLE {name} (" + ", ".join(f"{c} {t}" for c, t in columns.items()) + ")")
        elif list(have[name]) != list(columns):
            raise ResultsError(f"{path}: table '{name}' has the columns {', '.join(have[name])}, "
                               f"not those --store writes ({', '.join(columns)})")


def store_run(path: Path, *, command: str, game: str, definitions_sha256: str, variants: Sequence[str],
              players: int, master_seed: int, bots: Sequence[str], rotate: bool, records: list[dict]) -> str:
    """Appends a run and its games; returns the run's id."""
    run_id = uuid.uuid4().hex[:12]
    con = connect(path, create=True)
    try:
        con.execute("BEGIN")
        con.execute("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [run_id, datetime.now(timezone.utc), command, game, definitions_sha256, list(variants), players,
                     len(records), master_seed, list(bots), rotate, SCHEMA_VERSION])
        con.executemany("INSERT INTO games VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [_game_row(run_id, i, r, bots, players) for i, r in enumerate(records)])
        con.execute("COMMIT")
    finally:
        con.close()
    return run_id


def _game_row(run_id: str, index: int, r: dict, bots: Sequence[str], players: int) -> list:
    seats = list(r.get("agents") or bots)
    seats = [seats[min(p, len(seats) - 1)] for p in range(players)] if seats else ["random"] * players
    res = r["result"]
    holdings = r.get("final")
    return [run_id, index, r["seed"], seats, [float(s) for s in res["scores"]], list(res["winners"]), res["reason"],
            r["turns"], len(r["actions"]), r["final_state_sha256"],
            json.dumps(holdings, sort_keys=True) if holdings is not None else None]


def summary(path: Path) -> list[dict[str, Any]]:
    """Returns a row per run: what was played, and the win rate of each seat and each bot."""
    con = connect(path, create=False)
    try:
        runs = con.execute("SELECT run_id, started, command, game, variants, players, games, master_seed, bots, "
                           "definitions_sha256 FROM runs ORDER BY started, run_id").fetchall()
        out = []
        for run_id, started, command, game, variants, players, games, seed, bots, sha in runs:
            by_seat = con.execute("SELECT p, avg(CASE WHEN list_contains(winners, p) THEN 1.0 ELSE 0.0 END) "
                                  "FROM games, range(?) t(p) WHERE run_id = ? GROUP BY p ORDER BY p",
                                  [players, run_id]).fetchall()
            by_bot = con.execute("SELECT seats[p + 1] AS bot, avg(CASE WHEN list_contains(winners, p) "
                                 "THEN 1.0 ELSE 0.0 END), count(*) FROM games, range(?) t(p) WHERE run_id = ? "
                                 "GROUP BY bot ORDER BY bot", [players, run_id]).fetchall()
            turns, decisions, finished = con.execute(
                "SELECT avg(turns), avg(decisions), count(*) FILTER (WHERE reason != 'aborted') FROM games "
                "WHERE run_id = ?", [run_id]).fetchone()
            out.append({"run_id": run_id, "started": started.isoformat(timespec="seconds"), "command": command,
                        "game": game, "variants": list(variants), "players": players, "games": games,
                        "finished": finished, "seed": seed, "bots": list(bots), "definitions_sha256": sha[:12],
                        "win_rate_by_seat": [round(r, 4) for _p, r in by_seat],
                        "win_rate_by_bot": {b: {"rate": round(r, 4), "seats": n} for b, r, n in by_bot},
                        "mean_turns": round(turns or 0, 2), "mean_decisions": round(decisions or 0, 2)})
        return out
    finally:
        con.close()
