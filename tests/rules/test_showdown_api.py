"""POST /api/v1/rules/showdown/: the showdown tool over HTTP (issue 3; croupier and floor roles only)."""

from __future__ import annotations

import pytest

URL = "/api/v1/rules/showdown/"

C1 = {"game": "seven_card_stud", "hands": {"1": "As 2d 3c 4h 9s Kd 5s", "2": "2h 3s 4d 5c 6h Qc 9c"}}


@pytest.mark.django_db
@pytest.mark.parametrize("role", ["croupier", "floor_manager"])
def test_croupier_and_floor_manager_get_the_ranking(api_client, role_user, role):
    api_client.force_authenticate(role_user(role))
    response = api_client.post(URL, C1, format="json")
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["ranking"] == [[2], [1]]
    assert body["seats"]["1"]["description"] == "Straight, five high"
    assert body["seats"]["2"]["cards"] == "6h 5c 4d 3s 2h"


@pytest.mark.django_db
def test_accountant_may_not_use_the_showdown_tool(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    response = api_client.post(URL, C1, format="json")
    assert response.status_code == 403
    assert response.json()["message"]


@pytest.mark.django_db
def test_anonymous_caller_is_refused(api_client):
    response = api_client.post(URL, C1, format="json")
    assert response.status_code in (401, 403)


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("doc", "code", "words"),
    [
        ({"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc Th 2c 3d", "2": "As 2h 3h 4h 5h 9d 8d"}}, "duplicate_card",
         "As"),
        ({"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc"}}, "wrong_card_count", "4 cards"),
        ({"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc 1x"}}, "invalid_card", "'1x'"),
        ({"game": "whist", "hands": {"1": "As Kd Qs Jc Th"}}, "invalid_config", "whist"),
        ({"game": "seven_card_stud"}, "malformed_showdown", '"hands"'),
    ],
)
def test_bad_showdown_is_http_400_with_a_json_message(api_client, role_user, doc, code, words):
    api_client.force_authenticate(role_user("croupier"))
    response = api_client.post(URL, doc, format="json")
    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"message", "code", "extra"}
    assert body["code"] == code
    assert words in body["message"]


@pytest.mark.django_db
def test_malformed_json_body_is_http_400(api_client, role_user):
    api_client.force_authenticate(role_user("croupier"))
    response = api_client.post(URL, '{"game": ', content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"]


@pytest.mark.django_db
def test_showdown_is_in_the_openapi_schema(api_client, role_user):
    api_client.force_authenticate(role_user("floor_manager"))
    response = api_client.get("/api/v1/schema/", HTTP_ACCEPT="application/json")
    assert response.status_code == 200
    assert URL in response.json()["paths"]


@pytest.mark.django_db
def test_too_deeply_nested_json_body_is_http_400(api_client, role_user):
    api_client.force_authenticate(role_user("croupier"))
    body = '{"game": "seven_card_stud", "hands": {"1": "As Kd Qs Jc Th"}, "x": ' + "[" * 50_000 + "]" * 50_000 + "}"
    response = api_client.post(URL, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["message"]
