"""Builds the cache entries a wheel ships (interpreter/load/seed.py): the effect grammar's
parser tables and every schema's compiled check, so the first run after an install does
not spend a second building them. Runs `python -m interpreter.load.seed` on this source
tree; if that fails, the wheel is built without a seed (each entry is then built on first
use, as in a source checkout)."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from hatchling.builders.hooks.plugin.interface import BuildHookInterface


class SeedHook(BuildHookInterface):
    PLUGIN_NAME = "custom"

    def initialize(self, version: str, build_data: dict[str, Any]) -> None:
        if self.target_name != "wheel" or version == "editable":
            return
        self.out = Path(tempfile.mkdtemp(prefix="cairn-seed-"))
        # this tree first, then what pip's isolated build puts on the path (lark and the rest)
        path = [self.root] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONDONTWRITEBYTECODE="1")
        env.pop("CAIRN_CACHE", None)
        done = subprocess.run([sys.executable, "-m", "interpreter.load.seed", str(self.out)], cwd=self.root,
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            self.app.display_warning("cairn: built without a seed cache:\n" + done.stderr[-800:])
            return
        for name in done.stdout.split():
            build_data["force_include"][str(self.out / name)] = f"interpreter/_data/seed-cache/{name}"

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
