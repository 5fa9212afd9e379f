"""Input and output serializers of the hand-logging API, and the money translation at the edge.

The API speaks EUR decimal strings (``"10.00"``); the services and engines speak int cents. Event
amounts (``amount``, ``to``) are converted in with :func:`rules.engines.money.to_cents` (strict:
``NaN``, ``Infinity``, ``1e400``, ``-5``, ``1.005`` and JSON floats are refused with a readable
message). Going out, the types say what is money, never a guess from key names: an event's amounts are
the cents fields its typed event declares (:func:`event_out`, :mod:`rules.engines.events`), a state's are the
values its game declares cents (:func:`money_out`, ``GameSpec.answer_money``); both as EUR strings.
No business logic here (STYLE.md rule 9).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from casino.api_input import NOTE_MAX_CHARS, IdempotencyKeyField, StrictInputSerializer, StrictIntegerField
from casino.text_limits import PHH_MAX_CHARS
from rules.core.view import AnswerMoney
from rules.engines.errors import InvalidAmount, InvalidCard
from rules.engines.messages import gettext_noop
from rules.engines.money import format_cents, to_cents
from rules.registry import GAMES
from tables.models import Hand, HandEvent, Table
from tables.selectors import hand_event_redacted

#: Keys of an event that carry cards: text such as ``"Ks Kd 3c"`` or a list of such names, never numbers.
EVENT_CARD_FIELDS = ("cards", "card", "front", "middle", "back")
#: Keys of an event that carry money on the way in (EUR in the API, cents stored): ``amount`` (ante,
#: blind, call, Taxe), ``to`` (bet/raise/complete total for the street or round); every game's typed
#: events declare no other cents field (``tests/tables/test_api_money_types.py``).
EVENT_MONEY_FIELDS = ("amount", "to")
#: What each game's engine answer holds in cents, by game name (declared with the game).
ANSWER_MONEY: dict[str, AnswerMoney] = {g.name: g.answer_money for g in GAMES}
#: An answer that names no game (none does today): every game's declaration at once.
ANY_GAME_MONEY = AnswerMoney(
    scalars=frozenset().union(*(m.scalars for m in ANSWER_MONEY.values())),
    maps=frozenset().union(*(m.maps for m in ANSWER_MONEY.values())),
    lists=frozenset().union(*(m.lists for m in ANSWER_MONEY.values())),
    rows=frozenset().union(*(m.rows for m in ANSWER_MONEY.values())),
)
#: The cents fields of each game's event types: ``{game: {type: fields}}`` (:mod:`rules.engines.events`).
EVENT_MONEY: dict[str, dict[str, frozenset[str]]] = {
    g.name: {kind: g.events.money_fields(kind) for kind in g.events.types} for g in GAMES}


def _cards_text(value: Any) -> bool:
    return isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))


def event_in(event: Any) -> Any:
    """The API event with its money fields converted to cents (anything else untouched; the service
    and the engine check the rest). Raises ``InvalidAmount`` (400) naming the field, ``"to": null`` is ``InvalidAmount`` too, and ``InvalidCard`` (400)
    for cards sent as anything but text (a number is not a card: it would be stored raw)."""
    if not isinstance(event, Mapping):
        return event
    out = dict(event)
    for key in EVENT_CARD_FIELDS:
        if key in out and out[key] is not None and not _cards_text(out[key]):
            raise InvalidCard(_('event.%(key)s: send cards as text such as "Ks Kd 3c" (or a list of card names), '
                                "not %(value)s") % {"key": key, "value": json.dumps(out[key])[:40]},
                              extra={"field": key})
    if "to" in out and out["to"] is None:  # the engine would read it as a missing key (unknown_event)
        raise InvalidAmount(gettext_noop("event.to: null is not an amount; give the seat's total bet after the action "
                                         "as a decimal string such as \"10.00\""), extra={"field": "to"})
    for key in EVENT_MONEY_FIELDS:
        if key in out and out[key] is not None:
            out[key] = to_cents(out[key], field=f"event.{key}", text_only=True)
    return out


def _eur(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool):
        return format_cents(value)
    return value


def money_out(value: Any, key: str | None = None, *, money: AnswerMoney | None = None) -> Any:
    """A JSON-able engine answer (a state, with its settlement once complete) with its cents rendered as EUR
    strings: the values its game declares cents (``GameSpec.answer_money``, found by the answer's
    ``"game"``; ``money`` overrides). Everything else (seats, counts, Capsa units) is unchanged."""
    if money is None:
        game = value.get("game") if isinstance(value, Mapping) else None
        money = ANSWER_MONEY.get(game) if isinstance(game, str) else None
        money = money or ANY_GAME_MONEY
    return _money(value, key, money)


#: Exact types of the values an answer holds most (checked by identity before the abstract ``Mapping``).
_SCALARS = frozenset({str, int, bool, float, type(None)})


def _money(value: Any, key: str | None, money: AnswerMoney) -> Any:
    kind = type(value)
    if kind in _SCALARS:  # the leaves, most of the calls: no abstract-class checks (issue 19)
        return _eur(value) if key in money.scalars else value
    if kind is dict or isinstance(value, Mapping):
        if key in money.maps:
            return {str(k): _eur(v) for k, v in value.items()}
        return {str(k): _money(v, str(k), money) for k, v in value.items()}
    if isinstance(value, list | tuple):
        if key in money.lists:
            return [_eur(v) for v in value]
        if key in money.rows:
            return [[row[0], row[1], _eur(row[2])] if isinstance(row, list | tuple) and len(row) == 3
                    else _money(row, None, money) for row in value]
        return [_money(v, None, money) for v in value]
    if key in money.scalars:
        return _eur(value)
    return value


def event_out(payload: Mapping[str, Any], game: str) -> dict[str, Any]:
    """A stored event record with its amounts as EUR strings: exactly the cents fields its typed event
    declares (:meth:`rules.engines.events.EventCatalogue.money_fields`); every other key as stored."""
    kind = payload.get("type")
    cents = EVENT_MONEY.get(game, {}).get(kind, frozenset()) if isinstance(kind, str) else frozenset()
    return {str(k): _eur(v) if k in cents else v for k, v in payload.items()}


# --- input ---------------------------------------------------------------------------------------------------


@extend_schema_field(OpenApiTypes.STR)
class EurAmountField(serializers.Field):
    """An EUR amount passed through as sent: the view converts it with the strict ``to_cents`` (a JSON
    float or ``true`` is refused there, never coerced to a string as ``CharField`` would)."""

    def to_internal_value(self, data: Any) -> Any:
        return data

    def to_representation(self, value: Any) -> Any:
        return value


class SeatInSerializer(StrictInputSerializer):
    seat = StrictIntegerField(min_value=1, max_value=8)
    stack = EurAmountField(help_text='starting stack in EUR as a decimal string, e.g. "200.00"')
    player_ref = serializers.CharField(required=False, allow_blank=True, allow_null=True, max_length=64,
                                       help_text="opaque player id from the player system; never a name")


class HandOpenInputSerializer(StrictInputSerializer):
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    seats = SeatInSerializer(many=True, allow_empty=False)


class EventJSONField(serializers.JSONField):
    """An event object as parsed. Unlike DRF's ``JSONField`` (whose encoder refuses them) a number too large
    for a float (``1e309`` reads as infinity) is passed on, so the amount check (``invalid_amount`` naming
    ``event.to``) or the engine's seat check refuses it like any other bad amount or seat."""

    def to_internal_value(self, data):
        try:
            json.dumps(data, allow_nan=True)
        except (TypeError, ValueError):
            self.fail("invalid")
        return data


