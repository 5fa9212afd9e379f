"""Seven Card Stud: what a croupier sees when an event is wrong, and engine-level checks of spec §13/§14.

Every bad event must raise a :class:`RuleViolation` subclass whose message names the seat (when the event
has a valid one), the action and the spec rule, and must leave the hand exactly as it was (``view()``
before == after). Also: A1-A3 and B1-B6 through the engine (the board tests cover the evaluator only), D9's
re-raise after a call, every ``[decision]`` key of §13 with the spec's default, and PHH files that are
malformed in their header or actions (an error naming the field or the action index, never a traceback).
"""

from __future__ import annotations

import re

import pytest

from rules.engines import stud
from rules.engines.errors import (
    DuplicateCard,
    HandComplete,
    IllegalAction,
    InvalidAmount,
    InvalidCard,
    OutOfTurn,
    RuleViolation,
    UnknownEvent,
)
from rules.engines.phh import PhhError, loads_phh, replay_phh_hand
from tests.rules.test_stud_engine import SCENARIO_A_4TH, d1, scenario_a, spread_hand
from tests.rules.test_stud_engine_support import Hand, c

RULE = re.compile(r"\(R\d+(\.\d+)?\)")


def bring_in_posted() -> Hand:
    return scenario_a().act(3, "bring_in")


def capped_third() -> Hand:
    return bring_in_posted().acts((4, "raise", 10), (1, "raise", 15), (2, "raise", 20))


def fourth_dealt() -> Hand:
    return d1(scenario_a()).deal(SCENARIO_A_4TH)


def fourth_dealing() -> Hand:
    return d1(scenario_a())


def spread_opened() -> Hand:
    return spread_hand([500, 500, 500]).act(3, "bring_in")


def finished() -> Hand:
    return scenario_a().acts((3, "bring_in"), (4, "fold"), (1, "fold"), (2, "fold"))


def antes_due() -> Hand:
    return Hand(3).ev({"type": "ante", "seat": 1})


