"""Capsa Susun settlement: the pair matrix (A.6-A.9), table stakes (A.6) and the house fee (A.11).

Pure functions over evaluated seats, shared by the deal engine (:mod:`rules.engines.capsa`) and the
showdown tool, so both compare rows and flag fouls identically.

Long module: one chain from a seat's rows to the money of a deal (evaluation, the pair matrix, table
stakes, the fee), read top to bottom as reconciliation runs it; its seam is money (from
:func:`money_matrix` on), the split to make when it grows again.

Statuses (A.9): ``"valid"`` (plays a valid setting), ``"fouled"`` (a mis-set, or unset at the timer),
``"surrendered"``, ``"natural"`` (declared a natural and did not set). The pair matrix, U_ij from i's
side (S = scoop value incl. ``scoop_multiplier``, P = surrender penalty, V = natural value):

============  ====================  ==============  ============  ========
i \\ j         valid                 fouled          surrendered   natural
============  ====================  ==============  ============  ========
valid         rows + method + Roy   +S (+Roy_i)     +P            -V_j
fouled        -S (-Roy_j)           0               0             -V_j
surrendered   -P                    0               0             -V_j
natural       +V_i                  +V_i            +V_i          A.8
============  ====================  ==============  ============  ========

Decisions documented here (where the spec leaves room):

* ``scoop_multiplier`` multiplies the method's pair score (without royalties) of a pair where one side
  wins all three rows; a home run (``home_run_multiplier``) needs **at least two opponents**, every one
  of them shot or fouled (a surrendered or natural opponent prevents it).
* ``royalties_multiplied=true`` multiplies the pair's royalty difference by the same factor.
* ``overall_rule=higher_total_incl_royalties``: O = sign(R + Roy_i - Roy_j).
* ``natural_payout=scoop_plus_fixed``: S + V against every non-natural opponent; natural against
  natural always follows ``natural_vs_natural``. Under ``difference`` two naturals of the same type
  settle V - V = 0 whatever their comparison.
* Same-type naturals that tie on ranks are decided by the best-suited ace when ``suit_order`` is set
  (A.8 "strongest Ace", A.10 capsa_susun_id); otherwise they tie.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from decimal import ROUND_DOWN, Decimal
from typing import Any, TypeVar

from rules.core.house_take import ROUNDINGS, HouseTake
from rules.core.seats import clockwise_after
from rules.engines.base import PairTransfer, Settlement
from rules.engines.capsa_config import CapsaConfig
from rules.engines.evaluators.capsa import (
    CATEGORY_NAMES,
    ROWS,
    ROYAL_FLUSH,
    STRAIGHT_FLUSH,
    best_ace_strength,
    compare_row_keys,
    describe_key,
    evaluate_five,
    evaluate_three,
    format_row,
    hand_name,
    natural_key,
    natural_name,
    setting_foul_of_keys,
)
from rules.engines.messages import gettext_noop

#: A.11: the commission is ``floor(net x fee_rate)`` to the cent (net > 0, so rounded down): a name of
#: :data:`rules.core.house_take.ROUNDINGS` and its decimal rounding.
FEE_ROUNDING_NAME = "down"
FEE_ROUNDING = ROUNDINGS[FEE_ROUNDING_NAME]
#: A.6 table stakes: each winner's share of a short seat's shortfall is rounded down to the cent; the
#: leftover cents are taken one each from the winners clockwise from the button.
TABLE_STAKES_ROUNDING = ROUND_DOWN

VALID, FOULED, SURRENDERED, NATURAL = "valid", "fouled", "surrendered", "natural"

_T = TypeVar("_T")


def _made(cls: type[_T], **values: Any) -> _T:
    """The frozen dataclass ``cls`` with ``values`` for every one of its fields, equal to ``cls(**values)``,
    made without the generated ``__init__`` (which sets each field through ``object.__setattr__``): a
    reconciled day builds several :class:`SeatHand` and :class:`PairResult` per deal."""
    assert len(values) == len(cls.__dataclass_fields__), f"{cls.__name__} needs all its fields"  # type: ignore[attr-defined]
    made = object.__new__(cls)
    made.__dict__.update(values)
    return made


@dataclass(frozen=True)
class SeatHand:
    """One seat's evaluated hand (A.3-A.8). ``rows`` maps row -> cards, ``keys`` row -> key,
    ``royalties`` row -> units it may collect (0 rows omitted; already empty for fouled/surrendered
    hands and, under ``royalties_require_declaration``, limited to the announced rows)."""

    seat: int
    status: str
    rows: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    keys: Mapping[str, tuple[int, ...]] = field(default_factory=dict)
    foul_reason: str | None = None
    royalties: Mapping[str, int] = field(default_factory=dict)
    detected_royalties: Mapping[str, int] = field(default_factory=dict)
    natural: str | None = None
    natural_key: tuple[Any, ...] | None = None
    cards: tuple[int, ...] = ()


def row_royalties(config: CapsaConfig, keys: Mapping[str, tuple[int, ...]]) -> dict[str, int]:
    """Royalty units each row earns as set (A.7), rows with 0 omitted."""
    levels = _royalty_levels(config)
    out = {}
    for row in ROWS:
        key = keys[row]
        category = key[0]
        if category == STRAIGHT_FLUSH and hand_name(key, wheel_rank=config.wheel_rank) == ROYAL_FLUSH:
            category = _ROYAL_LEVEL
        units = levels[row][category]
        if units:
            out[row] = units
    return out


#: The level of a royal flush in :func:`_royalty_levels`' rows: one above the straight flush (A.7).
_ROYAL_LEVEL = STRAIGHT_FLUSH + 1
_ROYALTY_LEVELS: dict[tuple[Any, ...], dict[str, tuple[int, ...]]] = {}


def _royalty_levels(config: CapsaConfig) -> dict[str, tuple[int, ...]]:
    """``config.royalty_for`` (A.7) of every row and hand at once: row -> units by category, the royal
    flush at :data:`_ROYAL_LEVEL`; kept per royalty table (the only key ``royalty_for`` reads)."""
    table = config.royalty_table
    levels = _ROYALTY_LEVELS.get(table)
    if levels is None:
        names = (*CATEGORY_NAMES, ROYAL_FLUSH)
        levels = {row: tuple(config.royalty_for(row, name, min(level, STRAIGHT_FLUSH)) for level, name in enumerate(names))
                  for row in ROWS}
        if len(_ROYALTY_LEVELS) >= 256:
            _ROYALTY_LEVELS.clear()
        _ROYALTY_LEVELS[table] = levels
    return levels


def evaluate_seat(
    config: CapsaConfig,
    seat: int,
    *,
    rows: Mapping[str, Sequence[int]] | None = None,
    natural: str | None = None,
    cards: Sequence[int] = (),
    surrendered: bool = False,
    unset: bool = False,
    declared_royalties: frozenset[str] | None = None,
) -> SeatHand:
    """Evaluate a seat for settlement: a natural (name given, ``cards`` its 13 cards), a setting
    (``rows``), an unset hand (``unset``: fouled at the timer, A.4) or a surrender.

    A fouled or surrendered hand collects no royalties (A.4, A.9); with
    ``royalties_require_declaration`` only the rows in ``declared_royalties`` pay (A.5).
    """
    all_cards = tuple(cards)
    if natural is not None:
        nkey = natural_key(natural, all_cards, wheel_rank=config.wheel_rank,
                           six_pairs_definition=config.six_pairs_definition,
                           six_pairs_compare_singleton=config.six_pairs_compare_singleton)
        return SeatHand(seat, NATURAL, natural=natural, natural_key=nkey, cards=all_cards)
    if unset:
        status = SURRENDERED if surrendered else FOULED
        return SeatHand(seat, status, foul_reason=None if surrendered else "the hand was not set in time",
                        cards=all_cards)
    if rows is None:
        # every opponent holds a natural, so nothing is compared and the seat did not set (A.5.2)
        return SeatHand(seat, SURRENDERED if surrendered else VALID, cards=all_cards)
    front, middle, back = tuple(rows["front"]), tuple(rows["middle"]), tuple(rows["back"])
    row_cards = {"front": front, "middle": middle, "back": back}
    wheel_rank = config.wheel_rank
    kf, km, kb = evaluate_three(front), evaluate_five(middle, wheel_rank=wheel_rank), evaluate_five(back, wheel_rank=wheel_rank)
    keys = {"front": kf, "middle": km, "back": kb}
    # the rows are evaluated once, for the foul check (A.4) and for scoring alike
    foul = setting_foul_of_keys(middle, back, kf, km, kb, wheel_rank=wheel_rank, suit_order=config.suit_order,
                                flush_compare=config.flush_compare, allow_equal_rows=config.allow_equal_rows)
    detected = row_royalties(config, keys)
    if surrendered:
        status = SURRENDERED
    elif foul is not None:
        status = FOULED
    else:
        status = VALID
    royalties = dict(detected) if status == VALID else {}
    if royalties and config.royalties_require_declaration:
        royalties = {r: u for r, u in royalties.items() if r in (declared_royalties or frozenset())}
    return _made(SeatHand, seat=seat, status=status, rows=row_cards, keys=keys, foul_reason=foul, royalties=royalties,
                 detected_royalties=detected, natural=None, natural_key=None, cards=all_cards or front + middle + back)


def compare_pair_rows(config: CapsaConfig, a: SeatHand, b: SeatHand) -> dict[str, int]:
    """Row by row comparison of two set hands (A.3): row -> 1 (a wins), -1 (b wins), 0 (tie)."""
    if config.suit_order is None:  # no suit option: two rows of one size compare by their keys alone (A.3)
        ka, kb = a.keys, b.keys
        return {row: (ka[row] > kb[row]) - (ka[row] < kb[row]) for row in ROWS}
    return {
        row: compare_row_keys(a.rows[row], a.keys[row], b.rows[row], b.keys[row],
                              suit_order=config.suit_order, flush_compare=config.flush_compare)
        for row in ROWS
    }


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def _royalty_sum(config: CapsaConfig, entitled: list[int]) -> int:
    if not entitled:
        return 0
    return max(entitled) if config.one_royalty_per_hand else sum(entitled)


def method_score(config: CapsaConfig, w: int, lost: int, roy_diff: int = 0) -> int:
    """The method's pair score from i's side for ``w`` rows won and ``lost`` rows lost (A.6, vector C-13),
    before scoop multipliers and royalties. ``roy_diff`` is Roy_i - Roy_j (only used by
    ``overall_rule=higher_total_incl_royalties``)."""
    r = w - lost
    if config.method == "1-1-1":
        return r
    if config.method == "majority":
        return _sign(w - lost)
    if config.method == "2-4":
        if config.overall_rule == "two_or_more_rows":
            overall = 1 if w >= 2 else (-1 if lost >= 2 else 0)
        elif config.overall_rule == "more_rows_than_opponent":
            overall = _sign(w - lost)
        else:
            overall = _sign(r + roy_diff)
        return r + overall
    bonus = 3 if config.method == "1-6" else 1
    return r + (bonus if w == 3 else (-bonus if lost == 3 else 0))


def natural_strength(config: CapsaConfig, hand: SeatHand) -> tuple[Any, ...]:
    """Comparable strength of a declared natural: precedence index, same-type key, then (with a
    suit order) the best ace's suit (A.8)."""
    strength = config.suit_strength
    ace = best_ace_strength(hand.cards, strength) if strength else 0
    return (config.natural_precedence.index(hand.natural), hand.natural_key, ace)