class HandEventInputSerializer(StrictInputSerializer):
    idempotency_key = IdempotencyKeyField(max_length=128, help_text="unique per event; a retry sends the same key")
    expected_seq = StrictIntegerField(min_value=0, help_text="the hand's event_count as the terminal last saw it "
                                                         "(a JSON integer)")
    event = EventJSONField(help_text='e.g. {"type": "raise", "seat": 3, "to": "20.00"} (amounts in EUR)')


class HandEventsBatchInputSerializer(StrictInputSerializer):
    idempotency_key = IdempotencyKeyField(max_length=100, help_text="one key for the whole submission")
    events = serializers.ListField(child=EventJSONField(), allow_empty=False)


class HandSubmitInputSerializer(StrictInputSerializer):
    """A whole hand: ``table`` + ``seats`` + ``events`` (JSON), or ``table`` + ``phh`` (a PHH stud file)."""

    idempotency_key = IdempotencyKeyField(max_length=100)
    table = serializers.PrimaryKeyRelatedField(queryset=Table.objects.all())
    seats = SeatInSerializer(many=True, required=False)
    events = serializers.ListField(child=EventJSONField(), required=False)
    phh = serializers.CharField(required=False, trim_whitespace=False, max_length=PHH_MAX_CHARS,
                                help_text="the text of a .phh file (Seven Card Stud tables only)")

    def validate(self, attrs):
        if attrs.get("phh"):
            if attrs.get("events") or attrs.get("seats"):
                raise serializers.ValidationError(_("send either a PHH file or seats and events, not both"))
        elif not attrs.get("events") or not attrs.get("seats"):
            raise serializers.ValidationError(_("send seats and a non-empty list of events, or a PHH file"))
        return attrs


