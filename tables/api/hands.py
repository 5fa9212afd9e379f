"""The hand-logging API (issue 8): open a hand, log events one by one or all at once, close, void.

Views translate only (STYLE.md rule 9): validate the input shape, convert EUR strings to cents, call
one service of :mod:`tables.services.hands`, render the answer with money as EUR strings. Every answer
that carries the hand's ``state`` (the engine's own answer, one shape per engine: deprecated, kept) carries
its ``view`` beside it (the one typed view, the same shape for every game: :mod:`tables.api.view_serializers`),
both from the one replay the service made. Errors are ``{"message", "code", "extra"}``: 400 for anything
the croupier must fix (the hand unchanged, the current ``state`` and ``view`` in ``extra``), 409 for a
stale ``expected_seq`` (``state`` and ``view`` too) or a reused idempotency key, 403 for someone not
dealing at the table.

Who may call: reads for any staff role (croupiers, floor managers, accountants); open / log / close
for croupiers and floor managers (the service further requires the croupier to be assigned to the
table now); void for floor managers only.
"""

from __future__ import annotations

from django.http import Http404
from django.shortcuts import get_object_or_404
from django_filters import rest_framework as filters
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import generics, status
from rest_framework.response import Response

from casino.errors import ApplicationError
from casino.i18n import gettext_noop
from casino.permissions import IsCroupierOrFloorManager, IsFloorManager, IsStaff
from casino.schema import DESCRIPTIONS as ERROR_DESCRIPTIONS
from rules.engines.errors import RuleViolation
from rules.engines.money import to_cents
from tables.api.hands_serializers import (
    HandEventInputSerializer,
    HandEventOutputSerializer,
    HandEventsBatchInputSerializer,
    HandOpenInputSerializer,
    HandOutputSerializer,
    HandSubmitInputSerializer,
    ReasonInputSerializer,
    event_in,
    hand_event_out,
    money_out,
)
from tables.api.view_serializers import (
    HandAnswerSerializer,
    HandEventAnswerSerializer,
    HandRefusalSerializer,
    HandSubmissionAnswerSerializer,
    view_out,
)
from tables.models import Hand, HandEvent
from tables.selectors import hand_cards_visible, hand_list_for
from tables.services.hands import (
    VIEW_KEY,
    SeatInput,
    hand_close,
    hand_event_append,
    hand_event_list,
    hand_events_submit,
    hand_open,
    hand_phh_submit,
    hand_state,
    hand_void,
)


class _MoneyErrors:
    """Render the ``state`` and ``view`` a service error carries with EUR strings too (the service speaks cents)."""

    def handle_exception(self, exc):
        if isinstance(exc, ApplicationError) and isinstance(exc.extra.get("state"), dict):
            exc.extra["state"] = money_out(exc.extra["state"])
            if isinstance(exc.extra.get(VIEW_KEY), dict):
                exc.extra[VIEW_KEY] = view_out(exc.extra[VIEW_KEY])
        return super().handle_exception(exc)


#: The error answers of the hand actions that may carry the hand's unchanged ``state`` and ``view``.
_REFUSALS = {code: OpenApiResponse(HandRefusalSerializer, description=ERROR_DESCRIPTIONS[str(code)]
                                   + " A refused hand action carries the hand's unchanged state and view in extra.")
             for code in (400, 409)}


def _seats_in(rows) -> list[SeatInput]:
    # the field named in the reader's language ("Stack von Platz 1: ..."); ``extra.field`` stays the English text
    return [SeatInput(seat=row["seat"], stack=to_cents(row["stack"], field=gettext_noop("seat %(n)s stack", n=row["seat"]),
                                                       text_only=True),
                      player_ref=row.get("player_ref") or None) for row in rows]


def _state_and_view(answer: dict) -> dict:
    """A service's answer (cents; the typed view under ``VIEW_KEY``, absent if the hand no longer replays) as
    the API's ``state`` and ``view`` (EUR strings)."""
    state = dict(answer)
    view = state.pop(VIEW_KEY, None)
    return {"state": money_out(state), "view": view_out(view)}


def _hand_answer(hand: Hand, answer: dict | None = None) -> dict:
    """The hand (:class:`HandOutputSerializer`) with its ``state`` and ``view`` (:class:`HandAnswerSerializer`):
    from ``answer`` (the service's, of its replay) or from one replay now."""
    data = HandOutputSerializer(hand).data
    data.update(_state_and_view(answer if answer is not None else hand_state(hand=hand, typed=True)))
    return data


