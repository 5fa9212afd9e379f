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


class ApiRootView(APIView):
    """``GET /api/v1/``: links to the API's sections (any authenticated staff member)."""

    @extend_schema(summary="API root", responses={200: dict})
    def get(self, request):
        names = ["health", "schema", "docs"]
        links = {name: reverse(name, request=request) for name in names}
        return Response(links)
