"""Seven Card Stud engine: the spec's vectors A4, B8, D1-D15, E1-E5, F1-F3 (F4/F5 in test_phh.py).

Split limit 5/10, ante 1, Taxe 0 unless stated (spec §14). Amounts written in EUR via ``c()``.
"""

from __future__ import annotations

import pytest

from rules.engines import stud
from rules.engines.errors import (
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    OutOfTurn,
    UnknownEvent,
)
from rules.engines.stud.state import _stub
from tests.rules.test_stud_engine_support import Hand, c, show_all

# Scenario A (D1-D5, D14, F1-F3): "d d u" on 3rd, then the 4th-street up card.
SCENARIO_A_3RD = {1: "Ah Kc Qs", 2: "9d 9c Kd", 3: "4s 7h 2c", 4: "Jd Td 2h"}
SCENARIO_A_4TH = {1: "Qh", 2: "5s", 3: "8d", 4: "As"}


def scenario_a(**cfg) -> Hand:
    return Hand(4, **cfg).antes().deal(SCENARIO_A_3RD)


def d1(h: Hand) -> Hand:
    return h.acts((3, "bring_in"), (4, "raise", 10), (1, "raise", 15), (2, "raise", 20), (3, "call"), (4, "call"),
                  (1, "call"))


# ----------------------------------------------------------------------------- A4 bring-in round


def test_a4_bring_in_is_forced_and_gets_no_option():
    h = scenario_a()
    assert set(h.legal()) == {"bring_in"}
    assert h.legal()["bring_in"]["min"] == c(5)
    for kind in ("check", "fold"):
        with pytest.raises(IllegalAction, match="seat 3 cannot"):
            h.act(3, kind)
    h.act(3, "bring_in")
    legal = h.legal()
    assert set(legal) == {"fold", "call", "raise"}
    assert legal["call"]["min"] == c(5) and legal["raise"]["amounts"] == [c(10)]
    with pytest.raises(IllegalAction, match="seat 4 cannot check"):
        h.act(4, "check")
    h.acts((4, "call"), (1, "call"), (2, "call"))
    assert h.view["expect"] == "deal" and h.view["street"] == 4
    assert h.pot_total() == c(24)


# ----------------------------------------------------------------------------- D1-D5 scenario A


def test_d1_bring_in_is_the_bet_and_three_raises_cap_third_street():
    h = scenario_a()
    h.acts((3, "bring_in"), (4, "raise", 10), (1, "raise", 15), (2, "raise", 20))
    assert set(h.legal()) == {"fold", "call"}
    assert h.view["raises_left"] == 0
    with pytest.raises(IllegalAction, match=r"seat 3 cannot raise: the round is capped at 20\.00 after three raises"):
        h.act(3, "raise", 25)
    h.acts((3, "call"), (4, "call"), (1, "call"))
    assert h.pot_total() == c(84)
    assert h.view["contributions"] == {s: c(21) for s in (1, 2, 3, 4)}


def test_d2_open_pair_lets_the_high_hand_bet_the_higher_limit():
    h = d1(scenario_a()).deal(SCENARIO_A_4TH)
    assert h.view["to_act"] == 1 and h.view["open_pair"]
    assert h.legal()["bet"]["amounts"] == [c(5), c(10)]
    h.act(1, "bet", 10)
    assert h.legal()["raise"]["amounts"] == [c(20)]
    h.acts((2, "raise", 20), (3, "call"), (4, "raise", 30), (1, "raise", 40), (2, "call"), (3, "call"), (4, "call"))
    assert h.pot_total() == c(244)


def test_d3_after_a_higher_limit_raise_every_raise_is_the_higher_limit():
    h = d1(scenario_a()).deal(SCENARIO_A_4TH)
    h.acts((1, "bet", 5))
    assert h.legal()["raise"]["amounts"] == [c(10), c(15)]
    h.acts((2, "raise", 10), (3, "raise", 20))
    with pytest.raises(InvalidAmount, match="seat 4 cannot raise to 25.00"):
        h.act(4, "raise", 25)
    h.acts((4, "raise", 30), (1, "call"), (2, "call"), (3, "call"))
    assert h.pot_total() == c(204)


