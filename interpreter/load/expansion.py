"""What a `--variant` names, decided in one place: an expansion folder (one holding
`overlay.yaml`, with optional `scenarios/*.yaml`, `terminal.yaml` and `NOTES.md`), an overlay
file (`.yaml`),
or else a variant id of the game. Every command resolves its variants here, so a folder
works wherever a file or an id does, and a folder's own scenarios are found the same way
by `cairn scenarios`, `validate` and `coverage`."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Iterable

from ..diagnostics import Diagnostic

__all__ = ["OVERLAY", "Named", "expansion_folder", "expansion_hints", "expansion_scenarios", "merge_hints",
           "named", "overlay_path", "own_expansion", "with_own_expansion"]

OVERLAY = "overlay.yaml"      # the overlay of an expansion folder


@dataclass(frozen=True)
class Named:
    """What one `--variant` names. `overlay`: the overlay file to read (None for a variant
    id of the game); `folder`: the expansion folder, when it names one; `problem`: why it
    names nothing usable (then the other two are None)."""

    given: str
    overlay: Path | None = None
    folder: Path | None = None
    problem: Diagnostic | None = None


def _looks_like_path(variant: str) -> bool:
    """A name with a path separator, or `.`/`..`, is a path; a bare name may be an id."""
    return "/" in variant or "\\" in variant or variant in (".", "..")


def named(variant: str) -> Named:
    """Resolves one `--variant`: a folder holding overlay.yaml, a .yaml file, else an id.
    A folder without overlay.yaml is a problem when the name is written as a path (a bare
    name that happens to be a local folder is still read as the game's variant id)."""
    path = Path(variant)
    if path.is_dir():
        if (path / OVERLAY).is_file():
            return Named(variant, path / OVERLAY, path)
        if variant.endswith((".yaml", ".yml")):     # named as a file: the reader says what it is
            return Named(variant, path)
        if _looks_like_path(variant):
            return Named(variant, problem=Diagnostic(
                variant, 1, 1, f"the folder {variant} holds no {OVERLAY}: an expansion folder needs one "
                "(cairn new-expansion GAME DIR writes a skeleton)"))
        return Named(variant)
    if variant.endswith((".yaml", ".yml")):
        return Named(variant, path)
    if _looks_like_path(variant):       # a variant id has no '/': this names a missing folder
        return Named(variant, problem=Diagnostic(variant, 1, 1, f"no expansion folder {variant} "
                                                 f"(a folder holding {OVERLAY}, an overlay .yaml file, or a variant id)"))
    return Named(variant)


def overlay_path(variant: str) -> Path | None:
    """The overlay file a --variant names (None for an id, or for a folder without one)."""
    return named(variant).overlay


def expansion_folder(variant: str) -> Path | None:
    """The expansion folder a --variant names, if it names one."""
    return named(variant).folder


def expansion_scenarios(variants: Iterable[str]) -> list[Path]:
    """The scenario files of the expansion folders among `variants`, in order: each runs
    with its own expansion applied (see own_expansion)."""
    out: list[Path] = []
    for v in variants:
        folder = expansion_folder(v)
        if folder is not None and (folder / "scenarios").is_dir():
            out.extend(p for p in sorted((folder / "scenarios").glob("*.yaml")) if p not in out)
    return out


def own_expansion(scenario_file: Path) -> list[str]:
    """The expansion a scenario file belongs to, as a variant to apply before those it
    names: [its folder] for DIR/scenarios/x.yaml where DIR holds overlay.yaml, else []."""
    here = Path(scenario_file).resolve().parent
    if here.name != "scenarios" or not (here.parent / OVERLAY).is_file():
        return []
    return [str(here.parent)]


def with_own_expansion(scenario_file: Path, variants: tuple[str, ...]) -> tuple[str, ...]:
    """The variants a scenario runs with: its own expansion first (own_expansion), then
    those it names, without naming that expansion's overlay twice."""
    own = own_expansion(scenario_file)
    if not own:
        return tuple(variants)
    mine = (Path(own[0]) / OVERLAY).resolve()

    def is_mine(v: str) -> bool:
        path = overlay_path(v)
        return path is not None and path.resolve() == mine
    return tuple(own) + tuple(v for v in variants if not is_mine(v))


# Lists of terminal hints that an expansion's hints extend; any other list (a scale, the
# players' colours) is a single value, which the expansion's replaces.
EXTENDED_LISTS = ("hide", "tables", "why_not")


def expansion_hints(variants: Iterable[str], diags: list[Diagnostic]) -> list[tuple[dict, Any]]:
    """The terminal hints (`terminal.yaml`) of the expansion folders among `variants`, in
    order, each with where it was written (a Src), so its names are checked against the
    game at its own file's lines. A file that does not read is a problem in `diags`."""
    from .files import display_path, read_part
    from .spec import Src
    out = []
    for v in variants:
        folder = expansion_folder(v)
        path = folder / "terminal.yaml" if folder is not None else None
        if path is None or not path.is_file():
            continue
        loaded, problems = read_part(path, display_path(path), "terminal")
        diags.extend(problems)
        if loaded is not None:
            out.append((loaded.data["terminal"], Src(loaded, ("terminal",))))
    return out


def merge_hints(base: dict, more: dict, top: bool = True) -> dict:
    """The game's hints with an expansion's on top: tables merged key by key (so a new
    spot kind gets its colour beside the old ones), the lists of EXTENDED_LISTS extended,
    any other value replaced. Neither argument is changed."""
    out = dict(base)
    for key, value in more.items():
        old = out.get(key)
        if isinstance(old, dict) and isinstance(value, dict):
            out[key] = merge_hints(old, value, top=False)
        elif top and key in EXTENDED_LISTS and isinstance(old, list) and isinstance(value, list):
            out[key] = old + [v for v in value if v not in old]
        else:
            out[key] = value
    return out
