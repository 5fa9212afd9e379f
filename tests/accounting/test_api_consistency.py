"""Break-test finding 4: the accounting API says the same thing the same way.

* drop counts and tronc counts name each person by the same ``*_username`` fields (a drop count's ``counted_by``
  stays the user id it was, a tronc count's the username it was);
* a closed gaming day's ``closed_at`` is in the card room's zone like every other timestamp (not ``+00:00``);
* the signed tax report names the third accountant who signed off a drop variance, beside who counted.
"""

from __future__ import annotations

import datetime as dt
import io
import random

import pytest
from django.utils import timezone, translation
from pypdf import PdfReader

from accounting.exports import tax_report_render
from accounting.selectors import drop_logged
from accounting.services.reconciliation import gaming_day_reconcile
from accounting.services.reports import tax_report_build
from tests.accounting.helpers import make_hand, make_table

pytestmark = pytest.mark.django_db

DAY = dt.date(2026, 5, 4)


@pytest.fixture
def counted_day(api_client, role_user):
    """DAY at one Forty-one table: a drop count 100.00 over the log (signed off by carla) and a tronc count,
    both counted by anna and confirmed by bernd, through the API; the day closed by bernd."""
    anna, bernd, carla = (role_user("accountant", username=name) for name in ("anna", "bernd", "carla"))
    table = make_table("forty_one", name="Forty-one 1")
    make_hand(table, rng=random.Random(5), opened_at=dt.datetime(2026, 5, 4, 18, 0, tzinfo=dt.UTC))
    gaming_day_reconcile(day=DAY)
    over = drop_logged(table_id=table.id, gaming_day=DAY) + 100
    api_client.force_authenticate(anna)
    drop = api_client.post("/api/v1/drop-counts/", {"table": table.id, "gaming_day": DAY.isoformat(),
                                                    "counted": f"{over:.2f}"}, format="json").json()
    tronc = api_client.post("/api/v1/tronc-counts/", {"table": table.id, "gaming_day": DAY.isoformat(),
                                                      "counted": "20.00"}, format="json").json()
    api_client.force_authenticate(bernd)
    assert api_client.post(f"/api/v1/drop-counts/{drop['id']}/confirm/").status_code == 200
    assert api_client.post(f"/api/v1/tronc-counts/{tronc['id']}/confirm/").status_code == 200
    api_client.force_authenticate(carla)
    signed = api_client.post(f"/api/v1/drop-counts/{drop['id']}/sign-off/", {"note": "recounted"}, format="json")
    assert signed.status_code == 200, signed.json()
    api_client.force_authenticate(bernd)
    closed = api_client.post(f"/api/v1/gaming-days/{DAY.isoformat()}/close/")
    assert closed.status_code == 200, closed.json()
    return {"anna": anna, "bernd": bernd, "carla": carla}


def test_drop_and_tronc_counts_name_their_people_by_the_same_fields(api_client, counted_day):
    drop = api_client.get("/api/v1/drop-counts/").json()["results"][0]
    tronc = api_client.get("/api/v1/tronc-counts/").json()["results"][0]
    who = ("counted_by_username", "confirmed_by_username")
    assert [drop[k] for k in who] == [tronc[k] for k in who] == ["anna", "bernd"]
    assert drop["signed_off_by_username"] == "carla" and drop["confirmed_at"]
    # the fields clients read before keep their type: ids in a drop count, usernames in a tronc count
    assert (drop["counted_by"], drop["confirmed_by"], drop["signed_off_by"]) == (
        counted_day["anna"].pk, counted_day["bernd"].pk, counted_day["carla"].pk)
    assert (tronc["counted_by"], tronc["confirmed_by"]) == ("anna", "bernd")


def test_a_closed_days_closed_at_is_in_the_card_rooms_zone_like_the_counts(api_client, counted_day):
    day = api_client.get(f"/api/v1/gaming-days/{DAY.isoformat()}/").json()
    drop = api_client.get("/api/v1/drop-counts/").json()["results"][0]
    closed_at = dt.datetime.fromisoformat(day["closed_at"])
    local = timezone.localtime(closed_at).utcoffset()
    assert local != dt.timedelta(0)  # Vienna is never at UTC: the test would prove nothing otherwise
    assert closed_at.utcoffset() == local
    assert dt.datetime.fromisoformat(drop["confirmed_at"]).utcoffset() == local
    assert day["closed_at"][-6:] == drop["confirmed_at"][-6:] != "+00:00"


@pytest.mark.parametrize(("language", "expected"), [
    ("en", "Drop variance of Forty-one 1 (whole day, 100.00) signed off by: carla"),
    ("de-at", "Drop-Differenz von Forty-one 1 (ganzer Tag, 100,00) abgezeichnet von: carla"),
])
def test_the_tax_report_names_who_signed_off_a_drop_variance(counted_day, language, expected):
    with translation.override(language):
        report = tax_report_build(date_from=DAY, date_to=DAY)
        pdf = tax_report_render(report, "pdf")
    text = " ".join(" ".join(page.extract_text() for page in PdfReader(io.BytesIO(pdf)).pages).split())
    assert expected in text
    assert ("Counted and confirmed by: anna, bernd" if language == "en" else "Gezählt und bestätigt von: anna, bernd") in text