@pytest.mark.parametrize("scope,amounts", [("any_player", [5, 10]), ("paired_player_only", [5])])
def test_d4_open_pair_scope_decides_who_may_bet_high(scope, amounts):
    h = d1(scenario_a(open_pair_scope=scope)).deal(SCENARIO_A_4TH)
    h.act(1, "check")
    assert h.legal()["bet"]["amounts"] == [c(a) for a in amounts]


def test_d5_flat_taxe_leaves_the_pot_when_fourth_street_lands():
    h = d1(scenario_a(taxe_amount="5"))
    h.deal({1: "Qh", 2: "5s", 3: "8d"})
    assert h.view["tax"] == 0
    h.deal({4: "As"})
    assert h.view["tax"] == c(5) and h.pot_total() == c(79)
    h.acts((1, "bet", 10), (2, "raise", 20), (3, "call"), (4, "raise", 30), (1, "raise", 40), (2, "call"),
           (3, "call"), (4, "call"))
    assert h.pot_total() == c(239)
    h.ev({"type": "taxe", "amount": c(5)})
    with pytest.raises(IllegalAction):
        h.ev({"type": "taxe", "amount": c(5)})


def test_d6_no_taxe_when_the_hand_ends_on_third_street():
    h = scenario_a(taxe_amount="5")
    h.acts((3, "bring_in"), (4, "fold"), (1, "fold"), (2, "fold"))
    st = stud.settlement(h.state)
    assert stud.is_complete(h.state)
    assert st.tax == 0 and st.awards[3] == c(9)
    assert st.net[3] == c(3) and st.net[1] == -c(1)
    st.check_balanced()


def test_d14_percent_taxe_is_rounded_down_to_the_chip_and_capped():
    for cap, taxe, final in (("3", 3, 241), ("10", 4, 240)):
        h = d1(scenario_a(taxe_mode="percent_with_cap", taxe_percent="5", taxe_cap=cap)).deal(SCENARIO_A_4TH)
        assert h.view["tax"] == c(taxe)
        h.acts((1, "bet", 10), (2, "raise", 20), (3, "call"), (4, "raise", 30), (1, "raise", 40), (2, "call"),
               (3, "call"), (4, "call"))
        assert h.pot_total() == c(final)


# ----------------------------------------------------------------------------- D7 heads-up cap


def heads_up_fifth(**cfg) -> Hand:
    h = Hand(2, **cfg).antes().deal({1: "2c 3c Ah", 2: "4d 5d 7s"})
    h.acts((2, "bring_in"), (1, "call")).deal({1: "Ad", 2: "8s"}).acts((1, "check"), (2, "check"))
    return h.deal({1: "Kh", 2: "9s"})


def test_d7_heads_up_cap_stays_by_default():
    h = heads_up_fifth().acts((1, "bet", 10), (2, "raise", 20), (1, "raise", 30), (2, "raise", 40))
    assert set(h.legal()) == {"fold", "call"}


def test_d7_uncap_heads_up_lets_raising_continue():
    h = heads_up_fifth(uncap_heads_up=True).acts((1, "bet", 10), (2, "raise", 20), (1, "raise", 30), (2, "raise", 40))
    assert h.legal()["raise"]["amounts"] == [c(50)]
    h.acts((1, "raise", 50), (2, "raise", 60))
    assert h.view["raises_left"] is None


# ----------------------------------------------------------------------------- D8/D9 short all-ins


def test_d8_short_all_in_bet_may_be_completed_to_a_full_bet():
    h = Hand([10, 100]).antes().deal({1: "2c 3c Ah", 2: "4d 5d 2d"})
    h.acts((2, "bring_in"), (1, "call")).deal({1: "Ad", 2: "8s"}).acts((1, "check"), (2, "check"))
    h.deal({1: "Kh", 2: "9s"})
    assert h.legal()["bet"]["amounts"] == [c(4)]  # S1 has only 4 behind
    h.act(1, "bet", 4)
    legal = h.legal()
    assert set(legal) == {"fold", "call", "complete"}
    assert legal["call"]["min"] == c(4) and legal["complete"]["amounts"] == [c(10)]
    h.act(2, "complete", 10)
    assert h.state.wagers == 1  # the completion is the bet, not a raise
    assert h.view["returned"][2] == c(6)  # the part S1 could not match goes back


