"""Logins (issue 20): expiring API tokens, their revocation, and the lockout after repeated failures.

* Lockout: django-axes counts failed logins per username and per client address (``AXES_LOCKOUT_PARAMETERS``)
  on every login path (API token, ``/accounts/login/``, ``/admin/login/``); at ``AXES_FAILURE_LIMIT`` failures
  the user (or the address) is refused, even with the right password, for ``AXES_COOLOFF_TIME``.
  :func:`lockout_response` renders the refusal (429); :func:`lockout_audit` writes each lockout to the
  audit trail; :func:`login_lockout_reset` is the audited unlock.
* Tokens: :class:`ExpiringTokenAuthentication` refuses a token older than ``API_TOKEN_TTL`` (a shift,
  8 hours by default) and deletes it; :class:`TokenRevocationOnPasswordChange` (a password validator, whose
  ``password_changed`` hook Django calls after every password change) deletes the user's token.
"""

from __future__ import annotations

import datetime as dt
import math

from django.conf import settings
from django.db import transaction
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.authtoken.models import Token

from casino.language import TokenAuthentication


def token_expires_at(token: Token) -> dt.datetime:
    """When ``token`` stops working: its creation plus ``API_TOKEN_TTL``."""
    return token.created + settings.API_TOKEN_TTL


def token_issue(*, user) -> Token:
    """The user's live token, a new one if there is none or it has expired (one token per user)."""
    with transaction.atomic():
        token = Token.objects.select_for_update().filter(user=user).first()
        if token is not None and token_expires_at(token) <= timezone.now():
            token.delete()
            token = None
        return token or Token.objects.create(user=user)


def token_revoke(*, user) -> int:
    """Delete the user's token (logout, password change); returns how many were deleted."""
    deleted, _per_model = Token.objects.filter(user=user).delete()
    return deleted


class ExpiringTokenAuthentication(TokenAuthentication):
    """Token authentication (answering in the token user's saved language, :mod:`casino.language`) that
    refuses (401) and deletes a token older than ``API_TOKEN_TTL``."""

    def authenticate_credentials(self, key):
        user, token = super().authenticate_credentials(key)
        if token_expires_at(token) <= timezone.now():
            token.delete()
            raise exceptions.AuthenticationFailed(_("your token expired; log in again for a new one"))
        return user, token


class TokenRevocationOnPasswordChange:
    """A password "validator" that validates nothing: Django calls its ``password_changed`` after every
    password change (``set_password`` then ``save``: the admin, ``changepassword``, the API), which revokes
    the user's API token, so a leaked token dies with the old password."""

    def validate(self, password, user=None):  # noqa: ARG002 - Django's validator protocol
        return None

    def password_changed(self, password, user=None):  # noqa: ARG002
        if user is not None and user.pk is not None:
            token_revoke(user=user)

    def get_help_text(self):
        return ""


# --- lockout ----------------------------------------------------------------------------------------------


def client_ip(request: HttpRequest) -> str:
    """The client address axes counts failures for: ``REMOTE_ADDR``, or behind ``TRUSTED_PROXY_COUNT`` proxies
    the address that many entries from the right of ``X-Forwarded-For`` (what the nearest proxy saw)."""
    count = settings.TRUSTED_PROXY_COUNT
    forwarded = [part.strip() for part in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if part.strip()]
    if count > 0 and len(forwarded) >= count:
        return forwarded[-count]
    return request.META.get("REMOTE_ADDR", "")


def _lockout_minutes() -> int:
    cool_off = settings.AXES_COOLOFF_TIME
    return math.ceil(cool_off.total_seconds() / 60) if isinstance(cool_off, dt.timedelta) else 0


def lockout_message() -> str:
    """The refusal a locked-out person reads (in their language)."""
    return _("too many failed logins for this user or from this address: logins are refused for %(minutes)s "
             "minutes, or until a floor manager unlocks them") % {"minutes": _lockout_minutes()}


def lockout_response(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:  # noqa: ARG001
    """``AXES_LOCKOUT_CALLABLE``: 429 as the API's JSON error shape under ``/api/``, else the login page's
    refusal (HTML)."""
    if request.path.startswith("/api/"):
        return JsonResponse({"message": lockout_message(), "code": "locked_out",
                             "extra": {"retry_after_minutes": _lockout_minutes()}}, status=429)
    return render(request, "registration/locked_out.html", {"message": lockout_message()}, status=429)


def lockout_audit(sender, request=None, username=None, ip_address=None, **kwargs):  # noqa: ARG001
    """Receiver of axes' ``user_locked_out``: one audit row per lockout (who, from where)."""
    from axes.models import AccessAttempt

    from casino.status import audit_record

    attempts = AccessAttempt.objects.filter(username=username) if username else \
        AccessAttempt.objects.filter(ip_address=ip_address)
    attempt = attempts.order_by("-attempt_time").first()
    if attempt is not None:
        audit_record(obj=attempt, action="login_locked_out", reason="repeated failed logins",
                     data={"username": username or "", "ip_address": ip_address or ""})


def login_lockout_reset(*, username: str = "", ip_address: str = "", actor, reason: str) -> int:
    """Unlock a username and/or an address (a floor manager, with a reason): deletes their failure records
    and audits the unlock in one transaction. Returns how many failure records were cleared.

    Raises :class:`ApplicationError` (400) without a reason or without a username or an address.
    """
    from axes.models import AccessAttempt
    from django.db.models import Q

    from casino.errors import ApplicationError  # imported here: DRF's settings import this module early
    from casino.status import audit_record

    if not (reason or "").strip():
        raise ApplicationError(_("give a reason for the unlock"), code="reason_required")
    if not (username or ip_address):
        raise ApplicationError(_("name the username or the address to unlock"), code="invalid")
    match = Q()
    if username:
        match |= Q(username=username)
    if ip_address:
        match |= Q(ip_address=ip_address)
    with transaction.atomic():
        attempts = list(AccessAttempt.objects.select_for_update().filter(match))
        for attempt in attempts:
            audit_record(obj=attempt, action="login_unlocked", actor=actor, reason=reason.strip(),
                         data={"username": attempt.username or "", "ip_address": attempt.ip_address or "",
                               "failures": attempt.failures_since_start})
        AccessAttempt.objects.filter(pk__in=[a.pk for a in attempts]).delete()
    return len(attempts)