@dataclass(frozen=True)
class PairResult:
    """The settlement of one pair (A.6-A.9); ``units`` from ``a``'s side (b gets ``-units``)."""

    a: int
    b: int
    kind: str  # "rows", "foul", "surrender", "natural", "none"
    units: int
    rows: Mapping[str, int] | None = None
    royalties: Mapping[int, int] = field(default_factory=dict)
    multiplier: int = 1

    def as_dict(self) -> dict[Any, Any]:
        rows = None
        if self.rows is not None:
            rows = {r: (self.a if v > 0 else self.b if v < 0 else "tie") for r, v in self.rows.items()}
        return {"seats": [self.a, self.b], "kind": self.kind, "rows": rows,
                "units": {str(self.a): self.units, str(self.b): -self.units},
                "royalties": {str(s): u for s, u in self.royalties.items()}, "multiplier": self.multiplier}


def settle_pairs(config: CapsaConfig, hands: Mapping[int, SeatHand]) -> list[PairResult]:
    """Settle every unordered pair of seats (A.6-A.9), in ascending seat order.

    Returns one :class:`PairResult` per pair; ``units`` is U_ab (b's is ``-U_ab``), so the units
    always sum to zero.
    """
    seats = sorted(hands)
    row_results: dict[tuple[int, int], dict[str, int]] = {}
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            if hands[a].status == VALID and hands[b].status == VALID:
                row_results[(a, b)] = compare_pair_rows(config, hands[a], hands[b])

    def shoots(i: int, j: int) -> bool:
        if hands[j].status == FOULED:
            return True
        if hands[j].status != VALID:
            return False
        if (i, j) in row_results:
            return all(v > 0 for v in row_results[(i, j)].values())
        return all(v < 0 for v in row_results[(j, i)].values())

    home_run: dict[int, bool] = {}
    for s in seats:
        opponents = [o for o in seats if o != s]
        home_run[s] = bool(
            config.home_run_multiplier and hands[s].status == VALID and len(opponents) >= 2
            and all(shoots(s, o) for o in opponents)
        )

    def hr(s: int) -> int:
        return (config.home_run_multiplier or 1) if home_run[s] else 1

    results: list[PairResult] = []
    for i, a in enumerate(seats):
        for b in seats[i + 1:]:
            results.append(_settle_pair(config, hands[a], hands[b], row_results.get((a, b)), hr))
    return results


