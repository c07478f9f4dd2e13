"""Names from the data: a card's or a power's name as the game writes it, for reports
that would otherwise show raw ids (`canyon`, `ranknok#0`)."""
from __future__ import annotations

from ..engine.game import CompiledGame


def label(game: CompiledGame, subject: str) -> str:
    """Returns a subject's name as the game's data gives it (a card's name, or a card's
    name with its power's)."""
    ab = game.abilities.by_key.get(subject)
    if ab is not None:
        return f"{label(game, subject.split('#', 1)[0])}: {ab.name or subject}"
    for o, _k, _s in game.components:
        p = game.props.get(o, {})
        if str(p.get("def", o)) == subject:
            return str(p.get("set_name") or p.get("name") or subject)
    p = game.props.get(subject, {})
    return str(p.get("name") or subject)


def known_subjects(game: CompiledGame) -> set[str]:
    """Returns every subject restricted play can take: card definitions and named abilities."""
    defs = {str(game.props.get(o, {}).get("def", o)) for o, _k, _s in game.components}
    return defs | {k for k, a in game.abilities.by_key.items() if a.name}
