"""Where many batches of work run: one process, the standard library's processes, a local
dask cluster, or an existing dask scheduler. `map_batches` hides the choice: it maps a
function over argument tuples and returns the results in the order of the batches, so a
caller's output never depends on where (or in what order) the batches ran.

Why both pools: on one machine, forked standard-library processes start in milliseconds
and inherit what the parent already compiled; a dask cluster adds a scheduler and a
network hop per task, which earns its cost across machines (`--scheduler tcp://HOST:8786`).
Measured numbers are in docs/SCALE.md.
"""
from __future__ import annotations

import logging
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, as_completed
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Callable, Iterator, Sequence

LOCAL = "local"   # --scheduler local: a dask LocalCluster of --workers processes


class ScaleError(Exception):
    """A scale-out request that cannot be met (dask missing, scheduler unreachable)."""


def backend(workers: int, scheduler: str | None) -> str:
    """Returns which executor a job runs on: serial, processes, dask-local or dask."""
    if scheduler is None:
        return "serial" if workers <= 1 else "processes"
    if scheduler == LOCAL:
        return "dask-local"
    if "://" not in scheduler:
        raise ScaleError(f"expected a scheduler address like tcp://HOST:8786 or '{LOCAL}', got {scheduler!r}")
    return "dask"


Batches = Sequence[tuple] | Callable[[int], Sequence[tuple]]


def map_batches(fn: Callable[..., Any], batches: Batches, *, workers: int = 1,
                scheduler: str | None = None, on_done: Callable[[Any], None] | None = None,
                timeout: float = 10.0) -> list[Any]:
    """Returns [fn(*b) for b in batches], computed where `workers`/`scheduler` say.
    `batches` may be a function of the number of workers there are (a running cluster's
    own count, not `workers`), so work is cut to fit; `on_done` sees each result as it
    arrives (in any order: for progress only); a dask scheduler not reached within
    `timeout` seconds is a ScaleError."""
    kind = backend(workers, scheduler)
    done = on_done or (lambda _result: None)
    cut = batches if callable(batches) else (lambda _n: batches)
    if kind == "serial":
        out = []
        for b in cut(1):
            out.append(fn(*b))
            done(out[-1])
        return out
    try:
        if kind == "processes":
            todo = cut(workers)
            return _in_order(_process_pool(fn, todo, workers), len(todo), done)
        with _DaskClient(scheduler, workers, timeout) as client:
            todo = cut(max(1, len(client.scheduler_info().get("workers", {}))))
            return _in_order(_dask(client, fn, todo), len(todo), done)
    except BrokenProcessPool as err:
        raise ScaleError(f"a worker process died ({err}); run with --workers 1 to see why") from None
    except ImportError as err:
        # Raised on a dask worker that lacks Cairn (or another version of it).
        raise ScaleError(f"a worker could not import what the job needs ({err}): install the same "
                         "Cairn on every worker") from None


def _in_order(pairs: Iterator[tuple[int, Any]], count: int, done: Callable[[Any], None]) -> list[Any]:
    results: list[Any] = [None] * count
    for i, result in pairs:
        results[i] = result
        done(result)
    return results


def _process_pool(fn: Callable, batches: Sequence[tuple], workers: int) -> Iterator[tuple[int, Any]]:
    with ProcessPoolExecutor(max_workers=workers, mp_context=_start_method(fn)) as pool:
        futures = {pool.submit(fn, *b): i for i, b in enumerate(batches)}
        for fut in as_completed(futures):
            yield futures[fut], fut.result()


def _start_method(fn: Callable | None = None) -> Any:
    """Returns fork when it is safe: workers inherit the parent's compiled games and start
    at once. Forking a process that runs other threads can copy a lock another thread
    holds, and the child hangs (seen here with dask's threads), so then a fork server
    (or spawn) starts clean workers, each compiling the game once. The fork server first
    imports the module `fn` comes from (interpreter.batch's, for games), named by `fn`
    rather than here: this module sits below the ones that use it."""
    methods = multiprocessing.get_all_start_methods()
    if "fork" in methods and threading.active_count() == 1:
        return multiprocessing.get_context("fork")
    ctx = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    module = getattr(fn, "__module__", None)
    if ctx.get_start_method() == "forkserver" and isinstance(module, str):
        ctx.set_forkserver_preload([module])
    return ctx


def _dask(client: Any, fn: Callable, batches: Sequence[tuple]) -> Iterator[tuple[int, Any]]:
    from distributed import KilledWorker, as_completed as dask_completed
    futures = [client.submit(fn, *b, pure=False) for b in batches]
    index = {f.key: i for i, f in enumerate(futures)}
    try:
        for fut in dask_completed(futures):
            yield index[fut.key], fut.result()
    except KilledWorker as err:
        raise ScaleError(f"dask workers kept dying on a batch ({err})") from None
    except (TypeError, AttributeError, NameError) as err:
        # A worker started before Cairn was updated still runs the old code.
        raise ScaleError(f"a dask worker runs another version of Cairn ({type(err).__name__}: {err}): "
                         "restart the workers with the same Cairn as this machine") from None
    except RuntimeError as err:
        if "deserializ" not in str(err):
            raise
        raise ScaleError("the dask scheduler or a worker could not read the job: install the same Cairn "
                         "(and Python) everywhere") from None


class _DaskClient:
    """A dask Client on a fresh LocalCluster (closed afterwards) or on a running scheduler."""

    def __init__(self, scheduler: str | None, workers: int, timeout: float):
        try:
            from distributed import Client
        except ImportError:
            raise ScaleError("running on dask needs the dask extra: pip install 'cairn[dask]'") from None
        self.cluster = None
        if scheduler == LOCAL:
            self.cluster = _local_cluster(workers)
            address = self.cluster.scheduler_address
        else:
            address = scheduler
        try:
            self.client = Client(address, timeout=f"{timeout}s")
        except (OSError, TimeoutError) as err:
            self.close()
            raise ScaleError(f"cannot reach the dask scheduler at {address}: {err}") from None

    def __enter__(self) -> Any:
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        if getattr(self, "client", None) is not None:
            self.client.close()
        if self.cluster is not None:
            self.cluster.close()


def _local_cluster(workers: int) -> Any:
    """Returns a LocalCluster on loopback, one single-threaded process a worker. Its
    workers are spawned (dask's default): forking them was four times faster to start,
    but the parent runs dask's event-loop thread, and a forked worker hung once in six
    test runs. Its workers do not run dask's statistical profiler: sampling every 10 ms,
    it took a quarter of the CPU from pure-Python games (2 workers: 1.5x one process
    with it, 1.9x without, on a 200-game balance run)."""
    import dask
    from distributed import LocalCluster
    dask.config.set({"distributed.worker.profile.enabled": False})
    return LocalCluster(n_workers=max(1, workers), threads_per_worker=1, processes=True, host="127.0.0.1",
                        dashboard_address="127.0.0.1:0", worker_dashboard_address=None,
                        silence_logs=logging.ERROR)
