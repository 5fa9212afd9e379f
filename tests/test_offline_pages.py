"""No page the service serves loads anything from another host (issue 13: card rooms are often offline).

The pages are discovered from the URL configuration, so pages added later are walked too: every route
without parameters (the front door, login, the admin and each admin list and form, the API root and
every API list in the browsable API, the API docs, the house rules index), plus each house-rules page.
Each is fetched as a superuser asking for HTML; every HTML answer is searched for a URL that names
another host (``http(s)://host`` or protocol-relative ``//host``) in ``src``, ``href``, ``action``,
CSS ``url()`` / ``@import`` and script text. The API docs' own script and style files are checked too.
"""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.staticfiles import finders
from django.urls import URLPattern, URLResolver, get_resolver

from casino.rules_pages import rules_pages

pytestmark = pytest.mark.django_db

#: A URL that leaves the service: in an attribute, in CSS, or as a string in a script.
EXTERNAL = re.compile(r"""(?:(?:src|href|action|data|poster)\s*=\s*["']?|url\(\s*["']?|@import\s+["']?|["'`])"""
                      r"""((?:https?:)?//[^/"'`\s)>]+)""", re.I)
#: Hosts a page may name: this server only (the test client calls it "testserver").
LOCAL = re.compile(r"^(?:https?:)?//(?:testserver|localhost|127\.0\.0\.1)(?::\d+)?$", re.I)
#: XML namespace declarations (inline SVG): they name a host but load nothing.
XMLNS = re.compile(r"""\sxmlns(?::\w+)?\s*=\s*["'][^"']*["']""", re.I)


def _routes(resolver: URLResolver | None = None, prefix: str = "") -> list[str]:
    """Every path of the URL conf without converters or regex groups (the catch-all 404 route excluded)."""
    resolver = resolver or get_resolver()
    found = []
    for entry in resolver.url_patterns:
        text = str(entry.pattern)
        if any(mark in text for mark in ("<", "(", "[", "*", "\\")):
            continue  # a parameter: walked below where we know the values, else skipped
        route = prefix + text.lstrip("^").rstrip("$")
        if isinstance(entry, URLResolver):
            found += _routes(entry, route)
        elif isinstance(entry, URLPattern):
            found.append("/" + route)
    return sorted(set(found))


def _external(html: str) -> list[str]:
    return sorted({m for m in EXTERNAL.findall(XMLNS.sub("", html)) if not LOCAL.match(m)})


@pytest.fixture
def superuser_client(client):
    user = get_user_model().objects.create_superuser("walker", "walker@example.invalid", "pw-for-tests-only")
    client.force_login(user)
    return client


def test_the_walk_covers_the_pages_a_newcomer_opens():
    routes = set(_routes())
    assert {"/", "/accounts/login/", "/admin/", "/api/v1/", "/api/v1/docs/", "/rules/"} <= routes
    assert any(r.startswith("/admin/tables/") for r in routes)


def test_no_served_page_names_another_host(superuser_client):
    paths = _routes() + [f"/rules/{page}/" for page in rules_pages()]
    walked, offenders = [], {}
    for path in paths:
        if path.startswith("/static/"):
            continue
        response = superuser_client.get(path, HTTP_ACCEPT="text/html")
        if response.status_code != 200 or "html" not in response.get("Content-Type", ""):
            continue
        walked.append(path)
        html = response.content.decode("utf-8", "replace")
        if found := _external(html):
            offenders[path] = found
    assert offenders == {}, offenders
    assert len(walked) >= 30, walked  # the admin's lists and forms, the API lists, docs, rules pages
    assert {"/", "/admin/", "/api/v1/", "/api/v1/docs/", "/rules/", "/rules/seven_card_stud/"} <= set(walked)


def test_the_login_page_names_no_other_host(client):
    response = client.get("/accounts/login/")
    assert response.status_code == 200 and _external(response.content.decode()) == []


def test_the_api_docs_load_swagger_ui_from_this_server(superuser_client):
    html = superuser_client.get("/api/v1/docs/").content.decode()
    assets = re.findall(r"""(?:src|href)=["']([^"']+\.(?:js|css))["']""", html)
    assert any("swagger-ui" in a for a in assets), assets
    for asset in assets:
        assert asset.startswith(settings.STATIC_URL if settings.STATIC_URL.startswith("/") else "/static/"), asset
        assert finders.find(asset.split("/static/", 1)[1]), f"{asset} is not a file the app serves"
