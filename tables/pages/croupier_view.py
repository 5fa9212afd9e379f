"""The ONE adapter between the engines' views and the croupier's table screen (issue 15).

The page never reads an engine's view directly: :func:`table_view` turns the answer of the hand service
(``hand_state`` / ``hand_event_append``: the engine's ``view()`` plus ``status`` and ``event_count``, money
in int cents) into the typed :class:`TableView` the templates render. When the engines' one typed view
lands (engine-contract issue), only this module changes.

Nothing here decides a rule: the buttons are the engine's ``legal_actions``; the amounts are the
engine's (``to`` totals for wagers, the chips put in for ante, bring-in and call); the ``add`` shown on
a wager is ``to`` minus what the seat has in this street/round, as the engine reports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from rules.engines.cards import DECK_52, PIQUET_32, RANKS, SUIT_TO_SYMBOL, SUITS, parse_cards
from rules.engines.errors import RuleViolation

#: The token of a card dealt face down and not seen by the croupier (engine contract).
UNKNOWN_CARD = "??"
#: The games' house takes (:data:`rules.core.game_spec.HOUSE_TAKES`) whose engines accept ``??`` for an
#: unseen card today: the stud family. The engine-contract issue makes every game accept it; the set then
#: becomes all of them.
UNKNOWN_CARD_TAKES = frozenset({"taxe"})
#: Event keys that carry cards (seen cards are taken out of the card picker).
CARD_KEYS = ("cards", "card", "front", "middle", "back")
#: Where a rule number links to: the house rules as the engines implement them (docs/rules/, one anchor
#: per rule number, e.g. ``/rules/seven_card_stud/#R6.2``).
RULE_DOC_URL = "/rules/{game}/#{rule}"


def house_take(game: str) -> str:
    """The game's house take as the registry names it: ``taxe`` (the stud family), ``tax`` (Forty-one) or
    ``fee`` (Capsa Susun); it also picks how the screen lays the game out."""
    from rules.registry import get_game

    return get_game(game).house_take


def unknown_cards_allowed(game: str) -> bool:
    """True if ``game``'s engine takes ``??`` for a face-down card nobody saw."""
    return house_take(game) in UNKNOWN_CARD_TAKES


def rule_url(game: str, rule: str | None) -> str | None:
    """The page showing ``rule`` (e.g. ``"R6.2"``, ``"B.4"``) of ``game``, or None without a rule."""
    if not rule:
        return None
    return RULE_DOC_URL.format(game=game, rule=rule)


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


def dealt_to(events: Iterable[Mapping[str, Any]], seat: int) -> list[str]:
    """The cards dealt to ``seat`` in ``events`` (canonical text, ``??`` kept), in deal order."""
    out: list[str] = []
    for event in events:
        if event.get("type") == "deal" and event.get("seat") == seat and isinstance(event.get("cards"), str):
            tokens = event["cards"].replace(",", " ").split()
            for token in tokens:
                if token == UNKNOWN_CARD:
                    out.append(token)
                    continue
                try:
                    out.extend(str(c) for c in parse_cards(token))
                except RuleViolation:
                    continue
    return out


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

    @property
    def already(self) -> int:
        """What the seat has in this street/round before the wager (cents)."""
        return (self.to or 0) - (self.add or 0)

    @property
    def needs_cards(self) -> bool:
        return any(not s.value for s in self.slots)


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
    from rules.engines.money import format_cents

    return format_cents(int(cents or 0))


_L = gettext_lazy
#: Phases in which a player acts with chips: the page also offers "the player declares something else",
#: which the engine checks (and refuses with its rule when it is not allowed, e.g. a fourth raise).
BETTING_PHASES = frozenset({"betting", "bring_in", "round1", "round2"})
DECLARE_LABELS = {"raise": _L("raise to"), "bet": _L("bet"), "complete": _L("complete to"), "call": _L("call"),
                  "check": _L("check"), "fold": _L("fold")}
STREET_LABELS = {3: _L("3rd street"), 4: _L("4th street"), 5: _L("5th street"), 6: _L("6th street"),
                 7: _L("7th street")}
