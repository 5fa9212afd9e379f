"""``/api/v1/auth/``: get a token, log out (revoke it), unlock a locked-out login (floor managers).

Views translate only; the work is in :mod:`casino.auth`. The token view authenticates with the plain Django
request so django-axes counts every failure and refuses a locked-out user or address (429).
"""

from __future__ import annotations

from django.contrib.auth import authenticate
from django.core.exceptions import PermissionDenied
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from casino.api_input import NOTE_MAX_CHARS, StrictInputSerializer
from casino.auth import lockout_response, login_lockout_reset, token_expires_at, token_issue, token_revoke
from casino.errors import ApplicationError
from casino.permissions import IsFloorManager


class TokenInputSerializer(StrictInputSerializer):
    username = serializers.CharField(max_length=150, trim_whitespace=False)
    password = serializers.CharField(max_length=128, trim_whitespace=False, style={"input_type": "password"})


class TokenOutputSerializer(serializers.Serializer):
    token = serializers.CharField()
    expires_at = serializers.DateTimeField()


class UnlockInputSerializer(StrictInputSerializer):
    username = serializers.CharField(max_length=150, required=False, allow_blank=True, default="")
    ip_address = serializers.IPAddressField(required=False, allow_blank=True, default="")
    reason = serializers.CharField(max_length=NOTE_MAX_CHARS, required=False, allow_blank=True, default="")


class TokenObtainView(APIView):
    """``POST /api/v1/auth/token/`` ``{"username", "password"}``: a token for ``Authorization: Token ...``
    valid for ``API_TOKEN_TTL`` (8 hours by default). 400 for a wrong password; 429 when the user or the
    address is locked out after repeated failures."""

    permission_classes = [AllowAny]
    authentication_classes: list = []
    serializer_class = TokenInputSerializer

    @extend_schema(request=TokenInputSerializer, responses={200: TokenOutputSerializer})
    def post(self, request):
        form = TokenInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        plain = request._request
        try:
            user = authenticate(request=plain, **form.validated_data)
        except PermissionDenied:
            user = None
        if getattr(plain, "axes_locked_out", False):
            return lockout_response(plain)
        if user is None or not user.is_active:
            raise ApplicationError(_("unable to log in with the username and password given"),
                                   code="invalid_credentials")
        token = token_issue(user=user)
        return Response({"token": token.key, "expires_at": token_expires_at(token)})


class TokenLogoutView(APIView):
    """``POST /api/v1/auth/logout/``: revoke the caller's token (204); the next call with it answers 401."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None})
    def post(self, request):
        token_revoke(user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


class LoginUnlockView(APIView):
    """``POST /api/v1/auth/unlock/`` ``{"username" and/or "ip_address", "reason"}`` (floor managers): clear
    a lockout; audited with the reason."""

    permission_classes = [IsFloorManager]
    serializer_class = UnlockInputSerializer

    @extend_schema(request=UnlockInputSerializer,
                   responses={200: inline_serializer("LoginUnlockOutput", {"unlocked": serializers.IntegerField()})})
    def post(self, request):
        form = UnlockInputSerializer(data=request.data)
        form.is_valid(raise_exception=True)
        count = login_lockout_reset(actor=request.user, **form.validated_data)
        return Response({"unlocked": count})
