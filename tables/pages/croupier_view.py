"""The ONE adapter between the engines and the croupier's table screen (issue 15).

Long module: it is the one adapter (below), so every game's reading of the typed view sits here side by
side: the view model the templates render, :func:`table_view`, and each game's extras and Capsa's deal.

The page never reads an engine directly: :func:`table_view` turns the game's one typed view of the hand
(:class:`rules.core.view.HandView`, built by the registry entry's ``hand_view``: seats, whose turn, legal
actions with ``to``/``add`` and the spread range, pots with eligible seats, the house take, the outcome)
into the :class:`TableView` the templates render. The engine's own view is read only for what the typed
view leaves out (stud deal faces and the open pair, Forty-one's hand descriptions, Capsa's naturals, fouls,
royalties and units), in :func:`_typed`, :func:`_forty_one_extras` and :func:`_capsa_extras`.

Nothing here decides a rule: the buttons are the engine's legal actions; the amounts are the engine's
(``to`` totals for wagers, ``add`` the chips an action puts in); a declaration the buttons do not offer
goes to the engine, which refuses it with its rule.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext

from casino.i18n import message_text
from rules.engines.cards import DECK_52, PIQUET_32, RANKS, SUIT_TO_SYMBOL, SUITS, parse_cards
from rules.engines.errors import RuleViolation

#: The token of a card dealt face down and not seen by the croupier (engine contract).
UNKNOWN_CARD = "??"
#: Event keys that carry cards (seen cards are taken out of the card picker).
CARD_KEYS = ("cards", "card", "front", "middle", "back")


def house_take(game: str) -> str:
    """The game's house take as the registry names it: ``taxe`` (the stud family), ``tax`` (Forty-one) or
    ``fee`` (Capsa Susun); it also picks how the screen lays the game out."""
    from rules.registry import get_game

    return get_game(game).house_take


def unknown_cards_allowed(game: str) -> bool:
    """True if ``game``'s engine takes ``??`` for a face-down card nobody saw (the registry's
    :attr:`~rules.core.game_spec.GameSpec.unknown_cards`: the stud family, Forty-one (B.4), Capsa Susun).
    The stud and Forty-one deal forms then preset face-down cards as ``??``; Capsa's page enters each
    seat's 13 cards when they are set face up (:func:`capsa_deal_events`)."""
    from rules.registry import get_game

    return bool(get_game(game).unknown_cards)


def rule_url(game: str, rule: str | None) -> str | None:
    """The served page and anchor of ``rule`` (e.g. ``"R6.2"`` -> ``/rules/seven_card_stud/#R6.2``, ``"RZ1.2"``
    -> the Razz page), or None without a rule. The rule number names its page (``casino.rules_pages``), so a
    stud rule cited at a Razz table links to the stud rules it shares."""
    from casino.rules_pages import rules_url

    if not rule:
        return None
    return rules_url(rule)


def deck_of(game: str) -> list[str]:
    """The cards of ``game``'s deck as canonical text, by rank then suit (Forty-one: the 32-card pack)."""
    deck = PIQUET_32 if house_take(game) == "tax" else DECK_52
    return [str(c) for c in sorted(deck)]


def seen_cards(events: Iterable[Mapping[str, Any]]) -> set[str]:
    """Every card named in ``events`` (deals, shows, exposures, settings), as canonical text; ``??`` skipped."""
    seen: set[str] = set()
    for event in events:
        for key in CARD_KEYS:
            raw = event.get(key)
            if not isinstance(raw, str) or not raw.strip():
                continue
            tokens = [t for t in raw.replace(",", " ").split() if t != UNKNOWN_CARD]
            try:
                seen.update(str(c) for c in parse_cards(" ".join(tokens)))
            except RuleViolation:
                continue
    return seen


def card_label(card: str) -> dict[str, str]:
    """``"Th"`` -> ``{"code": "Th", "rank": "10", "suit": "♥", "red": "1"}`` for display (``??`` kept)."""
    if card == UNKNOWN_CARD or len(card) != 2:
        return {"code": card, "rank": "?", "suit": "", "red": ""}
    rank = "10" if card[0] == "T" else card[0]
    return {"code": card, "rank": rank, "suit": SUIT_TO_SYMBOL.get(card[1], card[1]),
            "red": "1" if card[1] in "hd" else ""}


# --- the typed view ------------------------------------------------------------------------------------