PHASE_LABELS = {
    "forced_bets": _L("ante and blind"), "deal1": _L("first deal"), "round1": _L("first betting round"),
    "deal2": _L("second deal"), "expose": _L("expose two cards"), "round2": _L("second betting round"),
    "showdown": _L("showdown"), "reveal": _L("show or muck"), "complete": _L("complete"), "deal": _L("deal"),
    "set": _L("setting"), "surrender": _L("play or surrender"),
}


def table_view(*, game: str, state: Mapping[str, Any], events: Sequence[Mapping[str, Any]], seats: Mapping[Any, Any],
               record_down_cards: bool, button_seat: int | None = None,
               limits: Mapping[str, Any] | None = None) -> TableView:
    """Build the :class:`TableView` of a hand.

    ``state``: the hand service's answer (engine view + ``status``, ``event_count``; cents). ``events``: the
    stored event payloads (for the cards already seen). ``seats``: ``hand.seats`` (starting stacks).
    ``record_down_cards``: the table logs every down card (else face-down cards are ``??`` where the engine
    takes it). Raises nothing for a well-formed view.
    """
    deck = deck_of(game)
    seen = seen_cards(events)
    unknown_ok = unknown_cards_allowed(game) and not record_down_cards
    take = house_take(game)
    builder = {"taxe": _stud, "tax": _forty_one, "fee": _capsa}[take]
    view = builder(state, unknown_ok=unknown_ok, button_seat=button_seat, seats_in=_by_seat(seats))
    step = _chip_unit(limits)
    for action in view.actions:
        if action.spread is not None:
            action.spread = (action.spread[0], action.spread[1], step)
    for action in view.actions:
        if action.kind == "expose" and action.seat is not None:  # two of the seat's own cards, if known
            action.choices = [c for c in dealt_to(events, action.seat) if c != UNKNOWN_CARD]
    if view.phase in BETTING_PHASES and view.to_act is not None:
        view.declare_kinds = [(k, str(DECLARE_LABELS[k])) for k in DECLARE_LABELS]
    if view.to_act is None and not view.complete:  # dealing: the seat the first card form is for
        view.to_act = next((a.seat for a in view.actions if a.slots and a.seat is not None), None)
        for seat in view.seats:
            seat.to_act = seat.seat == view.to_act
    view.game, view.house_take = game, take
    view.event_count = int(state.get("event_count") or 0)
    view.status = str(state.get("status") or "open")
    view.deck = deck
    view.unseen = [c for c in deck if c not in seen]
    if view.complete:
        _show_shown_cards(view, events)
        view.outcome = _outcome(game, state, _by_seat(seats))
        for seat in view.seats:
            seat.net = next((r["net"] for r in view.outcome.rows if r["seat"] == seat.seat), None)
    return view


def _show_shown_cards(view: TableView, events: Sequence[Mapping[str, Any]]) -> None:
    """At the end, a seat that showed its cards shows them all (the shown ``cards`` of its show event)."""
    for event in events:
        if event.get("type") == "show" and isinstance(event.get("cards"), str):
            seat = next((s for s in view.seats if s.seat == event.get("seat")), None)
            if seat is not None:
                seat.up_cards = [card_label(c) for c in event["cards"].split() if c != UNKNOWN_CARD]
                seat.down_count = 0


def _wager(kind: str, seat: int, lo: int, hi: int, amounts: Sequence[int] | None, already: int, split: bool,
           step: int) -> list[Action]:
    names = {"bet": _("Bet"), "raise": _("Raise to"), "complete": _("Complete to")}
    if split or lo == hi:
        return [Action(kind=kind, seat=seat, to=to, add=to - already, style="wager",
                       label=f"{names.get(kind, kind)} {_money(to)}") for to in (amounts or [lo])]
    return [Action(kind=kind, seat=seat, to=lo, add=lo - already, spread=(lo, hi, step), style="wager",
                   label=str(names.get(kind, kind)))]


def _simple(kind: str, seat: int | None, amount: int | None = None) -> Action:
    names = {"fold": _("Fold"), "check": _("Check"), "call": _("Call"), "ante": _("Ante"), "blind": _("Blind"),
             "bring_in": _("Bring-in"), "muck": _("Muck"), "show": _("Show"), "reveal": _("Reveal"),
             "play": _("Play"), "surrender": _("Surrender"), "deal_community": _("Community card")}
    label = str(names.get(kind, kind))
    if amount is not None:
        label = f"{label} {_money(amount)}"
    style = {"fold": "fold", "muck": "fold", "surrender": "fold"}.get(kind, "")
    return Action(kind=kind, seat=seat, amount=amount, label=label, style=style)


