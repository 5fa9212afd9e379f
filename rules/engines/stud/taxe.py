"""The stud Taxe: taken once as the 4th-street up cards land, flat or a capped percentage (R8.1-R8.3)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import Decimal
from functools import lru_cache
from typing import Any

from rules.core.house_take import HouseTake
from rules.engines.errors import (
    IllegalAction,
    InvalidAmount,
)
from rules.engines.messages import gettext_noop
from rules.engines.stud.parsing import _amount_field
from rules.engines.stud.pots import _pots
from rules.engines.stud.state import StudState, _m
from rules.engines.stud_config import StudConfig

#: The Taxe in ``percent_with_cap`` mode is rounded down to the chip unit (R8.3); a name of
#: :data:`rules.core.house_take.ROUNDINGS`.
TAXE_ROUNDING = "down"


def taxe_policy(cfg: StudConfig) -> HouseTake | None:
    """The stud Taxe as a :class:`~rules.core.house_take.HouseTake` (R8.1-R8.3): ``flat``: the
    ``taxe_amount``; ``percent_with_cap``: ``taxe_percent`` (a percentage, so the rate is it / 100) of the
    pots, rounded down to the chip unit (:data:`TAXE_ROUNDING`), at most ``taxe_cap``; drawn from the pots
    by ``taxe_from`` (R8.2). ``None`` when no Taxe is configured (a flat Taxe of nothing, e.g. PHH replays).

    Built once per set of Taxe settings (keyed by them, not by the whole config, whose hash is dear)."""
    if cfg.taxe_mode == "flat" and not cfg.taxe_amount:
        return None  # no Taxe (as _taxe_policy answers)
    return _taxe_policy(cfg.taxe_mode, cfg.taxe_amount, cfg.taxe_percent, cfg.taxe_cap, cfg.chip_unit, cfg.taxe_from)


@lru_cache(maxsize=256)
def _taxe_policy(mode: str, amount: int | None, percent: str | None, cap: int | None, unit: int,
                 from_pots_rule: str) -> HouseTake | None:
    if mode == "flat":
        if not amount:
            return None
        return HouseTake(flat=amount, from_pots_rule=from_pots_rule)
    return HouseTake(rate=Decimal(percent) / 100, step=unit,  # type: ignore[arg-type]
                     rounding=TAXE_ROUNDING, cap=cap or 0, from_pots_rule=from_pots_rule)


def _take_taxe(s: StudState) -> None:
    """R8.1-R8.3: the Taxe leaves the pot once, as the 4th-street up cards land (:func:`taxe_policy`)."""
    policy = taxe_policy(s.cfg)
    if policy is None:
        s.taxe_split = ()
        s.taxe = 0
        s.taxe_taken = True
        return
    split = policy.from_pots([a for a, _ in _pots(s, with_taxe=False)])
    s.taxe_split = tuple(split)
    s.taxe = sum(split)
    s.taxe_taken = True


def _on_taxe(s: StudState, event: Mapping[str, Any]) -> None:
    if not s.taxe_taken:
        raise IllegalAction(gettext_noop("cannot log the Taxe: it is taken when the 4th-street up cards are dealt (R8.1)"),
                            rule="R8.1")
    if s.taxe_logged:
        raise IllegalAction(gettext_noop("cannot log the Taxe twice: it is taken once per game (R8.1)"), rule="R8.1")
    amount = _amount_field(event, "amount", required=False, rule="R8.3")
    if amount is not None and amount != s.taxe:
        raise InvalidAmount(gettext_noop("the Taxe taken is %(taxe)s, not %(amount)s (R8.3)", taxe=_m(s.taxe), amount=_m(amount)), rule="R8.3")
    s.taxe_logged = True
