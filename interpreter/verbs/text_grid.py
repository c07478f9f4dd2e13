"""Queries that lay text out for the terminal (small pictures of cards, sheets, grids)."""
from __future__ import annotations


from ..lang.runtime import MAX_SEQUENCE, Ctx, RuntimeProblem, spend, text_of
from ..lang.registry import P, register


@register("grid_text", P("cells", "list"), P("indent", "str", ""), pure=True)
def grid_text(c: Ctx, cells: list, indent: str) -> str:
    """Returns a multi-line text drawing of cells [row, column, value] (rows and columns
    are numbers from 0): each column is as wide as its widest value, empty cells are
    blank, and each line starts with `indent`."""
    if type(cells) is not list:
        raise RuntimeProblem(f"grid_text() needs a list of [row, column, value], got {cells!r}")
    grid: dict[tuple[int, int], str] = {}
    for cell in cells:
        if type(cell) is not list or len(cell) != 3 or type(cell[0]) is not int or type(cell[1]) is not int:
            raise RuntimeProblem(f"grid_text(): a cell must be [row, column, value], got {cell!r}")
        grid[(cell[0], cell[1])] = text_of(c, cell[2])
    if not grid:
        return ""
    rows = max(r for r, _ in grid) + 1
    cols = max(k for _, k in grid) + 1
    if min(r for r, _ in grid) < 0 or min(k for _, k in grid) < 0:
        raise RuntimeProblem("grid_text(): rows and columns are numbers from 0")
    if rows * cols > MAX_SEQUENCE:
        raise RuntimeProblem(f"grid_text(): a grid of {rows} x {cols} cells; the limit is {MAX_SEQUENCE} cells")
    spend(c, rows * cols + sum(len(v) for v in grid.values()))
    width = [max([len(grid.get((r, k), "")) for r in range(rows)]) for k in range(cols)]
    lines = []
    for r in range(rows):
        line = "".join(grid.get((r, k), "").center(width[k]) for k in range(cols))
        lines.append(indent + line.rstrip())
    return "\n".join(lines)

