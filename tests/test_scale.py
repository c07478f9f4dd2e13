"""Scale-out: the same seed gives the same records, and the same digest, in one process,
in forked processes, on a dask LocalCluster and through a dask scheduler's address."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from interpreter import batch, scale
from interpreter.cli.main import main
from interpreter.records import digest

distributed = pytest.importorskip("distributed")   # the `dask` extra (in `test`)

GAME, PLAYERS, GAMES, SEED = "big-foot", 3, 6, 11


# The fork tests come first: the dask fixture below starts threads in this process.

def test_forked_processes_give_the_same_digest(serial_digest):
    assert digest(batch.simulate(GAME, (), PLAYERS, GAMES, SEED, ["random"], workers=2)) == serial_digest


_NO_RECOMPILE = """
import os, sys
from interpreter import batch, scale
assert scale._start_method().get_start_method() == "fork", "workers are not forked"
parent, real = os.getpid(), batch.load_game
def only_in_parent(*args):
    if os.getpid() != parent:
        raise AssertionError("a worker compiled the game again")
    return real(*args)
batch._GAMES.clear()
batch.load_game = only_in_parent
records = batch.simulate("tic-tac-toe", (), 2, 16, 3, ["random"], workers=2)
assert len(records) == 16 and len({r["seed"] for r in records}) == 16
print("ok")
"""


def test_forked_workers_do_not_compile_again():
    """The parent compiles once; forked workers inherit it (issue 10: they compiled again).
    In a fresh process: threads that earlier tests started in this one (dask, browsers)
    would make workers spawn instead of fork, and the test would prove nothing."""
    done = subprocess.run([sys.executable, "-c", _NO_RECOMPILE], capture_output=True, text=True,
                          cwd=str(Path(__file__).resolve().parents[1]), timeout=120)
    assert done.returncode == 0 and done.stdout.strip() == "ok", done.stderr[-2000:]


def _slow_square(x: int, delay: float) -> int:
    time.sleep(delay)
    return x * x


@pytest.mark.skipif(sys.platform == "win32", reason="fork")
def test_results_come_back_in_batch_order():
    # The first batch finishes last; the order of the results is still the batches'.
    seen = []
    out = scale.map_batches(_slow_square, [(1, 0.3), (2, 0.0), (3, 0.0)], workers=2, on_done=seen.append)
    assert out == [1, 4, 9] and sorted(seen) == [1, 4, 9]
    assert scale.map_batches(_slow_square, [(1, 0.0), (2, 0.0)]) == [1, 4]


def _die(code: int) -> None:
    os._exit(code)


def test_a_dead_worker_is_an_error_not_a_traceback():
    with pytest.raises(scale.ScaleError, match="worker process died"):
        scale.map_batches(_die, [(3,), (3,)], workers=2)


def test_fork_only_where_no_other_thread_runs():
    import threading
    if threading.active_count() == 1:
        assert scale._start_method().get_start_method() == "fork"
    stop = threading.Event()
    t = threading.Thread(target=stop.wait)
    t.start()
    try:
        assert scale._start_method().get_start_method() != "fork"
    finally:
        stop.set()
        t.join()


@pytest.fixture(scope="module")
def cluster():
    """One two-process LocalCluster on loopback for the whole module (about 2 s to start),
    its workers spawned: they compile the game themselves, as workers elsewhere do."""
    from distributed import LocalCluster
    import logging
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                      dashboard_address="127.0.0.1:0", worker_dashboard_address=None,
                      silence_logs=logging.ERROR) as c:
        yield c


@pytest.fixture(scope="module")
def serial_digest() -> str:
    return digest(batch.simulate(GAME, (), PLAYERS, GAMES, SEED, ["random"]))


def test_dask_scheduler_gives_the_same_digest(cluster, serial_digest):
    records = batch.simulate(GAME, (), PLAYERS, GAMES, SEED, ["random"], workers=2,
                             scheduler=cluster.scheduler_address)
    assert digest(records) == serial_digest
    # Game i's seed comes from (master seed, i): a longer run starts with the shorter one.
    assert records[:2] == batch.simulate(GAME, (), PLAYERS, 2, SEED, ["random"])
    # Each worker compiled the game once and kept it (6 one-game tasks on 2 workers).
    with distributed.Client(cluster.scheduler_address) as client:
        kept = client.run(lambda: sorted(map(str, batch._GAMES)))
    assert len(kept) == 2 and all(k in ([], [str((GAME, ()))]) for k in kept.values())
    assert any(kept.values())


def test_work_is_cut_for_the_workers_a_cluster_has(cluster):
    # --workers says nothing about a running cluster: the batches fit its 2 workers.
    assert scale.map_batches(pow, lambda n: [(n, 2), (n, 3)], scheduler=cluster.scheduler_address) == [4, 8]
    assert scale.map_batches(pow, lambda n: [(n, 2)], workers=3) == [9]
    assert scale.map_batches(pow, lambda n: [(n, 2)], workers=3, scheduler=None) == [9]
    assert scale.map_batches(pow, lambda n: [(n, 2)]) == [1]


def test_cli_scheduler_address(cluster, capsys, serial_digest):
    rc = main(["simulate", GAME, "--players", str(PLAYERS), "--games", str(GAMES), "--seed", str(SEED),
               "--workers", "2", "--scheduler", cluster.scheduler_address, "--json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["backend"] == "dask" and out["digest"] == serial_digest


def test_cli_local_dask_cluster(capsys, serial_digest):
    # --scheduler local: a LocalCluster of forked workers, started and closed for the job.
    rc = main(["simulate", GAME, "--players", str(PLAYERS), "--games", str(GAMES), "--seed", str(SEED),
               "--workers", "2", "--scheduler", "local", "--json", "--quiet"])
    out = json.loads(capsys.readouterr().out)
    assert rc == 0 and out["backend"] == "dask-local" and out["digest"] == serial_digest


@pytest.mark.parametrize("workers, scheduler, kind", [
    (1, None, "serial"), (3, None, "processes"), (2, "local", "dask-local"),
    (1, "tcp://127.0.0.1:8786", "dask")])
def test_backend_choice(workers, scheduler, kind):
    assert scale.backend(workers, scheduler) == kind


def test_bad_scheduler_is_a_usage_error(capsys):
    rc = main(["simulate", "pig", "--games", "2", "--scheduler", "127.0.0.1:8786", "--quiet"])
    assert rc == 2 and "tcp://HOST:8786" in capsys.readouterr().err


def test_unreachable_scheduler_is_an_error_not_a_hang():
    start = time.monotonic()
    with pytest.raises(scale.ScaleError, match="cannot reach the dask scheduler"):
        scale.map_batches(_slow_square, [(1, 0.0)], scheduler="tcp://127.0.0.1:9", timeout=1)
    assert time.monotonic() - start < 15


def test_missing_dask_says_which_extra(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)
    with pytest.raises(scale.ScaleError, match=r"cairn\[dask\]"):
        scale.map_batches(_slow_square, [(1, 0.0)], scheduler="tcp://127.0.0.1:9")


def test_a_worker_with_other_definitions_is_caught(monkeypatch):
    real = batch.play_range

    def other(*args):
        return [dict(r, definitions_sha256="0" * 64) for r in real(*args)]
    monkeypatch.setattr(batch, "play_range", other)
    with pytest.raises(batch.WorkerMismatch, match="same Cairn"):
        batch.simulate("pig", (), 2, 2, 1, ["random"])
