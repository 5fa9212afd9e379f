"""Issue 14: every API answer that carries a hand's ``state`` carries its typed ``view`` beside it, the same shape
for every game, money as EUR strings, built from the state the request already replayed.

For each of the five games a hand is opened and logged event by event through the API (random legal hands
of the game's simulator); every answer's ``view`` has the same keys in every game, its money is ``state``'s
money, it matches the typed view the service gives for the hand as stored, and it conforms to the schema
``/api/v1/schema/`` documents. A refused action, a stale ``expected_seq`` and an early close answer the
``view`` unchanged.
"""

from __future__ import annotations

import random
import re
from decimal import Decimal
from typing import Any

import jsonschema
import pytest

from rules.core.view import VIEW_MONEY, HandView, LegalAction, Outcome, PotView, SeatView
from rules.registry import GAMES
from tables.api.hands_serializers import money_out
from tables.api.view_serializers import EUR_PATTERN, HandViewSerializer, view_out
from tables.models import Hand
from tables.selectors import hand_view_redacted
from tables.services.hands import hand_view
from tests.tables.hands_support import Terminal, croupier_on_duty, eur, event_to_api, floor_manager, table_make

pytestmark = pytest.mark.django_db

GAME_IDS = [g.name for g in GAMES]
STACKS = {1: 20000, 2: 20000, 3: 20000}


def _schema_validator(client, component: str) -> jsonschema.Draft202012Validator:
    """A JSON-schema validator of ``component`` as ``/api/v1/schema/`` documents it (OpenAPI 3.0's ``nullable``
    written as JSON schema's ``null`` type)."""

    def convert(node: Any) -> Any:
        if isinstance(node, dict):
            out = {k: convert(v) for k, v in node.items() if k != "nullable"}
            return {"anyOf": [out, {"type": "null"}]} if node.get("nullable") else out
        if isinstance(node, list):
            return [convert(v) for v in node]
        return node

    schema = client.get("/api/v1/schema/?format=json").json()
    root = {"components": convert(schema["components"]), "$ref": f"#/components/schemas/{component}"}
    return jsonschema.Draft202012Validator(root)


def _shape(view: dict[str, Any]) -> dict[str, frozenset[str]]:
    """The keys of a view and of each of its parts (seats, legal actions, pots, outcome)."""
    shape = {"view": frozenset(view)}
    for part in ("seats", "legal_actions", "pots"):
        for item in view[part]:
            shape[part] = shape.get(part, frozenset()) | frozenset(item)
    if view["outcome"] is not None:
        shape["outcome"] = frozenset(view["outcome"])
    return shape


def _pots(pots: list[dict[str, Any]]) -> list[tuple[str, list[int]]]:
    """Pots as (amount, eligible seats in seat order): the view lists the seats by number, stud's state clockwise."""
    return [(p["amount"], sorted(p["eligible"])) for p in pots]


def _money_matches_state(view: dict[str, Any], state: dict[str, Any]) -> None:
    """The view's money is the state's (both EUR strings from the same replay)."""
    assert view["game"] == state["game"] and view["complete"] == state["complete"]
    if not view["complete"]:
        assert {str(s["seat"]): s["stack"] for s in view["seats"]} == state["stacks"]
        assert _pots(view["pots"]) == _pots(state["pots"])
        assert view["house_take"] == state["tax"]
        for item in state["legal_actions"]:
            if item.get("min") is None:  # no amount: a deal, a fold, a Capsa setting
                continue
            seat = item.get("seat", state["to_act"])
            typed = next(a for a in view["legal_actions"] if a["kind"] == item["type"] and a["seat"] == seat)
            amounts = (typed["to"], typed["max_to"]) if typed["to"] is not None else (typed["add"], typed["max_add"])
            assert amounts == (item["min"], item["max"]), (item, typed)
        return
    settled, outcome = state["settlement"], view["outcome"]
    assert outcome["won"] == settled["awards"] and outcome["net"] == settled["net"]
    assert outcome["returned"] == settled["returned"]
    assert outcome["fees"] == settled.get("fees", {}) and outcome["bonus"] == settled.get("bonus", {})
    assert _pots(outcome["pots"]) == _pots(settled["pots"])
    rows = [[r["pot"], r["seat"], r["amount"]] if isinstance(r, dict) else r for r in settled.get("pot_awards", [])]
    assert outcome["awards"] == rows
    fees = sum((Decimal(v) for v in settled.get("fees", {}).values()), Decimal(0))
    assert Decimal(outcome["house_take"]) == Decimal(settled["tax"]) + fees == Decimal(view["house_take"])
    for seat in view["seats"]:  # once complete a seat's stack is what it takes home: its stack plus its net
        assert Decimal(seat["stack"]) == Decimal(eur(STACKS[seat["seat"]])) + Decimal(settled["net"][str(seat["seat"])])