@dataclass
class CardSlot:
    """One card a deal/show/expose form needs: ``face`` ``up``/``down``; ``value`` preset (``??``) or empty."""

    face: str
    value: str = ""

    @property
    def fixed(self) -> bool:
        """A preset card (an unseen ``??`` or a card already known) that the croupier does not enter."""
        return bool(self.value)


@dataclass
class Action:
    """One button (or card form) the croupier may tap now.

    ``kind`` the event type; ``seat``; ``to`` the wager total in cents (bet/raise/complete), ``add`` what the
    player puts in by it (cents); ``amount`` for ante/bring-in/blind/call (cents); ``spread`` =
    ``(min, max, step)`` cents for a spread-limit amount picker; ``slots`` the cards a card form asks for.
    """

    kind: str
    seat: int | None
    label: str
    to: int | None = None
    add: int | None = None
    amount: int | None = None
    spread: tuple[int, int, int] | None = None
    slots: list[CardSlot] = field(default_factory=list)
    choices: list[str] = field(default_factory=list)
    style: str = ""
    face: str = ""
    reason: str = ""

    @property
    def quick(self) -> list[tuple[int, str]]:
        """The spread picker's quick amounts ``[(cents, label)]``: the minimum, the half-way amount (down to a
        whole chip, rule: the picker offers whole chips only) and the maximum; empty without a spread."""
        if self.spread is None:
            return []
        lo, hi, step = self.spread
        mid = lo + ((hi - lo) // 2 // max(step, 1)) * max(step, 1)
        marks = [(lo, str(_("min")) + " " + _money(lo)), (mid, _money(mid)), (hi, str(_("max")) + " " + _money(hi))]
        return [m for i, m in enumerate(marks) if m[0] not in {x[0] for x in marks[:i]}]

    @property
    def already(self) -> int:
        """What the seat has in this street/round before the wager (cents)."""
        return (self.to or 0) - (self.add or 0)

    @property
    def needs_cards(self) -> bool:
        """Some card of the form is still to be entered."""
        return any(not s.value for s in self.slots)

    @property
    def idle(self) -> bool:
        """A card form with every card preset (e.g. a deal face down, all ``??``): the picker has nothing to do."""
        return bool(self.slots) and not self.needs_cards


@dataclass
class SeatView:
    """One seat as the croupier sees it (money in cents)."""

    seat: int
    stack: int
    up_cards: list[dict[str, str]] = field(default_factory=list)
    down_count: int = 0
    street_bet: int = 0
    contributed: int = 0
    folded: bool = False
    all_in: bool = False
    to_act: bool = False
    marks: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    net: int | None = None


@dataclass
class PotView:
    """A pot (cents) and its eligible seats; ``winners`` ``[(seat, cents)]`` once settled."""

    amount: int
    eligible: list[int]
    name: str
    winners: list[tuple[int, int]] = field(default_factory=list)


@dataclass
class Outcome:
    """The settlement of a finished hand (cents): per seat net, returned, bonus, fee; the house take."""

    rows: list[dict[str, Any]]
    house_take: int
    bonus_total: int
    lines: list[str] = field(default_factory=list)
    void: bool = False


@dataclass
class TableView:
    """Everything the table page shows for one hand (see module doc)."""

    game: str
    phase: str
    street: str
    event_count: int
    status: str
    to_act: int | None
    seats: list[SeatView]
    actions: list[Action]
    pots: list[PotView]
    tax: int
    raises_left: int | None
    complete: bool
    outcome: Outcome | None
    unseen: list[str]
    deck: list[str]
    info: list[str] = field(default_factory=list)
    capsa: dict[str, Any] | None = None
    house_take: str = ""
    declare_kinds: list[tuple[str, str]] = field(default_factory=list)
    exposure: Action | None = None

    @property
    def card_actions(self) -> list[Action]:
        return [a for a in self.actions if a.slots]

    @property
    def plain_actions(self) -> list[Action]:
        return [a for a in self.actions if not a.slots and not a.spread]

    @property
    def spread_actions(self) -> list[Action]:
        return [a for a in self.actions if a.spread]


def _chip_unit(limits: Mapping[str, Any] | None) -> int:
    """The smallest chip of the limits (cents; 1.00 when the snapshot names none): the spread picker's step."""
    from rules.engines.money import to_cents

    raw = (limits or {}).get("chip_unit")
    try:
        return to_cents(str(raw)) if raw not in (None, "") else 100
    except RuleViolation:
        return 100


def _by_seat(mapping: Mapping[Any, Any] | None) -> dict[int, Any]:
    return {int(k): v for k, v in (mapping or {}).items()}


def _money(cents: int | None) -> str:
    from casino.money import format_money

    return format_money(int(cents or 0))


#: Phases in which a player acts with chips: the page also offers "the player declares something else",
#: which the engine checks (and refuses with its rule when it is not allowed, e.g. a fourth raise).
BETTING_PHASES = frozenset({"betting", "bring_in", "round1", "round2"})
#: Legal actions the screen does not offer as buttons: Capsa's deal and setting (its own entry form), the
#: floor's acts (misdeal, timeout) and announcements the engine detects itself.
FLOOR_OR_FORM_KINDS = frozenset({"set", "declare_natural", "declare_royalty", "timeout", "misdeal", "burn"})
DECLARE_LABELS = {"raise": gettext_lazy("raise to"), "bet": gettext_lazy("bet"), "complete": gettext_lazy("complete to"), "call": gettext_lazy("call"),
                  "check": gettext_lazy("check"), "fold": gettext_lazy("fold")}
STREET_LABELS = {3: gettext_lazy("3rd street"), 4: gettext_lazy("4th street"), 5: gettext_lazy("5th street"), 6: gettext_lazy("6th street"),
                 7: gettext_lazy("7th street")}
PHASE_LABELS = {
    "forced_bets": gettext_lazy("ante and blind"), "deal1": gettext_lazy("first deal"), "round1": gettext_lazy("first betting round"),
    "deal2": gettext_lazy("second deal"), "expose": gettext_lazy("expose two cards"), "round2": gettext_lazy("second betting round"),
    "showdown": gettext_lazy("showdown"), "reveal": gettext_lazy("show or muck"), "complete": gettext_lazy("hand complete"), "deal": gettext_lazy("the deal"),
    "set": gettext_lazy("setting"), "surrender": gettext_lazy("play or surrender"),
}


def table_view(*, game: str, typed: Any, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]],
               seats: Mapping[Any, Any], record_down_cards: bool, limits: Mapping[str, Any] | None = None) -> TableView:
    """Build the :class:`TableView` of a hand.

    ``typed``: the game's one typed view of the hand (:class:`rules.core.view.HandView`, from the registry's
    ``hand_view``); ``state``: the engine's own view of the same state plus ``status`` and ``event_count``
    (for what the typed view leaves out); ``events``: the stored event payloads (the cards already seen);
    ``seats``: ``hand.seats`` (starting stacks); ``record_down_cards``: the table logs every down card (else
    face-down cards are ``??`` where the engine takes it); ``limits``: the hand's frozen limit snapshot (its
    ``chip_unit`` steps the spread-limit amount picker). Raises nothing for a well-formed view.
    """
    deck = deck_of(game)
    seen = seen_cards(events)
    unknown_ok = unknown_cards_allowed(game) and not record_down_cards
    view = _typed(typed, state, unknown_ok=unknown_ok)
    step = _chip_unit(limits)
    for action in view.actions:
        if action.spread is not None:
            action.spread = (action.spread[0], action.spread[1], step)
    if view.phase in BETTING_PHASES and view.to_act is not None:
        view.declare_kinds = [(k, str(DECLARE_LABELS[k])) for k in DECLARE_LABELS]
    if view.to_act is None and not view.complete:  # dealing: the seat the first card form is for
        view.to_act = next((a.seat for a in view.actions if a.slots and a.seat is not None), None)
        for seat in view.seats:
            seat.to_act = seat.seat == view.to_act
    view.event_count = int(state.get("event_count") or 0)
    view.status = str(state.get("status") or "open")
    view.deck = deck
    view.unseen = [c for c in deck if c not in seen]
    if view.complete and typed.outcome is not None:
        view.outcome = _typed_outcome(typed, state, _by_seat(seats))
        finals = {r["seat"]: r for r in view.outcome.rows}
        for seat in view.seats:  # the felt shows the stacks after the settlement (start + net)
            row = finals.get(seat.seat)
            if row is not None:
                seat.net, seat.stack = row["net"], row["final"]
    return view