def d9_fifth() -> Hand:
    h = Hand([200, 200, 22]).antes().deal({1: "3c 4c 2c", 2: "3d 4d Kd", 3: "3h 4h 9h"})
    h.acts((1, "bring_in"), (2, "call"), (3, "call")).deal({1: "5h", 2: "Ks", 3: "Th"})
    h.acts((2, "check"), (3, "check"), (1, "check")).deal({1: "7d", 2: "Qc", 3: "Jd"})
    return h


def test_d9_all_in_of_half_a_bet_or_more_is_a_full_raise():
    h = d9_fifth()
    assert h.view["to_act"] == 2
    h.acts((2, "bet", 10), (3, "raise", 16))
    legal = h.legal()
    assert legal["call"]["min"] == c(16) and legal["raise"]["amounts"] == [c(26)]
    assert h.view["raises_left"] == 2
    h.act(1, "raise", 26)
    assert h.legal()["raise"]["amounts"] == [c(36)]  # S2 may re-raise


def test_d9_short_all_in_raise_does_not_reopen_for_the_bettor():
    h = Hand([200, 200, 20]).antes().deal({1: "3c 4c 2c", 2: "3d 4d Kd", 3: "3h 4h 9h"})
    h.acts((1, "bring_in"), (2, "call"), (3, "call")).deal({1: "5h", 2: "Ks", 3: "Th"})
    h.acts((2, "check"), (3, "check"), (1, "check")).deal({1: "7d", 2: "Qc", 3: "Jd"})
    h.acts((2, "bet", 10), (3, "raise", 14))  # 4 over 10 < half a unit: short
    assert h.legal()["raise"]["amounts"] == [c(20)]  # S1 has not acted: may complete the raise
    h.act(1, "call")
    assert set(h.legal()) == {"fold", "call"}  # S2 already acted, betting not reopened
    with pytest.raises(IllegalAction, match="does not reopen"):
        h.act(2, "raise", 24)


@pytest.mark.parametrize("rule,options", [("half_bet", {"fold", "call", "raise"}), ("full_bet", {"fold", "call"})])
def test_short_allin_rule_full_bet_needs_a_full_unit_to_reopen(rule, options):
    h = Hand([200, 200, 22], short_allin_rule=rule).antes().deal({1: "3c 4c 2c", 2: "3d 4d Kd", 3: "3h 4h 9h"})
    h.acts((1, "bring_in"), (2, "call"), (3, "call")).deal({1: "5h", 2: "Ks", 3: "Th"})
    h.acts((2, "check"), (3, "check"), (1, "check")).deal({1: "7d", 2: "Qc", 3: "Jd"})
    h.acts((2, "bet", 10), (3, "raise", 16), (1, "call"))
    assert set(h.legal()) == options


# ----------------------------------------------------------------------------- D10-D12 pots and splits


def test_d10_side_pot_goes_to_the_best_hand_among_its_players():
    h = Hand([15, 200, 200]).antes().deal({1: "Ac Ad 9c", 2: "6c 6d 8c", 3: "Qc Qd Tc"})
    h.acts((2, "bring_in"), (3, "call"), (1, "call"))
    assert h.pot_total() == c(18)
    h.deal({1: "3s", 2: "4d", 3: "5d"}).acts((3, "bet", 5), (1, "call"), (2, "call"))
    assert h.pot_total() == c(33) and h.stacks()[0] == c(4)
    h.deal({1: "Jd", 2: "Ks", 3: "4s"})
    assert h.view["to_act"] == 2
    h.acts((2, "bet", 10), (3, "call"), (1, "call"))
    assert h.view["pots"] == [{"amount": c(45), "eligible": [1, 2, 3]}, {"amount": c(12), "eligible": [2, 3]}]
    h.deal({1: "6h", 2: "7h", 3: "9h"}).acts((2, "bet", 10), (3, "call"))
    h.deal({1: "As", 2: "Qs", 3: "Th"}).acts((2, "check"), (3, "check"))
    assert h.view["expect"] == "show" and h.view["to_act"] == 2
    show_all(h)
    st = stud.settlement(h.state)
    assert [p.amount for p in st.pots] == [c(45), c(32)]
    assert set(st.pot_awards) == {(0, 1, c(45)), (1, 3, c(32))}
    assert h.stacks() == [c(45), c(169), c(201)]
    st.check_balanced()


