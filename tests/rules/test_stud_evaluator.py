"""Stud evaluation, best five of 5-7 cards (seven_card_stud.md §2 R2.1-R2.6, test vectors §14 group C)."""

from __future__ import annotations

import random
import warnings
from collections import Counter
from itertools import combinations, islice

import pytest
import treys
from hypothesis import given, settings
from hypothesis import strategies as st
from pokerkit import StandardHighHand

from rules.engines.cards import CARDS, parse_cards
from rules.engines.errors import DuplicateCard, InvalidCard, WrongCardCount
from rules.engines.evaluators.stud import (
    CATEGORY_NAMES,
    KEY_MAX,
    KEY_MIN,
    category_of,
    category_rank,
    evaluate_stud,
    stud_key,
    stud_keys,
)

with warnings.catch_warnings():  # eval7's range parser uses pyparsing names deprecated since 3.1
    warnings.simplefilter("ignore")
    import eval7


def hand(text: str):
    return parse_cards(text)


# --- §14 group C: comparisons -------------------------------------------------------------------

# (id, winner, loser) - the first hand must have the strictly higher key.
C_COMPARISONS = [
    ("C1 wheel loses to six-high straight", "2h 3s 4d 5c 6h Qc 9c", "As 2d 3c 4h 9s Kd 5s"),
    ("C3 royal beats king-high straight flush", "Ah Kh Qh Jh 4c 5d Th", "9s 8s Ks Qs Js 2d Ts"),
    ("C4 two pair ace kicker beats queen kicker", "Kc Kd 7s 7h Ac 2d 3s", "Ks Kh 7c 7d Qc 4d 3h"),
    ("C5 kicker from the broken third pair", "Jc Jd 5s 5h 9c 9d Ah", "Js Jh 5c 5d 9s 9h 2h"),
    ("C6 two trips make a full house, trips rank decides", "8c 8d 8h 4s 4c 4d Kh", "7c 7d 7h As Ad 2c 3c"),
    ("C7 flush beats straight", "2h 7h 9h Jh 3c 4s Kh", "5c 6d 7s 8c 9d Qh 4d"),
]


@pytest.mark.parametrize(("winner", "loser"), [c[1:] for c in C_COMPARISONS], ids=[c[0] for c in C_COMPARISONS])
def test_group_c_winner_has_the_higher_key(winner, loser):
    assert stud_key(hand(winner)) > stud_key(hand(loser))
    assert evaluate_stud(hand(winner)).key > evaluate_stud(hand(loser)).key


@pytest.mark.parametrize(("winner", "loser"), [c[1:] for c in C_COMPARISONS], ids=[c[0] for c in C_COMPARISONS])
def test_group_c_agrees_with_pokerkit_and_treys(winner, loser):
    # §14: "Group C agrees with PokerKit 0.7.7 and treys 0.1.8 on every category and comparison".
    assert StandardHighHand.from_game(winner.replace(" ", "")) > StandardHighHand.from_game(loser.replace(" ", ""))
    ev = treys.Evaluator()
    w = [treys.Card.new(t) for t in winner.split()]
    lo = [treys.Card.new(t) for t in loser.split()]
    assert ev.evaluate(w[:2], w[2:]) < ev.evaluate(lo[:2], lo[2:])  # treys: lower is better


# --- §14 group C and R2.6: single hands ---------------------------------------------------------

