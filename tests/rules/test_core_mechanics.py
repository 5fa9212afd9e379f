"""The shared mechanics of rules/core/ (issue 14): seats, the betting round's arithmetic, pots and the odd
chip, the house take, and the config money helper. The engines' own tests and the PokerKit equivalence cover them inside hands; these
pin the shared functions themselves."""

from __future__ import annotations

from decimal import Decimal

import pytest

from rules.core.betting import is_capped, is_full_wager, must_act
from rules.core.house_take import ROUNDINGS, HouseTake
from rules.core.pots import side_pots, split_high_low, split_shares, uncalled
from rules.core.seats import CLOCKWISE_POSITIONS, clockwise_after, parse_seat, seat_number
from rules.engines.errors import ConfigError, IllegalAction, UnknownEvent
from rules.engines.money import config_cents

# --- the betting round (stud R6.2/R6.5/R6.6/R10.3, Forty-one B.4 steps 3-7, B.4a) ----------------------------


def test_a_full_unit_over_the_last_full_wager_is_full_under_either_rule():
    for rule in ("half_bet", "full_bet"):
        assert is_full_wager(20, last_full=10, half_from=10, unit=10, short_allin_rule=rule)
        assert not is_full_wager(12, last_full=10, half_from=10, unit=10, short_allin_rule=rule)


def test_a_short_all_in_of_half_a_unit_is_full_only_under_half_bet():
    assert is_full_wager(15, last_full=10, half_from=10, unit=10, short_allin_rule="half_bet")
    assert not is_full_wager(15, last_full=10, half_from=10, unit=10, short_allin_rule="full_bet")
    assert not is_full_wager(14, last_full=10, half_from=10, unit=10, short_allin_rule="half_bet")


def test_the_half_unit_is_measured_from_the_level_each_rule_sheet_names():
    # a bet of 10, a short all-in to 13 (not full), then an all-in to 16: it adds 3 over the current bet
    # (stud R6.5/R10.3: not full) but 6 over the last full wager (Forty-one B.4a: full)
    assert not is_full_wager(16, last_full=10, half_from=13, unit=10, short_allin_rule="half_bet")
    assert is_full_wager(16, last_full=10, half_from=10, unit=10, short_allin_rule="half_bet")


def test_the_cap_counts_raises_and_none_means_no_cap():
    assert not is_capped(2, 3)
    assert is_capped(3, 3)
    assert is_capped(0, 0)
    assert not is_capped(99, None)


def test_a_seat_acts_until_it_has_matched_the_bet_after_the_last_full_wager():
    assert must_act(folded=False, stack=100, acted=False, behind=False)
    assert must_act(folded=False, stack=100, acted=True, behind=True)
    assert not must_act(folded=False, stack=100, acted=True, behind=False)
    assert not must_act(folded=True, stack=100, acted=False, behind=True)
    assert not must_act(folded=False, stack=0, acted=False, behind=True)  # all-in: never acts again


# --- seats --------------------------------------------------------------------------------------------


def test_seat_number_reads_ints_and_digit_strings_only_when_asked():
    assert seat_number(3) == 3
    assert seat_number(True) is None
    assert seat_number("3") is None
    assert seat_number("3", digits=True) == 3
    assert seat_number("1234567", digits=True) is None
    assert seat_number("３", digits=True) is None  # not ASCII
    assert seat_number(None) is None


def test_parse_seat_raises_the_games_own_refusals():
    def not_a_seat() -> Exception:
        return UnknownEvent("no seat")

    def not_dealt(seat: int) -> Exception:
        return IllegalAction(f"seat {seat} is not dealt in", seat=seat)

    assert parse_seat({"seat": 4}, (2, 4), not_a_seat=not_a_seat, not_dealt=not_dealt) == 4
    with pytest.raises(UnknownEvent, match="no seat"):
        parse_seat({"seat": "4"}, (2, 4), not_a_seat=not_a_seat, not_dealt=not_dealt)
    assert parse_seat({"seat": "4"}, (2, 4), not_a_seat=not_a_seat, not_dealt=not_dealt, digits=True) == 4
    with pytest.raises(IllegalAction, match="seat 5 is not dealt in"):
        parse_seat({"seat": 5}, (2, 4), not_a_seat=not_a_seat, not_dealt=not_dealt)


def test_clockwise_positions_match_clockwise_after():
    for n in range(2, 9):
        for i in range(n):
            assert list(CLOCKWISE_POSITIONS[n][i]) == clockwise_after(range(n), i)


# --- pots ---------------------------------------------------------------------------------------------


def test_uncalled_is_the_top_amount_over_the_second():
    assert uncalled([100, 300, 200]) == (1, 100)
    assert uncalled([300, 300, 200]) == (0, 0)
    assert uncalled([50]) == (0, 0)


