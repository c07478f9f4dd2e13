"""`--store FILE`: simulate and balance runs appended to a DuckDB file, read back with SQL
and summarised by `cairn results`; a file that is not one is refused with one message."""
from __future__ import annotations

import json

import pytest

from interpreter.cli.main import main

duckdb = pytest.importorskip("duckdb")          # the `results` extra (in `test`)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    rc = main(list(argv))
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return rc, out, err


def test_two_runs_are_compared_with_sql(capsys, tmp_path):
    db = str(tmp_path / "results.duckdb")
    rc, out, err = run(capsys, "simulate", "big-foot", "--players", "3", "--games", "6", "--seed", "1", "--json",
                       "--quiet", "--store", db)
    assert rc == 0 and "stored 6 games as run " in err
    first = json.loads(out)
    rc, out, _ = run(capsys, "simulate", "big-foot", "--players", "3", "--games", "4", "--seed", "2", "--json",
                     "--quiet", "--store", db, "--variant", "deep-snow")
    assert rc == 0
    second = json.loads(out)
    con = duckdb.connect(db, read_only=True)
    rows = con.execute("""
        WITH per_seat AS (
            SELECT run_id, p, sum(CASE WHEN list_contains(winners, p) THEN 1 ELSE 0 END) AS w
            FROM games, range(3) t(p) GROUP BY run_id, p)
        SELECT r.master_seed, r.variants, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id),
               (SELECT list(w ORDER BY p) FROM per_seat s WHERE s.run_id = r.run_id),
               (SELECT sum(decisions) FROM games g WHERE g.run_id = r.run_id)
        FROM runs r ORDER BY r.master_seed""").fetchall()
    con.close()
    assert [(s, list(v), n) for s, v, n, _w, _d in rows] == [(1, [], 6), (2, ["deep-snow"], 4)]
    assert [list(w) for *_x, w, _d in rows] == [first["wins_by_seat"], second["wins_by_seat"]]
    assert [d for *_x, d in rows] == [round(first["mean_decisions"] * 6), round(second["mean_decisions"] * 4)]
    rc, out, _ = run(capsys, "results", db)
    assert rc == 0
    assert out.count("simulate big-foot") == 2 and "simulate big-foot + deep-snow, 3 players, 4/4 games" in out


def test_balance_stores_each_batch(capsys, tmp_path):
    db = str(tmp_path / "b.duckdb")
    rc, _out, _ = run(capsys, "balance", "stonefire", "--games", "4", "--compare", "riverfolk", "--quiet", "--json",
                      "--store", db)
    assert rc == 0
    rc, out, _ = run(capsys, "results", db, "--json")
    runs = json.loads(out)["runs"]
    assert sorted(r["variants"] for r in runs) == [[], ["riverfolk"]]
    assert all(r["command"] == "balance" and r["finished"] == 4 for r in runs)


def test_a_file_that_is_not_a_results_file_is_refused(capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # a short path: a message cuts a long one
    (tmp_path / "junk.duckdb").write_bytes(b"not a database\n" * 100)
    rc, _out, err = run(capsys, "results", "junk.duckdb")
    assert rc == 2 and err.startswith("cairn: junk.duckdb: not a DuckDB results file") and err.count("\n") == 1
    other = tmp_path / "other.duckdb"
    con = duckdb.connect(str(other))
    con.execute("CREATE TABLE runs (x INTEGER)")
    con.close()
    rc, _out, err = run(capsys, "simulate", "pig", "--games", "1", "--quiet", "--store", str(other))
    assert rc == 2 and "table 'runs' has the columns x, not those --store writes" in err
    view = tmp_path / "view.duckdb"
    con = duckdb.connect(str(view))
    con.execute("CREATE VIEW runs AS SELECT 1 AS x")
    con.close()
    rc, _out, err = run(capsys, "results", str(view))
    assert rc == 2 and "'runs' is a view, not a table" in err
    rc, _out, err = run(capsys, "results", str(tmp_path / "none.duckdb"))
    assert rc == 2 and "no such results file" in err
    rc, _out, err = run(capsys, "results", str(tmp_path))
    assert rc == 2 and "not a regular file" in err
