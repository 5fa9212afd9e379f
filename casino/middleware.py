"""Request-size guard (issue 20): a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is answered 413 with a readable
message before anything reads it, on every path and whether logged in or not (JSON under ``/api/``).

The guard runs after the language middlewares (``casino/settings.py``), so the message is in the request's
language (issue 18): a page's in the signed-in user's or the browser's, the API's in ``Accept-Language``, else
the token user's saved language, else the house language (:mod:`casino.language`). The limit is written as a
person reads it (``2,5 MB``); ``extra.limit_bytes`` keeps the exact number for programs."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils import translation
from django.utils.translation import gettext as _

from casino.i18n import format_bytes


def _api_token_language(request) -> str | None:
    """The saved language of the API token's user when the request names no language (DRF authenticates only
    in the view, which a refused request never reaches); None otherwise."""
    from casino.language import _token_with_user, language_from_header, user_language

    if language_from_header(request) is not None:
        return None
    scheme, _sep, key = request.META.get("HTTP_AUTHORIZATION", "").partition(" ")
    if scheme.lower() != "token" or not key.strip() or len(key) > 200:
        return None
    from rest_framework.authtoken.models import Token

    token = _token_with_user(Token, key.strip())
    return user_language(token.user) if token is not None else None


def request_too_large_response(request, limit: int) -> HttpResponse:
    """413 with the limit named in the request's language (``höchstens 2,5 MB`` / ``at most 2.5 MB``): the
    API's error shape under ``/api/`` (``extra.limit_bytes``: the exact limit), plain text elsewhere."""
    api = request.path.startswith("/api/")
    language = _api_token_language(request) if api else None
    with translation.override(language or translation.get_language()):
        message = _("the request is too large: at most %(limit)s are accepted") % {"limit": format_bytes(limit)}
    if api:
        return JsonResponse({"message": message, "code": "request_too_large", "extra": {"limit_bytes": limit}},
                            status=413)
    return HttpResponse(message, status=413, content_type="text/plain; charset=utf-8")


class RequestSizeLimitMiddleware:
    """Refuse a request whose ``Content-Length`` is over the limit (413) or not a number (400)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        declared = request.META.get("CONTENT_LENGTH") or "0"
        try:
            length = int(declared)
        except ValueError:
            length = -1
        if length < 0:
            message = _("the Content-Length header is not a number of bytes")
            if request.path.startswith("/api/"):
                return JsonResponse({"message": message, "code": "bad_request", "extra": {}}, status=400)
            return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        if limit is not None and length > limit:
            return request_too_large_response(request, limit)
        return self.get_response(request)


class FormNullCharacterMiddleware:
    """Refuse a form post (a page's ``application/x-www-form-urlencoded`` or ``multipart/form-data`` body) holding a
    null character in any field or name: PostgreSQL stores none, and the pages read their fields directly as well
    as through Django forms (whose text fields refuse it already). A 400 naming the field, in the request's
    language, before any view writes (break test of 2026-12-07: a rotation name and a floor-call note were 500s).
    JSON bodies are checked by the API's parser (:func:`casino.api_input.unstorable_text_at`)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (request.method == "POST" and not request.path.startswith("/api/")
                and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data")):
            for name, values in request.POST.lists():
                if "\x00" in name or any("\x00" in value for value in values):
                    message = _("the form field %(field)s holds a null character, which cannot be stored: remove it") % {
                        "field": name.replace("\x00", "\ufffd")[:64]}
                    return HttpResponse(message, status=400, content_type="text/plain; charset=utf-8")
        return self.get_response(request)
