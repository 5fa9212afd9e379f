"""Tax report query edges: an empty or duplicated ``fmt`` and DRF's ``format`` are refused, not guessed."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

URL = "/api/v1/reports/tax/?date_from=2026-05-04&date_to=2026-05-04"


@pytest.mark.parametrize(("query", "needle"), [
    ("&fmt=", "fmt"),
    ("&fmt=json&fmt=csv", "fmt"),
    ("&format=csv", "fmt"),
    ("&date_from=2026-05-01", "date_from"),
])
def test_an_ambiguous_report_query_is_refused(api_client, role_user, query, needle):
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.get(URL + query)
    assert response.status_code == 400, response.content[:200]
    assert needle in response.json()["message"]


def test_a_plain_report_query_still_works(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    assert api_client.get(URL + "&fmt=csv").status_code == 200
    assert api_client.get(URL).json()["totals"]["tax"] == "0.00"