def _wager(kind: str, seat: int, lo: int, hi: int, amounts: Sequence[int] | None, already: int, split: bool,
           step: int) -> list[Action]:
    names = {"bet": _("Bet"), "raise": _("Raise to"), "complete": _("Complete to")}
    if split or lo == hi:
        return [Action(kind=kind, seat=seat, to=to, add=to - already, style="wager",
                       label=f"{names.get(kind, kind)} {_money(to)}") for to in (amounts or [lo])]
    return [Action(kind=kind, seat=seat, to=lo, add=lo - already, spread=(lo, hi, step), style="wager",
                   label=str(names.get(kind, kind)))]


def _simple(kind: str, seat: int | None, amount: int | None = None) -> Action:
    names = {"fold": pgettext("betting action", "Fold"), "check": pgettext("betting action", "Check"),
             "call": pgettext("betting action", "Call"), "ante": _("Ante"), "blind": _("Blind"),
             "bring_in": _("Bring-in"), "muck": _("Muck"), "show": _("Show"), "reveal": _("Reveal"),
             "play": _("Play"), "surrender": _("Surrender"), "deal_community": _("Community card")}
    label = str(names.get(kind, kind))
    if amount is not None:
        label = f"{label} {_money(amount)}"
    style = {"fold": "fold", "muck": "fold", "surrender": "fold"}.get(kind, "")
    return Action(kind=kind, seat=seat, amount=amount, label=label, style=style)


