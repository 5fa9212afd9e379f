"""What every registered game must do (issue 14): parametrised over :data:`rules.registry.GAMES`, so a new
game is covered by registering it. Replay determinism, chips conserved, copy-on-apply, verify / can / act
agree, canonical records replay to the same hand, and the one typed view has the same shape everywhere."""

from __future__ import annotations

import copy
import json
import random
from dataclasses import asdict, fields

import pytest

from rules import contract
from rules.core.view import HandView, LegalAction, SeatView
from rules.engines.errors import RuleViolation
from rules.registry import GAME_NAMES, GAMES, game_choices, game_config_fields, get_game

SEEDS = range(6)
GAME_IDS = [g.name for g in GAMES]


def _seats(spec, rng):
    low, high = spec.players
    n = rng.randint(low, min(high, 6))
    return {k + 1: rng.randint(50, 400) * 100 for k in range(n)}


def _hand(spec, seed):
    rng = random.Random(seed)
    config = spec.engine.build_config(spec.example_config)
    seats = _seats(spec, rng)
    button = max(seats)
    events = spec.random_hand(config, seats, button, rng)
    return config, seats, button, events


def test_the_registry_lists_five_games_once_each():
    assert GAME_NAMES == ("seven_card_stud", "razz", "seven_card_stud_hi_lo", "forty_one", "capsa_susun")
    assert [n for n, _ in game_choices()] == list(GAME_NAMES)


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_every_game_registers_what_the_services_need(spec):
    assert spec.hand_view is not None and spec.example_config is not None and spec.showdown is not None
    assert spec.rules_doc == f"docs/rules/{spec.name}.md"
    assert get_game(spec.name) is spec
    assert game_config_fields(spec.name), "the floor's forms are built from the config description"


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_replay_is_deterministic_and_chips_are_conserved(spec, seed):
    config, seats, button, events = _hand(spec, seed)
    engine = spec.engine
    first = engine.replay(config, seats, events, button=button)
    second = engine.replay(config, seats, events, button=button)
    assert engine.is_complete(first)
    assert spec.hand_view(first) == spec.hand_view(second)
    result = engine.settlement(first)
    result.check_balanced()
    view = spec.hand_view(first)
    stacks_after = {s.seat: s.stack for s in view.seats}
    # every chip is a seat's or the house's: start + the house's bonus = end + the house's take
    assert sum(seats.values()) + sum(result.bonus.values()) == (
        sum(stacks_after.values()) + result.tax + sum(result.fees.values()))
    assert stacks_after == {s: seats[s] + result.net.get(s, 0) for s in seats}
    assert sum(result.net.values()) == -(result.tax + sum(result.fees.values())) + sum(result.bonus.values())


def _scruffy(value):
    """Cards as a croupier's terminal might send them: lower case, a list, ``XX`` for an unknown card."""
    if not isinstance(value, str) or not value:
        return value
    tokens = ["XX" if t == "??" else t.lower() for t in value.split()]
    return tokens if len(tokens) % 2 else ",".join(tokens)


def _wire(event):
    """``event`` as it may come over the wire: scruffy cards, a note, keys in another order."""
    out = {k: _scruffy(v) if k in CARD_FIELDS else v for k, v in reversed(list(event.items()))}
    out["note"] = "from the terminal"
    return out


CARD_FIELDS = ("cards", "card", "front", "middle", "back")


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_apply_never_changes_the_state_it_was_given_and_verify_can_act_agree(spec, seed):
    config, seats, button, events = _hand(spec, seed)
    state = spec.engine.new_hand(config, seats, button=button)
    actions = contract.contract_for(spec)
    for event in events:
        before = spec.hand_view(state)
        snapshot = copy.deepcopy(before)
        # a seat that is not in the hand is never legal: verify raises, can says no, act raises
        stranger = {**event, "seat": 99} if "seat" in event else {**event, "type": "no_such_event"}
        with pytest.raises(RuleViolation) as err:
            contract.verify(spec, state, stranger)
        assert err.value.code and str(err.value)
        assert contract.can(spec, state, stranger) is False
        with pytest.raises(RuleViolation) as act_err:
            contract.act(spec, state, stranger)
        assert (act_err.value.code, str(act_err.value), act_err.value.rule) == (
            err.value.code, str(err.value), err.value.rule)
        assert contract.can(spec, state, event) is True
        contract.verify(spec, state, event)
        fields = {k: v for k, v in event.items() if k != "type"}
        kind = event["type"]
        assert getattr(actions, f"can_{kind}")(state, **fields) is True
        getattr(actions, f"verify_{kind}")(state, **fields)
        if "seat" in event:  # the per-action pair agrees with act on a refusal too (same error)
            assert getattr(actions, f"can_{kind}")(state, **{**fields, "seat": 99}) is False
            with pytest.raises(type(err.value)) as per_action:
                getattr(actions, f"verify_{kind}")(state, **{**fields, "seat": 99})
            assert (per_action.value.code, per_action.value.rule) == (err.value.code, err.value.rule)
        new_state, record = contract.act(spec, state, event)
        assert spec.hand_view(state) == snapshot == before  # copy-on-apply: the old state is untouched
        assert spec.hand_view(spec.engine.apply(state, event)) == spec.hand_view(new_state)
        assert record["type"] == event["type"]
        assert getattr(actions, f"act_{kind}")(state, **fields)[1] == record
        state = new_state
    assert spec.engine.is_complete(state)