def _settle_pair(config: CapsaConfig, ha: SeatHand, hb: SeatHand, rows: Mapping[str, int] | None,
                 hr: Callable[[int], int]) -> PairResult:
    a, b = ha.seat, hb.seat
    sa, sb = ha.status, hb.status
    if sa == NATURAL or sb == NATURAL:
        if sa == NATURAL and sb == NATURAL:
            ka, kb = natural_strength(config, ha), natural_strength(config, hb)
            if ka == kb:
                return PairResult(a, b, "natural", 0)
            win, lose = (ha, hb) if ka > kb else (hb, ha)
            assert win.natural is not None and lose.natural is not None  # both are naturals here
            value = config.natural_value(win.natural)
            if config.natural_vs_natural == "difference":
                value -= config.natural_value(lose.natural)
            return PairResult(a, b, "natural", value if win is ha else -value)
        holder = ha if sa == NATURAL else hb
        assert holder.natural is not None
        value = config.natural_value(holder.natural)
        if config.natural_payout == "scoop_plus_fixed":
            value += config.scoop_value
        return PairResult(a, b, "natural", value if holder is ha else -value)
    if sa == VALID and sb == VALID:
        assert rows is not None  # two valid settings were compared row by row
        results = list(rows.values())  # each row 1, -1 or 0 (A.3)
        w, lost = results.count(1), results.count(-1)
        roy_a = roy_b = 0  # most hands earn no royalty
        if config.royalty_mode == "independent":
            if ha.royalties:
                roy_a = _royalty_sum(config, list(ha.royalties.values()))
            if hb.royalties:
                roy_b = _royalty_sum(config, list(hb.royalties.values()))
        else:
            if ha.royalties:
                roy_a = _royalty_sum(config, [u for r, u in ha.royalties.items() if rows[r] > 0])
            if hb.royalties:
                roy_b = _royalty_sum(config, [u for r, u in hb.royalties.items() if rows[r] < 0])
        base = method_score(config, w, lost, roy_a - roy_b)
        mult = 1
        if w == 3:
            mult = (config.scoop_multiplier or 1) * hr(a)
        elif lost == 3:
            mult = (config.scoop_multiplier or 1) * hr(b)
        roy = (roy_a - roy_b) * (mult if config.royalties_multiplied else 1)
        return _made(PairResult, a=a, b=b, kind="rows", units=base * mult + roy, rows=dict(rows),
                     royalties={a: roy_a, b: roy_b}, multiplier=mult)
    if (sa == VALID and sb == FOULED) or (sa == FOULED and sb == VALID):
        winner = ha if sa == VALID else hb
        mult = hr(winner.seat)
        roy = _royalty_sum(config, list(winner.royalties.values())) if config.foul_pays_opponent_royalties else 0
        units = config.scoop_value * mult + roy * (mult if config.royalties_multiplied else 1)
        return _made(PairResult, a=a, b=b, kind="foul", units=units if winner is ha else -units, rows=None,
                     royalties={winner.seat: roy}, multiplier=mult)
    if (sa == VALID and sb == SURRENDERED) or (sa == SURRENDERED and sb == VALID):
        p = config.effective_surrender_penalty
        return _made(PairResult, a=a, b=b, kind="surrender", units=p if sa == VALID else -p, rows=None, royalties={},
                     multiplier=1)
    return _made(PairResult, a=a, b=b, kind="none", units=0, rows=None, royalties={}, multiplier=1)


