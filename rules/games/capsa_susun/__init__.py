"""Capsa Susun, 13-card Chinese poker (``docs/rules/capsa_susun.md``); engine :mod:`rules.engines.capsa`."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core.game_spec import GameSpec
from rules.engines import capsa
from rules.engines.capsa.events import CATALOGUE as EVENTS
from rules.engines.messages import gettext_noop
from rules.engines.money import to_cents
from rules.games.capsa_susun.view import ANSWER_MONEY, hand_view

ENGINE = capsa.ENGINE


def stake_unit(config: Mapping[str, Any]) -> int:
    """What a Capsa seat can lose in one deal, in cents: ``unit_value`` times ``cover_units``."""
    return to_cents(config.get("unit_value") or "1.00", field="unit_value") * int(config.get("cover_units") or 10)


def limit_label(config: Mapping[str, Any]) -> str:
    """The default label of a Capsa limit version: ``"2-4 @ 1"`` (method and unit value, whole euros short)."""
    unit = str(config.get("unit_value"))
    return f"{config.get('method', '2-4')} @ {unit[:-3] if unit.endswith('.00') else unit}"


SPEC = GameSpec(
    name="capsa_susun", label=gettext_noop("Capsa Susun"), players=(2, 4), engine=ENGINE, house_take="fee",
    rules_doc="docs/rules/capsa_susun.md", random_hand=capsa.random_deal, stake_unit=stake_unit,
    limit_label=limit_label,
    showdown=capsa.showdown,
    hand_view=hand_view,
    events=EVENTS,
    answer_money=ANSWER_MONEY,
    example_config={"preset": "western_2_4", "unit_value": "1.00", "fee_mode": "commission",
                    "fee_rate": "0.05"},
    unknown_cards=True,
)
