"""tools/time_shares.py sorts py-spy's samples into rules, verbs, machinery and harness,
and bounds what engine work alone could gain (Amdahl)."""
from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tools"))
import time_shares as ts  # noqa: E402

OUTER = "<module> (<string>:30);timed_games (<string>:27);one (<string>:15)"
PLAY = OUTER + ";play (interpreter/records.py:26);GameState.apply_action (interpreter/engine/game.py:202);" \
               "resume (interpreter/engine/vm.py:274);run (interpreter/engine/vm.py:58)"
RAW = "\n".join([
    PLAY + ";_r (<proc:roll_and_move>:5);_f (<fn:is_free>:3) 6",                    # rules
    PLAY + ";_r (<proc:roll_and_move>:7);roll (interpreter/verbs/core.py:70);"
           "below (interpreter/engine/rng.py:33) 2",                                 # a verb's draw
    PLAY + ";_r (<proc:x>:7);attr (interpreter/lang/helpers.py:20) 3",               # machinery
    PLAY + ";_r (<proc:x>:9);fired (interpreter/engine/abilities.py:190);"
           "<lambda> (json/__init__.py:1) 1",                                        # a library under it
    PLAY + " 4",                                                                     # the VM itself
    OUTER + ";play (interpreter/records.py:26);RandomAgent.step (interpreter/agents.py:37);"
            "below (interpreter/engine/rng.py:33) 2",                                # a bot's draw
    OUTER + ";randrange (random.py:290) 2",                                          # the loop's draw
    "<module> (<string>:29);one (<string>:15);play (interpreter/records.py:26);"
    "_r (<proc:x>:1) 50",                                                            # the warm-up: not counted
])


def test_each_sample_counts_for_its_innermost_frame_of_cairn():
    by_share, by_detail, total = ts.shares(RAW)
    assert total == 20
    assert by_share == {"rules": 6, "verbs": 2, "machinery": 8, "harness": 4}
    assert by_detail["rules", "<fn:is_free>"] == 6
    assert by_detail["verbs", "interpreter/verbs/core.py"] == 2
    assert by_detail["machinery", "interpreter/engine/abilities.py"] == 1
    assert by_detail["machinery", "interpreter/engine/vm.py"] == 4
    assert by_detail["harness", "interpreter/agents.py"] == 2


def test_bound_is_amdahls():
    by_share, _detail, total = ts.shares(RAW)
    assert ts.bound(by_share, total) == pytest.approx(20 / 12)
    assert ts.bound({"machinery": 0}, 10) == 1.0
