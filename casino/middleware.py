"""Request-size guard (issue 20): a body over ``DATA_UPLOAD_MAX_MEMORY_SIZE`` is answered 413 with a readable
message before anything reads it, on every path and whether logged in or not (JSON under ``/api/``)."""

from __future__ import annotations

from django.conf import settings
from django.http import HttpResponse, JsonResponse
from django.utils.translation import gettext as _


def request_too_large_response(request, limit: int) -> HttpResponse:
    """413 with the limit named: the API's error shape under ``/api/``, plain text elsewhere."""
    message = _("the request is too large: at most %(limit)s bytes are accepted") % {"limit": limit}
    if request.path.startswith("/api/"):
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
