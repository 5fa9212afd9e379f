"""Forty-one (Einundvierzig) of Casinos Austria (``docs/rules/forty_one.md``); engine :mod:`rules.engines.forty_one`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines import forty_one
from rules.engines.forty_one.events import CATALOGUE as EVENTS
from rules.engines.messages import gettext_noop
from rules.engines.money import to_cents
from rules.games.forty_one.view import ANSWER_MONEY, hand_view

ENGINE = forty_one.ENGINE


def stake_unit(config: Mapping[str, Any]) -> int:
    """The largest single bet of a normalised Forty-one config in cents: the last of ``limits``."""
    return to_cents(list(config["limits"])[-1], field="limits")


SPEC = GameSpec(
    name="forty_one", label=gettext_noop("Forty-one"), players=(3, 7), engine=ENGINE, house_take="tax",
    rules_doc="docs/rules/forty_one.md", random_hand=forty_one.random_hand, stake_unit=stake_unit,
    showdown=forty_one.showdown,
    hand_view=hand_view,
    events=EVENTS,
    answer_money=ANSWER_MONEY,
    example_config={"limits": ["5.00", "10.00"], "ante": "2.00", "tax_rate": "0.05",
                    "tax_cap": {"5/10": "5.00"}, "bonus_41_amount": "10.00"},
    unknown_cards=True,
)
