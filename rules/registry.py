"""The one list of games (issue 14): everything that lists games derives from :data:`GAMES`.

Tables' game choices and seat ranges, the simulator, the showdown tool, the PHH reader, the admin and
the API read this module. A new game is a package under ``rules/games/`` exposing a
:class:`~rules.core.game_spec.GameSpec` as ``SPEC``, one import line below, its tests and a migration
of the tables' game choices; the contract tests (``tests/rules/test_contract.py``) cover it from here.
"""

from __future__ import annotations

from typing import Any

from rules.config_fields import ConfigField, config_fields
from rules.core.game_spec import GameSpec
from rules.engines.errors import ConfigError
from rules.engines.messages import gettext_noop
from rules.games import capsa_susun, forty_one, razz, seven_card_stud, seven_card_stud_hi_lo

__all__ = ["GAMES", "GAME_NAMES", "game_choices", "game_config_fields", "game_for_phh_variant", "get_engine", "get_game"]

#: Every game the card room deals, in the order the floor lists them.
GAMES: tuple[GameSpec, ...] = (
    seven_card_stud.SPEC,
    razz.SPEC,
    seven_card_stud_hi_lo.SPEC,
    forty_one.SPEC,
    capsa_susun.SPEC,
)
GAME_NAMES: tuple[str, ...] = tuple(g.name for g in GAMES)
_BY_NAME = {g.name: g for g in GAMES}
_BY_PHH = {g.phh_variant: g for g in GAMES if g.phh_variant}


def get_game(name: object) -> GameSpec:
    """The :class:`GameSpec` of ``name``; raises :class:`ConfigError` (field ``game``) for an unknown game."""
    spec = _BY_NAME.get(name) if isinstance(name, str) else None
    if spec is None:
        raise ConfigError("game", gettext_noop("unknown game %(game)s; expected one of %(games)s", game=repr(name),
                                               games=", ".join(GAME_NAMES)))
    return spec


def get_engine(name: object) -> Any:
    """The engine of game ``name`` (:class:`~rules.engines.base.GameEngine`); raises as :func:`get_game`."""
    return get_game(name).engine


def game_for_phh_variant(variant: object) -> GameSpec | None:
    """The game a PHH ``variant`` code (``F7S``, ``FR``, ``F7S/8``) records, or ``None``."""
    return _BY_PHH.get(variant) if isinstance(variant, str) else None


def game_config_fields(name: object) -> tuple[ConfigField, ...]:
    """The description of every config key of game ``name`` (label, unit, default, choices, range, help,
    rule; :mod:`rules.config_fields`), from which the floor's forms are built. Raises as :func:`get_game`."""
    return config_fields(get_game(name).name)


def game_choices() -> list[tuple[str, str]]:
    """``[(name, label)]`` for model and form choices (labels in English; the edge translates them)."""
    return [(g.name, g.label) for g in GAMES]
