"""SVG writing helpers: elements built with xml.etree (so text and attributes are escaped),
CSS colours from colour words, text measured and wrapped by an estimate of the font's
width. Nothing here knows a game; the output depends only on its input."""
from __future__ import annotations

import re
import textwrap
import xml.etree.ElementTree as ET
from typing import Any

SVG_NS = "http://www.w3.org/2000/svg"
FONT = "DejaVu Sans, Verdana, sans-serif"
MONO = "DejaVu Sans Mono, Menlo, monospace"
HIGHLIGHT = "#ff7f0e"     # the stroke of what an option names
CHAR_W = 0.6              # a sans character's width, in font sizes (a safe over-estimate)
MONO_W = 0.61             # a monospace character's width, in font sizes

# The terminal's colour names (terminal.yaml) as CSS colours.
TERMINAL_CSS = {
    "default": "#dddddd", "black": "#222222", "red": "#d62728", "green": "#2ca02c",
    "yellow": "#e8c21a", "blue": "#2f6fd0", "magenta": "#b03cb0", "cyan": "#17becf",
    "white": "#f2f2f2", "bright_black": "#8c8c8c", "bright_red": "#ff6b6b",
    "bright_green": "#7bd96b", "bright_yellow": "#fff176", "bright_blue": "#7fb3ff",
    "bright_magenta": "#e377c2", "bright_cyan": "#9be7f0", "bright_white": "#ffffff",
}
# Colour words a game's data may use for a piece or card, besides the terminal's names.
CSS_WORDS = {"orange": "#f28e2b", "brown": "#8c564b", "pink": "#f4a6c6", "purple": "#8e5cc4",
             "grey": "#9a9a9a", "gray": "#9a9a9a", "gold": "#d4af37", "silver": "#c0c0c0"}
HEX_COLOUR = re.compile(r"^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$")


def css(word: Any) -> str | None:
    """Returns the CSS colour a colour word or #hex names, or None when it names none."""
    if not isinstance(word, str):
        return None
    if HEX_COLOUR.match(word):
        return word
    return TERMINAL_CSS.get(word) or CSS_WORDS.get(word)


def _rgb(colour: str) -> tuple[int, int, int]:
    h = colour.lstrip("#")
    if len(h) == 3:
        h = "".join(c * 2 for c in h)
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def lighten(colour: str, amount: float = 0.6) -> str:
    """Returns the colour mixed with white (a card's background from its colour)."""
    r, g, b = (round(c + (255 - c) * amount) for c in _rgb(colour))
    return f"#{r:02x}{g:02x}{b:02x}"


def ink(fill: str) -> str:
    """Returns black or white, whichever reads better on `fill`."""
    r, g, b = _rgb(fill)
    return "#111111" if 0.299 * r + 0.587 * g + 0.114 * b > 140 else "#ffffff"


def readable(colour: str | None) -> str:
    """Returns the colour darkened enough to read as text on white (a seat's line)."""
    if not colour:
        return "#000000"
    r, g, b = _rgb(colour)
    k = min(1.0, 130 / max(1, 0.299 * r + 0.587 * g + 0.114 * b))
    return f"#{round(r * k):02x}{round(g * k):02x}{round(b * k):02x}"


def num(x: float) -> str:
    """A coordinate as short, stable text."""
    return f"{x:.1f}".rstrip("0").rstrip(".") if x != int(x) else str(int(x))


def el(parent: ET.Element | None, tag: str, **attrs: Any) -> ET.Element:
    """Returns a new element (under `parent` when given); attribute names use _ for -,
    numbers are written short, None values are left out."""
    clean = {k.rstrip("_").replace("_", "-"): (num(v) if isinstance(v, (int, float)) and not isinstance(v, bool)
                                              else str(v))
             for k, v in attrs.items() if v is not None}
    return ET.Element(tag, clean) if parent is None else ET.SubElement(parent, tag, clean)


def text(parent: ET.Element, x: float, y: float, s: str, size: float = 11, **attrs: Any) -> ET.Element:
    """Adds a line of text (escaped by the writer) at x, y (the baseline)."""
    attrs.setdefault("font_family", FONT)
    t = el(parent, "text", x=x, y=y, font_size=size, **attrs)
    t.text = s
    return t


def title(parent: ET.Element, s: str) -> None:
    """Adds a tooltip (a browser shows it on hover)."""
    el(parent, "title").text = s


def width_of(s: str, size: float, mono: bool = False) -> float:
    """Returns the estimated width of a line of text."""
    return len(s) * size * (MONO_W if mono else CHAR_W)


def fit(s: str, width: float, size: float) -> str:
    """Returns the text cut (with an ellipsis) to fit the width."""
    n = max(1, int(width // (size * CHAR_W)))
    return s if len(s) <= n else s[:max(1, n - 1)] + "…"


def wrap(s: str, width: float, size: float, lines: int) -> list[str]:
    """Returns the text wrapped to the width, at most `lines` lines (the last cut)."""
    n = max(4, int(width // (size * CHAR_W)))
    out = textwrap.wrap(s, n, break_long_words=True) or [""]
    if len(out) > lines:
        out = out[:lines]
        out[-1] = fit(out[-1] + " …", width, size) if len(out[-1]) + 2 <= n else out[-1][:n - 1] + "…"
    return out


def document(width: float, height: float, body: ET.Element, **attrs: Any) -> str:
    """Returns the SVG document text: a white background, then the body."""
    root = el(None, "svg", xmlns=SVG_NS, width=round(width), height=round(height),
              viewBox=f"0 0 {round(width)} {round(height)}", **attrs)
    el(root, "rect", x=0, y=0, width=round(width), height=round(height), fill="#ffffff")
    root.append(body)
    ET.indent(root, space=" ")
    return ET.tostring(root, encoding="unicode") + "\n"
