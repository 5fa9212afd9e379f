"""Seven Card Stud Hi-Lo, eight or better (``docs/rules/seven_card_stud_hi_lo.md``).

Dealt, brought in and bet exactly as Seven Card Stud (:mod:`rules.engines.stud`). At the showdown
each pot (main and every side pot) is split in two halves (HL2.1): the best high hand takes one,
the best **qualifying low** (five different ranks of eight or lower, ace low, HL2.2) the other; an
odd chip unit goes to the high half (HL2.3); with no qualifying low the high hand takes the whole pot
(HL2.4). One hand may win both halves (a scoop). The open-pair rule (R6.4) does not exist (HL3.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines import stud_sim
from rules.engines.cards import DECK_52, format_cards
from rules.engines.evaluators.low import describe_low, eight_or_better_key
from rules.engines.evaluators.stud import evaluate_stud
from rules.engines.messages import gettext_noop
from rules.engines.showdown import STUD_CARD_COUNTS, group_ranking, parse_showdown_hands
from rules.engines.stud import StudEngine
from rules.engines.stud.events import CATALOGUE as EVENTS
from rules.engines.stud_variant import SEVEN_CARD_STUD_HI_LO
from rules.games.seven_card_stud.view import ANSWER_MONEY, hand_view

VARIANT = SEVEN_CARD_STUD_HI_LO
ENGINE = StudEngine(VARIANT)


def random_hand(config: Any, seats: Mapping[int, int], button: int, rng: Any, **weights: float) -> list[dict[str, Any]]:
    """A random legal Hi-Lo hand (events, cents): :func:`rules.engines.stud_sim.random_hand` with Hi-Lo's variant."""
    return stud_sim.random_hand(ENGINE.build_config(config) if isinstance(config, Mapping) else config,
                                seats, button, rng, variant=VARIANT, **weights)


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Rank Hi-Lo hands (HL2.1-HL2.4): ``"ranking"`` by the high hand, ``"low_ranking"`` among the
    qualifying lows (empty when nobody qualifies, HL2.4); per seat the high hand and ``"low"`` (its low
    called as ``"8-6-4-2-A"``, or ``None``). Raises as :func:`rules.engines.showdown.parse_showdown_hands`."""
    hands = parse_showdown_hands(doc, deck=DECK_52, card_counts=STUD_CARD_COUNTS, game_label=gettext_noop("a Hi-Lo hand"))
    highs: dict[int, int] = {}
    lows: dict[int, Any] = {}
    seats: dict[str, dict[str, Any]] = {}
    for seat, cards in hands.items():
        hand = evaluate_stud(cards)
        highs[seat] = hand.key
        low = eight_or_better_key(cards)
        if low is not None:
            lows[seat] = (tuple(-x for x in low[0]), tuple(-r for r in low[1]))
        seats[str(seat)] = {"category": hand.category, "description": hand.description,
                            "cards": format_cards(hand.best_five), "low": None if low is None else describe_low(low),
                            "shown": format_cards(cards)}
    return {"game": VARIANT.game, "ranking": group_ranking(highs), "low_ranking": group_ranking(lows),
            "seats": seats}


SPEC = GameSpec(
    name=VARIANT.game, label=VARIANT.label, players=(2, 8), engine=ENGINE, house_take="taxe",
    rules_doc="docs/rules/seven_card_stud_hi_lo.md", random_hand=random_hand, stake_unit=stud_sim.stake_unit,
    showdown=showdown, phh_variant=VARIANT.phh_variant,
    limit_label=stud_sim.limit_label, chip_unit_in_config=True,
    hand_view=hand_view,
    events=EVENTS,
    answer_money=ANSWER_MONEY,
    example_config={"limit_type": "split", "lower": "5.00", "higher": "10.00", "ante": "1.00", "bring_in_mode": "full_bet",
                    "raise_cap": 3, "taxe_mode": "flat", "taxe_amount": "2.00", "open_pair_option": "off"},
    unknown_cards=True,
)