# --- Seven Card Stud -----------------------------------------------------------------------------------


def _stud(state: Mapping[str, Any], *, unknown_ok: bool, button_seat: int | None,
          seats_in: Mapping[int, Any]) -> TableView:
    stacks = _by_seat(state.get("stacks"))
    boards = _by_seat(state.get("boards"))
    downs = _by_seat(state.get("down_cards"))
    street_bets = _by_seat(state.get("street_contributions"))
    contrib = _by_seat(state.get("contributions"))
    folded = set(state.get("folded") or [])
    all_in = set(state.get("all_in") or [])
    to_act = state.get("to_act")
    seats = []
    for seat in sorted(stacks):
        sv = SeatView(seat=seat, stack=stacks[seat], street_bet=street_bets.get(seat, 0),
                      contributed=contrib.get(seat, 0), folded=seat in folded, all_in=seat in all_in,
                      to_act=seat == to_act, down_count=downs.get(seat, 0),
                      up_cards=[card_label(c) for c in (boards.get(seat) or "").split()])
        if seat == button_seat:
            sv.marks.append(str(_("button")))
        if seat == state.get("bring_in_seat"):
            sv.marks.append(str(_("bring-in")))
        seats.append(sv)
    split = any("amounts" in a for a in state.get("legal_actions") or [] if a.get("type") in ("bet", "raise"))
    actions: list[Action] = []
    for a in state.get("legal_actions") or []:
        kind, seat = a["type"], a.get("seat")
        if kind in ("bet", "raise", "complete"):
            actions += _wager(kind, seat, a["min"], a["max"], a.get("amounts"), street_bets.get(seat, 0),
                              split or "amounts" in a, 100)
        elif kind == "deal":
            slots = [CardSlot(face=f, value=UNKNOWN_CARD if f == "down" and unknown_ok else "")
                     for f in a.get("faces") or ["up"] * int(a.get("count") or 1)]
            actions.append(Action(kind="deal", seat=seat, slots=slots, style="deal",
                                  label=str(_("Deal to seat %(seat)s") % {"seat": seat})))
        elif kind == "deal_community":
            actions.append(Action(kind=kind, seat=None, slots=[CardSlot(face="up")], style="deal",
                                  label=str(_("Community card"))))
        elif kind == "show":
            action = _simple("show", seat)
            # ``cards`` at a stud show = all the seat's own cards (R11.2): the known up cards preset, the
            # face-down ones (logged as ??) entered now.
            hidden = downs.get(seat, 0) if unknown_ok else 0
            if hidden:
                action.slots = ([CardSlot(face="up", value=c) for c in (boards.get(seat) or "").split()]
                                + [CardSlot(face="down") for _i in range(hidden)])
            actions.append(action)
        else:
            actions.append(_simple(kind, seat, a.get("min") if kind in ("ante", "bring_in", "call") else None))
    info = []
    if state.get("open_pair"):
        info.append(str(_("Open pair on 4th street: the higher limit may be bet (R6.4)")))
    if state.get("community"):
        info.append(str(_("Community card: %(card)s") % {"card": state["community"]}))
    view = TableView(
        game="seven_card_stud", phase=str(state.get("phase")),
        street=str(STREET_LABELS.get(state.get("street"), "")),
        event_count=0, status="", to_act=to_act, seats=seats, actions=actions,
        pots=_pots(state.get("pots")), tax=int(state.get("tax") or 0), raises_left=state.get("raises_left"),
        complete=bool(state.get("complete")), outcome=None, unseen=[], deck=[], info=info)
    return view


def _pots(raw: Sequence[Mapping[str, Any]] | None) -> list[PotView]:
    pots = []
    for i, pot in enumerate(raw or []):
        name = str(_("Main pot")) if i == 0 else str(_("Side pot %(n)s") % {"n": i})
        pots.append(PotView(amount=int(pot["amount"]), eligible=list(pot.get("eligible") or []), name=name))
    return pots


# --- Forty-one -----------------------------------------------------------------------------------------