def check_down(h: Hand, streets: list[dict[int, str]]) -> Hand:
    for cards in streets:
        h.deal(cards)
        while h.state.phase == "betting":
            h.act(h.state.to_act_seat, "check")
    return h


def test_d11_two_way_split_odd_chip_to_the_highest_card_by_suit():
    h = Hand(3).antes().deal({1: "As Kd Qc", 2: "Ah Kc Qd", 3: "7h 8h Kh"})
    h.acts((1, "bring_in"), (2, "call"), (3, "fold"))
    h.deal({1: "Jh", 2: "Js"})
    assert h.view["to_act"] == 1  # Q-J boards tie: position
    while h.state.phase == "betting":
        h.act(h.state.to_act_seat, "check")
    check_down(h, [{1: "9s", 2: "9h"}, {1: "3d", 2: "4c"}, {1: "2c", 2: "2d"}])
    show_all(h)
    st = stud.settlement(h.state)
    assert st.awards[1] == c(7) and st.awards[2] == c(6)


def test_d12_three_way_split_one_odd_chip_each_by_suit():
    h = Hand(5).antes().deal({1: "5c 6d 7h", 2: "5d 6h 7s", 3: "5h 6s 7c", 4: "Ac Ad Qs", 5: "Tc Td Jc"})
    h.acts((3, "bring_in"), (4, "fold"), (5, "fold"), (1, "call"), (2, "call"))
    assert h.pot_total() == c(20)
    h.deal({1: "8s", 2: "8c", 3: "8d"})
    while h.state.phase == "betting":
        h.act(h.state.to_act_seat, "check")
    check_down(h, [{1: "9c", 2: "9d", 3: "9h"}, {1: "Kd", 2: "Ks", 3: "Kh"}, {1: "2h", 2: "2c", 3: "2d"}])
    show_all(h)
    st = stud.settlement(h.state)
    assert (st.awards[1], st.awards[2], st.awards[3]) == (c(6), c(7), c(7))


def test_odd_chip_first_left_of_dealer_option():
    h = Hand(5, odd_chip_rule="first_left_of_dealer").antes().deal(
        {1: "5c 6d 7h", 2: "5d 6h 7s", 3: "5h 6s 7c", 4: "Ac Ad Qs", 5: "Tc Td Jc"})
    h.acts((3, "bring_in"), (4, "fold"), (5, "fold"), (1, "call"), (2, "call"))
    check_down(h, [{1: "8s", 2: "8c", 3: "8d"}, {1: "9c", 2: "9d", 3: "9h"}, {1: "Kd", 2: "Ks", 3: "Kh"},
                   {1: "2h", 2: "2c", 3: "2d"}])
    show_all(h)
    st = stud.settlement(h.state)
    assert (st.awards[1], st.awards[2], st.awards[3]) == (c(7), c(7), c(6))


# ----------------------------------------------------------------------------- D13/D15 spread limit

SPREAD = {"limit_type": "spread", "spread_min": "10", "spread_max": "50", "ante": "2"}


def spread_hand(stacks, **cfg) -> Hand:
    h = Hand(stacks, **{**SPREAD, **cfg})
    h.config = h.state.cfg
    return h.antes().deal({1: "2d 3d 9s", 2: "2h 3h 8s", 3: "2s 3s 4c"})


