"""The API shows money as EUR from the types (issue 14): an event's amounts are the cents fields its typed
event declares, a state's are the values its game declares cents; the answers read as they did when the
serializer guessed from key names (the guess is kept here as the reference)."""

from __future__ import annotations

import random
from collections.abc import Mapping

import pytest

from rules import contract
from rules.engines.money import format_cents
from rules.registry import GAMES
from tables.api.hands_serializers import EVENT_MONEY_FIELDS, event_out, money_out

GAME_IDS = [g.name for g in GAMES]

# The serializer's key-name guess before issue 14, the reference the typed rendering must match.
_SCALARS = frozenset({"min", "max", "amount", "to", "tax", "bet_to", "pot_total", "to_call", "level", "unit"})
_MAPS = frozenset({"stacks", "contributions", "street_contributions", "returned", "uncalled", "round_bets",
                   "awards", "fees", "bonus", "net", "final_stacks"})


def _eur(value):
    return format_cents(value) if isinstance(value, int) and not isinstance(value, bool) else value


def _guessed(value, key=None):
    if isinstance(value, Mapping):
        if key in _MAPS:
            return {str(k): _eur(v) for k, v in value.items()}
        return {str(k): _guessed(v, str(k)) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if key == "amounts":
            return [_eur(v) for v in value]
        if key == "pot_awards":
            return [[row[0], row[1], _eur(row[2])] if isinstance(row, list | tuple) and len(row) == 3
                    else _guessed(row) for row in value]
        return [_guessed(v) for v in value]
    return _eur(value) if key in _SCALARS else value


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_states_and_events_read_as_before_with_money_from_the_types(spec):
    config = spec.engine.build_config(spec.example_config)
    states = events = 0
    for seed in range(25):
        rng = random.Random(seed)
        low, high = spec.players
        seats = {s: rng.randint(20, 400) * 100 for s in range(1, rng.randint(low, min(high, 6)) + 1)}
        state = spec.engine.new_hand(config, seats, button=max(seats))
        for event in spec.random_hand(config, seats, max(seats), rng):
            answer = spec.engine.view(state)
            assert money_out(answer) == _guessed(answer)
            state, record = contract.act(spec, state, event)
            assert event_out(record, spec.name) == _guessed(record)
            states, events = states + 1, events + 1
        answer = spec.engine.view(state)
        assert answer["complete"] and money_out(answer) == _guessed(answer)
    assert states and events


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_every_cents_field_of_an_event_is_converted_on_the_way_in(spec):
    for kind in spec.events.types:
        assert spec.events.money_fields(kind) <= set(EVENT_MONEY_FIELDS), kind


def test_capsa_units_are_counts_not_money():
    capsa = next(g for g in GAMES if g.name == "capsa_susun")
    answer = {"game": "capsa_susun", "tax": 150, "transfers": [{"payer": 1, "payee": 2, "units": 3, "amount": 300}]}
    assert money_out(answer) == {"game": "capsa_susun", "tax": "1.50",
                                 "transfers": [{"payer": 1, "payee": 2, "units": 3, "amount": "3.00"}]}
    assert not capsa.events.money_fields("set")
