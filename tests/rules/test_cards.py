"""Card notation, parsing, formatting and the double-German names (rules README "Card notation")."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engines.cards import (
    CARDS,
    DECK_52,
    PIQUET_32,
    Card,
    check_no_duplicates,
    format_cards,
    german_name,
    parse_card,
    parse_cards,
    parse_german_card,
)
from rules.engines.errors import DuplicateCard, InvalidCard

# (token, rank 2..14, suit) - the notations the specs and the PHH files use.
PARSE_CASES = [
    ("As", 14, "s"),
    ("as", 14, "s"),
    ("AS", 14, "s"),
    ("Td", 10, "d"),
    ("10d", 10, "d"),
    ("10D", 10, "d"),
    ("T♦", 10, "d"),
    ("10♦", 10, "d"),
    ("A♠", 14, "s"),
    ("2c", 2, "c"),
    ("2♣", 2, "c"),
    ("Kh", 13, "h"),
    ("K♥", 13, "h"),
    ("Q♤", 12, "s"),
    ("J♢", 11, "d"),
    (" 7c ", 7, "c"),
]


@pytest.mark.parametrize(("token", "rank", "suit"), PARSE_CASES)
def test_parse_card_reads_every_notation(token, rank, suit):
    card = parse_card(token)
    assert card.rank == rank
    assert card.suit == suit


def test_card_ids_follow_phevaluator_numbering():
    # rank_index * 4 + suit_index with c d h s = 0..3: 2c = 0, 2s = 3, As = 51.
    assert int(parse_card("2c")) == 0
    assert int(parse_card("2s")) == 3
    assert int(parse_card("3c")) == 4
    assert int(parse_card("Ah")) == 50
    assert int(parse_card("As")) == 51


def test_cards_are_interned():
    assert parse_card("As") is parse_card("A♠") is CARDS[51]


@pytest.mark.parametrize("token", ["Xs", "1s", "Ax", "A", "", "11c", "AsK", "Ss", "0d"])
def test_parse_card_error_names_the_bad_token(token):
    with pytest.raises(InvalidCard) as exc:
        parse_card(token)
    assert f"'{token}'" in str(exc.value)
    assert exc.value.code == "invalid_card"


def test_parse_card_refuses_a_non_string():
    with pytest.raises(InvalidCard):
        parse_card(51)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("As Td", ["As", "Td"]),
        ("As,Td", ["As", "Td"]),
        ("As, Td", ["As", "Td"]),
        ("AsTd", ["As", "Td"]),
        ("As10d9c", ["As", "Td", "9c"]),
        ("A♠ 10♦", ["As", "Td"]),
        (["As", "10d"], ["As", "Td"]),
        ("", []),
    ],
)
def test_parse_cards_reads_lists_in_every_notation(text, expected):
    assert [str(c) for c in parse_cards(text)] == expected


def test_parse_cards_error_names_the_bad_token_in_a_list():
    with pytest.raises(InvalidCard) as exc:
        parse_cards("As Kd Zz 7c")
    assert "'Zz'" in str(exc.value)
    assert exc.value.extra["token"] == "Zz"


def test_parse_cards_refuses_a_duplicate_and_names_it():
    with pytest.raises(DuplicateCard) as exc:
        parse_cards("As Kd A♠")
    assert "As" in str(exc.value)


def test_parse_cards_may_allow_duplicates():
    assert len(parse_cards("As As", allow_duplicates=True)) == 2


def test_piquet_deck_refuses_a_six():
    with pytest.raises(InvalidCard) as exc:
        parse_cards("As 6d", deck=PIQUET_32)
    assert "6d" in str(exc.value)
    assert "deck" in str(exc.value)


def test_decks_have_the_right_cards():
    assert len(DECK_52) == 52
    assert len(PIQUET_32) == 32
    assert {c.rank for c in PIQUET_32} == {7, 8, 9, 10, 11, 12, 13, 14}


def test_check_no_duplicates_names_the_card_and_place():
    with pytest.raises(DuplicateCard) as exc:
        check_no_duplicates(parse_cards("As Kd Qh", allow_duplicates=True) + [parse_card("Kd")], where="at seat 3")
    assert str(exc.value) == "card Kd appears twice at seat 3"


def test_format_cards_is_canonical():
    assert format_cards(parse_cards("a♠ 10d 2C")) == "As Td 2c"
    assert parse_card("Td").symbol == "T♦"
    assert repr(parse_card("Td")) == "Card(Td)"


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(CARDS), unique=True, max_size=13))
def test_format_then_parse_round_trips(cards):
    assert parse_cards(format_cards(cards)) == cards
    assert parse_cards("".join(str(c) for c in cards)) == cards


@pytest.mark.parametrize(
    ("card", "german"),
    [
        ("Qc", "Eichel Ober"),
        ("Jc", "Eichel Unter"),
        ("Kh", "Herz König"),
        ("Th", "Herz 10"),
        ("As", "Laub Ass"),
        ("7d", "Schellen 7"),
    ],
)
def test_german_names_follow_the_suit_mapping(card, german):
    assert german_name(parse_card(card)) == german
    assert parse_german_card(german) == parse_card(card)


@pytest.mark.parametrize(
    ("text", "card"),
    [("herz-ass", "Ah"), ("Grün 9", "9s"), ("gruen koenig", "Ks"), ("Eichel_Daus", "Ac"), ("  Schellen   Unter ", "Jd")],
)
def test_german_parsing_accepts_variants(text, card):
    assert parse_german_card(text) == parse_card(card)


def test_every_piquet_card_round_trips_through_its_german_name():
    assert {parse_german_card(german_name(c)) for c in PIQUET_32} == set(PIQUET_32)


def test_german_name_refuses_a_card_outside_the_piquet_pack():
    with pytest.raises(InvalidCard) as exc:
        german_name(parse_card("6h"))
    assert "6h" in str(exc.value)


@pytest.mark.parametrize("text", ["Herz 6", "Blatt Ober", "Ober", "Eichel Ober Unter"])
def test_german_parse_error_names_the_bad_text(text):
    with pytest.raises(InvalidCard) as exc:
        parse_german_card(text)
    assert f"'{text}'" in str(exc.value)


def test_card_is_an_int_subclass_usable_as_an_index():
    card = parse_card("Kd")
    assert isinstance(card, Card)
    assert isinstance(card, int)
    assert CARDS[card] is card