# (name, hand builder, event, error class, seat named, words the message must contain)
CASES = [
    ("out_of_turn", bring_in_posted, {"type": "call", "seat": 1}, OutOfTurn, 1, ["call", "seat 4's turn"]),
    ("fourth_raise", capped_third, {"type": "raise", "seat": 3, "to": c(25)}, IllegalAction, 3,
     ["raise", "capped", "R6.2"]),
    ("raise_off_the_limit", bring_in_posted, {"type": "raise", "seat": 4, "to": c(12)}, InvalidAmount, 4,
     ["raise to 12.00", "10.00"]),
    ("bet_over_the_spread_max", spread_opened, {"type": "raise", "seat": 1, "to": c(70)}, InvalidAmount, 1,
     ["raise to 70.00", "R7.1"]),
    ("negative_amount", bring_in_posted, {"type": "raise", "seat": 4, "to": -1000}, InvalidAmount, 4,
     ["raise", "-10.00"]),  # the amount as money, not the raw cents (issue 18)
    ("float_amount", bring_in_posted, {"type": "raise", "seat": 4, "to": 1000.0}, UnknownEvent, 4,
     ["raise", "1000.0", "cents"]),
    ("bool_amount", bring_in_posted, {"type": "raise", "seat": 4, "to": True}, UnknownEvent, 4, ["raise", "True"]),
    ("str_amount", bring_in_posted, {"type": "raise", "seat": 4, "to": "10.00"}, UnknownEvent, 4,
     ["raise", "'10.00'"]),
    ("missing_amount", bring_in_posted, {"type": "raise", "seat": 4}, UnknownEvent, 4,
     ["raise", "the amount is missing", "'to'", "total"]),
    ("negative_ante", antes_due, {"type": "ante", "seat": 2, "amount": -100}, InvalidAmount, 2, ["ante"]),
    ("float_ante", antes_due, {"type": "ante", "seat": 2, "amount": 1.0}, UnknownEvent, 2, ["ante"]),
    ("unknown_type_with_a_seat", bring_in_posted, {"type": "shuffle", "seat": 4}, UnknownEvent, 4, ["shuffle"]),
    ("key_the_event_does_not_take", bring_in_posted, {"type": "call", "seat": 4, "to": c(99)}, UnknownEvent, 4,
     ["call", "does not take 'to'"]),
    ("misspelt_amount_key", antes_due, {"type": "ante", "seat": 2, "amout": 100}, UnknownEvent, 2,
     ["ante", "'amout'"]),
    ("card_twice_in_one_deal", lambda: Hand(3).antes(), {"type": "deal", "seat": 1, "cards": "As As Kd"},
     DuplicateCard, 1, ["As", "R1.1"]),
    ("card_dealt_to_another_seat", fourth_dealing, {"type": "deal", "seat": 1, "cards": "9d"}, DuplicateCard, 1,
     ["9d", "already dealt to seat 2", "R1.1"]),
    ("card_not_in_the_deck", fourth_dealing, {"type": "deal", "seat": 1, "cards": "1x"}, InvalidCard, 1,
     ["1x", "not a card"]),
    ("card_id_off_the_deck", fourth_dealing, {"type": "deal", "seat": 1, "cards": [52]}, InvalidCard, 1, ["52"]),
    ("missing_cards", fourth_dealing, {"type": "deal", "seat": 1}, UnknownEvent, 1, ["dealt", "cards"]),
    ("bad_face", fourth_dealing, {"type": "deal", "seat": 1, "cards": "Qh", "face": "sideways"}, UnknownEvent, 1,
     ["sideways"]),
    ("burned_card_dealt", lambda: fourth_dealing().ev({"type": "burn", "card": "3c"}),
     {"type": "deal", "seat": 1, "cards": "3c"}, DuplicateCard, 1, ["3c", "R1.1"]),
    ("event_after_the_hand_completed", finished, {"type": "call", "seat": 2}, HandComplete, 2, ["call", "over"]),
    ("deal_after_the_hand_completed", finished, {"type": "deal", "seat": 2, "cards": "3c"}, HandComplete, 2,
     ["over"]),
    ("check_facing_the_bring_in", bring_in_posted, {"type": "check", "seat": 4}, IllegalAction, 4,
     ["check", "must be called", "R4.3"]),
    ("bring_in_by_the_wrong_seat", scenario_a, {"type": "bring_in", "seat": 1}, OutOfTurn, 1,
     ["bring it in", "seat 3", "R4.1"]),
    ("low_card_checks", scenario_a, {"type": "check", "seat": 3}, IllegalAction, 3, ["check", "R4.2"]),
    # full_bet: a declared raise with no amount before the bring-in names R4.2, not partial's R4.6 (break test)
    ("low_card_raises_without_an_amount", scenario_a, {"type": "raise", "seat": 3}, UnknownEvent, 3,
     ["the amount is missing", "R4.2"]),
    ("low_card_completes_without_an_amount_under_partial", lambda: scenario_a(
        bring_in_mode="partial_with_completion", bring_in="2"), {"type": "complete", "seat": 3}, UnknownEvent, 3,
     ["the amount is missing", "R4.6"]),
    ("fold_when_check_is_possible", fourth_dealt, {"type": "fold", "seat": 1}, IllegalAction, 1, ["fold"]),
    ("bet_when_a_raise_is_due", bring_in_posted, {"type": "bet", "seat": 4, "to": c(10)}, IllegalAction, 4,
     ["bet", "raise"]),
    ("off_limit_fourth_street_bet", fourth_dealt, {"type": "bet", "seat": 1, "to": c(7)}, InvalidAmount, 1,
     ["bet to 7.00", "R6.4"]),
]


@pytest.mark.parametrize("name,build,event,error,seat,words", CASES, ids=[x[0] for x in CASES])
def test_bad_event_is_refused_with_a_croupier_message_and_no_change(name, build, event, error, seat, words):
    h = build()
    before = stud.view(h.state)
    with pytest.raises(error) as info:
        stud.apply(h.state, event)
    exc = info.value
    assert isinstance(exc, RuleViolation)
    message = str(exc)
    assert message.startswith(f"seat {seat} cannot "), message
    assert exc.seat == seat
    if name not in ("unknown_type_with_a_seat", "key_the_event_does_not_take", "misspelt_amount_key"):
        # no rule names an event type or a key the engine does not have
        assert RULE.search(message) and exc.rule, message
    for word in words:
        assert word in message, (word, message)
    assert "None" not in message, message  # issue 13: a missing amount is said so, not "got None"
    assert stud.view(h.state) == before


