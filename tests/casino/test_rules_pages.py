"""The house rules served as pages (``/rules/<game>/#R6.2``) and the API root that lists every section (issue 13)."""

from __future__ import annotations

import re

import pytest

from casino.rules_pages import rules_pages, rules_url
from casino.views import api_sections

pytestmark = pytest.mark.django_db


def test_a_rule_number_in_an_error_can_be_followed_to_its_rule(client, role_user):
    client.force_login(role_user("croupier"))
    assert rules_url("R6.2") == "/rules/seven_card_stud/#R6.2"
    response = client.get("/rules/seven_card_stud/")
    assert response.status_code == 200
    html = response.content.decode()
    assert '<a id="R6.2"></a><strong>R6.2</strong>' in html and "one bet and three raises" in html
    assert '<a id="R11.2"></a>' in html and "<table>" in html  # the configuration table is rendered


@pytest.mark.parametrize(("rule", "page"), [("B.4a", "forty_one"), ("A.12", "capsa_susun"), ("RZ4.1", "razz"),
                                            ("HL2.3", "seven_card_stud_hi_lo"), ("H2", "dealer_rotation")])
def test_every_prefix_links_to_the_page_that_defines_it(client, role_user, rule, page):
    client.force_login(role_user("floor_manager"))
    url = rules_url(rule)
    assert url == f"/rules/{page}/#{rule}"
    assert f'<a id="{rule}"></a>' in client.get(url.split("#")[0]).content.decode()


def test_the_index_links_the_pages_as_served_pages(client, role_user):
    client.force_login(role_user("accountant"))
    html = client.get("/rules/").content.decode()
    for page in rules_pages():
        assert f'href="/rules/{page}/"' in html
    assert not re.search(r'href="[^"]*\.md', html)  # every link between the pages points at a served page


def test_rules_pages_need_a_login_and_an_unknown_page_is_404(client, role_user):
    assert client.get("/rules/seven_card_stud/").status_code == 302
    client.force_login(role_user("croupier"))
    assert client.get("/rules/no_such_game/").status_code == 404
    assert client.get("/rules/README/").status_code == 404


def test_the_staff_pages_link_the_house_rules(client, role_user):
    client.force_login(role_user("croupier"))
    assert 'href="/rules/"' in client.get("/").content.decode()


def test_the_api_root_lists_every_section(api_client, role_user):
    api_client.force_authenticate(role_user("accountant"))
    body = api_client.get("/api/v1/").json()
    for section in ("tables", "limit-profiles", "dealers", "rotation-plans", "hands", "ledger/entries",
                    "reconciliation/runs", "reconciliation/discrepancies", "drop-counts", "reports/tax",
                    "rules/showdown", "health", "schema", "docs"):
        assert body[section].endswith(f"/api/v1/{section}/"), section
    assert set(api_sections()) <= set(body) and body["house-rules"].endswith("/rules/")