def _forty_one(state: Mapping[str, Any], *, unknown_ok: bool, button_seat: int | None,
               seats_in: Mapping[int, Any]) -> TableView:
    stacks = _by_seat(state.get("stacks"))
    round_bets = _by_seat(state.get("round_bets"))
    contrib = _by_seat(state.get("contributions"))
    exposed = _by_seat(state.get("exposed"))
    folded = set(state.get("folded") or [])
    to_act = state.get("to_act")
    forehand = state.get("forehand")
    complete = bool(state.get("complete"))
    seats = []
    for seat in sorted(stacks):
        sv = SeatView(seat=seat, stack=stacks[seat], street_bet=round_bets.get(seat, 0),
                      contributed=contrib.get(seat, 0), folded=seat in folded,
                      all_in=stacks[seat] == 0 and seat not in folded and not complete,
                      to_act=seat == to_act, up_cards=[card_label(c) for c in (exposed.get(seat) or "").split()])
        if seat == forehand:
            sv.marks.append(str(_("forehand (Spitz)")))
        seats.append(sv)
    actions: list[Action] = []
    for a in state.get("legal_actions") or []:
        kind = a["type"]
        if kind in ("bet", "raise"):
            actions += _wager(kind, to_act, a["min"], a["max"], None, round_bets.get(to_act, 0), True, 100)
        elif kind == "deal":
            slots = [CardSlot(face="down", value=UNKNOWN_CARD if unknown_ok else "") for _ in range(2)]
            actions.append(Action(kind="deal", seat=to_act, slots=slots, style="deal",
                                  label=str(_("Deal to seat %(seat)s") % {"seat": to_act})))
        elif kind == "expose":
            actions.append(Action(kind="expose", seat=to_act, slots=[CardSlot(face="up"), CardSlot(face="up")],
                                  style="deal", label=str(_("Seat %(seat)s exposes") % {"seat": to_act})))
        elif kind == "show" and unknown_ok:
            action = _simple("show", to_act)
            action.slots = [CardSlot(face="up"), CardSlot(face="up")]
            actions.append(action)
        else:
            actions.append(_simple(kind, to_act, a.get("min") if kind in ("ante", "blind", "call") else None))
    info = []
    hands = _by_seat(state.get("hands"))
    for sv in seats:
        if sv.seat in hands:  # at the end: the four cards each seat showed, and what they make
            sv.up_cards = [card_label(c) for c in (hands[sv.seat].get("cards") or "").split()]
            sv.notes.append(str(hands[sv.seat].get("description", "")))
    return TableView(
        game="forty_one", phase=str(state.get("phase")), street=str(PHASE_LABELS.get(state.get("phase"), "")),
        event_count=0, status="", to_act=to_act, seats=seats, actions=actions, pots=_pots(state.get("pots")),
        tax=int(state.get("tax") or 0), raises_left=state.get("raises_left"), complete=complete, outcome=None,
        unseen=[], deck=[], info=info)


# --- Capsa Susun ---------------------------------------------------------------------------------------


def _capsa(state: Mapping[str, Any], *, unknown_ok: bool, button_seat: int | None,
           seats_in: Mapping[int, Any]) -> TableView:
    stacks = _by_seat(state.get("stacks"))
    per_seat = _by_seat(state.get("seats"))
    awaiting = set(state.get("awaiting") or [])
    units = _by_seat(state.get("units"))
    fouled = set(state.get("fouled") or [])
    seats = []
    for seat in sorted(stacks):
        info = per_seat.get(seat, {})
        sv = SeatView(seat=seat, stack=stacks[seat], to_act=seat in awaiting)
        if seat == state.get("button"):
            sv.marks.append(str(_("button")))
        if info.get("natural"):
            sv.notes.append(str(_("natural: %(name)s") % {"name": info["natural"]}))
        if seat in fouled:
            sv.notes.append(str(_("foul")))
        for row, units_row in sorted((info.get("royalties") or {}).items()):
            sv.notes.append(str(_("royalty %(row)s: %(units)s units") % {"row": row, "units": units_row}))
        if info.get("decision") == "surrender":
            sv.notes.append(str(_("surrendered")))
        if seat in units:
            sv.notes.append(str(_("%(units)s units") % {"units": units[seat]}))
        seats.append(sv)
    actions = []
    for a in state.get("legal_actions") or []:  # after the settings: the surrender round and the reveal
        if a["type"] in ("play", "surrender"):
            actions += [_simple(a["type"], seat) for seat in a.get("seats") or []]
        elif a["type"] == "reveal":
            actions.append(_simple("reveal", None))
    return TableView(
        game="capsa_susun", phase=str(state.get("phase")), street=str(PHASE_LABELS.get(state.get("phase"), "")),
        event_count=0, status="", to_act=state.get("to_act"), seats=seats, actions=actions, pots=[], tax=0,
        raises_left=None, complete=bool(state.get("complete")), outcome=None, unseen=[], deck=[],
        capsa={"expect": state.get("expect"), "awaiting": sorted(awaiting)})


