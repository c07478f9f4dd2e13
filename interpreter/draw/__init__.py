"""Pictures from the data: a state drawn as SVG as one seat may see it (`draw_svg`), and
converted to PNG where a library is at hand (`to_png`). Generic: each game's looks are
hints in its terminal.yaml (`picture:`), never code here."""
from __future__ import annotations

from .convert import to_png
from .picture import draw_svg

__all__ = ["draw_svg", "to_png"]