class HandFilter(filters.FilterSet):
    class Meta:
        model = Hand
        fields = ["table", "status", "game", "gaming_day", "reconciliation", "dealer"]


class HandListOpenView(_MoneyErrors, generics.ListCreateAPIView):
    """``GET /api/v1/hands/``: hands, newest first (filter by table, status, game, gaming_day...).
    ``POST``: open the next hand at a table with its seated players (stacks in EUR)."""

    filterset_class = HandFilter

    def get_permissions(self):
        return [IsStaff()] if self.request.method == "GET" else [IsCroupierOrFloorManager()]

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Hand.objects.none()
        return hand_list_for(user=self.request.user).prefetch_related("journal_entries")

    def get_serializer_class(self):
        return HandOutputSerializer if self.request.method == "GET" else HandOpenInputSerializer

    @extend_schema(request=HandOpenInputSerializer, responses={201: HandAnswerSerializer})
    def post(self, request):
        form = HandOpenInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        hand = hand_open(table=form.validated_data["table"], seats=_seats_in(form.validated_data["seats"]),
                         actor=request.user)
        return Response(_hand_answer(hand), status=status.HTTP_201_CREATED)


class HandDetailView(generics.RetrieveAPIView):
    """``GET /api/v1/hands/{id}/``: the hand, its seats and its current state (whose turn, legal actions,
    pots, tax so far; the settlement once complete)."""

    permission_classes = [IsStaff]
    serializer_class = HandOutputSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no user
            return Hand.objects.none()
        return hand_list_for(user=self.request.user).prefetch_related("journal_entries")

    @extend_schema(responses={200: HandAnswerSerializer})
    def get(self, request, *args, **kwargs):
        return super().get(request, *args, **kwargs)

    def retrieve(self, request, *args, **kwargs):
        hand = self.get_object()
        try:
            answer = hand_state(hand=hand, typed=True)
        except RuleViolation as exc:  # stored events no longer replay: show the hand, flag the state, no view
            answer = {"error": exc.message}
        return Response(_hand_answer(hand, answer))


class HandEventsView(_MoneyErrors, generics.ListCreateAPIView):
    """``GET /api/v1/hands/{id}/events/``: the logged events in order. ``POST``: log one event
    (``idempotency_key``, ``expected_seq`` = the event_count you last saw, ``event`` with EUR amounts);
    201 with the new state, 200 with the stored answer on a retry, 409 if another terminal logged first."""

    pagination_class = None

    def get_permissions(self):
        return [IsStaff()] if self.request.method == "GET" else [IsCroupierOrFloorManager()]

    def get_serializer_class(self):
        return HandEventOutputSerializer if self.request.method == "GET" else HandEventInputSerializer

    def get_queryset(self):
        if getattr(self, "swagger_fake_view", False):  # schema generation: no hand in the URL
            return HandEvent.objects.none()
        hand = get_object_or_404(hand_list_for(user=self.request.user), pk=self.kwargs["pk"])
        self.hide_cards = not hand_cards_visible(hand=hand, user=self.request.user)
        self.game = hand.game
        return hand_event_list(hand=hand)

    def get_serializer_context(self):
        return super().get_serializer_context() | {"hide_cards": getattr(self, "hide_cards", False),
                                                   "game": getattr(self, "game", None)}

    @extend_schema(request=HandEventInputSerializer,
                   responses={201: HandEventAnswerSerializer, 200: HandEventAnswerSerializer, **_REFUSALS})
    def post(self, request, pk: int):
        # The hot path (issue 10): the service fetches the hand once, by id, under its row lock (404 there).
        # An input error still answers 404 first when the hand does not exist (as a lookup up front would).
        try:
            form = HandEventInputSerializer(data=request.data)
            form.is_valid(raise_exception=True)
            data = form.validated_data
            record, state = hand_event_append(hand=pk, event=event_in(data["event"]),
                                              idempotency_key=data["idempotency_key"],
                                              expected_seq=data["expected_seq"], actor=request.user)
        except Http404:
            raise
        except Exception:
            if not Hand.objects.filter(pk=pk).exists():
                raise Http404 from None
            raise
        replayed = bool(state.pop("replayed", False))
        body = hand_event_out(record) | {"replayed": replayed} | _state_and_view(state)
        return Response(body, status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)