def seat_units(pairs: Sequence[PairResult], seats: Sequence[int]) -> dict[int, int]:
    """Each seat's net units: the sum of its pair results (A.6)."""
    out = {s: 0 for s in seats}
    for p in pairs:
        out[p.a] += p.units
        out[p.b] -= p.units
    return out


def money_matrix(config: CapsaConfig, pairs: Sequence[PairResult]) -> dict[tuple[int, int], int]:
    """Cents paid per ordered pair: ``{(payer, payee): cents}`` = |U| x stake (A.6); zero pairs left out."""
    out: dict[tuple[int, int], int] = {}
    for p in pairs:
        if p.units:
            cents = abs(p.units) * config.stake(p.a, p.b)
            out[(p.b, p.a) if p.units > 0 else (p.a, p.b)] = cents
    return out


def apply_table_stakes(
    paid: Mapping[tuple[int, int], int], stacks: Mapping[int, int], button: int
) -> dict[tuple[int, int], int]:
    """Cap every seat's loss at its starting stack (A.6 ``table_stakes_pro_rata``).

    For each short seat in turn (clockwise from the button's left, repeated until none is short), the
    shortfall is taken back from the seats it pays, in proportion to what each receives from it,
    rounded down to the cent (:data:`TABLE_STAKES_ROUNDING`); leftover cents are taken one each from
    those seats clockwise from the button. Returns the new ``{(payer, payee): cents}``.
    """
    out = dict(paid)
    order = clockwise_after(list(stacks), button)

    def nets() -> dict[int, int]:
        """Every seat's net of ``out`` as it stands (received minus paid)."""
        net = dict.fromkeys(order, 0)
        for (p, q), c in out.items():
            net[q] = net.get(q, 0) + c
            net[p] = net.get(p, 0) - c
        return net

    net = nets()
    changed = True
    while changed:
        changed = False
        for s in order:
            loss = -net[s]
            short = loss - stacks[s]
            if short <= 0:
                continue
            winners = [q for q in order if out.get((s, q), 0) > 0]
            total = sum(out[(s, q)] for q in winners)
            cuts = {q: int((Decimal(short) * out[(s, q)] / total).to_integral_value(rounding=TABLE_STAKES_ROUNDING))
                    for q in winners}
            left = short - sum(cuts.values())
            for q in winners:
                if left <= 0:
                    break
                cuts[q] += 1
                left -= 1
            for q in winners:
                out[(s, q)] -= cuts[q]
            net = nets()
            changed = True
    return {k: v for k, v in out.items() if v}


