"""The Forty-one (Einundvierzig) engine: one casino hand as config + seats + events (spec B.4-B.6).

A hand is replayed from its events; :func:`apply` returns a NEW :class:`FortyOneState` or raises a
:class:`~rules.engines.errors.RuleViolation` subclass and leaves the state as it was.

Flow (B.4) and the events of each step (amounts int cents, cards canonical text such as ``"As Kd"``;
with ``deck = "double_german"`` German names such as ``"Herz Ass, Herz König"`` are accepted too)::

    forced bets   {"type": "ante", "seat": s[, "amount": c]}     every seat (amount = min(ante, stack))
                  {"type": "blind", "seat": forehand[, "amount": c]}  lower limit; live unless
                                                                  forehand_post_live = false (B.4 step 2)
    first deal    {"type": "deal", "seat": s, "cards": "As Kd"}   two cards to every seat (B.4 step 3)
    round 1       {"type": "check"|"call"|"fold", "seat": s}
                  {"type": "bet"|"raise", "seat": s, "to": c}     "to" = the seat's total this round
    second deal   {"type": "deal", "seat": s, "cards": "Qh Jh"}   two more to every seat still in
    exposure      {"type": "expose", "seat": s, "cards": "As Qh"} two of the four, each seat still in
    round 2       as round 1 (no forced bet; B.4 step 5)
    showdown      {"type": "show", "seat": s}                    every seat still in turns up (B.4 step 9)
    uncontested   {"type": "show"|"muck", "seat": winner}        only asked when the winner holds four
                                                                  cards and bonus_41_requires = any_shown (B.6)
    floor         {"type": "misdeal"}                            before two players acted in round 1 (B.4b)

Any event may carry ``"note"`` or keys starting with ``_`` (ignored); other unknown keys are refused.
Forced bets and deals may be logged in any order (``view()["to_act"]`` suggests the clockwise one);
betting is strictly in turn. With ``exposure_order = "simultaneous"`` the exposures may be logged in
any order (they are turned up together); with ``"in_turn"`` clockwise from the forehand's left.
A card dealt face down and not seen may be logged as ``??`` (``"?? ??"``): the exposure names two of
the seat's cards and the showdown (``show`` with all four ``cards``) the rest, each checked against the
cards dealt to the other seats; a folded hand stays unknown.

Readings of the spec that this engine fixes (documented for the croupier and the tests):

* A short all-in of at least half a unit counts as a full bet/raise (``short_allin_rule="half_bet"``,
  B.4a); the next full raise is then one unit over the all-in total. A smaller one only raises the
  amount to call; players who already acted may call or fold, the others may also complete it to
  the previous full wager plus one unit (this completion counts as a raise, or as the opening bet).
* ``close_mode = "raise_right"``: once a player calls while entitled to raise ("Auf!"), nobody may
  raise for the rest of that round; the others still call or fold (B.4 step 7, Model B).
* The forehand's dead blind (``forehand_post_live = false``) is dead money in the main pot, never
  returned. With ``tax_includes_antes = false`` the antes are deducted from the main pot's taxable base.
* The engine's ``winner`` is the winner of the main pot: every seat still in is entitled to it, so it
  is the best hand at the showdown (what :func:`showdown` ranks first). Nothing is ever split (B.3 rule 5).
* After a misdeal the hand is complete with every chip returned; the Spitz does not move
  (:func:`next_forehand` keeps it; :func:`next_button` is the plain clockwise move for the tables service).

The package (split by concern, each module under about 500 lines):
:mod:`~rules.engines.forty_one.state` (the state, :func:`new_hand`),
:mod:`~rules.engines.forty_one.parsing` (event shape, seat, amounts, cards),
:mod:`~rules.engines.forty_one.dealing` (forced bets, deals, exposure),
:mod:`~rules.engines.forty_one.betting` (the betting rounds),
:mod:`~rules.engines.forty_one.showdown` (showdown, uncontested end, misdeal),
:mod:`~rules.engines.forty_one.settle` (pots, tax, bonus, the settlement),
:mod:`~rules.engines.forty_one.view` (legal actions, view),
:mod:`~rules.engines.forty_one.hand` (:func:`apply`, :func:`verify`, :func:`can_apply`, :func:`replay`),
:mod:`~rules.engines.forty_one.simulation` (:func:`random_hand`),
:mod:`~rules.engines.forty_one.showdown_tool` (:func:`showdown`) and
:mod:`~rules.engines.forty_one.engine` (:class:`FortyOneEngine`).
"""

from __future__ import annotations

from rules.engines.forty_one.engine import ENGINE, FortyOneEngine
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
from rules.engines.forty_one.parsing import parse_pack_cards
from rules.engines.forty_one.showdown_tool import showdown
from rules.engines.forty_one.simulation import random_hand
from rules.engines.forty_one.state import FortyOneState, new_hand
from rules.engines.forty_one.view import legal_actions, settlement_to_dict, view
from rules.engines.forty_one_config import build_config, config_to_dict

__all__ = [
    "ENGINE",
    "FortyOneEngine",
    "FortyOneState",
    "apply",
    "build_config",
    "can_apply",
    "config_to_dict",
    "is_complete",
    "legal_actions",
    "new_hand",
    "next_button",
    "next_forehand",
    "parse_pack_cards",
    "random_hand",
    "replay",
    "settlement",
    "settlement_to_dict",
    "showdown",
    "verify",
    "view",
]
