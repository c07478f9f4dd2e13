"""What the symbols on a screen mean: the option marks, the pieces' glyphs (by the
objects they stand for), the board's short labels (by the spaces' names), the map key of
board.yaml, and terminal.yaml's `legend:` for the symbols the rules' own drawings use.
Only symbols the screen shows are explained."""
from __future__ import annotations

import re
from typing import Any

MARKS = "[n] or a reversed n = where option n goes (type n, or the id)"


def legend_entries(g: Any, look: Any, drawings: str, marked: bool) -> list[str]:
    """The entries for one screen: `look` is the board's (None: no board), `drawings` the
    text of the screen's drawings, `marked` whether any option is marked on them."""
    out = [MARKS] if marked else []
    if look is not None:
        out += _pieces(g, look) + _labels(g, look)
        if g.legend:
            out.append(g.legend)
    for symbol, meaning in g.terminal.get("legend", {}).items():
        if _shows(symbol, drawings):
            out.append(f"{symbol} {meaning}")
    return out


def _pieces(g: Any, look: Any) -> list[str]:
    """Glyphs of pieces by kind: "r1 r2 y1 = token: red token 1, red token 2, ..."."""
    kinds: dict[str, list[tuple[str, str]]] = {}
    for glyph, obj in look.drawn.items():
        props = g.props.get(obj, {})
        if obj and "kind" in props and obj not in g.adj and not _in_legend(g, glyph):
            kinds.setdefault(str(props["kind"]), []).append((glyph, str(props.get("name", obj))))
    out = []
    for kind, items in kinds.items():
        items.sort()
        names = ", ".join(n for _, n in items[:2]) + (", ..." if len(items) > 2 else "")
        out.append(f"{' '.join(gl for gl, _ in items)} = {kind.replace('-', ' ')}: {names}")
    return out


def _labels(g: Any, look: Any) -> list[str]:
    labels = g.terminal.get("board", {}).get("labels", {})
    drawn = [(lab, s) for s, lab in labels.items() if lab in look.drawn and lab != s]
    return [", ".join(f"{lab} {g.props.get(s, {}).get('name', s)}" for lab, s in drawn)] if drawn else []


def _in_legend(g: Any, glyph: str) -> bool:
    return bool(g.legend) and re.search(rf"(?<!\w){re.escape(glyph)}(?!\w)", g.legend) is not None


def _shows(symbol: str, text: str) -> bool:
    """Whether any of a legend entry's symbols (separated by blanks) is on the screen: a
    word as a word, a sign anywhere."""
    for one in symbol.split():
        pattern = rf"(?<![A-Za-z]){re.escape(one)}(?![a-z])" if one[:1].isalpha() else re.escape(one)
        if re.search(pattern, text):
            return True
    return False
