"""Seven Card Stud engine (spec ``seven_card_stud.md`` §1-§12, Bavarian house sheet first).

A hand is its :class:`~rules.engines.stud_config.StudConfig` plus the seats with their stacks plus
an ordered list of events. :func:`apply` returns a new :class:`StudState` (the input is never
changed) or raises a :class:`~rules.engines.errors.RuleViolation` subclass whose message names the
seat, the action and the rule. Replaying the same events always gives the same state.

Seats and order
    Table seats are fixed numbers (1..8). ``button`` is the dealer-button seat; the spec's "seat 1"
    (first to be dealt, R1.2) is the first occupied seat clockwise after it (higher numbers first,
    then wrapping round). Every message names the table seat number.

Amounts
    Int cents, the unit of the stacks. ``to`` amounts are the seat's *total for the street*, as PHH
    ``cbr`` does ("raise to 20.00"). Split-limit wagers are the exact fixed amounts; spread wagers
    must be whole chip units (``chip_unit``) unless all-in.

Events (JSON dicts; ``seat`` is a table seat number, cards canonical strings, ``??`` = unknown card)
    ``{"type": "ante", "seat": s[, "amount": c]}``
        Every seat posts ``min(ante, stack)`` before any card (R1.2, R10.4). Any order. If ``amount``
        is given it must equal that figure. With ``ante`` 0 the ante phase is skipped.
    ``{"type": "burn"[, "card": "7h"]}``
        Optional record of the burn before 4th-7th street (R1.3; also 3rd with
        ``burn_before_first_deal``). Unlogged burns are counted automatically when the street's first
        card is dealt, so deck accounting (R9) is right either way.
    ``{"type": "deal", "seat": s, "cards": "As Kd 7h"[, "face": "down"|"up"]}``
        1-3 cards for the seat's current street, in deal order (3rd: down down up; 4th-6th: up;
        7th: down). ``face`` is optional; a 1st/2nd card dealt face ``up`` is the exposure of R12.2
        (that seat's third card then comes face down). Unknown down cards may be ``??``.
    ``{"type": "deal_community", "card": "7d"}``
        The 7th-street community card when the deck runs out (R9.3), or as ``rrop_reshuffle`` falls
        back to it (R9.5).
    ``{"type": "bring_in", "seat": s}``
        The low card's forced bring-in (R4.1-R4.2, R7.4; short stacks post all, R10.3).
    ``{"type": "complete"|"bet"|"raise", "seat": s, "to": c}``
        A wager to ``c``. The type must be the one :func:`view` lists: ``bet`` when nothing is bet,
        ``complete`` when only a bring-in or a short all-in bet stands (R4.6, R6.5, R7.5, R10.3),
        ``raise`` otherwise. The bring-in seat's open for more than the bring-in is ``complete``.
    ``{"type": "call"|"check"|"fold", "seat": s}``
    ``{"type": "taxe"[, "amount": c]}``
        Optional croupier confirmation. The Taxe itself is taken **automatically** from the pot the
        moment the last 4th-street up card is dealt (R8.1); none if the hand ends on 3rd street
        (R8.2). A logged ``taxe`` event must match the amount taken.
    ``{"type": "show", "seat": s[, "cards": "..."]}`` / ``{"type": "muck", "seat": s}``
        Showdown, in the order of R11.1 (last aggressor on 7th, else the high board, then clockwise).
        ``cards`` (all of the seat's own cards) fills in unknown down cards. A seat may not muck if
        that would leave a pot with nobody to win it; the last hand left wins unshown (R1.5).
    ``{"type": "misdeal"}``
        Floor event (R12.1): only on 3rd street before two players have acted (the forced bring-in
        does not count); voids the hand and returns every chip.
    ``{"type": "card_exposed", "seat": s, "card": "As"}``
        Floor event (R12.2), 3rd street only: a dealt down card was turned up. It becomes the seat's
        up card and the third card is dealt face down; both down cards exposed = dead hand, ante
        returned.

Automation
    ``view(state)["expect"]`` tells what comes next: ``"ante"``, ``"deal"``, ``"deal_community"``,
    ``"bring_in"``, ``"action"``, ``"show"`` or ``None`` (complete); ``legal_actions`` lists the
    exact events that are legal now with their amounts (``min``/``max`` are the ``to`` totals for
    wagers and the chips put in for ``call``/``ante``/``bring_in``; split-limit wagers also carry the
    exact ``amounts``).

Decisions the spec leaves open, as implemented here
    * ``fold`` is refused when the seat could check (it is never forced to fold).
    * Several short all-ins reopen the betting once together they reach a full unit over the last
      full wager (R6.5); under ``half_bet`` a single all-in of half a unit or more is full.
    * Spread limit: a completion of a short bet (R7.5) may be any amount in [min, max].
    * With ``bring_in_may_fold`` a folded bring-in leaves 3rd street unopened: the next seats may
      check or bet.
    * The bring-in falls to the lowest door card among seats that still have chips (a seat all-in
      from its ante cannot post it).
    * 7th-street cards dealt face up (R12.3) are recorded but do not change the acting order.

The package (split by concern, each module under about 500 lines):
:mod:`~rules.engines.stud.state` (the state, board helpers, :func:`new_hand`),
:mod:`~rules.engines.stud.parsing` (seat, amount and card fields of an event),
:mod:`~rules.engines.stud.dealing` (antes, burns, the deal), :mod:`~rules.engines.stud.betting`
(bring-in and the betting round), :mod:`~rules.engines.stud.pots` (uncalled bets, side pots, the odd
chip), :mod:`~rules.engines.stud.taxe` (the Taxe), :mod:`~rules.engines.stud.showdown` (showdown,
uncontested end, misdeal), :mod:`~rules.engines.stud.view` (legal actions, settlement, view) and
:mod:`~rules.engines.stud.engine` (:func:`apply`, :func:`replay`, :class:`StudEngine`).
"""

from __future__ import annotations

from rules.engines.stud.engine import ENGINE, StudEngine, apply, next_button, replay
from rules.engines.stud.state import UNKNOWN, StudState, new_hand
from rules.engines.stud.view import is_complete, legal_actions, settlement, settlement_dict, view
from rules.engines.stud_config import build_config, config_to_dict

__all__ = [
    "ENGINE",
    "UNKNOWN",
    "StudEngine",
    "StudState",
    "apply",
    "build_config",
    "config_to_dict",
    "is_complete",
    "legal_actions",
    "new_hand",
    "next_button",
    "replay",
    "settlement",
    "settlement_dict",
    "view",
]
