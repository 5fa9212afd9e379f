"""The stud Taxe: taken once as the 4th-street up cards land, flat or a capped percentage (R8.1-R8.3)."""

from __future__ import annotations

from collections.abc import Mapping
from decimal import ROUND_DOWN, Decimal
from typing import Any

from rules.engines.errors import (
    IllegalAction,
    InvalidAmount,
)
from rules.engines.messages import gettext_noop
from rules.engines.stud.parsing import _amount_field
from rules.engines.stud.pots import _pots
from rules.engines.stud.state import StudState, _m

#: The Taxe in ``percent_with_cap`` mode is rounded down to the chip unit (R8.3).
TAXE_ROUNDING = ROUND_DOWN


def _take_taxe(s: StudState) -> None:
    """R8.1-R8.3: the Taxe leaves the pot once, as the 4th-street up cards land."""
    cfg = s.cfg
    if cfg.taxe_mode == "flat" and not cfg.taxe_amount:  # no Taxe configured (e.g. PHH replays)
        s.taxe_split = ()
        s.taxe = 0
        s.taxe_taken = True
        return
    pots = _pots(s, with_taxe=False)
    total = sum(a for a, _ in pots)
    if cfg.taxe_mode == "flat":
        wanted = cfg.taxe_amount or 0
    else:
        raw = Decimal(total) * Decimal(cfg.taxe_percent) / 100  # type: ignore[arg-type]
        units = (raw / cfg.chip_unit).quantize(Decimal(1), rounding=TAXE_ROUNDING)
        wanted = min(int(units) * cfg.chip_unit, cfg.taxe_cap or 0)
    split = [0] * len(pots)
    if pots and wanted:
        if cfg.taxe_from == "main_pot":
            split[0] = min(wanted, pots[0][0])
        else:
            taxe = min(wanted, total)
            for k, (amt, _) in enumerate(pots):
                split[k] = taxe * amt // total
            split[0] += taxe - sum(split)
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