# (id, cards, category, the five that play (rank order as a dealer reads them), description)
C_HANDS = [
    ("C1 wheel", "As 2d 3c 4h 9s Kd 5s", "straight", "5s 4h 3c 2d As", "Straight, five high"),
    ("C1 six-high", "2h 3s 4d 5c 6h Qc 9c", "straight", "6h 5c 4d 3s 2h", "Straight, six high"),
    ("C2 broadway", "Ah Kd Qs Jc 2h 3d Th", "straight", "Ah Kd Qs Jc Th", "Straight, ace high"),
    ("C3 king-high straight flush", "9s 8s Ks Qs Js 2d Ts", "straight_flush", "Ks Qs Js Ts 9s",
     "Straight flush, king high"),
    ("C3 royal", "Ah Kh Qh Jh 4c 5d Th", "straight_flush", "Ah Kh Qh Jh Th", "Royal flush"),
    ("C4 kings and sevens", "Kc Kd 7s 7h Ac 2d 3s", "two_pair", "Kd Kc 7s 7h Ac",
     "Two pair, kings and sevens, ace kicker"),
    ("C5 three pairs", "Jc Jd 5s 5h 9c 9d Ah", "two_pair", "Jd Jc 9d 9c Ah", "Two pair, jacks and nines, ace kicker"),
    ("C5 kicker from third pair", "Js Jh 5c 5d 9s 9h 2h", "two_pair", "Js Jh 9s 9h 5d",
     "Two pair, jacks and nines, five kicker"),
    ("C6 two trips", "8c 8d 8h 4s 4c 4d Kh", "full_house", "8h 8d 8c 4s 4d", "Full house, eights full of fours"),
    ("C6 sevens full of aces", "7c 7d 7h As Ad 2c 3c", "full_house", "7h 7d 7c As Ad", "Full house, sevens full of aces"),
    ("C7 king-high flush", "2h 7h 9h Jh 3c 4s Kh", "flush", "Kh Jh 9h 7h 2h", "Flush, king high (K-J-9-7-2)"),
    ("C8 best five of six hearts", "Ah Kh 9h 7h 5h 3h 2c", "flush", "Ah Kh 9h 7h 5h", "Flush, ace high (A-K-9-7-5)"),
    ("C9 straight flush inside a flush", "5h 6h 7h 8h 9h Ah Kh", "straight_flush", "9h 8h 7h 6h 5h",
     "Straight flush, nine high"),
    ("C10 top of a six-card run", "4c 5d 6h 7s 8c 9d Kh", "straight", "9d 8c 7s 6h 5d", "Straight, nine high"),
    ("C11 four queens ace kicker", "Qs Qh Qd Qc 2s 3h Ad", "four_of_a_kind", "Qs Qh Qd Qc Ad",
     "Four of a kind, queens, ace kicker"),
    ("full house kings full of sevens", "Ks Kh Kd 7c 7h 2s", "full_house", "Ks Kh Kd 7h 7c",
     "Full house, kings full of sevens"),
    ("trips", "9c 9d 9s Ah 4c 3d 2s", "three_of_a_kind", "9s 9d 9c Ah 4c", "Three of a kind, nines"),
    ("one pair of sixes", "6c 6d Ah Jc 9s 3d 2s", "one_pair", "6d 6c Ah Jc 9s", "One pair, sixes"),
    ("high card", "Ah Jc 9s 7d 4c 3d 2s", "high_card", "Ah Jc 9s 7d 4c", "High card, ace (A-J-9-7-4)"),
    ("five cards only", "7c 5d 4h 3s 2c", "high_card", "7c 5d 4h 3s 2c", "High card, seven (7-5-4-3-2)"),
    ("steel wheel", "Ad 2d 3d 4d 5d Kd", "straight_flush", "5d 4d 3d 2d Ad", "Straight flush, five high"),
    ("Q-K-A-2-3 does not wrap (R2.3)", "Qc Kd Ah 2s 3c 8d", "high_card", "Ah Kd Qc 8d 3c",
     "High card, ace (A-K-Q-8-3)"),
]


@pytest.mark.parametrize(
    ("cards", "category", "best_five", "description"), [c[1:] for c in C_HANDS], ids=[c[0] for c in C_HANDS]
)
def test_evaluate_stud_reads_the_hand(cards, category, best_five, description):
    result = evaluate_stud(hand(cards))
    assert result.category == category
    assert result.best_five_text == best_five
    assert result.description == description
    assert result.key == stud_key(hand(cards))
    assert category_of(result.key) == category


def test_best_five_of_a_six_card_flush_names_the_cards_that_play():
    # R2.6: six or seven cards of one suit -> the best five of that suit.
    assert {str(c) for c in evaluate_stud(hand("2h 7h 9h Jh 3h 4s Kh")).best_five} == {"Kh", "Jh", "9h", "7h", "3h"}


def test_suits_never_break_a_tie():
    # R2.5: same ranks, different suits -> equal keys (D11's two A-K-Q-J-9 hands).
    assert stud_key(hand("As Kd Qc Jh 9s 3d 2c")) == stud_key(hand("Ah Kc Qd Js 9h 4c 2d"))


