"""Simulated shifts: random legal hands logged through the very services a croupier's API calls use.

Used by ``manage.py simulate_shift`` (the demo evening, load tests) and by tests. Nothing here
touches the ledger or a hand's rows directly: each hand is opened with
:func:`tables.services.hands.hand_open` and logged one event at a time with
:func:`tables.services.hands.hand_event_append` (the service behind ``POST /api/v1/hands/{id}/events/``),
with an idempotency key and ``expected_seq`` exactly as a terminal sends them. The hand closes itself
on its last event, which posts the settlement entry and enqueues the reconciliation (on commit).

Randomness is injected (one ``random.Random(seed)`` per shift), so a shift with the same seed at
the same table state deals the same hands. Money is int cents, as in the engines.

The event generators are pure (no database) and live with the engines: ``stud_sim.random_hand``,
``forty_one.random_hand`` and ``capsa.random_deal``, each driving its engine's legal actions, so
every generated event is legal by construction and a change of the rules changes the simulation with it.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from casino.errors import ApplicationError
from casino.i18n import gettext_noop, status_word
from rules.engines.errors import ConfigError
from rules.registry import get_game
from tables.models import SEAT_RANGE, Hand, Table
from tables.selectors import limit_profile_in_force

#: Starting stacks are drawn between these multiples of the table's largest bet (stud, Forty-one) or
#: of the Capsa unit times the cover (enough for most hands, short enough for the odd all-in).
STACK_MULTIPLES = (15, 60)


# --- pure event generators ----------------------------------------------------------------------------------


def random_hand_events(*, game: str, config: Any, seats: Mapping[int, int], button: int,
                       rng: random.Random) -> list[dict[str, Any]]:
    """Random legal events of one hand of ``game`` (cents), by the game's generator in the registry
    (:attr:`rules.core.game_spec.GameSpec.random_hand`; Capsa deals no misdeal).
    Raises ``ApplicationError`` (``invalid_game``) for a game the registry does not know."""
    try:
        spec = get_game(game)
    except ConfigError:
        raise ApplicationError(gettext_noop("no simulator for game %(game)s", game=repr(game)), code="invalid_game") from None
    return spec.random_hand(config, seats, button, rng)


def stake_unit_cents(*, game: str, config: Mapping[str, Any]) -> int:
    """The largest single bet of a limit profile's normalised config (cents), as the game's registry entry
    says (:attr:`rules.core.game_spec.GameSpec.stake_unit`): stud games ``higher`` or ``spread_max``;
    Forty-one the last of ``limits``; Capsa ``unit_value`` times ``cover_units``."""
    return get_game(game).stake_unit(config)


def random_seats(*, table: Table, config: Mapping[str, Any], rng: random.Random,
                 players: int | None = None) -> dict[int, int]:
    """Pick ``players`` seats (default: random within the game's seat range and the table's seats) with
    starting stacks between :data:`STACK_MULTIPLES` of the stake unit, whole euros. ``{seat: cents}``."""
    low, high = SEAT_RANGE[table.game]
    high = min(high, table.seats)
    count = players if players is not None else rng.randint(max(low, high - 2), high)
    if not low <= count <= high:
        raise ApplicationError(gettext_noop("%(count)s players cannot sit at '%(table)s' (%(low)s to %(high)s)", count=count, table=table, low=low, high=high), code="invalid_seats")
    unit = stake_unit_cents(game=table.game, config=config)
    seats = sorted(rng.sample(range(1, table.seats + 1), count))
    return {seat: max(100, (unit * rng.randint(*STACK_MULTIPLES)) // 100 * 100) for seat in seats}


# --- through the services -----------------------------------------------------------------------------------


@dataclass
class ShiftResult:
    """What a simulated shift logged: the hands (ids), how many events, and the totals in cents."""

    table: str
    hands: list[int] = field(default_factory=list)
    events: int = 0
    pots: int = 0
    tax: int = 0
    fees: int = 0
    bonus: int = 0

    def as_line(self) -> str:
        from rules.engines.money import format_cents

        return (f"{self.table}: {len(self.hands)} hands, {self.events} events, pots {format_cents(self.pots)}, "
                f"tax {format_cents(self.tax)}, fees {format_cents(self.fees)}, 41 bonuses {format_cents(self.bonus)}")


def shift_actor(*, table: Table):
    """Who logs a simulated shift at ``table``: the dealer on duty there now (as in the card room).

    Raises ``ApplicationError`` (``no_dealer``) when nobody deals there: assign a dealer first.
    """
    from tables.selectors import dealer_on_duty

    dealer = dealer_on_duty(table=table)
    if dealer is None:
        raise ApplicationError(gettext_noop("nobody deals at '%(table)s' now: start a dealer assignment (or publish a rotation) before simulating a shift", table=table), code="no_dealer")
    return dealer.user


def hand_simulate(*, table: Table, rng: random.Random, actor, key_prefix: str,
                  players: int | None = None, whole_hand: bool = False) -> tuple[Hand, int]:
    """Deal one random legal hand at ``table`` through the croupier's services; return ``(hand, events)``.

    Opens the hand (:func:`~tables.services.hands.hand_open`: next number, dealer on duty, button,
    frozen limits), generates its events from the frozen snapshot, and logs them as a terminal does:
    one by one with :func:`~tables.services.hands.hand_event_append` (key ``"{key_prefix}:{hand id}:{seq}"``,
    ``expected_seq`` = events stored so far), or with ``whole_hand`` in one
    :func:`~tables.services.hands.hand_events_submit` (``POST /hands/{id}/events/batch/``). The last
    event closes the hand (ledger entry, reconciliation on commit). Raises what the services raise.
    """
    from rules.registry import get_engine
    from tables.services.hands import SeatInput, hand_event_append, hand_events_submit, hand_open

    profile = limit_profile_in_force(table=table)
    if profile is None:
        raise ApplicationError(gettext_noop("table '%(table)s' has no limit profile in force", table=table), code="no_limit_profile")
    seats = random_seats(table=table, config=profile.config, rng=rng, players=players)
    hand = hand_open(table=table, seats=[SeatInput(seat=s, stack=c, player_ref=f"sim-{s}") for s, c in seats.items()],
                     actor=actor)
    engine = get_engine(hand.game)
    config = engine.build_config(hand.limit_snapshot)
    events = random_hand_events(game=hand.game, config=config, seats={int(s): i["stack"] for s, i in hand.seats.items()},
                                button=hand.button_seat, rng=rng)
    if whole_hand:
        hand_events_submit(hand=hand, events=events, idempotency_key=f"{key_prefix}:{hand.pk}", actor=actor)
    else:
        for seq, event in enumerate(events):
            hand_event_append(hand=hand, event=event, idempotency_key=f"{key_prefix}:{hand.pk}-{seq + 1}",
                              expected_seq=seq, actor=actor)
    hand.refresh_from_db()
    return hand, len(events)


def shift_preview(*, table: Table, hands: int, seed: int) -> list[Any]:
    """The settlements :func:`shift_simulate` would produce at ``table`` now, without writing anything.

    Pure replay of the same random draws (seats, button as the hands service places it, events) with
    the limit profile in force; used to pick a seed for a demo (e.g. one where a 41 is shown). Returns
    one :class:`~rules.engines.base.Settlement` per hand. A later change in how the services place the
    button only makes the preview differ from the real shift; it never changes what is logged.
    """
    from rules.registry import get_engine
    from tables.services.floor import table_button_for_next_hand

    profile = limit_profile_in_force(table=table)
    if profile is None:
        raise ApplicationError(gettext_noop("table '%(table)s' has no limit profile in force", table=table), code="no_limit_profile")
    engine = get_engine(table.game)
    config = engine.build_config(profile.config)
    rng = random.Random(seed)
    ghost = Table(name=table.name, game=table.game, seats=table.seats, button_seat=table.button_seat)
    out = []
    for _ in range(hands):
        seats = random_seats(table=table, config=profile.config, rng=rng)
        button = table_button_for_next_hand(table=ghost, occupied_seats=seats)
        events = random_hand_events(game=table.game, config=config, seats=seats, button=button, rng=rng)
        out.append(engine.settlement(engine.replay(config, seats, events, button=button)))
        ghost.button_seat = int(engine.next_button(sorted(seats), button))
    return out


def shift_seed_find(*, table: Table, hands: int, seed: int, wanted: Callable[[list[Any]], bool],
                    tries: int = 200) -> int:
    """The first seed from ``seed`` on whose :func:`shift_preview` satisfies ``wanted`` (else ``seed``)."""
    for candidate in range(seed, seed + tries):
        if wanted(shift_preview(table=table, hands=hands, seed=candidate)):
            return candidate
    return seed


def shift_simulate(*, table: Table, hands: int, seed: int, actor=None, whole_hands: bool = False,
                   progress: Callable[[Hand], None] | None = None) -> ShiftResult:
    """Deal ``hands`` random legal hands at ``table`` with ``random.Random(seed)`` (see :func:`hand_simulate`).

    ``actor`` defaults to the dealer on duty (:func:`shift_actor`), looked up again before each hand, so a
    shift that runs across a rotation's hand-over is logged by whoever deals then; ``whole_hands`` logs each hand in
    one submission instead of event by event. Each hand is its own transactions
    (as at the table); a failure stops the shift with the hands so far kept. Returns a
    :class:`ShiftResult` with the totals read back from the engine's settlements (cents).
    Raises ``ApplicationError``: table not open, no dealer on duty, no limits, a hand still open.
    """
    from tables.services.hands import hand_replay

    if hands < 1:
        raise ApplicationError(gettext_noop("a shift deals at least one hand"), code="invalid_hands")
    if table.status != Table.Status.OPEN:
        raise ApplicationError(gettext_noop("table '%(table)s' is %(status)s: open it before dealing", table=table, status=status_word(table)), code="table_not_open")
    fixed_actor = actor
    if fixed_actor is None:
        shift_actor(table=table)  # refuses before any hand when nobody deals there
    rng = random.Random(seed)
    result = ShiftResult(table=table.name)
    for _ in range(hands):
        hand, count = hand_simulate(table=table, rng=rng, actor=fixed_actor or shift_actor(table=table),
                                    key_prefix=f"sim:{seed}",
                                    whole_hand=whole_hands)
        result.hands.append(hand.pk)
        result.events += count
        engine, state = hand_replay(hand=hand)
        settlement = engine.settlement(state)
        result.pots += sum(settlement.contributions.values()) - sum(settlement.returned.values())
        result.tax += settlement.tax
        result.fees += sum(settlement.fees.values())
        result.bonus += sum(settlement.bonus.values())
        if progress is not None:
            progress(hand)
    return result
