"""Razz and Seven Card Stud Hi-Lo: the low evaluators against PokerKit and exhaustive counts, the
bring-in, acting order and split pots of the two stud variants, the seven real hands, the showdown tool."""

from __future__ import annotations

import random
import tomllib
from itertools import combinations

import pytest
from pokerkit import EightOrBetterLowHand, RegularLowHand

from rules.engines import stud
from rules.engines.cards import CARDS, parse_cards
from rules.engines.errors import ConfigError, OutOfTurn
from rules.engines.evaluators.low import (
    ace_to_five_key,
    describe_low,
    eight_or_better_key,
    low_board_key,
)
from rules.engines.phh import load_phh, replay_phh_hand
from rules.games import razz, seven_card_stud_hi_lo
from rules.showdown import run_showdown
from tests.shared_data import PHH_RAZZ_HILO_DIR, require_phh

RAZZ = razz.ENGINE
HILO = seven_card_stud_hi_lo.ENGINE
FILES = sorted(PHH_RAZZ_HILO_DIR.glob("*.phh"))
#: US fixed-limit settings (as the PHH reader fills in) at 5/10, ante 1, bring-in 2, no Taxe.
US = {"lower": "5", "higher": "10", "ante": "1", "bring_in_mode": "partial_with_completion", "bring_in": "2",
      "taxe_amount": "0", "chip_unit": "0.01"}


def _cards(text: str) -> list[int]:
    return [int(c) for c in parse_cards(text)]


def _text(cards) -> str:
    return "".join(str(CARDS[c]) for c in cards)


# --- evaluators ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(3))
def test_ace_to_five_and_eight_or_better_order_hands_as_pokerkit_does(seed):
    rng = random.Random(seed)
    for _ in range(400):
        deal = rng.sample(range(52), 14)
        a, b = deal[:7], deal[7:]
        ours = (ace_to_five_key(a) < ace_to_five_key(b)) - (ace_to_five_key(a) > ace_to_five_key(b))
        pa, pb = RegularLowHand.from_game(_text(a)), RegularLowHand.from_game(_text(b))
        assert ours == (pa > pb) - (pa < pb), (_text(a), _text(b))
        la, lb = eight_or_better_key(a), eight_or_better_key(b)
        for cards, key in ((a, la), (b, lb)):
            try:
                EightOrBetterLowHand.from_game(_text(cards))
                qualifies = True
            except ValueError:
                qualifies = False
            assert (key is not None) == qualifies, _text(cards)
        if la is not None and lb is not None:
            qa, qb = EightOrBetterLowHand.from_game(_text(a)), EightOrBetterLowHand.from_game(_text(b))
            assert ((la < lb) - (la > lb)) == (qa > qb) - (qa < qb)


def test_exhaustive_counts_over_every_rank_pattern_of_five_cards():
    # Over all C(52,5) = 2,598,960 hands, by rank multiset times its suit count: 1287 distinct no-pair
    # lows cover 1287 * 4**5 hands; 56 distinct eight-or-better lows cover 56 * 4**5 hands (RZ2.2, HL2.2).
    ranks = [c >> 2 for c in range(52)]
    distinct_a5 = {ace_to_five_key([r * 4 for r in five]) for five in combinations(range(13), 5)}
    assert len(distinct_a5) == 1287
    qualifying = {eight_or_better_key([r * 4 for r in five]) for five in combinations(range(13), 5)} - {None}
    assert len(qualifying) == 56
    hands_8 = sum(1 for five in combinations(range(13), 5) if eight_or_better_key([r * 4 for r in five])) * 4 ** 5
    assert hands_8 == 57_344
    assert len(ranks) == 52


@pytest.mark.parametrize(("better", "worse"), [
    ("5c 4d 3h 2s Ac", "6c 4d 3h 2s Ac"),   # the wheel is the best low; straights do not count (RZ2.3)
    ("8c 7d 6h 5s 4c", "8c 7d 6h 6s 4c 4d 4h"),  # four ranks only: the best of them still pairs
    ("Kc Qd Jh Ts 9c", "Ac Ad 2h 3s 4c"),   # any no-pair hand beats a pair
    ("2c 2d 3h 4s 5c", "3c 3d 2h 4s 5c"),   # a lower pair is better
])
def test_ace_to_five_order_vectors(better, worse):
    assert ace_to_five_key(_cards(better)) < ace_to_five_key(_cards(worse))


