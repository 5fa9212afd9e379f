"""The registry of game engines by name (``seven_card_stud``, ``forty_one``, ``capsa_susun``)."""

from __future__ import annotations

from importlib import import_module

from rules.engines.base import GameEngine
from rules.engines.errors import ConfigError
from rules.engines.messages import gettext_noop

GAMES = ("seven_card_stud", "forty_one", "capsa_susun")
_MODULES = {
    "seven_card_stud": "rules.engines.stud",
    "forty_one": "rules.engines.forty_one",
    "capsa_susun": "rules.engines.capsa",
}


def get_engine(game: str) -> GameEngine:
    """Return the engine object for ``game``; raises :class:`ConfigError` for an unknown game.

    Each module exposes its engine as the module attribute ``ENGINE``.
    """
    try:
        module = _MODULES[game]
    except KeyError:
        raise ConfigError("game", gettext_noop("unknown game %(game)s; expected one of %(games)s", game=repr(game), games=', '.join(GAMES))) from None
    return import_module(module).ENGINE
