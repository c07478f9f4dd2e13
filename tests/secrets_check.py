"""What a seat must not read: the hidden objects whose names a leak test looks for in every
page, view and endpoint (shared by the browser and the real-server tests)."""
from __future__ import annotations

import json
from typing import Any

from interpreter.engine.view import observe, visible
from interpreter.lang.runtime import Ctx, text_of


def hidden_names(g: Any, d: dict, seat: int | None) -> dict[str, tuple[str, str]]:
    """Objects in places `seat` may not see -> (place, name), for those with a name that
    appears nowhere the seat may look (the names of what it sees, its observation: its
    decision, its log)."""
    c = Ctx(d, g, {})
    shown = [text_of(c, o) for place, objs in d["places"].items() if visible(g, place, seat) for o in objs]
    seen = "\n".join(shown) + json.dumps(observe(g, d, seat), ensure_ascii=False)
    out = {}
    for place, objs in d["places"].items():
        if not visible(g, place, seat):
            for o in objs:
                name = text_of(c, o)
                if name != o and len(name) > 3 and name not in seen:
                    out[o] = (place, name)
    return out
