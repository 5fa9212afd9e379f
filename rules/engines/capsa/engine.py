"""The :class:`~rules.engines.base.GameEngine` object of Capsa Susun (``ENGINE``)."""

from __future__ import annotations

import random as _random_module
from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.base import Settlement
from rules.engines.capsa.hand import apply, can_apply, replay
from rules.engines.capsa.showdown_tool import showdown
from rules.engines.capsa.simulation import random_deal
from rules.engines.capsa.state import GAME, CapsaState, is_complete, new_hand, next_button
from rules.engines.capsa.view import settlement, view
from rules.engines.capsa_config import CapsaConfig, build_config, config_to_dict


class _CapsaEngine:
    """The module-level :data:`ENGINE` (GameEngine protocol of :mod:`rules.engines.base`)."""

    game = GAME

    def build_config(self, raw: Mapping[str, Any]) -> CapsaConfig:
        return build_config(raw)

    def config_to_dict(self, config: CapsaConfig) -> dict[str, Any]:
        return config_to_dict(config)

    def new_hand(self, config: CapsaConfig, seats: Mapping[int, int], *, button: int) -> CapsaState:
        return new_hand(config, seats, button=button)

    def apply(self, state: CapsaState, event: Mapping[str, Any]) -> CapsaState:
        return apply(state, event)

    def can_apply(self, state: CapsaState, event: Mapping[str, Any]) -> bool:
        return can_apply(state, event)

    def view(self, state: CapsaState) -> dict[str, Any]:
        return view(state)

    def is_complete(self, state: CapsaState) -> bool:
        return is_complete(state)

    def settlement(self, state: CapsaState) -> Settlement:
        return settlement(state)

    def next_button(self, occupied: Sequence[int], current: int) -> int:
        return next_button(occupied, current)

    def replay(self, config: CapsaConfig, seats: Mapping[int, int], events: Sequence[Mapping[str, Any]], *,
               button: int) -> CapsaState:
        return replay(config, seats, events, button=button)

    def random_deal(self, config: CapsaConfig, seats: Mapping[int, int], button: int,
                    rng: _random_module.Random) -> list[dict[str, Any]]:
        return random_deal(config, seats, button, rng)

    def showdown(self, doc: Mapping[str, Any]) -> dict[str, Any]:
        return showdown(doc)


ENGINE = _CapsaEngine()
