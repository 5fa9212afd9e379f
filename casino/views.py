"""Project-level API views: the API root and the health check."""

from __future__ import annotations

from django.conf import settings
from django.db import connection
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


def broker_status() -> dict:
    """Ping the Celery broker: ``{"ok", "kind", "detail"}``; eager mode has no broker and is ok."""
    if not settings.REDIS_URL:
        return {"ok": True, "kind": "eager", "detail": "no REDIS_URL: tasks run in-process"}
    try:
        import redis

        client = redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2, socket_timeout=2)
        client.ping()
        return {"ok": True, "kind": "redis", "detail": "ping ok"}
    except Exception as exc:  # any connection failure is reported, not raised
        return {"ok": False, "kind": "redis", "detail": str(exc)}


def database_status() -> dict:
    """Run ``SELECT 1``: ``{"ok", "vendor", "detail"}``."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
            cursor.fetchone()
        return {"ok": True, "vendor": connection.vendor, "detail": "select 1 ok"}
    except Exception as exc:  # any database failure is reported, not raised
        return {"ok": False, "vendor": connection.vendor, "detail": str(exc)}


class HealthView(APIView):
    """``GET /api/v1/health/``: database and broker status; no authentication (load balancers call it)."""

    permission_classes = [AllowAny]
    authentication_classes: list = []

    @extend_schema(summary="Service health (no auth)", responses={200: dict, 503: dict})
    def get(self, request):
        db = database_status()
        broker = broker_status()
        ok = db["ok"] and broker["ok"]
        return Response({"status": "ok" if ok else "degraded", "database": db, "broker": broker},
                        status=200 if ok else 503)


def api_sections(resolver=None, prefix: str = "") -> dict[str, str]:
    """Every route of ``/api/v1/`` without parameters, ``{"tables": "tables/", "reports/tax": "reports/tax/", ...}``
    (path relative to ``/api/v1/``), discovered from the URL conf so a new endpoint is listed at once."""
    from django.urls import URLPattern, URLResolver, get_resolver

    if resolver is None:  # the /api/v1/ include of the root URL conf (not imported here: no import cycle)
        resolver = next(e for e in get_resolver().url_patterns
                        if isinstance(e, URLResolver) and str(e.pattern) == "api/v1/")
    sections: dict[str, str] = {}
    for entry in resolver.url_patterns:
        text = str(entry.pattern)
        if any(mark in text for mark in ("<", "(", "[", "\\")):
            continue
        route = prefix + text.lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            sections.update(api_sections(entry, route))
        elif isinstance(entry, URLPattern) and route:
            sections[route.rstrip("/")] = route
    return dict(sorted(sections.items()))


class ApiRootView(APIView):
    """``GET /api/v1/``: links to every section of the API (any authenticated staff member): tables, limits,
    dealers and rotation, hands, ledger, reconciliation, drop counts, reports, the showdown tool, health,
    schema and docs; and the house rules pages (``/rules/``)."""

    @extend_schema(summary="API root: every section", responses={200: dict})
    def get(self, request):
        base = reverse("api-root", request=request)
        links = {name: base + route for name, route in api_sections().items()}
        links["house-rules"] = request.build_absolute_uri("/rules/")
        return Response(links)