def test_d13_spread_raises_any_increment_in_range_capped_at_three():
    h = spread_hand([500, 500, 500])
    h.act(3, "bring_in")
    assert h.pot_total() == c(16)
    h.act(1, "raise", 40)
    with pytest.raises(InvalidAmount, match="seat 2 cannot raise to 100.00"):
        h.act(2, "raise", 100)
    assert stud.apply(h.state, {"type": "raise", "seat": 2, "to": c(60)}).bet_to == c(60)  # +20 is fine
    h.acts((2, "raise", 80), (3, "raise", 130))
    assert set(h.legal()) == {"fold", "call"}
    h.acts((1, "call"), (2, "call"))
    assert h.pot_total() == c(396)


def test_d13_previous_increment_option_refuses_a_smaller_raise():
    h = spread_hand([500, 500, 500], spread_min_raise="previous_increment")
    h.acts((3, "bring_in"), (1, "raise", 40))
    with pytest.raises(InvalidAmount):
        h.act(2, "raise", 60)
    assert h.legal()["raise"]["min"] == c(70)


def test_spread_low_card_may_open_up_to_the_maximum():
    h = spread_hand([500, 500, 500])
    legal = h.legal()
    assert legal["bring_in"]["min"] == c(10) and legal["complete"]["max"] == c(50)
    h.act(3, "complete", 35)
    assert h.legal()["raise"]["min"] == c(45)


def test_d15_short_all_in_raise_in_spread_does_not_reopen():
    h = spread_hand([500, 47, 500])
    h.acts((3, "bring_in"), (1, "raise", 40), (2, "raise", 45))
    legal = h.legal()
    assert (legal["raise"]["min"], legal["raise"]["max"]) == (c(55), c(95))
    assert h.view["raises_left"] == 2  # the short all-in is not a raise
    h.act(3, "call")
    assert set(h.legal()) == {"fold", "call"} and h.legal()["call"]["min"] == c(5)


@pytest.mark.parametrize(
    "rule,p3_range,p1_can_raise",
    [("table_min", (65, 105), True), ("previous_increment", (85, 105), False)],
)
def test_d15_all_in_for_55_depends_on_the_min_raise_rule(rule, p3_range, p1_can_raise):
    h = spread_hand([500, 57, 500], spread_min_raise=rule)
    h.acts((3, "bring_in"), (1, "raise", 40), (2, "raise", 55))
    legal = h.legal()
    assert (legal["raise"]["min"], legal["raise"]["max"]) == (c(p3_range[0]), c(p3_range[1]))
    h.act(3, "call")
    assert ("raise" in h.legal()) == p1_can_raise


# ----------------------------------------------------------------------------- E out of cards


def deal_to_seventh(n: int, folds_on_third: int = 0, **cfg) -> Hand:
    from rules.engines.cards import CARDS

    deck = [str(x) for x in CARDS][::-1]  # aces first: the deuces stay for the end
    h = Hand(n, **cfg).antes()
    if cfg.get("burn_before_first_deal"):
        h.ev({"type": "burn"})
    h.deal({s: " ".join(deck.pop() for _ in range(3)) for s in range(1, n + 1)})
    h.act(h.state.to_act_seat, "bring_in")
    folded = 0
    while h.state.phase == "betting":
        seat = h.state.to_act_seat
        if folded < folds_on_third and seat != h.state.seats[h.state.bring_in_idx]:
            h.act(seat, "fold")
            folded += 1
        else:
            h.act(seat, "call")
    for _street in (4, 5, 6):
        live = [s for s in range(1, n + 1) if not h.state.folded[h.state.pos[s]]]
        h.deal({s: deck.pop() for s in live})
        while h.state.phase == "betting":
            h.act(h.state.to_act_seat, "check")
    h.deck = deck
    return h


