"""API views of the rules app: the showdown tool (issue 3).

Views only translate (STYLE.md rule 9): the JSON body goes to the pure engine function
:func:`rules.showdown.run_showdown`; a ``RuleViolation`` becomes HTTP 400 with
``{"message", "code", "extra"}`` (rendered by ``casino.errors.api_exception_handler``, also done here
explicitly so the contract does not depend on the global handler). Messages and hand descriptions are in the
request's language (``Accept-Language``); codes, categories and cards are the same in every language.
"""

from __future__ import annotations

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_input import unknown_keys_check
from casino.i18n import message_text, messages_rendered
from casino.permissions import IsCroupierOrFloorManager
from rules.engines.errors import RuleViolation
from rules.registry import GAMES
from rules.showdown import run_showdown


class ShowdownRequestSerializer(serializers.Serializer):
    """The showdown document (documentation only; the engine validates it and names the bad seat/card)."""

    game = serializers.ChoiceField(choices=[g.name for g in GAMES if g.showdown is not None])
    hands = serializers.DictField(
        child=serializers.JSONField(),
        help_text='seat -> cards, e.g. {"1": "As Kd Qs Jc Th 2c 3d", "2": ["Ah", "Kc", ...]}',
    )
    config = serializers.DictField(required=False, help_text="game-specific options (Capsa, Forty-one)")
    community = serializers.CharField(required=False, help_text="stud only: the community card (R9), e.g. 7d")


class ShowdownSeatSerializer(serializers.Serializer):
    category = serializers.CharField()
    description = serializers.CharField()
    cards = serializers.CharField(help_text="the cards that play, e.g. 'Ah Kd Qs Jc Th'")


class ShowdownResponseSerializer(serializers.Serializer):
    game = serializers.CharField()
    ranking = serializers.ListField(
        child=serializers.ListField(child=serializers.IntegerField()),
        help_text="seats, best first; tied seats share a group (ascending)",
    )
    seats = serializers.DictField(child=ShowdownSeatSerializer(), help_text="seat (as string) -> evaluation")


class ErrorSerializer(serializers.Serializer):
    message = serializers.CharField()
    code = serializers.CharField()
    extra = serializers.DictField()


class ShowdownView(APIView):
    """``POST /api/v1/rules/showdown/``: rank the hands shown (croupiers and floor managers)."""

    permission_classes = [IsCroupierOrFloorManager]

    @extend_schema(
        summary="Rank a showdown",
        description=(
            "Takes the same JSON document as `manage.py showdown` and returns the ranking (best first, tied "
            "seats grouped) with each seat's category, description and the cards that play. Duplicate cards "
            "across hands, wrong card counts and cards not in the game's deck are HTTP 400 "
            '`{"message", "code", "extra"}`.'
        ),
        request=ShowdownRequestSerializer,
        responses={200: ShowdownResponseSerializer, 400: ErrorSerializer, 403: ErrorSerializer},
        examples=[
            OpenApiExample(
                "Stud",
                value={"game": "seven_card_stud",
                       "hands": {"1": "As 2d 3c 4h 9s Kd 5s", "2": "2h 3s 4d 5c 6h Qc 9c"}},
                request_only=True,
            )
        ],
    )
    def post(self, request):
        try:
            doc = request.data
        except RecursionError:  # DRF's JSON parser only turns ValueError into a 400
            raise exceptions.ParseError("the body is not JSON the tool can read: it is nested too deeply") from None
        unknown_keys_check(doc, set(ShowdownRequestSerializer().fields))
        try:
            result = run_showdown(doc)
        except RuleViolation as err:
            return Response(err.as_dict() | {"message": message_text(err.message)}, status=status.HTTP_400_BAD_REQUEST)
        return Response(messages_rendered(result))  # the descriptions in the reader's language
