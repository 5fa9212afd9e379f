"""Money typed and shown on the pages in the person's language (casino/money.py, casino/forms.py, the
``money`` template filters): table-driven in German and English (break-test findings 4-6, 11)."""

from __future__ import annotations

from decimal import Decimal

import pytest
from django.template import Context, Template
from django.utils import translation

from casino.forms import MoneyField
from casino.money import MoneyInputError, format_money, parse_money_input

ACCEPTED = [
    ("de-at", "60,00", "60.00"), ("de-at", "60", "60.00"), ("de-at", "60.00", "60.00"), ("de-at", "1.234,50", "1234.50"),
    ("de-at", "1.234", "1234.00"), ("de-at", "0,5", "0.50"), ("de-at", " 12,50 ", "12.50"), ("de-at", "1 234,50", "1234.50"),
    ("de-at", "€ 12,50", "12.50"), ("de-at", "1.000.000,00", "1000000.00"),
    ("en", "60.00", "60.00"), ("en", "60", "60.00"), ("en", "1,234.50", "1234.50"), ("en", "1,234", "1234.00"),
    ("en", "0.5", "0.50"), ("en", "1,000,000.00", "1000000.00"),
]
REFUSED = [
    ("de-at", "1e3", "is not an amount"), ("de-at", "60,005", "at most two decimals"), ("de-at", "-5", "without a sign"),
    ("de-at", "+5", "without a sign"), ("de-at", "NaN", "is not an amount"), ("de-at", "Infinity", "is not an amount"),
    ("de-at", "١٢", "is not an amount"), ("de-at", "１２", "is not an amount"), ("de-at", "", "Enter an amount"),
    ("de-at", "1.23.4", "is not an amount"), ("de-at", "60,", "is not an amount"), ("de-at", "12.345.6", "is not an amount"),
    ("en", "60,00", "is not an amount"), ("en", "1e3", "is not an amount"), ("en", "1.005", "at most two decimals"),
    ("en", "-1", "without a sign"), ("en", "1_000", "is not an amount"), ("en", "99999999999", "too large"),
]


@pytest.mark.parametrize("language, text, expected", ACCEPTED)
def test_amounts_typed_the_languages_way_are_read_exactly(language, text, expected):
    with translation.override(language):
        assert parse_money_input(text) == Decimal(expected)
    assert parse_money_input(text, language=language) == Decimal(expected)


@pytest.mark.parametrize("language, text, reason", REFUSED)
def test_other_amounts_are_refused_in_words(language, text, reason):
    with translation.override("en"), pytest.raises(MoneyInputError) as caught:
        parse_money_input(text, language=language, field="Ante")
    assert caught.value.message.startswith("Ante: ") and reason in caught.value.message


def test_the_refusal_speaks_german_with_a_german_example():
    with translation.override("de-at"), pytest.raises(MoneyInputError) as caught:
        parse_money_input("1e3")
    assert "1.234,50" in caught.value.message and "is not an amount" not in caught.value.message


def test_a_negative_amount_where_allowed():
    assert parse_money_input("-1.234,50", language="de-at", allow_negative=True) == Decimal("-1234.50")


@pytest.mark.parametrize("language, value, expected", [
    ("de-at", 123450, "1.234,50"), ("en", 123450, "1,234.50"), ("de-at", Decimal("60"), "60,00"),
    ("en", Decimal("60"), "60.00"), ("de-at", "2500.00", "2.500,00"), ("de-at", -200, "-2,00"), ("en", None, ""),
    ("de-at", "no amount", "no amount"),
])
def test_format_money_writes_the_languages_way(language, value, expected):
    assert format_money(value, language=language) == expected


@pytest.mark.parametrize("language, expected", [("de-at", "1.234,50 | +10,50 | 0,00 | 2-4 @ 1,00 | 2.500,00/5.000,00"),
                                                ("en", "1,234.50 | +10.50 | 0.00 | 2-4 @ 1.00 | 2,500.00/5,000.00")])
def test_the_template_filters(language, expected):
    template = Template("{% load money %}{{ a|money }} | {{ b|money_signed }} | {{ c|money_signed }} | "
                        "{{ d|money_in_text }} | {{ e|money_in_text }}")
    with translation.override(language):
        text = template.render(Context({"a": 123450, "b": 1050, "c": 0, "d": "2-4 @ 1.00", "e": "2500.00/5000.00"}))
    assert text == expected


def test_the_money_field_is_a_text_box_showing_the_languages_way():
    field = MoneyField(initial=Decimal("60"))
    with translation.override("de-at"):
        html = field.widget.render("x", Decimal("60"))
        assert field.clean("1.234,50") == Decimal("1234.50")
        with pytest.raises(Exception, match="1.234,50"):
            field.clean("1e3")
    assert 'type="text"' in html and 'inputmode="decimal"' in html and 'value="60,00"' in html