def test_replay_in_place_errors_carry_the_same_message_with_the_event_index():
    h = bring_in_posted()
    cfg = h.state.cfg
    seats = dict(zip(h.state.seats, h.state.start))
    events = [{"type": "ante", "seat": s} for s in (1, 2, 3, 4)] + [
        {"type": "deal", "seat": s, "cards": t} for s, t in {1: "Ah Kc Qs", 2: "9d 9c Kd", 3: "4s 7h 2c",
                                                             4: "Jd Td 2h"}.items()] + [
        {"type": "bring_in", "seat": 3}, {"type": "raise", "seat": 4, "to": -5}]
    with pytest.raises(InvalidAmount) as info:
        stud.replay(cfg, seats, events, button=4)
    assert str(info.value).startswith("event 9 (raise): seat 4 cannot raise")


def test_copy_copies_every_slot():
    h = fourth_dealt()
    s = h.state
    t = s.copy()
    for name in stud.StudState.__slots__:
        assert getattr(t, name) == getattr(s, name), name
        if isinstance(getattr(s, name), (list, set)):
            assert getattr(t, name) is not getattr(s, name), name


# ----------------------------------------------------------------------------- §14 A1-A3, B1-B6 through the engine


@pytest.mark.parametrize("vid,doors,low", [
    ("A1", ["Kd", "2h", "2c", "7s"], 3),
    ("A2", ["As", "3d", "3h"], 2),
    ("A3", ["5s", "5h", "5d", "5c"], 4),
])
def test_lowest_door_card_brings_it_in(vid, doors, low):
    h = Hand(len(doors)).antes()
    fill = iter(("Tc Td", "Th Ts", "Jc Jd", "Jh Js"))
    for k, door in enumerate(doors):
        h.ev({"type": "deal", "seat": k + 1, "cards": f"{next(fill)} {door}"})
    assert h.view["to_act"] == low and h.legal()["bring_in"]["seat"] == low


# boards per seat (4th street: 2 up cards; 6th: 4 up cards), expected first to act
B_CASES = [
    ("B1", ["Ah Kd", "7c 7d", "Qs Qh"], {}, 3),
    ("B2", ["Jc 4d", "Kc 9d", "Th 2s", "Ks 9h"], {}, 2),
    ("B2-suit", ["Jc 4d", "Kc 9d", "Th 2s", "Ks 9h"], {"high_board_tiebreak": "suit"}, 4),
    ("B3", ["4h 7h 9h Jh", "5c 6d 7s 8h", "Ac Kd 3h 9s"], {}, 3),
    ("B4", ["4h 7h 9h Jh", "5c 6d 7s 8h", "Ac Kd 3h 9s", "2c 2d 5s 8c"], {}, 4),
    ("B5", ["Ks Kh 4c 4d", "3c 3d 3h 9s", "2c 2d 2h 2s"], {}, 3),
    ("B5-without-S3", ["Ks Kh 4c 4d", "3c 3d 3h 9s"], {}, 2),
    ("B6", ["Jc Jd 9s 2h", "Jh Js 9c 5d"], {}, 2),
]


@pytest.mark.parametrize("vid,boards,cfg,first", B_CASES, ids=[b[0] for b in B_CASES])
def test_highest_board_acts_first(vid, boards, cfg, first):
    # B2 in the spec has seats 1, 2, 3, 5 (no S4): here the 4th board is seat 4, so the suit winner is 4.
    n = len(boards)
    ups = [b.split() for b in boards]
    used = {x for b in ups for x in b}
    spare = [f"{r}{s}" for r in "AKQJT98765432" for s in "cdhs" if f"{r}{s}" not in used]
    h = Hand(n, **cfg).antes()
    for k in range(n):
        h.ev({"type": "deal", "seat": k + 1, "cards": f"{spare.pop()} {spare.pop()} {ups[k][0]}"})
    h.act(h.state.to_act_seat, "bring_in")
    while h.state.phase == "betting":
        h.act(h.state.to_act_seat, "call")
    for street in range(1, len(ups[0])):
        for k in range(n):
            h.ev({"type": "deal", "seat": k + 1, "cards": ups[k][street]})
        if street < len(ups[0]) - 1:
            while h.state.phase == "betting":
                h.act(h.state.to_act_seat, "check")
    assert h.view["to_act"] == first


