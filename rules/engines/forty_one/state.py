"""The state of a Forty-one hand (:class:`FortyOneState`), :func:`new_hand` and the forced-bet bookkeeping
(B.2, B.4 steps 1-2, B.4a).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from rules.core.seats import clockwise_after, clockwise_from
from rules.engines.base import Settlement
from rules.engines.cards import (
    Card,
)
from rules.engines.errors import (
    IllegalAction,
)
from rules.engines.evaluators.forty_one import (
    FortyOneHand,
    evaluate,
)
from rules.engines.forty_one_config import FortyOneConfig, build_config
from rules.engines.messages import gettext_noop

GAME = "forty_one"


#: Cards per seat in each of the two deals (B.4 steps 3-4) and exposed before round 2 (B.4 step 4).
CARDS_PER_DEAL = 2


CARDS_EXPOSED = 2


#: Cards a hand has at the showdown (B.3, B.4b "a hand without exactly four cards ... is dead").
SHOWDOWN_CARDS = 4


_PHASE_EXPECT = {
    "forced_bets": "ante", "deal1": "deal", "round1": "action", "deal2": "deal", "expose": "expose",
    "round2": "action", "showdown": "showdown", "reveal": "show", "complete": None,
}


@dataclass
class FortyOneState:
    """One hand in progress; treat as immutable (``apply`` returns a copy). Amounts in int cents.

    ``seats``: seats dealt in, ascending; ``forehand``: the Spitz seat; ``starting``/``stacks``:
    chips at the start / behind now; ``contrib``: chips put in (antes, blind, bets); ``hole``: cards
    held; ``exposed``: the two up cards; ``phase``: see ``_PHASE_EXPECT``; betting state of the current
    round: ``round_bet`` (this round, live money), ``level`` (amount to match), ``raise_base`` (the
    last full wager; a raise goes to ``raise_base + unit``), ``raises``, ``capped``, ``acted`` (seats
    that acted since the last full bet or raise), ``raise_closed`` (raise_right mode).
    """

    config: FortyOneConfig
    seats: tuple[int, ...]
    forehand: int
    starting: dict[int, int]
    stacks: dict[int, int]
    contrib: dict[int, int]
    antes: dict[int, int] = field(default_factory=dict)
    blind: int | None = None
    dead_blind: int = 0
    hole: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    unseen: dict[int, int] = field(default_factory=dict)
    exposed: dict[int, tuple[Card, ...]] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    phase: str = "forced_bets"
    round_no: int = 0
    round_bet: dict[int, int] = field(default_factory=dict)
    level: int = 0
    raise_base: int = 0
    raises: int = 0
    capped: bool = False
    acted: set[int] = field(default_factory=set)
    raise_closed: bool = False
    to_act: int | None = None
    round1_actions: int = 0
    shown: set[int] = field(default_factory=set)
    showdown_reached: bool = False
    misdeal: bool = False
    uncontested_winner: int | None = None
    result: Settlement | None = None
    hands: dict[int, FortyOneHand] = field(default_factory=dict)
    events: tuple[dict[str, Any], ...] = ()

    def clone(self) -> FortyOneState:
        """A copy whose mutable containers are fresh (values are immutable, so one level suffices).

        Hand-written copy-on-apply (no ``dataclasses.replace``): one dict update plus the containers.
        """
        new = object.__new__(FortyOneState)
        d = new.__dict__
        d.update(self.__dict__)
        d["starting"] = self.starting.copy()
        d["stacks"] = self.stacks.copy()
        d["contrib"] = self.contrib.copy()
        d["antes"] = self.antes.copy()
        d["hole"] = self.hole.copy()
        d["unseen"] = self.unseen.copy()
        d["exposed"] = self.exposed.copy()
        d["folded"] = self.folded.copy()
        d["round_bet"] = self.round_bet.copy()
        d["acted"] = self.acted.copy()
        d["shown"] = self.shown.copy()
        d["hands"] = self.hands.copy()
        return new

    # helpers ---------------------------------------------------------------------------------------
    @property
    def live(self) -> list[int]:
        """Seats still in the hand (not folded), ascending."""
        folded = self.folded
        if not folded:
            return list(self.seats)
        return [s for s in self.seats if s not in folded]

    @property
    def complete(self) -> bool:
        return self.phase == "complete"

    def after(self, seat: int) -> list[int]:
        """All seats clockwise starting after ``seat`` (``seat`` itself last)."""
        return list(_after_order(self.seats, seat))

    @property
    def unit(self) -> int:
        return self.config.unit(self.round_no or 1)


@lru_cache(maxsize=4096)
def _after_order(seats: tuple[int, ...], seat: int) -> tuple[int, ...]:
    """:meth:`FortyOneState.after` for a seat tuple (pure, so cached)."""
    return tuple(clockwise_after(seats, seat))


@lru_cache(maxsize=4096)
def _clockwise(seats: tuple[int, ...], forehand: int) -> tuple[int, ...]:
    """:func:`rules.core.seats.clockwise_from` the forehand, of a seat tuple (pure, so cached)."""
    return tuple(clockwise_from(seats, forehand))


@lru_cache(maxsize=65536)
def _evaluate_held(held: tuple[Card, ...], points_mode: str, category_order: tuple[str, ...],
                   flush_tiebreak: str) -> FortyOneHand:
    """:func:`evaluate` of a seat's four held cards (pure; the result is frozen, so cached)."""
    return evaluate(held, points_mode=points_mode, category_order=category_order, flush_tiebreak=flush_tiebreak)


