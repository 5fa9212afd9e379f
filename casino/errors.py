"""The one error handler: every API error is JSON ``{"message", "code", "extra"}`` (STYLE.md rule 10).

Engines raise ``RuleViolation``; services raise :class:`ApplicationError` (or let a ``RuleViolation``
through); DRF raises its own exceptions. All of them are rendered here, never as an HTML debug page.
The ``message`` is in the request's language (``Accept-Language``, else the user's saved language, else
the house default: :mod:`casino.language`); ``code`` and ``extra`` are the same in every language.
"""

from __future__ import annotations

import json
import logging
from typing import Any

from django.conf import settings
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404, JsonResponse
from django.utils.translation import gettext
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import exception_handler

from casino.drf_messages import drf_detail_translated
from casino.i18n import message_text
from rules.engines.errors import RuleViolation

logger = logging.getLogger(__name__)


class ApplicationError(Exception):
    """A business error raised by a service; rendered as ``status`` with a readable ``message``.

    ``code`` is a stable snake_case identifier; ``extra`` JSON-able details (e.g. the current state
    on a stale sequence number). ``message`` is English text, usually ``gettext_noop(template, **params)``
    (:mod:`casino.i18n`) so that the handler renders it in the reader's language.
    """

    status_code = status.HTTP_400_BAD_REQUEST
    code = "invalid"

    def __init__(self, message: str, *, code: str | None = None, extra: dict[str, Any] | None = None,
                 status_code: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code
        if status_code is not None:
            self.status_code = status_code
        self.extra = dict(extra or {})


class ConflictError(ApplicationError):
    """A write that lost a race or used a stale sequence number (HTTP 409)."""

    status_code = status.HTTP_409_CONFLICT
    code = "conflict"


def _flatten(detail: Any, prefix: str = "") -> list[str]:
    if isinstance(detail, dict):
        out: list[str] = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "__all__", "detail") else str(key)
            out.extend(_flatten(value, f"{prefix}.{name}" if prefix and name else (name or prefix)))
        return out
    if isinstance(detail, list):
        out = []
        for item in detail:
            out.extend(_flatten(item, prefix))
        return out
    return [f"{prefix}: {detail}" if prefix else str(detail)]


def api_exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF exception handler rendering ``{"message", "code", "extra"}`` for every error."""
    if isinstance(exc, RuleViolation):
        return Response(exc.as_dict() | {"message": message_text(exc.message)}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ApplicationError):
        return Response({"message": message_text(exc.message), "code": exc.code, "extra": exc.extra},
                        status=exc.status_code)
    if isinstance(exc, RequestDataTooBig):  # a body without Content-Length that grew past the limit
        from casino.middleware import request_too_large_response

        response = request_too_large_response(context["request"], settings.DATA_UPLOAD_MAX_MEMORY_SIZE)
        return Response(json.loads(response.content), status=413)
    if isinstance(exc, exceptions.UnsupportedMediaType):
        return Response({"message": _("send the body as JSON (Content-Type: application/json), not %(media_type)s")
                         % {"media_type": exc.detail.split('"')[1] if '"' in exc.detail else exc.detail},
                         "code": "unsupported_media_type", "extra": {}}, status=415)
    if isinstance(exc, RecursionError):
        # json.loads on a body nested thousands deep: a malformed request, not a server fault.
        return Response({"message": gettext("request body is nested too deeply to be read as JSON"), "code": "parse_error",
                         "extra": {}}, status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, DjangoValidationError):
        detail = exc.message_dict if hasattr(exc, "error_dict") else exc.messages
        exc = exceptions.ValidationError(detail)
    elif isinstance(exc, Http404):
        exc = exceptions.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied()
    response = exception_handler(exc, context)
    if response is None:
        logger.exception("unhandled API error", exc_info=exc)
        return Response(
            {"message": gettext("internal error; the action was not recorded"), "code": "server_error", "extra": {}},
            status=status.HTTP_500_INTERNAL_SERVER_ERROR,
        )
    if isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        code = codes if isinstance(codes, str) else "invalid"
        detail = drf_detail_translated(exc.detail)  # DRF's untranslated "No data provided" (issue 18)
        messages = _flatten(detail)
        extra = {"fields": detail} if isinstance(detail, dict) else {}
        response.data = {"message": "; ".join(messages) or str(exc), "code": code, "extra": extra}
    return response


def _json(status_code: int, message: str, code: str) -> JsonResponse:
    return JsonResponse({"message": message, "code": code, "extra": {}}, status=status_code)


@csrf_exempt  # a 404 changes nothing: a POST to an unknown URL is a JSON 404, not a CSRF page
def json_not_found(request, exception=None):  # noqa: ARG001 - Django handler signature
    """404 for any unknown URL, as JSON."""
    return _json(404, gettext("no such page: %(path)s") % {"path": request.path}, "not_found")


def json_server_error(request):  # noqa: ARG001
    """500 as JSON (the details go to the log, not the client)."""
    return _json(500, gettext("internal error; the action was not recorded"), "server_error")


def json_bad_request(request, exception=None):  # noqa: ARG001
    """400 raised outside DRF, as JSON."""
    return _json(400, gettext("bad request"), "bad_request")


def json_permission_denied(request, exception=None):  # noqa: ARG001
    """403 raised outside DRF, as JSON."""
    return _json(403, gettext("you do not have permission for this page"), "permission_denied")
