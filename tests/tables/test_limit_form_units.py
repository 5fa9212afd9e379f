"""Percent and bounded whole-number fields of the generated limit form (tables/limit_form.py): the unit
after the box, the range from the config description, errors that name the field, range and unit, in the
reader's language; fractions (the engine's 0.05) are shown and typed as percent."""

from __future__ import annotations

import pytest
from django.utils import translation

from rules.config_fields import config_field
from tables.limit_form import LimitConfigForm

STUD = {"limit_type": "split", "lower": "5", "higher": "10", "ante": "1", "bring_in_mode": "full_bet",
        "raise_cap": "3", "open_pair_option": "on", "taxe_mode": "percent_with_cap", "taxe_percent": "5",
        "taxe_cap": "3"}


def _stud(language: str, **changes: str) -> LimitConfigForm:
    with translation.override(language):
        form = LimitConfigForm({**STUD, **changes}, game="seven_card_stud")
        form.is_valid()
        return form


def test_a_percent_field_shows_the_unit_and_the_value_the_languages_way():
    for language, shown in (("en", 'value="5.5"'), ("de-at", 'value="5,5"')):
        with translation.override(language):
            form = LimitConfigForm(game="seven_card_stud", initial_config={"taxe_mode": "percent_with_cap",
                                                                             "taxe_percent": "5.5", "taxe_cap": "3.00"})
            html = str(form["taxe_percent"])
        assert shown in html and '<span class="unit">%</span>' in html and 'inputmode="decimal"' in html
        assert 'data-min="0"' in html and 'data-max="100"' in html


@pytest.mark.parametrize(("language", "typed", "expected"), [
    ("en", "5.5", "5.5"), ("en", "5.5 %", "5.5"), ("de-at", "5,5", "5.5"), ("de-at", "12 %", "12"), ("en", "0", "0"),
])
def test_a_percentage_is_read_as_typed(language, typed, expected):
    form = _stud(language, taxe_percent=typed)
    assert form.errors == {} and form.config["taxe_percent"] == expected


@pytest.mark.parametrize(("language", "typed", "message"), [
    ("en", "150", "Taxe percentage: 150 % is outside 0 to 100 %."),
    ("en", "-1", "Taxe percentage: -1 % is outside 0 to 100 %."),
    ("en", "five", "Taxe percentage: five is not a percentage; give a number from 0 to 100 %."),
    ("en", "5.555", "Taxe percentage: give at most two decimals (5.555 %)."),
    ("de-at", "150", "Taxe-Prozentsatz: 150 % liegt außerhalb von 0 bis 100 %."),
])
def test_a_percentage_outside_the_range_is_refused_naming_field_range_and_unit(language, typed, message):
    form = _stud(language, taxe_percent=typed)
    assert form.errors["taxe_percent"] == [message]


def test_a_fraction_of_the_engine_is_shown_and_typed_as_percent():
    with translation.override("de-at"):
        form = LimitConfigForm(game="forty_one", initial_config={"tax_rate": "0.05"})
        assert 'value="5"' in str(form["tax_rate"]) and "5 heißt 5 Prozent" in form["tax_rate"].help_text
        typed = LimitConfigForm({"limits__0": "5,00", "limits__1": "10,00", "ante": "1,00", "tax_cap": "5,00",
                                 "bonus_41_amount": "10,00", "tax_rate": "5,25"}, game="forty_one")
        assert typed.is_valid(), typed.errors
    assert typed.config["tax_rate"] == "0.0525"


def test_the_raise_cap_bounds_come_from_the_config_description():
    described = config_field("seven_card_stud", "raise_cap")
    with translation.override("en"):
        form = LimitConfigForm(game="seven_card_stud")
        html = str(form["raise_cap"])
        assert f'min="{described.minimum}"' in html and f'max="{described.maximum}"' in html
        assert '<span class="unit">raises</span>' in html and 'inputmode="numeric"' in html
        assert form["raise_cap"].help_text.endswith(f"Allowed: {described.minimum} to {described.maximum} raises.")
    too_many = str(described.maximum + 1)
    assert _stud("en", raise_cap=too_many).errors["raise_cap"] == [
        f"Raises per round: from {described.minimum} to {described.maximum} raises."]
    assert _stud("en", raise_cap="-1").errors["raise_cap"] == [
        f"Raises per round: from {described.minimum} to {described.maximum} raises."]
    assert _stud("de-at", raise_cap=too_many).errors["raise_cap"] == [
        f"Erhöhungen je Runde: von {described.minimum} bis {described.maximum} Erhöhungen."]
    assert _stud("en", raise_cap="3.5").errors["raise_cap"] == ["Raises per round: give a whole number."]
