"""SVG to PNG by CairoSVG (the optional `draw` extra): a missing library is a clear error,
not a traceback."""
from __future__ import annotations


class NoConverter(Exception):
    """PNG asked for but CairoSVG (or the Cairo library under it) is not installed."""


def to_png(svg: str, scale: float = 1.0) -> bytes:
    """Returns the PNG image of an SVG document."""
    try:
        import cairosvg
    except (ImportError, OSError) as err:   # OSError: the Cairo C library is missing
        raise NoConverter(f"PNG needs CairoSVG: pip install 'cairn[draw]' ({err})") from None
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