def fee_policy(config: CapsaConfig) -> HouseTake:
    """The Capsa fee as a :class:`~rules.core.house_take.HouseTake` (A.11): ``commission``: ``fee_rate`` (a
    fraction) of a winning seat's net, rounded down to the cent (:data:`FEE_ROUNDING`), at most
    ``fee_cap_per_deal``; ``per_seat``: ``fee_per_seat`` flat; ``time``: nothing per deal."""
    if config.fee_mode == "per_seat":
        return HouseTake(flat=config.fee_per_seat or 0)
    if config.fee_mode == "time":
        return HouseTake(flat=0)
    return HouseTake(rate=config.fee_rate, rounding=FEE_ROUNDING_NAME, cap=config.fee_cap_per_deal)


#: :func:`fee_policy` by the config keys it reads (``fee_mode``, ``fee_per_seat``, ``fee_rate``,
#: ``fee_cap_per_deal``): a day's hands share a few.
_FEE_POLICIES: dict[tuple[Any, ...], HouseTake] = {}


def house_fees(config: CapsaConfig, net: Mapping[int, int]) -> dict[int, int]:
    """The house fee per seat in cents for one deal (A.11), from each seat's net result in cents
    (:func:`fee_policy`).

    ``commission``: min(floor(net x fee_rate), fee_cap_per_deal) for net > 0 (:data:`FEE_ROUNDING`);
    ``per_seat``: ``fee_per_seat`` from every seat dealt in; ``time``: nothing (the session collects it).
    """
    terms = (config.fee_mode, config.fee_per_seat, config.fee_rate, config.fee_cap_per_deal)
    policy = _FEE_POLICIES.get(terms)
    if policy is None:
        if len(_FEE_POLICIES) >= 256:
            _FEE_POLICIES.clear()
        policy = _FEE_POLICIES[terms] = fee_policy(config)
    if policy.flat is not None:
        return {s: policy.flat for s in net}
    return {s: policy.capped(cents) if cents > 0 else 0 for s, cents in net.items()}