@pytest.mark.parametrize(
    "vid,n,folds,cfg,mode,stub",
    [
        ("E1", 8, 0, {}, "community", 1),
        ("E2", 8, 0, {"burn_before_first_deal": True}, "community", 0),
        ("E3", 7, 0, {}, "community", 7),
        ("E3-rrop", 7, 0, {"out_of_cards_policy": "rrop_reshuffle"}, "reshuffle", 7),
        ("E4", 8, 1, {}, "community", 4),
        ("E4-rrop", 8, 1, {"out_of_cards_policy": "rrop_reshuffle"}, "community", 4),
        ("E5", 8, 2, {}, "normal", 7),
        ("E5-no-last-card", 8, 2, {"use_last_card": False}, "community", 7),
    ],
)
def test_seventh_street_deck_accounting(vid, n, folds, cfg, mode, stub):
    h = deal_to_seventh(n, folds, **cfg)
    assert h.state.street == 7 and _stub(h.state) == stub
    assert h.state.seventh_mode == mode
    assert h.view["expect"] == ("deal_community" if mode == "community" else "deal")


def test_e1_community_card_is_shared_and_counts_on_every_board():
    h = deal_to_seventh(8)
    with pytest.raises(IllegalAction, match="community card"):
        h.ev({"type": "deal", "seat": 1, "cards": h.deck[-1]})
    burns = h.state.burns
    h.ev({"type": "deal_community", "card": h.deck.pop()})
    assert h.state.burns == burns  # S = 1: the last card is turned without a burn
    assert h.view["community"] is not None and h.view["expect"] == "action"
    while h.state.phase == "betting":
        h.act(h.state.to_act_seat, "check")
    show_all(h)
    stud.settlement(h.state).check_balanced()


def test_e3_community_card_after_a_burn():
    h = deal_to_seventh(7)
    burns = h.state.burns
    h.ev({"type": "deal_community", "card": h.deck.pop()})
    assert h.state.burns == burns + 1


# ----------------------------------------------------------------------------- B8 all-in high board


@pytest.mark.parametrize("opener,first", [("next_clockwise", 2), ("next_highest_board", 3)])
def test_b8_all_in_high_board_passes_the_first_action(opener, first):
    h = Hand([6, 200, 200], allin_high_board_opener=opener).antes()
    h.deal({1: "Ah 8d Ac", 2: "9h 9s Qc", 3: "Td 2d Kc"})
    h.acts((2, "bring_in"), (3, "call"), (1, "call"))  # S1 is all-in
    assert h.view["all_in"] == [1]
    h.deal({1: "Ad", 2: "Jd", 3: "9d"})
    while h.state.phase == "betting":
        h.act(h.state.to_act_seat, "check")
    h.deal({1: "5c", 2: "6s", 3: "7s"})
    assert h.view["to_act"] == first


# ----------------------------------------------------------------------------- F1-F3 bring-in modes

PARTIAL = {"bring_in_mode": "partial_with_completion", "bring_in": "2"}


def test_f1_completion_is_the_bet_and_three_raises_follow():
    h = scenario_a(**PARTIAL).act(3, "bring_in")
    legal = h.legal()
    assert set(legal) == {"fold", "call", "complete"}
    assert legal["call"]["min"] == c(2) and legal["complete"]["amounts"] == [c(5)]
    with pytest.raises(IllegalAction, match="seat 4 cannot raise"):
        h.act(4, "raise", 10)
    h.acts((4, "complete", 5), (1, "raise", 10), (2, "raise", 15), (3, "raise", 20))
    assert set(h.legal()) == {"fold", "call"}
    h.acts((4, "call"), (1, "call"), (2, "call"))
    assert h.pot_total() == c(84)


def test_f2_bring_in_called_round_gives_no_option():
    h = scenario_a(**PARTIAL).acts((3, "bring_in"), (4, "call"), (1, "call"), (2, "call"))
    assert h.view["street"] == 4 and h.view["expect"] == "deal"
    assert h.pot_total() == c(12)


def test_f3_open_pair_off_keeps_fourth_street_at_the_lower_limit():
    h = d1(scenario_a(open_pair_option="off")).deal(SCENARIO_A_4TH)
    assert h.legal()["bet"]["amounts"] == [c(5)]
    h.act(1, "bet", 5)
    assert h.legal()["raise"]["amounts"] == [c(10)]