def _play(api_client, spec, *, seed: int = 7) -> dict[str, Any]:
    """Open a hand of ``spec``'s game through the API and log a random legal hand event by event, checking every
    answer; the answers and the hand."""
    table = table_make(game=spec.name, config=dict(spec.example_config))
    terminal = Terminal(api_client, croupier_on_duty(table, f"dealer-{spec.name}"))
    opened = terminal.open(table, STACKS)
    assert opened.status_code == 201, opened.json()
    hand = opened.json()
    config = spec.engine.build_config(spec.example_config)
    events = spec.random_hand(config, STACKS, hand["button_seat"], random.Random(seed))
    answers = [hand]
    for seq, event in enumerate(events):
        answer = terminal.post(hand["id"], event_to_api(event), seq=seq)
        assert answer.status_code == 201, (seq, event, answer.json())
        answers.append(answer.json())
    return {"hand": hand, "answers": answers, "events": events, "terminal": terminal}


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_every_answer_carries_the_view_with_the_states_money(api_client, spec):
    played = _play(api_client, spec)
    answers, hand_id = played["answers"], played["hand"]["id"]
    event_answer = _schema_validator(api_client, "HandEventAnswer")
    hand_answer = _schema_validator(api_client, "HandAnswer")
    hand_answer.validate(answers[0])
    for seq, answer in enumerate(answers):
        view, state = answer["view"], answer["state"]
        if seq:
            event_answer.validate(answer)
        assert set(state) >= {"game", "stacks", "tax", "legal_actions", "status", "event_count"}  # state kept as it was
        assert "view" not in state
        _money_matches_state(view, state)
        # the view the request built is the typed view of the hand after those events, from a replay of its own
        hand = Hand.objects.get(pk=hand_id)
        assert view == view_out(hand_view_redacted(hand_view(hand=hand, upto=seq).as_dict()))
        # like the state, the view never names a face-down card (issue 20): one "??" each
        assert all(card == "??" for seat in view["seats"] for card in seat["down_cards"])
        if "down_cards" in state:  # the stud games count them
            assert {str(s["seat"]): len(s["down_cards"]) for s in view["seats"]} == state["down_cards"]
    assert answers[-1]["view"]["complete"] and answers[-1]["state"]["status"] == Hand.Status.CLOSED
    detail = api_client.get(f"/api/v1/hands/{hand_id}/").json()
    hand_answer.validate(detail)
    assert detail["view"] == answers[-1]["view"] and detail["state"] == answers[-1]["state"]


