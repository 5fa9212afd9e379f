"""The description of one game in the registry (:mod:`rules.registry`): its name, the players it is
dealt to, its engine and the tools that derive from it (simulator, showdown tool, PHH reader).

Every game package (``rules/games/<game>/``) exposes one :class:`GameSpec` as ``SPEC``; tables' game
choices and seat ranges, the simulator, the showdown tool, the PHH reader and the admin read the
registry, never a list of their own.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.view import AnswerMoney, HandView

__all__ = ["GameSpec", "HOUSE_TAKES"]

#: The house take's name in each game (the one policy of :mod:`rules.core.house_take`): the stud Taxe,
#: the Forty-one tax, the Capsa fee.
HOUSE_TAKES = ("taxe", "tax", "fee")


@dataclass(frozen=True)
class GameSpec:
    """One game as the registry lists it.

    ``name``: the stored game name (``Table.game``); ``label``: its English name (translated at the
    edge); ``players``: (fewest, most) players a hand is dealt to; ``engine``: the
    :class:`~rules.engines.base.GameEngine`; ``house_take``: one of :data:`HOUSE_TAKES`;
    ``rules_doc``: the game's rule file under ``docs/rules/``; ``phh_variant``: its PHH code, if PHH
    can hold it; ``random_hand(config, seats, button, rng)``: random legal events (cents) for the
    simulator; ``showdown(doc)``: the showdown tool's ranking (``None``: not offered);
    ``stake_unit(config)``: the largest single bet of a normalised config, in cents (stacks of
    simulated players are drawn in multiples of it); ``limit_label(config)``: the default label of a
    limit version (``"5.00/10.00"``), ``None`` for the engine's own or ``"limits"``;
    ``chip_unit_in_config``: the config carries the table's ``chip_unit`` (the stud games);
    ``hand_view(state)``: the one typed :class:`~rules.core.view.HandView` of a state;
    ``example_config``: a valid limit profile (the demo's figures) for tests, benches and the simulator;
    ``unknown_cards``: a card dealt face down may be logged as ``??`` until it is shown (RZ1.2, A.5.1);
    ``answer_money``: which values of the engine's answer (``engine.view``) are cents
    (:class:`~rules.core.view.AnswerMoney`; the API shows them as EUR);
    ``events``: the game's typed events and their one parser, a :class:`rules.engines.events.EventCatalogue` (typed
    ``Any`` here: ``rules.engines.events`` reads cards with the engines' parser, and ``rules.core`` sits below them).
    """

    name: str
    label: str
    players: tuple[int, int]
    engine: Any
    house_take: str
    rules_doc: str
    random_hand: Callable[[Any, Mapping[int, int], int, random.Random], list[dict[str, Any]]]
    stake_unit: Callable[[Mapping[str, Any]], int]
    showdown: Callable[[Mapping[str, Any]], dict[str, Any]] | None = None
    phh_variant: str | None = None
    limit_label: Callable[[Mapping[str, Any]], str] | None = None
    chip_unit_in_config: bool = False
    hand_view: Callable[[Any], HandView] | None = None
    example_config: Mapping[str, Any] | None = None
    unknown_cards: bool = False
    events: Any = None
    answer_money: AnswerMoney = AnswerMoney()

    def __post_init__(self) -> None:
        if self.house_take not in HOUSE_TAKES:
            raise ValueError(f"game {self.name}: house_take must be one of {HOUSE_TAKES}")
        low, high = self.players
        if not 2 <= low <= high:
            raise ValueError(f"game {self.name}: players must be (fewest, most) with 2 <= fewest <= most")
