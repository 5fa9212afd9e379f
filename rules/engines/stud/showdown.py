"""The stud showdown, the uncontested end and the misdeal (R1.5, R10.2, R11, R12.1; Razz RZ2.2, Hi-Lo
HL2.1-HL2.4).
"""

from __future__ import annotations

from collections.abc import Mapping
from itertools import compress
from operator import not_
from typing import Any

from rules.core.pots import split_high_low
from rules.core.seats import CLOCKWISE_POSITIONS
from rules.engines.errors import (
    DuplicateCard,
    IllegalAction,
    InvalidCard,
    OutOfTurn,
)
from rules.engines.evaluators.low import ace_to_five_key, eight_or_better_key
from rules.engines.evaluators.stud import stud_key
from rules.engines.messages import gettext_noop
from rules.engines.stud.parsing import _fmt, _seat_cards, _seat_of
from rules.engines.stud.pots import _pots, _return_uncalled, _split
from rules.engines.stud.state import _CARD_OF, POSITIONS, UNKNOWN, StudState, _board_of, _high_board, _seat_err


def _start_showdown(s: StudState) -> None:
    """R11.1: last aggressor on 7th shows first, else the high board; then clockwise."""
    s.phase = "showdown"
    folded = s.folded
    first = s.last_aggr
    if first is None or folded[first]:
        first = _high_board(s, list(compress(POSITIONS[s.n], map(not_, folded))))
    s.show_order = tuple([j for j in CLOCKWISE_POSITIONS[s.n][first - 1] if not folded[j]])  # from ``first`` round
    s.to_act = first


def _on_show(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    if s.phase != "showdown" or s.folded[i] or s.to_act != i:
        _check_show_turn(s, i, "show")  # raises
    own = s.cards[i]
    held = tuple(map(_CARD_OF, own))
    cards = event.get("cards")
    if cards is not None:
        given = _seat_cards(s, i, "show", cards)
        if len(given) != len(own):
            raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("it holds %(n_own)s cards, not %(n_given)s", n_own=len(own), n_given=len(given)), "R11.2")
        shown = set(given)
        if UNKNOWN in shown or len(shown) != len(given):
            raise _seat_err(InvalidCard, s, i, gettext_noop("show"), gettext_noop("every shown card must be named once"), "R11.2")
        if UNKNOWN in held or not shown.issuperset(held):  # else the cards it holds, all known, as dealt
            known = [c for c in held if c != UNKNOWN]
            missing = [c for c in known if c not in shown]
            if missing:
                raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("it was dealt %(missing)s, which is not shown", missing=_fmt(missing[0])),
                                "R11.2")
            fresh = [c for c in given if c not in known]
            for c in fresh:
                if c in s.dealt:
                    raise DuplicateCard(gettext_noop("seat %(seat)s cannot show %(c)s: it was dealt elsewhere", seat=s.seats[i], c=_fmt(c)),
                                        seat=s.seats[i], extra={"card": _fmt(c)})
            it = iter(fresh)
            s.cards[i] = tuple((next(it), up) if c == UNKNOWN else (c, up) for c, up in own)
            s.boards[i] = _board_of(s.cards[i])
            held = tuple(map(_CARD_OF, s.cards[i]))
            for c in fresh:
                s.dealt.add(c)
    if UNKNOWN in held:
        raise _seat_err(IllegalAction, s, i, gettext_noop("show"), gettext_noop("its face-down cards are not known; send them in 'cards'"),
                        "R11.2")
    s.shown[i] = True
    _next_shower(s)


def _on_muck(s: StudState, event: Mapping[str, Any]) -> None:
    i = _seat_of(s, event)
    _check_show_turn(s, i, "muck")
    pots = _pots(s)
    mucked = s.mucked
    for k, (_amt, elig) in enumerate(pots):
        if i in elig:
            for j in elig:
                if j != i and not mucked[j]:
                    break
            else:
                raise _seat_err(IllegalAction, s, i, gettext_noop("muck"),
                                gettext_noop("it is the last hand that can win %(note)s", note=(gettext_noop("the main pot") if k == 0 else gettext_noop("side pot %(k)s", k=k))),
                                "R11.1")
    mucked[i] = True
    _next_shower(s, pots)  # a muck changes no pot


def _check_show_turn(s: StudState, i: int, action: str) -> None:
    if s.phase != "showdown":
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("there is no showdown now"), "R11.1")
    if s.folded[i]:
        raise _seat_err(IllegalAction, s, i, action, gettext_noop("the seat has folded"), "R11.1")
    if s.to_act != i:
        raise _seat_err(OutOfTurn, s, i, action, gettext_noop("seat %(seat)s shows first", seat=s.seats[s.to_act]),  # type: ignore[index]
                        "R11.1", to_act=s.seats[s.to_act])  # type: ignore[index]


def _next_shower(s: StudState, pots: list[tuple[int, tuple[int, ...]]] | None = None) -> None:
    """The next seat to show or muck (R11.1), or the end of the showdown; ``pots``: :func:`_pots` if known."""
    shown, mucked = s.shown, s.mucked
    first = None
    in_play = 0
    for j in s.show_order:
        if not mucked[j]:
            in_play += 1
            if first is None and not shown[j]:
                first = j
    if in_play <= 1 or first is None:
        _finish_showdown(s, pots)
        return
    s.to_act = first