def test_side_pots_cut_at_the_all_in_levels_main_pot_first():
    # seat 0 all-in for 100, seat 1 folded after 150, seats 2 and 3 in for 400
    amounts, live = [100, 150, 400, 400], [True, False, True, True]
    assert side_pots(amounts, live, [100]) == [(400, (0, 2, 3)), (650, (2, 3))]
    # cut at every total: the same pots (adjacent pots open to the same seats are one)
    assert side_pots(amounts, live, amounts) == [(400, (0, 2, 3)), (650, (2, 3))]
    # dead money goes to the main pot
    assert side_pots(amounts, live, [100], dead=30) == [(430, (0, 2, 3)), (650, (2, 3))]
    assert side_pots([0, 0], [True, True], [], dead=30) == [(30, (0, 1))]


def test_chips_nobody_live_can_win_go_to_the_pot_below():
    # seat 1 folded after putting in more than anyone live (Forty-one cuts at every total)
    assert side_pots([100, 300, 100], [True, False, True], [100, 300, 100]) == [(500, (0, 2))]


def test_split_shares_gives_odd_units_in_the_odd_chip_order():
    assert split_shares(700, [1], [1], 100) == [(1, 700)]
    assert split_shares(700, [0, 2], [2, 0], 100) == [(0, 300), (2, 400)]
    # a remainder below one unit goes to the first in the order
    assert split_shares(750, [0, 2], [0, 2], 100) == [(0, 450), (2, 300)]


def test_split_high_low_gives_the_odd_chip_to_the_high_half():
    assert split_high_low(1000, 100) == (500, 500)
    assert split_high_low(1100, 100) == (600, 500)


# --- the house take -----------------------------------------------------------------------------------


def test_house_take_rounds_by_name_to_whole_steps():
    assert HouseTake(rate=Decimal("0.05")).on(1800) == 90
    assert HouseTake(rate=Decimal("0.05"), step=50).on(1800) == 50
    assert HouseTake(rate=Decimal("0.05"), rounding="floor").on(3710) == 185
    assert HouseTake(rate=Decimal("0.05"), rounding="half_up").on(3710) == 186
    assert HouseTake(flat=200).on(12345) == 200
    assert HouseTake(rate=Decimal("0.05"), cap=60).capped(1800) == 60
    assert set(ROUNDINGS) == {"down", "floor", "half_up"}



def test_house_take_integer_path_is_the_decimal_rounding():
    """The integer path of HouseTake.on gives the Decimal computation's take (issue 19): every rounding,
    halves and near-halves, steps, rates of many digits, and bases beyond the integer path's bound."""
    rates = ["0", "0.05", "0.07", "0.033", "0.5", "0.125", "0.999999", "0.0001", "0.05000", "1E-7", "0.3333333333", "0E+3"]
    bases = [0, 1, 2, 49, 50, 51, 99, 100, 1799, 1800, 3710, 10**6 + 7, 10**15 + 3, 10**19 + 11]
    for rate in rates:
        for step in (1, 3, 5, 50, 100, 99999):
            for rounding in ROUNDINGS:
                policy = HouseTake(rate=Decimal(rate), step=step, rounding=rounding)
                for base in [*bases, step // 2, step + step // 2, 20 * step + step // 2]:
                    exact = Decimal(base) * Decimal(rate) / step
                    assert policy.on(base) == int(exact.to_integral_value(rounding=ROUNDINGS[rounding])) * step, (rate, step, rounding, base)

def test_house_take_from_pots_by_each_rule():
    pots = [1000, 600]
    assert HouseTake(flat=300).from_pots(pots) == [300, 0]
    assert HouseTake(flat=2000).from_pots(pots) == [1000, 0]  # main_pot: never more than the main pot
    assert HouseTake(flat=320, from_pots_rule="pro_rata").from_pots(pots) == [200, 120]
    assert HouseTake(flat=5, from_pots_rule="pro_rata").from_pots(pots) == [4, 1]  # remainder from the main pot
    per_pot = HouseTake(rate=Decimal("0.10"), cap=130, from_pots_rule="per_pot_main_first")
    assert per_pot.from_pots(pots) == [100, 30]  # the cap per game runs out in the side pot
    total = HouseTake(rate=Decimal("0.10"), cap=1000, from_pots_rule="total_from_main_pot")
    assert total.from_pots([50, 600]) == [50, 15]  # 10 % of 650, from the main pot first
    assert HouseTake(rate=Decimal("0.10"), from_pots_rule="per_pot_main_first").from_pots(pots, [800, 600]) == [80, 60]
    assert HouseTake(flat=0).from_pots(pots) == [0, 0]
    assert HouseTake(flat=300).from_pots([]) == []


# --- config money -------------------------------------------------------------------------------------


def test_config_cents_refuses_as_a_config_error_of_the_field():
    assert config_cents("12.50", "ante") == 1250
    with pytest.raises(ConfigError) as err:
        config_cents("1.005", "ante")
    assert err.value.field == "ante"
    assert str(err.value.message) == "ante: '1.005' has more than two decimals"
