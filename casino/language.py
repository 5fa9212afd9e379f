"""Which language a request is answered in (issue 18, DESIGN.md "Languages").

Pages: the signed-in user's saved language, then the browser's choice (the language-switch cookie, then
``Accept-Language``), then the house default (``LANGUAGE_CODE``, env ``HOUSE_LANGUAGE``, ``de-at``).
The API: an explicit ``Accept-Language`` header first (a client asks for the language it wants), then
the user's saved language, then the house default. JSON fields and ``code`` values never change with
the language, only human-readable text does.

The saved language lives in :class:`casino.models.StaffPreference`; it is copied into the session at
login and when the user switches, so a page request costs no extra query. Token-authenticated API
calls read it with the token (one joined query, see :class:`TokenAuthentication`).
"""

from __future__ import annotations

from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.core.exceptions import ObjectDoesNotExist
from django.db import transaction
from django.dispatch import receiver
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation.trans_real import parse_accept_lang_header
from django.views.decorators.http import require_POST
from django.views.i18n import set_language
from rest_framework import authentication, exceptions

#: The session key holding the signed-in user's saved language.
SESSION_KEY = "casino_language"


def language_supported(code: str | None) -> str | None:
    """The configured language for ``code`` (``"de-AT"`` -> ``"de-at"``, ``"de"`` -> ``"de-at"``) or None."""
    if not code:
        return None
    try:
        return translation.get_supported_language_variant(code.lower())
    except LookupError:
        return None


def language_from_header(request) -> str | None:
    """The first supported language of the request's ``Accept-Language`` header (``*`` ignored), or None."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _q in parse_accept_lang_header(header):
        if code != "*" and (found := language_supported(code)):
            return found
    return None


def user_language(user) -> str | None:
    """The language ``user`` saved (a configured code) or None (no preference, or anonymous)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    try:
        return language_supported(user.staff_preference.language)
    except ObjectDoesNotExist:
        return None


def _activate(request, language: str) -> None:
    translation.activate(language)
    request.LANGUAGE_CODE = language


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


class UserLanguageMiddleware:
    """Put the signed-in user's saved language before the browser's choice (after ``LocaleMiddleware``
    and ``AuthenticationMiddleware``); on the API an explicit ``Accept-Language`` keeps precedence."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if _is_api(request) and (asked := language_from_header(request)):
            _activate(request, asked)
        elif (saved := language_supported(_session_language(request))) is not None:
            _activate(request, saved)
        return self.get_response(request)


def _session_language(request) -> str | None:
    session = getattr(request, "session", None)
    user = getattr(request, "user", None)
    if session is None or user is None or not user.is_authenticated:
        return None
    return session.get(SESSION_KEY)


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF token authentication that also answers in the token user's saved language when the call
    names none (``Accept-Language`` absent); reads the preference in the token's query."""

    def authenticate_credentials(self, key):
        token = _token_with_user(self.get_model(), key)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token

    def authenticate(self, request):
        result = super().authenticate(request)
        if result is not None and language_from_header(request) is None:
            saved = user_language(result[0])
            if saved is not None:
                _activate(request._request, saved)
                request.LANGUAGE_CODE = saved
        return result


def _token_with_user(model, key: str):
    """The token ``key`` with its user, the user's saved preference and roles (:func:`casino.roles.user_roles`,
    put on the user for this request), in one plain-SQL query (every API call authenticates: the ORM's query
    building cost more than the query, and the roles were a second round trip, issue 19); None if no such token."""
    from django.contrib.auth import get_user_model

    from casino import rows
    from casino.models import StaffPreference
    from casino.roles import ROLES, roles_columns, roles_set

    user_model = get_user_model()
    role_sql, role_params = roles_columns("u")
    flags = tuple(f"role_{k}" for k in range(len(ROLES)))
    user = rows.row(user_model, (
        f"SELECT {rows.columns(user_model, 'u')}, t.created AS token_created, p.id AS preference_id, "
        f"p.language AS preference_language, {role_sql} FROM {rows.table(model)} t "
        f"INNER JOIN {rows.table(user_model)} u ON u.id = t.user_id "
        f"LEFT JOIN {rows.table(StaffPreference)} p ON p.user_id = u.id WHERE t.{rows.column(model, 'key')} = %s"),
        [*role_params, key], extra=("token_created", "preference_id", "preference_language", *flags))
    if user is None:
        return None
    roles_set(user, [getattr(user, flag) for flag in flags])
    preference = None
    if user.preference_id is not None:
        preference = rows.instance(StaffPreference, ["id", "user", "language"],
                                   [user.preference_id, user.pk, user.preference_language])
        StaffPreference.user.field.set_cached_value(preference, user)
    user_model.staff_preference.related.set_cached_value(user, preference)
    token = rows.instance(model, ["key", "user", "created"], [key, user.pk, user.token_created])
    model.user.field.set_cached_value(token, user)
    return token


def language_save(*, user, language: str) -> str:
    """Save ``language`` as ``user``'s preference (a configured code, e.g. ``"de-at"``); returns the code.

    Raises ``ValueError`` for a language the service does not offer.
    """
    from casino.models import StaffPreference

    code = language_supported(language)
    if code is None or code not in dict(settings.LANGUAGES):
        raise ValueError(f"unknown language {language!r}")
    with transaction.atomic():
        StaffPreference.objects.update_or_create(user=user, defaults={"language": code})
    return code


@require_POST
def language_switch(request):
    """``POST /i18n/setlang/`` (``language``, ``next``): Django's ``set_language`` (cookie, redirect),
    and for a signed-in user the choice is saved as their preference and put in the session."""
    response = set_language(request)
    code = language_supported(request.POST.get("language"))
    if code is not None and request.user.is_authenticated:
        language_save(user=request.user, language=code)
        request.session[SESSION_KEY] = code
    return response


@receiver(user_logged_in, dispatch_uid="casino.language.login")
def _language_to_session(sender, request, user, **kwargs) -> None:  # noqa: ARG001 - signal signature
    """At login, the user's saved language goes into the session (read by :class:`UserLanguageMiddleware`)."""
    saved = user_language(user)
    if request is not None and hasattr(request, "session"):
        if saved is None:
            request.session.pop(SESSION_KEY, None)
        else:
            request.session[SESSION_KEY] = saved