def test_eight_or_better_needs_five_different_ranks_of_eight_or_lower():
    assert eight_or_better_key(_cards("8c 7d 6h 5s 4c Kd Kh")) is not None
    assert eight_or_better_key(_cards("9c 7d 6h 5s 4c Kd Kh")) is None
    assert eight_or_better_key(_cards("Ac Ad 2h 3s 3c 4d Kh")) is None
    assert describe_low(eight_or_better_key(_cards("8c 6d 4h 2s Ac Kd Kh"))) == "8-6-4-2-A"


def test_low_boards_read_pairs_as_bad_and_the_ace_as_low():
    assert low_board_key(_cards("Ah 2c")) < low_board_key(_cards("Ah 3c"))
    assert low_board_key(_cards("Kh Qc")) < low_board_key(_cards("2h 2c"))


# --- the variants at the table -----------------------------------------------------------------------------------


def _dealt(engine, doors: dict[int, str], stacks: int = 10_000):
    state = engine.new_hand(US, {s: stacks for s in doors}, button=max(doors))
    for seat in doors:
        state = engine.apply(state, {"type": "ante", "seat": seat})
    for seat, cards in doors.items():
        state = engine.apply(state, {"type": "deal", "seat": seat, "cards": cards})
    return state


def test_razz_the_highest_door_card_brings_it_in_ace_low_spades_highest():
    state = _dealt(RAZZ, {1: "2c 3c Kh", 2: "4c 5c Ks", 3: "6c 7c Ad"})
    assert stud.view(state)["to_act"] == 2  # K♠ over K♥; the ace is the lowest card (RZ4.1)
    with pytest.raises(OutOfTurn):
        RAZZ.apply(state, {"type": "bring_in", "seat": 3})


def test_seven_card_stud_hi_lo_brings_in_as_stud_does():
    state = _dealt(HILO, {1: "2c 3c Kh", 2: "4c 5c Ks", 3: "6c 7c Ad"})
    assert stud.view(state)["to_act"] == 1  # the lowest door card, ace high (R4.1)


def test_razz_the_best_low_board_acts_first_from_fourth_street():
    state = _dealt(RAZZ, {1: "2c 3c Kh", 2: "4c 5c Qs", 3: "6c 7c 8d"})
    for event in ({"type": "bring_in", "seat": 1}, {"type": "call", "seat": 2}, {"type": "call", "seat": 3}):
        state = RAZZ.apply(state, event)
    for seat, card in ((1, "Ah"), (2, "Js"), (3, "2d")):
        state = RAZZ.apply(state, {"type": "deal", "seat": seat, "cards": card})
    assert stud.view(state)["to_act"] == 3  # 8-2 is the best low board; K-A and Q-J are worse (RZ5.1)


def test_razz_has_no_open_pair_rule():
    with pytest.raises(ConfigError) as err:
        RAZZ.build_config({**US, "open_pair_option": "on"})
    assert err.value.field == "open_pair_option"
    assert RAZZ.build_config(US).open_pair_option == "off"


def _showdown_hand(engine, holdings: dict[int, str], stacks: int = 10_000, *, config=US, fold: int | None = None):
    """Calls and checks to the showdown (seat ``fold`` folds at its first turn), every hand shown."""
    seats = sorted(holdings)
    cards = {s: holdings[s].split() for s in seats}
    state = engine.new_hand(config, {s: stacks for s in seats}, button=seats[-1])
    for s in seats:
        state = engine.apply(state, {"type": "ante", "seat": s})
    for s in seats:
        state = engine.apply(state, {"type": "deal", "seat": s, "cards": " ".join(cards[s][:3])})
    view = stud.view(state)
    state = engine.apply(state, {"type": "bring_in", "seat": view["to_act"]})
    while not engine.is_complete(state):
        view = stud.view(state)
        if view["expect"] == "deal":
            for action in view["legal_actions"]:
                k = len(cards[action["seat"]]) - len([c for c in state.cards[state.pos[action["seat"]]]])
                state = engine.apply(state, {"type": "deal", "seat": action["seat"],
                                             "cards": cards[action["seat"]][7 - k]})
            continue
        kinds = {a["type"]: a for a in view["legal_actions"]}
        kind = "show" if "show" in kinds else "call" if "call" in kinds else "check"
        if view["to_act"] == fold and "fold" in kinds:
            kind = "fold"
        state = engine.apply(state, {"type": kind, "seat": view["to_act"]})
    return state