def _assert_canonical(spec, record):
    """Cards ``Ts``/``??`` with one space, amounts int cents, seats ints, ``type`` first."""
    assert next(iter(record)) == "type"
    for key, value in record.items():
        if key in CARD_FIELDS and value is not None:
            assert isinstance(value, str) and value == " ".join(value.split())
            for token in value.split():
                assert token == "??" or (len(token) == 2 and token[0] in "23456789TJQKA" and token[1] in "cdhs")
        if key in spec.events.money_fields(record["type"]) and value is not None:
            assert type(value) is int and value >= 0
        if key == "seat":
            assert type(value) is int


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_canonical_records_replay_to_the_same_hand(spec, seed):
    config, seats, button, events = _hand(spec, seed)
    state = spec.engine.new_hand(config, seats, button=button)
    records = []
    for event in events:
        state, rec = contract.act(spec, state, _wire(event))
        _assert_canonical(spec, rec)
        assert contract.record(spec, rec) == rec  # parse(canonical) == canonical: a fixed point
        assert contract.parse(spec, rec) == contract.parse(spec, _wire(event), context=state)
        records.append(rec)
    assert [r["note"] for r in records] == ["from the terminal"] * len(events)
    a = spec.engine.replay(config, seats, events, button=button)
    b = spec.engine.replay(config, seats, records, button=button)
    assert spec.hand_view(a) == spec.hand_view(b) == spec.hand_view(state)


def test_canonical_cards_normalise_case_symbols_and_unknown_tokens():
    assert contract.canonical_cards("as kd") == "As Kd"
    assert contract.canonical_cards(["A♠", "10h", "XX"]) == "As Th ??"
    assert contract.canonical_cards("4D,5c") == "4d 5c"
    assert contract.canonical_cards("AsKd") == "As Kd"  # PHH style
    assert contract.canonical_cards("Eichel-Ass") == "Eichel-Ass"  # not standard notation: left to the engine
    assert contract.canonical_cards("Herz Ass, Eichel Ober", german=True) == "Ah Qc"
    assert contract.canonical_cards("As Kx") == "As Kx"  # a bad token: as sent, the engine names it


def test_the_parser_keeps_an_explicit_null_and_reads_capsa_seats_as_digits():
    stud = get_game("seven_card_stud")
    assert contract.record(stud, {"type": "ante", "seat": 1, "amount": None}) == {"type": "ante", "seat": 1, "amount": None}
    capsa = get_game("capsa_susun")
    assert contract.record(capsa, {"type": "timeout", "seat": "2"}) == {"type": "timeout", "seat": 2}


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_a_malformed_event_is_refused_in_the_engines_words(spec):
    config = spec.engine.build_config(spec.example_config)
    state = spec.engine.new_hand(config, {1: 10_000, 2: 10_000, 3: 10_000}, button=3)
    for bad in ({"type": "no_such_event"}, {"type": "fold", "seat": True}, {"type": "misdeal", "amout": 3},
                {"type": "fold", "seat": 1, "to": 5}, "fold"):
        with pytest.raises(RuleViolation) as engine_err:
            spec.engine.apply(state, bad)
        with pytest.raises(RuleViolation) as contract_err:
            contract.act(spec, state, bad)
        assert (str(contract_err.value), contract_err.value.code) == (str(engine_err.value), engine_err.value.code)


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_the_parser_and_the_engine_make_one_field_check(spec):
    """A key the event type does not take is refused by the catalogue's one check (``check_fields``, its
    table read from the event dataclasses) in the parser and in the engine, each in its own words."""
    events = spec.events
    for kind in events.types:
        assert events.allowed[kind] == events.fields(kind) | {"type", "note"}
    events.check_fields({"type": "misdeal", "note": "coffee", "_client": 7}, "misdeal")  # note and _ keys pass
    config = spec.engine.build_config(spec.example_config)
    state = spec.engine.new_hand(config, {1: 10_000, 2: 10_000, 3: 10_000}, button=3)
    bad = {"type": "misdeal", "note": "coffee", "amout": 3}
    with pytest.raises(RuleViolation) as checked:
        events.check_fields(bad, "misdeal")
    with pytest.raises(RuleViolation) as parsed:
        events.parse(bad)
    with pytest.raises(RuleViolation) as applied:
        spec.engine.apply(state, bad)
    assert str(checked.value) == str(parsed.value) and "'amout'" in str(parsed.value)
    assert "'amout'" in str(applied.value) and applied.value.extra["field"] == "amout"
    assert checked.value.code == parsed.value.code == applied.value.code


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_every_event_type_is_a_frozen_dataclass_with_one_parser(spec):
    from dataclasses import FrozenInstanceError, is_dataclass

    assert spec.events is not None and spec.events.types
    for kind, cls in spec.events.types.items():
        assert is_dataclass(cls) and cls.TYPE == kind
        assert cls.__doc__
    typed = spec.events.parse({"type": "misdeal"})
    with pytest.raises(FrozenInstanceError):
        typed.reason = "changed"  # type: ignore[misc]


