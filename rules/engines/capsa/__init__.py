"""Capsa Susun (13-card Chinese poker) deal engine and showdown tool (spec ``capsa_susun.md``, A.1-A.13).

A deal is config + seats + ordered events (DESIGN.md). Players settle with each other pair by pair
(A.6); the house only takes a fee (A.11). Seats are ints; clockwise means ascending seat numbers,
wrapping round; the button is the dealer seat and the surrender round starts at its left (A.5).

Phases and events (``view(state)["expect"]`` names what comes next)
-------------------------------------------------------------------
``deal``
    ``{"type": "deal", "seat": s, "cards": "13 cards"}`` once per seat, any order (A.2, A.5.1).
    Cards dealt face down and not seen may be logged as 13 ``??``: the seat's ``set`` (or its
    ``declare_natural`` with ``"cards"``) names them later, checked against every card already seen;
    not where ``natural_declaration="auto"`` reads naturals at the deal.
    When the last seat is dealt, with ``natural_declaration="auto"`` every natural is detected,
    declared and paid; its holder does not set (A.5.2, A.8).
``set``
    ``{"type": "set", "seat": s, "front": "3 cards", "middle": "5 cards", "back": "5 cards"}`` from
    every seat without a natural, any order, once. A fouled setting is legal (A.4); it is flagged at
    the reveal. With ``natural_declaration="optional"`` a seat holding a natural may instead send
    ``{"type": "declare_natural", "seat": s}`` (optionally ``"natural": name``). With
    ``setting_time_limit_s`` and ``unset_on_timeout_is_foul`` the floor may log
    ``{"type": "timeout", "seat": s}`` for a seat that did not set: its hand is fouled (A.4) and it
    takes no part in the surrender round. In auto mode, with fewer than two seats left to set, the
    set and surrender rounds are skipped (there is nothing to compare).
``surrender``
    ``{"type": "play", "seat": s}`` or ``{"type": "surrender", "seat": s}`` in turn, clockwise from
    the button's left, by every seat that set (A.5.4, A.9). Skipped when ``surrender_enabled`` is
    false or fewer than two seats set.
``reveal``
    ``{"type": "reveal"}``: the hands are shown, fouls flagged, the deal settles (A.5.6-7).
    Before it, ``{"type": "declare_royalty", "seat": s, "row": "front|middle|back"}`` records an
    announced royalty (A.5.5); it only matters with ``royalties_require_declaration``. The engine
    detects royalties itself and shows them in the view once every seat has set.
any time before the first play/surrender decision and before any natural is declared:
    ``{"type": "misdeal", "reason": "..."}`` (A.5.1): the deal is void, nothing settles, no fee, and
    the button does not move. ``reason="exposed_card"`` is refused when ``misdeal_on_exposed_card``
    is false (the card stays with its player).

Errors (state unchanged): :class:`UnknownEvent` (type or fields), :class:`InvalidCard`,
:class:`DuplicateCard`, :class:`WrongCardCount`, :class:`OutOfTurn` (surrender round),
:class:`IllegalAction` (e.g. a setting that does not use exactly the seat's 13 cards, a natural the
cards do not make), :class:`HandComplete`.

Settlement (:func:`settlement`): ``contributions[s]`` = cents s pays to others, ``awards[s]`` = cents s
receives, ``transfers`` one :class:`PairTransfer` per pair that exchanged units (``amount`` after table
stakes), ``fees[s]`` the house fee on top; ``check_balanced`` holds with ``tax=0``.

Showdown tool (:func:`showdown`): see its docstring.

The package (split by concern, each module under about 500 lines):
:mod:`~rules.engines.capsa.state` (the state, :func:`new_hand`, the button),
:mod:`~rules.engines.capsa.parsing` (seat and cards of an event),
:mod:`~rules.engines.capsa.play` (the event handlers), :mod:`~rules.engines.capsa.hand`
(:func:`apply`, :func:`can_apply`, :func:`replay`), :mod:`~rules.engines.capsa.view` (rows, settlement,
legal actions, view), :mod:`~rules.engines.capsa.simulation` (:func:`random_deal`),
:mod:`~rules.engines.capsa.showdown_tool` (:func:`showdown`) and :mod:`~rules.engines.capsa.engine`
(``ENGINE``). Scoring and the fee are in :mod:`rules.engines.capsa_scoring`, the configuration in
:mod:`rules.engines.capsa_config`.
"""

from __future__ import annotations

from rules.engines.capsa.engine import ENGINE
from rules.engines.capsa.hand import apply, can_apply, replay, verify_event
from rules.engines.capsa.showdown_tool import showdown
from rules.engines.capsa.simulation import random_deal
from rules.engines.capsa.state import CapsaState, is_complete, new_hand, next_button
from rules.engines.capsa.view import seat_hands, settlement, view
from rules.engines.capsa_config import build_config, config_to_dict
from rules.engines.capsa_scoring import FEE_ROUNDING

__all__ = [
    "ENGINE", "CapsaState", "FEE_ROUNDING", "apply", "build_config", "can_apply", "config_to_dict",
    "is_complete", "new_hand", "next_button", "random_deal", "replay", "seat_hands", "settlement", "showdown",
    "verify_event", "view",
]