def test_quads_compare_by_kicker_then_full_house_by_pair():
    assert stud_key(hand("Qs Qh Qd Qc Ad")) > stud_key(hand("Qs Qh Qd Qc Kd"))
    assert stud_key(hand("Ks Kh Kd 8c 8h")) > stud_key(hand("Ks Kh Kd 7c 7h"))
    assert stud_key(hand("As Ah Ad 2c 2h")) > stud_key(hand("Ks Kh Kd Qc Qh"))


# --- key contract --------------------------------------------------------------------------------

def test_category_names_are_strongest_first():
    assert CATEGORY_NAMES[0] == "straight_flush"
    assert CATEGORY_NAMES[-1] == "high_card"
    assert [category_rank(n) for n in CATEGORY_NAMES] == list(range(8, -1, -1))


def test_key_range_ends_are_the_royal_flush_and_seven_five_high():
    assert stud_key(hand("As Ks Qs Js Ts")) == KEY_MAX
    assert stud_key(hand("7c 5d 4h 3s 2c")) == KEY_MIN


@pytest.mark.parametrize("bad", [0, KEY_MAX + 1, -5])
def test_category_of_refuses_a_number_outside_the_key_range(bad):
    with pytest.raises(ValueError):
        category_of(bad)


@pytest.mark.parametrize("cards", ["As Ks Qs Js", "As Ks Qs Js Ts 9s 8s 7s", ""])
def test_wrong_card_count_is_refused(cards):
    with pytest.raises(WrongCardCount) as exc:
        stud_key(hand(cards))
    assert "5 to 7" in str(exc.value)


def test_duplicate_card_is_refused_and_named():
    cards = hand("As Ks Qs Js") + [CARDS[51]]
    with pytest.raises(DuplicateCard) as exc:
        stud_key(cards)
    assert "As" in str(exc.value)
    with pytest.raises(DuplicateCard):
        evaluate_stud(cards)


@pytest.mark.parametrize("bad", [52, -1, "As", 3.5, 1.0, None])
def test_a_non_card_is_refused(bad):
    with pytest.raises(InvalidCard):
        stud_key([0, 4, 8, 12, bad])
    with pytest.raises(InvalidCard) as exc:
        stud_keys([[0, 4, 8, 12, 16], [0, 4, 8, 12, bad]])
    assert exc.value.extra["hand"] == 1
    with pytest.raises(InvalidCard):
        stud_keys([[0, 4, 8, 12, 16, 20, 24], [0, 4, 8, 12, 16, 20, bad]], validate=False)


def test_batch_reports_the_index_of_the_bad_hand():
    good = hand("As Ks Qs Js Ts")
    with pytest.raises(DuplicateCard) as exc:
        stud_keys([good, good, [0, 1, 2, 3, 3]])
    assert exc.value.extra["hand"] == 2
    with pytest.raises(WrongCardCount) as exc:
        stud_keys([good, [0, 1, 2]])
    assert exc.value.extra["hand"] == 1
    with pytest.raises(InvalidCard) as exc:
        stud_keys([[0, 1, 2, 3, 4, 5, 6], [0, 1, 2, 3, 4, 5, 99]])
    assert exc.value.extra["hand"] == 1
    with pytest.raises(InvalidCard):  # the unvalidated path still keeps card ids in range
        stud_keys([[0, 1, 2, 3, 4, 5, 99]], validate=False)


def test_batch_of_nothing_is_empty():
    assert stud_keys([]) == []


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(st.sampled_from(CARDS), min_size=5, max_size=7, unique=True), max_size=20))
def test_batch_equals_single_calls_for_mixed_lengths(hands):
    assert stud_keys(hands) == [stud_key(h) for h in hands]
    assert stud_keys([tuple(h) for h in hands], validate=False) == [stud_key(h) for h in hands]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(CARDS), min_size=7, max_size=7, unique=True), st.randoms(use_true_random=False))