def test_low_card_may_complete_at_once_under_partial_mode():
    h = scenario_a(**PARTIAL)
    assert h.legal()["complete"]["amounts"] == [c(5)]
    h.act(3, "complete", 5)
    assert h.legal()["raise"]["amounts"] == [c(10)]


# ----------------------------------------------------------------------------- short bring-in / antes


@pytest.mark.parametrize("mode,legal_raise", [("complete_to_lower_limit", ("complete", 5)), ("half_bet_rule", ("raise", 8))])
def test_short_bring_in_posts_everything(mode, legal_raise):
    h = Hand([4, 200, 200, 200], short_bring_in=mode).antes().deal(
        {1: "Ah Kc 2c", 2: "9d 9c Kd", 3: "4s 7h 5c", 4: "Jd Td 3h"})
    assert h.view["to_act"] == 1
    h.act(1, "bring_in")
    assert h.view["all_in"] == [1] and h.view["bet_to"] == c(3)
    kind, to = legal_raise
    assert h.legal()[kind]["amounts"] == [c(to)]


def test_ante_trimming_caps_the_main_pot_for_a_short_ante():
    h = Hand([0.5, 200, 200]).antes()
    assert h.view["pots"][0] == {"amount": c(1.5), "eligible": [1, 2, 3]}
    assert h.view["pots"][1] == {"amount": c(1), "eligible": [2, 3]}


def test_ante_of_the_wrong_amount_is_refused():
    h = Hand(3)
    with pytest.raises(InvalidAmount, match="seat 1 cannot post an ante: the ante is 1.00"):
        h.ev({"type": "ante", "seat": 1, "amount": c(2)})


# ----------------------------------------------------------------------------- errors leave state unchanged


def test_rule_breaks_raise_named_errors_and_leave_the_state_alone():
    h = scenario_a()
    before = stud.view(h.state)
    with pytest.raises(OutOfTurn, match="seat 4 cannot call: it is seat 3's turn"):
        h.act(4, "call")
    with pytest.raises(UnknownEvent):
        h.ev({"type": "shuffle"})
    with pytest.raises(UnknownEvent):
        h.ev({"type": "call"})
    assert stud.view(h.state) == before


def test_card_errors():
    h = Hand(3).antes()
    with pytest.raises(InvalidCard):
        h.ev({"type": "deal", "seat": 1, "cards": "Zz 2c 3c"})
    h.ev({"type": "deal", "seat": 1, "cards": "As Kd Qh"})
    with pytest.raises(DuplicateCard, match="As"):
        h.ev({"type": "deal", "seat": 2, "cards": "As 2c 3c"})
    with pytest.raises(IllegalAction):
        h.ev({"type": "deal", "seat": 2, "cards": "2c 3c 4c 5c"})


def test_event_after_the_end_is_refused():
    h = scenario_a().acts((3, "bring_in"), (4, "fold"), (1, "fold"), (2, "fold"))
    with pytest.raises(HandComplete):
        h.act(2, "call")


def test_fold_is_refused_when_check_is_possible():
    h = d1(scenario_a()).deal(SCENARIO_A_4TH)
    with pytest.raises(IllegalAction, match="seat 1 cannot fold"):
        h.act(1, "fold")


# ----------------------------------------------------------------------------- floor events, unknown cards


def test_misdeal_returns_every_chip_before_two_players_act():
    h = scenario_a().acts((3, "bring_in"), (4, "call"))
    h.ev({"type": "misdeal"})
    st = stud.settlement(h.state)
    assert all(v == 0 for v in st.net.values()) and h.view["void"]


def test_misdeal_is_refused_once_two_players_have_acted():
    h = scenario_a().acts((3, "bring_in"), (4, "call"), (1, "call"))
    with pytest.raises(IllegalAction, match="R12.1"):
        h.ev({"type": "misdeal"})


def test_exposed_down_card_makes_the_third_card_face_down():
    h = Hand(3).antes()
    h.ev({"type": "deal", "seat": 1, "cards": "As"}).ev({"type": "card_exposed", "seat": 1, "card": "As"})
    assert stud.legal_actions(h.state)[0]["faces"] == ["down", "down"]
    h.ev({"type": "deal", "seat": 1, "cards": "Kd 2c"})
    assert h.view["boards"][1] == "As" and h.view["down_cards"][1] == 2