def build_settlement(
    config: CapsaConfig,
    pairs: Sequence[PairResult],
    seats: Sequence[int],
    *,
    stacks: Mapping[int, int] | None = None,
    button: int = 0,
) -> Settlement:
    """Money for a settled deal (A.6, A.11): pair units x pair stake, table stakes when ``stacks`` are
    given, then the house fee. Asserts that the transfers sum to zero (A.6)."""
    paid = money_matrix(config, pairs)
    if stacks is not None and config.max_loss_policy == "table_stakes_pro_rata":
        paid = apply_table_stakes(paid, stacks, button)
    contributions = {s: 0 for s in seats}
    awards = {s: 0 for s in seats}
    for (payer, payee), cents in paid.items():
        contributions[payer] += cents
        awards[payee] += cents
    assert sum(contributions.values()) == sum(awards.values()), "Capsa transfers must sum to zero (A.6)"
    units_by_pair = {(p.a, p.b): p.units for p in pairs}
    transfers = []
    for p in pairs:
        if not p.units:
            continue
        payer, payee = (p.b, p.a) if p.units > 0 else (p.a, p.b)
        transfers.append(PairTransfer(payer, payee, abs(units_by_pair[(p.a, p.b)]), paid.get((payer, payee), 0)))
    net = {s: awards[s] - contributions[s] for s in seats}
    fees = house_fees(config, net)
    settlement = Settlement(contributions=contributions, awards=awards, fees=fees, transfers=tuple(transfers),
                            winners=tuple(s for s in sorted(seats) if net[s] > 0))
    settlement.check_balanced()
    return settlement


def settlement_to_dict(settlement: Settlement) -> dict[Any, Any]:
    """JSON form of a Capsa :class:`Settlement` (seat keys as strings, cents as ints)."""
    def keyed(m: Mapping[int, int]) -> dict[str, int]:
        return {str(s): v for s, v in sorted(m.items())}
    return {
        "contributions": keyed(settlement.contributions),
        "awards": keyed(settlement.awards),
        "returned": keyed(settlement.returned),
        "fees": keyed(settlement.fees),
        "bonus": keyed(settlement.bonus),
        "net": keyed(settlement.net),
        "tax": settlement.tax,
        "pots": [],
        "transfers": [{"payer": t.payer, "payee": t.payee, "units": t.units, "amount": t.amount}
                      for t in settlement.transfers],
        "winners": list(settlement.winners),
    }


def describe_seat(config: CapsaConfig, hand: SeatHand) -> dict[Any, Any]:
    """JSON-able description of an evaluated seat (rows, categories, foul, royalties, natural)."""
    out: dict[Any, Any] = {"status": hand.status, "fouled": hand.status == FOULED, "foul_reason": hand.foul_reason,
                 "natural": hand.natural, "royalties": dict[Any, Any](hand.royalties)}
    if hand.rows:
        out["cards"] = {r: format_row(hand.rows[r]) for r in ROWS}
        out["category"] = {r: hand_name(hand.keys[r], wheel_rank=config.wheel_rank) for r in ROWS}
        out["rows"] = {r: describe_key(hand.keys[r], wheel_rank=config.wheel_rank) for r in ROWS}
        out["description"] = gettext_noop("front: %(front)s / middle: %(middle)s / back: %(back)s", front=out["rows"]["front"],
                                          middle=out["rows"]["middle"], back=out["rows"]["back"])
        out["detected_royalties"] = dict(hand.detected_royalties)
    else:
        out["cards"] = format_row(hand.cards) if hand.cards else None
        out["category"] = None
        if hand.status == NATURAL:
            out["description"] = gettext_noop("Natural: %(natural)s", natural=natural_name(hand.natural))
        elif hand.status == VALID:
            out["description"] = gettext_noop("Not set: every opponent holds a natural")
        elif hand.status == SURRENDERED:
            out["description"] = gettext_noop("Surrendered")
        else:
            out["description"] = gettext_noop("Fouled: %(reason)s", reason=hand.foul_reason or "")
    return out