def test_best_five_is_part_of_the_hand_and_scores_the_same(cards, rnd):
    result = evaluate_stud(cards)
    assert len(result.best_five) == 5
    assert set(result.best_five) <= set(cards)
    assert stud_key(result.best_five) == result.key
    # order of the cards never matters
    shuffled = list(cards)
    rnd.shuffle(shuffled)
    assert evaluate_stud(shuffled) == result
    # best of seven is the maximum over all 21 five-card choices (R2.2)
    assert result.key == max(stud_key(five) for five in combinations(cards, 5))
    # a sixth/seventh card can only help
    assert stud_key(cards[:5]) <= stud_key(cards[:6]) <= result.key


# --- exhaustive: all 2,598,960 five-card hands -----------------------------------------------------

STANDARD_COUNTS = {
    "straight_flush": 40,
    "four_of_a_kind": 624,
    "full_house": 3_744,
    "flush": 5_108,
    "straight": 10_200,
    "three_of_a_kind": 54_912,
    "two_pair": 123_552,
    "one_pair": 1_098_240,
    "high_card": 1_302_540,
}
STANDARD_DISTINCT = {
    "straight_flush": 10,
    "four_of_a_kind": 156,
    "full_house": 156,
    "flush": 1_277,
    "straight": 10,
    "three_of_a_kind": 858,
    "two_pair": 858,
    "one_pair": 2_860,
    "high_card": 1_277,
}


def test_all_five_card_hands_give_the_standard_counts():
    key_counts: Counter[int] = Counter()
    all_hands = combinations(range(52), 5)
    while chunk := list(islice(all_hands, 200_000)):
        key_counts.update(stud_keys(chunk))
    assert sum(key_counts.values()) == 2_598_960
    assert len(key_counts) == 7_462
    assert set(key_counts) == set(range(KEY_MIN, KEY_MAX + 1))
    by_category: Counter[str] = Counter()
    distinct: Counter[str] = Counter()
    for key, n in key_counts.items():
        by_category[category_of(key)] += n
        distinct[category_of(key)] += 1
    assert dict(by_category) == STANDARD_COUNTS
    assert dict(distinct) == STANDARD_DISTINCT
    assert key_counts[KEY_MAX] == 4  # the four royal flushes


# --- differential: 100,000 random seven-card hands against eval7 ------------------------------------

def _same_order(ours: list[int], theirs: list) -> None:
    """Both keys induce the same weak order: equal iff equal, and sorting by one sorts the other."""
    pairs = sorted(set(zip(ours, theirs)))
    assert len(pairs) == len(set(ours)) == len(set(theirs)), "a tie in one library is not a tie in the other"
    assert all(a[1] < b[1] for a, b in zip(pairs, pairs[1:])), "the two libraries order some hands differently"


def test_seven_card_order_and_ties_match_eval7_on_100k_random_hands():
    rng = random.Random(20240603)
    deck = list(range(52))
    hands = [rng.sample(deck, 7) for _ in range(100_000)]
    e7_cards = [eval7.Card(str(c)) for c in CARDS]
    theirs = [eval7.evaluate([e7_cards[c] for c in h]) for h in hands]
    ours = stud_keys(hands)
    _same_order(ours, theirs)
    # categories agree too (eval7's names for the same classes)
    names = {
        "Straight Flush": "straight_flush", "Quads": "four_of_a_kind", "Full House": "full_house",
        "Flush": "flush", "Straight": "straight", "Trips": "three_of_a_kind", "Two Pair": "two_pair",
        "Pair": "one_pair", "High Card": "high_card",
    }
    for key, value in islice(zip(ours, theirs), 20_000):
        assert category_of(key) == names[eval7.handtype(value)]


def test_seven_card_order_matches_treys_on_random_hands():
    rng = random.Random(7)
    hands = [rng.sample(range(52), 7) for _ in range(20_000)]
    ev = treys.Evaluator()
    t_cards = [treys.Card.new(str(c)) for c in CARDS]
    theirs = [-ev.evaluate([t_cards[c] for c in h[:2]], [t_cards[c] for c in h[2:]]) for h in hands]
    _same_order(stud_keys(hands), theirs)


def test_five_and_six_card_order_matches_pokerkit_on_random_hands():
    rng = random.Random(11)
    hands = [rng.sample(range(52), rng.choice((5, 6))) for _ in range(3_000)]
    theirs = [StandardHighHand.from_game("".join(str(CARDS[c]) for c in h)).entry.index for h in hands]
    _same_order(stud_keys(hands), theirs)