# --- Seven Card Stud -----------------------------------------------------------------------------------


def _pots(raw: Sequence[Mapping[str, Any]] | None) -> list[PotView]:
    pots = []
    for i, pot in enumerate(raw or []):
        name = str(_("Main pot")) if i == 0 else str(_("Side pot %(n)s") % {"n": i})
        pots.append(PotView(amount=int(pot["amount"]), eligible=list(pot.get("eligible") or []), name=name))
    return pots


# --- game extras the typed view leaves out ----------------------------------------------------------------


def _forty_one_extras(view: TableView, state: Mapping[str, Any]) -> None:
    """At the end of a Forty-one hand: what each seat's four cards make (the engine's hand description)."""
    hands = _by_seat(state.get("hands"))
    for sv in view.seats:
        if sv.seat in hands:
            sv.up_cards = [card_label(c) for c in (hands[sv.seat].get("cards") or "").split()]
            sv.down_count = 0
            sv.notes.append(message_text(hands[sv.seat].get("description", "")))


#: Capsa's naturals (A.8) and rows as the croupier reads them (the engine's names are codes).
NATURAL_LABELS = {"three_flushes": gettext_lazy("three flushes"), "three_straights": gettext_lazy("three straights"),
                  "six_pairs": gettext_lazy("six pairs"), "dragon": gettext_lazy("dragon"),
                  "clean_dragon": gettext_lazy("clean dragon")}
ROW_LABELS = {"front": gettext_lazy("front"), "middle": gettext_lazy("middle"), "back": gettext_lazy("back")}


def _capsa_extras(view: TableView, state: Mapping[str, Any]) -> None:
    """Capsa Susun: naturals, fouls, royalties, surrenders and units per seat (the engine's scoring)."""
    per_seat = _by_seat(state.get("seats"))
    units = _by_seat(state.get("units"))
    fouled = set(state.get("fouled") or [])
    awaiting = set(state.get("awaiting") or [])
    for sv in view.seats:
        info = per_seat.get(sv.seat, {})
        sv.to_act = sv.seat in awaiting
        sv.down_count = 0
        if info.get("natural"):
            name = info["natural"]
            sv.notes.append(str(_("natural: %(name)s") % {"name": NATURAL_LABELS.get(name, name)}))
        if sv.seat in fouled:
            reason = info.get("foul_reason")
            sv.notes.append(str(_("foul (A.4): %(reason)s") % {"reason": message_text(reason)}) if reason
                            else str(_("foul")))
        for row, units_row in sorted((info.get("royalties") or {}).items()):
            sv.notes.append(ngettext("royalty %(row)s: %(units)s unit", "royalty %(row)s: %(units)s units",
                                     abs(int(units_row))) % {"row": ROW_LABELS.get(row, row), "units": units_row})
        if info.get("decision") == "surrender":
            sv.notes.append(str(_("surrendered")))
        if sv.seat in units:
            sv.notes.append(ngettext("%(units)s unit", "%(units)s units", abs(int(units[sv.seat])))
                            % {"units": units[sv.seat]})
    view.capsa = {"expect": state.get("expect"), "awaiting": sorted(awaiting)}