def test_d9_bettor_may_reraise_after_a_call_of_the_full_all_in_raise():
    from tests.rules.test_stud_engine import d9_fifth

    h = d9_fifth().acts((2, "bet", 10), (3, "raise", 16), (1, "call"))
    assert h.view["to_act"] == 2 and h.legal()["raise"]["amounts"] == [c(26)]


# ----------------------------------------------------------------------------- §13 decision keys and defaults

SPEC_DEFAULTS = {
    "limit_type": "split", "ante_trimming": True, "bring_in_mode": "full_bet", "bring_in_may_fold": False,
    "short_bring_in": "complete_to_lower_limit", "spread_bring_in_may_exceed_min": True, "raise_cap": 3,
    "uncap_heads_up": False, "open_pair_option": "on", "open_pair_scope": "any_player",
    "open_pair_check": "at_deal", "high_board_tiebreak": "position", "board_counts_straights_flushes": False,
    "allin_high_board_opener": "next_clockwise", "short_allin_rule": "half_bet", "spread_min_raise": "table_min",
    "spread_short_allin_reopens": False, "taxe_mode": "flat", "taxe_from": "main_pot",
    "burn_before_first_deal": False, "out_of_cards_policy": "community_card", "use_last_card": True,
    "odd_chip_rule": "high_card_by_suit", "chip_unit": 100,
}


def test_every_section_13_key_has_the_spec_default():
    cfg = stud.build_config({"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "0"})
    for key, default in SPEC_DEFAULTS.items():
        assert getattr(cfg, key) == default, key


@pytest.mark.parametrize("missing", ["lower", "higher", "ante", "taxe_amount"])
def test_required_keys_have_no_default(missing):
    raw = {"lower": "5", "higher": "10", "ante": "1", "taxe_amount": "0"}
    del raw[missing]
    with pytest.raises(RuleViolation, match=missing):
        stud.build_config(raw)


# ----------------------------------------------------------------------------- PHH files broken by hand

GOOD = """variant = 'F7S'
ante_trimming_status = true
antes = [50000, 50000]
bring_in = 50000
small_bet = 200000
big_bet = 400000
starting_stacks = [1000000, 1000000]
actions = ['d dh p1 QhTcTh', 'd dh p2 JsJc2c', 'p2 pb', 'p1 cbr 200000', 'p2 f']
finishing_stacks = [1100000, 900000]
"""


def test_the_small_phh_hand_replays():
    result = replay_phh_hand(loads_phh(GOOD, name="good.phh"))
    assert list(result.state.stack) == [1_100_000, 900_000]


@pytest.mark.parametrize("old,new,index", [
    ("'p1 cbr 200000'", "'p1 cbr 2.5e5'", 3),
    ("'p1 cbr 200000'", "'p1 cbr lots'", 3),
    ("'p1 cbr 200000'", "'p1 cbr -200000'", 3),
    ("'d dh p2 JsJc2c'", "'d dh p2 QhJc2c'", 1),
])
def test_a_broken_phh_action_names_its_index(old, new, index):
    with pytest.raises(PhhError) as info:
        replay_phh_hand(loads_phh(GOOD.replace(old, new), name="bad.phh"))
    assert info.value.extra["action_index"] == index
    assert f"bad.phh: action {index} ({new})" in str(info.value)


@pytest.mark.parametrize("line,field", [
    ("actions = 5", "actions"),
    ("starting_stacks = ['a', 'b']", "starting_stacks"),
    ("small_bet = 'x'", "small_bet"),
    ("antes = 7", "antes"),
    ("finishing_stacks = [1.5, 2]", "finishing_stacks"),
])
def test_a_broken_phh_header_names_the_field(line, field):
    key = line.split(" = ")[0]
    text = "\n".join(line if x.startswith(key + " =") else x for x in GOOD.splitlines())
    with pytest.raises(PhhError, match=f"bad.phh: .*{field}"):
        loads_phh(text, name="bad.phh")