def capsa_deal_events(*, settings: Mapping[int, Mapping[str, str]], dealt: Iterable[int],
                      unknown_ok: bool) -> list[dict[str, Any]]:
    """The ``deal`` events of a Capsa deal entered on the page, one per seat not yet ``dealt``: its 13 cards
    (front + middle + back), or 13 ``??`` where the engine takes unseen cards (the cards are then named
    by the setting)."""
    done = set(dealt)
    events: list[dict[str, Any]] = []
    for seat, rows in sorted(settings.items()):
        if seat in done:
            continue
        cards = " ".join([rows.get("front", ""), rows.get("middle", ""), rows.get("back", "")]).split()
        deal = " ".join([UNKNOWN_CARD] * len(cards)) if unknown_ok else " ".join(cards)
        events.append({"type": "deal", "seat": seat, "cards": deal})
    return events


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


def _outcome(game: str, state: Mapping[str, Any], seats_in: Mapping[int, Any]) -> Outcome:
    st = state.get("settlement") or {}
    contributions = _by_seat(st.get("contributions"))
    awards = _by_seat(st.get("awards"))
    returned = _by_seat(st.get("returned"))
    bonus = _by_seat(st.get("bonus"))
    fees = _by_seat(st.get("fees"))
    net = _by_seat(st.get("net"))
    rows = []
    for seat in sorted(seats_in):
        start = int(seats_in[seat]["stack"]) if isinstance(seats_in[seat], Mapping) else int(seats_in[seat])
        rows.append({"seat": seat, "start": start, "put_in": contributions.get(seat, 0), "won": awards.get(seat, 0),
                     "returned": returned.get(seat, 0), "bonus": bonus.get(seat, 0), "fee": fees.get(seat, 0),
                     "net": net.get(seat, 0), "final": start + net.get(seat, 0)})
    lines = []
    for row in st.get("pot_awards") or []:
        pot, seat, amount = (row["pot"], row["seat"], row["amount"]) if isinstance(row, Mapping) else row
        name = _("main pot") if pot == 0 else _("side pot %(n)s") % {"n": pot}
        lines.append(str(_("Seat %(seat)s wins %(amount)s from the %(pot)s") % {
            "seat": seat, "amount": _money(amount), "pot": name}))
    for seat, amount in sorted(returned.items()):
        if amount:
            lines.append(str(_("Seat %(seat)s gets %(amount)s back (uncalled)") % {"seat": seat, "amount": _money(amount)}))
    for seat, amount in sorted(bonus.items()):
        if amount:
            lines.append(str(_("Seat %(seat)s is paid the 41 bonus of %(amount)s by the house") % {
                "seat": seat, "amount": _money(amount)}))
    for pair in state.get("pairs") or []:
        lines.append(_pair_line(pair))
    house = int(st.get("tax") or 0) + sum(fees.values())
    void = bool(state.get("void") or state.get("misdeal"))
    return Outcome(rows=rows, house_take=house, bonus_total=sum(bonus.values()), lines=lines, void=void)


def _pair_line(pair: Mapping[str, Any]) -> str:
    a, b = pair["seats"]
    units = int(pair["units"][str(a)])
    winner, loser = (a, b) if units >= 0 else (b, a)
    return str(_("Seat %(loser)s pays seat %(winner)s %(units)s units") % {
        "loser": loser, "winner": winner, "units": abs(units)})


def ranks_for(game: str) -> list[str]:
    """The rank keys of the card picker (Forty-one's 32-card pack: 7 to A)."""
    short = house_take(game) == "tax"
    return [r for r in RANKS if not short or RANKS.index(r) >= RANKS.index("7")]


SUIT_KEYS = [(s, SUIT_TO_SYMBOL[s]) for s in SUITS]
