"""The OpenAPI contract (issue 20): schemathesis generates requests from ``/api/v1/schema/`` for every
operation and sends each one as every role (anonymous, floor manager, croupier, accountant). No answer may
be a server error, and every answer must match the schema: a documented status, content type and body.

Bounded: a few examples per operation (``CONTRACT_EXAMPLES``, default 8), derandomized, no shrinking, so
the whole run takes a few minutes on the CI machine. In-process through Django's WSGI app (no server).
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from casino.roles import ACCOUNTANT, CROUPIER, FLOOR_MANAGER

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("CONTRACT_EXAMPLES", "8"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance]


@pytest.fixture
def api_schema(db):
    """The schema, loaded through Django's WSGI app. As Django's own test client does, the connection is not
    closed at the end of each request (it holds the test's transaction; a request whose database error was
    answered as a 409 would otherwise close it)."""
    from django.core.signals import request_finished, request_started
    from django.core.wsgi import get_wsgi_application
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield schemathesis.openapi.from_wsgi("/api/v1/schema/?format=json", get_wsgi_application())
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


@pytest.fixture
def role_headers(db, role_user):
    """A token per role (None = anonymous), and a small floor for the ids to hit."""
    from rest_framework.authtoken.models import Token

    from tests.tables.hands_support import croupier_on_duty, table_make

    table = table_make(name="contract")
    users = {"floor": role_user(FLOOR_MANAGER, "contract-floor"), "accountant": role_user(ACCOUNTANT, "contract-acc"),
             "croupier": croupier_on_duty(table, "contract-croupier")}
    assert users["croupier"].groups.filter(name=CROUPIER).exists()
    tokens = {name: Token.objects.create(user=user) for name, user in users.items()}
    return {"anonymous": None, **tokens}


def _headers(token) -> dict[str, str]:
    """The role's ``Authorization`` header; its token is put back first if an operation (logout) revoked it."""
    if token is None:
        return {}
    type(token).objects.get_or_create(key=token.key, defaults={"user": token.user})
    return {"Authorization": f"Token {token.key}"}


def _operation_failures(operation, role_headers, seen: dict[int, int]) -> list[str]:
    """Run the generated cases of one operation as every role; the failures as readable lines. ``seen``
    counts the answers by status."""
    failures: list[str] = []

    @given(case=operation.as_strategy())
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    def run(case):
        for role, token in role_headers.items():
            try:
                response = case.call(headers=_headers(token))
                seen[response.status_code] = seen.get(response.status_code, 0) + 1
                case.validate_response(response, checks=CHECKS)
            except (Exception, BaseExceptionGroup) as exc:  # noqa: BLE001 - schemathesis raises a FailureGroup
                text = " ".join(str(exc).split())[:600]
                failures.append(f"{operation.method.upper()} {operation.path} as {role}: {text}")

    run()
    return failures


@pytest.mark.slow
def test_every_operation_answers_every_role_as_documented(api_schema, role_headers):
    operations = [result.ok() for result in api_schema.get_all_operations()]
    assert len(operations) > 40
    seen: dict[int, int] = {}
    failures = [line for operation in operations for line in _operation_failures(operation, role_headers, seen)]
    assert failures == [], "\n".join(dict.fromkeys(failures))
    # the run really exercised the API: successes and refusals of every kind were answered and checked
    assert sum(seen.values()) >= len(operations) * len(role_headers), seen
    assert {200, 400, 401, 403, 404} <= set(seen), seen


@pytest.mark.parametrize("role", [None, FLOOR_MANAGER, CROUPIER, ACCOUNTANT])
def test_options_never_answers_a_server_error(api_client, role_user, role):
    """OPTIONS on every path of the schema (ids filled with an existing hand's and table's), as every role."""
    import re

    from tests.tables.hands_support import Terminal, croupier_on_duty, table_make

    table = table_make(name="options")
    terminal = Terminal(api_client, croupier_on_duty(table, "options-dealing"))
    hand_id = terminal.open(table, {1: 10000, 3: 10000}).json()["id"]
    api_client.force_authenticate(role_user(role, f"options-{role}") if role else None)
    paths = api_client.get("/api/v1/schema/?format=json").json()["paths"]
    assert "/api/v1/hands/{id}/close/" in paths
    for path in paths:
        url = re.sub(r"\{[^}]+\}", str(hand_id), path)
        answer = api_client.options(url)
        assert answer.status_code < 500, (url, answer.status_code)
        assert answer.status_code in (200, 401, 403, 404, 405), (url, answer.status_code)


def test_a_time_filter_with_an_offset_the_database_cannot_store_is_not_a_server_error(api_client, role_user):
    """Found by schemathesis: ``-18:56`` is a valid ISO offset that PostgreSQL refuses; it is converted to UTC."""
    api_client.force_authenticate(role_user(FLOOR_MANAGER, "offset-floor"))
    answer = api_client.get("/api/v1/dealer-assignments/", {"start_after": "4044-01-10T03:02:03.4922-18:56"})
    assert answer.status_code == 200


def test_a_post_to_an_unknown_url_is_a_json_404_not_a_csrf_page(client):
    answer = client.post("/api/v1/hands/-1/close/", data="{}", content_type="application/json")
    assert answer.status_code == 404 and answer.json()["code"] == "not_found"


def test_audit_trails_are_plain_lists_as_documented(api_client, role_user):
    from tests.tables.hands_support import table_make

    table = table_make(name="audited")
    api_client.force_authenticate(role_user(FLOOR_MANAGER, "audit-floor"))
    schema = api_client.get("/api/v1/schema/?format=json").json()
    documented = schema["paths"]["/api/v1/tables/{id}/audit/"]["get"]["responses"]["200"]["content"]
    assert documented["application/json"]["schema"]["type"] == "array"
    assert isinstance(api_client.get(f"/api/v1/tables/{table.pk}/audit/").json(), list)