def _finish_by_fold(s: StudState) -> None:
    """R1.5: one player left wins every pot unshown, at once. A forced bring-in nobody called stays
    in the pot (D6: the low card wins the antes plus its own bring-in); any other uncalled wager goes
    back first (R10.1)."""
    winner = s.folded.index(False)
    if not (s.street == 3 and s.phase == "betting" and s.last_aggr is None and winner == s.bring_in_idx):
        _return_uncalled(s)
    pots = _pots(s)
    _close(s, pots, [(0, winner, pots[0][0])] if len(pots) == 1 else
           [(k, winner, amt) for k, (amt, _elig) in enumerate(pots)])


def _finish_showdown(s: StudState, pots: list[tuple[int, tuple[int, ...]]] | None = None) -> None:
    """Award each pot separately to the best hand among its eligible unmucked seats (R10.2, R11.2, R11.3);
    ``pots``: :func:`_pots` if known."""
    if pots is None:
        pots = _pots(s)
    showdown = s.variant.showdown
    if showdown != "high":
        _close(s, pots, _split_showdown(s, pots, showdown))
        return
    keys: dict[int, int] = {}
    awards = []
    mucked = s.mucked
    for k, (amt, elig) in enumerate(pots):
        contenders = [j for j in elig if not mucked[j]] or list(elig)
        if len(contenders) == 1:
            awards.append((k, contenders[0], amt))
            continue
        best = 0
        winners: list[int] = []
        for j in contenders:
            key = keys.get(j)
            if key is None:
                key = keys[j] = stud_key(_own_cards(s, j))
            if key > best:
                best, winners = key, [j]
            elif key == best:
                winners.append(j)
        for j, share in _split(s, amt, winners):
            awards.append((k, j, share))
    _close(s, pots, awards)


def _own_cards(s: StudState, j: int) -> list[int]:
    own = list(map(_CARD_OF, s.cards[j]))
    if s.community is not None:
        own.append(s.community)
    return own


def _split_showdown(s: StudState, pots: list[tuple[int, tuple[int, ...]]], showdown: str) -> list[tuple[int, int, int]]:
    """Razz (``low``, RZ2.2): each pot to the best ace-to-five low. Hi-Lo (``high_low_8``, HL2.1-HL2.4):
    each pot split in two halves, the high half to the best high hand, the low half to the best
    qualifying eight-or-better low; an odd chip unit goes to the high half (HL2.3); without a
    qualifying low the high hand takes the whole pot (HL2.4). Ties share a half as :func:`_split`."""
    awards: list[tuple[int, int, int]] = []
    halves: list[tuple[int, int]] = []
    unit = s.cfg.chip_unit
    for k, (amt, elig) in enumerate(pots):
        contenders = [j for j in elig if not s.mucked[j]] or list(elig)
        if showdown == "low":
            lows = {j: ace_to_five_key(_own_cards(s, j)) for j in contenders}
            best_low = min(lows.values())
            shares = _split(s, amt, [j for j in contenders if lows[j] == best_low])
            awards.extend((k, j, a) for j, a in shares)
            halves.append((0, amt))
            continue
        highs = {j: stud_key(_own_cards(s, j)) for j in contenders}
        best_high = max(highs.values())
        high_winners = [j for j in contenders if highs[j] == best_high]
        qualified = {j: key for j in contenders if (key := eight_or_better_key(_own_cards(s, j))) is not None}
        if not qualified:
            awards.extend((k, j, a) for j, a in _split(s, amt, high_winners))
            halves.append((amt, 0))
            continue
        high_half, low_half = split_high_low(amt, unit)
        best8 = min(qualified.values())
        merged: dict[int, int] = {}
        for j, a in _split(s, high_half, high_winners):
            merged[j] = merged.get(j, 0) + a
        for j, a in _split(s, low_half, [j for j, key in qualified.items() if key == best8]):
            merged[j] = merged.get(j, 0) + a
        awards.extend((k, j, merged[j]) for j in sorted(merged))
        halves.append((high_half, low_half))
    s.pot_halves = tuple(halves)
    return awards


def _close(s: StudState, pots: list[tuple[int, tuple[int, ...]]], awards: list[tuple[int, int, int]]) -> None:
    for _k, j, amt in awards:
        s.awards[j] += amt
        s.stack[j] += amt
    s.final_pots = tuple(pots)
    s.pot_awards = tuple(awards)
    s.phase = "complete"
    s.to_act = None


def _on_misdeal(s: StudState, event: Mapping[str, Any]) -> None:
    if s.street != 3 or s.voluntary >= 2:
        raise IllegalAction(gettext_noop("cannot call a misdeal: two players have already acted, the deal stands (R12.1)"),
                            rule="R12.1")
    for j in range(s.n):
        back = s.contrib[j] - s.returned[j]
        s.returned[j] += back
        s.stack[j] += back
    s.void = True
    _close(s, [], [])