def test_both_down_cards_exposed_kill_the_hand_and_return_the_ante():
    h = Hand(3).antes()
    h.ev({"type": "deal", "seat": 1, "cards": "As Kd", "face": "up"})
    assert h.view["folded"] == [1] and h.view["returned"][1] == c(1)


def test_unknown_down_cards_are_named_at_the_showdown():
    h = Hand(2).antes().deal({1: "?? ?? 9c", 2: "?? ?? 8c"})
    h.acts((2, "bring_in"), (1, "call"))
    check_down(h, [{1: "9d", 2: "8d"}, {1: "Tc", 2: "Td"}, {1: "Jc", 2: "Jd"}, {1: "??", 2: "??"}])
    assert h.view["to_act"] == 1
    with pytest.raises(IllegalAction, match="not known"):
        h.act(1, "show")
    with pytest.raises(DuplicateCard):
        h.ev({"type": "show", "seat": 1, "cards": "9c 9d Tc Jc 8c 2s 3s"})
    shown = stud.apply(h.state, {"type": "show", "seat": 1, "cards": "As Ah 9c 9d Tc Jc 2s"})
    done = stud.apply(shown, {"type": "muck", "seat": 2})
    assert stud.settlement(done).awards[1] == c(12)
    mucked = stud.apply(h.state, {"type": "muck", "seat": 1})
    assert stud.settlement(mucked).awards[2] == c(12)  # the last hand wins unshown (R1.5)


def test_side_pot_player_cannot_muck_when_nobody_else_can_win_it():
    h = Hand([15, 200, 200]).antes().deal({1: "Ac Ad 9c", 2: "6c 6d 8c", 3: "Qc Qd Tc"})
    h.acts((2, "bring_in"), (3, "call"), (1, "call"))
    h.deal({1: "3s", 2: "4d", 3: "5d"}).acts((3, "bet", 5), (1, "call"), (2, "call"))
    h.deal({1: "Jd", 2: "Ks", 3: "4s"}).acts((2, "bet", 10), (3, "call"), (1, "call"))
    h.deal({1: "6h", 2: "7h", 3: "9h"}).acts((2, "bet", 10), (3, "call"))
    h.deal({1: "As", 2: "Qs", 3: "Th"}).acts((2, "check"), (3, "check"))
    h.act(2, "muck")
    assert {a["type"] for a in stud.legal_actions(h.state)} == {"show"}
    with pytest.raises(IllegalAction, match="seat 3 cannot muck: it is the last hand that can win side pot 1"):
        h.act(3, "muck")
    show_all(h)
    assert h.stacks() == [c(45), c(169), c(201)]


def test_replay_is_deterministic_and_reports_the_event_index():
    events = [{"type": "ante", "seat": s} for s in (1, 2, 3, 4)] + [
        {"type": "deal", "seat": s, "cards": t} for s, t in SCENARIO_A_3RD.items()] + [
        {"type": "bring_in", "seat": 3}, {"type": "call", "seat": 4}]
    cfg = stud.build_config({"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "0"})
    seats = {s: c(200) for s in (1, 2, 3, 4)}
    a = stud.replay(cfg, seats, events, button=4)
    b = stud.replay(cfg, seats, events, button=4)
    assert stud.view(a) == stud.view(b)
    with pytest.raises(OutOfTurn) as info:
        stud.replay(cfg, seats, events + [{"type": "call", "seat": 4}], button=4)
    assert info.value.extra["event_index"] == 10 and str(info.value).startswith("event 10 (call)")


def test_button_decides_who_is_seat_one():
    cfg = {"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "0"}
    s = stud.new_hand(cfg, {2: 100, 5: 100, 7: 100}, button=5)
    assert s.seats == (7, 2, 5)
    assert stud.next_button([2, 5, 7], 5) == 7 and stud.next_button([2, 5, 7], 7) == 2
