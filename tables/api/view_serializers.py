"""The typed view of a hand in the API (issue 14): its money as EUR strings, and its OpenAPI shape.

Every answer that carries a hand's ``state`` (the engine's own answer, one shape per engine) carries beside
it ``view``: the one typed view, the same shape for every game (:mod:`rules.core.view`), built by the
service from the state it already replayed (:data:`tables.services.hands.VIEW_KEY`). Going out its cents
are EUR strings as everywhere in the API: the fields :data:`rules.core.view.VIEW_MONEY` declares (a seat's
stack, in_pot and round_bet, a legal action's to/add/max_to/max_add/choices, a pot's amount, the house
take, the outcome's seat maps and awards) and, in the game's own ``extra``, what the game declares cents
(``GameSpec.answer_money``). Seats, streets and counts stay ints.

The serializers below document the shape in ``/api/v1/schema/`` (the views build the answers as plain dicts
on the hot path; ``tests/tables/test_hand_view_api.py`` checks the two agree).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.core.view import VIEW_MONEY
from rules.engines.money import format_cents
from tables.api.hands_serializers import (
    ANSWER_MONEY,
    ANY_GAME_MONEY,
    HandEventOutputSerializer,
    HandOutputSerializer,
    money_out,
)
from tables.models import Game

#: An amount as the API writes it: EUR with two decimals, ``"-5.00"`` for a loss (:func:`rules.engines.money.format_cents`).
EUR_PATTERN = r"^-?[0-9]+\.[0-9]{2}$"


def _eur(cents: Any) -> Any:
    return format_cents(cents) if isinstance(cents, int) and not isinstance(cents, bool) else cents


def _pots_out(pots: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    return [{"amount": _eur(p["amount"]), "eligible": p["eligible"]} for p in pots]


def view_out(view: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """A typed view as the service gives it (``HandView.as_dict()``, cents) with its money as EUR strings:
    the fields :data:`rules.core.view.VIEW_MONEY` declares cents, and in ``extra`` what its game declares
    (``answer_money``); seat-keyed maps get string keys as in JSON. None stays None (a hand whose events no
    longer replay).

    Written out field by field for the view's one shape (every logged action renders it; the generic
    :func:`~tables.api.hands_serializers.money_out` walk took longer than the rest of the view):
    ``tests/tables/test_hand_view_api.py`` checks it converts exactly what ``money_out`` with
    ``VIEW_MONEY`` converts."""
    if view is None:
        return None
    out = dict(view)
    out["seats"] = [{**seat, "stack": _eur(seat["stack"]), "in_pot": _eur(seat["in_pot"]),
                     "round_bet": _eur(seat["round_bet"])} for seat in view["seats"]]
    out["legal_actions"] = [{**action, "to": _eur(action["to"]), "add": _eur(action["add"]),
                             "max_to": _eur(action["max_to"]), "max_add": _eur(action["max_add"]),
                             "choices": [_eur(c) for c in action["choices"]]} for action in view["legal_actions"]]
    out["pots"] = _pots_out(view["pots"])
    out["house_take"] = _eur(view["house_take"])
    outcome = view.get("outcome")
    if outcome is not None:
        out["outcome"] = {**outcome, "pots": _pots_out(outcome["pots"]),
                          "awards": [[pot, seat, _eur(cents)] for pot, seat, cents in outcome["awards"]],
                          **{key: {str(seat): _eur(cents) for seat, cents in outcome[key].items()}
                             for key in _OUTCOME_MAPS},
                          "house_take": _eur(outcome["house_take"])}
    game = view.get("game")
    out["extra"] = money_out(dict(view.get("extra") or {}),
                             money=ANSWER_MONEY.get(game, ANY_GAME_MONEY) if isinstance(game, str) else ANY_GAME_MONEY)
    return out


#: The outcome's seat-keyed maps of cents (as :data:`rules.core.view.VIEW_MONEY` declares them).
_OUTCOME_MAPS = tuple(sorted(VIEW_MONEY.maps))


# --- the shape, for the OpenAPI schema --------------------------------------------------------------------------


@extend_schema_field({"type": "string", "pattern": EUR_PATTERN, "example": "10.00"})
class EurOutField(serializers.CharField):
    """An amount in EUR with two decimals, as a string (cents at the service, never a float)."""


def _eur_field(help_text: str, *, null: bool = False) -> EurOutField:
    return EurOutField(read_only=True, allow_null=null, help_text=help_text)


class HandViewSeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(read_only=True, help_text="the table seat")
    stack = _eur_field("chips behind; once the hand is complete, what the seat takes home")
    in_pot = _eur_field("put in this hand (returned chips taken off)")
    round_bet = _eur_field("put in this street / betting round")
    folded = serializers.BooleanField(read_only=True)
    all_in = serializers.BooleanField(read_only=True)
    up_cards = serializers.ListField(child=serializers.CharField(), read_only=True, help_text='shown cards, e.g. "As"')
    down_cards = serializers.ListField(child=serializers.CharField(), read_only=True,
                                       help_text='"??" for each face-down card held: the answers never name one '
                                                 '(the events list does, to whoever may read them)')


class HandViewActionSerializer(serializers.Serializer):
    kind = serializers.CharField(read_only=True, help_text='the event type to log: "bet", "raise", "call", "deal" ...')
    seat = serializers.IntegerField(read_only=True, allow_null=True, help_text="who; null for a table event")
    to = _eur_field("a wager's total for the round after it (bet, raise, complete)", null=True)
    add = _eur_field("the chips this action puts in now; null when it moves none", null=True)
    max_to = _eur_field("top of a spread-limit range (equal to `to` when fixed)", null=True)
    max_add = _eur_field("top of a spread-limit range (equal to `add` when fixed)", null=True)
    choices = serializers.ListField(child=EurOutField(), read_only=True,
                                    help_text="every allowed `to` when a split limit leaves a choice (open pair)")
    cards = serializers.IntegerField(read_only=True, allow_null=True, help_text='cards a "deal" needs')


class HandViewPotSerializer(serializers.Serializer):
    amount = _eur_field("the pot, the house take already out")
    eligible = serializers.ListField(child=serializers.IntegerField(), read_only=True, help_text="seats that may win it")


@extend_schema_field({"type": "object", "additionalProperties": {"type": "string", "pattern": EUR_PATTERN},
                      "description": "EUR by seat number"})
class _EurBySeatField(serializers.DictField):
    pass


@extend_schema_field({"type": "array", "description": "[pot index, seat, amount in EUR] per award",
                      "items": {"type": "array", "minItems": 3, "maxItems": 3,
                                "items": {"oneOf": [{"type": "integer"}, {"type": "string", "pattern": EUR_PATTERN}]}}})
class _AwardRowsField(serializers.ListField):
    pass


class HandViewOutcomeSerializer(serializers.Serializer):
    void = serializers.BooleanField(read_only=True, help_text="a misdeal: every chip returned")
    pots = HandViewPotSerializer(many=True, read_only=True)
    awards = _AwardRowsField(read_only=True)
    won = _EurBySeatField(read_only=True)
    returned = _EurBySeatField(read_only=True)
    fees = _EurBySeatField(read_only=True)
    bonus = _EurBySeatField(read_only=True)
    net = _EurBySeatField(read_only=True)
    house_take = _eur_field("the house's take of the hand (Taxe, tax or fee)")


class HandViewSerializer(serializers.Serializer):
    """The one typed view of a hand, the same shape for every game (``rules/core/view.py``); money as EUR."""

    game = serializers.ChoiceField(choices=Game.choices, read_only=True)
    phase = serializers.CharField(read_only=True, help_text='the engine\'s phase: "ante", "betting", "set", "complete" ...')
    street = serializers.IntegerField(read_only=True, allow_null=True, help_text="stud street 3-7, Forty-one round 1/2")
    expect = serializers.CharField(read_only=True, allow_null=True,
                                   help_text='what the croupier logs next ("deal", "action" ...); null when complete')
    to_act = serializers.IntegerField(read_only=True, allow_null=True, help_text="the seat to act")
    button = serializers.IntegerField(read_only=True, allow_null=True,
                                      help_text="the button (stud, Capsa) or forehand (Forty-one)")
    seats = HandViewSeatSerializer(many=True, read_only=True)
    legal_actions = HandViewActionSerializer(many=True, read_only=True)
    pots = HandViewPotSerializer(many=True, read_only=True, help_text="main pot first")
    house_take = _eur_field("the house's take so far")
    house_take_kind = serializers.ChoiceField(choices=["taxe", "tax", "fee"], read_only=True)
    complete = serializers.BooleanField(read_only=True)
    outcome = HandViewOutcomeSerializer(read_only=True, allow_null=True, help_text="null until complete")
    extra = serializers.DictField(read_only=True, help_text="the game's own details (stud: raises_left, bring_in_seat, "
                                                            "community; Forty-one: raises_left, unit, level; Capsa: awaiting)")


@extend_schema_field({"type": "object", "additionalProperties": True, "deprecated": True,
                      "description": "the engine's own answer, one shape per engine (stud, Forty-one, Capsa), money "
                                     "as EUR strings: deprecated, kept for existing clients; read `view`"})
class _LegacyStateField(serializers.DictField):
    pass


_VIEW_HELP = "the one typed view of the hand, the same shape for every game (null if its events no longer replay)"


class HandAnswerSerializer(HandOutputSerializer):
    """A hand with its current ``state`` (legacy, per engine) and ``view`` (typed, every game alike)."""

    state = _LegacyStateField(read_only=True)
    view = HandViewSerializer(read_only=True, allow_null=True, help_text=_VIEW_HELP)

    class Meta(HandOutputSerializer.Meta):
        fields = [*HandOutputSerializer.Meta.fields, "state", "view"]


class HandSubmissionAnswerSerializer(HandAnswerSerializer):
    """A hand submitted whole or a batch of its events: the hand, ``state`` and ``view``, and whether the
    submission was a retry (``replayed``)."""

    replayed = serializers.BooleanField(read_only=True,
                                        help_text="true: this idempotency key was submitted before; nothing new stored")

    class Meta(HandAnswerSerializer.Meta):
        fields = [*HandAnswerSerializer.Meta.fields, "replayed"]


class HandEventAnswerSerializer(HandEventOutputSerializer):
    """The event as stored, whether it was a retry (``replayed``), and the hand's ``state`` and ``view`` after it."""

    replayed = serializers.BooleanField(read_only=True, help_text="true: the key was logged before; nothing new stored")
    state = _LegacyStateField(read_only=True)
    view = HandViewSerializer(read_only=True, help_text="the one typed view of the hand after the event")


class HandRefusalExtraSerializer(serializers.Serializer):
    """``extra`` of a refused hand action: the hand's unchanged ``state`` and ``view`` where the refusal carries
    them (a rule refused, a stale ``expected_seq``, a hand not finished), and other details."""

    state = _LegacyStateField(required=False)
    view = HandViewSerializer(required=False, help_text="the hand's typed view, unchanged")
    event_count = serializers.IntegerField(required=False, help_text="the events the hand has")


class HandRefusalSerializer(serializers.Serializer):
    """The one error shape (``{"message", "code", "extra"}``) of the hand actions."""

    message = serializers.CharField(read_only=True, help_text="what went wrong, readable by a person (the rule's "
                                                              "message in the caller's language)")
    code = serializers.CharField(read_only=True, help_text="stable snake_case code, e.g. illegal_action, stale_sequence")
    extra = HandRefusalExtraSerializer(read_only=True)
