"""Seven Card Stud (split and spread limit), the Bavarian house rules (``docs/rules/seven_card_stud.md``).

The engine is :mod:`rules.engines.stud` with the :data:`~rules.engines.stud_variant.SEVEN_CARD_STUD`
variant; Razz and Seven Card Stud Hi-Lo are the same engine with their own variants.
"""

from __future__ import annotations

from rules.core.game_spec import GameSpec
from rules.engines import stud, stud_sim
from rules.engines.showdown import stud_showdown
from rules.engines.stud.events import CATALOGUE as EVENTS
from rules.engines.stud_variant import SEVEN_CARD_STUD
from rules.games.seven_card_stud.view import ANSWER_MONEY, hand_view

VARIANT = SEVEN_CARD_STUD
ENGINE = stud.ENGINE

SPEC = GameSpec(
    name=VARIANT.game, label=VARIANT.label, players=(2, 8), engine=ENGINE, house_take="taxe",
    rules_doc="docs/rules/seven_card_stud.md", random_hand=stud_sim.random_hand, stake_unit=stud_sim.stake_unit,
    showdown=stud_showdown, phh_variant=VARIANT.phh_variant,
    limit_label=stud_sim.limit_label, chip_unit_in_config=True,
    hand_view=hand_view,
    events=EVENTS,
    answer_money=ANSWER_MONEY,
    example_config={"limit_type": "split", "lower": "5.00", "higher": "10.00", "ante": "1.00", "bring_in_mode": "full_bet",
                    "raise_cap": 3, "taxe_mode": "flat", "taxe_amount": "2.00"},
    unknown_cards=True,
)
