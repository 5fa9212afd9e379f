"""The :class:`~rules.engines.base.GameEngine` object of Forty-one (``ENGINE``)."""

from __future__ import annotations

import random as _random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from rules.engines.base import Settlement
from rules.engines.forty_one.hand import (
    apply,
    can_apply,
    is_complete,
    next_button,
    next_forehand,
    replay,
    settlement,
    verify,
)
from rules.engines.forty_one.showdown_tool import showdown
from rules.engines.forty_one.simulation import random_hand
from rules.engines.forty_one.state import GAME, FortyOneState, new_hand
from rules.engines.forty_one.view import view
from rules.engines.forty_one_config import FortyOneConfig, build_config, config_to_dict


class FortyOneEngine:
    """The :class:`~rules.engines.base.GameEngine` for Forty-one (``ENGINE``); thin wrappers of this module."""

    game = GAME

    def build_config(self, raw: Mapping[str, Any]) -> FortyOneConfig:
        return build_config(raw)

    def config_to_dict(self, config: FortyOneConfig) -> dict[str, Any]:
        return config_to_dict(config)

    def new_hand(self, config: FortyOneConfig, seats: Mapping[int, int], *, button: int) -> FortyOneState:
        return new_hand(config, seats, button=button)

    def apply(self, state: FortyOneState, event: Mapping[str, Any]) -> FortyOneState:
        return apply(state, event)

    def verify(self, state: FortyOneState, event: Mapping[str, Any]) -> None:
        verify(state, event)

    def can_apply(self, state: FortyOneState, event: Mapping[str, Any]) -> bool:
        return can_apply(state, event)

    def view(self, state: FortyOneState) -> dict[str, Any]:
        return view(state)

    def is_complete(self, state: FortyOneState) -> bool:
        return is_complete(state)

    def settlement(self, state: FortyOneState) -> Settlement:
        return settlement(state)

    def next_button(self, occupied: Sequence[int], current: int) -> int:
        return next_button(occupied, current)

    def next_forehand(self, state: FortyOneState, occupied: Sequence[int]) -> int:
        return next_forehand(state, occupied)

    def replay(self, config: FortyOneConfig, seats: Mapping[int, int], events: Iterable[Mapping[str, Any]], *,
               button: int) -> FortyOneState:
        return replay(config, seats, events, button=button)

    def random_hand(self, config: FortyOneConfig, seats: Mapping[int, int], button: int,
                    rng: _random.Random) -> list[dict[str, Any]]:
        return random_hand(config, seats, button, rng)

    def showdown(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return showdown(doc)


ENGINE = FortyOneEngine()