def test_the_view_has_the_same_shape_in_every_game_and_as_documented(api_client):
    shapes: dict[str, dict[str, frozenset[str]]] = {}
    for spec in GAMES:
        answers = _play(api_client, spec, seed=3)["answers"]
        merged: dict[str, frozenset[str]] = {}
        for answer in answers:
            for part, keys in _shape(answer["view"]).items():
                merged[part] = merged.get(part, frozenset()) | keys
        shapes[spec.name] = merged
    # every part has the same keys in every game that shows it (a Capsa deal has no pots)
    shape: dict[str, frozenset[str]] = {}
    for part in ("view", "seats", "legal_actions", "pots", "outcome"):
        seen = {game: keys[part] for game, keys in shapes.items() if part in keys}
        assert len(set(seen.values())) == 1, (part, seen)
        assert len(seen) >= 4, (part, seen)
        shape[part] = next(iter(seen.values()))
    assert len(shapes) == 5
    documented = HandViewSerializer().fields
    assert shape["view"] == frozenset(documented)
    assert shape["seats"] == frozenset(documented["seats"].child.fields)
    assert shape["legal_actions"] == frozenset(documented["legal_actions"].child.fields)
    assert shape["pots"] == frozenset(documented["pots"].child.fields)
    assert shape["outcome"] == frozenset(documented["outcome"].fields)


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_a_refused_action_a_stale_sequence_and_an_early_close_carry_the_view_unchanged(api_client, spec):
    table = table_make(game=spec.name, config=dict(spec.example_config))
    terminal = Terminal(api_client, croupier_on_duty(table, f"refused-{spec.name}"))
    hand = terminal.open(table, STACKS).json()
    events = spec.random_hand(spec.engine.build_config(spec.example_config), STACKS, hand["button_seat"],
                              random.Random(11))
    last = terminal.play(hand["id"], events[:2]).json()
    refusal = _schema_validator(api_client, "HandRefusal")

    again = terminal.post(hand["id"], event_to_api(events[0]), seq=2)  # the first ante / deal once more
    assert again.status_code == 400, again.json()
    refused = again.json()
    refusal.validate(refused)
    assert refused["extra"]["view"] == last["view"] and refused["extra"]["state"] == last["state"]

    stale = terminal.post(hand["id"], event_to_api(events[2]), seq=1)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_sequence"
    refusal.validate(stale.json())
    assert stale.json()["extra"]["view"] == last["view"] and stale.json()["extra"]["state"] == last["state"]

    early = api_client.post(f"/api/v1/hands/{hand['id']}/close/", format="json")
    assert early.status_code == 400 and early.json()["code"] == "hand_not_complete"
    refusal.validate(early.json())
    assert early.json()["extra"]["view"] == last["view"] and early.json()["extra"]["state"] == last["state"]

    batch = api_client.post(f"/api/v1/hands/{hand['id']}/events/batch/",
                            {"idempotency_key": "batch-refused", "events": [event_to_api(events[2]),
                                                                            event_to_api(events[0])]}, format="json")
    assert batch.status_code == 400 and batch.json()["extra"]["index"] == 2, batch.json()
    refusal.validate(batch.json())
    # the batch is refused at its second event: the view is the hand's after the first one, nothing stored
    assert batch.json()["extra"]["view"] == terminal.post(hand["id"], event_to_api(events[2]), seq=2).json()["view"]


def test_a_batch_a_whole_hand_and_a_void_answer_the_view(api_client):
    spec = next(g for g in GAMES if g.name == "forty_one")
    table = table_make(game=spec.name, config=dict(spec.example_config))
    terminal = Terminal(api_client, croupier_on_duty(table, "batch-dealer"))
    hand = terminal.open(table, STACKS).json()
    events = [event_to_api(e) for e in spec.random_hand(spec.engine.build_config(spec.example_config), STACKS,
                                                         hand["button_seat"], random.Random(5))]
    hand_answer = _schema_validator(api_client, "HandAnswer")
    batch = api_client.post(f"/api/v1/hands/{hand['id']}/events/batch/",
                            {"idempotency_key": "batch-1", "events": events[:4]}, format="json")
    assert batch.status_code == 200, batch.json()
    hand_answer.validate(batch.json())
    assert batch.json()["view"] == view_out(hand_view_redacted(hand_view(hand=Hand.objects.get(pk=hand["id"])).as_dict()))
    _money_matches_state(batch.json()["view"], batch.json()["state"])

    api_client.force_authenticate(floor_manager())
    voided = api_client.post(f"/api/v1/hands/{hand['id']}/void/", {"reason": "misdeal"}, format="json")
    assert voided.status_code == 200, voided.json()
    hand_answer.validate(voided.json())
    # the void answers its void (every chip returned, no house take), not the hand as it stood
    assert voided.json()["view"]["complete"] and voided.json()["view"]["outcome"]["void"]
    assert voided.json()["view"]["house_take"] == "0.00" and voided.json()["view"]["legal_actions"] == []

    whole = api_client.post("/api/v1/hands/submit/", {"idempotency_key": "whole-1", "table": table.pk,
                                                       "seats": [{"seat": s, "stack": eur(c)} for s, c in STACKS.items()],
                                                       "events": events}, format="json")
    assert whole.status_code == 201, whole.json()  # after a void the forehand stays: the same hand again
    hand_answer.validate(whole.json())
    _money_matches_state(whole.json()["view"], whole.json()["state"])
    assert whole.json()["view"]["complete"] and whole.json()["view"]["outcome"] is not None


