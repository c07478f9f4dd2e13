"""tools/bench.py: playouts of random games, and with --seats the searching bots'
simulations per CPU-second (issue 26's measure for the bots)."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _bench(*args: str) -> dict:
    out = subprocess.run([sys.executable, str(ROOT / "tools" / "bench.py"), "tic-tac-toe", "--players", "2",
                          "--games", "2", "--rounds", "1", "--json", *args],
                         capture_output=True, text=True, timeout=300, cwd=str(ROOT))
    assert out.returncode == 0, out.stderr[-2000:]
    [row] = json.loads(out.stdout)
    return row["this"]


def test_searching_bots_report_their_simulations():
    mcts = _bench("--seats", "mcts:5,random")
    assert mcts["simulations_per_s"] > 0 and mcts["playouts_per_s"] > 0
    # 5 simulations a decision of the mcts seat with a choice: at most 5 x its decisions
    assert mcts["simulations_per_s"] <= 5 * mcts["decisions_per_s"]
    plain = _bench()
    assert plain["simulations_per_s"] == 0 and plain["playouts_per_s"] > mcts["playouts_per_s"]