@pytest.mark.parametrize("seed", SEEDS[:2])
@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_the_typed_view_has_one_shape_for_every_game(spec, seed):
    config, seats, button, events = _hand(spec, seed)
    state = spec.engine.new_hand(config, seats, button=button)
    seen_actions = 0
    for event in [None, *events]:
        if event is not None:
            state = spec.engine.apply(state, event)
        view = spec.hand_view(state)
        assert isinstance(view, HandView) and view.game == spec.name
        assert [s.seat for s in view.seats] == sorted(seats)
        assert all(isinstance(s, SeatView) and s.stack >= 0 and s.in_pot >= 0 for s in view.seats)
        assert view.house_take_kind == spec.house_take and view.house_take >= 0
        for action in view.legal_actions:
            assert isinstance(action, LegalAction)
            assert action.seat is None or action.seat in seats
            if action.to is not None:  # a wager: its total, the chips it adds, a range that is not empty
                assert action.add is not None and 0 < action.add <= action.to
                assert action.max_to is not None and action.max_to >= action.to
            seen_actions += 1
        if view.complete:
            assert view.outcome is not None and not view.legal_actions
            assert sum(view.outcome.net.values()) == sum(view.outcome.bonus.values()) - view.outcome.house_take
        else:
            assert view.outcome is None and view.legal_actions
        as_dict = view.as_dict()
        assert set(as_dict) == {f.name for f in fields(HandView)}
        assert as_dict == _plain(asdict(view))  # the fast walk gives what dataclasses.asdict gives, as JSON
        json.dumps(as_dict)
    assert seen_actions


def _plain(value):
    """``dataclasses.asdict``'s result with tuples as lists: the reference of ``HandView.as_dict``."""
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(v) for v in value]
    return value


def test_legal_actions_say_to_and_add_for_a_raise_and_add_only_for_a_call():
    spec = get_game("seven_card_stud")
    engine = spec.engine
    state = engine.new_hand(spec.example_config, {1: 50_000, 2: 50_000, 3: 50_000}, button=3)
    for seat in (1, 2, 3):
        state = engine.apply(state, {"type": "ante", "seat": seat})
    for seat, cards in ((1, "2c 3c 4h"), (2, "5c 6c Kd"), (3, "7c 8c Qs")):
        state = engine.apply(state, {"type": "deal", "seat": seat, "cards": cards})
    state = engine.apply(state, {"type": "bring_in", "seat": 1})  # full bet 5.00 (house rules)
    by_kind = {a.kind: a for a in spec.hand_view(state).legal_actions}
    assert by_kind["call"].add == 500 and by_kind["call"].to is None
    assert (by_kind["raise"].to, by_kind["raise"].add) == (1000, 1000)


@pytest.mark.parametrize("seed", range(12))
@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_every_pot_names_its_eligible_seats_by_number(spec, seed):
    """Break-test finding 4: ``eligible`` read ``[5, 1, 3]`` (stud keeps its seats clockwise from the button).
    After every event of hands at scattered seats with short stacks (side pots), the engine's answer, the typed
    view, its outcome and the settlement list each pot's seats in ascending order."""
    rng = random.Random(seed)
    config = spec.engine.build_config(spec.example_config)
    low, high = spec.players
    numbers = sorted(rng.sample(range(1, 9), rng.randint(low, min(high, 6))))
    seats = {s: rng.choice([300, 800, 2000, 20000]) for s in numbers}
    button = rng.choice(numbers)
    events = spec.random_hand(config, seats, button, rng)
    engine, lists = spec.engine, []
    for upto in range(len(events) + 1):
        state = engine.replay(config, seats, events[:upto], button=button)
        lists += [pot["eligible"] for pot in engine.view(state).get("pots", [])]
        view = spec.hand_view(state)
        lists += [list(pot.eligible) for pot in view.pots + (view.outcome.pots if view.outcome else ())]
    lists += [list(pot.eligible) for pot in engine.settlement(state).pots]
    assert [seat_list for seat_list in lists if seat_list != sorted(seat_list)] == []
