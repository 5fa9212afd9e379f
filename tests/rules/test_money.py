"""The money edge: decimal EUR text in, integer cents out; anything else refused with a readable message."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.engines.errors import InvalidAmount
from rules.engines.money import format_cents, from_cents, to_cents, to_eur


@pytest.mark.parametrize("value,cents", [
    ("10.00", 1000), ("0.01", 1), ("7", 700), ("12.5", 1250), (12, 1200), (Decimal("3.10"), 310), ("+4", 400),
])
def test_plain_decimal_amounts_become_cents(value, cents):
    assert to_cents(value) == cents


@pytest.mark.parametrize("value,words", [
    ("NaN", "not an amount"), ("Infinity", "not an amount"), ("1e400", "not an amount"), ("5e1", "not an amount"),
    ("1_000", "not an amount"), ("１２", "not an amount"), ("٣", "not an amount"), ("", "not an amount"),
    ("-5", "must not be negative"), ("1.005", "more than two decimals"), (1.5, "not an amount"),
    (True, "not an amount"), (Decimal("NaN"), "not a finite amount"), ("99999999999.00", "too large"),
    # exact (break-test finding 5): nothing around the number; people's typing is read by parse_money_input
    (" 7 ", "not an amount"), (" 10.00", "not an amount"), ("10.00\n", "not an amount"), ("\u00a010.00", "not an amount"),
])
def test_malformed_amounts_are_refused_naming_the_field(value, words):
    with pytest.raises(InvalidAmount) as info:
        to_cents(value, field="counted")
    assert str(info.value).startswith("counted: ")
    assert words in str(info.value)


def test_negative_amounts_only_where_allowed():
    assert to_cents("-2.50", allow_negative=True) == -250


def test_cents_back_to_decimal_and_text():
    assert from_cents(1050) == Decimal("10.50")
    assert format_cents(-125) == "-1.25"


def test_to_eur_keeps_exact_amounts_and_refuses_to_round():
    assert str(to_eur(Decimal("4.8"))) == "4.80"
    assert str(to_eur("-5")) == "-5.00"
    with pytest.raises(InvalidAmount):
        to_eur(Decimal("1.005"))