def capsa_deal_events(*, settings: Mapping[int, Mapping[str, str]], dealt: Iterable[int]) -> list[dict[str, Any]]:
    """The ``deal`` events of a Capsa deal entered on the page, one per seat not yet ``dealt``: its 13 cards
    (front + middle + back). The croupier enters a seat's cards when the player sets them face up, so they
    are seen and logged by name, never as ``??`` (a table reading naturals at the deal needs them there,
    A.5.2)."""
    done = set(dealt)
    events: list[dict[str, Any]] = []
    for seat, rows in sorted(settings.items()):
        if seat in done:
            continue
        cards = " ".join([rows.get("front", ""), rows.get("middle", ""), rows.get("back", "")]).split()
        events.append({"type": "deal", "seat": seat, "cards": " ".join(cards)})
    return events


def capsa_natural_events(*, seats: Iterable[int], awaiting: Iterable[int]) -> list[dict[str, Any]]:
    """The ``declare_natural`` events of the seats the croupier marked as declaring a natural (tables with
    ``natural_declaration=optional``, A.5.2): their cards are known from the deal, the engine reads the natural
    from them (and refuses a hand that makes none, A.8). Only seats the engine still waits for."""
    wanted = set(awaiting)
    return [{"type": "declare_natural", "seat": seat} for seat in sorted(set(seats)) if seat in wanted]


def capsa_set_events(*, settings: Mapping[int, Mapping[str, str]], awaiting: Iterable[int]) -> list[dict[str, Any]]:
    """The ``set`` events (front / middle / back) of the seats the engine still waits for (a seat holding a
    natural does not set)."""
    wanted = set(awaiting)
    return [{"type": "set", "seat": seat, "front": rows.get("front", ""), "middle": rows.get("middle", ""),
             "back": rows.get("back", "")} for seat, rows in sorted(settings.items()) if seat in wanted]


def capsa_pending(state: Mapping[str, Any]) -> tuple[list[int], list[int]]:
    """``(dealt, to_enter)`` of a Capsa deal's view: the seats already dealt, and the seats whose cards the
    page still asks for (not set, no natural declared, not timed out)."""
    seats = _by_seat(state.get("seats"))
    dealt = [s for s, info in seats.items() if info.get("dealt")]
    to_enter = [s for s, info in sorted(seats.items())
                if not info.get("set") and not info.get("natural") and not info.get("timed_out")]
    return dealt, to_enter


def capsa_next_event(state: Mapping[str, Any], surrenders: Iterable[int]) -> dict[str, Any] | None:
    """The next event after the settings, read off the engine's view: a seat due in the surrender round
    plays (or surrenders if listed), then the reveal; None when the deal is complete or waits for a setting."""
    expect = state.get("expect")
    if expect == "surrender":
        seat = state.get("to_act")
        return {"type": "surrender" if seat in set(surrenders) else "play", "seat": seat}
    if expect == "reveal":
        return {"type": "reveal"}
    return None


def _pair_line(pair: Mapping[str, Any]) -> str | None:
    """``"Seat 2 pays seat 1 3 units"`` for one pair of the settlement (A.6); None when nothing changes hands
    between them (e.g. both fouled)."""
    a, b = pair["seats"]
    units = int(pair["units"][str(a)])
    if units == 0:
        return None
    winner, loser = (a, b) if units > 0 else (b, a)
    return ngettext("Seat %(loser)s pays seat %(winner)s %(units)s unit",
                    "Seat %(loser)s pays seat %(winner)s %(units)s units", abs(units)) % {
        "loser": loser, "winner": winner, "units": abs(units)}


# --- the one typed view (rules.core.view.HandView) -------------------------------------------------------