def test_view_money_is_eur_and_seats_stay_ints():
    """A Forty-one view with every kind of money, rendered: the declared cents are EUR strings (``extra``'s by
    the game's declaration: unit, level), seats, streets and counts stay ints."""
    view = HandView(
        game="forty_one", phase="complete", street=2, expect=None, to_act=None, button=3,
        seats=(SeatView(seat=2, stack=22170, in_pot=2200, round_bet=500, up_cards=("7d",)),),
        legal_actions=(LegalAction(kind="raise", seat=2, to=1000, add=500, max_to=2000, max_add=1500,
                                   choices=(1000, 2000)), LegalAction(kind="deal", seat=3, cards=2)),
        pots=(PotView(4600, (2, 3)),), house_take=230, house_take_kind="tax", complete=True,
        outcome=Outcome(void=False, pots=(PotView(4600, (2, 3)),), awards=((0, 2, 4370),), won={2: 4370},
                        returned={3: 100}, fees={}, bonus={2: 1000}, net={1: -200, 2: 2170}, house_take=230),
        extra={"raises_left": 2, "unit": 500, "level": 1000},
    )
    out = view_out(view.as_dict())
    assert out["seats"] == [{"seat": 2, "stack": "221.70", "in_pot": "22.00", "round_bet": "5.00", "folded": False,
                             "all_in": False, "up_cards": ["7d"], "down_cards": []}]
    assert out["legal_actions"][0] == {"kind": "raise", "seat": 2, "to": "10.00", "add": "5.00", "max_to": "20.00",
                                       "max_add": "15.00", "choices": ["10.00", "20.00"], "cards": None}
    assert out["legal_actions"][1] == {"kind": "deal", "seat": 3, "to": None, "add": None, "max_to": None,
                                       "max_add": None, "choices": [], "cards": 2}
    assert out["pots"] == [{"amount": "46.00", "eligible": [2, 3]}] and out["house_take"] == "2.30"
    assert out["street"] == 2 and out["button"] == 3
    assert out["outcome"] == {"void": False, "pots": [{"amount": "46.00", "eligible": [2, 3]}],
                              "awards": [[0, 2, "43.70"]], "won": {"2": "43.70"}, "returned": {"3": "1.00"},
                              "fees": {}, "bonus": {"2": "10.00"}, "net": {"1": "-2.00", "2": "21.70"},
                              "house_take": "2.30"}
    assert out["extra"] == {"raises_left": 2, "unit": "5.00", "level": "10.00"}
    assert view_out(None) is None


@pytest.mark.parametrize("spec", GAMES, ids=GAME_IDS)
def test_view_out_converts_exactly_the_cents_the_view_and_its_game_declare(spec):
    """The field-by-field rendering is the generic one driven by the declarations: ``VIEW_MONEY`` for the view,
    the game's ``answer_money`` for its ``extra``."""
    config = spec.engine.build_config(spec.example_config)
    rendered = 0
    for seed in range(6):
        rng = random.Random(seed)
        seats = {s: rng.randint(20, 400) * 100 for s in range(1, spec.players[0] + 2)}
        state = spec.engine.new_hand(config, seats, button=max(seats))
        for event in [None, *spec.random_hand(config, seats, max(seats), rng)]:
            if event is not None:
                state = spec.engine.apply(state, event)
            view = spec.hand_view(state).as_dict()
            expected = money_out({k: v for k, v in view.items() if k != "extra"}, money=VIEW_MONEY)
            expected["extra"] = money_out(view["extra"], money=spec.answer_money)
            assert view_out(view) == expected
            rendered += 1
    assert rendered > 20


def test_every_declared_cents_field_is_a_field_of_the_view():
    """``VIEW_MONEY`` names fields the view has (a renamed field cannot silently leave its cents unconverted)."""
    fields = set()
    for cls in (HandView, SeatView, LegalAction, PotView, Outcome):
        fields |= set(cls.__dataclass_fields__)
    for names in (VIEW_MONEY.scalars, VIEW_MONEY.maps, VIEW_MONEY.lists, VIEW_MONEY.rows):
        assert names <= fields, names - fields
    assert re.fullmatch(EUR_PATTERN, "-5.00") and not re.fullmatch(EUR_PATTERN, "5")