def new_hand(config: FortyOneConfig, seats: Mapping[int, int], *, button: int) -> FortyOneState:
    """Start a hand. ``seats``: seat -> starting stack in cents (table stakes, B.4a); ``button``: the
    forehand's seat (the Spitz, B.4 step 1).

    Raises :class:`IllegalAction` for fewer than ``min_players`` or more than ``max_players`` seats
    (B.8 #13), a seat without chips, or a forehand not dealt in.
    """
    if not isinstance(config, FortyOneConfig):
        config = build_config(config)
    table = {}
    for seat, stack in seats.items():
        seat_no = int(seat)
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise IllegalAction(gettext_noop("seat %(seat_no)s cannot be dealt in without chips (stack %(stack)s) (B.4a)", seat_no=seat_no, stack=repr(stack)),
                                seat=seat_no, rule="B.4a")
        table[seat_no] = stack
    n = len(table)
    if not config.min_players <= n <= config.max_players:
        raise IllegalAction(gettext_noop("Forty-one is dealt to %(min_players)s to %(max_players)s players, not %(n)s (B.2, B.8 #13)", min_players=config.min_players, max_players=config.max_players, n=n), rule="B.8")
    if button not in table:
        raise IllegalAction(gettext_noop("the forehand (Spitz) must sit at a seat dealt in; seat %(button)s is not (B.4 step 1)", button=button),
                            seat=button, rule="B.4")
    ordered = tuple(sorted(table))
    state = FortyOneState(config=config, seats=ordered, forehand=button, starting=dict(table),
                          stacks=dict(table), contrib={s: 0 for s in ordered})
    _check_forced_done(state)
    return state


def _post_blind(st: FortyOneState, amount: int) -> None:
    _put(st, st.forehand, amount)
    st.blind = amount
    if not st.config.forehand_post_live:
        st.dead_blind = amount


def _check_forced_done(st: FortyOneState) -> None:
    if st.phase != "forced_bets":
        return
    if st.config.ante and len(st.antes) < len(st.seats):
        return
    if st.blind is None:
        if st.stacks[st.forehand] > 0:
            return
        _post_blind(st, 0)  # the forehand is all-in on the ante (B.4a): nothing left to post
    st.phase = "deal1"


def _put(st: FortyOneState, seat: int, amount: int) -> None:
    st.stacks[seat] -= amount
    st.contrib[seat] += amount