def _typed(hv: Any, state: Mapping[str, Any], *, unknown_ok: bool) -> TableView:
    """The screen of any registered game, built from its typed :class:`~rules.core.view.HandView` (seats, whose
    turn, legal actions with ``to``/``add`` and the spread range, pots, house take, outcome); the engine's
    own view adds only what the typed view leaves out (stud deal faces, Forty-one hands, Capsa scoring)."""
    take = hv.house_take_kind
    extra = dict(hv.extra or {})
    faces = {a.get("seat"): a.get("faces") for a in state.get("legal_actions") or []
             if a.get("type") == "deal" and a.get("faces")}
    by_seat = {s.seat: s for s in hv.seats}
    seats = []
    for s in hv.seats:
        shown = hv.complete and take != "fee"  # at the end every named card is on the table
        up = list(s.up_cards) + ([c for c in s.down_cards if c != UNKNOWN_CARD] if shown else [])
        downs = [c for c in s.down_cards if not shown or c == UNKNOWN_CARD] if take != "fee" else []
        sv = SeatView(seat=s.seat, stack=s.stack, street_bet=s.round_bet, contributed=s.in_pot, folded=s.folded,
                      all_in=s.all_in, to_act=s.seat == hv.to_act, down_count=len(downs),
                      up_cards=[card_label(c) for c in up])
        if s.seat == hv.button:
            sv.marks.append(str(_("forehand (Spitz)") if take == "tax" else _("button")))
        if s.seat == extra.get("bring_in_seat"):
            sv.marks.append(str(_("bring-in")))
        seats.append(sv)
    actions: list[Action] = []
    for a in hv.legal_actions:
        kind, seat = a.kind, a.seat
        if kind in ("bet", "raise", "complete"):
            already = (a.to or 0) - (a.add or 0)
            if a.choices:
                amounts: Sequence[int] = a.choices
            elif a.max_to is not None and a.max_to != a.to:
                actions += _wager(kind, seat, a.to, a.max_to, None, already, False, 100)
                continue
            else:
                amounts = [a.to]
            actions += _wager(kind, seat, a.to, a.to, amounts, already, True, 100)
        elif kind in ("ante", "blind", "bring_in", "call"):
            actions.append(_simple(kind, seat, a.add))
        elif kind == "deal" and take != "fee":
            pattern = faces.get(seat) or (["down"] * (a.cards or 2) if take == "tax" else ["up"] * (a.cards or 1))
            slots = [CardSlot(face=f, value=UNKNOWN_CARD if f == "down" and unknown_ok else "") for f in pattern]
            actions.append(Action(kind="deal", seat=seat, slots=slots, style="deal",
                                  label=str(_("Deal to seat %(seat)s") % {"seat": seat})))
        elif kind == "deal_community":
            actions.append(Action(kind=kind, seat=None, slots=[CardSlot(face="up")], style="deal",
                                  label=str(_("Community card"))))
        elif kind == "show" and seat in by_seat and UNKNOWN_CARD in by_seat[seat].down_cards:
            # ``cards`` at a show = all the seat's own cards (stud R11.2): the known ones preset, the face-down
            # ones logged as ?? entered now.
            own = by_seat[seat]
            action = _simple("show", seat)
            action.slots = ([CardSlot(face="up", value=c) for c in own.up_cards]
                            + [CardSlot(face="down", value="" if c == UNKNOWN_CARD else c) for c in own.down_cards])
            actions.append(action)
        elif kind == "expose":
            own = by_seat.get(seat)
            actions.append(Action(kind="expose", seat=seat, slots=[CardSlot(face="up"), CardSlot(face="up")],
                                  style="deal", label=str(_("Seat %(seat)s exposes") % {"seat": seat}),
                                  choices=[c for c in (own.down_cards if own else ()) if c != UNKNOWN_CARD]))
        elif kind in FLOOR_OR_FORM_KINDS:
            continue
        else:
            actions.append(_simple(kind, seat))
    exposure = _exposure(hv, actions)
    info: list[str] = []
    raises_left = extra.get("raises_left", state.get("raises_left"))
    if take == "taxe":
        street = str(STREET_LABELS.get(hv.street, ""))
        if state.get("open_pair") and not hv.complete:
            info.append(str(_("Open pair on 4th street: the higher limit may be bet (R6.4)")))
        if extra.get("community"):
            info.append(str(_("Community card: %(card)s") % {"card": extra["community"]}))
    else:
        street = str(PHASE_LABELS.get(hv.phase, ""))
    view = TableView(
        game=hv.game, phase=hv.phase, street=street, event_count=0, status="", to_act=hv.to_act, seats=seats,
        actions=actions, pots=_pots([{"amount": p.amount, "eligible": p.eligible} for p in hv.pots]),
        tax=hv.house_take, raises_left=raises_left, complete=hv.complete, outcome=None, unseen=[], deck=[],
        info=info, house_take=take, exposure=exposure)
    if take == "tax":
        _forty_one_extras(view, state)
    elif take == "fee":
        _capsa_extras(view, state)
    return view


