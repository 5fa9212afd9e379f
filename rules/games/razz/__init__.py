"""Razz: seven card stud for the lowest hand, ace to five (``docs/rules/razz.md``).

Everything but three things is Seven Card Stud (:mod:`rules.engines.stud`: antes, the deal, the
bring-in and completion, fixed or spread limit, caps, side pots, the Taxe, running out of cards):

* the **highest** door card brings it in, the ace counting low and spades the highest suit (RZ4.1);
* from 4th street the **best low board** acts first (RZ5.1);
* at the showdown the best **ace-to-five low** wins (RZ2.2): straights and flushes do not count.

The open-pair rule (R6.4) does not exist in Razz (RZ3.1).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines import stud_sim
from rules.engines.cards import DECK_52, format_cards
from rules.engines.evaluators.low import ace_to_five_key, describe_low
from rules.engines.messages import gettext_noop
from rules.engines.showdown import STUD_CARD_COUNTS, group_ranking, parse_showdown_hands
from rules.engines.stud import StudEngine
from rules.engines.stud.events import CATALOGUE as EVENTS
from rules.engines.stud_variant import RAZZ
from rules.games.seven_card_stud.view import ANSWER_MONEY, hand_view

VARIANT = RAZZ
ENGINE = StudEngine(VARIANT)


def random_hand(config: Any, seats: Mapping[int, int], button: int, rng: Any, **weights: float) -> list[dict[str, Any]]:
    """A random legal Razz hand (events, cents): :func:`rules.engines.stud_sim.random_hand` with Razz's variant."""
    return stud_sim.random_hand(ENGINE.build_config(config) if isinstance(config, Mapping) else config,
                                seats, button, rng, variant=VARIANT, **weights)


def showdown(doc: Mapping[str, Any]) -> dict[str, Any]:
    """Rank Razz hands (RZ2.2, RZ2.3): each seat's best ace-to-five low of its 5-7 cards, best first.

    Output as the stud showdown tool, ``"key"`` left out; ``"description"`` calls the low
    (``"7-5-4-2-A"``). Raises as :func:`rules.engines.showdown.parse_showdown_hands`.
    """
    hands = parse_showdown_hands(doc, deck=DECK_52, card_counts=STUD_CARD_COUNTS, game_label=gettext_noop("a Razz hand"))
    keys: dict[int, Any] = {}
    seats: dict[str, dict[str, Any]] = {}
    for seat, cards in hands.items():
        key = ace_to_five_key(cards)
        keys[seat] = (tuple(-x for x in key[0]), tuple(-r for r in key[1]))  # higher = better for the ranking
        seats[str(seat)] = {"category": "low" if key[0] == (1, 1, 1, 1, 1) else "paired_low",
                            "description": describe_low(key), "shown": format_cards(cards)}
    return {"game": VARIANT.game, "ranking": group_ranking(keys), "seats": seats}


SPEC = GameSpec(
    name=VARIANT.game, label=VARIANT.label, players=(2, 8), engine=ENGINE, house_take="taxe",
    rules_doc="docs/rules/razz.md", random_hand=random_hand, stake_unit=stud_sim.stake_unit,
    showdown=showdown, phh_variant=VARIANT.phh_variant,
    limit_label=stud_sim.limit_label, chip_unit_in_config=True,
    hand_view=hand_view,
    events=EVENTS,
    answer_money=ANSWER_MONEY,
    example_config={"limit_type": "split", "lower": "5.00", "higher": "10.00", "ante": "1.00", "bring_in_mode": "full_bet",
                    "raise_cap": 3, "taxe_mode": "flat", "taxe_amount": "2.00", "open_pair_option": "off"},
    unknown_cards=True,
)
