"""Builds the cache entries a wheel ships (interpreter/load/seed.py): the effect grammar's
parser tables and every schema's compiled check (and the shipped games' entries), with a
manifest of their SHA-256 digests that seed.py checks, so the first run after an install
does not spend a second building them. Runs `python -m interpreter.cli.seed_fill` on this source
tree; if that fails, the wheel is built without a seed (each entry is then built on first
use). An editable install (`pip install -e .`) puts the seed into the source tree's
`seed-cache` folder instead, which that install reads."""
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
        if self.target_name != "wheel":
            return
        self.out = Path(tempfile.mkdtemp(prefix="cairn-seed-"))
        names = self._fill(self.out)
        if names is None:
            return
        if version == "editable":
            # An editable install runs this source tree, which reads its seed from the
            # folder `seed-cache` beside definitions/ (seed.py): put the new one there.
            checkout = Path(self.root) / "seed-cache"
            shutil.rmtree(checkout, ignore_errors=True)
            shutil.copytree(self.out, checkout, ignore=lambda _d, found: [n for n in found if n not in names])
            return
        for name in names:
            build_data["force_include"][str(self.out / name)] = f"interpreter/_data/seed-cache/{name}"

    def _fill(self, out: Path) -> list[str] | None:
        """Writes the seed's entries into `out` and returns their names (None if it failed)."""
        # this tree first, then what pip's isolated build puts on the path (lark and the rest)
        path = [self.root] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(path), PYTHONDONTWRITEBYTECODE="1")
        env.pop("CAIRN_CACHE", None)
        env["CAIRN_SEED"] = "off"          # built from this tree alone, not from a seed it has
        done = subprocess.run([sys.executable, "-m", "interpreter.cli.seed_fill", str(out)], cwd=self.root,
                              env=env, capture_output=True, text=True)
        if done.returncode != 0:
            self.app.display_warning("cairn: built without a seed cache:\n" + done.stderr[-800:])
            return None
        return done.stdout.split()

    def finalize(self, version: str, build_data: dict[str, Any], artifact_path: str) -> None:
        out = getattr(self, "out", None)
        if out is not None:
            shutil.rmtree(out, ignore_errors=True)