#: Forty-one phases in which a card exposed on the deal may still make a misdeal (B.4b: before two players
#: have acted in round 1; the engine refuses it later, the deal stands).
EXPOSURE_MISDEAL_PHASES = frozenset({"forced_bets", "deal1", "round1"})
#: The reason a misdeal for an exposed card is logged with (the engine's ``misdeal`` event, B.4b).
EXPOSED_MISDEAL_REASON = "card exposed on the deal"


def _exposure(hv: Any, actions: Sequence[Action]) -> Action | None:
    """The form that logs a card the croupier exposed by accident, where the game's rules handle it:

    * stud family, 3rd street, the seat whose cards the page asks for next still to get its down cards: the
      exposed card is logged as that seat's card dealt face ``up`` (R12.2, the engine's own record of it:
      the seat's third card then comes face down; both down cards exposed = dead hand, ante back);
    * Forty-one, on the first deal and early in round 1: a misdeal (B.4b) with the exposed card named in its
      reason; after two players acted the engine refuses it with B.4b (the deal stands).
    None elsewhere (a later exposure is the floor's to rule on: the page's floor call)."""
    take = hv.house_take_kind
    if take == "taxe" and hv.phase == "deal" and hv.street == 3:
        deal = next((a for a in actions if a.kind == "deal" and a.slots), None)
        if deal is None or not deal.slots or deal.slots[0].face != "down":
            return None
        return Action(kind="deal", seat=deal.seat, face="up", slots=[CardSlot(face="up")], style="exposed",
                      label=str(_("Seat %(seat)s: a down card was exposed") % {"seat": deal.seat}))
    if take == "tax" and hv.phase in EXPOSURE_MISDEAL_PHASES:
        return Action(kind="misdeal", seat=None, slots=[CardSlot(face="up")], style="exposed",
                      reason=EXPOSED_MISDEAL_REASON, label=str(_("A card was exposed on the deal")))
    return None


def _typed_outcome(hv: Any, state: Mapping[str, Any], seats_in: Mapping[int, Any]) -> Outcome:
    """The settlement of a finished hand from the typed view's :class:`~rules.core.view.Outcome`."""
    out = hv.outcome
    rows = []
    for seat in sorted(seats_in):
        start = int(seats_in[seat]["stack"]) if isinstance(seats_in[seat], Mapping) else int(seats_in[seat])
        won, back, bonus, fee, net = (out.won.get(seat, 0), out.returned.get(seat, 0), out.bonus.get(seat, 0),
                                      out.fees.get(seat, 0), out.net.get(seat, 0))
        rows.append({"seat": seat, "start": start, "put_in": won + back + bonus - fee - net, "won": won,
                     "returned": back, "bonus": bonus, "fee": fee, "net": net, "final": start + net})
    lines = []
    for pot, seat, amount in out.awards:
        name = _("main pot") if pot == 0 else _("side pot %(n)s") % {"n": pot}
        lines.append(str(_("Seat %(seat)s wins %(amount)s from the %(pot)s") % {
            "seat": seat, "amount": _money(amount), "pot": name}))
    for seat, amount in sorted(out.returned.items()):
        if amount:
            text = (_("Seat %(seat)s gets %(amount)s back (hand void)") if out.void
                    else _("Seat %(seat)s gets %(amount)s back (uncalled)"))
            lines.append(str(text % {"seat": seat, "amount": _money(amount)}))
    for seat, amount in sorted(out.bonus.items()):
        if amount:
            lines.append(str(_("Seat %(seat)s is paid the 41 bonus of %(amount)s by the house") % {
                "seat": seat, "amount": _money(amount)}))
    for pair in state.get("pairs") or []:
        line = _pair_line(pair)
        if line:
            lines.append(line)
    return Outcome(rows=rows, house_take=out.house_take, bonus_total=sum(out.bonus.values()), lines=lines,
                   void=out.void)


def ranks_for(game: str) -> list[str]:
    """The rank keys of the card picker (Forty-one's 32-card pack: 7 to A)."""
    short = house_take(game) == "tax"
    return [r for r in RANKS if not short or RANKS.index(r) >= RANKS.index("7")]


SUIT_KEYS = [(s, SUIT_TO_SYMBOL[s]) for s in SUITS]
