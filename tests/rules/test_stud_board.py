"""Stud boards: bring-in by the lowest door card (spec §14 A) and the high board (§14 B)."""

from __future__ import annotations

import pytest

from rules.engines.cards import parse_cards
from rules.engines.evaluators.stud_board import (
    board_category,
    board_key,
    bring_in_index,
    high_board_index,
)
from tests.rules.test_stud_engine_support import Hand


def cards(text: str) -> list[int]:
    return [int(x) for x in parse_cards(text)]


# --------------------------------------------------------------------------- A: bring-in (R4.1)

BRING_IN = [
    ("A1", ["Kd", "2h", "2c", "7s"], 3),
    ("A2", ["As", "3d", "3h"], 2),
    ("A3", ["5s", "5h", "5d", "5c"], 4),
]


@pytest.mark.parametrize("vid,doors,expected", BRING_IN, ids=[v[0] for v in BRING_IN])
def test_lowest_door_card_brings_it_in_with_suit_order(vid, doors, expected):
    assert bring_in_index([cards(d)[0] for d in doors]) + 1 == expected


@pytest.mark.parametrize("vid,doors,expected", BRING_IN, ids=[v[0] for v in BRING_IN])
def test_engine_asks_the_lowest_door_card_for_the_bring_in(vid, doors, expected):
    h = Hand(len(doors)).antes().third({k + 1: d for k, d in enumerate(doors)})
    assert h.view["expect"] == "bring_in"
    assert h.view["to_act"] == expected


def test_bring_in_skips_folded_boards():
    assert bring_in_index([None, cards("3c")[0], cards("2d")[0]]) == 2


# --------------------------------------------------------------------------- B: high board (R5.1-R5.3)

HIGH_BOARD = [
    ("B1", ["Ah Kd", "7c 7d", "Qs Qh"], "position", 3),
    ("B2", ["Jc 4d", "Kc 9d", "Th 2s", None, "Ks 9h"], "position", 2),
    ("B2-suit", ["Jc 4d", "Kc 9d", "Th 2s", None, "Ks 9h"], "suit", 5),
    ("B3", ["4h 7h 9h Jh", "5c 6d 7s 8h", "Ac Kd 3h 9s"], "position", 3),
    ("B4", ["4h 7h 9h Jh", "5c 6d 7s 8h", "Ac Kd 3h 9s", "2c 2d 5s 8c"], "position", 4),
    ("B5", ["Ks Kh 4c 4d", "3c 3d 3h 9s", "2c 2d 2h 2s"], "position", 3),
    ("B5-without-S3", ["Ks Kh 4c 4d", "3c 3d 3h 9s"], "position", 2),
    ("B6", ["Jc Jd 9s 2h", "Jh Js 9c 5d"], "position", 2),
    # B7: the community card 7d joins every board on 7th street (R5.5, R9.4).
    ("B7", ["Ks Kd 7c 2h 7d", "Ah Ad 4c 3s 7d", "Qc Jd 9h 6s 7d", "Tc 8d 6h 4s 7d", "Qd Jc 8h 5s 7d",
            "Td 9c 5h 3h 7d", "Jh 8c 6c 2c 7d", "Qh Th 9s 5c 7d"], "position", 1),
    ("B7-6th-street", ["Ks Kd 7c 2h", "Ah Ad 4c 3s", "Qc Jd 9h 6s", "Tc 8d 6h 4s"], "position", 2),
]


@pytest.mark.parametrize("vid,boards,tiebreak,expected", HIGH_BOARD, ids=[v[0] for v in HIGH_BOARD])
def test_highest_board_acts_first(vid, boards, tiebreak, expected):
    parsed = [None if b is None else cards(b) for b in boards]
    assert high_board_index(parsed, tiebreak=tiebreak) + 1 == expected


@pytest.mark.parametrize(
    "board,category",
    [("Ah Kd", "high_card"), ("7c 7d", "one_pair"), ("Ks Kh 4c 4d", "two_pair"), ("3c 3d 3h 9s", "three_of_a_kind"),
     ("2c 2d 2h 2s", "four_of_a_kind"), ("Ks Kd 7c 7h 7d", "full_house"), ("4h 7h 9h Jh", "high_card"),
     ("5c 6d 7s 8h", "high_card")],
)
def test_board_categories_use_rank_groups_only(board, category):
    assert board_category(board_key(cards(board))) == category


def test_five_card_straight_on_board_counts_only_when_configured():
    straight = cards("5c 6d 7s 8h 9d")
    pair = cards("2c 2d 5s 8c 9h")
    assert board_key(straight) < board_key(pair)
    assert board_key(straight, counts_straights_flushes=True) > board_key(pair, counts_straights_flushes=True)
    flush = cards("2h 7h 9h Jh Kh")
    assert board_category(board_key(flush, counts_straights_flushes=True)) == "flush"


def test_kickers_decide_within_a_category():
    assert board_key(cards("Jh Js 9c 5d")) > board_key(cards("Jc Jd 9s 2h"))
    assert board_key(cards("Kc 9d")) == board_key(cards("Ks 9h"))


def test_empty_or_oversized_board_is_refused():
    with pytest.raises(ValueError):
        board_key([])
    with pytest.raises(ValueError):
        board_key(cards("2c 3c 4c 5c 6c 7c"))