def test_hi_lo_splits_the_pot_odd_chip_to_the_high_half():
    # Whole-euro chips, ante 1, bring-in 2: three antes + bring-in + call = 7.00 (seat 3 folds). Seat 1
    # has two pair and no low, seat 2 the 7-5-4-3-A low: the odd euro goes to the high half (HL2.3).
    euros = {**US, "chip_unit": "1", "bring_in": "2"}
    state = _showdown_hand(HILO, {1: "Kc Kd Qh Jh 9s 9c Ts", 2: "Ac 3d 4h 5s 7c Jd Qd", 3: "2c 2d 8h"},
                           config=euros, fold=3)
    result = stud.settlement(state)
    result.check_balanced()
    assert sum(result.contributions.values()) == 700
    assert result.awards == {1: 400, 2: 300, 3: 0}


def test_hi_lo_without_a_qualifying_low_the_high_hand_scoops():
    state = _showdown_hand(HILO, {1: "Kc Kd Qh Jh 9s 9c Ts", 2: "Ac 3d 4h Js Qc Jd Qd"})
    result = stud.settlement(state)
    assert result.awards[2] == 0 and result.awards[1] == sum(result.contributions.values())


def test_razz_the_best_low_takes_the_pot():
    state = _showdown_hand(RAZZ, {1: "Kc Kd Qh Jh 9s 9c Ts", 2: "Ac 3d 4h Js Qc Jd Qd"})
    result = stud.settlement(state)
    assert result.awards[1] == 0 and result.awards[2] == sum(result.contributions.values())


# --- the seven real hands ----------------------------------------------------------------------------------------


def test_the_seven_real_razz_and_hi_lo_hands_are_in_the_repository():
    require_phh(PHH_RAZZ_HILO_DIR)
    variants = sorted(tomllib.loads(p.read_text(encoding="utf-8"))["variant"] for p in FILES)
    assert variants == ["F7S/8"] * 3 + ["FR"] * 4


@pytest.mark.parametrize("path", FILES, ids=[p.name for p in FILES])
def test_real_razz_and_hi_lo_hands_replay_to_their_recorded_finishing_stacks(path):
    hand = load_phh(path)
    assert hand.game == {"FR": "razz", "F7S/8": "seven_card_stud_hi_lo"}[hand.raw["variant"]]
    result = replay_phh_hand(hand)
    assert stud.is_complete(result.state)
    assert dict(zip(result.state.seats, result.state.stack)) == hand.finishing_stacks
    stud.settlement(result.state).check_balanced()
    engine = {"razz": RAZZ, "seven_card_stud_hi_lo": HILO}[hand.game]
    again = engine.replay(result.config, hand.seats, result.events, button=hand.button)
    assert list(again.stack) == list(result.state.stack)


# --- showdown tool -----------------------------------------------------------------------------------------------


def test_showdown_tool_ranks_razz_lows():
    out = run_showdown({"game": "razz", "hands": {"1": "Kc Kd Qh Jh 9s 9c Ts", "2": "Ac 3d 4h 5s 7c Jd Qd"}})
    assert out["ranking"] == [[2], [1]]
    assert out["seats"]["2"]["description"] == "7-5-4-3-A"
    assert out["seats"]["1"]["description"] == "K-Q-J-T-9"


def test_showdown_tool_ranks_hi_lo_high_and_qualifying_low():
    out = run_showdown({"game": "seven_card_stud_hi_lo",
                        "hands": {"1": "Kc Kd Qh Jh 9s 9c Ts", "2": "Ac 3d 4h 5s 7c Jd Qd"}})
    assert out["ranking"] == [[1], [2]]
    assert out["low_ranking"] == [[2]]
    assert out["seats"]["2"]["low"] == "7-5-4-3-A" and out["seats"]["1"]["low"] is None