class HandEventsBatchView(_MoneyErrors, generics.GenericAPIView):
    """``POST /api/v1/hands/{id}/events/batch/``: log many events onto an open hand, all or nothing; 200,
    with ``"replayed": true`` when the same batch (same ``idempotency_key``) was stored before."""

    permission_classes = [IsCroupierOrFloorManager]
    serializer_class = HandEventsBatchInputSerializer

    @extend_schema(request=HandEventsBatchInputSerializer, responses={200: HandSubmissionAnswerSerializer, **_REFUSALS})
    def post(self, request, pk: int):
        hand = get_object_or_404(Hand, pk=pk)
        form = HandEventsBatchInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        events = [_event_in_indexed(e, i) for i, e in enumerate(form.validated_data["events"], start=1)]
        hand, state = hand_events_submit(hand=hand, events=events, actor=request.user,
                                         idempotency_key=form.validated_data["idempotency_key"])
        replayed = bool(state.pop("replayed", False))
        return Response(_hand_answer(hand, state) | {"replayed": replayed})


def _event_in_indexed(event, index: int):
    try:
        return event_in(event)
    except RuleViolation as exc:
        raise ApplicationError(gettext_noop("event %(index)s: %(message)s", index=index, message=exc.message), code=exc.code,
                               extra=exc.as_dict()["extra"] | {"index": index}) from None


class HandSubmitView(_MoneyErrors, generics.GenericAPIView):
    """``POST /api/v1/hands/submit/``: a whole hand at once, validated event by event, stored all or
    nothing: ``table`` + ``seats`` + ``events``, or ``table`` + ``phh`` (a PHH Seven Card Stud file).
    201 with the new hand; 200 with ``"replayed": true`` and the stored hand when the same submission (same
    ``idempotency_key``) comes again, as ``POST .../events/`` answers a retry."""

    permission_classes = [IsCroupierOrFloorManager]
    serializer_class = HandSubmitInputSerializer

    @extend_schema(request=HandSubmitInputSerializer,
                   responses={201: HandSubmissionAnswerSerializer, 200: HandSubmissionAnswerSerializer, **_REFUSALS})
    def post(self, request):
        form = HandSubmitInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        data = form.validated_data
        table = data["table"]
        if data.get("phh"):
            hand, state = hand_phh_submit(table=table, text=data["phh"], actor=request.user,
                                          idempotency_key=data["idempotency_key"])
        else:
            events = [_event_in_indexed(e, i) for i, e in enumerate(data["events"], start=1)]
            hand, state = hand_events_submit(table=table, seats=_seats_in(data["seats"]), events=events,
                                             actor=request.user, idempotency_key=data["idempotency_key"])
        replayed = bool(state.pop("replayed", False))
        return Response(_hand_answer(hand, state) | {"replayed": replayed},
                        status=status.HTTP_200_OK if replayed else status.HTTP_201_CREATED)


class HandCloseView(_MoneyErrors, generics.GenericAPIView):
    """``POST /api/v1/hands/{id}/close/``: close a finished hand (hands close themselves when their last
    event completes them; this is for the rest) and post its ledger entry."""

    permission_classes = [IsCroupierOrFloorManager]

    @extend_schema(request=None, responses={200: HandAnswerSerializer, **_REFUSALS})
    def post(self, request, pk: int):
        hand = hand_close(hand=get_object_or_404(Hand, pk=pk), actor=request.user)
        return Response(_hand_answer(hand))


class HandVoidView(_MoneyErrors, generics.GenericAPIView):
    """``POST /api/v1/hands/{id}/void/`` ``{"reason"}``: void an open hand (floor manager): every
    contribution goes back, no tax."""

    permission_classes = [IsFloorManager]
    serializer_class = ReasonInputSerializer

    @extend_schema(request=ReasonInputSerializer, responses={200: HandAnswerSerializer})
    def post(self, request, pk: int):
        form = ReasonInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        hand = hand_void(hand=get_object_or_404(Hand, pk=pk), actor=request.user,
                         reason=form.validated_data["reason"])
        return Response(_hand_answer(hand))