class ReasonInputSerializer(StrictInputSerializer):
    reason = serializers.CharField(max_length=NOTE_MAX_CHARS)


# --- output --------------------------------------------------------------------------------------------------


class HandEventOutputSerializer(serializers.Serializer):
    """One stored event as the API shows it (money as EUR strings). A plain ``Serializer`` with its fields
    declared (not a ``ModelSerializer``): DRF then does not rebuild the fields from the model for every
    event logged (issue 10)."""

    seq = serializers.IntegerField(read_only=True, help_text="1, 2, ... in the order the events were logged")
    idempotency_key = serializers.CharField(read_only=True, max_length=128)
    event = serializers.SerializerMethodField()
    created_by = serializers.StringRelatedField(allow_null=True)
    created_at = serializers.DateTimeField(read_only=True)

    def get_event(self, obj: HandEvent) -> dict:
        payload = obj.payload
        if self.context.get("hide_cards"):  # a live hand read by a croupier not dealing it now (issue 20)
            payload = hand_event_redacted(payload)
        return event_out(payload, self.context.get("game") or obj.hand.game)


#: Formats ``created_at`` as :class:`HandEventOutputSerializer` does (a field holds no data between calls).
_CREATED_AT = serializers.DateTimeField(read_only=True)


def hand_event_out(record: HandEvent) -> dict[str, Any]:
    """:class:`HandEventOutputSerializer`'s rendering of one event (cards shown), as a plain dict, built
    directly: every logged action answers with it, and instantiating the serializer (copying its declared
    fields) cost more than the rest of the rendering (issue 19). The same keys, order and values."""
    return {"seq": record.seq, "idempotency_key": record.idempotency_key, "event": money_out(record.payload),
            "created_by": None if record.created_by_id is None else str(record.created_by),
            "created_at": None if record.created_at is None else _CREATED_AT.to_representation(record.created_at)}


class HandOutputSerializer(serializers.ModelSerializer):
    table_name = serializers.CharField(source="table.name", read_only=True)
    dealer = serializers.StringRelatedField(allow_null=True)
    limit_label = serializers.CharField(source="limit_profile.limit_label", read_only=True)
    limit_version = serializers.IntegerField(source="limit_profile.version", read_only=True)
    seats = serializers.SerializerMethodField()
    journal_entries = serializers.SerializerMethodField()

    class Meta:
        model = Hand
        fields = ["id", "table", "table_name", "number", "game", "status", "reconciliation", "dealer", "button_seat",
                  "limit_profile", "limit_version", "limit_label", "limit_snapshot", "seats", "event_count",
                  "opened_at", "closed_at", "gaming_day", "void_reason", "source", "journal_entries"]

    def get_seats(self, obj: Hand) -> dict:
        return {seat: {"stack": format_cents(info["stack"]), "player_ref": info.get("player_ref")}
                for seat, info in sorted(obj.seats.items(), key=lambda kv: int(kv[0]))}

    def get_journal_entries(self, obj: Hand) -> list[int]:
        return [e.pk for e in obj.journal_entries.all()]
